// Only with the `Server` trait (Package.swift): these tests need its servers and modules.
#if Server
import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
@testable import PhotoEdit
@testable import PhotoEditServer
import PhotoEditTestSupport
import Testing

/// Issue 40 over HTTP, against the server on loopback: virtual copies,
/// snapshots, presets saved from an edit, selective sync; every answer is
/// checked against openapi.yaml, bad input is 4xx and changes nothing.
@Suite("HTTP versions: duplicates, snapshots, presets from an edit, selective sync")
struct VersionRouteTests {
    static let json: HTTPFields = [.contentType: "application/json"]

    static func body(_ text: String) -> ByteBuffer { ByteBuffer(string: text) }

    /// The library's chain of a photo ("" when unadjusted).
    static func chain(_ library: PhotoLibrary, _ id: String) throws -> String {
        let asset = try library.asset(id)
        guard let data = asset.adjustmentData else { return "" }
        return Chain.format(try Recipe(adjustmentData: data, registry: library.registry), registry: library.registry)
    }

    @Test("duplicate: 201 with the copy (master, name, the source's edit or fresh), shared original, copyCount and versions; bad input 4xx")
    func duplicates() async throws {
        let temp = try TemporaryLibrary()
        let id = try temp.importSample("coffee.jpg")
        let library = temp.library
        try library.apply(chain: "exposure=+0.5,saturation=-40", to: id)
        let sequence = try library.latestChangeSequence()
        try await server(temp).test(.live) { raw in
            let client = CheckedClient(raw, document: try OpenAPIDocument())
            let made = try await client.call(.post, "/v1/assets/\(id)/duplicates", headers: Self.json,
                                             body: Self.body(#"{"name": "B&W"}"#), expect: .created)
            let copy = try #require(made.string("id"))
            #expect(made.headers[.location] == "/v1/assets/\(copy)" && made.headers[.eTag] == made.string("etag"))
            #expect(made.string("masterIdentifier") == id && made.string("copyName") == "B&W")
            #expect(made.string("chain") == "exposure=+0.5,saturation=-40" && made.member("revision") == .number(1))
            let fresh = try await client.call(.post, "/v1/assets/\(copy)/duplicates", headers: Self.json,
                                              body: Self.body(#"{"fresh": true}"#), expect: .created)
            let second = try #require(fresh.string("id"))
            #expect(fresh.string("masterIdentifier") == id, "a copy of a copy is a copy of the same master")
            #expect(fresh.member("chain") == .null && fresh.member("revision") == .number(0) && fresh.string("copyName") == "Copy 2")
            // An empty body is a copy with the default name.
            try await client.call(.post, "/v1/assets/\(id)/duplicates", expect: .created)

            // The library holds three copies sharing the master's original.
            let versions = try library.versions(of: id)
            #expect(versions.map(\.id).prefix(3) == [id, copy, second] && versions.count == 4)
            #expect(Set(versions.map(\.sha256)).count == 1)
            #expect(try library.asset(copy).adjustmentData != nil && library.asset(second).adjustmentData == nil)

            let listed = try await client.call(.get, "/v1/assets/\(copy)/versions", expect: .ok)
            guard case let .array(items)? = listed.member("assets") else { Issue.record("no assets"); return }
            #expect(items.compactMap { $0["id"]?.stringValue } == versions.map(\.id), "master first, then the copies")
            let master = try await client.call(.get, "/v1/assets?where=master%3D\(id)", expect: .ok)
            guard case let .array(family)? = master.member("assets") else { Issue.record("no assets"); return }
            #expect(family.count == 4)
            let counts = Dictionary(uniqueKeysWithValues: family.compactMap { a in a["id"]?.stringValue.map { ($0, a["copyCount"]) } })
            #expect(counts[id] == .number(3) && counts[copy] == .number(0), "\(counts)")
            let copiesOnly = try await client.call(.get, "/v1/assets?where=copy", expect: .ok)
            if case let .array(only)? = copiesOnly.member("assets") { #expect(only.count == 3) }
            // A copy in the recently deleted is not counted; the versions still list it, with its deletedDate.
            try await client.call(.delete, "/v1/assets/\(second)", expect: .noContent)
            let after = try await client.call(.get, "/v1/assets?where=master%3D\(id)", expect: .ok)
            if case let .array(items)? = after.member("assets") {
                #expect(items.first { $0["id"]?.stringValue == id }?["copyCount"] == .number(2))
            }
            let withDeleted = try await client.call(.get, "/v1/assets/\(id)/versions", expect: .ok)
            if case let .array(items)? = withDeleted.member("assets") {
                #expect(items.count == 4 && items.first { $0["id"]?.stringValue == second }?["deletedDate"] != nil)
            }
            try await client.call(.post, "/v1/assets/\(second)/restore", expect: .ok)

            // The change feed announces each copy as an insert.
            let changes = try library.changeEntries(since: sequence, limit: 100)
            #expect(changes.filter { $0.kind == .insert }.map(\.identifier).contains(copy))

            // Bad input: 4xx, no new photo.
            let count = try library.fetchAssets(FetchOptions()).count
            for (text, status) in [(#"{"name": ""}"#, HTTPResponse.Status.badRequest), (#"{"name": "a\nb"}"#, .badRequest),
                                   ("{\"name\": \"\(String(repeating: "x", count: 201))\"}", .badRequest),
                                   (#"{"name": 3}"#, .badRequest), (#"{"fresh": "yes"}"#, .badRequest),
                                   (#"{"copies": 2}"#, .badRequest), ("[1]", .badRequest), ("{", .badRequest)] {
                try await client.call(.post, "/v1/assets/\(id)/duplicates", headers: Self.json, body: Self.body(text), expect: status)
            }
            try await client.call(.post, "/v1/assets/0123456789abcdef0123456789abcdef/duplicates", expect: .notFound)
            try await client.call(.post, "/v1/assets/\(id)/duplicates", headers: [.ifMatch: "\"r0\""], expect: .preconditionFailed)
            try await client.call(.post, "/v1/assets/\(id)/duplicates", headers: [.ifMatch: "\"r1\""], expect: .created)
            #expect(try library.fetchAssets(FetchOptions()).count == count + 1, "only the last, valid request made a copy")

            let report = client.report
            #expect(report.problems.isEmpty, "\(report.problems.joined(separator: "\n"))")
        }
    }

    @Test("snapshots: take (409 for a taken name), list, names in history, restore with If-Match as a new revision, remove; bad names 4xx")
    func snapshots() async throws {
        let temp = try TemporaryLibrary()
        let id = try temp.importSample("coffee.jpg")
        let library = temp.library
        try library.apply(chain: "exposure=+0.5", to: id)
        try await server(temp).test(.live) { raw in
            let client = CheckedClient(raw, document: try OpenAPIDocument())
            let taken = try await client.call(.post, "/v1/assets/\(id)/snapshots", headers: Self.json,
                                              body: Self.body(#"{"name": "Before client"}"#), expect: .created)
            #expect(taken.string("name") == "Before client" && taken.member("revision") == .number(1))
            #expect(taken.headers[.location] == "/v1/assets/\(id)/snapshots/Before%20client")
            let again = try await client.call(.post, "/v1/assets/\(id)/snapshots", headers: Self.json,
                                              body: Self.body(#"{"name": " Before client "}"#), expect: .conflict)
            #expect(again.string("code") == "snapshot-exists")
            try await client.call(.post, "/v1/assets/\(id)/snapshots", headers: [.contentType: "application/json", .ifMatch: "\"r0\""],
                                  body: Self.body(#"{"name": "Stale"}"#), expect: .preconditionFailed)
            for text in [#"{"name": ""}"#, #"{"name": "a\u0007b"}"#, #"{}"#, #"{"name": "x", "revision": 0}"#] {
                try await client.call(.post, "/v1/assets/\(id)/snapshots", headers: Self.json, body: Self.body(text), expect: .badRequest)
            }
            #expect(try library.snapshots(of: id).map(\.name) == ["Before client"], "nothing but the first was taken")

            try library.apply(chain: "contrast=+30", to: id)
            let history = try await client.call(.get, "/v1/assets/\(id)/history", expect: .ok)
            guard case let .array(revisions)? = history.member("revisions") else { Issue.record("no revisions"); return }
            #expect(revisions.map { $0["snapshots"] } == [.array([]), .array([.string("Before client")]), .array([])])
            let listed = try await client.call(.get, "/v1/assets/\(id)/snapshots", expect: .ok)
            if case let .array(items)? = listed.member("snapshots") { #expect(items.count == 1 && items[0]["revision"] == .number(1)) }

            // Restore: If-Match is required and must be current; a new revision with revision 1's chain.
            let path = "/v1/assets/\(id)/snapshots/Before%20client/restore"
            try await client.call(.post, path, expect: .preconditionRequired)
            try await client.call(.post, path, headers: [.ifMatch: "\"r1\""], expect: .preconditionFailed)
            try await client.call(.post, "/v1/assets/\(id)/snapshots/Nope/restore", headers: [.ifMatch: "\"r2\""], expect: .notFound)
            #expect(try library.asset(id).revision == 2)
            let restored = try await client.call(.post, path, headers: [.ifMatch: "\"r2\""], expect: .ok)
            #expect(restored.member("revision") == .number(3) && restored.string("chain") == "exposure=+0.5")
            #expect(try Self.chain(library, id) == "exposure=+0.5" && library.asset(id).revision == 3)

            // The feed announces a snapshot taken or removed (aspect "snapshots").
            let before = try library.latestChangeSequence()
            try await client.call(.delete, "/v1/assets/\(id)/snapshots/%0A", expect: .badRequest)
            try await client.call(.delete, "/v1/assets/\(id)/snapshots/Nope", expect: .notFound)
            try await client.call(.delete, "/v1/assets/\(id)/snapshots/Before%20client", expect: .noContent)
            try await client.call(.delete, "/v1/assets/\(id)/snapshots/Before%20client", expect: .notFound)
            #expect(try library.snapshots(of: id).isEmpty)
            let entries = try library.changeEntries(since: before, limit: 10)
            #expect(entries.count == 1 && entries.first?.aspects.contains(.snapshots) == true, "\(entries)")
            try await client.call(.get, "/v1/assets/0123456789abcdef0123456789abcdef/snapshots", expect: .notFound)

            let report = client.report
            #expect(report.problems.isEmpty, "\(report.problems.joined(separator: "\n"))")
        }
    }

    @Test("presets from an edit: groups and amount, listed, downloaded as .xmp that import-xmp reads back; bad input 4xx; recipe groups")
    func presets() async throws {
        let temp = try TemporaryLibrary()
        let id = try temp.importSample("coffee.jpg")
        let other = try temp.importSample("chelsea.jpg")
        let library = temp.library
        try library.apply(chain: "temperature=+20,exposure=+0.5,contrast=+20,vignette=-30,crop=16:9", to: id)
        try await server(temp).test(.live) { raw in
            let client = CheckedClient(raw, document: try OpenAPIDocument())
            let groups = try await client.call(.get, "/v1/recipe-groups", expect: .ok)
            guard case let .array(list)? = groups.member("groups") else { Issue.record("no groups"); return }
            #expect(list.compactMap { $0["name"]?.stringValue } == RecipeGroup.allCases.map(\.rawValue))
            let tone = try #require(list.first { $0["name"] == .string("tone") })
            #expect(tone["filters"].map { "\($0)" }?.contains("exposure") == true && tone["syncedByDefault"] == .bool(true))
            #expect(list.first { $0["name"] == .string("geometry") }?["syncedByDefault"] == .bool(false))

            let saved = try await client.call(.post, "/v1/presets", headers: Self.json,
                                              body: Self.body(#"{"name": "Warm", "from": "\#(id)", "groups": ["wb", "tone"], "amount": 0.5}"#),
                                              expect: .created)
            #expect(saved.string("chain") == "temperature=+10,exposure=+0.25,contrast=+10" && saved.headers[.location] == "/v1/presets/Warm/xmp")
            let all = try await client.call(.get, "/v1/presets", expect: .ok)
            #expect(String(buffer: all.body).contains("\"Warm\""))
            let xmp = try await client.call(.get, "/v1/presets/Warm/xmp", expect: .ok)
            #expect(xmp.headers[.contentType] == "application/rdf+xml" && xmp.headers[.contentDisposition]?.contains("Warm.xmp") == true)
            // import-xmp reads the downloaded file back into the same chain.
            let file = temp.folder.url.appendingPathComponent("Warm.xmp").path
            try Data(xmp.body.readableBytesView).write(to: URL(fileURLWithPath: file))
            _ = try library.importDevelopSettings(other, sidecar: file)
            #expect(try Self.chain(library, other) == "temperature=+10,exposure=+0.25,contrast=+10")

            let before = try library.presets().all().count
            for (text, status, code) in [
                (#"{"name": "Warm", "from": "\#(id)"}"#, HTTPResponse.Status.conflict, "preset-exists"),
                (#"{"name": "Sky", "from": "\#(id)", "groups": ["sky"]}"#, .badRequest, "unknown-group"),
                (#"{"name": "Sky", "from": "\#(id)", "groups": ["wb,tone"]}"#, .badRequest, "unknown-group"),
                (#"{"name": "Sky", "from": "\#(id)", "amount": 3}"#, .badRequest, "invalid-body"),
                (#"{"name": "../Sky", "from": "\#(id)"}"#, .badRequest, "invalid-preset-name"),
                (#"{"name": "Sky", "from": "0123456789abcdef0123456789abcdef"}"#, .notFound, "unknown-asset"),
                (#"{"name": "Sky", "from": "\#(id)", "groups": []}"#, .badRequest, "invalid-body"),
                (#"{"name": "Sky"}"#, .badRequest, "invalid-body"),
            ] {
                let answer = try await client.call(.post, "/v1/presets", headers: Self.json, body: Self.body(text), expect: status)
                #expect(answer.string("code") == code, "\(text): \(String(buffer: answer.body))")
            }
            #expect(try library.presets().all().count == before, "no preset was added by a refused request")
            try await client.call(.get, "/v1/presets/Nope/xmp", expect: .notFound)
            try await client.call(.get, "/v1/presets/..%2Fetc/xmp", expect: .badRequest)

            let report = client.report
            #expect(report.problems.isEmpty, "\(report.problems.joined(separator: "\n"))")
        }
    }

    @Test("sync: only/except groups onto several targets, each a new revision; refusals (source as target, unknown group or id) change nothing")
    func sync() async throws {
        let temp = try TemporaryLibrary()
        let source = try temp.importSample("coffee.jpg")
        let a = try temp.importSample("chelsea.jpg")
        let b = try temp.importSample("astronaut.jpg")
        let library = temp.library
        try library.apply(chain: "temperature=+30,exposure=+0.5,saturation=-40,vignette=-30,crop=16:9", to: source)
        try library.apply(chain: "tint=+10,contrast=+20,sharpen=50,crop=1:1", to: a)
        try library.apply(chain: "grain=20,highlights=-30", to: b)
        try await server(temp).test(.live) { raw in
            let client = CheckedClient(raw, document: try OpenAPIDocument())
            let before = try [a, b].map { try Self.chain(library, $0) }
            for (text, status, code) in [
                (#"{"targets": ["\#(a)", "\#(source)"], "only": ["tone"]}"#, HTTPResponse.Status.badRequest, "sync-onto-source"),
                (#"{"targets": ["\#(a)"], "only": ["tone", "sparkle"]}"#, .badRequest, "unknown-group"),
                (#"{"targets": ["\#(a)", "0123456789abcdef0123456789abcdef"]}"#, .notFound, "unknown-asset"),
                (#"{"targets": ["\#(a)"], "only": ["tone"], "except": ["wb"]}"#, .badRequest, "invalid-body"),
                (#"{"targets": []}"#, .badRequest, "invalid-body"),
                (#"{"targets": "\#(a)"}"#, .badRequest, "invalid-body"),
                ("{\"targets\": [\(Array(repeating: "\"\(a)\"", count: 201).joined(separator: ","))]}", .badRequest, "invalid-body"),
                (#"{"targets": ["\#(a)"], "except": ["wb", "tone", "colour", "detail", "effects", "optics", "raw", "output"]}"#, .badRequest, "invalid-body"),
            ] {
                let answer = try await client.call(.post, "/v1/assets/\(source)/sync", headers: Self.json, body: Self.body(text), expect: status)
                #expect(answer.string("code") == code, "\(text.prefix(120)): \(String(buffer: answer.body))")
            }
            #expect(try [a, b].map { try Self.chain(library, $0) } == before, "a refused sync changed nothing")
            try await client.call(.post, "/v1/assets/\(source)/sync", headers: [.contentType: "application/json", .ifMatch: "\"r0\""],
                                  body: Self.body(#"{"targets": ["\#(a)"]}"#), expect: .preconditionFailed)

            let synced = try await client.call(.post, "/v1/assets/\(source)/sync", headers: [.contentType: "application/json", .ifMatch: "\"r1\""],
                                               body: Self.body(#"{"targets": ["\#(a)", "\#(b)", "\#(a)"], "only": ["wb", "tone"]}"#), expect: .ok)
            #expect(synced.member("groups") == .array([.string("wb"), .string("tone")]))
            guard case let .array(items)? = synced.member("synced") else { Issue.record("no synced"); return }
            #expect(items.compactMap { $0["id"]?.stringValue } == [a, b] && items.allSatisfy { $0["revision"] == .number(2) })
            #expect(try Self.chain(library, a) == "temperature=+30,exposure=+0.5,crop=1:1,sharpen=50",
                    "wb and tone are the source's exactly, crop and detail kept")
            #expect(try Self.chain(library, b) == "temperature=+30,exposure=+0.5,grain=20")
            try await client.call(.post, "/v1/assets/\(source)/sync", headers: Self.json,
                                  body: Self.body(#"{"targets": ["\#(b)"], "except": ["effects"]}"#), expect: .ok)
            #expect(try Self.chain(library, b) == "temperature=+30,exposure=+0.5,saturation=-40,grain=20", "every group but effects, not the crop")

            let report = client.report
            #expect(report.problems.isEmpty, "\(report.problems.joined(separator: "\n"))")
        }
    }

    @Test("writes need the edit scope: a read token gets 403 on duplicate, snapshot, sync and preset save, and can list")
    func scopes() async throws {
        let temp = try TemporaryLibrary()
        let id = try temp.importSample("coffee.jpg")
        let (reader, editor) = (TokenStore.newToken(), TokenStore.newToken())
        let tokens = try TokenStore(text: TokenStore.entry(for: reader, scope: .read, name: "r") + "\n"
                                        + TokenStore.entry(for: editor, scope: .edit, name: "e"), source: "test")
        try await server(temp, { $0.tokens = tokens }).test(.live) { client in
            let read: HTTPFields = [.authorization: "Bearer \(reader)", .contentType: "application/json"]
            for (path, body) in [("/v1/assets/\(id)/duplicates", "{}"), ("/v1/assets/\(id)/snapshots", #"{"name": "A"}"#),
                                 ("/v1/assets/\(id)/sync", #"{"targets": ["\#(id)"]}"#), ("/v1/presets", #"{"name": "A", "from": "\#(id)"}"#)] {
                try await client.execute(uri: path, method: .post, headers: read, body: Self.body(body)) { response in
                    #expect(response.status == .forbidden, "\(path)")
                }
            }
            try await client.execute(uri: "/v1/assets/\(id)/snapshots", method: .get, headers: read) { #expect($0.status == .ok) }
            try await client.execute(uri: "/v1/assets/\(id)/snapshots", method: .post,
                                     headers: [.authorization: "Bearer \(editor)", .contentType: "application/json"],
                                     body: Self.body(#"{"name": "A"}"#)) { #expect($0.status == .created) }
        }
        #expect(try temp.library.snapshots(of: id).map(\.name) == ["A"] && temp.library.versions(of: id).count == 1)
    }
}
#endif
