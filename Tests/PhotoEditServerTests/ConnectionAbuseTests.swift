// Only with the `Server` trait (Package.swift): these tests need its servers and modules.
#if Server
import Foundation
import Hummingbird
import HummingbirdTesting
@testable import PhotoEdit
@testable import PhotoEditServer
import PhotoEditTestSupport
import Testing

/// Issue 41, "What clients still meet": clients that drop their
/// connections, hold the feed's streams, or send their heads slowly, seen
/// from a raw socket.
@Suite("HTTP server under abuse: dropped streams, stream shares, slow heads")
struct ConnectionAbuseTests {
    typealias Connection = LoopbackConnection

    static func streamRequest(token: String? = nil) -> Data {
        let auth = token.map { "Authorization: Bearer \($0)\r\n" } ?? ""
        return Data("GET /v1/changes/stream HTTP/1.1\r\nHost: localhost\r\n\(auth)\r\n".utf8)
    }

    /// Opens a stream; returns the connection and the status line it got.
    static func openStream(port: Int, token: String? = nil, from source: String? = nil) async throws -> (Connection, String) {
        let (connection, status, _) = try await openStreamAnswer(port: port, token: token, from: source)
        return (connection, status)
    }

    /// Opens a stream: the connection, its status line, and what came with
    /// it (a refusal's whole problem).
    static func openStreamAnswer(port: Int, token: String? = nil, from source: String? = nil) async throws -> (Connection, String, String) {
        let connection = try #require(Connection(port: port, from: source))
        connection.send(streamRequest(token: token))
        var answer = (try? await ClientThreads.run { connection.receive(until: "\r\n\r\n", limit: 10) }) ?? ""
        let status = answer.components(separatedBy: "\r\n").first ?? ""
        if !status.hasSuffix("200 OK") && !answer.contains("}") {
            answer += (try? await ClientThreads.run { connection.receive(until: "}", limit: 5) }) ?? ""
        }
        return (connection, status, answer)
    }

    @Test("64 streams dropped with a reset free their slots at once: a new stream is served within 3 s, not after the 15 s heartbeat")
    func resetStreamsFreeTheirSlots() async throws {
        let temp = try TemporaryLibrary()
        _ = try temp.importSample("coffee.jpg")
        try await server(temp.library, {
            $0.maxEventStreams = 64
            $0.maxEventStreamsPerClient = 64
        }).test(.live) { client in
            let port = try #require(client.port)
            var open: [Connection] = []
            for _ in 0..<64 {
                let (connection, status) = try await Self.openStream(port: port)
                #expect(status == "HTTP/1.1 200 OK")
                open.append(connection)
            }
            let (extra, refused) = try await Self.openStream(port: port)
            #expect(refused == "HTTP/1.1 503 Service Unavailable", "the 65th stream: \(refused)")
            extra.close()

            for connection in open { connection.reset() }
            let dropped = ContinuousClock.now
            var served = ""
            while ContinuousClock.now - dropped < .seconds(3) {
                let (connection, status) = try await Self.openStream(port: port)
                connection.close()
                served = status
                if status == "HTTP/1.1 200 OK" { break }
                try await Task.sleep(for: .milliseconds(100))
            }
            #expect(served == "HTTP/1.1 200 OK", "3 s after the resets a new stream still got: \(served)")
        }
    }

    @Test("one token holding its share of streams gets 429; another token is still served")
    func perTokenShare() async throws {
        let temp = try TemporaryLibrary()
        let (greedy, other) = (TokenStore.newToken(), TokenStore.newToken())
        let tokens = try TokenStore(text: TokenStore.entry(for: greedy, scope: .read, name: "greedy") + "\n"
                                    + TokenStore.entry(for: other, scope: .read, name: "other"), source: "test")
        try await server(temp.library, {
            $0.tokens = tokens
            $0.maxEventStreams = 8
            $0.maxEventStreamsPerClient = 3
        }).test(.live) { client in
            let port = try #require(client.port)
            var open: [Connection] = []
            for _ in 0..<3 {
                let (connection, status) = try await Self.openStream(port: port, token: greedy)
                #expect(status == "HTTP/1.1 200 OK")
                open.append(connection)
            }
            let (fourth, refused, problem) = try await Self.openStreamAnswer(port: port, token: greedy)
            #expect(refused == "HTTP/1.1 429 Too Many Requests", "the greedy token's fourth stream: \(refused)")
            #expect(problem.contains("too-many-client-streams"), "\(problem)")
            fourth.close()
            let (another, status) = try await Self.openStream(port: port, token: other)
            #expect(status == "HTTP/1.1 200 OK", "another token: \(status)")
            // Closing one of its streams gives the greedy token its slot back.
            open[0].close()
            var again = ""
            for _ in 0..<30 {
                let (connection, status) = try await Self.openStream(port: port, token: greedy)
                again = status
                if status == "HTTP/1.1 200 OK" { open.append(connection); break }
                connection.close()
                try await Task.sleep(for: .milliseconds(100))
            }
            #expect(again == "HTTP/1.1 200 OK")
            another.close()
            for connection in open { connection.close() }
        }
    }

    @Test("without tokens the share is per address: 127.0.0.1 holding its share cannot shut out 127.0.0.2")
    func perAddressShare() async throws {
        let temp = try TemporaryLibrary()
        try await server(temp.library, {
            $0.maxEventStreams = 8
            $0.maxEventStreamsPerClient = 2
        }).test(.live) { client in
            let port = try #require(client.port)
            let (a, first) = try await Self.openStream(port: port)
            let (b, second) = try await Self.openStream(port: port)
            let (c, third) = try await Self.openStream(port: port)
            #expect([first, second] == ["HTTP/1.1 200 OK", "HTTP/1.1 200 OK"])
            #expect(third == "HTTP/1.1 429 Too Many Requests")
            let (d, elsewhere) = try await Self.openStream(port: port, from: "127.0.0.2")
            #expect(elsewhere == "HTTP/1.1 200 OK", "from another address: \(elsewhere)")
            for connection in [a, b, c, d] { connection.close() }
        }
    }

    @Test("a request head sent a byte at a time is answered 408 and closed after the header timeout; a kept-alive idle connection is not")
    func slowRequestHead() async throws {
        let temp = try TemporaryLibrary()
        try await server(temp.library, { $0.headerTimeout = .seconds(1) }).test(.live) { client in
            let port = try #require(client.port)
            let slow = try #require(Connection(port: port))
            let head = Array("GET /health HTTP/1.1\r\nHost: localhost\r\nX-Slow: ".utf8) + Array(repeating: UInt8(ascii: "a"), count: 200)
            let started = ContinuousClock.now
            // The first byte now, so the head has begun however late the dribbling task starts
            // (a head with no byte at its deadline is closed without a 408, by design).
            #expect(slow.send(Data([head[0]])))
            let dribble = Task.detached {
                for byte in head.dropFirst() {
                    guard slow.send(Data([byte])) else { return }
                    try? await Task.sleep(for: .milliseconds(200))
                }
            }
            let answer = (try? await ClientThreads.run { slow.receiveAll(limit: 20) }) ?? ""
            let elapsed = ContinuousClock.now - started
            dribble.cancel()
            #expect(answer.hasPrefix("HTTP/1.1 408"), "answer: \(answer.prefix(80))")
            #expect(elapsed < .seconds(5), "the slow head held its connection for \(elapsed)")

            // A head that arrives in time is served, and the connection may
            // then sit idle longer than the header timeout before the next.
            let kept = try #require(Connection(port: port))
            kept.send(Data("GET /health HTTP/1.1\r\nHost: localhost\r\n\r\n".utf8))
            let first = (try? await ClientThreads.run { kept.receive(until: "\"ok\"", limit: 10) }) ?? ""
            #expect(first.hasPrefix("HTTP/1.1 200"))
            try await Task.sleep(for: .milliseconds(1600))
            kept.send(Data("GET /health HTTP/1.1\r\nHost: localhost\r\n\r\n".utf8))
            let second = (try? await ClientThreads.run { kept.receive(until: "\"ok\"", limit: 10) }) ?? ""
            #expect(second.hasPrefix("HTTP/1.1 200"), "after an idle pause: \(second.prefix(80))")

            // A connection that sends nothing is closed at the deadline, without an answer.
            let silent = try #require(Connection(port: port))
            let opened = ContinuousClock.now
            let nothing = (try? await ClientThreads.run { silent.receiveAll(limit: 20) }) ?? "?"
            #expect(nothing.isEmpty && ContinuousClock.now - opened < .seconds(5), "\(nothing.prefix(80))")
        }
    }
}
#endif
