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
        try await server(temp).test(.router) { client in
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

    /// Issue 38: "the default policy for HTTP renders is documented:
    /// copyright kept, location and people never". exiftool reads the bytes
    /// the server sends, in every format of the quick path and the export path.
    @Test("every HTTP render carries the HTTP policy: copyright by default, no-location or none when asked, never GPS; all is 400; previews none")
    func httpMetadataPolicy() async throws {
        let temp = try TemporaryLibrary()
        let photos = TemporaryDirectory("photoedit-export-tagged")
        let tagged = try ExportTestPhoto.make(in: photos)
        let id = try #require(try temp.library.importItems([tagged]).first?.id)
        try temp.library.setTitle("Morning coffee", of: [id])
        @Sendable func tags(_ response: TestResponse, _ ext: String) throws -> [String: String] {
            try ExportTestPhoto.tags(of: Data(response.body.readableBytesView), ext: ext)
        }
        let identifying = ["GPS", "Serial", "Owner", "Person", "Region"]
        try await server(temp).test(.router) { client in
            var etags: [String: String] = [:]
            for (query, ext) in [("", "jpg"), ("w=200&format=jpeg", "jpg"), ("w=200&format=png", "png"), ("w=200&format=webp", "webp"),
                                 ("w=200&format=avif", "avif"), ("w=200&format=jpeg&sharpen=screen", "jpg"), ("w=200&format=tiff", "tif")] {
                try await client.execute(uri: "/v1/assets/\(id)/render?\(query)", method: .get) { response in
                    #expect(response.status == .ok, "\(query)")
                    let t = try tags(response, ext)
                    // TIFF: libvips writes no EXIF there; the copyright and creator are XMP.
                    let (rights, creator) = ext == "tif" ? (t["XMP:Rights"], t["XMP:Creator"]) : (t["EXIF:Copyright"], t["EXIF:Artist"])
                    #expect(rights == ExportTestPhoto.copyright && creator == "Jane Doe", "\(query): copyright kept")
                    #expect(t["EXIF:Model"] == nil && t["XMP:Title"] == nil, "\(query): copyright and creator only")
                    #expect(!t.keys.contains { key in identifying.contains { key.contains($0) } }, "\(query): \(t.keys.sorted())")
                    #expect(t["ICC_Profile:ProfileDescription"] != nil, "\(query): the ICC profile is embedded")
                    etags[query] = response.headers[.eTag]
                }
            }
            #expect(etags["w=200&format=jpeg"]?.contains("-mcopyright") == true, "\(etags)")
            for (policy, ext) in [("no-location", "jpg"), ("no-location", "webp"), ("none", "jpg"), ("none", "webp"), ("none", "png"), ("none", "avif")] {
                let format = ["jpg": "jpeg"][ext] ?? ext
                try await client.execute(uri: "/v1/assets/\(id)/render?w=200&format=\(format)&metadata=\(policy)", method: .get) { response in
                    #expect(response.status == .ok)
                    let t = try tags(response, ext)
                    #expect(!t.keys.contains { key in identifying.contains { key.contains($0) } }, "\(policy) \(ext): \(t.keys.sorted())")
                    #expect(t["ICC_Profile:ProfileDescription"] != nil, "\(policy) \(ext): the ICC profile is embedded")
                    if policy == "none" {
                        #expect(ExportTestPhoto.groups(t, ["EXIF", "IPTC", "XMP"]).isEmpty, "\(ext): \(ExportTestPhoto.groups(t, ["EXIF", "IPTC", "XMP"]))")
                    } else {
                        #expect(t["EXIF:Model"] == "EOS R5" && t["EXIF:Copyright"] == ExportTestPhoto.copyright && t["XMP:Title"] == "Morning coffee",
                                "\(ext): \(t.keys.sorted())")
                    }
                    #expect(response.headers[.eTag] != etags["w=200&format=\(format)"], "the policy is part of the ETag")
                }
            }
            for query in ["metadata=all", "w=200&metadata=all", "format=jxl&metadata=all", "preset=print-tiff&metadata=all", "metadata=gps"] {
                try await client.execute(uri: "/v1/assets/\(id)/render?\(query)", method: .get) { response in
                    #expect(response.status == .badRequest, "\(query)")
                    let detail = Self.json(response)["detail"]?.stringValue ?? ""
                    #expect(detail.contains("copyright, no-location, none"), "\(query): \(detail)")
                }
            }
            // A preset whose policy is all (print-tiff) gets the HTTP default.
            try await client.execute(uri: "/v1/assets/\(id)/render?preset=print-tiff&long-edge=120", method: .get) { response in
                #expect(response.status == .ok)
                let t = try tags(response, "tif")
                #expect(t["XMP:Rights"] == ExportTestPhoto.copyright && t["EXIF:Model"] == nil && !t.keys.contains { $0.contains("GPS") },
                        "\(t.keys.sorted())")
            }
            // An editor's preview is a working image: no metadata at all.
            try await client.execute(uri: "/v1/assets/\(id)/preview?w=200&chain=exposure%3D0.3", method: .get) { response in
                #expect(response.status == .ok)
                let t = try tags(response, "jpg")
                #expect(ExportTestPhoto.groups(t, ["EXIF", "IPTC", "XMP"]).isEmpty, "\(ExportTestPhoto.groups(t, ["EXIF", "IPTC", "XMP"]))")
                #expect(t["ICC_Profile:ProfileDescription"] != nil)
            }
        }
    }

    @Test("export files: a job's files go when it expires, the folder at shutdown, the folders of ended processes at start")
    func exportFilesAreRemoved() async throws {
        let temp = try TemporaryLibrary()
        let a = try temp.importSample("coffee.jpg")
        let tmp = TemporaryDirectory("photoedit-export-tmp")
        func exists(_ path: String) -> Bool { FileManager.default.fileExists(atPath: path) }
        // A folder of an ended process, one of a live process (this one's parent), and a name of another pattern.
        let ended = Process()
        ended.executableURL = URL(fileURLWithPath: "/bin/true")
        try ended.run()
        _ = waitForTermination(ended)
        let stale = tmp.file("photoedit-exports-\(ended.processIdentifier)-deadbeef")
        let live = tmp.file("photoedit-exports-\(getppid())-cafebabe")
        let other = tmp.file("photoedit-exported-\(ended.processIdentifier)")
        for folder in [stale, live, other] { try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true) }
        let jobs = ExportJobs(folder: nil, retention: 0, temporaryDirectory: tmp.path)
        #expect(!exists(stale) && exists(live) && exists(other))
        #expect(jobs.folder.hasPrefix(tmp.file("photoedit-exports-\(getpid())-")))
        let settings = try ExportSettings(values: ["long-edge": "64"])
        func finished(_ job: ExportJobs.Job) async throws -> ExportJobs.Job? {
            for _ in 0..<600 where jobs.job(job.id)?.state == .running { try await Task.sleep(for: .milliseconds(50)) }
            return jobs.job(job.id)
        }
        let first = try #require(try jobs.start(ids: [a], settings: settings, library: temp.library))
        #expect(try await finished(first)?.files.count == 1)
        #expect(exists(jobs.folder(of: first.id) + "/coffee.jpg"))
        jobs.expire()
        #expect(jobs.job(first.id) == nil && !exists(jobs.folder(of: first.id)), "an expired job's files are gone")
        let second = try #require(try jobs.start(ids: [a], settings: settings, library: temp.library))
        #expect(try await finished(second)?.state == .done)
        jobs.shutdown()
        #expect(!exists(jobs.folder), "the process's folder is gone at shutdown")
    }

    @Test("signed render URLs cover export parameters: the signed one renders without a token, a changed policy is 403")
    func signedExportURL() async throws {
        let temp = try TemporaryLibrary()
        let id = try temp.importSample("coffee.jpg")
        let token = TokenStore.newToken()
        let tokens = try TokenStore(text: TokenStore.entry(for: token, scope: .read, name: "r"), source: "test")
        let signer = try URLSigner(text: URLSigner.newKeyEntry(id: "k1"), source: "test")
        try await server(temp, { $0.tokens = tokens; $0.signer = signer }).test(.router) { client in
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
        try await server(temp).test(.router) { client in
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
                let listed = try ZipListing.python(path)
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
#endif
