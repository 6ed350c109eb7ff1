import Foundation

extension Importing {
    func importItems(_ paths: [String], jobs: Int = ProcessInfo.processInfo.activeProcessorCount,
                            progress: ProgressHandler? = nil) throws -> [ImportResult] {
        try importItems(paths.map(SystemPath.init), jobs: jobs, progress: progress)
    }

    func importItems(fileSystemPaths paths: [[UInt8]], jobs: Int = ProcessInfo.processInfo.activeProcessorCount,
                            progress: ProgressHandler? = nil) throws -> [ImportResult] {
        try importItems(paths.map { SystemPath(bytes: $0) }, jobs: jobs, progress: progress)
    }

    func importItems(_ paths: [SystemPath], jobs: Int, progress: ProgressHandler?) throws -> [ImportResult] {
        var files: [SystemPath] = []
        var results: [ImportResult] = []
        for path in paths {
            if path.isDirectory {
                files += path.regularFilesInside().filter { Self.imageExtensions.contains(($0.display as NSString).pathExtension.lowercased()) }
            } else if path.exists {
                files.append(path)
            } else {
                results.append(ImportResult(path: path.display, id: nil, duplicate: false,
                                            error: .unreadableFile(path: path.display, reason: "no such file or folder"), joinedPair: false))
            }
        }
        let groups = Self.pairGroups(files)
        // Photos imported together list in file order (the catalog keeps
        // milliseconds): the k-th file's import time is the batch's start
        // plus k ms, whichever worker commits it first.
        let start = Date()
        let firstIndex = groups.reduce(into: [0]) { $0.append($0.last! + $1.count) }
        let imported = ConcurrentResults<ImportResult>(count: groups.count, total: files.count, progress: progress)
        concurrentlyPerform(groups.count, jobs: jobs) { g in
            var groupResults: [ImportResult] = groups[g].enumerated().map { k, file in
                defer { imported.step() }
                do {
                    let date = start.addingTimeInterval(Double(firstIndex[g] + k) / 1000)
                    let placeholder = try self.createAsset(.file(file), importDate: date)
                    return ImportResult(path: file.display, id: placeholder.localIdentifier, duplicate: placeholder.existed, error: nil,
                                        joinedPair: placeholder.joinedPair, warnings: placeholder.warnings)
                } catch {
                    return ImportResult(path: file.display, id: nil, duplicate: false,
                                        error: error as? PhotoEditError ?? .library("\(error)"), joinedPair: false)
                }
            }
            // Lightroom develop settings: a revision of the new photo.
            importDevelopSettings(of: groups[g], results: &groupResults)
            imported.set(g, groupResults)
        }
        results += imported.all
        return results
    }

    /// File extensions a folder import picks up. Files named on the command
    /// line are always tried, whatever their name; inside folders, other
    /// files (sidecars, notes) are skipped, as photo managers do.
    static let imageExtensions: Set<String> = Set(["jpg", "jpeg", "jpe", "png", "tif", "tiff", "webp", "heic", "heif", "avif",
                                                   "jxl", "gif", "jp2", "j2k"]).union(RawDecoder.extensions)

    /// Regular files under `folder`, recursively, hidden files skipped, sorted.
    static func filesInFolder(_ folder: String) -> [String] {
        SystemPath(folder).regularFilesInside().map(\.display)
    }

    /// The folder a file is imported from (absolute, symbolic links resolved).
    static func sourceFolder(of path: SystemPath) -> String {
        (path.parent.resolved() ?? path.parent).display
    }

    /// A file's name without its extension, lowercased: `IMG_0042.CR2` and
    /// `IMG_0042.JPG` are one shot.
    static func sourceStem(of path: SystemPath) -> String {
        (SystemPath.display(path.lastComponent) as NSString).deletingPathExtension.lowercased()
    }

    /// Formats that pair with a RAW of the same shot (the camera's JPEG or HEIF).
    static let pairableFormats: Set<String> = ["jpeg", "heif"]

    /// Puts the files of RAW+JPEG pairs (same folder and name) next to each
    /// other, the JPEG first, so the RAW joins the JPEG's photo.
    static func pairOrdered(_ files: [SystemPath]) -> [SystemPath] { pairGroups(files).flatMap { $0 } }

    /// The files grouped by folder and stem (a RAW+JPEG pair, or one file),
    /// the JPEG first, groups in first-seen order.
    static func pairGroups(_ files: [SystemPath]) -> [[SystemPath]] {
        struct Key: Hashable { let folder: String, stem: String }
        var groups: [Key: [SystemPath]] = [:]
        var order: [Key] = []
        for file in files {
            let key = Key(folder: sourceFolder(of: file), stem: sourceStem(of: file))
            if groups[key] == nil { order.append(key) }
            groups[key, default: []].append(file)
        }
        let isRaw = { (f: SystemPath) in RawDecoder.extensions.contains((f.display as NSString).pathExtension.lowercased()) }
        return order.map { key in groups[key]!.filter { !isRaw($0) } + groups[key]!.filter(isRaw) }
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
        /// The keywords the photo arrives with (XMP).
        var keywords: [String] = []
        /// What the import noticed without refusing the file (an unusable sidecar).
        var warnings: [String] = []
    }

    /// Copies a file into staging while hashing it; for known bytes returns
    /// the existing photo; else checks and probes the copy and moves it into
    /// `originals/` read-only. The catalog rows are returned, not inserted.
    func stageOriginal(_ source: ImportSource, journal: IntentJournal, importDate: Date? = nil) throws -> StagedOriginal {
        let staged = layout.temporary(".import")
        defer { unlink(staged) }
        let sha: String, size: Int64, displayPath: String, filename: String?, origin: SystemPath?
        switch source {
        case .file(let path):
            (sha, size) = try FileIO.copyHashing(from: path, to: staged, limit: Importer.maxFileBytes, limitName: "PHOTOEDIT_MAX_FILE_SIZE")
            (displayPath, filename, origin) = (path.display, SystemPath.display(path.lastComponent), path)
        case let .data(data, name):
            filename = try Self.checkedFilename(name)
            (displayPath, origin) = (filename ?? Self.unnamedUpload, nil)
            let writer = try FileIO.HashingWriter(path: staged, limit: Importer.maxFileBytes, limitName: "PHOTOEDIT_MAX_FILE_SIZE",
                                                  source: displayPath)
            try data.withUnsafeBytes { try writer.append($0) }
            (sha, size) = try writer.finish()
        case let .staged(path, hash, count, name):
            // A second name for the upload's file: moving it into place
            // leaves the upload for a retry.
            guard link(path, staged) == 0 else {
                throw PhotoEditError.library("the staged upload is gone: \(String(cString: strerror(errno)))")
            }
            (sha, size, filename, origin) = (hash, count, name, nil)
            displayPath = name ?? Self.unnamedUpload
        }
        if let existing = try read({ db in try db.assetID(holding: sha) }) {
            return StagedOriginal(existingID: existing, placed: false, relative: "")
        }
        let probe = try Importer.probe(path: staged, displayPath: displayPath)
        let relative = LibraryLayout.originalPath(sha256: sha, extension: Importer.fileExtension(forLoader: probe.loader, format: probe.format,
                                                                                                 raw: probe.rawExtension))
        var placed = false
        if try files.exists(relative) {
            // Left by an import that crashed before its commit, or being
            // committed by another process right now: same bytes either way.
            guard (try? FileIO.sha256(of: try files.localPath(relative))) == sha else {
                throw PhotoEditError.library("\(relative) exists with other content; run photoedit verify")
            }
        } else {
            try journal.record(relative)
            // The preview first, from the local copy: once the original is
            // in place, every request can count on its preview (unless the
            // library leaves previews to its job workers: see afterImport).
            if parts.afterImport == nil {
                rendering.makePreview(ofStaged: staged, as: relative, width: probe.width, height: probe.height, raw: probe.format == "raw")
            }
            try files.publish(staged, as: relative)
            placed = true
        }
        let now = importDate ?? Date()
        let record = AssetRecord(id: "", originalFilename: filename ?? (relative as NSString).lastPathComponent, sha256: sha, originalPath: relative,
                                 fileSize: size, format: probe.format, uniformTypeIdentifier: probe.uniformTypeIdentifier,
                                 mediaType: "image", originalPixelWidth: probe.width, originalPixelHeight: probe.height,
                                 orientation: probe.orientation, creationDate: probe.creationDate, latitude: probe.latitude,
                                 longitude: probe.longitude, importDate: now, revision: 0,
                                 camera: probe.camera.flatMap { try? String(decoding: JSONEncoder().encode($0), as: UTF8.self) },
                                 sourceFolder: origin.map(Self.sourceFolder), sourceStem: origin.map(Self.sourceStem))
        let revision = RevisionRecord(assetId: "", number: 0, createdAt: now, kind: Revision.Kind.imported.rawValue,
                                      formatIdentifier: nil, formatVersion: nil, data: nil, renderPath: nil,
                                      pixelWidth: probe.width, pixelHeight: probe.height)
        var result = StagedOriginal(existingID: nil, placed: placed, relative: relative, record: record, revision: revision)
        let (metadata, warnings) = Self.importedMetadata(embedded: probe.xmp, iptc: probe.iptc, source: origin)
        result.describe(metadata)
        result.warnings = warnings
        return result
    }
}
