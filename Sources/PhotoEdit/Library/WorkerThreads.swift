import CPhotoEditShim
import Dispatch
import Foundation
import Synchronization

/// A fixed number of threads of the process's own, started when work first
/// needs them, running closures in arrival order: what the
/// ``BlockingExecutor`` and the ``BridgeExecutor`` run on.
///
/// Not a Dispatch queue: on Linux, `DispatchQueue.global(qos:)` and every
/// *concurrent* queue made with `DispatchQueue(label:attributes:.concurrent)`
/// feed the same non-overcommitting root queue that Swift's cooperative pool
/// runs its tasks on. That root queue has about one thread per core and
/// adds one only when a monitor, once a second, finds all of them blocked.
/// Twelve 10 ms jobs that each wait on a second job of the same root queue
/// take 10 s there instead of 20 ms, and the server's tasks wait behind them.
/// Threads of our own are never lent to anyone else, and blocking one
/// blocks nobody else.
package final class WorkerThreads: Sendable {
    private struct State {
        var jobs: [@Sendable () -> Void] = []
        var head = 0
        /// Threads started, threads waiting for work without a wake-up on its way, threads running a job.
        var threads = 0
        var idle = 0
        var busy = 0
        var pending: Int { jobs.count - head }

        /// The next job, its slot let go at once: a job that stayed in the
        /// array would keep what it captured (a library, images) alive until
        /// the queue was next compacted.
        mutating func pop() -> (@Sendable () -> Void)? {
            guard head < jobs.count else { return nil }
            let job = jobs[head]
            jobs[head] = State.taken
            head += 1
            if head == jobs.count {
                jobs.removeAll(keepingCapacity: true)
                head = 0
            } else if head > 64 && head * 2 > jobs.count {
                jobs.removeFirst(head)
                head = 0
            }
            return job
        }

        private static let taken: @Sendable () -> Void = {}
    }

    private let name: String
    /// How many threads at most.
    package let count: Int
    /// The threads' nice value above the process's (0: the same priority;
    /// higher: a smaller share of the cores when other threads want them).
    private let niceness: Int32
    private let state = Mutex(State())
    /// One signal per job handed to an idle thread.
    // A semaphore on purpose: the workers are plain threads that must block while there is no work.
    private let wake = DispatchSemaphore(value: 0)

    /// Up to `count` threads named `name` (as `top -H`, `perf` and
    /// debuggers show them), each `niceness` above the process's nice value
    /// (Linux's nice value belongs to a thread). A lowered thread must hold
    /// no lock others wait for (a starved holder stalls them all: priority
    /// inversion) and start no thread (libvips' workers, shared by every
    /// render, would inherit its nice value for good).
    package init(name: String, count: Int, niceness: Int32 = 0) {
        precondition(count > 0, "WorkerThreads needs at least one thread")
        self.name = name
        self.count = count
        self.niceness = niceness
    }

    /// The threads the calling thread belongs to, if it is one of a
    /// `WorkerThreads`' (threads are never stopped, so the set lives as long).
    package static var current: WorkerThreads? {
        pthread_getspecific(currentKey).map { Unmanaged<WorkerThreads>.fromOpaque($0).takeUnretainedValue() }
    }

    /// The calling thread's name, as the kernel holds it (15 bytes at most).
    package static var currentName: String {
        var name = [CChar](repeating: 0, count: 16)
        guard pe_thread_name(&name, name.count) == 0 else { return "" }
        return String(decoding: name.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// Each thread's `WorkerThreads`.
    private static let currentKey: pthread_key_t = {
        var key = pthread_key_t()
        pthread_key_create(&key, nil)
        return key
    }()

    /// Runs `work` on one of the threads: at once when one is idle or may
    /// still be started, else when one is free, in arrival order.
    package func submit(_ work: @escaping @Sendable () -> Void) {
        enum Next { case wakeOne, start, queued }
        let next = state.withLock { s -> Next in
            s.jobs.append(work)
            if s.idle > 0 {
                s.idle -= 1
                return .wakeOne
            }
            guard s.threads < count else { return .queued }
            s.threads += 1
            return .start
        }
        switch next {
        case .wakeOne: wake.signal()
        case .start: startThread()
        case .queued: break
        }
    }

    /// Runs `work` on one of the threads and returns its result, the caller
    /// suspended meanwhile (no thread held); started work always finishes.
    package func run<T: Sendable>(_ work: @escaping @Sendable () throws -> T) async throws -> T {
        try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<T, any Error>) in
            submit { continuation.resume(with: Result { try work() }) }
        }
    }

    /// How many jobs run now and how many wait for a thread.
    package var load: (running: Int, waiting: Int) { state.withLock { ($0.busy, $0.pending) } }

    /// How many threads were started so far (at most ``count``).
    package var started: Int { state.withLock { $0.threads } }

    private func startThread() {
        let thread = Thread { [self] in
            // Foundation's `Thread.name` does not reach the kernel on Linux:
            // named here, on the thread itself (at most 15 bytes).
            _ = pe_thread_set_name(name)
            pthread_setspecific(Self.currentKey, Unmanaged.passUnretained(self).toOpaque())
            if niceness > 0 {
                // Raising one's own nice value needs no privilege (lowering
                // it again would); on Linux `who` 0 is the calling thread.
                let base = getpriority(__priority_which_t(PRIO_PROCESS.rawValue), 0)
                _ = setpriority(__priority_which_t(PRIO_PROCESS.rawValue), 0, min(19, base + niceness))
            }
            while true {
                let job = state.withLock { s -> (@Sendable () -> Void)? in
                    guard let job = s.pop() else {
                        s.idle += 1
                        return nil
                    }
                    s.busy += 1
                    return job
                }
                guard let job else {
                    // A wake-up is a job appended for an idle thread; another
                    // thread may have taken it first: then look and wait again.
                    wake.wait()
                    continue
                }
                job()
                state.withLock { $0.busy -= 1 }
            }
        }
        // libvips, libraw and lcms2 recurse little, but a 512 KiB stack is too tight for libraw.
        thread.stackSize = 8 << 20
        thread.start()
    }
}
