import Foundation

/// What `copy(to:)` did, and what its verification found.
public struct LibraryCopyReport: Sendable, Equatable {
    /// Photos in the source.
    public var photos = 0
    /// Photos copied by this run.
    public var copied = 0
    /// Photos a previous, interrupted run had copied already (checked, left as they are).
    public var alreadyThere = 0
    /// Revisions in the copy.
    public var revisions = 0
    /// Files written by this run (originals, renders, revision records).
    public var filesWritten = 0
    /// Their bytes.
    public var bytesWritten: Int64 = 0
    /// Albums in the copy.
    public var albums = 0
    /// Files checked at the end (every original against its SHA-256, every
    /// render and revision record against the source's bytes).
    public var filesVerified = 0

    /// One line: `copied 12 photos (3 already there), 40 revisions, 2 albums; 95 files verified`.
    public var summary: String {
        "copied \(copied) photo\(copied == 1 ? "" : "s")" + (alreadyThere > 0 ? " (\(alreadyThere) already there)" : "")
            + ", \(revisions) revision\(revisions == 1 ? "" : "s"), \(albums) album\(albums == 1 ? "" : "s"), "
            + "\(filesWritten) file\(filesWritten == 1 ? "" : "s") (\(bytesWritten) bytes) written; \(filesVerified) files verified"
    }
}

extension Maintenance {
    func copy(to target: PhotoLibrary, progress: ProgressHandler? = nil) throws -> LibraryCopyReport {
        try target.requireWritable()
        guard target.files.location != files.location else {
            throw PhotoEditError.library("library copy: the source and the target are the same library")
        }
        var report = LibraryCopyReport()
        let ids = try read { db in try db.assetIDsInImportOrder() }
        report.photos = ids.count

        // Refuse a target that is not empty and not a partial copy of this library.
        let sourceIDs = Set(ids)
        let (targetIDs, targetAlbums) = try target.read { db in
            (Set(try db.assetIDsInImportOrder()), try db.allAlbums().map { ($0.id, $0.title) })
        }
        if let stray = targetIDs.subtracting(sourceIDs).sorted().first {
            throw PhotoEditError.library("library copy: the target holds photo \(stray), which the source has not: "
                + "copy into an empty library (or a partial copy of this one)")
        }
        let sourceAlbums = Dictionary(uniqueKeysWithValues: try read { db in
            try db.allAlbums().map { ($0.id, $0.title) }
        })
        if let stray = targetAlbums.first(where: { sourceAlbums[$0.0] != $0.1 }) {
            throw PhotoEditError.library("library copy: the target holds album '\(stray.1)', which the source has not: "
                + "copy into an empty library (or a partial copy of this one)")
        }
        for id in ids where targetIDs.contains(id) {
            let (mine, theirs) = (try photoRows(id), try target.maintenance.photoRows(id))
            guard let theirs, let mine, Self.sameCopy(mine, theirs) else {
                throw PhotoEditError.library("library copy: the target's photo \(id) differs from the source's "
                    + "(changed since the partial copy?): copy into an empty library")
            }
        }

        for (n, id) in ids.enumerated() {
            defer { progress?(n + 1, ids.count) }
            guard let (asset, revisions) = try photoRows(id) else { continue }   // purged meanwhile
            report.revisions += revisions.count
            if targetIDs.contains(id) {
                report.alreadyThere += 1
                continue
            }
            for (relative, sha256) in Self.files(asset, revisions) {
                if let bytes = try copyFile(relative, sha256: sha256, to: target) {
                    report.filesWritten += 1
                    report.bytesWritten += bytes
                }
            }
            let (keywords, snapshots) = try read { db in (try CatalogModels.keywords(of: [id], db)[id] ?? [], try db.snapshots(of: id)) }
            // Tests kill the copy here, before the commit of photo N (its files put).
            CrashPoint.reach("copy-before-commit-\(n + 1)")
            try target.write { db in
                guard try db.asset(id) == nil else {
                    throw PhotoEditError.library("library copy: photo \(id) appeared in the target while it was being copied")
                }
                let recorder = ChangeRecorder()
                try recorder.asset(id, db)
                try db.insert(asset)
                try Committing.changeKeywords(of: id, add: keywords, remove: [], replace: false, db)
                for revision in revisions { try db.insert(revision) }
                for snapshot in snapshots { try db.insertSnapshot(snapshot, of: id) }
                try db.refreshCurrentVersionColumns(of: id)
                try recorder.record(db)
            }
            report.copied += 1
        }

        // Albums, with their photos in order, in one transaction.
        let albums = try read { db in
            try db.allAlbums().map { album in
                (id: album.id, title: album.title, created: album.createdAt, members: try db.albumMembers(album.id))
            }
        }
        report.albums = albums.count
        if !albums.isEmpty {
            try target.write { db in
                let recorder = ChangeRecorder()
                for album in albums {
                    try recorder.album(album.id, db)
                    if try !db.albumExists(album.id) {
                        try db.insertAlbum(album.id, title: album.title, createdAt: album.created)
                    }
                    let present = try db.albumMembers(album.id)
                    guard present != album.members else { continue }
                    for id in Set(present + album.members) { try recorder.asset(id, db) }
                    try db.replaceAlbumMembers(album.id, with: album.members)
                }
                try recorder.record(db)
            }
        }

        report.filesVerified = try verifyCopy(ids, in: target)
        return report
    }

    /// A photo's row and its revisions' rows, nil when there is no such photo.
    func photoRows(_ id: String) throws -> (AssetRecord, [RevisionRecord])? {
        try read { db in
            guard let asset = try db.asset(id) else { return nil }
            return (asset, try db.revisions(of: id))
        }
    }

    /// Whether a photo in the target is the source's (what a copy writes and a later edit would change).
    static func sameCopy(_ a: (AssetRecord, [RevisionRecord]), _ b: (AssetRecord, [RevisionRecord])) -> Bool {
        func key(_ r: RevisionRecord) -> [String?] {
            [String(r.number), r.kind, r.formatIdentifier, r.formatVersion, r.data?.base64EncodedString(), r.renderPath, r.sidecarPath,
             r.basePath, r.baseRevision.map(String.init)]
        }
        return a.0.id == b.0.id && a.0.sha256 == b.0.sha256 && a.0.originalPath == b.0.originalPath && a.0.revision == b.0.revision
            && a.0.alternatePath == b.0.alternatePath && a.1.map(key) == b.1.map(key)
    }

    /// Every file a photo's rows name, with the SHA-256 it must have when
    /// the name says it (originals), each once.
    static func files(_ asset: AssetRecord, _ revisions: [RevisionRecord]) -> [(String, String?)] {
        var out: [(String, String?)] = [(asset.originalPath, asset.sha256)]
        if let path = asset.alternatePath { out.append((path, asset.alternateSha256)) }
        if let path = asset.metadataPath { out.append((path, nil)) }
        for r in revisions {
            for path in [r.renderPath, r.basePath, r.sidecarPath].compactMap({ $0 }) { out.append((path, nil)) }
        }
        var seen = Set<String>()
        return out.filter { seen.insert($0.0).inserted }
    }

    /// Puts one file into the target's store unless it is there already;
    /// returns its size when it was written. An original whose bytes do not
    /// match its SHA-256 is refused (nothing written).
    private func copyFile(_ relative: String, sha256: String?, to target: PhotoLibrary) throws -> Int64? {
        if try target.files.exists(relative) { return nil }
        guard let source = files.existingLocalPath(relative) else {
            throw PhotoEditError.library("library copy: \(relative) is missing from the source (run verify on it first)")
        }
        let staged = target.layout.temporary(".copy")
        defer { unlink(staged) }
        let (digest, size) = try FileIO.copyHashing(from: source, to: staged)
        if let sha256, digest != sha256 {
            throw PhotoEditError.library("library copy: \(relative) in the source does not match its SHA-256 (damaged); nothing of its photo was copied")
        }
        try target.files.publish(staged, as: relative)
        return size
    }

    /// Checks every photo of `ids` in the target against the source: the
    /// same rows, every original matching its SHA-256, every other file the
    /// same bytes. Returns the files checked; throws on the first difference.
    private func verifyCopy(_ ids: [String], in target: PhotoLibrary) throws -> Int {
        var checked = 0
        for id in ids {
            guard let mine = try photoRows(id) else { continue }
            guard let theirs = try target.maintenance.photoRows(id), Self.sameCopy(mine, theirs) else {
                throw PhotoEditError.library("library copy: verification: photo \(id) is missing or different in the target")
            }
            for (relative, sha256) in Self.files(mine.0, mine.1) {
                guard let copy = target.files.existingLocalPath(relative) else {
                    throw PhotoEditError.library("library copy: verification: \(relative) is missing from the target")
                }
                let digest = try FileIO.sha256(of: copy)
                let expected: String
                if let sha256 { expected = sha256 } else {
                    guard let original = files.existingLocalPath(relative) else {
                        throw PhotoEditError.library("library copy: verification: \(relative) is missing from the source")
                    }
                    expected = try FileIO.sha256(of: original)
                }
                guard digest == expected else {
                    throw PhotoEditError.library("library copy: verification: \(relative) in the target differs from the source")
                }
                checked += 1
            }
        }
        return checked
    }
}
