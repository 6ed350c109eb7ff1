import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
@testable import PhotoEdit
@testable import PhotoEditServer
import PhotoEditTestSupport
import Testing

/// Issue 38 over HTTP: renders with export settings, and export jobs.
@Suite("HTTP export: render settings, presets, signed URLs, export jobs and their ZIP")
struct ExportRouteTests {
    static func json(_ response: TestResponse) -> [String: JSONValue] {
        if case let .object(members) = response.json { return members }
        return [:]
    }

    @Test("render with format=jxl, long-edge, metadata; a preset; bad settings are 400 with one line")
    func renderWithExportSettings() async throws {
        let temp = try TemporaryLibrary()
        let id = try temp.importSample("coffee.jpg")
        try await server(temp.library).test(.router) { client in
            try await client.execute(uri: "/v1/assets/\(id)/render?format=jxl&long-edge=200&metadata=none", method: .get) { response in
                #expect(response.status == .ok)
                #expect(response.headers[.contentType] == "image/jxl")
                let bytes = Array(response.body.readableBytesView)
                // A JPEG XL codestream (FF 0A) or container (…JXL ).
                #expect(bytes.starts(with: [0xFF, 0x0A]) || bytes.starts(with: [0, 0, 0, 0x0C, 0x4A, 0x58, 0x4C, 0x20]), "\(bytes.prefix(12))")
                let image = try Image.load(data: Data(bytes))
                #expect(max(image.width, image.height) == 200)
            }
            try await client.execute(uri: "/v1/assets/\(id)/render?preset=share-jpeg&w=160", method: .get) { response in
                #expect(response.status == .ok)
                #expect(response.headers[.contentType] == "image/jpeg")
                let image = try Image.load(data: Data(response.body.readableBytesView))
                #expect(max(image.width, image.height) == 160, "w/h is a box over the preset's long edge")
            }
            for (query, word) in [("metadata=gps", "metadata"), ("preset=nope", "nope"), ("format=jxl&long-edge=0", "long-edge"),
                                  ("watermark=@/etc/passwd", "watermark"), ("sharpen=laser", "sharpen"), ("format=jxl&fit=fill", "fit")] {
                try await client.execute(uri: "/v1/assets/\(id)/render?\(query)", method: .get) { response in
                    #expect(response.status == .badRequest, "\(query)")
                    let detail = Self.json(response)["detail"]?.stringValue ?? ""
                    #expect(detail.contains(word) && !detail.contains("\n") && !detail.contains("root:"), "\(query): \(detail)")
                }
            }
        }
    }

    @Test("signed render URLs cover export parameters: the signed one renders without a token, a changed policy is 403")
    func signedExportURL() async throws {
        let temp = try TemporaryLibrary()
        let id = try temp.importSample("coffee.jpg")
        let token = TokenStore.newToken()
        let tokens = try TokenStore(text: TokenStore.entry(for: token, scope: .read, name: "r"), source: "test")
        let signer = try URLSigner(text: URLSigner.newKeyEntry(id: "k1"), source: "test")
        try await server(temp.library, { $0.tokens = tokens; $0.signer = signer }).test(.router) { client in
            var url = ""
            try await client.execute(uri: "/v1/assets/\(id)/render-url?format=jxl&long-edge=128&metadata=copyright", method: .get,
                                     headers: [.authorization: "Bearer \(token)"]) { response in
                #expect(response.status == .ok)
                url = Self.json(response)["url"]?.stringValue ?? ""
            }
            #expect(url.contains("metadata=copyright"))
            try await client.execute(uri: url, method: .get) { response in
                #expect(response.status == .ok)
                #expect(response.headers[.contentType] == "image/jxl")
            }
            try await client.execute(uri: url.replacingOccurrences(of: "metadata=copyright", with: "metadata=all"), method: .get) { response in
                #expect(response.status == .forbidden)
            }
        }
    }

    @Test("an export job: 202, progress to done, each file and the ZIP downloadable; bounds and bad bodies are 4xx")
    func exportJob() async throws {
        let temp = try TemporaryLibrary()
        let a = try temp.importSample("coffee.jpg")
        let b = try temp.importSample("chelsea.jpg")
        try await server(temp.library).test(.router) { client in
            var job = ""
            let body = #"{"ids": ["\#(a)", "\#(b)"], "settings": {"format": "jpeg", "long-edge": 120, "name": "{seq:2}-{name}"}}"#
            try await client.execute(uri: "/v1/exports", method: .post, headers: [.contentType: "application/json"],
                                     body: ByteBuffer(string: body)) { response in
                #expect(response.status == .accepted)
                job = Self.json(response)["id"]?.stringValue ?? ""
                #expect(response.headers[.location] == "/v1/exports/\(job)")
                #expect(Self.json(response)["total"] == .number(2))
            }
            var status: [String: JSONValue] = [:]
            for _ in 0..<300 {
                try await client.execute(uri: "/v1/exports/\(job)", method: .get) { response in status = Self.json(response) }
                if status["state"] == .string("done") { break }
                try await Task.sleep(for: .milliseconds(100))
            }
            #expect(status["state"] == .string("done") && status["completed"] == .number(2), "\(status)")
            guard case let .array(files)? = status["files"] else { Issue.record("no files: \(status)"); return }
            var names: [String] = []
            for case let .object(file) in files {
                let name = file["name"]?.stringValue ?? ""
                names.append(name)
                try await client.execute(uri: file["url"]?.stringValue ?? "", method: .get) { response in
                    #expect(response.status == .ok && response.headers[.contentType] == "image/jpeg")
                    #expect(file["bytes"] == .number(Double(response.body.readableBytes)))
                    let image = try Image.load(data: Data(response.body.readableBytesView))
                    #expect(max(image.width, image.height) == 120)
                }
            }
            #expect(names.sorted() == ["01-coffee.jpg", "02-chelsea.jpg"], "\(names)")
            try await client.execute(uri: "/v1/exports/\(job)/zip", method: .get) { response in
                #expect(response.status == .ok && response.headers[.contentType] == "application/zip")
                let folder = TemporaryDirectory("photoedit-export-zip")
                let path = folder.url.appendingPathComponent("x.zip").path
                try Data(response.body.readableBytesView).write(to: URL(fileURLWithPath: path))
                let listed = try ZipStreamTests.pythonList(path)
                #expect(listed.hasPrefix("ok 2\n") && listed.contains("01-coffee.jpg") && listed.contains("02-chelsea.jpg"), "\(listed)")
            }
            try await client.execute(uri: "/v1/exports/\(job)/files/..%2F..%2Fetc%2Fpasswd", method: .get) { response in
                #expect(response.status == .notFound)
            }

            let many = "[" + (0...ExportJobs.maxPhotos).map { _ in "\"\(a)\"" }.joined(separator: ",") + "]"
            for (bad, status) in [(#"{"ids": \#(many)}"#, HTTPResponse.Status.badRequest),
                                  (#"{"ids": ["\#(a)"], "where": "favorite"}"#, .badRequest),
                                  (#"{"ids": ["\#(a)"], "color": 1}"#, .badRequest),
                                  (#"{"ids": ["\#(a)"], "settings": {"format": "bmp"}}"#, .badRequest),
                                  (#"{"ids": ["\#(a)"], "settings": {"watermark": "@/etc/passwd"}}"#, .badRequest),
                                  (#"{"ids": ["0123456789abcdef0123456789abcdef"]}"#, .notFound)] {
                try await client.execute(uri: "/v1/exports", method: .post, headers: [.contentType: "application/json"],
                                         body: ByteBuffer(string: bad)) { response in
                    #expect(response.status == status, "\(bad.prefix(80)): \(response.status)")
                }
            }
            try await client.execute(uri: "/v1/exports/unknown", method: .get) { response in
                #expect(response.status == .notFound)
            }
            try await client.execute(uri: "/v1/exports/\(job)", method: .delete) { response in
                #expect(response.status == .noContent)
            }
        }
    }
}
