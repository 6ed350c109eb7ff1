// Only with the `Server` trait (Package.swift): these tests need its servers and modules.
#if Server
import Foundation
import PhotoEditTestSupport
import Testing

/// `photoedit serve` as a process of its own, for tests that see it from a
/// raw socket and bound times: a server inside the test process answers with
/// the same two cooperative threads every suite's synchronous test occupies.
enum ServeOfItsOwn {
    /// Runs `body` with `photoedit serve ARGUMENTS` on an empty library of
    /// its own (in `temp`), and stops it after (started and stopped on a client thread).
    static func run(_ arguments: [String], in temp: TemporaryDirectory = TemporaryDirectory("photoedit-abuse"),
                    _ body: (_ port: Int) async throws -> Void) async throws {
        let library = temp.url.appendingPathComponent("library")
        let serve = try await ClientThreads.run { try ServeProcess(library: library, arguments: arguments) }
        do {
            try await body(serve.port)
        } catch {
            _ = try? await ClientThreads.run { serve.stop() }
            throw error
        }
        let ended = try await ClientThreads.run { serve.stop() }
        #expect(ended == .exited(0), "serve: \(serve.log.suffix(300))")
    }
}
#endif
