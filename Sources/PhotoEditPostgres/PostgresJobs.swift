// Only with the `Server` trait (Package.swift): without it the module is empty.
#if Server
import Foundation
import Logging
import PhotoEdit
import PostgresNIO

/// One unit of batch work in a PostgreSQL catalog's job table: a preset on
/// a few hundred photos, an upgrade of some edits, the thumbnails of an
/// import. Jobs of one request share a batch id, whose progress is the sum
/// of its jobs'.
public struct CatalogJob: Sendable, Hashable {
    /// The job's number (increasing: older jobs are claimed first).
    public let id: Int64
    /// The batch it belongs to.
    public let batch: String
    /// What to do (`apply`, `upgrade`, `thumbnails`…): the handler that runs it.
    public let kind: String
    /// Its parameters: a JSON object, as enqueued.
    public let payload: String
    /// Which claim this is (1 the first time; more after a failure or after
    /// its worker stopped without finishing it).
    public let attempt: Int
    /// Claims allowed before it is marked failed.
    public let maxAttempts: Int
    /// Progress reported so far (by this claim or an earlier one).
    public let done: Int64
    /// The number of items, when known.
    public let total: Int64?
}

/// A job as the job table holds it now.
public struct CatalogJobStatus: Sendable, Hashable {
    public let id: Int64
    public let batch: String
    public let kind: String
    public let state: CatalogJobState
    /// Claims so far.
    public let attempts: Int
    /// The worker of the latest claim (nil before the first).
    public let worker: String?
    public let done: Int64
    public let total: Int64?
    /// The last failure's message (one line), if any.
    public let error: String?
}

/// The progress of a batch: its jobs by state and their items.
public struct CatalogBatchProgress: Sendable, Hashable {
    public let jobs: Int
    public let queued: Int
    public let running: Int
    public let done: Int
    public let failed: Int
    public let cancelled: Int
    /// Items done, summed over the jobs.
    public let itemsDone: Int64
    /// Items in all, when every job knows its total.
    public let itemsTotal: Int64?
    /// No job is left to run.
    public var isFinished: Bool { queued == 0 && running == 0 }
}

/// Thrown into a job's handler when its claim is no longer its own: the
/// lease ran out and another worker took the job, or its batch was cancelled.
public struct CatalogJobLost: Error, CustomStringConvertible {
    public let job: Int64
    public var description: String { "job \(job) is no longer this worker's (its lease ran out or its batch was cancelled)" }
}

extension PostgresCatalog {
    /// Limits on what one `enqueue` may ask.
    public enum JobLimits {
        /// Jobs in one call.
        public static let jobsPerCall = 100_000
        /// Bytes of one job's payload.
        public static let payloadBytes = 64 * 1024
        /// Claims of one job (the job table's CHECK: `CatalogSchema.Job`).
        public static let attempts = CatalogSchema.Job.attemptsAllowed
    }

    /// Adds jobs of `kind`, one per payload (each a JSON object), to a new
    /// batch, in one transaction; every listening worker is woken. Returns the
    /// batch id and the jobs' ids in payload order.
    @discardableResult
    public func enqueue(kind: String, payloads: [String], totals: [Int64?]? = nil, maxAttempts: Int = 5,
                        batch: String = UUID().uuidString.lowercased()) async throws -> (batch: String, jobs: [Int64]) {
        guard kind.utf8.count <= 64, kind.range(of: #"^[a-z][a-z0-9.-]*$"#, options: .regularExpression) != nil else {
            throw PhotoEditError.invalidChange("job kind: want lower-case letters, digits, '.' or '-' (at most 64), not \(kind.debugDescription.prefix(80))")
        }
        guard batch.utf8.count <= 64, batch.range(of: #"^[A-Za-z0-9._-]+$"#, options: .regularExpression) != nil else {
            throw PhotoEditError.invalidChange("job batch: want letters, digits, '.', '_' or '-' (at most 64)")
        }
        guard !payloads.isEmpty, payloads.count <= JobLimits.jobsPerCall else {
            throw PhotoEditError.invalidChange("jobs: want 1 to \(JobLimits.jobsPerCall) in one call, not \(payloads.count)")
        }
        guard JobLimits.attempts.contains(maxAttempts) else {
            throw PhotoEditError.invalidChange("job attempts: want \(JobLimits.attempts.lowerBound) to \(JobLimits.attempts.upperBound), not \(maxAttempts)")
        }
        if let totals, totals.count != payloads.count {
            throw PhotoEditError.invalidChange("jobs: \(totals.count) totals for \(payloads.count) payloads")
        }
        for (i, payload) in payloads.enumerated() {
            guard payload.utf8.count <= JobLimits.payloadBytes else {
                throw PhotoEditError.invalidChange("job \(i + 1): payload of \(payload.utf8.count) bytes (at most \(JobLimits.payloadBytes))")
            }
            guard (try? JSONSerialization.jsonObject(with: Data(payload.utf8))) is [String: Any] else {
                throw PhotoEditError.invalidChange("job \(i + 1): payload is not a JSON object")
            }
        }
        let counts: [Int64] = (totals ?? payloads.map { _ in nil }).map { $0 ?? -1 }
        let j = CatalogSchema.job
        let ids = try await catalogRows("""
            INSERT INTO \(j) (\(j.batch), \(j.kind), \(j.payload), \(j.maxAttempts), \(j.total))
            SELECT \(batch), \(kind), p::jsonb, \(maxAttempts), NULLIF(t, -1)
            FROM unnest(\(payloads)::text[], \(counts)::bigint[]) WITH ORDINALITY AS u(p, t, n) ORDER BY n
            RETURNING \(j.id)
            """).map { try $0.get(j.id) }
        return (batch, ids.sorted())
    }

    /// Claims the oldest job a worker may run now: queued and due, or running
    /// with a lease that ran out (its worker stopped). Concurrent claims never
    /// get the same job (FOR UPDATE SKIP LOCKED). Nil when there is none.
    public func claimJob(worker: String, kinds: [String], lease: Duration) async throws -> CatalogJob? {
        let seconds = lease.seconds, j = CatalogSchema.job
        while true {
            let rows = try await catalogRows("""
                WITH next AS (
                    SELECT \(j.id) FROM \(j)
                    WHERE ((\(j.state) = \(CatalogJobState.queued) AND \(j.runAfter) <= clock_timestamp())
                        OR (\(j.state) = \(CatalogJobState.running) AND \(j.leaseUntil) < clock_timestamp()))
                        AND \(j.kind) = ANY(\(kinds)::text[])
                    ORDER BY \(j.id) LIMIT 1 FOR UPDATE SKIP LOCKED)
                UPDATE \(j) SET \(j.state) = \(CatalogJobState.running), \(j.worker) = \(worker), \(j.attempts) = \(j).\(j.attempts) + 1,
                    \(j.leaseUntil) = clock_timestamp() + make_interval(secs => \(seconds))
                FROM next WHERE \(j).\(j.id) = next.\(j.id)
                RETURNING \(j).\(j.id), \(j).\(j.batch), \(j).\(j.kind), \(j).\(j.payload)::text, \(j).\(j.attempts), \(j).\(j.maxAttempts),
                    \(j).\(j.done), \(j).\(j.total)
                """)
            guard let row = rows.first else { return nil }
            let job = CatalogJob(id: try row.get(j.id), batch: try row.get(j.batch), kind: try row.get(j.kind), payload: try row.get(j.payload),
                                 attempt: try row.get(j.attempts), maxAttempts: try row.get(j.maxAttempts), done: try row.get(j.done),
                                 total: try row.get(j.total))
            if job.attempt <= job.maxAttempts { return job }
            // Its workers kept stopping without finishing it: it fails instead of running again.
            _ = try await finish(id: job.id, worker: worker, attempt: job.attempt, state: .failed,
                                 error: "its worker stopped \(job.maxAttempts) times without finishing it")
        }
    }

    /// Renews the claim's lease and records its progress. False when the
    /// claim is no longer this worker's (taken over, or the batch cancelled).
    public func renew(_ job: CatalogJob, worker: String, lease: Duration, done: Int64? = nil, total: Int64? = nil) async throws -> Bool {
        let seconds = lease.seconds, j = CatalogSchema.job
        return try await catalogRows("""
            UPDATE \(j) SET \(j.leaseUntil) = clock_timestamp() + make_interval(secs => \(seconds)),
                \(j.done) = COALESCE(\(done), \(j.done)), \(j.total) = COALESCE(\(total), \(j.total))
            WHERE \(j.id) = \(job.id) AND \(j.worker) = \(worker) AND \(j.attempts) = \(Int32(job.attempt)) AND \(j.state) = \(CatalogJobState.running)
            RETURNING \(j.id)
            """).count == 1
    }

    /// Marks the claim's job done. False when the claim was no longer this
    /// worker's (the job's other claim finishes it).
    public func completeJob(_ job: CatalogJob, worker: String) async throws -> Bool {
        try await finish(id: job.id, worker: worker, attempt: job.attempt, state: .done, error: nil)
    }

    /// Records a failure of the claim: the job is queued again (after a
    /// back-off of 2^attempt seconds, at most 5 minutes) until it has used
    /// its attempts, then marked failed with `error` (its first line, at
    /// most 500 characters).
    public func failJob(_ job: CatalogJob, worker: String, error: String) async throws {
        let line = String(error.split(whereSeparator: \.isNewline).first ?? "").prefix(500)
        if job.attempt >= job.maxAttempts {
            _ = try await finish(id: job.id, worker: worker, attempt: job.attempt, state: .failed, error: String(line))
            return
        }
        let delay = min(300, 1 << min(job.attempt, 9)), j = CatalogSchema.job
        _ = try await catalogRows("""
            UPDATE \(j) SET \(j.state) = \(CatalogJobState.queued), \(j.worker) = NULL, \(j.leaseUntil) = NULL, \(j.error) = \(String(line)),
                \(j.runAfter) = clock_timestamp() + make_interval(secs => \(Double(delay)))
            WHERE \(j.id) = \(job.id) AND \(j.worker) = \(worker) AND \(j.attempts) = \(Int32(job.attempt)) AND \(j.state) = \(CatalogJobState.running)
            """)
    }

    private func finish(id: Int64, worker: String, attempt: Int, state: CatalogJobState, error: String?) async throws -> Bool {
        let j = CatalogSchema.job
        return try await catalogRows("""
            UPDATE \(j) SET \(j.state) = \(state), \(j.error) = COALESCE(\(error), \(j.error)), \(j.leaseUntil) = NULL,
                \(j.finished) = clock_timestamp(),
                \(j.done) = CASE WHEN \(state) = \(CatalogJobState.done) THEN COALESCE(\(j.total), \(j.done)) ELSE \(j.done) END
            WHERE \(j.id) = \(id) AND \(j.worker) = \(worker) AND \(j.attempts) = \(Int32(attempt)) AND \(j.state) = \(CatalogJobState.running)
            RETURNING \(j.id)
            """).count == 1
    }

    /// Cancels the batch's jobs that have not finished; a worker running one
    /// finds out at its next renewal and stops. Returns how many were cancelled.
    @discardableResult
    public func cancelBatch(_ batch: String) async throws -> Int {
        let j = CatalogSchema.job
        return try await catalogRows("""
            UPDATE \(j) SET \(j.state) = \(CatalogJobState.cancelled), \(j.finished) = clock_timestamp(), \(j.leaseUntil) = NULL
            WHERE \(j.batch) = \(batch) AND \(j.state) IN (\(CatalogJobState.unfinished)) RETURNING \(j.id)
            """).count
    }

    /// The batch's progress (all zero for a batch with no jobs).
    public func batchProgress(_ batch: String) async throws -> CatalogBatchProgress {
        let j = CatalogSchema.job
        return try await mapErrors {
            // Sums, not columns: read by position.
            let rows = try await client.query("""
                SELECT count(*), count(*) FILTER (WHERE \(j.state) = \(CatalogJobState.queued)), count(*) FILTER (WHERE \(j.state) = \(CatalogJobState.running)),
                    count(*) FILTER (WHERE \(j.state) = \(CatalogJobState.done)), count(*) FILTER (WHERE \(j.state) = \(CatalogJobState.failed)),
                    count(*) FILTER (WHERE \(j.state) = \(CatalogJobState.cancelled)), COALESCE(sum(\(j.done)), 0)::bigint,
                    CASE WHEN bool_and(\(j.total) IS NOT NULL) THEN sum(\(j.total))::bigint END
                FROM \(j) WHERE \(j.batch) = \(batch)
                """, logger: logger).collect()
            let (jobs, queued, running, done, failed, cancelled, itemsDone, itemsTotal) =
                try rows[0].decode((Int64, Int64, Int64, Int64, Int64, Int64, Int64, Int64?).self)
            return CatalogBatchProgress(jobs: Int(jobs), queued: Int(queued), running: Int(running), done: Int(done),
                                        failed: Int(failed), cancelled: Int(cancelled), itemsDone: itemsDone, itemsTotal: itemsTotal)
        }
    }

    /// The jobs of a batch as they are now, oldest first.
    public func jobs(inBatch batch: String) async throws -> [CatalogJobStatus] {
        let j = CatalogSchema.job
        return try await catalogRows("""
            SELECT \(j.id), \(j.batch), \(j.kind), \(j.state), \(j.attempts), \(j.worker), \(j.done), \(j.total), \(j.error)
            FROM \(j) WHERE \(j.batch) = \(batch) ORDER BY \(j.id)
            """).map { row in
            CatalogJobStatus(id: try row.get(j.id), batch: try row.get(j.batch), kind: try row.get(j.kind),
                             state: CatalogJobState(rawValue: try row.get(j.state)) ?? .failed, attempts: try row.get(j.attempts),
                             worker: try row.get(j.worker), done: try row.get(j.done), total: try row.get(j.total), error: try row.get(j.error))
        }
    }

    /// Waits on a dedicated connection for notifications on `channel`,
    /// calling `wake` for each, and also every `poll` (a notification sent
    /// while the connection was being made, or lost with a connection, is
    /// then made up for), until the task is cancelled.
    func listen(_ channel: String, poll: Duration, wake: @escaping @Sendable () -> Void) async throws {
        try await mapErrors {
            try await client.withConnection { connection in
                try await connection.listen(on: channel) { notifications in
                    try await withThrowingTaskGroup(of: Void.self) { group in
                        group.addTask { for try await _ in notifications { wake() } }
                        group.addTask { while true { try await Task.sleep(for: poll); wake() } }
                        wake()   // listening now: look once for what came before
                        try await group.next()
                        group.cancelAll()
                    }
                }
            }
        }
    }
}

/// What a job's handler is given: the job, and a way to report progress
/// (which also tells it whether the job is still its own).
public struct CatalogJobContext: Sendable {
    /// The claimed job.
    public let job: CatalogJob
    let catalog: PostgresCatalog
    let worker: String
    let lease: Duration

    /// Records `done` of `total` items and renews the lease. Throws
    /// `CatalogJobLost` when the job is no longer this worker's: stop then.
    public func progress(done: Int64, total: Int64? = nil) async throws {
        guard try await catalog.renew(job, worker: worker, lease: lease, done: done, total: total) else {
            throw CatalogJobLost(job: job.id)
        }
    }
}

/// Runs jobs from a PostgreSQL catalog, on any number of nodes at once: it
/// claims a job, runs its kind's handler while renewing the lease (every
/// third of it), and completes it; a handler's error queues the job again
/// until its attempts are used. Jobs run at least once (a node that dies
/// mid-job leaves it to be claimed again when the lease runs out), so a
/// handler must be idempotent: doing a job twice leaves what doing it once does.
public struct CatalogJobWorker: Sendable {
    /// A job's work. It may call `context.progress`; it is cancelled when the
    /// job is lost.
    public typealias Handler = @Sendable (CatalogJobContext) async throws -> Void

    public let catalog: PostgresCatalog
    /// This worker's name in the job table (unique per process by default).
    public let name: String
    /// How long a claim lasts without renewal.
    public let lease: Duration
    let handlers: [String: Handler]

    public init(catalog: PostgresCatalog, name: String? = nil, lease: Duration = .seconds(30), handlers: [String: Handler]) {
        self.catalog = catalog
        self.name = name ?? "\(ProcessInfo.processInfo.hostName)-\(getpid())-\(UUID().uuidString.prefix(8).lowercased())"
        self.lease = lease
        self.handlers = handlers
    }

    /// Claims and runs one job. False when there was none to claim.
    public func runOne() async throws -> Bool {
        guard let job = try await catalog.claimJob(worker: name, kinds: handlers.keys.sorted(), lease: lease) else { return false }
        guard let handler = handlers[job.kind] else { return true }   // claimed by kind: cannot happen
        let context = CatalogJobContext(job: job, catalog: catalog, worker: name, lease: lease)
        do {
            try await withThrowingTaskGroup(of: Bool.self) { group in
                group.addTask { try await handler(context); return true }
                group.addTask {   // renews the lease while the handler works
                    while true {
                        try await Task.sleep(for: lease / 3)
                        guard try await catalog.renew(job, worker: name, lease: lease) else { throw CatalogJobLost(job: job.id) }
                    }
                }
                _ = try await group.next()
                group.cancelAll()
            }
            _ = try await catalog.completeJob(job, worker: name)
        } catch is CatalogJobLost {
            // Another claim or a cancellation owns it now.
        } catch is CancellationError {
            throw CancellationError()   // the worker is stopping; the lease runs out and another node takes the job
        } catch {
            try await catalog.failJob(job, worker: name, error: "\(error)")
        }
        return true
    }

    /// Runs jobs until none can be claimed now; returns how many it ran.
    @discardableResult
    public func drain() async throws -> Int {
        var count = 0
        while try await runOne() { count += 1 }
        return count
    }

    /// Runs jobs until the task is cancelled: woken by a NOTIFY when jobs are
    /// enqueued, and every `poll` to take over jobs whose worker died.
    public func run(poll: Duration = .seconds(5)) async throws {
        let (wakes, wake) = AsyncStream<Void>.makeStream(bufferingPolicy: .bufferingNewest(1))
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask { try await catalog.listen(CatalogSchema.jobsChannel, poll: poll) { wake.yield() } }
            group.addTask {
                for await _ in wakes {
                    try Task.checkCancellation()
                    try await drain()
                }
            }
            try await group.next()
            group.cancelAll()
        }
    }
}

extension Duration {
    /// In seconds.
    var seconds: Double {
        let c = components
        return Double(c.seconds) + Double(c.attoseconds) / 1e18
    }
}
#endif
