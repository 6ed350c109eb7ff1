// Only with the `Server` trait (Package.swift): these tests need its servers and modules.
#if Server
import Foundation
import Hummingbird
import HummingbirdTesting
import Logging
@testable import PhotoEdit
@testable import PhotoEditServer
import PhotoEditTestSupport
import Testing

/// The package root and its sample photos (PhotoEditTestSupport's, for the whole module).
typealias Paths = PhotoEditTestSupport.Paths

/// A library in a temporary folder, removed afterwards.
final class TemporaryLibrary: Sendable {
    let folder = TemporaryDirectory("photoedit-server")
    let url: URL
    let library: PhotoLibrary

    init() throws {
        url = folder.url.appendingPathComponent("library")
        library = try PhotoLibrary(url: url)
    }

    func importSample(_ name: String) throws -> String {
        let results = try library.importItems([Paths.sample(name)])
        return try #require(results.first?.id)
    }
}

/// The revision of a photo's entity tag (`"r3"` or `"r3.0123456789ab"`).
func revision(ofETag etag: String?) -> Int? {
    guard let etag, etag.hasPrefix("\"r"), etag.hasSuffix("\""), etag.count > 3 else { return nil }
    return Int(etag.dropFirst(2).dropLast().prefix { $0 != "." })
}

extension JSONValue {
    var stringValue: String? {
        if case let .string(text) = self { return text }
        return nil
    }
}

extension TestResponse {
    var json: JSONValue { (try? JSONValue.parse(Data(body.readableBytesView))) ?? .null }
    func member(_ key: String) -> JSONValue? {
        if case let .object(members) = json { return members[key] }
        return nil
    }
}

/// An in-process server over a test's library. Its export jobs write into the
/// test's folder, beside the library, so they go with it: a server's own
/// export folder in the system's temporary folder (`photoedit-exports-PID-…`)
/// is removed only by its shutdown, which a router test never runs.
func server(_ temp: TemporaryLibrary, _ configure: (inout ServerConfiguration) -> Void = { _ in }) -> some ApplicationProtocol {
    var configuration = ServerConfiguration()
    configuration.port = 0
    configuration.exportFolder = temp.folder.file("exports")
    // A test's client writes its request from a task of this process, which
    // runs the other suites too: give it nginx's default for the request head,
    // not serve's 10 s (ConnectionAbuseTests sets its own to test the deadline).
    configuration.headerTimeout = .seconds(60)
    configure(&configuration)
    var logger = Logger(label: "test")
    logger.logLevel = .warning
    return makeServer(library: temp.library, configuration: configuration, logger: logger)
}

@Suite("HTTP API v1: server, errors, auth, limits")
struct ServerTests {
    @Test("health and ready answer; unknown routes are problem+json with a code and a request id")
    func healthAndProblems() async throws {
        let temp = try TemporaryLibrary()
        try await server(temp).test(.router) { client in
            try await client.execute(uri: "/health", method: .get) { response in
                #expect(response.status == .ok)
                #expect(response.member("status") == .string("ok"))
            }
            try await client.execute(uri: "/ready", method: .get) { response in
                #expect(response.status == .ok)
                #expect(response.member("status") == .string("ready"))
            }
            try await client.execute(uri: "/v1/nothing-here", method: .get, headers: [.requestID: "abc-123"]) { response in
                #expect(response.status == .notFound)
                #expect(response.headers[.contentType] == "application/problem+json")
                #expect(response.member("code") == .string("not-found"))
                #expect(response.member("status") == .number(404))
                #expect(response.headers[.requestID] == "abc-123")
            }
            try await client.execute(uri: "/v1/assets/0123456789abcdef", method: .get) { response in
                #expect(response.status == .notFound)
                #expect(response.member("code") == .string("unknown-asset"))
                // The engine's own one line.
                #expect(response.member("detail") == .string(PhotoEditError.unknownAsset("0123456789abcdef").description))
            }
            try await client.execute(uri: "/v1/assets?where=width%3E%3D", method: .get) { response in
                #expect(response.status == .badRequest)
                #expect(response.member("code") == .string("invalid-query"))
            }
        }
    }

    @Test("tokens: none → 401 with WWW-Authenticate, unknown → 401, read token writing → 403, edit token writes")
    func tokens() async throws {
        let temp = try TemporaryLibrary()
        let id = try temp.importSample("coffee.jpg")
        let readToken = TokenStore.newToken()
        let editToken = TokenStore.newToken()
        let text = [TokenStore.entry(for: readToken, scope: .read, name: "viewer"),
                    TokenStore.entry(for: editToken, scope: .edit, name: "editor")].joined(separator: "\n")
        let tokens = try TokenStore(text: text, source: "test")
        #expect(!text.contains(readToken) && !text.contains(editToken))
        try await server(temp) { $0.tokens = tokens }.test(.router) { client in
            try await client.execute(uri: "/v1/assets", method: .get) { response in
                #expect(response.status == .unauthorized)
                #expect(response.headers[.wwwAuthenticate]?.hasPrefix("Bearer") == true)
                #expect(response.member("code") == .string("unauthenticated"))
            }
            try await client.execute(uri: "/v1/assets", method: .get, headers: [.authorization: "Bearer pe_wrong"]) { response in
                #expect(response.status == .unauthorized)
                #expect(response.member("code") == .string("invalid-token"))
            }
            try await client.execute(uri: "/v1/assets", method: .get, headers: [.authorization: "Bearer \(readToken)"]) { response in
                #expect(response.status == .ok)
            }
            let patch = ByteBuffer(string: #"{"favorite": true}"#)
            try await client.execute(uri: "/v1/assets/\(id)", method: .patch, headers: [.authorization: "Bearer \(readToken)"], body: patch) { response in
                #expect(response.status == .forbidden)
                #expect(response.member("code") == .string("insufficient-scope"))
            }
            try await client.execute(uri: "/v1/assets/\(id)", method: .patch, headers: [.authorization: "Bearer \(editToken)"], body: patch) { response in
                #expect(response.status == .ok)
                #expect(response.member("isFavorite") == .bool(true))
            }
            // Purge needs admin.
            try await client.execute(uri: "/v1/assets/\(id)/purge", method: .post, headers: [.authorization: "Bearer \(editToken)"]) { response in
                #expect(response.status == .forbidden)
            }
            // Health stays open (load balancers have no token).
            try await client.execute(uri: "/health", method: .get) { response in #expect(response.status == .ok) }
        }
        #expect(try await BlockingExecutor.run { try temp.library.asset(id) }.isFavorite)
    }

    @Test("token files: malformed entries are refused with their entry number, never the hash")
    func tokenFile() throws {
        #expect(throws: ServerSetupError.self) { try TokenStore(text: "sha256:abcd edit", source: "f") }
        do {
            _ = try TokenStore(text: "# comment\nsha256:\(String(repeating: "ab", count: 32)) superuser", source: "tokens.txt")
            Issue.record("an unknown scope was accepted")
        } catch let error as ServerSetupError {
            #expect(error.description == "tokens.txt entry 2: unknown scope 'superuser' (read, edit or admin)")
        }
    }
}

@Suite("HTTP API v1: photos and edits")
struct AssetRouteTests {
    @Test("upload streams a photo in (201, Location, ETag); the same bytes again give the existing id (200)")
    func upload() async throws {
        let temp = try TemporaryLibrary()
        let bytes = try Data(contentsOf: URL(fileURLWithPath: Paths.sample("coffee.jpg")))
        try await server(temp).test(.router) { client in
            var id = ""
            try await client.execute(uri: "/v1/assets?filename=coffee.jpg", method: .post, body: ByteBuffer(bytes: bytes)) { response in
                #expect(response.status == .created)
                guard case let .string(text)? = response.member("id") else { Issue.record("no id"); return }
                id = text
                #expect(response.headers[.location] == "/v1/assets/\(id)")
                #expect(revision(ofETag: response.headers[.eTag]) == 0)
                #expect(response.member("originalFilename") == .string("coffee.jpg"))
                #expect(response.member("existed") == .bool(false))
            }
            try await client.execute(uri: "/v1/assets", method: .post, body: ByteBuffer(bytes: bytes)) { response in
                #expect(response.status == .ok)
                #expect(response.member("id") == .string(id))
                #expect(response.member("existed") == .bool(true))
            }
            // Not an image: 422 with the engine's line, nothing added.
            try await client.execute(uri: "/v1/assets?filename=notes.jpg", method: .post, body: ByteBuffer(string: "hello, not a photo")) { response in
                #expect(response.status == .unprocessableContent)
                #expect(response.member("code") == .string("unreadable-image"))
            }
        }
        #expect(try await BlockingExecutor.run { try temp.library.assets() }.count == 1)
    }

    @Test("an upload over the limit is refused with 413 and adds nothing")
    func uploadLimit() async throws {
        let temp = try TemporaryLibrary()
        let bytes = try Data(contentsOf: URL(fileURLWithPath: Paths.sample("coffee.jpg")))
        try await server(temp) { $0.maxUploadBytes = Int64(bytes.count / 2) }.test(.router) { client in
            try await client.execute(uri: "/v1/assets", method: .post, body: ByteBuffer(bytes: bytes)) { response in
                #expect(response.status == .contentTooLarge)
                #expect(response.member("code") == .string("upload-too-large"))
            }
        }
        #expect(try await BlockingExecutor.run { try temp.library.assets() }.isEmpty)
        let staged = try FileManager.default.contentsOfDirectory(atPath: temp.url.appendingPathComponent("tmp").path)
        #expect(staged.isEmpty, "staging files left: \(staged)")
    }

    @Test("a JSON body over the limit is 413 body-too-large, also when it streams past it (was: 500, NIOTooManyBytesError)")
    func jsonBodyLimit() async throws {
        let temp = try TemporaryLibrary()
        let id = try temp.importSample("coffee.jpg")
        // 2 MiB of JSON: over the 1 MiB limit, and over a live connection
        // it arrives in many chunks, so the limit is met while streaming.
        let big = "{\"chain\": \"exposure=+0.1\", \"pad\": \"" + String(repeating: "x", count: 2 << 20) + "\"}"
        try await server(temp).test(.live) { client in
            for uri in ["/v1/assets/\(id)/edits", "/v1/assets/\(id)/revert"] {
                try await client.execute(uri: uri, method: .post, headers: [.ifMatch: "\"r0\"", .contentType: "application/json"],
                                         body: ByteBuffer(string: big)) { response in
                    #expect(response.status == .contentTooLarge, "\(uri)")
                    #expect(response.member("code") == .string("body-too-large"), "\(uri)")
                }
            }
        }
        #expect(try await BlockingExecutor.run { try temp.library.asset(id).revision } == 0)
    }

    @Test("list: where/sort/limit and a cursor that pages through every photo once")
    func list() async throws {
        let temp = try TemporaryLibrary()
        var ids: [String] = []
        for name in ["coffee.jpg", "chelsea.jpg", "astronaut.jpg", "chart.png"] { ids.append(try temp.importSample(name)) }
        let imported = ids
        try await server(temp).test(.router) { client in
            var seen: [String] = []
            var cursor: String?
            var pages = 0
            repeat {
                let uri = "/v1/assets?limit=3&sort=name" + (cursor.map { "&cursor=\($0)" } ?? "")
                try await client.execute(uri: uri, method: .get) { response in
                    #expect(response.status == .ok)
                    guard case let .array(assets)? = response.member("assets") else { Issue.record("no assets"); return }
                    for case let .object(asset) in assets { if case let .string(id)? = asset["id"] { seen.append(id) } }
                    if case let .string(next)? = response.member("nextCursor") { cursor = next } else { cursor = nil }
                }
                pages += 1
            } while cursor != nil && pages < 5
            #expect(pages == 2)
            #expect(seen.count == 4 && Set(seen) == Set(imported))
            try await client.execute(uri: "/v1/assets?where=format%3D%22png%22", method: .get) { response in
                guard case let .array(assets)? = response.member("assets") else { Issue.record("no assets"); return }
                #expect(assets.count == 1)
            }
            try await client.execute(uri: "/v1/assets?limit=0", method: .get) { response in
                #expect(response.status == .badRequest)
            }
            try await client.execute(uri: "/v1/assets?cursor=%%%", method: .get) { response in
                #expect(response.member("code") == .string("invalid-cursor"))
            }
        }
    }

    @Test("edits need If-Match: none → 428, stale → 412 with the current revision, right → new revision and ETag")
    func conditionalEdits() async throws {
        let temp = try TemporaryLibrary()
        let id = try temp.importSample("coffee.jpg")
        try await server(temp).test(.router) { client in
            let edit = ByteBuffer(string: #"{"chain": "exposure=+0.5"}"#)
            try await client.execute(uri: "/v1/assets/\(id)/edits", method: .post, body: edit) { response in
                #expect(response.status == .preconditionRequired)
            }
            try await client.execute(uri: "/v1/assets/\(id)/edits", method: .post, headers: [.ifMatch: "\"r0\""], body: edit) { response in
                #expect(response.status == .ok)
                #expect(revision(ofETag: response.headers[.eTag]) == 1)
                #expect(response.headers[.eTag] == response.member("etag")?.stringValue)
                #expect(response.member("chain") == .string("exposure=+0.5"))
            }
            // A second client still holding r0 is refused and told the current revision.
            let other = ByteBuffer(string: #"{"chain": "saturation=-1"}"#)
            try await client.execute(uri: "/v1/assets/\(id)/edits", method: .post, headers: [.ifMatch: "\"r0\""], body: other) { response in
                #expect(response.status == .preconditionFailed)
                #expect(response.member("code") == .string("stale-revision"))
                #expect(response.member("currentRevision") == .number(1))
                #expect(revision(ofETag: response.headers[.eTag]) == 1)
            }
            var current = ""
            try await client.execute(uri: "/v1/assets/\(id)", method: .get) { response in current = response.headers[.eTag] ?? "" }
            try await client.execute(uri: "/v1/assets/\(id)", method: .get, headers: [.ifNoneMatch: current]) { response in
                #expect(response.status == .notModified)
            }
            try await client.execute(uri: "/v1/assets/\(id)/revert", method: .post, headers: [.ifMatch: "\"r1\""]) { response in
                #expect(response.status == .ok)
                #expect(revision(ofETag: response.headers[.eTag]) == 2)
                #expect(response.member("chain") == .null)
            }
            try await client.execute(uri: "/v1/assets/\(id)/history", method: .get) { response in
                guard case let .array(revisions)? = response.member("revisions") else { Issue.record("no history"); return }
                #expect(revisions.count == 3)
            }
            try await client.execute(uri: "/v1/assets/\(id)/edits", method: .post, headers: [.ifMatch: "\"r2\""],
                                     body: ByteBuffer(string: #"{"chain": "nosuchfilter=1"}"#)) { response in
                #expect(response.status == .badRequest)
                #expect(response.member("code") == .string("unknown-filter"))
            }
        }
        // The stale edit changed nothing.
        #expect(try await BlockingExecutor.run { try temp.library.asset(id) }.revision == 2)
        #expect(try await BlockingExecutor.run { try temp.library.history(id) }.count == 3)
    }

    @Test("an edit that only takes filters out: an empty chain with remove; an empty chain alone is still refused")
    func removeOnlyEdits() async throws {
        let temp = try TemporaryLibrary()
        let id = try temp.importSample("coffee.jpg")
        try await server(temp).test(.router) { client in
            try await client.execute(uri: "/v1/assets/\(id)/edits", method: .post, headers: [.ifMatch: "\"r0\""],
                                     body: ByteBuffer(string: #"{"chain": "exposure=+0.5,local=radial(0.5 0.5 0.2 0.2) exposure=+1"}"#)) { response in
                #expect(response.status == .ok)
            }
            for body in [#"{"chain": ""}"#, #"{"chain": "", "remove": []}"#] {
                try await client.execute(uri: "/v1/assets/\(id)/edits", method: .post, headers: [.ifMatch: "\"r1\""],
                                         body: ByteBuffer(string: body)) { response in
                    #expect(response.status == .badRequest, "\(body)")
                    #expect(response.member("code") == .string("invalid-chain"), "\(body)")
                }
            }
            try await client.execute(uri: "/v1/assets/\(id)/edits", method: .post, headers: [.ifMatch: "\"r1\""],
                                     body: ByteBuffer(string: #"{"chain": "", "remove": ["local"]}"#)) { response in
                #expect(response.status == .ok)
                #expect(response.member("chain") == .string("exposure=+0.5"))
            }
        }
        #expect(try await BlockingExecutor.run { try temp.library.asset(id) }.revision == 2)
    }

    @Test("a photo's ETag covers its metadata: favorite, hidden, albums, trash each give a new tag, so If-None-Match never answers a stale 304")
    func etagCoversMetadata() async throws {
        let temp = try TemporaryLibrary()
        let id = try temp.importSample("coffee.jpg")
        try await server(temp).test(.router) { client in
            var etag = ""
            func get(_ expectNew: Bool, _ what: Comment) async throws {
                // Revalidating with the tag held so far: a change must answer 200 with the new body.
                try await client.execute(uri: "/v1/assets/\(id)", method: .get, headers: etag.isEmpty ? [:] : [.ifNoneMatch: etag]) { response in
                    if expectNew {
                        #expect(response.status == .ok, what)
                        let tag = response.headers[.eTag] ?? ""
                        #expect(revision(ofETag: tag) == 0, what)
                        #expect(response.member("etag")?.stringValue == tag, what)
                        #expect(tag != etag, "\(what): the tag did not change")
                        etag = tag
                    } else {
                        #expect(response.status == .notModified, what)
                        #expect(response.headers[.eTag] == etag, what)
                    }
                }
            }
            try await get(true, "first")
            try await get(false, "unchanged")
            let patch: (String) async throws -> Void = { body in
                try await client.execute(uri: "/v1/assets/\(id)", method: .patch, body: ByteBuffer(string: body)) { response in
                    #expect(response.status == .ok)
                    #expect(response.headers[.eTag] == response.member("etag")?.stringValue)
                }
            }
            try await patch(#"{"favorite": true}"#)
            try await client.execute(uri: "/v1/assets/\(id)", method: .get, headers: [.ifNoneMatch: etag]) { response in
                #expect(response.status == .ok, "favorite changed: not a 304")
                #expect(response.member("isFavorite") == .bool(true))
            }
            try await get(true, "favorite")
            try await patch(#"{"hidden": true}"#)
            try await get(true, "hidden")
            try await client.execute(uri: "/v1/albums", method: .post, body: ByteBuffer(string: #"{"title": "Trip"}"#)) { _ in }
            try await client.execute(uri: "/v1/albums/Trip", method: .patch, body: ByteBuffer(string: #"{"add": ["\#(id)"]}"#)) { _ in }
            try await get(true, "album")
            let inAlbum = etag
            try await client.execute(uri: "/v1/assets/\(id)", method: .delete) { #expect($0.status == .noContent) }
            try await get(true, "deleted")
            try await client.execute(uri: "/v1/assets/\(id)/restore", method: .post) { #expect($0.status == .ok) }
            try await get(true, "restored")
            // The tag is a function of what the photo says: restored, it is the one before the delete.
            #expect(etag == inAlbum)
            try await get(false, "unchanged again")
        }
    }

    @Test("an album named with a space or a slash is reached by its percent-encoded title; a bad encoding is a 400")
    func albumTitlesArePercentDecoded() async throws {
        let temp = try TemporaryLibrary()
        let id = try temp.importSample("coffee.jpg")
        try await server(temp).test(.router) { client in
            try await client.execute(uri: "/v1/albums", method: .post, body: ByteBuffer(string: #"{"title": "Trip 2026/Rome"}"#)) {
                #expect($0.status == .created)
            }
            try await client.execute(uri: "/v1/albums/Trip%202026%2FRome", method: .patch,
                                     body: ByteBuffer(string: #"{"add": ["\#(id)"]}"#)) { response in
                #expect(response.status == .ok, "\(String(buffer: response.body))")
                #expect(response.member("title") == .string("Trip 2026/Rome"))
            }
            try await client.execute(uri: "/v1/albums/Trip%202026%2FRome", method: .get) { response in
                #expect(response.status == .ok)
                #expect(String(buffer: response.body).contains(id))
            }
            try await client.execute(uri: "/v1/albums/Trip%2", method: .get) { response in
                #expect(response.status == .badRequest)
                #expect(response.member("code") == .string("invalid-parameter"))
            }
            try await client.execute(uri: "/v1/albums/Trip%202026%2FRome", method: .delete) { #expect($0.status == .noContent) }
            #expect(try temp.library.albums().isEmpty)
        }
    }

    @Test("PATCH sets rating, label, keywords, title and caption in one commit, under If-Match; a bad member changes nothing")
    func patchDescriptiveMetadata() async throws {
        let temp = try TemporaryLibrary()
        let id = try temp.importSample("coffee.jpg")
        try await server(temp).test(.router) { client in
            var etag = ""
            try await client.execute(uri: "/v1/assets/\(id)", method: .get) { response in
                etag = response.headers[.eTag] ?? ""
                #expect(response.member("rating") == .number(0) && response.member("keywords") == .array([]))
                #expect(response.member("colorLabel") == nil && response.member("title") == nil)
            }
            let body = #"{"rating": 4, "colorLabel": "red", "keywords": ["Trips / Iceland", "birds", "Birds"], "title": "Falls", "caption": "Gullfoss"}"#
            try await client.execute(uri: "/v1/assets/\(id)", method: .patch, headers: [.ifMatch: etag], body: ByteBuffer(string: body)) { response in
                #expect(response.status == .ok)
                #expect(response.member("rating") == .number(4) && response.member("colorLabel") == .string("red"))
                #expect(response.member("keywords") == .array([.string("birds"), .string("Trips/Iceland")]))
                #expect(response.member("title") == .string("Falls") && response.member("caption") == .string("Gullfoss"))
                #expect(response.headers[.eTag] != etag, "the metadata is part of the tag")
            }
            // The old whole tag is stale now.
            try await client.execute(uri: "/v1/assets/\(id)", method: .patch, headers: [.ifMatch: etag],
                                     body: ByteBuffer(string: #"{"rating": 1}"#)) { response in
                #expect(response.status == .preconditionFailed)
                #expect(response.member("code") == .string("stale-metadata"))
            }
            for bad in [#"{"rating": 6}"#, #"{"rating": 2.5}"#, #"{"rating": "4"}"#, #"{"colorLabel": "pink"}"#, #"{"keywords": ["a//b"]}"#,
                        #"{"keywords": "Birds"}"#, #"{"title": 3}"#, #"{"caption": "bell\u0007"}"#, #"{"favorite": true, "stars": 3}"#,
                        #"{"favorite": true, "rating": 9}"#, "{}"] {
                try await client.execute(uri: "/v1/assets/\(id)", method: .patch, body: ByteBuffer(string: bad)) { response in
                    #expect(response.status == .badRequest, "\(bad)")
                    #expect(response.member("code") == .string("invalid-body"), "\(bad)")
                }
            }
            try await client.execute(uri: "/v1/assets/\(id)", method: .patch,
                                     body: ByteBuffer(string: #"{"colorLabel": null, "title": null, "keywords": []}"#)) { response in
                #expect(response.status == .ok)
                #expect(response.member("colorLabel") == nil && response.member("title") == nil && response.member("keywords") == .array([]))
            }
            try await client.execute(uri: "/v1/assets?where=" + "rating>=4 and caption~gull".addingPercentEncoding(withAllowedCharacters: .alphanumerics)!,
                                     method: .get) { response in
                guard case .array(let assets)? = response.member("assets") else { Issue.record("no assets"); return }
                #expect(assets.count == 1)
            }
        }
        let asset = try await BlockingExecutor.run { try temp.library.asset(id) }
        #expect(asset.rating == 4 && asset.caption == "Gullfoss" && !asset.isFavorite, "no bad PATCH changed anything")
        // The PATCHes wrote the photo's metadata record, as the CLI does (a rebuilt catalog reads it back).
        let path = try temp.library.read { db in try db.value(String.self, "SELECT metadataPath FROM asset WHERE id = ?", id) }
        let record = try MetadataRecord.read(temp.library.readablePath(try #require(path))).get()
        #expect(record.rating == 4 && record.caption == "Gullfoss" && record.keywords.isEmpty && record.title == nil && record.colorLabel == nil)
        #expect(try await BlockingExecutor.run { try temp.library.verify() }.isClean)
    }

    @Test("If-Match takes the revision (\"rN\", N) or the whole ETag; a whole ETag is refused (412 stale-metadata) once the metadata changed, the revision is not")
    func ifMatchForms() async throws {
        let temp = try TemporaryLibrary()
        let id = try temp.importSample("coffee.jpg")
        try await server(temp).test(.router) { client in
            var etag = ""
            try await client.execute(uri: "/v1/assets/\(id)", method: .get) { etag = $0.headers[.eTag] ?? "" }
            #expect(etag.range(of: #"^"r0\.[0-9a-f]{12}"$"#, options: .regularExpression) != nil, "\(etag)")
            // The whole tag of GET is a valid If-Match.
            try await client.execute(uri: "/v1/assets/\(id)/edits", method: .post, headers: [.ifMatch: etag],
                                     body: ByteBuffer(string: #"{"chain": "exposure=+0.5"}"#)) { response in
                #expect(response.status == .ok)
                etag = response.headers[.eTag] ?? ""
                #expect(revision(ofETag: etag) == 1)
            }
            // Another client favorites the photo: no new revision, a new tag.
            try await client.execute(uri: "/v1/assets/\(id)", method: .patch, body: ByteBuffer(string: #"{"favorite": true}"#)) { response in
                #expect(response.status == .ok)
                #expect(revision(ofETag: response.headers[.eTag]) == 1)
                #expect(response.headers[.eTag] != etag)
            }
            // The whole old tag: 412 stale-metadata with the current tag; nothing changes.
            try await client.execute(uri: "/v1/assets/\(id)/edits", method: .post, headers: [.ifMatch: etag],
                                     body: ByteBuffer(string: #"{"chain": "contrast=10"}"#)) { response in
                #expect(response.status == .preconditionFailed)
                #expect(response.member("code") == .string("stale-metadata"))
                #expect(response.member("currentRevision") == .number(1))
                #expect(revision(ofETag: response.headers[.eTag]) == 1 && response.headers[.eTag] != etag)
            }
            try await client.execute(uri: "/v1/assets/\(id)", method: .patch, headers: [.ifMatch: etag],
                                     body: ByteBuffer(string: #"{"hidden": true}"#)) { response in
                #expect(response.status == .preconditionFailed)
                #expect(response.member("code") == .string("stale-metadata"))
            }
            // The revision it was edited from still works (an editor's form), quoted or bare.
            try await client.execute(uri: "/v1/assets/\(id)/edits", method: .post, headers: [.ifMatch: "\"r1\""],
                                     body: ByteBuffer(string: #"{"chain": "contrast=10"}"#)) { response in
                #expect(response.status == .ok)
                #expect(revision(ofETag: response.headers[.eTag]) == 2)
            }
            try await client.execute(uri: "/v1/assets/\(id)/revert", method: .post, headers: [.ifMatch: "2"]) { response in
                #expect(response.status == .ok)
                #expect(revision(ofETag: response.headers[.eTag]) == 3)
            }
            // A stale revision in a whole tag: 412 stale-revision, with the current whole tag.
            try await client.execute(uri: "/v1/assets/\(id)/edits", method: .post, headers: [.ifMatch: etag],
                                     body: ByteBuffer(string: #"{"chain": "contrast=20"}"#)) { response in
                #expect(response.status == .preconditionFailed)
                #expect(response.member("code") == .string("stale-revision"))
                #expect(revision(ofETag: response.headers[.eTag]) == 3)
                #expect(response.headers[.eTag]?.contains(".") == true)
            }
            for bad in ["\"r1.xyz\"", "\"r1.0123456789abcdef\"", "r", "\"abc\""] {
                try await client.execute(uri: "/v1/assets/\(id)/edits", method: .post, headers: [.ifMatch: bad],
                                         body: ByteBuffer(string: #"{"chain": "contrast=20"}"#)) { response in
                    #expect(response.status == .badRequest, "\(bad)")
                    #expect(response.member("code") == .string("invalid-if-match"))
                }
            }
        }
        #expect(try await BlockingExecutor.run { try temp.library.asset(id) }.revision == 3)
        #expect(try await BlockingExecutor.run { try temp.library.asset(id) }.isHidden == false)
    }

    @Test("delete, restore and purge; albums")
    func lifecycleAndAlbums() async throws {
        let temp = try TemporaryLibrary()
        let id = try temp.importSample("coffee.jpg")
        try await server(temp).test(.router) { client in
            try await client.execute(uri: "/v1/albums", method: .post, body: ByteBuffer(string: #"{"title": "Trip"}"#)) { response in
                #expect(response.status == .created)
            }
            try await client.execute(uri: "/v1/albums/Trip", method: .patch, body: ByteBuffer(string: #"{"add": ["\#(id)"]}"#)) { response in
                #expect(response.status == .ok)
                #expect(response.member("assets") == .array([.string(id)]))
            }
            try await client.execute(uri: "/v1/assets/\(id)", method: .delete) { response in #expect(response.status == .noContent) }
            try await client.execute(uri: "/v1/assets?deleted=true", method: .get) { response in
                guard case let .array(assets)? = response.member("assets") else { Issue.record("no assets"); return }
                #expect(assets.count == 1)
            }
            try await client.execute(uri: "/v1/assets/\(id)/restore", method: .post) { response in
                #expect(response.status == .ok)
                #expect(response.member("deletedDate") == nil || response.member("deletedDate") == .null)
            }
            try await client.execute(uri: "/v1/assets/\(id)/purge", method: .post, headers: [.ifMatch: "\"r5\""]) { response in
                #expect(response.status == .preconditionFailed)
            }
            // Purge is only from the recently deleted, as in Photos.
            try await client.execute(uri: "/v1/assets/\(id)/purge", method: .post) { response in
                #expect(response.status == .conflict)
                #expect(response.member("code") == .string("invalid-change"))
            }
            try await client.execute(uri: "/v1/assets/\(id)", method: .delete) { response in #expect(response.status == .noContent) }
            try await client.execute(uri: "/v1/assets/\(id)/purge", method: .post) { response in #expect(response.status == .noContent) }
            try await client.execute(uri: "/v1/assets/\(id)", method: .get) { response in #expect(response.status == .notFound) }
        }
    }
}

@Suite("HTTP API v1: renders")
struct RenderRouteTests {
    @Test("renders: size, format by Accept with Vary, immutable revision URLs, 304, stale revision, pixel limit")
    func render() async throws {
        let temp = try TemporaryLibrary()
        let id = try temp.importSample("coffee.jpg")
        // coffee.jpg is 600×400: its full size is past a 100 000-pixel limit.
        try await server(temp) { $0.maxRenderPixels = 100_000 }.test(.router) { client in
            var etag = ""
            try await client.execute(uri: "/v1/assets/\(id)/render?w=200&h=200", method: .get, headers: [.accept: "image/webp,*/*"]) { response in
                #expect(response.status == .ok)
                #expect(response.headers[.contentType] == "image/webp")
                #expect(response.headers[.vary] == "Accept")
                #expect(response.headers[.cacheControl] == "private, no-cache")
                etag = response.headers[.eTag] ?? ""
                let bytes = Array(response.body.readableBytesView)
                #expect(bytes.count > 100 && Array(bytes[8..<12]) == Array("WEBP".utf8))
                let image = try PhotoEdit.Image.load(data: Data(bytes))
                #expect(max(image.width, image.height) == 200)
            }
            try await client.execute(uri: "/v1/assets/\(id)/render?w=200&h=200", method: .get,
                                     headers: [.accept: "image/webp", .ifNoneMatch: etag]) { response in
                #expect(response.status == .notModified)
            }
            try await client.execute(uri: "/v1/assets/\(id)/render?w=64&rev=0&format=png", method: .get) { response in
                #expect(response.status == .ok)
                #expect(response.headers[.contentType] == "image/png")
                #expect(response.headers[.cacheControl]?.contains("immutable") == true)
            }
            try await client.execute(uri: "/v1/assets/\(id)/render?w=64&rev=3", method: .get) { response in
                #expect(response.status == .notFound)
                #expect(response.member("code") == .string("not-current-revision"))
                #expect(response.member("currentRevision") == .number(0))
            }
            try await client.execute(uri: "/v1/assets/\(id)/render", method: .get) { response in
                #expect(response.status == .unprocessableContent)
                #expect(response.member("code") == .string("render-too-large"))
            }
            try await client.execute(uri: "/v1/assets/\(id)/render?w=64&colour=red", method: .get) { response in
                #expect(response.status == .badRequest)
            }
        }
    }

    @Test("the render queue: past its depth a render is refused with 429 and Retry-After; cancelled waiters leave it")
    func renderQueue() async throws {
        let gate = RenderGate(concurrency: 1, queueDepth: 1)
        let release = AsyncStream<Void>.makeStream()
        let running = Task { try await gate.run { for await _ in release.stream { break } } }
        while await gate.load.running == 0 { await Task.yield() }
        let waiting = Task { try await gate.run { 1 } }
        while await gate.load.waiting == 0 { await Task.yield() }
        do {
            _ = try await gate.run { 2 }
            Issue.record("a render past the queue was accepted")
        } catch let problem as Problem {
            #expect(problem.status == .tooManyRequests)
            #expect(problem.headers[.retryAfter] == "2")
        }
        release.continuation.yield()
        release.continuation.finish()
        try await running.value
        #expect(try await waiting.value == 1)
        #expect(await gate.load == (0, 0))
    }
}
#endif
