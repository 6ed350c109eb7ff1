import Foundation

/// Staging files in `tmp/` belong to the process that made them (their
/// names start with its pid). Recovery empties `tmp/` when a process opens
/// the library alone; a process that keeps the library open for days (a
/// server) cleans up after itself and after processes that died meanwhile.
extension Committing {
    /// A dead process's staging file is removed once it is this old (a
    /// file that young could belong to a process on another machine whose
    /// pid happens to be unused here).
    static let deadProcessStagingAge: TimeInterval = 10 * 60
    /// An editing output this process staged but never committed (its
    /// editor gave up, or a refusal was never retried) is removed once its
    /// render is this old (editors write the render just before committing).
    static let abandonedOutputAge: TimeInterval = 60 * 60
    /// How often `performChanges` sweeps `tmp/`.
    static let stagingSweepInterval: TimeInterval = 5 * 60

    /// The folder editing outputs stage their render in (an editing
    /// input's `stagingDirectory`, where `ContentEditingOutput` names it).
    var stagingDirectory: URL { URL(fileURLWithPath: layout.tmp) }

    /// Commits an output the engine writes itself as photo `id`'s next
    /// revision: `write` writes its staging file (a render, a copy, another
    /// editor's output), then it is committed. The staging file is removed
    /// once, whatever happens: here when `write` fails or the library is
    /// read-only, by the commit (`commit`'s end) otherwise.
    func commitRevision(of id: String, staging output: ContentEditingOutput,
                        writing write: (inout ContentEditingOutput) throws -> Void) throws -> Revision {
        var output = output
        do {
            try write(&output)
            try requireWritable()
        } catch {
            removeStagedRender(of: output)
            throw error
        }
        return try commitRevision(of: id, output: output)
    }

    /// Removes the staged render of an output `performChanges` was given.
    func removeStagedRender(of output: ContentEditingOutput) {
        let path = output.renderedContentURL.standardizedFileURL.path
        guard (path as NSString).deletingLastPathComponent == layout.tmp else { return }
        unlink(path)
    }

    /// Sweeps `tmp/` when the last sweep is older than `stagingSweepInterval`.
    func sweepStagingIfDue(now: Date = Date()) {
        let due = hooks.stagingSweep.withLock { last in
            guard now.timeIntervalSince(last) >= Self.stagingSweepInterval else { return false }
            last = now
            return true
        }
        if due { sweepStaging(now: now) }
    }

    /// Removes staging files of processes that are gone, and this process's
    /// abandoned editing outputs. Intent journals are never touched here:
    /// only recovery, with the library to itself, may act on them.
    /// Returns the names removed.
    @discardableResult
    func sweepStaging(now: Date = Date()) -> [String] {
        guard !isReadOnly, let names = try? FileManager.default.contentsOfDirectory(atPath: layout.tmp) else { return [] }
        let me = getpid()
        var removed: [String] = []
        for name in names {
            let path = layout.tmp + "/" + name
            var info = stat()
            guard lstat(path, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG else { continue }
            let stale: Bool
            switch stagedFile(named: name, age: now.timeIntervalSince1970 - TimeInterval(info.st_mtim.tv_sec)) {
            case .abandonedOutput(let owner): stale = owner == me
            case .leftBehind(let owner): stale = owner != nil
            case .inProgress: stale = false
            }
            if stale, unlink(path) == 0 { removed.append(name) }
        }
        return removed
    }

    /// What a file in `tmp/` is, from the process its name starts with and its age.
    enum StagedFile: Equatable {
        /// Work in progress: a running process's, or too young to tell.
        case inProgress
        /// An editing output a running process staged over
        /// `abandonedOutputAge` ago and never committed.
        case abandonedOutput(owner: pid_t)
        /// Left by a process that is gone (or by none: its name starts with
        /// no pid), older than `deadProcessStagingAge`.
        case leftBehind(owner: pid_t?)
    }

    /// Classifies a file of `tmp/` (not an intent journal) `age` seconds
    /// old: what the sweep removes and `verify` reports.
    func stagedFile(named name: String, age: TimeInterval) -> StagedFile {
        let owner = name.firstIndex(of: "-").flatMap { pid_t(name[..<$0]) }.flatMap { $0 > 0 ? $0 : nil }
        if let owner, owner == getpid() || kill(owner, 0) == 0 || errno != ESRCH {
            return name.hasSuffix("-render.jpg") && age >= Self.abandonedOutputAge ? .abandonedOutput(owner: owner) : .inProgress
        }
        return age >= Self.deadProcessStagingAge ? .leftBehind(owner: owner) : .inProgress
    }
}

/// Originals: a creation request's file staged in `tmp/` while hashed,
/// probed, and published into `originals/` before the commit's transaction.
extension Committing {
    /// What staging a creation request's file found.
    enum Staging {
        /// A photo already has these bytes.
        case existing(id: String)
        /// New bytes, in `originals/`, with the rows to insert.
        case staged(StagedOriginal)
    }

    /// A new original staged for a creation request.
    struct StagedOriginal {
        /// Whether this staging moved the file into `originals/`.
        var placed: Bool
        var relative: String
        var record: AssetRecord
        var revision: RevisionRecord
        /// The keywords the photo arrives with (XMP).
        var keywords: [String] = []
        /// What the import noticed without refusing the file (an unusable sidecar).
        var warnings: [String] = []
    }

    /// Copies a file into staging while hashing it; for known bytes returns
    /// the existing photo; else checks and probes the copy and moves it into
    /// `originals/` read-only. The catalog rows are returned, not inserted.
    func stageOriginal(_ source: ImportSource, journal: IntentJournal, importDate: Date? = nil) throws -> Staging {
        let staged = layout.temporary(".import")
        defer { unlink(staged) }
        let sha: String, size: Int64, displayPath: String, filename: String?, origin: SystemPath?
        switch source {
        case .file(let path):
            (sha, size) = try FileIO.copyHashing(from: path, to: staged, limit: Importer.maxFileBytes, limitName: "PHOTOEDIT_MAX_FILE_SIZE")
            (displayPath, filename, origin) = (path.display, SystemPath.display(path.lastComponent), path)
        case let .data(data, name):
            filename = try Importer.checkedFilename(name)
            (displayPath, origin) = (filename ?? Importer.unnamedUpload, nil)
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
            displayPath = name ?? Importer.unnamedUpload
        }
        if let existing = try read({ db in try db.assetID(holding: sha) }) {
            return .existing(id: existing)
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
            if !hooks.announcesCreated {
                previews.makePreview(ofStaged: staged, as: relative, width: probe.width, height: probe.height, raw: probe.format == "raw")
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
                                 sourceFolder: origin.map(Importer.sourceFolder), sourceStem: origin.map(Importer.sourceStem))
        let revision = RevisionRecord(assetId: "", number: 0, createdAt: now, kind: Revision.Kind.imported.rawValue,
                                      formatIdentifier: nil, formatVersion: nil, data: nil, renderPath: nil,
                                      pixelWidth: probe.width, pixelHeight: probe.height)
        var result = StagedOriginal(placed: placed, relative: relative, record: record, revision: revision)
        let (metadata, warnings) = Importer.importedMetadata(embedded: probe.xmp, iptc: probe.iptc, source: origin)
        result.describe(metadata)
        result.warnings = warnings
        return .staged(result)
    }
}

extension Committing.StagedOriginal {
    /// Gives the photo about to be created this metadata.
    mutating func describe(_ metadata: DescriptiveMetadata) {
        record.rating = metadata.rating ?? 0
        record.colorLabel = metadata.colorLabel?.rawValue
        record.title = metadata.title
        record.caption = metadata.caption
        keywords = metadata.keywords ?? []
    }
}
