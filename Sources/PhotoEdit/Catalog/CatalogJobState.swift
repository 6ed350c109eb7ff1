/// Where a job of a PostgreSQL catalog's job queue is (PhotoEditPostgres'
/// `PostgresCatalog` jobs). Declared here, in the engine, because the
/// catalog's schema is: the job table's CHECK on its `state` column lists
/// these cases, in this order (`CatalogSchema.Job.states`).
public enum CatalogJobState: String, Sendable, Hashable, CaseIterable {
    /// Waiting for a worker (again, after a failed claim with claims left).
    case queued
    /// Claimed by a worker whose lease runs.
    case running
    /// Finished.
    case done
    /// Failed on its last allowed claim.
    case failed
    /// Its batch was cancelled before it finished.
    case cancelled
}

extension CatalogJobState {
    /// The states of a job that has not finished: where a claim looks (the
    /// job table's partial index `job_open`) and what a cancel ends.
    package static let unfinished: [CatalogJobState] = [.queued, .running]

    /// The state as a SQL text literal (`'queued'`), for statements that
    /// name states in their text, as the schema's CHECK does: constant text,
    /// so the planner matches `job_open`'s predicate as it would a literal.
    package var sqlLiteral: String { CatalogSchema.literal(rawValue) }
}
