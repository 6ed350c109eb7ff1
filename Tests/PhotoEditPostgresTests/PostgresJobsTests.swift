// Only with the `Server` trait (Package.swift): these tests need its servers and modules.
#if Server
import Foundation
import PhotoEdit
@testable import PhotoEditPostgres
import PhotoEditSampleCatalog
import PhotoEditTestSupport
import Testing

/// Batch jobs and the change feed across nodes, on a real PostgreSQL server:
/// workers on several connections and in another process claim jobs with
/// FOR UPDATE SKIP LOCKED; a killed process's jobs are taken over; a stale
/// claim changes nothing; change sets committed by other nodes reach a
/// listener in commit order.
@Suite("PostgreSQL jobs and feed", .serialized)
struct PostgresJobsTests {
    static func newCatalog() async throws -> PostgresCatalog {
        let catalog = try await PostgresCatalog.open(try LocalPostgresServer.shared.get().newDatabase())
        // What the test handlers do, idempotently: record the item once, and log every run.
        try await catalog.execute([
            SQLFragment(sql: "CREATE TABLE jobEffect (item bigint PRIMARY KEY)"),
            SQLFragment(sql: "CREATE TABLE jobRun (job bigint NOT NULL, attempt integer NOT NULL, worker text NOT NULL)"),
        ])
        return catalog
    }

    static func payloads(_ items: Range<Int>, ms: Int = 0) -> [String] { items.map { #"{"item": \#($0), "ms": \#(ms)}"# } }

    static func item(_ job: CatalogJob) throws -> Int64 {
        let object = try JSONSerialization.jsonObject(with: Data(job.payload.utf8)) as? [String: Any]
        return Int64(object?["item"] as? Int ?? -1)
    }

    /// A handler that records its run and its item.
    static func recording(_ catalog: PostgresCatalog, worker: String) -> CatalogJobWorker.Handler {
        { context in
            try await catalog.execute([
                SQLFragment(sql: "INSERT INTO jobRun VALUES (?, ?, ?)",
                            arguments: [.integer(context.job.id), .integer(Int64(context.job.attempt)), .text(worker)]),
                SQLFragment(sql: "INSERT INTO jobEffect (item) VALUES (?) ON CONFLICT DO NOTHING", arguments: [.integer(try item(context.job))]),
            ])
        }
    }

    static func count(_ catalog: PostgresCatalog, _ sql: String) async throws -> Int {
        try await catalog.rows(SQLFragment(sql: sql)) { Int(try $0.decode(Int64.self)) }.first ?? -1
    }

    @Test func fourWorkersRunEveryJobOnce() async throws {
        let catalog = try await Self.newCatalog()
        defer { Task { await catalog.close() } }
        let (batch, ids) = try await catalog.enqueue(kind: "touch", payloads: Self.payloads(0..<400))
        #expect(ids.count == 400 && Set(ids).count == 400)
        let before = try await catalog.batchProgress(batch)
        #expect(before.jobs == 400 && before.queued == 400 && !before.isFinished)

        let ran = try await withThrowingTaskGroup(of: Int.self) { group in
            for n in 0..<4 {
                group.addTask {
                    let name = "worker-\(n)"
                    return try await CatalogJobWorker(catalog: catalog, name: name, handlers: ["touch": Self.recording(catalog, worker: name)]).drain()
                }
            }
            return try await group.reduce(into: [Int]()) { $0.append($1) }
        }
        #expect(ran.reduce(0, +) == 400, "every job claimed once: \(ran)")
        #expect(ran.filter { $0 > 0 }.count >= 2, "the work was shared: \(ran)")
        #expect(try await Self.count(catalog, "SELECT count(*) FROM jobRun") == 400, "no job ran twice")
        #expect(try await Self.count(catalog, "SELECT count(*) FROM jobEffect") == 400)
        let after = try await catalog.batchProgress(batch)
        #expect(after.done == 400 && after.isFinished && after.failed == 0)
        #expect(try await catalog.jobs(inBatch: batch).allSatisfy { $0.state == .done && $0.attempts == 1 })
    }

    @Test func aKilledNodesJobsAreTakenOver() async throws {
        let catalog = try await Self.newCatalog()
        defer { Task { await catalog.close() } }
        // Another process, a real node: slow jobs, a 6 s lease (long enough
        // for the survivor's first drain to come before it runs out on a
        // loaded machine; 1.5 s was not, in a full parallel run).
        let process = Process()
        process.executableURL = try Self.bench()
        process.arguments = ["job-worker", catalog.location.description, "--lease", "6"]
        let out = Pipe()
        process.standardOutput = out
        try Lifeline.run(process)   // stopped with the test process, however it ends
        defer { if process.isRunning { kill(process.processIdentifier, SIGKILL) } }
        let (batch, _) = try await catalog.enqueue(kind: "sleep", payloads: Self.payloads(0..<6, ms: 60_000))
        // Wait until it has claimed a job, then kill -9 it in the middle of it.
        let deadline = Date().addingTimeInterval(30)
        while try await catalog.batchProgress(batch).running == 0 {
            #expect(Date() < deadline, "the worker process claimed no job")
            if Date() > deadline { return }
            try await Task.sleep(for: .milliseconds(50))
        }
        let claimed = try await catalog.jobs(inBatch: batch).filter { $0.state == .running }
        #expect(claimed.count == 1, "one job at a time per worker")
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()

        // This node does the same jobs quickly: it must wait for the dead
        // node's lease to run out, then take its job over.
        let survivor = CatalogJobWorker(catalog: catalog, name: "survivor", lease: .seconds(5), handlers: ["sleep": { context in
            try await catalog.execute([SQLFragment(sql: "INSERT INTO jobEffect (item) VALUES (?) ON CONFLICT DO NOTHING",
                                                   arguments: [.integer(try Self.item(context.job))])])
        }])
        #expect(try await survivor.drain() == 5, "the five unclaimed jobs at once; the dead node's is still leased")
        // Then the dead node's job, once its lease has run out.
        var later = 0
        let leaseOut = Date().addingTimeInterval(60)
        while later == 0 && Date() < leaseOut {
            try await Task.sleep(for: .milliseconds(500))
            later += try await survivor.drain()
        }
        #expect(later == 1, "the dead node's job once its lease ran out")
        let jobs = try await catalog.jobs(inBatch: batch)
        #expect(jobs.allSatisfy { $0.state == .done && $0.worker == "survivor" })
        let taken = try #require(jobs.first { $0.id == claimed[0].id })
        #expect(taken.attempts == 2, "claimed by the dead node, then by the survivor")
        #expect(try await Self.count(catalog, "SELECT count(*) FROM jobEffect") == 6)
    }

    @Test func aStaleClaimChangesNothing() async throws {
        let catalog = try await Self.newCatalog()
        defer { Task { await catalog.close() } }
        let (batch, _) = try await catalog.enqueue(kind: "touch", payloads: Self.payloads(0..<1), totals: [10])
        // 3 s leases: the statements between the claim and the renewal must
        // come before it runs out, also on a loaded machine (200 ms did not).
        let first = try #require(try await catalog.claimJob(worker: "a", kinds: ["touch"], lease: .seconds(3)))
        #expect(first.attempt == 1 && first.total == 10)
        #expect(try await catalog.claimJob(worker: "b", kinds: ["touch"], lease: .seconds(30)) == nil, "leased: nobody else gets it")
        #expect(try await catalog.renew(first, worker: "a", lease: .seconds(3), done: 3))
        #expect(try await catalog.batchProgress(batch).itemsDone == 3)
        try await Task.sleep(for: .milliseconds(3_500))
        let second = try #require(try await catalog.claimJob(worker: "b", kinds: ["touch"], lease: .seconds(30)), "the lease ran out")
        #expect(second.attempt == 2 && second.done == 3, "the new claim sees the progress so far")
        #expect(try await catalog.renew(first, worker: "a", lease: .seconds(30), done: 9) == false, "a's claim is over")
        #expect(try await catalog.completeJob(first, worker: "a") == false)
        #expect(try await catalog.jobs(inBatch: batch)[0].state == .running)
        #expect(try await catalog.completeJob(second, worker: "b"))
        let progress = try await catalog.batchProgress(batch)
        #expect(progress.done == 1 && progress.itemsDone == 10 && progress.itemsTotal == 10)
        #expect(try await catalog.claimJob(worker: "a", kinds: ["touch"], lease: .seconds(1)) == nil, "done jobs are not claimed")
        #expect(try await catalog.claimJob(worker: "a", kinds: ["other"], lease: .seconds(1)) == nil)
    }

    @Test func failuresAreRetriedThenRecorded() async throws {
        let catalog = try await Self.newCatalog()
        defer { Task { await catalog.close() } }
        let (batch, ids) = try await catalog.enqueue(kind: "flaky", payloads: Self.payloads(0..<2), maxAttempts: 2)
        // Item 0 fails on its first attempt only; item 1 always fails, with a
        // message of several lines.
        let worker = CatalogJobWorker(catalog: catalog, name: "w", handlers: ["flaky": { context in
            if try Self.item(context.job) == 1 || context.job.attempt == 1 {
                throw PhotoEditError.invalidChange("item \(try Self.item(context.job)) failed\nsecond line")
            }
        }])
        #expect(try await worker.drain() == 2)
        var jobs = try await catalog.jobs(inBatch: batch)
        #expect(jobs.allSatisfy { $0.state == .queued && $0.attempts == 1 && $0.error?.contains("failed") == true })
        #expect(try await worker.drain() == 0, "queued again after a back-off, not at once")
        try await Task.sleep(for: .milliseconds(2300))
        #expect(try await worker.drain() == 2)
        jobs = try await catalog.jobs(inBatch: batch)
        #expect(jobs.first { $0.id == ids[0] }?.state == .done)
        let failed = try #require(jobs.first { $0.id == ids[1] })
        #expect(failed.state == .failed && failed.attempts == 2)
        #expect(failed.error?.contains("item 1 failed") == true && failed.error?.contains("\n") == false, "one line: \(failed.error ?? "")")
        let progress = try await catalog.batchProgress(batch)
        #expect(progress.isFinished && progress.done == 1 && progress.failed == 1)
    }

    @Test func aCancelledBatchStopsItsRunningJob() async throws {
        let catalog = try await Self.newCatalog()
        defer { Task { await catalog.close() } }
        let (batch, _) = try await catalog.enqueue(kind: "long", payloads: Self.payloads(0..<3))
        let stopped = Flag()
        let worker = CatalogJobWorker(catalog: catalog, name: "w", lease: .seconds(30), handlers: ["long": { context in
            do {
                for step in 1...600 {
                    try await context.progress(done: Int64(step), total: 600)
                    try await Task.sleep(for: .milliseconds(20))
                }
            } catch {
                stopped.set()
                throw error
            }
        }])
        let running = Task { try await worker.runOne() }
        while try await catalog.batchProgress(batch).itemsDone < 5 { try await Task.sleep(for: .milliseconds(20)) }
        #expect(try await catalog.cancelBatch(batch) == 3)
        #expect(try await running.value == true)
        #expect(stopped.isSet, "the handler was told at its next progress report")
        let progress = try await catalog.batchProgress(batch)
        #expect(progress.cancelled == 3 && progress.isFinished && progress.done == 0)
        #expect(try await worker.drain() == 0)
    }

    @Test func hostileEnqueuesAreRefused() async throws {
        let catalog = try await Self.newCatalog()
        defer { Task { await catalog.close() } }
        for (kind, payloads, attempts) in [("Bad Kind", ["{}"], 3), ("x'; DROP TABLE job; --", ["{}"], 3), ("ok", ["[1]"], 3),
                                           ("ok", ["not json"], 3), ("ok", [], 3), ("ok", ["{}"], 0), ("ok", ["{}"], 1000),
                                           ("ok", [#"{"a": ""# + String(repeating: "x", count: 70_000) + #""}"#], 3)] {
            await #expect(throws: PhotoEditError.self, "\(kind) \(payloads.first?.prefix(20) ?? "") \(attempts)") {
                try await catalog.enqueue(kind: kind, payloads: payloads, maxAttempts: attempts)
            }
        }
        await #expect(throws: PhotoEditError.self) { try await catalog.enqueue(kind: "ok", payloads: ["{}"], batch: "../x") }
        #expect(try await Self.count(catalog, "SELECT count(*) FROM job") == 0, "nothing was enqueued")
        // A payload is data: quotes and SQL in it are stored as they are.
        let tricky = #"{"name": "O'Brien\"; DROP TABLE job; --"}"#
        let (batch, _) = try await catalog.enqueue(kind: "ok", payloads: [tricky])
        let job = try #require(try await catalog.claimJob(worker: "w", kinds: ["ok"], lease: .seconds(5)))
        #expect(job.batch == batch)
        let object = try JSONSerialization.jsonObject(with: Data(job.payload.utf8)) as? [String: String]
        #expect(object?["name"] == #"O'Brien"; DROP TABLE job; --"#)
    }

    @Test func runWakesOnNotifyAndKeepsGoing() async throws {
        let catalog = try await Self.newCatalog()
        defer { Task { await catalog.close() } }
        // A long poll: only the NOTIFY of an insert can wake it in time.
        let worker = CatalogJobWorker(catalog: catalog, name: "w", handlers: ["touch": Self.recording(catalog, worker: "w")])
        let running = Task { try await worker.run(poll: .seconds(600)) }
        defer { running.cancel() }
        try await Task.sleep(for: .milliseconds(300))
        for round in 0..<3 {
            let (batch, _) = try await catalog.enqueue(kind: "touch", payloads: Self.payloads(round * 10..<round * 10 + 10))
            let deadline = Date().addingTimeInterval(10)
            while try await !catalog.batchProgress(batch).isFinished {
                guard Date() < deadline else { Issue.record("round \(round): not woken"); return }
                try await Task.sleep(for: .milliseconds(20))
            }
        }
        #expect(try await Self.count(catalog, "SELECT count(*) FROM jobEffect") == 30)
        running.cancel()
        _ = try? await running.value
    }

    /// Nodes commit change sets concurrently; a listener on another node
    /// receives every one, in sequence order, none skipped or repeated.
    @Test func theFeedCrossesNodesInCommitOrder() async throws {
        let node = try await Self.newCatalog()
        defer { Task { await node.close() } }
        let other = try await PostgresCatalog.open(node.location)
        defer { Task { await other.close() } }
        let stream = try await node.changeEntryStream(poll: .seconds(600))
        let writers = 4, perWriter = 25
        try await withThrowingTaskGroup(of: Void.self) { group in
            for w in 0..<writers {
                group.addTask {
                    for n in 0..<perWriter {
                        try await other.transaction { connection in
                            // Its change set first, then its rows and some work before
                            // the commit: without the feed's lock, a later number
                            // would often commit first.
                            let seq = try await connection.query("INSERT INTO changeSet (time) VALUES (now()) RETURNING seq",
                                                                 logger: other.logger).collect()[0].decode(Int64.self)
                            let id = "w\(w)-\(n)"
                            _ = try await connection.query("""
                                INSERT INTO changeEntry (seq, objectType, objectId, kind, aspects) VALUES (\(seq), 'asset', \(id), 'update', 'favorite')
                                """, logger: other.logger).collect()
                            _ = try await connection.query("SELECT pg_sleep(\(Double(n % 3) / 1000))", logger: other.logger).collect()
                        }
                    }
                }
            }
            try await group.waitForAll()
        }
        // What arrives within 10 s (a skipped change would otherwise be waited for forever).
        let seen = try await withThrowingTaskGroup(of: [[ChangeEntry]].self) { group in
            group.addTask {
                var seen: [[ChangeEntry]] = []
                for try await set in stream {
                    seen.append(set)
                    if seen.count == writers * perWriter { break }
                }
                return seen
            }
            group.addTask { try await Task.sleep(for: .seconds(10)); return [] }
            let first = try await group.next() ?? []
            group.cancelAll()
            return first
        }
        #expect(seen.map { $0[0].seq } == Array(1...writers * perWriter), "every change, in order")
        #expect(seen.allSatisfy { $0.count == 1 && $0[0].aspects == .favorite && $0[0].objectType == .asset })
        #expect(Set(seen.map { $0[0].identifier }).count == writers * perWriter)
        #expect(try await node.changeEntries(since: 90).map(\.seq) == Array(91...100))
        #expect(try await node.latestChangeSequence() == 100)
    }

    static func bench() throws -> URL { try PhotoEditBinary.built("photoedit-bench").get() }
}

final class Flag: @unchecked Sendable {
    private let lock = NSLock()
    private var value = false
    func set() { lock.withLock { value = true } }
    var isSet: Bool { lock.withLock { value } }
}
#endif
