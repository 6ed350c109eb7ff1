// Only with the `Server` trait (Package.swift): without it the module is empty.
#if Server
import Foundation
import PhotoEdit
import Synchronization

/// Export jobs (`POST /v1/exports`): photos exported one after another with
/// one set of `ExportSettings`, into a folder of the server's own, each file
/// downloadable as soon as it is written, and all of them as one ZIP
/// stream. Bounded: photos per job, jobs running at once, jobs kept.
final class ExportJobs: Sendable {
    /// Where a job is.
    enum State: String, Sendable {
        case running, done, cancelled
    }

    /// One exported file.
    struct File: Sendable {
        let name: String
        let asset: String
        let bytes: Int
        let width: Int
        let height: Int
    }

    /// A job as its status shows it.
    struct Job: Sendable {
        let id: String
        let created: Date
        let total: Int
        let settings: ExportSettings
        var state = State.running
        var files: [File] = []
        /// Photos that could not be exported: id and why (one line).
        var failures: [(asset: String, reason: String)] = []
        var finished: Date?
        var completed: Int { files.count + failures.count }
    }

    /// The most photos one job exports.
    static let maxPhotos = 1000
    /// The longest `where` a job takes.
    static let maxQueryBytes = 4096

    /// The start of the folders a server makes in the temporary directory:
    /// `photoedit-exports-PID-RANDOM`.
    static let temporaryPrefix = "photoedit-exports-"

    let folder: String
    /// The folder is this process's own (made in the temporary directory):
    /// removed whole at shutdown.
    let ownsFolder: Bool
    let maxRunning: Int
    let maxKept: Int
    /// How long a finished job and its files are kept.
    let retention: TimeInterval
    private let jobs = Mutex<[String: Job]>([:])
    private let tasks = Mutex<[String: Task<Void, Never>]>([:])
    /// Each progress step, for the change feed's `export` events.
    let progress = ExportProgressBroadcast()

    /// Jobs writing into `folder`, or (nil) into a folder of this process in
    /// the temporary directory, after removing the folders there of
    /// processes that have ended (a server killed before its shutdown).
    init(folder: String?, maxRunning: Int = 2, maxKept: Int = 32, retention: TimeInterval = 3600,
         temporaryDirectory: String = NSTemporaryDirectory()) {
        if let folder {
            self.folder = folder
            ownsFolder = false
        } else {
            Self.removeStaleFolders(in: temporaryDirectory)
            self.folder = (temporaryDirectory as NSString).appendingPathComponent(
                Self.temporaryPrefix + "\(getpid())-\(UUID().uuidString.prefix(8).lowercased())")
            ownsFolder = true
        }
        self.maxRunning = max(1, maxRunning)
        self.maxKept = max(1, maxKept)
        self.retention = max(0, retention)
    }

    func job(_ id: String) -> Job? { jobs.withLock { $0[id] } }

    /// Forgets the jobs finished more than `retention` ago, and their files.
    func expire(now: Date = Date()) {
        let expired: [String] = jobs.withLock { jobs in
            let old = jobs.values.filter { $0.state != .running && ($0.finished.map { now.timeIntervalSince($0) >= retention } ?? false) }.map(\.id)
            for id in old { jobs[id] = nil }
            return old
        }
        for id in expired { try? FileManager.default.removeItem(atPath: folder(of: id)) }
    }

    /// Stops every job and removes their files (and the folder, when it is
    /// this process's own): the server's shutdown.
    func shutdown() {
        let running = tasks.withLock { tasks in
            defer { tasks = [:] }
            return Array(tasks.values)
        }
        for task in running { task.cancel() }
        let ids = jobs.withLock { jobs in
            defer { jobs = [:] }
            return Array(jobs.keys)
        }
        if ownsFolder {
            try? FileManager.default.removeItem(atPath: folder)
        } else {
            for id in ids { try? FileManager.default.removeItem(atPath: folder(of: id)) }
        }
    }

    /// Removes `photoedit-exports-PID-…` folders (this user's) whose process
    /// has ended: `kill(PID, 0)` says there is no such process.
    static func removeStaleFolders(in directory: String) {
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: directory) else { return }
        for name in names where name.hasPrefix(temporaryPrefix) {
            guard let pid = Int32(name.dropFirst(temporaryPrefix.count).prefix { $0 != "-" }), pid > 0, pid != getpid() else { continue }
            guard kill(pid, 0) == -1 && errno == ESRCH else { continue }
            let path = (directory as NSString).appendingPathComponent(name)
            var info = stat()
            guard lstat(path, &info) == 0, info.st_mode & S_IFMT == S_IFDIR, info.st_uid == getuid() else { continue }
            try? FileManager.default.removeItem(atPath: path)
        }
    }

    /// The folder of a job's files.
    func folder(of id: String) -> String { folder + "/" + id }

    /// Starts a job over `ids`; nil when `maxRunning` jobs are running.
    func start(ids: [String], settings: ExportSettings, library: PhotoLibrary) throws -> Job? {
        expire()
        let id = UUID.random().uuidString.lowercased()
        let job = Job(id: id, created: Date(), total: ids.count, settings: settings)
        let evicted: [String]? = jobs.withLock { jobs in
            guard jobs.values.filter({ $0.state == .running }).count < maxRunning else { return nil }
            var evicted: [String] = []
            // The oldest finished jobs (and their files) make room.
            let finished = jobs.values.filter { $0.state != .running }.sorted { $0.created < $1.created }
            for old in finished.prefix(max(0, jobs.count + 1 - maxKept)) {
                jobs[old.id] = nil
                evicted.append(old.id)
            }
            jobs[id] = job
            return evicted
        }
        guard let evicted else { return nil }
        for old in evicted { try? FileManager.default.removeItem(atPath: folder(of: old)) }
        do {
            try FileManager.default.createDirectory(atPath: folder(of: id), withIntermediateDirectories: true)
        } catch {
            jobs.withLock { $0[id] = nil }
            throw PhotoEditError.library("cannot make the export folder: \(error.localizedDescription)")
        }
        let task = Task.detached { [self] in await run(id, ids: ids, settings: settings, library: library) }
        tasks.withLock { $0[id] = task }
        return job
    }

    /// Stops a running job (the files written stay downloadable) or forgets a
    /// finished one and its files; false when there is no such job.
    func cancel(_ id: String) -> Bool {
        let task = tasks.withLock { $0.removeValue(forKey: id) }
        task?.cancel()
        let outcome: Bool? = jobs.withLock { jobs in
            guard var job = jobs[id] else { return nil }
            if job.state == .running {
                job.state = .cancelled
                job.finished = Date()
                jobs[id] = job
                return false
            }
            jobs[id] = nil
            return true
        }
        guard let forgotten = outcome else { return false }
        if forgotten { try? FileManager.default.removeItem(atPath: folder(of: id)) }
        return true
    }

    private func run(_ id: String, ids: [String], settings: ExportSettings, library: PhotoLibrary) async {
        let template = (try? ExportNameTemplate(settings.nameTemplate)) ?? (try? ExportNameTemplate(ExportNameTemplate.defaultTemplate))
        var used = Set<String>()
        for (index, assetID) in ids.enumerated() {
            if Task.isCancelled || job(id)?.state != .running { break }
            do {
                let (asset, image) = try await BlockingExecutor.run(returningOnCancel: true) {
                    (try library.asset(assetID), try library.exportImage(assetID, settings: settings))
                }
                let name = Self.uniqueName(template, asset: asset, sequence: index + 1, format: settings.format, used: &used)
                let path = folder(of: id) + "/" + name
                let staged = path + ".part"
                try image.data.write(to: URL(fileURLWithPath: staged))
                guard rename(staged, path) == 0 else {
                    unlink(staged)
                    throw PhotoEditError.library("cannot write \(name): \(String(cString: strerror(errno)))")
                }
                let file = File(name: name, asset: asset.id, bytes: image.data.count, width: image.width, height: image.height)
                update(id) { $0.files.append(file) }
            } catch is CancellationError {
                break
            } catch {
                let reason = (error as? PhotoEditError)?.description ?? "\(error)"
                update(id) { $0.failures.append((assetID, String(reason.prefix(300)))) }
            }
        }
        update(id) { job in
            if job.state == .running { job.state = Task.isCancelled ? .cancelled : .done }
            job.finished = Date()
        }
        _ = tasks.withLock { $0.removeValue(forKey: id) }
    }

    private func update(_ id: String, _ change: (inout Job) -> Void) {
        let job: Job? = jobs.withLock { jobs in
            guard var job = jobs[id] else { return nil }
            change(&job)
            jobs[id] = job
            return job
        }
        if let job { progress.send(job) }
    }

    /// A file name from the template (a plain, safe name), made unique in the job.
    static func uniqueName(_ template: ExportNameTemplate?, asset: Asset, sequence: Int, format: ExportFormat, used: inout Set<String>) -> String {
        let stem = (asset.originalFilename as NSString).deletingPathExtension
        let values = ExportNameTemplate.Values(name: stem, date: asset.creationDate.flatMap(Self.date), sequence: sequence,
                                               title: asset.title, rating: asset.rating, id: asset.id)
        var base = template?.fileName(values) ?? stem
        // One level, no separators: a download name, never a path.
        base = String(base.map { $0 == "/" || $0 == "\\" || $0 == "\0" ? "_" : $0 }.prefix(180))
        if base.isEmpty || base.hasPrefix(".") { base = "photo-" + asset.id.prefix(8) + base }
        let ext = "." + format.fileExtension
        var name = base + ext
        var n = 2
        while used.contains(name) {
            name = "\(base)-\(n)\(ext)"
            n += 1
        }
        used.insert(name)
        return name
    }

    private static func date(_ text: String) -> Date? {
        ISO8601DateFormatter().date(from: text) ?? {
            let f = DateFormatter()
            f.locale = Locale(identifier: "en_US_POSIX")
            f.dateFormat = "yyyy-MM-dd'T'HH:mm:ss"
            return f.date(from: String(text.prefix(19)))
        }()
    }
}

/// Export progress to the change-feed streams that listen.
final class ExportProgressBroadcast: Sendable {
    private let listeners = Mutex<[UUID: AsyncStream<ExportJobs.Job>.Continuation]>([:])

    /// A stream of every job update from now on, until the caller stops iterating.
    func listen() -> AsyncStream<ExportJobs.Job> {
        let (stream, continuation) = AsyncStream.makeStream(of: ExportJobs.Job.self, bufferingPolicy: .bufferingNewest(64))
        let key = UUID.random()
        listeners.withLock { $0[key] = continuation }
        continuation.onTermination = { [weak self] _ in _ = self?.listeners.withLock { $0.removeValue(forKey: key) } }
        return stream
    }

    func send(_ job: ExportJobs.Job) {
        for listener in listeners.withLock({ Array($0.values) }) { listener.yield(job) }
    }
}
#endif
