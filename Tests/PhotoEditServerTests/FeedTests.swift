import Foundation
import Hummingbird
import HummingbirdTesting
@testable import PhotoEdit
@testable import PhotoEditServer
import Testing
import PhotoEditLoopback

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

    @Test("/v1/filters gives every parameter as data: type, min/max/step, choices, default, unit, description, from its declaration")
    func filterParametersAsData() async throws {
        let temp = try TemporaryLibrary()
        let registry = temp.library.registry
        try await server(temp.library).test(.router) { client in
            try await client.execute(uri: "/v1/filters", method: .get) { response in
                guard case let .array(filters)? = response.member("filters") else { Issue.record("no filters"); return }
                var kinds: Set<String> = []
                for case let .object(filter) in filters {
                    guard case let .string(id)? = filter["id"], let definition = registry.filters.first(where: { $0.id == id }),
                          case let .array(parameters)? = filter["parameters"] else { Issue.record("bad filter \(filter)"); continue }
                    #expect(parameters.count == definition.parameters.count, "\(id)")
                    for (spec, json) in zip(definition.parameters, parameters) {
                        let name = "\(id).\(spec.name)"
                        guard case let .object(p) = json else { Issue.record("\(name): not an object"); continue }
                        #expect(p["name"] == .string(spec.name), "\(name)")
                        #expect(p["description"] == .string(spec.summary) && !spec.summary.isEmpty, "\(name)")
                        #expect(p["unit"] == .string(spec.unit), "\(name)")
                        #expect(p["range"] == .string(spec.rangeDescription), "\(name): the human text stays")
                        switch spec.kind {
                        case let .number(range, step):
                            kinds.insert("number")
                            #expect(p["type"] == .string("number"), "\(name)")
                            #expect(p["min"] == .number(range.lowerBound) && p["max"] == .number(range.upperBound), "\(name)")
                            #expect(p["step"] == (step.map(JSONValue.number) ?? .null), "\(name)")
                            guard case let .number(d)? = p["default"] else { Issue.record("\(name): default is not a number"); continue }
                            #expect(range.contains(d), "\(name): default \(d) outside \(range)")
                        case let .choice(choices):
                            kinds.insert("choice")
                            #expect(p["type"] == .string("choice"), "\(name)")
                            #expect(p["choices"] == .array(choices.map(JSONValue.string)), "\(name)")
                            guard case let .string(d)? = p["default"] else { Issue.record("\(name): default is not a string"); continue }
                            #expect(choices.contains(d), "\(name)")
                            #expect(p["min"] == nil && p["step"] == nil, "\(name): no number fields on a choice")
                        case .text:
                            kinds.insert("text")
                            #expect(p["type"] == .string("text"), "\(name)")
                            #expect(p["maxLength"] == .number(Double(ParameterSpec.maxTextLength)), "\(name)")
                        case .bool:
                            kinds.insert("bool")
                            #expect(p["type"] == .string("bool"), "\(name)")
                            #expect(p["default"] == .bool(spec.defaultValue == .bool(true)), "\(name)")
                        }
                    }
                }
                // The declarations use every kind, so each branch above ran.
                #expect(kinds == ["number", "choice", "text", "bool"])
                // Two known ones, by value.
                let exposure = filters.first { $0["id"] == .string("exposure") }?["parameters"]
                guard case let .array(exposureParameters)? = exposure, case let .object(ev)? = exposureParameters.first else {
                    Issue.record("no exposure"); return
                }
                #expect(ev["type"] == .string("number") && ev["default"] == .number(0))
                let crop = filters.first { $0["id"] == .string("crop") }?["parameters"]
                guard case let .array(cropParameters)? = crop, case let .object(mode)? = cropParameters.first else { Issue.record("no crop"); return }
                #expect(mode["choices"] == .array([.string("rect"), .string("aspect"), .string("trim")]))
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
