import Foundation
import Testing
import PhotoEditLoopback
#if canImport(Glibc)
import Glibc
#endif

/// `photoedit serve` as a real process on loopback: the first line it
/// prints, and a graceful SIGTERM (the upload in flight finishes, new
/// connections are refused, exit 0).
@Suite("photoedit serve (process)")
struct ServeProcessTests {
    /// The `photoedit` binary beside the test bundle.
    static func binary() throws -> URL {
        var folders = [Bundle.main.bundleURL, Bundle.main.bundleURL.deletingLastPathComponent()]
        if let exe = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe") {
            folders.append(URL(fileURLWithPath: exe).deletingLastPathComponent())
        }
        if let path = ProcessInfo.processInfo.environment["PHOTOEDIT_BINARY"] { return URL(fileURLWithPath: path) }
        for folder in folders where FileManager.default.isExecutableFile(atPath: folder.appendingPathComponent("photoedit").path) {
            return folder.appendingPathComponent("photoedit")
        }
        throw TestFailure("no photoedit binary beside the tests (looked in \(folders.map(\.path)))")
    }

    /// The first line serve prints, and the port it names.
    static func firstLine(_ stdout: Pipe) -> (text: String, port: Int?) {
        var line = Data()
        while !line.contains(UInt8(ascii: "\n")) {
            let chunk = stdout.fileHandleForReading.availableData
            if chunk.isEmpty { break }
            line += chunk
        }
        let text = String(decoding: line, as: UTF8.self)
        return (text, text.components(separatedBy: "127.0.0.1:").last.flatMap { Int($0.prefix { $0.isNumber }) })
    }

    struct TestFailure: Error, CustomStringConvertible {
        let description: String
        init(_ description: String) { self.description = description }
    }

    typealias Connection = LoopbackConnection

    @Test("SIGTERM: the upload in flight completes (201), new connections are refused, exit status 0")
    func gracefulShutdown() throws {
        let library = FileManager.default.temporaryDirectory.appendingPathComponent("photoedit-serve-\(UUID().uuidString.prefix(8))")
        defer { try? FileManager.default.removeItem(at: library) }
        let process = Process()
        process.executableURL = try Self.binary()
        process.arguments = ["serve", "--library", library.path, "--port", "0"]
        let stdout = Pipe()
        process.standardOutput = stdout
        process.standardError = FileHandle.nullDevice
        try process.run()
        defer { if process.isRunning { process.terminate(); process.waitUntilExit() } }

        // The first line names the port.
        let (text, listening) = Self.firstLine(stdout)
        let port = try #require(listening, "first line: \(text)")
        #expect(text.hasPrefix("listening on http://127.0.0.1:"))

        // Half an upload, then SIGTERM, then the rest.
        let photo = try Data(contentsOf: Paths.root.appendingPathComponent("samples/coffee.jpg"))
        let connection = try #require(Connection(port: port))
        connection.send(Data("POST /v1/assets?filename=coffee.jpg HTTP/1.1\r\nHost: localhost\r\nContent-Length: \(photo.count)\r\n\r\n".utf8))
        connection.send(photo.prefix(photo.count / 2))
        Thread.sleep(forTimeInterval: 0.3)
        kill(process.processIdentifier, SIGTERM)

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
        process.waitUntilExit()
        #expect(process.terminationReason == .exit && process.terminationStatus == 0)
    }

    @Test("a bad token file: one line on stderr, exit 1, nothing served")
    func badTokens() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("photoedit-serve-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let tokens = folder.appendingPathComponent("tokens")
        try "sha256:1234 edit\n".write(to: tokens, atomically: true, encoding: .utf8)
        let process = Process()
        process.executableURL = try Self.binary()
        process.arguments = ["serve", "--library", folder.appendingPathComponent("lib").path, "--port", "0", "--tokens", tokens.path]
        let stderr = Pipe()
        process.standardError = stderr
        process.standardOutput = FileHandle.nullDevice
        try process.run()
        process.waitUntilExit()
        let message = String(decoding: stderr.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        #expect(process.terminationStatus == 1)
        #expect(message == "photoedit: error: \(tokens.path) entry 1: expected 'sha256:<64 hex digits> <read|edit|admin> [name]'\n")
    }
}
