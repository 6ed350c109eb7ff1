// Only with the `Server` trait (Package.swift): these tests need its servers and modules.
#if Server
import Foundation
@testable import PhotoEdit
@testable import PhotoEditPostgres
import PhotoEditSampleCatalog
import PhotoEditTestSupport
import Synchronization
import Testing

/// The change feed across nodes: two library handles ("nodes", each with
/// its own folder, so no inotify can help) on one real PostgreSQL; a
/// commit through one reaches the other's `changeSets` stream through
/// LISTEN/NOTIFY, long before the safety poll (set to an hour here).
///
/// Not timed to the second: the feed's reader and this test's waits are
/// tasks on Swift's cooperative pool, which the whole suite's synchronous
/// tests hold for seconds at a time (see ConnectionAbuseTests), so a
/// latency read there measures the suite as much as NOTIFY. With an hour's
/// poll, a change that arrives at all within `arrival` while the LISTEN is
/// in force was woken by its notification: without one it would not arrive
/// before the test gives up.
@Suite("Change feed across nodes (LISTEN/NOTIFY)", .serialized)
struct ChangeNotifyTests {
    static let poll = Duration.seconds(3600)
    /// How long a change may take to show (the commit, NOTIFY, the reader's
    /// read, on a loaded 2-core machine whose pool the suite holds): far
    /// below `poll`, so only a missing notification runs it out.
    static let arrival = Duration.seconds(60)

    /// What a node's stream delivered: the change sets' numbers, with when each arrived.
    final class Received: Sendable {
        private let sets = Mutex<[(seq: Int, at: ContinuousClock.Instant)]>([])
        func add(_ seq: Int) { sets.withLock { $0.append((seq, .now)) } }
        var seqs: [Int] { sets.withLock { $0.map(\.seq) } }
        /// Waits (up to `limit`) until `seq` arrived; returns when it did.
        /// Looks once more after the deadline: a sleep the busy pool
        /// stretched past it may have let the change arrive.
        func wait(for seq: Int, limit: Duration = ChangeNotifyTests.arrival) async throws -> ContinuousClock.Instant? {
            let deadline = ContinuousClock.now + limit
            while true {
                if let hit = sets.withLock({ $0.first { $0.seq == seq }?.at }) { return hit }
                if ContinuousClock.now >= deadline { return nil }
                try await Task.sleep(for: .milliseconds(5))
            }
        }
    }

    static func until(_ limit: Duration = ChangeNotifyTests.arrival, _ condition: () -> Bool) async throws {
        let deadline = ContinuousClock.now + limit
        while !condition() && ContinuousClock.now < deadline { try await Task.sleep(for: .milliseconds(10)) }
    }

    @Test func anotherNodesCommitWakesTheFeedAtOnce() async throws {
        let location = try LocalPostgresServer.shared.get().newDatabase()
        let folder = TemporaryDirectory("photoedit-notify")
        let temp = folder.url
        let storeA = try await PostgresCatalogStore.open(location, changePoll: Self.poll)
        let storeB = PostgresCatalogStore(location, changePoll: Self.poll)
        defer { storeA.close(); storeB.close() }
        let nodeA = try PhotoLibrary(url: temp.appendingPathComponent("a"), catalog: storeA)
        let nodeB = try PhotoLibrary(url: temp.appendingPathComponent("b"), catalog: storeB)
        let id = try #require(try await BlockingExecutor.run { try nodeA.importItems([Paths.sample("coffee.jpg")]) }.first?.id)
        let start = try await BlockingExecutor.run { try nodeB.latestChangeSequence() }

        let stream = try nodeB.changeSets(since: start)
        let received = Received()
        let reader = Task {
            for try await set in stream { received.add(set.seq) }
        }
        // The reader's LISTEN connection is up; then it waits on it (a minute's poll).
        try await Self.until { storeB.changes.isListening }
        #expect(storeB.changes.isListening && storeB.changes.readerCount == 1)
        try await Task.sleep(for: .milliseconds(200))

        var latencies: [Duration] = []
        for round in 1...3 {
            let sent = ContinuousClock.now
            try await BlockingExecutor.run { try nodeA.performChanges { try $0.changeRequest(for: id).isFavorite = round % 2 == 1 } }
            let arrived = try await received.wait(for: start + round)
            // Each latency includes the commit itself: ~10 ms alone, seconds
            // when the suite holds the pool; without NOTIFY, the hour's poll.
            let latency = try #require(arrived.map { sent.duration(to: $0) },
                                       "round \(round): the change did not arrive in \(Self.arrival): no NOTIFY woke the reader (its poll is \(Self.poll))")
            latencies.append(latency)
            try await Task.sleep(for: .milliseconds(100))
        }
        #expect(storeB.changes.isListening && storeB.changes.lossCount == 0,
                "the LISTEN stayed in force, so no 250 ms poll could have found the changes: \(latencies)")

        // The LISTEN connection is killed: the reader polls (every 250 ms)
        // and reconnects; nothing is lost meanwhile.
        let killed = try await BlockingExecutor.run {
            try storeA.write { db in
                try db.rows("SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = current_database() AND query LIKE 'LISTEN %' AND pid <> pg_backend_pid()", []).count
            }
        }
        #expect(killed == 1, "one LISTEN connection (node B's) was ended")
        // Counted, not watched: `isListening` is false only for about a
        // second, which a loaded machine's sleeps can step over.
        try await Self.until { storeB.changes.lossCount >= 1 }
        #expect(storeB.changes.lossCount == 1, "the lost connection is noticed")
        try await BlockingExecutor.run { try nodeA.performChanges { try $0.changeRequest(for: id).isHidden = true } }
        #expect(try await received.wait(for: start + 4) != nil, "a change made while the listener was down arrives (by the poll or after reconnecting)")
        try await Self.until { storeB.changes.listenCount >= 2 && storeB.changes.isListening }
        #expect(storeB.changes.listenCount == 2 && storeB.changes.isListening, "the LISTEN connection is made again")
        try await Task.sleep(for: .milliseconds(300))
        let sent = ContinuousClock.now
        try await BlockingExecutor.run { try nodeA.performChanges { try $0.changeRequest(for: id).isHidden = false } }
        let arrived = try #require(try await received.wait(for: start + 5),
                                   "woken by NOTIFY again: the change did not arrive in \(Self.arrival) (the poll is \(Self.poll))")
        #expect(storeB.changes.lossCount == 1, "the LISTEN stayed in force since it was made again: \(sent.duration(to: arrived))")
        #expect(received.seqs == Array(start + 1...start + 5), "every change once, in order")

        reader.cancel()
        _ = await reader.result
        try await Self.until { storeB.changes.readerCount == 0 }
        #expect(storeB.changes.readerCount == 0, "cancelling the stream stops its reader")
    }
}
#endif
