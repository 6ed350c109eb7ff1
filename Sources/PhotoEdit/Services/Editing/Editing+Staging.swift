import Foundation

/// Staging files in `tmp/` belong to the process that made them (their
/// names start with its pid). Recovery empties `tmp/` when a process opens
/// the library alone; a process that keeps the library open for days (a
/// server) cleans up after itself and after processes that died meanwhile.
extension Editing {
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

    /// Removes the staged render of an output `performChanges` was given.
    func removeStagedRender(of output: ContentEditingOutput) {
        let path = output.renderedContentURL.standardizedFileURL.path
        guard (path as NSString).deletingLastPathComponent == layout.tmp else { return }
        unlink(path)
    }

    /// Sweeps `tmp/` when the last sweep is older than `stagingSweepInterval`.
    func sweepStagingIfDue(now: Date = Date()) {
        let due = parts.stagingSweep.withLock { last in
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
            guard let dash = name.firstIndex(of: "-"), let pid = pid_t(name[..<dash]), pid > 0 else { continue }
            let path = layout.tmp + "/" + name
            var info = stat()
            guard lstat(path, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG else { continue }
            let age = now.timeIntervalSince1970 - TimeInterval(info.st_mtim.tv_sec)
            let stale: Bool
            if pid == me {
                stale = name.hasSuffix("-render.jpg") && age >= Self.abandonedOutputAge
            } else {
                stale = kill(pid, 0) != 0 && errno == ESRCH && age >= Self.deadProcessStagingAge
            }
            if stale, unlink(path) == 0 { removed.append(name) }
        }
        return removed
    }
}
