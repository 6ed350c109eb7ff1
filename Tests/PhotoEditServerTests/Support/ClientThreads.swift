// Only with the `Server` trait (Package.swift): these tests need its servers and modules.
#if Server
import Foundation
import PhotoEdit

/// The tests' own blocking waits — a client socket's read, a child process
/// (serve, schemathesis, a generated client's script) run to its end — on
/// threads of their own.
///
/// Never the engine's `BlockingExecutor` (the server's `blocking`): its few
/// threads are what the servers under test answer with, in this process
/// that runs every suite at once. A schemathesis run held one of them for
/// minutes, and a slow-head test's read waited 14 s in its queue behind
/// other suites' work (the whole suite, 2026-11-29), failing on time.
enum ClientThreads {
    /// Started as waits need them; a test with 64 streams waits on 64 at once.
    static let threads = WorkerThreads(name: "test.client", count: 256)

    static func run<T: Sendable>(_ work: @escaping @Sendable () throws -> T) async throws -> T {
        try await threads.run(work)
    }
}
#endif
