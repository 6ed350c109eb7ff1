import Foundation

/// What ``PhotoLibrary/rebuildCatalog(url:registry:)`` put in the new catalog.
public struct CatalogRebuildReport: Sendable {
    /// Photos in the new catalog.
    public var photos = 0
    /// Of those, photos restored from their revision records: same id, file
    /// name, import date and history (adjustment data, renders, bases).
    public var photosFromRecords = 0
    /// Of those, originals no record named (a library from before revision
    /// records, or records lost): new photos, metadata read again from the file.
    public var photosWithoutRecords = 0
    /// Revisions in the new catalog.
    public var revisions = 0
    /// Revisions whose render file was found.
    public var renders = 0
    /// Photos whose rating, colour label, keywords, title, caption,
    /// favorite and hidden came back from their metadata record.
    public var photosWithMetadata = 0
    /// Where the catalog that was replaced was moved (nil when there was none).
    public var previousCatalog: String?
    /// One line for each thing that could not be recovered (a damaged,
    /// foreign or oversized record among them, never quoting its content).
    public var problems: [String] = []
    /// Remarks (what was left out on purpose).
    public var notes: [String] = []
}

extension Maintenance {
    static func rebuildCatalog(url: URL, registry: FilterRegistry = .standard) throws -> CatalogRebuildReport {
        let layout = LibraryLayout(root: url.standardizedFileURL)
        guard FileIO.isDirectory(layout.originals) else { throw PhotoEditError.library("no library at \(layout.root.path) (no originals/ folder)") }
        guard access(layout.root.path, W_OK) == 0 else {
            throw PhotoEditError.library("\(layout.root.path) is read-only (no write access): its catalog cannot be rebuilt")
        }
        for dir in [layout.tmp, layout.revisions, layout.renders] {
            try? FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        }
        var report = CatalogRebuildReport()
        // Held exclusively while the catalog is rebuilt, released before the
        // library is opened (which holds it shared, on another descriptor).
        do {
            guard let lock = try LibraryLock(path: layout.lock, readOnly: false), lock.tryExclusive() else {
                throw PhotoEditError.library("\(layout.root.path) is open in another process: close it before rebuilding its catalog")
            }
            defer { withExtendedLifetime(lock) {} }
            let (assets, revisions, keywords, snapshots) = try recoverRows(layout, &report)
            let built = layout.temporary(".rebuilt-catalog")
            defer { unlink(built); unlink(built + "-journal") }
            try Catalog.build(at: built) { connection in
                for a in assets { try connection.insert(a) }
                for (id, list) in keywords { try Committing.changeKeywords(of: id, add: list, remove: [], replace: false, connection) }
                for r in revisions { try connection.insert(r) }
                for (id, list) in snapshots { for snapshot in list { try connection.insertSnapshot(snapshot, of: id) } }
                try connection.refreshCurrentVersionColumns()
            }
            try FileIO.flush(built)
            // The old catalog (damaged, empty) is kept, with its WAL: never
            // leave a WAL beside a catalog it does not belong to.
            if FileIO.exists(layout.catalog) || FileIO.exists(layout.catalog + "-wal") {
                let formatter = DateFormatter()
                formatter.locale = Locale(identifier: "en_US_POSIX")
                formatter.dateFormat = "yyyyMMdd-HHmmss"
                let kept = layout.catalog + ".before-rebuild-" + formatter.string(from: Date())
                for suffix in ["-wal", "-shm", ""] where FileIO.exists(layout.catalog + suffix) {
                    guard rename(layout.catalog + suffix, kept + suffix) == 0 else {
                        throw PhotoEditError.library("cannot move the old catalog aside: \(String(cString: strerror(errno)))")
                    }
                }
                report.previousCatalog = kept
                // A crash here leaves no catalog: the folder is refused
                // again, and the rebuild runs again from the same files.
                CrashPoint.reach("catalog-moved-aside")
            }
            guard rename(built, layout.catalog) == 0 else {
                throw PhotoEditError.library("cannot move the new catalog into place: \(String(cString: strerror(errno)))")
            }
            FileIO.flushDirectory(layout.root.path)
        }
        // Revisions recovered without a record (and photos made from bare
        // originals) get one now, so a later rebuild finds them as they are.
        let reopened = try PhotoLibrary(url: layout.root, create: false, registry: registry).maintenance
        let unrecorded = try reopened.read { db in
            try db.revisionsWithoutRecord()
        }
        for (id, number) in unrecorded {
            do { _ = try reopened.replaceSidecar(id, number) } catch let e as PhotoEditError {
                report.problems.append("\(id) revision \(number): cannot write its revision record: \(e.description)")
            }
        }
        return report
    }

    /// The rows of the new catalog, from the originals, revision and
    /// metadata records on disk; the recovered photos' keywords by id.
    private static func recoverRows(_ layout: LibraryLayout, _ report: inout CatalogRebuildReport) throws
        -> ([AssetRecord], [RevisionRecord], [String: [String]], [String: [SnapshotRecord]]) {
        // Files named by a pending intent journal belong to a commit that may
        // never have happened: left out (recovery removes them).
        let (_, pending) = IntentJournal.pendingPaths(in: layout.tmp)
        func relativeFiles(_ folder: String) -> [String] {
            let base = layout.absolute(folder)
            return Importer.filesInFolder(base).map { folder + "/" + String($0.dropFirst(base.count + 1)) }.filter { !pending.contains($0) }
        }
        // Originals by path, checked against the SHA-256 they are named by.
        var originals: [String: String] = [:]   // relative path → sha256
        for relative in relativeFiles("originals") {
            let name = ((relative as NSString).lastPathComponent as NSString).deletingPathExtension
            guard let sha = try? FileIO.sha256(of: layout.absolute(relative)), sha == name else {
                report.problems.append("\(relative): does not match the SHA-256 it is named by (damaged): left out")
                continue
            }
            originals[relative] = sha
        }
        // Revision records, by photo and number; metadata records, by photo.
        let recordFiles = relativeFiles("revisions")
        let described = PhotoLibrary.recoverMetadataRecords(layout, files: recordFiles, &report)
        var keywords: [String: [String]] = [:]
        var snapshots: [String: [SnapshotRecord]] = [:]
        var records: [String: [Int: (path: String, sidecar: RevisionSidecar)]] = [:]
        for relative in recordFiles where relative.hasSuffix(".json") && !LibraryLayout.isMetadataRecord(relative) {
            switch RevisionSidecar.read(layout.absolute(relative)) {
            case .failure(let error):
                report.problems.append("\(relative): \(error.description): left out")
            case .success(let s):
                let parts = relative.split(separator: "/")
                guard parts.count == 4, parts[2] == s.asset, parts[3].hasPrefix("\(s.revision)-") else {
                    report.problems.append("\(relative): names photo \(s.asset) revision \(s.revision), not where it is: left out")
                    continue
                }
                var keep = (path: relative, sidecar: s)
                if let other = records[s.asset]?[s.revision] {
                    // Two records of one revision (a crash between writing a
                    // new one and removing the old): the later one wins.
                    if other.sidecar.date >= s.date { keep = other }
                    report.notes.append("\(s.asset) revision \(s.revision): two records, kept \(keep.path)")
                }
                records[s.asset, default: [:]][s.revision] = keep
            }
        }
        var assets: [AssetRecord] = []
        var revisions: [RevisionRecord] = []
        var claimed = Set<String>()   // originals used by a photo
        var claimedByMaster = Set<String>()   // … by a photo that is not a virtual copy
        for (id, byNumber) in records.sorted(by: { $0.key < $1.key }) {
            // Every photo in `records` has at least one revision record.
            guard let (last, newest) = byNumber.max(by: { $0.key < $1.key }) else { continue }
            let latest = newest.sidecar
            let label = "photo \(id)"
            // A virtual copy shares its master's original (and RAW): its
            // metadata record says whose copy it is.
            let isCopy = described[id]?.record.master != nil
            guard originals[latest.original.path] == latest.original.sha256, isCopy || !claimedByMaster.contains(latest.original.path) else {
                report.problems.append("\(label): its original \(latest.original.path) is missing or damaged: not recovered (\(byNumber.count) revision records kept)")
                continue
            }
            let probe: ProbedImage
            do {
                probe = try Importer.probe(path: layout.absolute(latest.original.path), displayPath: latest.original.path, decodeAll: false)
            } catch let e as PhotoEditError {
                report.problems.append("\(label): \(e.description): not recovered")
                continue
            }
            claimed.insert(latest.original.path)
            if !isCopy { claimedByMaster.insert(latest.original.path) }
            var a = Self.record(id: id, relative: latest.original.path, sha256: latest.original.sha256, probe: probe,
                                filename: latest.original.filename, importDate: latest.importDate, layout: layout)
            a.sourceFolder = latest.sourceFolder
            a.sourceStem = latest.sourceStem
            if let alt = latest.alternate {
                if originals[alt.path] == alt.sha256, isCopy || !claimedByMaster.contains(alt.path) {
                    claimed.insert(alt.path)
                    if !isCopy { claimedByMaster.insert(alt.path) }
                    let rawProbe = try? Importer.probe(path: layout.absolute(alt.path), displayPath: alt.path, decodeAll: false)
                    a.alternatePath = alt.path
                    a.alternateSha256 = alt.sha256
                    a.alternateFilename = alt.filename
                    a.alternateFileSize = FileIO.size(layout.absolute(alt.path))
                    a.alternateFormat = rawProbe?.format ?? "raw"
                    a.alternateUniformTypeIdentifier = rawProbe?.uniformTypeIdentifier ?? "public.camera-raw-image"
                    if let camera = rawProbe?.camera { a.camera = try? String(decoding: JSONEncoder().encode(camera), as: UTF8.self) }
                } else {
                    report.problems.append("\(label): its RAW \(alt.path) is missing or damaged: recovered without it")
                }
            }
            if let (path, metadata) = described[id] {
                metadata.apply(to: &a)
                a.metadataPath = path
                if !metadata.keywords.isEmpty { keywords[id] = metadata.keywords }
                // A snapshot names a revision the photo has.
                if let list = metadata.snapshots?.filter({ $0.revision <= last }), !list.isEmpty { snapshots[id] = list }
                report.photosWithMetadata += 1
            }
            a.revision = last
            for n in 0...last {
                if let (path, s) = byNumber[n] {
                    revisions.append(s.record(sidecarPath: path))
                    if let render = s.render {
                        if FileIO.exists(layout.absolute(render)) { report.renders += 1 } else {
                            report.problems.append("\(label) revision \(n): render \(render) is missing (verify --repair rebuilds it)")
                        }
                    }
                } else if n == 0 {
                    // Committed by a version that wrote no record on import.
                    revisions.append(RevisionRecord(assetId: id, number: 0, createdAt: a.importDate, kind: Revision.Kind.imported.rawValue,
                                                    formatIdentifier: nil, formatVersion: nil, data: nil, renderPath: nil,
                                                    pixelWidth: probe.width, pixelHeight: probe.height))
                } else {
                    report.problems.append("\(label) revision \(n): no record; recovered as a revision without adjustments")
                    revisions.append(RevisionRecord(assetId: id, number: n, createdAt: byNumber[n - 1]?.sidecar.date ?? a.importDate,
                                                    kind: Revision.Kind.revert.rawValue, formatIdentifier: nil, formatVersion: nil,
                                                    data: nil, renderPath: nil, pixelWidth: probe.width, pixelHeight: probe.height))
                }
            }
            assets.append(a)
            report.photosFromRecords += 1
        }
        Self.reattachCopies(&assets, &report)
        // Originals no record names: photos of their own.
        for (relative, sha256) in originals.sorted(by: { $0.key < $1.key }) where !claimed.contains(relative) {
            let path = layout.absolute(relative)
            guard let probe = try? Importer.probe(path: path, displayPath: relative, decodeAll: false) else {
                report.problems.append("\(relative): not an image photoedit reads: left out")
                continue
            }
            var info = stat()
            let modified = stat(path, &info) == 0 ? Date(timeIntervalSince1970: TimeInterval(info.st_mtim.tv_sec)) : Date()
            let a = Self.record(id: Committing.newIdentifier(), relative: relative, sha256: sha256, probe: probe,
                                filename: (relative as NSString).lastPathComponent, importDate: modified, layout: layout)
            assets.append(a)
            revisions.append(RevisionRecord(assetId: a.id, number: 0, createdAt: modified, kind: Revision.Kind.imported.rawValue,
                                            formatIdentifier: nil, formatVersion: nil, data: nil, renderPath: nil,
                                            pixelWidth: probe.width, pixelHeight: probe.height))
            report.photosWithoutRecords += 1
        }
        report.photos = assets.count
        report.revisions = revisions.count
        report.notes.append("not recovered (kept only in the catalog): recently deleted, albums, edited dates and locations, change history")
        return (assets, revisions, keywords, snapshots)
    }

    /// Virtual copies whose master was not recovered: the oldest becomes
    /// the master of the others (as when a master is purged); a copy whose
    /// master uses another original is a photo of its own.
    private static func reattachCopies(_ assets: inout [AssetRecord], _ report: inout CatalogRebuildReport) {
        let byID = Dictionary(assets.map { ($0.id, $0) }, uniquingKeysWith: { a, _ in a })
        var heirs: [String: String] = [:]   // lost master → the copy that replaces it
        for i in assets.indices.sorted(by: { (assets[$0].importDate, assets[$0].id) < (assets[$1].importDate, assets[$1].id) }) {
            guard let master = assets[i].masterId else { continue }
            if let m = byID[master], m.masterId == nil, m.originalPath == assets[i].originalPath { continue }
            if let heir = heirs[master] {
                assets[i].masterId = heir
            } else {
                heirs[master] = assets[i].id
                report.problems.append("photo \(assets[i].id): virtual copy of \(master), which was not recovered: it is the master now")
                assets[i].masterId = nil
                assets[i].copyName = nil
            }
        }
    }

    private static func record(id: String, relative: String, sha256: String, probe: ProbedImage, filename: String,
                               importDate: Date, layout: LibraryLayout) -> AssetRecord {
        AssetRecord(id: id, originalFilename: filename, sha256: sha256, originalPath: relative,
                    fileSize: FileIO.size(layout.absolute(relative)) ?? 0, format: probe.format,
                    uniformTypeIdentifier: probe.uniformTypeIdentifier, mediaType: "image",
                    originalPixelWidth: probe.width, originalPixelHeight: probe.height, orientation: probe.orientation,
                    creationDate: probe.creationDate, latitude: probe.latitude, longitude: probe.longitude,
                    importDate: importDate, revision: 0,
                    camera: probe.camera.flatMap { try? String(decoding: JSONEncoder().encode($0), as: UTF8.self) })
    }
}
