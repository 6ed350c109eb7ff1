// Only with the `Server` trait (Package.swift): these tests need its servers and modules.
#if Server
import Foundation
import Hummingbird
import HummingbirdTesting
@testable import PhotoEdit
@testable import PhotoEditServer
import Testing

/// The API as clients in other languages meet it: query strings read as
/// `application/x-www-form-urlencoded` (`+` is a space, `%2B` a plus, as
/// Python's requests and browsers' URLSearchParams write them), bad upload
/// names as bad parameters, problems that name no server path, and the
/// capabilities document that tells a client whether URLs are signed.
@Suite("HTTP API v1: form-encoded queries, clean problems, capabilities")
struct ClientCompatibilityTests {
    @Test("form decoding: + is a space, %2B a plus, keys decode too, a malformed escape stays as it is")
    func formDecoding() throws {
        let query = FormQuery.parse("where=favorite+or+width%3E%3D500&name=a%2Bb&empty&x%5By%5D=1&&plain=c&utf=%C3%A9t%C3%A9")
        #expect(query.get("where") == "favorite or width>=500")
        #expect(query.get("name") == "a+b")
        #expect(query.get("empty") == "")
        #expect(query.get("x[y]") == "1")
        #expect(query.get("plain") == "c")
        #expect(query.get("utf") == "été")
        // As browsers and Python read them: a % without two hex digits is kept.
        #expect(FormQuery.parse("a=%zz&b=100%&c=%4").get("a") == "%zz")
        #expect(FormQuery.parse("a=%zz&b=100%&c=%4").get("b") == "100%")
        #expect(FormQuery.parse("a=%zz&b=100%&c=%4").get("c") == "%4")
    }

    @Test("a where with + for spaces and an upload name with + and %2B are read as forms write them")
    func plusInQueries() async throws {
        let temp = try TemporaryLibrary()
        let jpeg = ByteBuffer(bytes: try Data(contentsOf: URL(fileURLWithPath: Paths.sample("coffee.jpg"))))
        let other = ByteBuffer(bytes: try Data(contentsOf: URL(fileURLWithPath: Paths.sample("rotated-exif.jpg"))))
        try await server(temp).test(.router) { client in
            let id = try await client.execute(uri: "/v1/assets?filename=My+Holiday+Photo.jpg", method: .post, body: jpeg) { response in
                #expect(response.status == .created)
                #expect(response.member("originalFilename") == .string("My Holiday Photo.jpg"))
                return response.member("id")?.stringValue
            }
            try await client.execute(uri: "/v1/assets?filename=one%2Bone.jpg", method: .post, body: other) { response in
                #expect(response.status == .created)
                #expect(response.member("originalFilename") == .string("one+one.jpg"))
            }
            // requests.get(url, params={"where": 'name="My Holiday Photo.jpg" or width>=100000'})
            let where_ = "name%3D%22My+Holiday+Photo.jpg%22+or+width%3E%3D100000"
            try await client.execute(uri: "/v1/assets?where=\(where_)", method: .get) { response in
                #expect(response.status == .ok)
                guard case let .array(assets)? = response.member("assets") else { Issue.record("no assets"); return }
                #expect(assets.compactMap { $0["id"]?.stringValue } == [id].compactMap { $0 })
            }
            // The same with %20 (encodeURIComponent) finds the same photo.
            try await client.execute(uri: "/v1/assets?where=name%3D%22My%20Holiday%20Photo.jpg%22", method: .get) { response in
                guard case let .array(assets)? = response.member("assets") else { Issue.record("no assets"); return }
                #expect(assets.count == 1)
            }
            // A sort key list and a flag, form-encoded.
            try await client.execute(uri: "/v1/assets?sort=-created%2Cname&hidden=false", method: .get) { response in
                #expect(response.status == .ok)
            }
            // A malformed escape reaches the parameter's own check, which names it.
            try await client.execute(uri: "/v1/assets?where=%25zz+%zz", method: .get) { response in
                #expect(response.status == .badRequest)
                #expect(response.member("code") == .string("invalid-query"))
            }
        }
    }

    @Test("an upload name with folders is 400 invalid-parameter, and nothing is imported")
    func badFilename() async throws {
        let temp = try TemporaryLibrary()
        let jpeg = ByteBuffer(bytes: try Data(contentsOf: URL(fileURLWithPath: Paths.sample("coffee.jpg"))))
        try await server(temp).test(.router) { client in
            for name in ["../../etc/x.jpg", "..%2F..%2Fetc%2Fx.jpg", "a/b.jpg", "..", "%00.jpg"] {
                try await client.execute(uri: "/v1/assets?filename=\(name)", method: .post, body: jpeg) { response in
                    #expect(response.status == .badRequest, "\(name)")
                    #expect(response.member("code") == .string("invalid-parameter"), "\(name)")
                }
            }
            try await client.execute(uri: "/v1/assets", method: .post, headers: [.contentDisposition: "attachment; filename=\"../x.jpg\""],
                                     body: jpeg) { response in
                #expect(response.status == .badRequest)
            }
            try await client.execute(uri: "/v1/assets", method: .get) { response in
                guard case let .array(assets)? = response.member("assets") else { Issue.record("no assets"); return }
                #expect(assets.isEmpty)
            }
        }
    }

    @Test("a form's upload (multipart/form-data, as curl -F sends it) is 415 saying what to send, and nothing is imported")
    func multipartUpload() async throws {
        let temp = try TemporaryLibrary()
        let jpeg = try Data(contentsOf: URL(fileURLWithPath: Paths.sample("coffee.jpg")))
        let form = Data("--b0undary\r\nContent-Disposition: form-data; name=\"file\"; filename=\"coffee.jpg\"\r\nContent-Type: image/jpeg\r\n\r\n".utf8)
            + jpeg + Data("\r\n--b0undary--\r\n".utf8)
        try await server(temp).test(.router) { client in
            try await client.execute(uri: "/v1/assets?filename=coffee.jpg", method: .post,
                                     headers: [.contentType: "multipart/form-data; boundary=b0undary"], body: ByteBuffer(bytes: form)) { response in
                #expect(response.status == .unsupportedMediaType)
                #expect(response.member("code") == .string("unsupported-media-type"))
                #expect(response.member("detail")?.stringValue?.contains("--data-binary") == true)
            }
            // The same photo as the body itself is imported.
            try await client.execute(uri: "/v1/assets?filename=coffee.jpg", method: .post, body: ByteBuffer(bytes: jpeg)) { response in
                #expect(response.status == .created)
            }
            try await client.execute(uri: "/v1/assets", method: .get) { response in
                guard case let .array(assets)? = response.member("assets") else { Issue.record("no assets"); return }
                #expect(assets.count == 1)
            }
        }
    }

    @Test("a missing LUT is 400 unknown-lut naming only the LUT, on edits and previews")
    func missingLUT() async throws {
        let temp = try TemporaryLibrary()
        let id = try temp.importSample("coffee.jpg")
        try await server(temp).test(.router) { client in
            try await client.execute(uri: "/v1/assets/\(id)/edits", method: .post, headers: [.ifMatch: "\"r0\"", .contentType: "application/json"],
                                     body: ByteBuffer(string: #"{"chain": "lut=nope.cube"}"#)) { response in
                #expect(response.status == .badRequest)
                #expect(response.member("code") == .string("unknown-lut"))
                let detail = response.member("detail")?.stringValue ?? ""
                #expect(detail == "no LUT named 'nope.cube' on this server")
            }
            try await client.execute(uri: "/v1/assets/\(id)/preview?w=64&chain=lut%3Dnope.cube", method: .get) { response in
                #expect(response.status == .badRequest)
                #expect(response.member("code") == .string("unknown-lut"))
                let detail = response.member("detail")?.stringValue ?? "/"
                #expect(!detail.contains("/"), "\(detail)")
            }
        }
        // The CLI's message still lists the folders searched.
        #expect(PhotoEditError.unknownLUT(name: "x.cube", searched: ["/a/b"]).description.contains("/a/b"))
    }

    @Test("engine messages lose their server paths: the file name stays, the folders go")
    func redaction() {
        #expect(Problem.redactingPaths("/home/u/lib/originals/x.jpg: not a JPEG") == "…/x.jpg: not a JPEG")
        #expect(Problem.redactingPaths("VipsJpeg: \"/tmp/photoedit-staging/abc.jpg\" is not a known file format")
                == "VipsJpeg: \"…/abc.jpg\" is not a known file format")
        #expect(Problem.redactingPaths("no LUT (in /a/b, ~/c/d)") == "no LUT (in …/b, …/d)")
        #expect(Problem.redactingPaths("fetch /v1/assets/{id}/render itself") == "fetch /v1/assets/{id}/render itself")
        #expect(Problem.redactingPaths("fit/fill, 3/4 of w/h") == "fit/fill, 3/4 of w/h")
        let error = PhotoEditError.unreadableFile(path: "/srv/photos/lib/.staging/7f.jpg", reason: "truncated")
        #expect(Problem(error).detail == "7f.jpg: truncated")
        #expect(Problem(PhotoEditError.imageTooLarge(path: "/srv/x/y.tif", width: 9, height: 9, limit: 1)).detail.hasPrefix("y.tif: "))
    }

    @Test("capabilities say whether URLs are signed; without keys render-url is 409 no-signing-keys, never a 5xx")
    func capabilities() async throws {
        let temp = try TemporaryLibrary()
        let id = try temp.importSample("coffee.jpg")
        try await server(temp).test(.router) { client in
            try await client.execute(uri: "/v1/capabilities", method: .get) { response in
                #expect(response.status == .ok)
                #expect(response.member("urlSigning") == .bool(false))
                #expect(response.member("tokens") == .bool(false))
            }
            try await client.execute(uri: "/v1/assets/\(id)/render-url?w=64", method: .get) { response in
                #expect(response.status == .conflict)
                #expect(response.member("code") == .string("no-signing-keys"))
            }
        }
        let signer = try URLSigner(text: "k:" + String(repeating: "5a", count: 32), source: "test")
        try await server(temp) { $0.signer = signer }.test(.router) { client in
            try await client.execute(uri: "/v1/capabilities", method: .get) { response in
                #expect(response.member("urlSigning") == .bool(true))
            }
        }
    }
}
#endif
