import Foundation
import Synchronization
import Testing
@testable import PhotoEdit

/// The executor's bulk lane: long work (an upload's import) runs at most
/// `bulkWidth` at once on threads of its own, so it never takes the threads
/// short work needs.
@Suite("BlockingExecutor: the bulk lane")
struct BlockingExecutorTests {
    /// What the jobs count, shared by every job of the test.
    final class Counts: Sendable {
        let bulk = Mutex((now: 0, most: 0, started: 0))
        let arrived = Mutex(0)
    }

    @Test("short work runs while more bulk work than the executor has threads is held, and bulk work runs bulkWidth at once")
    func shortWorkPassesHeldBulkWork() async throws {
        let bulkJobs = BlockingExecutor.width + BlockingExecutor.bulkWidth + 2
        let release = DispatchSemaphore(value: 0)
        let counts = Counts()
        let bulk = Task {
            try await withThrowingTaskGroup(of: Void.self) { group in
                for _ in 0..<bulkJobs {
                    group.addTask {
                        try await BlockingExecutor.runBulk {
                            counts.bulk.withLock { $0.now += 1; $0.most = max($0.most, $0.now); $0.started += 1 }
                            release.wait()
                            counts.bulk.withLock { $0.now -= 1 }
                        }
                    }
                }
                try await group.waitForAll()
            }
        }
        // Wait until the bulk lane is full (its threads hold their jobs).
        while counts.bulk.withLock({ $0.now }) < BlockingExecutor.bulkWidth { try await Task.sleep(for: .milliseconds(5)) }

        // Short work still runs: were the bulk jobs on the executor's own
        // threads, width of them would hold every one, and this job would
        // wait until they are let go (the test fails after 30 s, not hangs).
        // One job, not width: other suites of this process use the executor too.
        let short = Task { try await BlockingExecutor.run { counts.arrived.withLock { $0 += 1 } } }
        let deadline = ContinuousClock.now + .seconds(30)
        while counts.arrived.withLock({ $0 }) == 0 && ContinuousClock.now < deadline {
            try await Task.sleep(for: .milliseconds(5))
        }
        #expect(counts.arrived.withLock { $0 } == 1, "short work waited behind held bulk work")
        #expect(counts.bulk.withLock { $0.started } == BlockingExecutor.bulkWidth, "only bulkWidth bulk jobs start while they are held")

        for _ in 0..<bulkJobs { release.signal() }
        try await short.value
        try await bulk.value
        let bulkCounts = counts.bulk.withLock { $0 }
        #expect(bulkCounts.started == bulkJobs)
        #expect(bulkCounts.most == BlockingExecutor.bulkWidth, "bulk jobs at once: \(bulkCounts.most)")
    }

    /// The calling thread's nice value and name, and the thread itself.
    static func here() -> (nice: Int32, name: String, thread: pthread_t) {
        (getpriority(__priority_which_t(PRIO_PROCESS.rawValue), 0), WorkerThreads.currentName, pthread_self())
    }

    @Test("an import's pixel work from the bulk lane runs at nice +10 on photoedit.bg threads; the lanes keep the process's priority and names")
    func backgroundWorkIsLowered() async throws {
        let process = getpriority(__priority_which_t(PRIO_PROCESS.rawValue), 0)
        let (bulk, background) = try await BlockingExecutor.runBulk {
            (Self.here(), try BlockingExecutor.inBackground { Self.here() })
        }
        #expect(background.nice == min(19, process + 10), "background thread nice \(background.nice), process \(process)")
        #expect(background.name == "photoedit.bg")
        #expect(pthread_equal(bulk.thread, background.thread) == 0)
        // The bulk lane itself keeps the process's priority: it commits (the
        // catalog's lock) and encodes previews (libvips' shared workers).
        #expect(bulk.nice == process)
        #expect(bulk.name == "photoedit.bulk")
        let short = try await BlockingExecutor.run { Self.here() }
        #expect(short.nice == process)
        #expect(short.name == "photoedit.block")  // "photoedit.blocking": 15 bytes at most, the kernel's limit
        #expect(getpriority(__priority_which_t(PRIO_PROCESS.rawValue), 0) == process)

        struct Refused: Error {}
        await #expect(throws: Refused.self) {
            try await BlockingExecutor.runBulk { try BlockingExecutor.inBackground { throw Refused() } }
        }
        // Anywhere but the bulk lane it runs where it is called.
        let (outside, inline) = try await BlockingExecutor.run { (Self.here(), try BlockingExecutor.inBackground { Self.here() }) }
        #expect(pthread_equal(outside.thread, inline.thread) != 0)
        #expect(inline.nice == process)
    }

    @Test("a job is let go once it has run: what it captured is not kept alive by the worker threads")
    func aJobIsLetGoOnceItHasRun() async throws {
        final class Captured: Sendable {}
        let threads = WorkerThreads(name: "test.letgo", count: 2)
        weak var captured: Captured?
        do {
            let value = Captured()
            captured = value
            // Three jobs, none of which the queue compacts away (fewer than 64).
            for _ in 0..<3 { try await threads.run { _ = value } }
        }
        // The thread drops its own reference just after it resumed us.
        for _ in 0..<100 where captured != nil { try await Task.sleep(for: .milliseconds(10)) }
        #expect(captured == nil, "a finished job still holds what it captured")
    }

    @Test("the bulk lane is busy for a job while another bulk job runs or waits; never off the lane")
    func busyBulkLane() async throws {
        #expect(try await BlockingExecutor.run { BlockingExecutor.bulkLaneIsBusy } == false)
        // A bulk job starts another (which runs or waits for 300 ms) and asks, for at most 2 s:
        // nothing is held until another job's turn (the suite's other tests fill the lane).
        // Started from the job's own thread: a Task would first wait for the cooperative
        // pool, which the whole suite's synchronous tests hold (it did, past the 2 s).
        let busy = try await BlockingExecutor.runBulk { () -> Bool in
            BlockingExecutor.submitBulk { usleep(300_000) }
            let deadline = ContinuousClock.now + .seconds(2)
            while ContinuousClock.now < deadline {
                if BlockingExecutor.bulkLaneIsBusy { return true }
                usleep(1_000)
            }
            return false
        }
        #expect(busy, "another bulk job was running or waiting")
        // (A lone job's `false` is not asserted: the whole suite's uploads share the lane.)
    }
}
