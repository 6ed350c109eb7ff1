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
}
