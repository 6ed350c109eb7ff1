import Dispatch
import Foundation
import Synchronization

/// The engine's one way from `async` code to its blocking work (libvips,
/// files, SQLite, the catalog): the library's async API
/// (``PhotoLibrary/run(_:)``), the HTTP server and the job workers all go
/// through it, so the blocking work of a process is bounded in one place and
/// never runs on Swift's cooperative pool (whose few threads — two on a
/// 2-core machine — the async parts need).
///
/// At most ``width`` pieces of work run at once, each on a thread of the
/// executor's own (``WorkerThreads``, not Dispatch's shared root queue);
/// callers beyond that wait, suspended (no thread held), in arrival order.
public enum BlockingExecutor {
    /// How many pieces of blocking work run at once: four per core, at least
    /// eight (the work often waits on a disk, a database or another node
    /// rather than computing; libvips spreads each image over the cores itself).
    public static let width = max(8, 4 * ProcessInfo.processInfo.activeProcessorCount)

    /// Runs `work` on one of the executor's threads and returns its result.
    ///
    /// Cancelling the calling task does not stop work that has started: it
    /// runs to its end, commits or changes nothing as it would have, and its
    /// result is returned. With `returningOnCancel` (the HTTP server's
    /// requests: a client that went away, a timeout) the call returns at
    /// once with `CancellationError` instead, and work still waiting for a
    /// thread never starts; work already running finishes on its thread and
    /// its result is dropped (every engine write is all-or-nothing).
    @discardableResult
    public static func run<T: Sendable>(returningOnCancel: Bool = false,
                                        _ work: @escaping @Sendable () throws -> T) async throws -> T {
        try await run(on: threads, returningOnCancel: returningOnCancel, work)
    }

    /// How many pieces of long, CPU-bound work run at once on the bulk lane
    /// (``runBulk(_:)``): one per core.
    package static let bulkWidth = max(1, ProcessInfo.processInfo.activeProcessorCount)

    /// Runs long, CPU-bound work — an upload's import, which decodes the
    /// whole photo and makes its previews — on a lane of its own, at most
    /// ``bulkWidth`` at once, and returns its result (as ``run(returningOnCancel:_:)``
    /// without `returningOnCancel`: started work finishes).
    ///
    /// Sixty-four uploads at once would otherwise take every thread of the
    /// executor for seconds each, and a render hit's catalog read — a
    /// millisecond of work — would wait behind them in the queue. On its own
    /// lane that work waits only for the cores it needs anyway, and the
    /// executor's threads stay free for short work
    /// (bench/upload-load-benchmark.py).
    ///
    /// Its pure pixel work — an import's strict decode of every pixel, and
    /// its preview's pixels while other bulk work runs or waits
    /// (``bulkLaneIsBusy``), each computed by one thread — runs lower still
    /// (``inBackground(_:)``, nice +10), so when uploads fill the cores short
    /// work such as a render hit gets them first.
    @discardableResult
    package static func runBulk<T: Sendable>(_ work: @escaping @Sendable () throws -> T) async throws -> T {
        try await run(on: bulkThreads, returningOnCancel: false, work)
    }

    /// Runs `work` — computation that holds no lock others wait for and
    /// starts no thread, such as an import's decode of every pixel on the
    /// calling thread — at a lower priority (nice +10) when called from the
    /// bulk lane (``runBulk(_:)``): on a thread of the background lane, the
    /// calling thread waiting for it. Anywhere else it runs where it is called.
    ///
    /// Only such work is lowered: a lowered thread that held the catalog's
    /// lock would stall everyone behind it while starved (priority
    /// inversion: tried on the whole bulk lane, the test suite stalled for
    /// tens of seconds), and the libvips workers a lowered thread starts would
    /// keep its priority for every later render.
    package static func inBackground<T>(_ work: () throws -> T) throws -> T {
        guard WorkerThreads.current === bulkThreads else { return try work() }
        return try withoutActuallyEscaping(work) { work in
            let handoff = Handoff(work)
            backgroundThreads.submit { handoff.run() }
            return try handoff.wait()
        }
    }

    /// Whether the calling thread is on the bulk lane with other work
    /// running or waiting there (a burst of uploads): then work that can
    /// be made single-threaded is worth handing to ``inBackground(_:)``
    /// (an import's preview pixels), so short work gets the cores first;
    /// a lone import keeps libvips' threads and is done sooner.
    package static var bulkLaneIsBusy: Bool {
        guard WorkerThreads.current === bulkThreads else { return false }
        let (running, waiting) = bulkThreads.load
        return running > 1 || waiting > 0
    }

    private static func run<T: Sendable>(on threads: WorkerThreads, returningOnCancel: Bool,
                                         _ work: @escaping @Sendable () throws -> T) async throws -> T {
        guard returningOnCancel else { return try await threads.run(work) }
        let once = OnceContinuation<T>()
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<T, any Error>) in
                once.set(continuation)
                threads.submit {
                    // Cancelled while it waited for a thread: nothing to run.
                    if !once.isDone { once.resume(with: Result { try work() }) }
                }
            }
        } onCancel: {
            once.resume(with: .failure(CancellationError()))
        }
    }

    /// Starts `work` on one of the executor's threads, when one is free, and
    /// returns at once: work nobody awaits (``ImageManager``'s renders and
    /// prefetches, which deliver their results themselves), counted in the
    /// same ``width``. `work` must not wait for other work of the executor.
    package static func submit(_ work: @escaping @Sendable () -> Void) {
        threads.submit(work)
    }

    /// Starts `work` on the bulk lane, when one of its threads is free, and
    /// returns at once (as ``submit(_:)`` for the executor's own threads):
    /// from a thread that must not wait for Swift's cooperative pool.
    package static func submitBulk(_ work: @escaping @Sendable () -> Void) {
        bulkThreads.submit(work)
    }

    /// How many are running or waiting now (for /metrics and tests).
    public static var load: (running: Int, waiting: Int) { threads.load }

    /// The executor's own threads, started as work needs them, never more than ``width``.
    private static let threads = WorkerThreads(name: "photoedit.blocking", count: width)

    /// The bulk lane's threads, never more than ``bulkWidth``.
    private static let bulkThreads = WorkerThreads(name: "photoedit.bulk", count: bulkWidth)

    /// The background lane (``inBackground(_:)``): one thread per bulk-lane
    /// thread, at nice +10.
    private static let backgroundThreads = WorkerThreads(name: "photoedit.bg", count: bulkWidth, niceness: 10)
}

/// One piece of work handed from a waiting thread to another thread
/// (``BlockingExecutor/inBackground(_:)``): the waiting thread owns
/// `work` and its result until `wait` returns, so neither is shared.
private final class Handoff<T>: @unchecked Sendable {
    /// Let go as soon as it has run: the caller's `work` must not escape
    /// (`withoutActuallyEscaping` checks), and the job that ran it may be
    /// released by its thread only after `wait` has returned.
    private var work: (() throws -> T)?
    /// Set by `run`, read by `wait` after it (the semaphore orders them).
    private var result: Result<T, any Error> = .failure(PhotoEditError.library("background work ended without running"))
    // A semaphore on purpose: the waiting thread is a plain bulk-lane thread, never the cooperative pool.
    private let done = DispatchSemaphore(value: 0)

    init(_ work: @escaping () throws -> T) { self.work = work }

    func run() {
        if let work { result = Result { try work() } }
        work = nil
        done.signal()
    }

    func wait() throws -> T {
        done.wait()
        return try result.get()
    }
}

/// A continuation resumed once, by whichever comes first: the work's
/// result or the task's cancellation.
final class OnceContinuation<T: Sendable>: Sendable {
    private let state = Mutex<(continuation: CheckedContinuation<T, any Error>?, result: Result<T, any Error>?)>((nil, nil))

    /// Whether a result (or the cancellation) has arrived.
    var isDone: Bool { state.withLock { $0.result != nil } }

    func set(_ continuation: CheckedContinuation<T, any Error>) {
        let early: Result<T, any Error>? = state.withLock { state in
            if let result = state.result { return result }
            state.continuation = continuation
            return nil
        }
        if let early { continuation.resume(with: early) }
    }

    func resume(with result: Result<T, any Error>) {
        let continuation: CheckedContinuation<T, any Error>? = state.withLock { state in
            if state.result != nil { return nil }
            state.result = result
            defer { state.continuation = nil }
            return state.continuation
        }
        continuation?.resume(with: result)
    }
}

extension PhotoLibrary {
    /// Runs `work` — any of the library's synchronous calls, as many as it
    /// likes — on the engine's ``BlockingExecutor``, off the caller's thread
    /// and off Swift's cooperative pool. The library's API is synchronous and
    /// reads the same in `async` code; this is how an async caller keeps its
    /// threads free while the engine works:
    ///
    /// ```swift
    /// let revision = try await library.run { try $0.apply(chain: "exposure=+0.3", to: id) }
    /// ```
    ///
    /// Many tasks (and processes) may call it at once; the catalog and the
    /// all-or-nothing commit make concurrent calls safe. Cancelling the
    /// calling task does not stop `work`: it runs to its end and its result
    /// is returned.
    @discardableResult
    public func run<T: Sendable>(_ work: @escaping @Sendable (PhotoLibrary) throws -> T) async throws -> T {
        try await BlockingExecutor.run { try work(self) }
    }
}
