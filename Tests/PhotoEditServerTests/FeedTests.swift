import Foundation
import Hummingbird
import HummingbirdTesting
@testable import PhotoEdit
@testable import PhotoEditServer
import Testing

@Suite("HTTP API v1: filters and the change feed")
struct FeedTests {
    @Test("/v1/filters lists every declared filter with its parameters, in pipeline order")
    func filters() async throws {
        let temp = try TemporaryLibrary()
        try await server(temp.library).test(.router) { client in
            try await client.execute(uri: "/v1/filters", method: .get) { response in
                #expect(response.status == .ok)
                guard case let .array(filters)? = response.member("filters") else { Issue.record("no filters"); return }
                let ids = filters.compactMap { filter -> String? in
                    if case let .object(members) = filter, case let .string(id)? = members["id"] { return id }
                    return nil
                }
                #expect(ids == temp.library.registry.filters.map(\.id))
                let exposure = filters.first { if case let .object(m) = $0 { return m["id"] == .string("exposure") } else { return false } }
                guard case let .object(members)? = exposure, case let .array(parameters)? = members["parameters"] else {
                    Issue.record("no exposure declaration"); return
                }
                #expect(!parameters.isEmpty)
            }
        }
    }

    @Test("/v1/changes pages the feed after a sequence number: entries, next, latest, more")
    func changesPage() async throws {
        let temp = try TemporaryLibrary()
        let first = try temp.importSample("coffee.jpg")
        _ = try temp.importSample("chelsea.jpg")
        try await temp.library.performChanges { try $0.changeRequest(for: first).isFavorite = true }
        let latest = try await temp.library.latestChangeSequence()
        try await server(temp.library).test(.router) { client in
            try await client.execute(uri: "/v1/changes?since=0&limit=1", method: .get) { response in
                #expect(response.status == .ok)
                guard case let .array(changes)? = response.member("changes") else { Issue.record("no changes"); return }
                #expect(!changes.isEmpty)
                #expect(response.member("more") == .bool(true))
                #expect(response.member("latest") == .number(Double(latest)))
            }
            try await client.execute(uri: "/v1/changes?since=\(latest - 1)", method: .get) { response in
                guard case let .array(changes)? = response.member("changes"), changes.count == 1, case let .object(entry) = changes[0] else {
                    Issue.record("expected the favorite alone: \(response.json)"); return
                }
                #expect(entry["id"] == .string(first))
                #expect(entry["kind"] == .string("update"))
                #expect(entry["changes"] == .array([.string("favorite")]))
                #expect(response.member("more") == .bool(false))
                #expect(response.member("next") == .number(Double(latest)))
            }
            try await client.execute(uri: "/v1/changes?since=-1", method: .get) { response in
                #expect(response.status == .badRequest)
            }
        }
    }

    @Test("the event stream sends the changes after ?since, then new ones as they commit; Last-Event-ID resumes after it")
    func eventStream() async throws {
        let temp = try TemporaryLibrary()
        let id = try temp.importSample("coffee.jpg")
        let imported = try await temp.library.latestChangeSequence()
        let library = temp.library
        try await server(temp.library).test(.live) { client in
            let port = try #require(client.port)
            let stream = try #require(ServeProcessTests.Connection(port: port))
            stream.send(Data("GET /v1/changes/stream?since=0 HTTP/1.1\r\nHost: localhost\r\n\r\n".utf8))
            let head = (try? await blocking { stream.receive(until: "id: \(imported)\n") }) ?? ""
            #expect(head.hasPrefix("HTTP/1.1 200"))
            #expect(head.lowercased().contains("content-type: text/event-stream"))
            #expect(head.contains("event: change\ndata: {"))

            // A change committed now arrives on the open stream.
            try await blocking { try library.performChanges { try $0.changeRequest(for: id).isHidden = true } }
            let next = imported + 1
            let live = (try? await blocking { stream.receive(until: "id: \(next)\n") }) ?? ""
            #expect(live.contains("\"changes\":[\"hidden\"]"), "stream: \(live)")

            // A client that reconnects with Last-Event-ID gets only what came after it.
            try await blocking { try library.performChanges { try $0.changeRequest(for: id).isFavorite = true } }
            let again = try #require(ServeProcessTests.Connection(port: port))
            again.send(Data("GET /v1/changes/stream HTTP/1.1\r\nHost: localhost\r\nLast-Event-ID: \(next)\r\n\r\n".utf8))
            let resumed = (try? await blocking { again.receive(until: "id: \(next + 1)\n") }) ?? ""
            #expect(resumed.contains("id: \(next + 1)\n"))
            #expect(!resumed.contains("id: \(next)\n") && !resumed.contains("id: \(imported)\n"))
            #expect(resumed.contains("\"changes\":[\"favorite\"]"))
        }
    }
}
