// Only with the `Server` trait (Package.swift): without it the module is empty.
#if Server
import Foundation
import Hummingbird
import PhotoEdit

/// How far a batch of jobs is, as `GET /v1/jobs/{batch}` and
/// `photoedit jobs status` show it.
public struct BatchStatus: Sendable, Equatable {
    /// The batch id.
    public var batch: String
    /// Its jobs, and how many are in each state.
    public var jobs: Int
    public var queued: Int
    public var running: Int
    public var done: Int
    public var failed: Int
    public var cancelled: Int
    /// Photos handled (edited, or skipped as already past the planned revision).
    public var photosDone: Int64
    /// Photos in the batch, when every job knows its count.
    public var photosTotal: Int64?

    public init(batch: String, jobs: Int, queued: Int, running: Int, done: Int, failed: Int, cancelled: Int,
                photosDone: Int64, photosTotal: Int64?) {
        (self.batch, self.jobs, self.queued, self.running, self.done, self.failed, self.cancelled) =
            (batch, jobs, queued, running, done, failed, cancelled)
        (self.photosDone, self.photosTotal) = (photosDone, photosTotal)
    }

    /// `running` while a job is queued or running; then `failed` if a job
    /// failed, `cancelled` if one was cancelled, else `done`.
    public var state: String {
        if queued > 0 || running > 0 { return "running" }
        if failed > 0 { return "failed" }
        return cancelled > 0 ? "cancelled" : "done"
    }

    /// The status as the API's JSON.
    public var json: JSONValue {
        .object([
            "batch": .string(batch),
            "state": .string(state),
            "jobs": .object(["total": .number(Double(jobs)), "queued": .number(Double(queued)), "running": .number(Double(running)),
                             "done": .number(Double(done)), "failed": .number(Double(failed)), "cancelled": .number(Double(cancelled))]),
            "photos": .object(["done": .number(Double(photosDone)), "total": photosTotal.map { .number(Double($0)) } ?? .null]),
        ])
    }
}

/// The batch work of a library shared by many nodes (jobs in its
/// PostgreSQL catalog, run by every node's worker), as the API reaches
/// it. A folder library has none: its batch work runs in the process that
/// asks for it.
public protocol BatchJobService: Sendable {
    /// The batch's status; nil when there is no such batch.
    func status(_ batch: String) async throws -> BatchStatus?
    /// Cancels what of the batch has not run; returns its status then (nil: no such batch).
    func cancel(_ batch: String) async throws -> BatchStatus?
}

/// What a batch id is made of (as `PostgresCatalog.enqueue` allows).
private let batchCharacters = Set("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789._-".utf8)

/// `GET /v1/jobs/{batch}`: a batch's progress; `DELETE /v1/jobs/{batch}`:
/// cancels it (edit scope). 404 `unknown-batch` for a batch that does not
/// exist, 404 `no-job-queue` on a library without a job table (a folder).
func addJobRoutes(_ v1: RouterGroup<ServerContext>, state: ServerState) {
    @Sendable func service() throws -> any BatchJobService {
        guard let jobs = state.configuration.jobs else {
            throw Problem(.notFound, code: "no-job-queue",
                          "this library runs batch work in the process that asks for it; jobs need a library shared through PostgreSQL")
        }
        return jobs
    }
    @Sendable func batch(_ context: ServerContext) throws -> String {
        let batch = try context.parameters.require("batch")
        guard !batch.isEmpty, batch.utf8.count <= 64, batch.utf8.allSatisfy(batchCharacters.contains) else {
            throw Problem(.badRequest, code: "invalid-batch", "a batch id is at most 64 letters, digits, '.', '_' or '-'")
        }
        return batch
    }
    @Sendable func found(_ status: BatchStatus?, _ batch: String) throws -> Response {
        guard let status else { throw Problem(.notFound, code: "unknown-batch", "no batch \(batch)") }
        return jsonResponse(status.json)
    }
    v1.get("jobs/:batch") { _, context -> Response in
        let id = try batch(context)
        return try found(try await service().status(id), id)
    }
    v1.delete("jobs/:batch") { _, context -> Response in
        let id = try batch(context)
        return try found(try await service().cancel(id), id)
    }
}
#endif
