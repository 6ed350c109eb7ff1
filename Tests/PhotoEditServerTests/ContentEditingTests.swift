// Only with the `Server` trait (Package.swift): these tests need its servers and modules.
#if Server
import Foundation
import Hummingbird
import HummingbirdTesting
@testable import PhotoEdit
@testable import PhotoEditServer
import Testing

/// A multipart/form-data body.
struct Multipart {
    let boundary = "photoedit-test-\(UUID().uuidString.prefix(8))"
    var parts: [(headers: String, body: [UInt8])] = []

    mutating func add(_ name: String, _ body: [UInt8], type: String? = nil, filename: String? = nil) {
        var headers = "Content-Disposition: form-data; name=\"\(name)\"" + (filename.map { "; filename=\"\($0)\"" } ?? "") + "\r\n"
        if let type { headers += "Content-Type: \(type)\r\n" }
        parts.append((headers, body))
    }

    mutating func add(_ name: String, _ text: String, type: String? = nil) { add(name, Array(text.utf8), type: type) }

    var contentType: String { "multipart/form-data; boundary=\(boundary)" }

    var body: ByteBuffer {
        var bytes: [UInt8] = []
        for part in parts {
            bytes += Array("--\(boundary)\r\n\(part.headers)\r\n".utf8) + part.body + Array("\r\n".utf8)
        }
        bytes += Array("--\(boundary)--\r\n".utf8)
        return ByteBuffer(bytes: bytes)
    }
}

/// The adjustmentData part of an output: the data in base64.
func adjustmentPart(_ identifier: String, _ version: String, _ data: [UInt8]) -> String {
    JSONValue.object(["formatIdentifier": .string(identifier), "formatVersion": .string(version),
                      "data": .string(Data(data).base64EncodedString())]).canonicalText
}

extension TestResponse {
    var bytes: [UInt8] { Array(body.readableBytesView) }
    func string(_ key: String) -> String? {
        if case let .string(text)? = member(key) { return text }
        return nil
    }
}

/// Staged files left in the library's tmp/ (none once a request is answered).
func stagedFiles(_ library: PhotoLibrary) -> [String] {
    ((try? FileManager.default.contentsOfDirectory(atPath: library.layout.tmp)) ?? []).filter { $0.hasSuffix(".jpg") }
}

@Suite("HTTP API v1: resources and the content-editing model")
struct HTTPContentEditingTests {
    /// A foreign editor's data: not UTF-8, a BOM, a NUL, every byte value.
    static let foreignData: [UInt8] = [0xEF, 0xBB, 0xBF, 0x00, 0xFF, 0xFE, 0x0D, 0x0A, 0x2D, 0x2D] + (0...255).map(UInt8.init)

    @Test("resources are listed and streamed byte for byte, with ETag, 304, ranges and a revision guard")
    func resources() async throws {
        let temp = try TemporaryLibrary()
        let id = try temp.importSample("coffee.jpg")
        let original = try [UInt8](Data(contentsOf: URL(fileURLWithPath: Paths.sample("coffee.jpg"))))
        try await server(temp).test(.router) { client in
            try await client.execute(uri: "/v1/assets/\(id)/resources", method: .get) { response in
                #expect(response.status == .ok)
                guard case let .array(items)? = response.member("resources") else { Issue.record("no resources"); return }
                #expect(items.count == 1)   // an unedited JPEG: its original only
            }
            var etag = ""
            try await client.execute(uri: "/v1/assets/\(id)/resources/photo", method: .get) { response in
                #expect(response.status == .ok)
                #expect(response.bytes == original)
                #expect(response.headers[.contentType] == "image/jpeg")
                #expect(response.headers[.contentLength] == String(original.count))
                #expect(response.headers[.contentDisposition]?.contains("filename=\"coffee.jpg\"") == true)
                #expect(response.headers[.acceptRanges] == "bytes")
                etag = response.headers[.eTag] ?? ""
            }
            try await client.execute(uri: "/v1/assets/\(id)/resources/photo", method: .get, headers: [.ifNoneMatch: etag]) { response in
                #expect(response.status == .notModified)
                #expect(response.body.readableBytes == 0)
            }
            try await client.execute(uri: "/v1/assets/\(id)/resources/photo", method: .get, headers: [.range: "bytes=100-1099"]) { response in
                #expect(response.status == .partialContent)
                #expect(response.bytes == Array(original[100..<1100]))
                #expect(response.headers[.contentRange] == "bytes 100-1099/\(original.count)")
            }
            try await client.execute(uri: "/v1/assets/\(id)/resources/photo", method: .get, headers: [.range: "bytes=-7"]) { response in
                #expect(response.status == .partialContent)
                #expect(response.bytes == Array(original.suffix(7)))
            }
            try await client.execute(uri: "/v1/assets/\(id)/resources/photo", method: .get,
                                     headers: [.range: "bytes=\(original.count)-"]) { response in
                #expect(response.status == .rangeNotSatisfiable)
                #expect(response.headers[.contentRange] == "bytes */\(original.count)")
            }
            try await client.execute(uri: "/v1/assets/\(id)/resources/fullSizePhoto", method: .get) { response in
                #expect(response.status == .notFound)
                #expect(response.string("code") == "no-such-resource")
            }
            try await client.execute(uri: "/v1/assets/\(id)/resources/thumbnail", method: .get) { response in
                #expect(response.status == .notFound)
                #expect(response.string("code") == "unknown-resource-type")
            }
            // An edit: the render and the adjustment data appear, tied to revision 1.
            try await client.execute(uri: "/v1/assets/\(id)/edits", method: .post, headers: [.ifMatch: "\"r0\""],
                                     body: ByteBuffer(string: #"{"chain": "exposure=+0.5"}"#)) { response in
                #expect(response.status == .ok)
            }
            try await client.execute(uri: "/v1/assets/\(id)/resources", method: .get) { response in
                guard case let .array(items)? = response.member("resources") else { Issue.record("no resources"); return }
                let types = items.compactMap { item -> String? in
                    if case let .object(m) = item, case let .string(t)? = m["type"] { return t }
                    return nil
                }
                #expect(types == ["photo", "fullSizePhoto", "adjustmentData"])
            }
            let stored = try await BlockingExecutor.run { try temp.library.asset(id) }
            try await client.execute(uri: "/v1/assets/\(id)/resources/adjustmentData?rev=1", method: .get) { response in
                #expect(response.status == .ok)
                #expect(response.headers[.contentType] == "application/json")
                #expect(response.headers[.eTag] == "\"adjustmentData-r1\"")
                #expect(response.member("formatIdentifier") == .string(Recipe.formatIdentifier))
                #expect(response.bytes == Array(stored.adjustmentData!.document.canonicalData))
            }
            try await client.execute(uri: "/v1/assets/\(id)/resources/fullSizePhoto?rev=0", method: .get) { response in
                #expect(response.status == .notFound)
                #expect(response.string("code") == "not-current-revision")
                #expect(response.member("currentRevision") == .number(1))
            }
        }
    }

    @Test("a foreign editor's round trip: its data comes back byte for byte, its render is stored as sent, another editor builds on the render")
    func foreignRoundTrip() async throws {
        let temp = try TemporaryLibrary()
        let id = try temp.importSample("coffee.jpg")
        let original = try [UInt8](Data(contentsOf: URL(fileURLWithPath: Paths.sample("coffee.jpg"))))
        let formats = #"{"formats": [{"formatIdentifier": "com.example.foreign", "formatVersions": ["1.0", "1.1"]}]}"#
        try await server(temp).test(.router) { client in
            // 1. The editor asks for an input: nothing to handle yet, the base is the original.
            var baseURL = ""
            try await client.execute(uri: "/v1/assets/\(id)/editing-input", method: .post, body: ByteBuffer(string: formats)) { response in
                #expect(response.status == .ok)
                #expect(response.member("revision") == .number(0))
                #expect(response.member("adjustmentData") == .null)
                #expect(response.string("base") == "original")
                guard case let .object(image)? = response.member("baseImage"), case let .string(url)? = image["url"] else {
                    Issue.record("no base image"); return
                }
                #expect(image["resourceType"] == .string("photo"))
                #expect(image["orientation"] == .number(1))
                baseURL = url
            }
            try await client.execute(uri: baseURL, method: .get) { response in
                #expect(response.status == .ok)
                #expect(response.bytes == original)
            }
            // The editor's render: a real JPEG (the engine's render of a preview, standing in for the editor's pixels).
            var edited: [UInt8] = []
            try await client.execute(uri: "/v1/assets/\(id)/preview?w=300&chain=exposure%3D-0.5", method: .get) { response in
                edited = response.bytes
            }
            #expect(edited.starts(with: [0xFF, 0xD8, 0xFF]))

            // 2. It commits its output.
            var form = Multipart()
            form.add("adjustmentData", adjustmentPart("com.example.foreign", "1.1", Self.foreignData), type: "application/json")
            form.add("base", "original")
            form.add("render", edited, type: "image/jpeg", filename: "edited.jpg")
            try await client.execute(uri: "/v1/assets/\(id)/edits", method: .post,
                                     headers: [.ifMatch: "\"r0\"", .contentType: form.contentType], body: form.body) { response in
                #expect(response.status == .ok, "\(String(buffer: response.body))")
                #expect(revision(ofETag: response.headers[.eTag]) == 1)
                #expect(response.member("pixelWidth") == .number(300))
            }
            let asset = try await BlockingExecutor.run { try temp.library.asset(id) }
            #expect(asset.revision == 1)
            #expect(asset.adjustmentData.map { [UInt8]($0.data) } == Self.foreignData)
            #expect(asset.adjustmentData?.formatIdentifier == "com.example.foreign")

            // 3. The same editor reads it back: its data byte for byte, the original as base.
            try await client.execute(uri: "/v1/assets/\(id)/editing-input", method: .post, body: ByteBuffer(string: formats)) { response in
                #expect(response.status == .ok)
                #expect(response.member("canHandleAdjustmentData") == .bool(true))
                #expect(response.string("base") == "original")
                guard case let .object(data)? = response.member("adjustmentData"), case let .string(base64)? = data["data"] else {
                    Issue.record("no adjustment data"); return
                }
                #expect(data["formatVersion"] == .string("1.1"))
                #expect(Data(base64Encoded: base64).map([UInt8].init) == Self.foreignData)
            }
            // The render was stored as sent (no re-encoding).
            try await client.execute(uri: "/v1/assets/\(id)/resources/fullSizePhoto", method: .get) { response in
                #expect(response.bytes == edited)
            }

            // 4. Another editor does not handle the data: its base is the current render.
            var otherBase = ""
            try await client.execute(uri: "/v1/assets/\(id)/editing-input", method: .post, body: ByteBuffer(string: "[]")) { response in
                #expect(response.member("canHandleAdjustmentData") == .bool(false))
                otherBase = response.string("base") ?? ""
                guard case let .object(image)? = response.member("baseImage"), case let .string(url)? = image["url"] else { return }
                #expect(url == "/v1/assets/\(id)/resources/fullSizePhoto?rev=1")
            }
            #expect(otherBase == "render:1")
            var second = Multipart()
            second.add("render", edited, type: "image/jpeg")
            second.add("base", otherBase)
            second.add("adjustmentData", #"{"formatIdentifier": "org.example.other", "formatVersion": "2", "data": "plain text", "dataEncoding": "utf8"}"#)
            try await client.execute(uri: "/v1/assets/\(id)/edits", method: .post,
                                     headers: [.ifMatch: "\"r1\"", .contentType: second.contentType], body: second.body) { response in
                #expect(response.status == .ok)
                #expect(revision(ofETag: response.headers[.eTag]) == 2)
            }
            let history = try await BlockingExecutor.run { try temp.library.history(id) }
            #expect(history.last?.baseRevision == 1)
            #expect(history.last?.adjustmentData?.data == Data("plain text".utf8))
            // The first editor's data is still in the history, byte for byte.
            #expect(history[1].adjustmentData.map { [UInt8]($0.data) } == Self.foreignData)
            // The history says whose edits they are (no chain: not photoedit's).
            try await client.execute(uri: "/v1/assets/\(id)/history", method: .get) { response in
                guard case let .array(revisions)? = response.member("revisions"), revisions.count == 3,
                      case let .object(first) = revisions[1], case let .object(second) = revisions[2] else {
                    Issue.record("history: \(String(buffer: response.body))"); return
                }
                #expect(first["formatIdentifier"] == .string("com.example.foreign") && first["chain"] == .null)
                #expect(first["editorNote"] == .string("another editor's edit (com.example.foreign 1.1)"))
                #expect(second["editorNote"] == .string("another editor's edit (org.example.other 2)"))
            }
            #expect(stagedFiles(temp.library).isEmpty)
        }
    }

    @Test("with tokens and signing keys, an editing input needs a read token and gives a signed base image URL that opens without one")
    func signedBaseImage() async throws {
        let temp = try TemporaryLibrary()
        let id = try temp.importSample("coffee.jpg")
        let original = try [UInt8](Data(contentsOf: URL(fileURLWithPath: Paths.sample("coffee.jpg"))))
        let token = TokenStore.newToken()
        let tokens = try TokenStore(text: TokenStore.entry(for: token, scope: .read, name: "editor-ui"), source: "test")
        let signer = try URLSigner(text: "k1:" + String(repeating: "ab", count: 32), source: "test")
        try await server(temp) { $0.tokens = tokens; $0.signer = signer }.test(.router) { client in
            try await client.execute(uri: "/v1/assets/\(id)/editing-input", method: .post, body: ByteBuffer(string: "{}")) { response in
                #expect(response.status == .unauthorized)
            }
            var signed = ""
            try await client.execute(uri: "/v1/assets/\(id)/editing-input", method: .post, headers: [.authorization: "Bearer \(token)"],
                                     body: ByteBuffer(string: "{}")) { response in
                #expect(response.status == .ok)
                if case let .object(image)? = response.member("baseImage"), case let .string(url)? = image["signedURL"] { signed = url }
            }
            #expect(signed.hasPrefix("/v1/assets/\(id)/resources/photo?rev=0&exp="))
            try await client.execute(uri: signed, method: .get) { response in
                #expect(response.status == .ok)
                #expect(response.bytes == original)
            }
            try await client.execute(uri: signed.replacingOccurrences(of: "rev=0", with: "rev=1"), method: .get) { response in
                #expect(response.status == .forbidden)
            }
            // The resource without a signature still needs the token.
            try await client.execute(uri: "/v1/assets/\(id)/resources/photo", method: .get) { response in
                #expect(response.status == .unauthorized)
            }
        }
    }

    @Test("a stale If-Match is 412 with the current revision; unknown photos 404; nothing is committed or left staged")
    func staleAndUnknown() async throws {
        let temp = try TemporaryLibrary()
        let id = try temp.importSample("coffee.jpg")
        try await server(temp).test(.router) { client in
            var jpeg: [UInt8] = []
            try await client.execute(uri: "/v1/assets/\(id)/preview?w=100", method: .get) { jpeg = $0.bytes }
            try await client.execute(uri: "/v1/assets/\(id)/edits", method: .post, headers: [.ifMatch: "\"r0\""],
                                     body: ByteBuffer(string: #"{"chain": "exposure=+0.5"}"#)) { #expect($0.status == .ok) }
            var form = Multipart()
            form.add("adjustmentData", adjustmentPart("com.example.foreign", "1", [1, 2, 3]))
            form.add("base", "original")
            form.add("render", jpeg, type: "image/jpeg")
            try await client.execute(uri: "/v1/assets/\(id)/edits", method: .post,
                                     headers: [.ifMatch: "\"r0\"", .contentType: form.contentType], body: form.body) { response in
                #expect(response.status == .preconditionFailed)
                #expect(response.string("code") == "stale-revision")
                #expect(response.member("currentRevision") == .number(1))
                #expect(revision(ofETag: response.headers[.eTag]) == 1)
            }
            // No If-Match at all: 428.
            try await client.execute(uri: "/v1/assets/\(id)/edits", method: .post,
                                     headers: [.contentType: form.contentType], body: form.body) { response in
                #expect(response.status == .preconditionRequired)
            }
            try await client.execute(uri: "/v1/assets/0123456789abcdef/edits", method: .post,
                                     headers: [.ifMatch: "\"r0\"", .contentType: form.contentType], body: form.body) { response in
                #expect(response.status == .notFound)
                #expect(response.string("code") == "unknown-asset")
            }
            try await client.execute(uri: "/v1/assets/0123456789abcdef/editing-input", method: .post, body: ByteBuffer(string: "{}")) { response in
                #expect(response.status == .notFound)
                #expect(response.string("code") == "unknown-asset")
            }
            // An editor that handles our own recipe gets the image before the edit and the recipe.
            try await client.execute(uri: "/v1/assets/\(id)/editing-input", method: .post,
                                     body: ByteBuffer(string: #"[{"formatIdentifier": "org.photoedit.recipe", "formatVersions": ["1"]}]"#)) { response in
                #expect(response.status == .ok)
                #expect(response.member("canHandleAdjustmentData") == .bool(true))
                #expect(response.string("base") == "original")
            }
            #expect(try await BlockingExecutor.run { try temp.library.asset(id) }.revision == 1)
            #expect(stagedFiles(temp.library).isEmpty)
        }
    }

    @Test("bad outputs are refused with one clear problem each: missing, unknown or repeated parts, not a JPEG, a damaged JPEG, a wrong base, too large")
    func badOutputs() async throws {
        let temp = try TemporaryLibrary()
        let id = try temp.importSample("coffee.jpg")
        let png = try [UInt8](Data(contentsOf: URL(fileURLWithPath: Paths.sample("chart.png"))))
        try await server(temp) { $0.maxUploadBytes = 200_000 }.test(.router) { client in
            var jpeg: [UInt8] = []
            try await client.execute(uri: "/v1/assets/\(id)/preview?w=200", method: .get) { jpeg = $0.bytes }
            let data = adjustmentPart("com.example.foreign", "1", [1, 2, 3])
            func post(_ form: Multipart, contentType: String? = nil, _ check: @escaping @Sendable (TestResponse) -> Void) async throws {
                try await client.execute(uri: "/v1/assets/\(id)/edits", method: .post,
                                         headers: [.ifMatch: "\"r0\"", .contentType: contentType ?? form.contentType], body: form.body) { check($0) }
            }
            func form(_ build: (inout Multipart) -> Void) -> Multipart {
                var form = Multipart()
                build(&form)
                return form
            }
            try await post(form { $0.add("adjustmentData", data); $0.add("base", "original") }) { response in
                #expect(response.status == .badRequest)
                #expect(response.string("code") == "invalid-multipart")
                #expect(response.string("detail")?.contains("'render'") == true)
            }
            try await post(form { $0.add("base", "original"); $0.add("render", jpeg) }) { response in
                #expect(response.status == .badRequest)
                #expect(response.string("detail")?.contains("'adjustmentData'") == true)
            }
            try await post(form { $0.add("adjustmentData", data); $0.add("render", jpeg) }) { response in
                #expect(response.status == .badRequest)
                #expect(response.string("detail")?.contains("'base'") == true)
            }
            try await post(form { $0.add("adjustmentData", data); $0.add("base", "original"); $0.add("extra", "x"); $0.add("render", jpeg) }) { response in
                #expect(response.status == .badRequest)
                #expect(response.string("detail")?.contains("unknown part 'extra'") == true)
            }
            try await post(form { $0.add("adjustmentData", data); $0.add("adjustmentData", data); $0.add("base", "original"); $0.add("render", jpeg) }) { response in
                #expect(response.status == .badRequest)
                #expect(response.string("detail")?.contains("twice") == true)
            }
            try await post(form { $0.add("adjustmentData", data); $0.add("base", "original"); $0.add("render", png, type: "image/png") }) { response in
                #expect(response.status == .unsupportedMediaType)
                #expect(response.string("code") == "unsupported-render-type")
            }
            try await post(form { $0.add("adjustmentData", data); $0.add("base", "original"); $0.add("render", png) }) { response in
                #expect(response.status == .unsupportedMediaType)
            }
            // A JPEG cut short: the engine decodes it whole before committing and refuses it.
            try await post(form { $0.add("adjustmentData", data); $0.add("base", "original"); $0.add("render", Array(jpeg.prefix(jpeg.count / 2))) }) { response in
                #expect(response.status == .unprocessableContent)
                #expect(response.string("code") == "unusable-render")
            }
            try await post(form { $0.add("adjustmentData", data); $0.add("base", "render:0"); $0.add("render", jpeg) }) { response in
                #expect(response.status == .conflict)
                #expect(response.string("code") == "invalid-base")
            }
            try await post(form { $0.add("adjustmentData", data); $0.add("base", "somewhere"); $0.add("render", jpeg) }) { response in
                #expect(response.status == .badRequest)
            }
            try await post(form { $0.add("adjustmentData", "{\"formatIdentifier\": 3}"); $0.add("base", "original"); $0.add("render", jpeg) }) { response in
                #expect(response.status == .badRequest)
                #expect(response.string("code") == "invalid-adjustment-data-part")
            }
            // Our own format must be a recipe this build reads.
            try await post(form { $0.add("adjustmentData", adjustmentPart(Recipe.formatIdentifier, "1", Array("not a recipe".utf8)))
                $0.add("base", "original"); $0.add("render", jpeg) }) { response in
                #expect(response.status == .unprocessableContent)
                #expect(response.string("code") == "invalid-adjustment-data")
            }
            try await post(form { $0.add("adjustmentData", data); $0.add("base", "original"); $0.add("render", [UInt8](repeating: 0xFF, count: 300_000)) }) { response in
                #expect(response.status == .contentTooLarge)
            }
            try await post(form { $0.add("adjustmentData", data) }, contentType: "multipart/form-data") { response in
                #expect(response.status == .badRequest)
                #expect(response.string("detail")?.contains("boundary") == true)
            }
            try await client.execute(uri: "/v1/assets/\(id)/edits", method: .post,
                                     headers: [.ifMatch: "\"r0\"", .contentType: "multipart/form-data; boundary=xyz"],
                                     body: ByteBuffer(string: "--xyz\r\nno colon here\r\n\r\nbody\r\n--xyz--\r\n")) { response in
                #expect(response.status == .badRequest)
                #expect(response.string("code") == "invalid-multipart")
            }
            // Headers without end: bounded.
            try await client.execute(uri: "/v1/assets/\(id)/edits", method: .post,
                                     headers: [.ifMatch: "\"r0\"", .contentType: "multipart/form-data; boundary=xyz"],
                                     body: ByteBuffer(string: "--xyz\r\nX-Long: " + String(repeating: "a", count: 100_000))) { response in
                #expect(response.status == .badRequest)
                #expect(response.string("detail")?.contains("headers are longer") == true)
            }
            #expect(try await BlockingExecutor.run { try temp.library.asset(id) }.revision == 0)
            #expect(stagedFiles(temp.library).isEmpty)
        }
    }
}
#endif
