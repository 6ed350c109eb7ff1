import ArgumentParser
import Foundation
import PhotoEdit
import PhotoEditLocation
#if Server
import PhotoEditPostgres
import PhotoEditServer
#endif

/// How a batch command (`apply`, `upgrade`) picks its photos and where it runs.
struct BatchOptions: ParsableArguments {
    @Option(name: .customLong("where"), help: ArgumentHelp("Also every photo matching this filter (as `list --where`; hidden and deleted ones left out).",
                                                            valueName: "EXPR"))
    var filter: String?
    @Flag(name: .customLong("as-job"), help: "On a library shared through PostgreSQL: enqueue the work as jobs any node's worker runs, print the batch id, and return.")
    var asJob = false
    @Option(help: ArgumentHelp("With --as-job, photos per job.", valueName: "N")) var photosPerJob = BatchOptions.defaultPhotosPerJob

    /// The photos named (ids or prefixes) and those matching `--where`, each once, in that order.
    func photos(_ ids: [String], in library: PhotoLibrary) throws -> [String] {
        var out = try ids.map { try library.resolve($0) }
        if let filter {
            let predicate = try AssetPredicate(parsing: filter)
            out += try library.fetchAssets(FetchOptions(predicate: predicate)).identifiers
        }
        var seen = Set<String>()
        return out.filter { seen.insert($0).inserted }
    }

    #if Server
    static let defaultPhotosPerJob = LibraryJobs.defaultPhotosPerJob
    #else
    static let defaultPhotosPerJob = 20
    #endif

    #if Server
    /// `--as-job`'s enqueueing: opens the library's job table, runs `body`
    /// with it, prints the batch id it returns.
    func enqueue(_ options: LibraryOptions, library: PhotoLibrary,
                 _ body: @escaping @Sendable (LibraryJobs) async throws -> String) async throws {
        let location = try JobsCommand.distributed(options, for: "--as-job")
        Output.line(try await JobsCommand.withJobs(location, library, body))
    }
    #endif
}

#if Server
struct JobsCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "jobs",
        abstract: "Batch work of a library shared through PostgreSQL: status, cancel, or run a worker.",
        discussion: """
        `photoedit apply … --as-job` and `photoedit upgrade … --as-job` enqueue a batch and print its id; \
        every `photoedit serve` of the library and every `photoedit jobs work` runs its jobs (docs/scaling.md). \
        A folder library has no jobs: its batch work runs in the command that asks for it.
        """,
        subcommands: [Status.self, Cancel.self, Work.self])

    /// The distributed library named, or a one-line refusal for a folder.
    static func distributed(_ options: LibraryOptions, for what: String) throws -> DistributedLibraryLocation {
        guard case let .distributed(location) = try options.location() else {
            throw PhotoEditError.library("\(what) needs a library shared through PostgreSQL (postgres://…); "
                + "a folder library runs batch work in the command that asks for it")
        }
        return location
    }

    /// Runs `body` with the library's job table (opened, then closed).
    static func withJobs<T: Sendable>(_ options: LibraryOptions, for what: String,
                                      _ body: @escaping @Sendable (LibraryJobs) async throws -> T) async throws -> T {
        let location = try distributed(options, for: what)
        let library = try await BlockingExecutor.run { try options.open() }
        return try await withJobs(location, library, body)
    }

    /// Runs `body` with the job table of `library` at `location` (opened, then closed).
    static func withJobs<T: Sendable>(_ location: DistributedLibraryLocation, _ library: PhotoLibrary,
                                      _ body: @escaping @Sendable (LibraryJobs) async throws -> T) async throws -> T {
        let jobs = try await LibraryJobs.open(location, library: library)
        do {
            let result = try await body(jobs)
            await jobs.close()
            return result
        } catch {
            await jobs.close()
            throw error
        }
    }

    static func status(_ progress: CatalogBatchProgress, batch: String) -> BatchStatus {
        BatchStatus(batch: batch, jobs: progress.jobs, queued: progress.queued, running: progress.running, done: progress.done,
                    failed: progress.failed, cancelled: progress.cancelled, photosDone: progress.itemsDone, photosTotal: progress.itemsTotal)
    }

    static func print(_ status: BatchStatus, json: Bool) {
        if json {
            Output.json(status.json)
        } else {
            let total = status.photosTotal.map(String.init) ?? "?"
            Output.line("\(status.batch)\t\(status.state)\t\(status.photosDone)/\(total) photos\tjobs: \(status.queued) queued, "
                + "\(status.running) running, \(status.done) done, \(status.failed) failed, \(status.cancelled) cancelled")
        }
    }

    struct Status: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Print a batch's progress: BATCH<TAB>STATE<TAB>DONE/TOTAL photos<TAB>jobs by state (STATE: running, done, failed, cancelled).")
        @OptionGroup var options: LibraryOptions
        @Flag(help: "Print JSON (as GET /v1/jobs/BATCH).") var json = false
        @Argument(help: "The batch id `--as-job` printed.") var batch: String

        func run() async throws {
            try await PhotoEdit_run {
                let batch = self.batch
                let progress = try await JobsCommand.withJobs(options, for: "jobs status") { try await $0.progress(batch) }
                guard progress.jobs > 0 else { throw PhotoEditError.invalidChange("no batch \(Output.field(String(batch.prefix(64))))") }
                JobsCommand.print(JobsCommand.status(progress, batch: batch), json: json)
            }
        }
    }

    struct Cancel: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Cancel what of a batch has not run (a running job stops at its next photo; edits made stay). Prints its status.")
        @OptionGroup var options: LibraryOptions
        @Argument(help: "The batch id.") var batch: String

        func run() async throws {
            try await PhotoEdit_run {
                let batch = self.batch
                let progress = try await JobsCommand.withJobs(options, for: "jobs cancel") { jobs in
                    try await jobs.cancel(batch)
                    return try await jobs.progress(batch)
                }
                guard progress.jobs > 0 else { throw PhotoEditError.invalidChange("no batch \(Output.field(String(batch.prefix(64))))") }
                JobsCommand.print(JobsCommand.status(progress, batch: batch), json: false)
            }
        }
    }

    struct Work: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Run the library's jobs until SIGINT or SIGTERM (or, with --drain, until none is left to claim now).",
            discussion: """
            Any number of workers on any nodes: each claims one job at a time (FOR UPDATE SKIP LOCKED), renews its \
            lease while it works, and takes over jobs whose worker stopped once their lease ran out.
            """)
        @OptionGroup var options: LibraryOptions
        @Flag(help: "Stop when no job can be claimed now.") var drain = false
        @Option(help: ArgumentHelp("Seconds a claim lasts without renewal (a dead worker's job waits this long).", valueName: "SECONDS"))
        var lease: Double = 30
        @Option(help: ArgumentHelp("This worker's name in the job table (default: host-pid-random).", valueName: "NAME")) var name: String?

        func validate() throws {
            guard lease >= 1, lease <= 3600 else { throw ValidationError("--lease is 1 to 3600 seconds") }
        }

        func run() async throws {
            try await PhotoEdit_run {
                let (options, drain, lease, name) = (self.options, self.drain, self.lease, self.name)
                let location = try JobsCommand.distributed(options, for: "jobs work")
                let library = try await BlockingExecutor.run { try options.open() }
                let task = Task { () -> (any Error)? in
                    do {
                        let jobs = try await LibraryJobs.open(location, library: library, derivatives: LibraryJobs.previews)
                        let worker = jobs.worker(name: name, lease: .milliseconds(Int(lease * 1000)))
                        Output.note("worker \(worker.name) running the jobs of \(location)")
                        do {
                            if drain { try await worker.drain() } else { try await worker.run() }
                        } catch is CancellationError {}
                        await jobs.close()
                        return nil
                    } catch {
                        return error
                    }
                }
                if let error = await valueCancellingOnSignals(task) {
                    throw error as? PhotoEditError ?? PhotoEditError.library("\(error)")
                }
            }
        }
    }
}

/// The job table as `photoedit serve` offers it to the API.
struct ServedJobs: BatchJobService {
    let jobs: LibraryJobs

    func status(_ batch: String) async throws -> BatchStatus? {
        let progress = try await jobs.progress(batch)
        return progress.jobs > 0 ? JobsCommand.status(progress, batch: batch) : nil
    }

    func cancel(_ batch: String) async throws -> BatchStatus? {
        try await jobs.cancel(batch)
        return try await status(batch)
    }
}
#else
/// Without the `Server` trait there are no shared libraries, hence no jobs:
/// `photoedit jobs …` says so in one line.
struct JobsCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "jobs", abstract: "Batch work of a library shared through PostgreSQL (not in this build).", shouldDisplay: false)
    @Argument(parsing: .allUnrecognized) var arguments: [String] = []

    func run() throws { try PhotoEdit_run { throw LibraryLocation.withoutServer("photoedit jobs") } }

    static func distributed(_ options: LibraryOptions, for what: String) throws {
        throw LibraryLocation.withoutServer(what)
    }
}

/// `photoedit serve` in a build without the `Server` trait: one line saying how to get it.
struct ServeCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "serve", abstract: "Serve the library over HTTP (not in this build).", shouldDisplay: false)
    @Argument(parsing: .allUnrecognized) var arguments: [String] = []

    func run() throws { try PhotoEdit_run { throw LibraryLocation.withoutServer("photoedit serve") } }
}
#endif
