// Only with the `Server` trait (Package.swift): these tests need its servers and modules.
#if Server
import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Logging
@testable import PhotoEdit
@testable import PhotoEditServer
import Testing
import Yams

/// The OpenAPI document (Sources/PhotoEditServer/Resources/openapi.yaml)
/// and a checker of real answers against it: the operation exists, the
/// status is documented, the content type is one the operation lists, and
/// a JSON body satisfies its schema (type, required, properties, items,
/// enum, const, bounds, pattern, oneOf, allOf, $ref).
struct OpenAPIDocument {
    static let path = Paths.root.appendingPathComponent("Sources/PhotoEditServer/Resources/openapi.yaml").path
    let root: JSONValue

    init() throws {
        let text = try String(contentsOfFile: Self.path, encoding: .utf8)
        root = Self.json(try #require(try Yams.load(yaml: text)))
    }

    static func json(_ value: Any) -> JSONValue {
        switch value {
        case let v as Bool: return .bool(v)
        case let v as Int: return .number(Double(v))
        case let v as Double: return .number(v)
        case let v as String: return .string(v)
        case let v as [Any]: return .array(v.map(json))
        case let v as [String: Any]: return .object(v.mapValues(json))
        default: return .null
        }
    }

    static let methods = ["get", "put", "post", "delete", "patch", "head", "options"]

    /// Every operation: "GET /v1/assets/{id}".
    var operations: Set<String> {
        guard case let .object(paths)? = root["paths"] else { return [] }
        var result: Set<String> = []
        for (path, item) in paths {
            guard case let .object(members) = item else { continue }
            for method in members.keys where Self.methods.contains(method) { result.insert("\(method.uppercased()) \(path)") }
        }
        return result
    }

    /// The documented path template a concrete path matches.
    func template(for path: String) -> String? {
        guard case let .object(paths)? = root["paths"] else { return nil }
        let segments = path.split(separator: "/", omittingEmptySubsequences: false)
        // Literal segments win over parameters (as the router does).
        let candidates = paths.keys.filter { template in
            let parts = template.split(separator: "/", omittingEmptySubsequences: false)
            return parts.count == segments.count && zip(parts, segments).allSatisfy { $0.hasPrefix("{") || $0 == $1 }
        }
        return candidates.min { a, b in a.filter { $0 == "{" }.count < b.filter { $0 == "{" }.count }
    }

    func resolve(_ value: JSONValue) -> JSONValue {
        guard case let .string(ref)? = value["$ref"], ref.hasPrefix("#/") else { return value }
        var node = root
        for key in ref.dropFirst(2).split(separator: "/") { node = node[String(key)] ?? .null }
        return resolve(node)
    }

    /// What is wrong with an answer to `method path` (empty: it conforms).
    func check(method: String, path: String, status: Int, contentType: String?, body: [UInt8]) -> [String] {
        let name = "\(method) \(path) → \(status)"
        guard let template = template(for: path), let operation = root["paths"]?[template]?[method.lowercased()] else {
            return ["\(name): no such operation in the document"]
        }
        guard let response = (operation["responses"]?[String(status)] ?? operation["responses"]?["default"]).map(resolve) else {
            return ["\(name): status not documented"]
        }
        guard case let .object(content)? = response["content"], !content.isEmpty else {
            return body.isEmpty ? [] : ["\(name): a body where the document has none"]
        }
        let type = (contentType ?? "").split(separator: ";").first.map { $0.trimmingCharacters(in: .whitespaces).lowercased() } ?? ""
        let match = content.keys.first { key in
            key == type || key == "*/*" || (key.hasSuffix("/*") && type.hasPrefix(String(key.dropLast(1))))
        }
        guard let match else { return ["\(name): content type '\(type)' is not one of \(content.keys.sorted())"] }
        guard type.hasSuffix("json"), let schema = content[match]?["schema"] else { return [] }
        guard let value = try? JSONValue.parse(Data(body)) else { return ["\(name): the body is not JSON"] }
        return validate(value, against: schema, at: name)
    }

    func validate(_ value: JSONValue, against raw: JSONValue, at where_: String) -> [String] {
        let schema = resolve(raw)
        var problems: [String] = []
        if case let .array(all)? = schema["allOf"] {
            for part in all { problems += validate(value, against: part, at: where_) }
        }
        if case let .array(options)? = schema["oneOf"] {
            let passing = options.filter { validate(value, against: $0, at: where_).isEmpty }.count
            if passing != 1 { problems.append("\(where_): matches \(passing) of oneOf's \(options.count) schemas") }
        }
        if let type = schema["type"] {
            let allowed: [String]
            switch type {
            case let .string(one): allowed = [one]
            case let .array(many): allowed = many.compactMap { if case let .string(s) = $0 { return s } else { return nil } }
            default: allowed = []
            }
            if !allowed.contains(where: { Self.matches(value, type: $0) }) {
                return problems + ["\(where_): \(value.canonicalText.prefix(80)) is not of type \(allowed)"]
            }
        }
        if case let .array(options)? = schema["enum"], !options.contains(value) {
            problems.append("\(where_): \(value.canonicalText.prefix(80)) is not one of \(options.map(\.canonicalText))")
        }
        if let constant = schema["const"], constant != value { problems.append("\(where_): is not \(constant.canonicalText)") }
        if case let .number(n) = value {
            if case let .number(minimum)? = schema["minimum"], n < minimum { problems.append("\(where_): \(n) < \(minimum)") }
            if case let .number(maximum)? = schema["maximum"], n > maximum { problems.append("\(where_): \(n) > \(maximum)") }
        }
        if case let .string(text) = value, case let .string(pattern)? = schema["pattern"],
           text.range(of: pattern, options: .regularExpression) == nil {
            problems.append("\(where_): '\(text.prefix(80))' does not match \(pattern)")
        }
        if case let .object(members) = value {
            if case let .array(required)? = schema["required"] {
                for case let .string(key) in required where members[key] == nil { problems.append("\(where_): '\(key)' is missing") }
            }
            if case let .object(properties)? = schema["properties"] {
                for (key, member) in members {
                    if let property = properties[key] {
                        problems += validate(member, against: property, at: "\(where_).\(key)")
                    } else if schema["additionalProperties"] == .bool(false) {
                        problems.append("\(where_): '\(key)' is not allowed")
                    }
                }
            }
        }
        if case let .array(items) = value, let itemSchema = schema["items"] {
            for (i, item) in items.enumerated() { problems += validate(item, against: itemSchema, at: "\(where_)[\(i)]") }
        }
        return problems
    }

    static func matches(_ value: JSONValue, type: String) -> Bool {
        switch (type, value) {
        case ("null", .null), ("boolean", .bool), ("string", .string), ("array", .array), ("object", .object), ("number", .number): return true
        case let ("integer", .number(n)): return n == n.rounded()
        default: return false
        }
    }
}

extension JSONValue {
    subscript(key: String) -> JSONValue? {
        if case let .object(members) = self { return members[key] }
        return nil
    }
}

/// A test client that checks every answer against the document and notes
/// which operations were exercised.
final class CheckedClient: @unchecked Sendable {
    let client: any TestClientProtocol
    let document: OpenAPIDocument
    private let lock = NSLock()
    private var exercised: Set<String> = []
    private var problems: [String] = []

    init(_ client: any TestClientProtocol, document: OpenAPIDocument) {
        self.client = client
        self.document = document
    }

    @discardableResult
    func call(_ method: HTTPRequest.Method, _ uri: String, headers: HTTPFields = [:], body: ByteBuffer? = nil,
              expect status: HTTPResponse.Status) async throws -> TestResponse {
        let response = try await client.executeRequest(uri: uri, method: method, headers: headers, body: body)
        let path = String(uri.split(separator: "?", maxSplits: 1).first ?? "")
        #expect(response.status == status, "\(method) \(uri): \(response.status) \(String(buffer: response.body).prefix(300))")
        let found = document.check(method: method.rawValue, path: path, status: response.status.code,
                                   contentType: response.headers[.contentType], body: Array(response.body.readableBytesView))
        lock.withLock {
            problems += found
            if let template = document.template(for: path) { exercised.insert("\(method.rawValue) \(template)") }
        }
        return response
    }

    var report: (exercised: Set<String>, problems: [String]) { lock.withLock { (exercised, problems) } }
}

@Suite("OpenAPI document: routes and answers match it")
struct OpenAPITests {
    /// The API's routes: the web editor's files (/, /web/…) are pages, not API.
    static func isAPI(_ path: String) -> Bool {
        path.hasPrefix("/v1/") || ["/health", "/ready", "/openapi.yaml", "/metrics"].contains(path)
    }

    @Test("every route the router registers is in the document, and every documented operation is a route")
    func noDrift() throws {
        let document = try OpenAPIDocument()
        let temp = try TemporaryLibrary()
        let router = makeRouter(state: ServerState(library: temp.library, configuration: ServerConfiguration()))
        let registered = Set(router.routes.map { "\($0.method.rawValue) \($0.path.description)" }.filter {
            Self.isAPI(String($0.split(separator: " ")[1]))
        })
        #expect(registered.count >= 28)
        let undocumented = registered.subtracting(document.operations).sorted()
        let unregistered = document.operations.subtracting(registered).sorted()
        #expect(undocumented.isEmpty, "routes missing from openapi.yaml: \(undocumented)")
        #expect(unregistered.isEmpty, "operations in openapi.yaml the server does not have: \(unregistered)")
    }

    @Test("the server serves the document as it is in the repository, without a token")
    func served() async throws {
        let temp = try TemporaryLibrary()
        let file = try [UInt8](Data(contentsOf: URL(fileURLWithPath: OpenAPIDocument.path)))
        let tokens = try TokenStore(text: TokenStore.entry(for: TokenStore.newToken(), scope: .read, name: "r"), source: "test")
        try await server(temp) { $0.tokens = tokens }.test(.router) { client in
            try await client.execute(uri: "/openapi.yaml", method: .get) { response in
                #expect(response.status == .ok)
                #expect(response.headers[.contentType] == "application/yaml")
                #expect(Array(response.body.readableBytesView) == file)
            }
        }
    }

    @Test("a tour of every operation: each answer's status, content type and JSON body conform to the document")
    func answersConform() async throws {
        let document = try OpenAPIDocument()
        let temp = try TemporaryLibrary()
        let signer = try URLSigner(text: "k:" + String(repeating: "5a", count: 32), source: "test")
        let jpeg = ByteBuffer(bytes: try Data(contentsOf: URL(fileURLWithPath: Paths.sample("coffee.jpg"))))
        let json: HTTPFields = [.contentType: "application/json"]
        try await server(temp) { $0.signer = signer }.test(.router) { raw in
            let client = CheckedClient(raw, document: document)
            try await client.call(.get, "/health", expect: .ok)
            try await client.call(.get, "/ready", expect: .ok)
            try await client.call(.get, "/openapi.yaml", expect: .ok)
            try await client.call(.get, "/metrics", expect: .ok)

            // Photos.
            let created = try await client.call(.post, "/v1/assets?filename=coffee.jpg", body: jpeg, expect: .created)
            let id = try #require(created.string("id"))
            try await client.call(.post, "/v1/assets?filename=again.jpg", body: jpeg, expect: .ok)
            try await client.call(.post, "/v1/assets?filename=x.jpg", body: ByteBuffer(string: "not an image"), expect: .unprocessableContent)
            try await client.call(.get, "/v1/assets?limit=1&sort=-created", expect: .ok)
            try await client.call(.get, "/v1/assets?limit=5&thumbnail=64&thumbnailFormat=jpeg", expect: .ok)
            try await client.call(.get, "/v1/assets?thumbnail=4096", expect: .badRequest)
            try await client.call(.get, "/v1/assets?where=width%3E%3D", expect: .badRequest)
            try await client.call(.get, "/v1/assets?where=favorite+or+width%3E%3D1", expect: .ok)
            try await client.call(.post, "/v1/assets?filename=..%2Fx.jpg", body: jpeg, expect: .badRequest)
            let got = try await client.call(.get, "/v1/assets/\(id)", expect: .ok)
            try await client.call(.get, "/v1/assets/\(id)", headers: [.ifNoneMatch: got.headers[.eTag] ?? ""], expect: .notModified)
            try await client.call(.get, "/v1/assets/0123456789abcdef0123456789abcdef", expect: .notFound)
            try await client.call(.patch, "/v1/assets/\(id)", headers: json, body: ByteBuffer(string: #"{"favorite": true}"#), expect: .ok)
            try await client.call(.patch, "/v1/assets/\(id)", headers: json, body: ByteBuffer(string: #"{"colour": 1}"#), expect: .badRequest)

            // Edits.
            try await client.call(.post, "/v1/assets/\(id)/edits", headers: [.ifMatch: "\"r0\"", .contentType: "application/json"],
                                  body: ByteBuffer(string: #"{"chain": "exposure=+0.3"}"#), expect: .ok)
            try await client.call(.post, "/v1/assets/\(id)/edits", headers: [.ifMatch: "\"r0\"", .contentType: "application/json"],
                                  body: ByteBuffer(string: #"{"chain": "exposure=+0.3"}"#), expect: .preconditionFailed)
            try await client.call(.post, "/v1/assets/\(id)/edits", headers: json, body: ByteBuffer(string: "{}"), expect: .preconditionRequired)
            try await client.call(.post, "/v1/assets/\(id)/edits", headers: [.ifMatch: "\"r1\"", .contentType: "application/json"],
                                  body: ByteBuffer(string: #"{"chain": "nosuchfilter=1"}"#), expect: .badRequest)
            try await client.call(.post, "/v1/assets/\(id)/edits", headers: [.ifMatch: "\"r1\"", .contentType: "application/json"],
                                  body: ByteBuffer(string: #"{"chain": "lut=nope.cube"}"#), expect: .badRequest)
            let input = try await client.call(.post, "/v1/assets/\(id)/editing-input", headers: json,
                                              body: ByteBuffer(string: #"{"formats": []}"#), expect: .ok)
            let preview = try await client.call(.get, "/v1/assets/\(id)/preview?w=120&chain=contrast%3D10", expect: .ok)
            var form = Multipart()
            form.add("adjustmentData", adjustmentPart("com.example.x", "1", [9, 8, 7]), type: "application/json")
            form.add("base", input.string("base") ?? "")
            form.add("render", Array(preview.body.readableBytesView), type: "image/jpeg")
            try await client.call(.post, "/v1/assets/\(id)/editing-output", headers: [.ifMatch: "\"r1\"", .contentType: "application/json"],
                                  body: ByteBuffer(string: "{}"), expect: .unsupportedMediaType)
            try await client.call(.post, "/v1/assets/\(id)/editing-output", headers: [.ifMatch: "\"r1\"", .contentType: form.contentType],
                                  body: form.body, expect: .ok)
            try await client.call(.post, "/v1/assets/\(id)/editing-input", headers: json, body: ByteBuffer(string: "3"), expect: .badRequest)
            try await client.call(.get, "/v1/assets/\(id)/history", expect: .ok)
            try await client.call(.get, "/v1/assets/\(id)/upright?mode=level", expect: .ok)
            try await client.call(.get, "/v1/assets/\(id)/upright?mode=sideways", expect: .badRequest)
            try await client.call(.post, "/v1/assets/\(id)/revert", headers: [.ifMatch: "\"r2\""], expect: .ok)
            try await client.call(.post, "/v1/assets/\(id)/revert", headers: [.ifMatch: "\"r3\"", .contentType: "application/json"],
                                  body: ByteBuffer(string: #"{"revision": 99}"#), expect: .notFound)

            // Renders and resources.
            let render = try await client.call(.get, "/v1/assets/\(id)/render?w=64&format=png&rev=3", expect: .ok)
            try await client.call(.get, "/v1/assets/\(id)/render?w=64&format=png&rev=3", headers: [.ifNoneMatch: render.headers[.eTag] ?? ""],
                                  expect: .notModified)
            try await client.call(.get, "/v1/assets/\(id)/render?w=64", headers: [.accept: "image/webp"], expect: .ok)
            try await client.call(.get, "/v1/assets/\(id)/render?fit=sideways", expect: .badRequest)
            try await client.call(.get, "/v1/assets/\(id)/render?w=64&rev=1", expect: .notFound)
            try await client.call(.get, "/v1/assets/\(id)/render-url?w=64", expect: .ok)
            try await client.call(.get, "/v1/assets/\(id)/render?w=64&exp=1&kid=k&sig=forged", expect: .forbidden)
            try await client.call(.get, "/v1/assets/\(id)/preview?w=5000", expect: .badRequest)
            try await client.call(.get, "/v1/assets/\(id)/resources", expect: .ok)
            try await client.call(.get, "/v1/assets/\(id)/resources/photo", expect: .ok)
            try await client.call(.get, "/v1/assets/\(id)/resources/photo", headers: [.range: "bytes=0-99"], expect: .partialContent)
            try await client.call(.get, "/v1/assets/\(id)/resources/photo", headers: [.range: "bytes=99999999-"], expect: .rangeNotSatisfiable)
            try await client.call(.get, "/v1/assets/\(id)/resources/fullSizePhoto", expect: .notFound)

            // Albums.
            let album = try await client.call(.post, "/v1/albums", headers: json, body: ByteBuffer(string: #"{"title": "Trip"}"#), expect: .created)
            let albumID = try #require(album.string("id"))
            try await client.call(.post, "/v1/albums", headers: json, body: ByteBuffer(string: #"{"name": "Trip"}"#), expect: .badRequest)
            try await client.call(.get, "/v1/albums", expect: .ok)
            try await client.call(.patch, "/v1/albums/\(albumID)", headers: json,
                                  body: ByteBuffer(string: #"{"title": "Trip 2", "add": ["\#(id)"]}"#), expect: .ok)
            try await client.call(.get, "/v1/albums/\(albumID)", expect: .ok)
            try await client.call(.get, "/v1/assets?album=\(albumID)", expect: .ok)
            try await client.call(.delete, "/v1/albums/\(albumID)", expect: .noContent)
            try await client.call(.get, "/v1/albums/\(albumID)", expect: .notFound)

            // Versions (issue 40): copies, snapshots, presets from an edit, sync.
            try await client.call(.post, "/v1/assets/\(id)/edits", headers: [.ifMatch: "\"r3\"", .contentType: "application/json"],
                                  body: ByteBuffer(string: #"{"chain": "exposure=+0.2"}"#), expect: .ok)
            let copy = try await client.call(.post, "/v1/assets/\(id)/duplicates", headers: json, body: ByteBuffer(string: #"{"name": "B&W"}"#), expect: .created)
            let copyID = try #require(copy.string("id"))
            try await client.call(.post, "/v1/assets/\(id)/duplicates", headers: json, body: ByteBuffer(string: #"{"name": ""}"#), expect: .badRequest)
            try await client.call(.get, "/v1/assets/\(id)/versions", expect: .ok)
            try await client.call(.post, "/v1/assets/\(id)/snapshots", headers: json, body: ByteBuffer(string: #"{"name": "Before"}"#), expect: .created)
            try await client.call(.post, "/v1/assets/\(id)/snapshots", headers: json, body: ByteBuffer(string: #"{"name": "Before"}"#), expect: .conflict)
            try await client.call(.get, "/v1/assets/\(id)/snapshots", expect: .ok)
            try await client.call(.post, "/v1/assets/\(id)/sync", headers: json,
                                  body: ByteBuffer(string: #"{"targets": ["\#(copyID)"], "only": ["tone"]}"#), expect: .ok)
            try await client.call(.post, "/v1/assets/\(id)/sync", headers: json,
                                  body: ByteBuffer(string: #"{"targets": ["\#(id)"]}"#), expect: .badRequest)
            try await client.call(.post, "/v1/assets/\(id)/snapshots/Before/restore", expect: .preconditionRequired)
            try await client.call(.post, "/v1/assets/\(id)/snapshots/Before/restore", headers: [.ifMatch: "\"r4\""], expect: .ok)
            try await client.call(.delete, "/v1/assets/\(id)/snapshots/Before", expect: .noContent)
            try await client.call(.delete, "/v1/assets/\(id)/snapshots/Before", expect: .notFound)
            try await client.call(.get, "/v1/recipe-groups", expect: .ok)
            try await client.call(.post, "/v1/presets", headers: json,
                                  body: ByteBuffer(string: #"{"name": "Mine", "from": "\#(id)", "groups": ["tone"]}"#), expect: .created)
            try await client.call(.post, "/v1/presets", headers: json,
                                  body: ByteBuffer(string: #"{"name": "Mine2", "from": "\#(id)", "groups": ["sky"]}"#), expect: .badRequest)
            try await client.call(.get, "/v1/presets/Mine/xmp", expect: .ok)
            try await client.call(.get, "/v1/presets/Nope/xmp", expect: .notFound)

            // Filters and the feed.
            try await client.call(.get, "/v1/filters", expect: .ok)
            try await client.call(.get, "/v1/presets", expect: .ok)
            let xmp = try #require(FileManager.default.contents(atPath: Paths.root.appendingPathComponent("Tests/Fixtures/lightroom/corpus/05-analogfilm-n-fuji-velvia-50.xmp").path))
            try await client.call(.put, "/v1/presets/velvia", headers: [.contentType: "application/rdf+xml"], body: ByteBuffer(data: xmp), expect: .created)
            try await client.call(.put, "/v1/presets/velvia", headers: [.contentType: "application/rdf+xml"], body: ByteBuffer(data: xmp), expect: .conflict)
            try await client.call(.put, "/v1/presets/other", headers: [.contentType: "application/rdf+xml"], body: ByteBuffer(string: "<x"), expect: .badRequest)
            try await client.call(.get, "/v1/capabilities", expect: .ok)
            try await client.call(.get, "/v1/changes?since=0&limit=5", expect: .ok)
            try await client.call(.get, "/v1/changes?limit=0", expect: .badRequest)
            try await client.call(.get, "/v1/changes/stream", headers: [.lastEventID: "yesterday"], expect: .badRequest)

            // Jobs: a folder library has no job table (PhotoEditLocationTests' BatchJobTests serve a real one).
            try await client.call(.get, "/v1/jobs/b-1", expect: .notFound)
            try await client.call(.delete, "/v1/jobs/b-1", expect: .notFound)
            try await client.call(.get, "/v1/jobs/b%20c", expect: .badRequest)

            // Renders with export settings, and export jobs.
            try await client.call(.get, "/v1/assets/\(id)/render?format=jxl&long-edge=64&metadata=none", expect: .ok)
            try await client.call(.get, "/v1/assets/\(id)/render?metadata=gps", expect: .badRequest)
            try await client.call(.get, "/v1/export-presets", expect: .ok)
            try await client.call(.post, "/v1/exports", headers: json, body: ByteBuffer(string: #"{"ids": []}"#), expect: .badRequest)
            let started = try await client.call(.post, "/v1/exports", headers: json,
                                                body: ByteBuffer(string: #"{"ids": ["\#(id)"], "settings": {"long-edge": 64}}"#), expect: .accepted)
            let exportID = try #require(started.string("id"))
            for _ in 0..<300 {
                let status = try await client.call(.get, "/v1/exports/\(exportID)", expect: .ok)
                if status.string("state") != "running" { break }
                try await Task.sleep(for: .milliseconds(100))
            }
            try await client.call(.get, "/v1/exports/\(exportID)/files/coffee.jpg", expect: .ok)
            try await client.call(.get, "/v1/exports/\(exportID)/files/nothing.jpg", expect: .notFound)
            try await client.call(.get, "/v1/exports/\(exportID)/zip", expect: .ok)
            try await client.call(.delete, "/v1/exports/\(exportID)", expect: .noContent)
            try await client.call(.delete, "/v1/exports/none", expect: .notFound)

            // Delete, restore, purge.
            try await client.call(.post, "/v1/assets/\(id)/purge", expect: .conflict)
            try await client.call(.delete, "/v1/assets/\(id)", expect: .noContent)
            try await client.call(.get, "/v1/assets?deleted=true", expect: .ok)
            try await client.call(.post, "/v1/assets/\(id)/restore", expect: .ok)
            try await client.call(.delete, "/v1/assets/\(id)", headers: [.ifMatch: "\"r0\""], expect: .preconditionFailed)
            try await client.call(.delete, "/v1/assets/\(id)", expect: .noContent)
            try await client.call(.post, "/v1/assets/\(id)/purge", expect: .noContent)
            try await client.call(.post, "/v1/assets/\(id)/purge", expect: .notFound)

            let report = client.report
            #expect(report.problems.isEmpty, "answers that do not conform:\n\(report.problems.joined(separator: "\n"))")
            let missed = document.operations.subtracting(report.exercised).sorted()
            #expect(missed.isEmpty, "operations the tour did not call: \(missed)")
        }
    }

    @Test("the checker itself catches a wrong status, a wrong content type, a missing member and a wrong type")
    func checkerCatches() throws {
        let document = try OpenAPIDocument()
        #expect(!document.check(method: "GET", path: "/v1/albums", status: 418, contentType: "application/json", body: []).isEmpty)
        #expect(!document.check(method: "GET", path: "/v1/filters", status: 200, contentType: "text/plain", body: Array("x".utf8)).isEmpty)
        #expect(!document.check(method: "GET", path: "/v1/albums", status: 200, contentType: "application/json",
                                body: Array(#"{"albumz": []}"#.utf8)).isEmpty)
        #expect(!document.check(method: "GET", path: "/v1/changes", status: 200, contentType: "application/json",
                                body: Array(#"{"changes": [], "next": "1", "latest": 1, "more": false}"#.utf8)).isEmpty)
        #expect(!document.check(method: "PUT", path: "/v1/albums", status: 200, contentType: "application/json", body: []).isEmpty)
        #expect(document.check(method: "GET", path: "/v1/albums", status: 200, contentType: "application/json",
                               body: Array(#"{"albums": []}"#.utf8)).isEmpty)
    }
}
#endif
