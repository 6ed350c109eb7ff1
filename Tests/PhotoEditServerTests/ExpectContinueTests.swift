// Only with the `Server` trait (Package.swift): these tests need its servers and modules.
#if Server
import Foundation
@testable import PhotoEditServer
import PhotoEditTestSupport
import Testing

/// `Expect: 100-continue`, as curl sends it with every body over 1 MiB: the
/// server answers `100 Continue` when the route reads the body, and a
/// request refused before that is answered without its body.
///
/// Seen from a raw socket on `photoedit serve` as a process of its own
/// (``ServeOfItsOwn``), the client's waits and reads
/// on `ClientThreads`.
@Suite("HTTP server: Expect: 100-continue")
struct ExpectContinueTests {
    typealias Connection = LoopbackConnection

    static func head(_ target: String, length: Int, version: String = "HTTP/1.1", expect: Bool = true) -> Data {
        Data(("POST \(target) \(version)\r\nHost: localhost\r\nContent-Type: image/jpeg\r\nContent-Length: \(length)\r\n"
            + (expect ? "Expect: 100-continue\r\n" : "") + "\r\n").utf8)
    }

    static let photo = { () -> Data in
        (try? Data(contentsOf: URL(fileURLWithPath: Paths.sample("coffee.jpg")))) ?? Data()
    }()

    @Test("an upload that asks gets 100 Continue before it sends its body, then 201, and the connection serves the next request")
    func uploadGetsContinue() async throws {
        #expect(!Self.photo.isEmpty)
        try await ServeOfItsOwn.run([]) { port in
            let (interim, answer, next) = try await ClientThreads.run { () -> (String, String, String) in
                guard let connection = Connection(port: port) else { return ("refused", "", "") }
                connection.send(Self.head("/v1/assets?filename=coffee.jpg", length: Self.photo.count))
                // Nothing of the body is sent until the server asks for it (curl waits 1 s).
                let interim = connection.receive(until: "\r\n\r\n", limit: 5)
                guard interim.hasPrefix("HTTP/1.1 100") else { return (interim, "", "") }
                connection.send(Self.photo)
                let answer = connection.receive(until: "}", limit: 30)
                connection.send(Data("GET /health HTTP/1.1\r\nHost: localhost\r\n\r\n".utf8))
                return (interim, answer, connection.receive(until: "\"ok\"", limit: 10))
            }
            #expect(interim.hasPrefix("HTTP/1.1 100 Continue\r\n"), "before the body: \(interim.prefix(80))")
            #expect(!interim.contains("HTTP/1.1 201"), "the 100 came with the final answer: \(interim.prefix(120))")
            #expect(answer.hasPrefix("HTTP/1.1 201"), "after the body: \(answer.prefix(120))")
            #expect(next.hasPrefix("HTTP/1.1 200"), "the next request on the connection: \(next.prefix(80))")
        }
    }

    @Test("pipelined after another request, an upload that asks still gets its 100 Continue, and the answer before it keeps the connection")
    func pipelined() async throws {
        #expect(!Self.photo.isEmpty)
        try await ServeOfItsOwn.run([]) { port in
            let (before, answer) = try await ClientThreads.run { () -> (String, String) in
                guard let connection = Connection(port: port) else { return ("refused", "") }
                connection.send(Data("GET /health HTTP/1.1\r\nHost: localhost\r\n\r\n".utf8)
                    + Self.head("/v1/assets?filename=coffee.jpg", length: Self.photo.count))
                let before = connection.receive(until: "100 Continue\r\n\r\n", limit: 5)
                guard before.contains("100 Continue") else { return (before, "") }
                connection.send(Self.photo)
                return (before, connection.receive(until: "}", limit: 30))
            }
            #expect(before.hasPrefix("HTTP/1.1 200") && before.contains("\"ok\""), "first: \(before.prefix(120))")
            #expect(!before.lowercased().contains("connection: close"), "the first answer closed the connection: \(before.prefix(300))")
            #expect(before.hasSuffix("HTTP/1.1 100 Continue\r\n\r\n"), "then: \(before.suffix(80))")
            #expect(answer.hasPrefix("HTTP/1.1 201"), "after the body: \(answer.prefix(120))")
        }
    }

    @Test("an upload refused by its Content-Length is answered 413 without 100 Continue and without its body, then closed")
    func refusedBeforeTheBody() async throws {
        try await ServeOfItsOwn.run(["--max-upload", "1000"]) { port in
            let answer = try await ClientThreads.run { () -> String in
                guard let connection = Connection(port: port) else { return "refused" }
                connection.send(Self.head("/v1/assets?filename=big.jpg", length: 5_000_000))
                // The server closes the connection after its answer: receiveAll ends there.
                return connection.receiveAll(limit: 10)
            }
            #expect(answer.hasPrefix("HTTP/1.1 413"), "answer: \(answer.prefix(120))")
            #expect(!answer.contains("100 Continue"), "answer: \(answer.prefix(120))")
            #expect(answer.lowercased().contains("connection: close"), "answer: \(answer.prefix(300))")
            #expect(answer.contains("upload-too-large"), "answer: \(answer.suffix(200))")
        }
    }

    @Test("no 100 Continue for a client that sends its body at once, nor for HTTP/1.0 (whose expectation is ignored)")
    func noContinueWhenNotWaiting() async throws {
        #expect(!Self.photo.isEmpty)
        try await ServeOfItsOwn.run([]) { port in
            let (eager, old) = try await ClientThreads.run { () -> (String, String) in
                guard let first = Connection(port: port), let second = Connection(port: port) else { return ("refused", "refused") }
                first.send(Self.head("/v1/assets?filename=eager.jpg", length: Self.photo.count) + Self.photo)
                let eager = first.receive(until: "}", limit: 30)
                second.send(Self.head("/v1/assets?filename=old.jpg", length: Self.photo.count, version: "HTTP/1.0"))
                // An HTTP/1.0 client cannot wait for a 100 the server must not send: nothing comes back until the body.
                let early = second.receive(until: "\r\n\r\n", limit: 2)
                second.send(Self.photo)
                return (eager, early + second.receive(until: "}", limit: 30))
            }
            #expect(eager.hasPrefix("HTTP/1.1 20"), "sent at once: \(eager.prefix(120))")
            #expect(!eager.contains("100 Continue"), "sent at once: \(eager.prefix(120))")
            #expect(old.hasPrefix("HTTP/1.") && old.contains(" 20") && !old.contains("100 Continue"), "HTTP/1.0: \(old.prefix(120))")
        }
    }
}
#endif
