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
                                            error: .unreadableFile(path: path, reason: "no such file or folder")))
            }
        }
        for (i, file) in files.enumerated() {
            do {
                let (id, duplicate) = try importFile(file)
                results.append(ImportResult(path: file, id: id, duplicate: duplicate, error: nil))
            } catch let error as PhotoEditError {
                results.append(ImportResult(path: file, id: nil, duplicate: false, error: error))
            }
            progress?(i + 1, files.count)
        }
        return results
    }

    /// File extensions a folder import picks up. Files named on the command
    /// line are always tried, whatever their name; inside folders, other
    /// files (sidecars, notes) are skipped, as photo managers do.
    static let imageExtensions: Set<String> = ["jpg", "jpeg", "jpe", "png", "tif", "tiff", "webp", "heic", "heif", "avif",
                                               "jxl", "gif", "jp2", "j2k"]

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

    /// Imports one file: copy into staging while hashing, return the existing
    /// id for known bytes, check and probe the copy, move it into place
    /// read-only, then insert the photo and its revision 0 in one transaction.
    func importFile(_ path: String) throws -> (id: String, duplicate: Bool) {
        let staged = layout.temporary(".import")
        defer { unlink(staged) }
        let (sha, size) = try FileIO.copyHashing(from: path, to: staged)
        if let existing = try read({ db in try String.fetchOne(db, sql: "SELECT id FROM asset WHERE sha256 = ?", arguments: [sha]) }) {
            return (existing, true)
        }
        let probe = try Importer.probe(path: staged, displayPath: path)
        let relative = LibraryLayout.originalPath(sha256: sha, extension: Importer.fileExtension(forLoader: probe.loader, format: probe.format))
        let destination = layout.absolute(relative)
        if FileIO.exists(destination) {
            // Left by an import that crashed before its commit, or being
            // committed by another process right now: same bytes either way.
            guard (try? FileIO.sha256(of: destination)) == sha else {
                throw PhotoEditError.library("\(relative) exists with other content; run photoedit verify")
            }
        } else {
            try FileIO.moveIntoPlace(from: staged, to: destination, readOnly: true)
        }
        let id = UUID().uuidString.replacingOccurrences(of: "-", with: "").lowercased()
        let now = Date()
        do {
            return try db.write { db in
                if let existing = try String.fetchOne(db, sql: "SELECT id FROM asset WHERE sha256 = ?", arguments: [sha]) {
                    return (existing, true)
                }
                try AssetRecord(id: id, originalFilename: (path as NSString).lastPathComponent, sha256: sha, originalPath: relative,
                                fileSize: size, format: probe.format, uniformTypeIdentifier: probe.uniformTypeIdentifier,
                                mediaType: "image", originalPixelWidth: probe.width, originalPixelHeight: probe.height,
                                orientation: probe.orientation, creationDate: probe.creationDate, latitude: probe.latitude,
                                longitude: probe.longitude, importDate: now, revision: 0).insert(db)
                try RevisionRecord(assetId: id, number: 0, createdAt: now, kind: Revision.Kind.imported.rawValue,
                                   formatIdentifier: nil, formatVersion: nil, data: nil, renderPath: nil,
                                   pixelWidth: probe.width, pixelHeight: probe.height).insert(db)
                return (id, false)
            }
        } catch let error as DatabaseError {
            throw PhotoEditError.library("catalog: \(error.message ?? error.description)")
        }
    }
}
