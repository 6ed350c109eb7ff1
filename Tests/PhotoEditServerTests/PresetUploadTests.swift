// Only with the `Server` trait (Package.swift): these tests need its servers and modules.
#if Server
import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
@testable import PhotoEdit
@testable import PhotoEditServer
import Testing

/// `PUT /v1/presets/{name}`: Lightroom presets uploaded to the library, listed and applied.
@Suite("HTTP API v1: uploaded Lightroom presets")
struct PresetUploadTests {
    static func corpus(_ name: String) throws -> ByteBuffer {
        let path = Paths.root.appendingPathComponent("Tests/Fixtures/lightroom/corpus").appendingPathComponent(name).path
        return ByteBuffer(data: try #require(FileManager.default.contents(atPath: path)))
    }

    /// The files in the library's presets folder.
    static func stored(_ temp: TemporaryLibrary) -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: temp.url.appendingPathComponent("presets").path)) ?? []).sorted()
    }

    @Test("a Lightroom preset is stored in the library, listed by GET /v1/presets and applied as preset:NAME.xmp")
    func uploadListApply() async throws {
        let temp = try TemporaryLibrary()
        let id = try temp.importSample("coffee.jpg")
        let body = try Self.corpus("05-analogfilm-n-fuji-velvia-50.xmp")
        try await server(temp).test(.router) { client in
            try await client.execute(uri: "/v1/presets/velvia-50.xmp", method: .put, body: body) { response in
                #expect(response.status == .created)
                #expect(response.member("name")?.stringValue == "velvia-50")
                #expect(response.member("summary")?.stringValue?.hasPrefix("Lightroom preset") == true)
                #expect(response.member("chain")?.stringValue?.isEmpty == false)
            }
            #expect(Self.stored(temp) == ["velvia-50.xmp"])
            try await client.execute(uri: "/v1/presets", method: .get) { response in
                #expect(response.status == .ok)
                guard case let .array(presets)? = response.member("presets") else { Issue.record("no presets: \(response.json)"); return }
                let names = presets.compactMap { preset -> String? in
                    if case let .object(members) = preset { return members["name"]?.stringValue }
                    return nil
                }
                #expect(names.contains("velvia-50"))
                #expect(!String(buffer: response.body).contains(temp.url.path))
            }
            // Previewed (unsaved), as the web editor's menu does, by its name alone.
            try await client.execute(uri: "/v1/assets/\(id)/preview?chain=preset%3Avelvia-50&w=200", method: .get) { response in
                #expect(response.status == .ok, "\(response.json)")
                #expect(response.headers[.contentType] == "image/jpeg")
            }
            try await client.execute(uri: "/v1/assets/\(id)/edits", method: .post, headers: [.ifMatch: "\"r0\""],
                                     body: ByteBuffer(string: #"{"chain": "preset:velvia-50.xmp"}"#)) { response in
                #expect(response.status == .ok)
            }
        }
        // The preset's filters are the photo's recipe now.
        let recipe = try await BlockingExecutor.run { try temp.library.currentRecipe(id) }
        let expected = try temp.library.presets().preset(named: "velvia-50.xmp").recipe(developsRaw: false)?.recipe
        #expect(!recipe.nodes.isEmpty)
        #expect(recipe.nodes.map(\.filter) == expected?.nodes.map(\.filter))
    }

    @Test("not a Lightroom preset (bad XML, an XMP packet without develop settings): 400 invalid-preset, nothing stored, no paths")
    func notAPreset() async throws {
        let temp = try TemporaryLibrary()
        try await server(temp).test(.router) { client in
            for body in ["<x:xmpmeta><rdf:RDF", "hello", "",
                         #"<x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#"><rdf:Description xmlns:dc="http://purl.org/dc/elements/1.1/" dc:format="image/jpeg"/></rdf:RDF></x:xmpmeta>"#] {
                try await client.execute(uri: "/v1/presets/broken", method: .put, body: ByteBuffer(string: body)) { response in
                    #expect(response.status == .badRequest, "\(body)")
                    #expect(response.member("code")?.stringValue == "invalid-preset")
                    let detail = response.member("detail")?.stringValue ?? ""
                    #expect(detail.hasPrefix("not a Lightroom preset: "), "\(detail)")
                    #expect(!detail.contains("/"), "a path in: \(detail)")
                    #expect(!detail.contains("\n"))
                }
            }
        }
        #expect(Self.stored(temp).isEmpty)
    }

    @Test("a body over 1 MiB: 413 preset-too-large, nothing stored")
    func tooLarge() async throws {
        let temp = try TemporaryLibrary()
        try await server(temp).test(.router) { client in
            let body = ByteBuffer(repeating: UInt8(ascii: " "), count: PhotoLibrary.maxPresetBytes + 1)
            try await client.execute(uri: "/v1/presets/big", method: .put, body: body) { response in
                #expect(response.status == .contentTooLarge)
                #expect(response.member("code")?.stringValue == "preset-too-large")
            }
        }
        #expect(Self.stored(temp).isEmpty)
    }

    @Test("a name that is not one safe component: 400 invalid-preset-name, nothing stored")
    func badNames() async throws {
        let temp = try TemporaryLibrary()
        let body = try Self.corpus("05-analogfilm-n-fuji-velvia-50.xmp")
        try await server(temp).test(.router) { client in
            for name in ["..", "a.b", "x%2F..%2Fy", "%2E%2E", String(repeating: "a", count: 65), "caf%C3%A9", "a%20b", "x.chain"] {
                try await client.execute(uri: "/v1/presets/\(name)", method: .put, body: body) { response in
                    #expect(response.status == .badRequest, "\(name)")
                    #expect(response.member("code")?.stringValue == "invalid-preset-name", "\(name)")
                }
            }
        }
        #expect(Self.stored(temp).isEmpty)
        #expect(!FileManager.default.fileExists(atPath: temp.url.deletingLastPathComponent().appendingPathComponent("y.xmp").path))
    }

    @Test("a name taken (uploaded, or a preset of the search path): 409 preset-exists, the first file kept")
    func duplicate() async throws {
        let temp = try TemporaryLibrary()
        let first = try Self.corpus("05-analogfilm-n-fuji-velvia-50.xmp")
        let second = try Self.corpus("07-analogfilm-n-kodak-portra-400.xmp")
        try await server(temp).test(.router) { client in
            try await client.execute(uri: "/v1/presets/my-film", method: .put, body: first) { response in
                #expect(response.status == .created)
            }
            try await client.execute(uri: "/v1/presets/my-film.xmp", method: .put, body: second) { response in
                #expect(response.status == .conflict)
                #expect(response.member("code")?.stringValue == "preset-exists")
            }
            // A shipped preset's name is taken too.
            let shipped = try #require(try PresetLibrary.standard().all().first?.name)
            try await client.execute(uri: "/v1/presets/\(shipped)", method: .put, body: second) { response in
                #expect(response.status == .conflict)
            }
        }
        #expect(Self.stored(temp) == ["my-film.xmp"])
        let kept = FileManager.default.contents(atPath: temp.url.appendingPathComponent("presets/my-film.xmp").path)
        #expect(kept == Data(first.readableBytesView))
    }
}
#endif
