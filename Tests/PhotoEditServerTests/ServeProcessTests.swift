// Only with the `Server` trait (Package.swift): these tests need its servers and modules.
#if Server
import Foundation
import Testing
import PhotoEditTestSupport
#if canImport(Glibc)
import Glibc
#endif

/// `photoedit serve` as a real process on loopback: the first line it
/// prints, and a graceful SIGTERM (the upload in flight finishes, new
/// connections are refused, exit 0).
@Suite("photoedit serve (process)")
struct ServeProcessTests {
    typealias Connection = LoopbackConnection

    @Test("SIGTERM: the upload in flight completes (201), new connections are refused, exit status 0")
    func gracefulShutdown() throws {
        let temp = TemporaryDirectory("photoedit-serve")
        let serve = try ServeProcess(library: temp.url.appendingPathComponent("library"), keepErrors: false)
        defer { serve.stop() }
        let port = serve.port

        // The first line names the port.
        #expect(serve.firstLine.hasPrefix("listening on http://127.0.0.1:"))

        // Half an upload, then SIGTERM, then the rest.
        let photo = try Data(contentsOf: Paths.root.appendingPathComponent("samples/coffee.jpg"))
        let connection = try #require(Connection(port: port))
        connection.send(Data("POST /v1/assets?filename=coffee.jpg HTTP/1.1\r\nHost: localhost\r\nContent-Length: \(photo.count)\r\n\r\n".utf8))
        connection.send(photo.prefix(photo.count / 2))
        Thread.sleep(forTimeInterval: 0.3)
        serve.send(signal: SIGTERM)

        // The listener closes while the upload is still open.
        var refused = false
        for _ in 0..<100 {
            if Connection(port: port) == nil { refused = true; break }
            Thread.sleep(forTimeInterval: 0.05)
        }
        #expect(refused, "new connections were still accepted after SIGTERM")

        connection.send(photo.suffix(from: photo.count / 2))
        let response = connection.receiveAll()
        #expect(response.hasPrefix("HTTP/1.1 201"), "response: \(response.prefix(200))")
        #expect(serve.wait() == .exited(0))
    }

    @Test("a bad token file: one line on stderr, exit 1, nothing served")
    func badTokens() throws {
        let temp = TemporaryDirectory("photoedit-serve")
        let folder = temp.url
        let tokens = folder.appendingPathComponent("tokens")
        try "sha256:1234 edit\n".write(to: tokens, atomically: true, encoding: .utf8)
        let run = try PhotoEditBinary.run(["serve", "--library", folder.appendingPathComponent("lib").path, "--port", "0", "--tokens", tokens.path])
        let message = run.stderr
        #expect(run.status == 1)
        #expect(message == "photoedit: error: \(tokens.path) entry 1: expected 'sha256:<64 hex digits> <read|edit|admin> [name]'\n")
    }

    @Test("timeouts out of range: one line on stderr, exit 1, no library made", arguments: [
        (["--timeout", "0"], "--timeout takes 1 to 3600 seconds (got 0)"),
        (["--timeout=-5"], "--timeout takes 1 to 3600 seconds (got -5)"),
        (["--timeout", "3601"], "--timeout takes 1 to 3600 seconds (got 3601)"),
        (["--header-timeout", "0"], "--header-timeout takes 1 to 3600 seconds (got 0)"),
    ])
    func timeoutsOutOfRange(_ arguments: [String], _ expected: String) throws {
        let temp = TemporaryDirectory("photoedit-serve")
        let library = temp.url.appendingPathComponent("lib")
        let run = try PhotoEditBinary.run(["serve", "--library", library.path, "--port", "0"] + arguments)
        #expect(run.status == 1)
        #expect(run.stderr == "photoedit: error: \(expected)\n")
        #expect(!FileManager.default.fileExists(atPath: library.path))
    }
}
#endif
