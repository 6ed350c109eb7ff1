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

    /// Puts the files of RAW+JPEG pairs (same folder and name) next to each
    /// other, the JPEG first, so the RAW joins the JPEG's photo.
    static func pairOrdered(_ files: [SystemPath]) -> [SystemPath] { pairGroups(files).flatMap { $0 } }

    /// The files grouped by folder and stem (a RAW+JPEG pair, or one file),
    /// the JPEG first, groups in first-seen order.
    static func pairGroups(_ files: [SystemPath]) -> [[SystemPath]] {
        struct Key: Hashable { let folder: String, stem: String }
        var groups: [[SystemPath]] = []
        var index: [Key: Int] = [:]
        for file in files {
            let key = Key(folder: Importer.sourceFolder(of: file), stem: Importer.sourceStem(of: file))
            if let at = index[key] {
                groups[at].append(file)
            } else {
                index[key] = groups.count
                groups.append([file])
            }
        }
        let isRaw = { (f: SystemPath) in RawDecoder.extensions.contains((f.display as NSString).pathExtension.lowercased()) }
        return groups.map { group in group.filter { !isRaw($0) } + group.filter(isRaw) }
    }

}
