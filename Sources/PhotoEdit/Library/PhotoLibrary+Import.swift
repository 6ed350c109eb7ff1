import Foundation
import GRDB

extension PhotoLibrary {
    /// Imports files and folders (recursively, in name order). Every file
    /// gets a result: its id (and whether the same bytes were already
    /// there), or the reason it was refused. A bad file never stops the rest.
    ///
    /// - Parameter progress: called after each file with (done, total).
    public func importItems(_ paths: [String], progress: (@Sendable (Int, Int) -> Void)? = nil) throws -> [ImportResult] {
        var files: [String] = []
        var results: [ImportResult] = []
        for path in paths {
            if FileIO.isDirectory(path) {
                files += Self.filesInFolder(path).filter { Self.imageExtensions.contains(($0 as NSString).pathExtension.lowercased()) }
            } else if FileIO.exists(path) {
                files.append(path)
            } else {
                results.append(ImportResult(path: path, id: nil, duplicate: false,
                                            error: .unreadableFile(path: path, reason: "no such file or folder"), joinedPair: false))
            }
        }
        for (i, file) in Self.pairOrdered(files).enumerated() {
            do {
                let (id, duplicate, joined) = try importFile(file)
                results.append(ImportResult(path: file, id: id, duplicate: duplicate, error: nil, joinedPair: joined))
            } catch let error as PhotoEditError {
                results.append(ImportResult(path: file, id: nil, duplicate: false, error: error, joinedPair: false))
            }
            progress?(i + 1, files.count)
        }
        return results
    }

    /// File extensions a folder import picks up. Files named on the command
    /// line are always tried, whatever their name; inside folders, other
    /// files (sidecars, notes) are skipped, as photo managers do.
    static let imageExtensions: Set<String> = Set(["jpg", "jpeg", "jpe", "png", "tif", "tiff", "webp", "heic", "heif", "avif",
                                                   "jxl", "gif", "jp2", "j2k"]).union(RawDecoder.extensions)

    /// Regular files under `folder`, recursively, hidden files skipped, sorted.
    static func filesInFolder(_ folder: String) -> [String] {
        let base = URL(fileURLWithPath: folder)
        guard let e = FileManager.default.enumerator(at: base, includingPropertiesForKeys: [.isRegularFileKey],
                                                     options: [.skipsHiddenFiles]) else { return [] }
        var out: [String] = []
        for case let url as URL in e where (try? url.resourceValues(forKeys: [.isRegularFileKey]).isRegularFile) == true {
            out.append(url.path)
        }
        return out.sorted()
    }

    /// Imports one file through `performChanges` (one path for every change).
    func importFile(_ path: String) throws -> (id: String, duplicate: Bool, joined: Bool) {
        var attempt = 0
        while true {
            do {
                var placeholder: ObjectPlaceholder?
                try performChanges { changes in placeholder = changes.createAsset(fromFileAt: path) }
                return (placeholder!.localIdentifier, placeholder!.existed, placeholder!.joinedPair)
            } catch PhotoEditError.library(let message) where message.contains("failed concurrent import") && attempt < 3 {
                attempt += 1
            }
        }
    }

    /// The photo whose original or alternate file has these bytes.
    static func assetHolding(sha256: String, _ db: Database) throws -> String? {
        try String.fetchOne(db, sql: "SELECT id FROM asset WHERE sha256 = ? UNION SELECT id FROM asset WHERE alternateSha256 = ?",
                            arguments: [sha256, sha256])
    }

    /// The folder a file is imported from (absolute, symbolic links resolved).
    static func sourceFolder(of path: String) -> String {
        URL(fileURLWithPath: path).deletingLastPathComponent().resolvingSymlinksInPath().path
    }

    /// A file's name without its extension, lowercased: `IMG_0042.CR2` and
    /// `IMG_0042.JPG` are one shot.
    static func sourceStem(of path: String) -> String {
        ((path as NSString).lastPathComponent as NSString).deletingPathExtension.lowercased()
    }

    /// Formats that pair with a RAW of the same shot (the camera's JPEG or HEIF).
    static let pairableFormats: Set<String> = ["jpeg", "heif"]

    /// Puts the files of RAW+JPEG pairs (same folder and name) next to each
    /// other, the JPEG first, so the RAW joins the JPEG's photo.
    static func pairOrdered(_ files: [String]) -> [String] {
        struct Key: Hashable { let folder: String, stem: String }
        var groups: [Key: [String]] = [:]
        var order: [Key] = []
        for file in files {
            let key = Key(folder: sourceFolder(of: file), stem: sourceStem(of: file))
            if groups[key] == nil { order.append(key) }
            groups[key, default: []].append(file)
        }
        let isRaw = { (f: String) in RawDecoder.extensions.contains((f as NSString).pathExtension.lowercased()) }
        return order.flatMap { key in groups[key]!.filter { !isRaw($0) } + groups[key]!.filter(isRaw) }
    }

    /// An original staged for a creation request.
    struct StagedOriginal {
        /// The photo that already has these bytes, if any.
        var existingID: String?
        /// Whether this staging moved the file into `originals/`.
        var placed: Bool
        var relative: String
        var record: AssetRecord?
        var revision: RevisionRecord?
    }

    /// Copies a file into staging while hashing it; for known bytes returns
    /// the existing photo; else checks and probes the copy and moves it into
    /// `originals/` read-only. The catalog rows are returned, not inserted.
    func stageOriginal(_ path: String, journal: IntentJournal) throws -> StagedOriginal {
        let staged = layout.temporary(".import")
        defer { unlink(staged) }
        let (sha, size) = try FileIO.copyHashing(from: path, to: staged, limit: Importer.maxFileBytes, limitName: "PHOTOEDIT_MAX_FILE_SIZE")
        if let existing = try read({ db in try Self.assetHolding(sha256: sha, db) }) {
            return StagedOriginal(existingID: existing, placed: false, relative: "")
        }
        let probe = try Importer.probe(path: staged, displayPath: path)
        let relative = LibraryLayout.originalPath(sha256: sha, extension: Importer.fileExtension(forLoader: probe.loader, format: probe.format,
                                                                                                 raw: probe.rawExtension))
        let destination = layout.absolute(relative)
        var placed = false
        if FileIO.exists(destination) {
            // Left by an import that crashed before its commit, or being
            // committed by another process right now: same bytes either way.
            guard (try? FileIO.sha256(of: destination)) == sha else {
                throw PhotoEditError.library("\(relative) exists with other content; run photoedit verify")
            }
        } else {
            try journal.record(relative)
            try FileIO.moveIntoPlace(from: staged, to: destination, readOnly: true)
            placed = true
        }
        let now = Date()
        let record = AssetRecord(id: "", originalFilename: (path as NSString).lastPathComponent, sha256: sha, originalPath: relative,
                                 fileSize: size, format: probe.format, uniformTypeIdentifier: probe.uniformTypeIdentifier,
                                 mediaType: "image", originalPixelWidth: probe.width, originalPixelHeight: probe.height,
                                 orientation: probe.orientation, creationDate: probe.creationDate, latitude: probe.latitude,
                                 longitude: probe.longitude, importDate: now, revision: 0,
                                 camera: probe.camera.flatMap { try? String(decoding: JSONEncoder().encode($0), as: UTF8.self) },
                                 sourceFolder: Self.sourceFolder(of: path), sourceStem: Self.sourceStem(of: path))
        let revision = RevisionRecord(assetId: "", number: 0, createdAt: now, kind: Revision.Kind.imported.rawValue,
                                      formatIdentifier: nil, formatVersion: nil, data: nil, renderPath: nil,
                                      pixelWidth: probe.width, pixelHeight: probe.height)
        return StagedOriginal(existingID: nil, placed: placed, relative: relative, record: record, revision: revision)
    }
}
