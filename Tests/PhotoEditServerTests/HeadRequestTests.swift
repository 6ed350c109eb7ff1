// Only with the `Server` trait (Package.swift): these tests need its servers and modules.
#if Server
import Foundation
import PhotoEditTestSupport
import Testing

/// HEAD, as `curl -I`, link checkers and caches send it: every GET route
/// answers it with the GET's status and headers and no body. Seen from a raw
/// socket, so the test also sees that no body byte follows the head (the next
/// answer on the connection would be corrupt).
@Suite("HTTP server: HEAD")
struct HeadRequestTests {
    typealias Connection = LoopbackConnection

    /// The value of `name` in an answer's head, or nil.
    static func header(_ name: String, in answer: String) -> String? {
        let head = answer.components(separatedBy: "\r\n\r\n").first ?? ""
        return head.components(separatedBy: "\r\n").dropFirst().first { $0.lowercased().hasPrefix(name.lowercased() + ":") }
            .map { String($0.dropFirst(name.count + 1)).trimmingCharacters(in: .whitespaces) }
    }

    @Test("HEAD of a render, a photo and /health: the GET's status, type and length, no body; an unknown route 404")
    func headAsGet() async throws {
        let photo = try Data(contentsOf: URL(fileURLWithPath: Paths.sample("coffee.jpg")))
        try await ServeOfItsOwn.run([]) { port in
            let answers = try await ClientThreads.run { () -> [String] in
                guard let connection = Connection(port: port) else { return ["refused"] }
                connection.send(Data("POST /v1/assets?filename=coffee.jpg HTTP/1.1\r\nHost: localhost\r\nContent-Length: \(photo.count)\r\n\r\n".utf8) + photo)
                let uploaded = connection.receive(until: "}", limit: 30)
                guard let id = uploaded.range(of: #""id":""#).map({ String(uploaded[$0.upperBound...].prefix(32)) }) else { return [uploaded] }
                var answers: [String] = []
                for target in ["/v1/assets/\(id)/render?w=64", "/v1/assets/\(id)", "/health", "/v1/nope"] {
                    // The GET whole, on a connection of its own; the HEAD on the kept one, its head alone.
                    let single = Connection(port: port)
                    single?.send(Data("GET \(target) HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n".utf8))
                    answers.append(single?.receiveAll(limit: 20) ?? "refused")
                    connection.send(Data("HEAD \(target) HTTP/1.1\r\nHost: localhost\r\n\r\n".utf8))
                    answers.append(connection.receive(until: "\r\n\r\n", limit: 20))
                }
                // After four HEADs the connection is still in step: a last request is answered as such.
                connection.send(Data("GET /health HTTP/1.1\r\nHost: localhost\r\n\r\n".utf8))
                answers.append(connection.receive(until: "\"ok\"", limit: 10))
                return answers
            }
            try #require(answers.count == 9, "\(answers.first?.prefix(200) ?? "")")
            for pair in 0..<4 {
                let (get, head) = (answers[2 * pair], answers[2 * pair + 1])
                let status = get.components(separatedBy: "\r\n").first ?? ""
                #expect(head.hasPrefix(status), "GET: \(status); HEAD: \(head.prefix(60))")
                #expect(Self.header("Content-Type", in: head) == Self.header("Content-Type", in: get), "\(status)")
                #expect(Self.header("Content-Length", in: head) == Self.header("Content-Length", in: get), "\(status)")
                #expect(head.hasSuffix("\r\n\r\n"), "a HEAD answer with a body: \(head.suffix(60))")
            }
            #expect(answers[0].hasPrefix("HTTP/1.1 200") && Self.header("Content-Type", in: answers[1]) == "image/jpeg")
            #expect(answers[6].hasPrefix("HTTP/1.1 404"))
            #expect(answers[8].hasPrefix("HTTP/1.1 200") && answers[8].contains("\"ok\""), "after the HEADs: \(answers[8].prefix(80))")
        }
    }
}
#endif
