// Only with the `Server` trait (Package.swift): without it the module is empty.
#if Server
import Foundation
import HTTPTypes
import Hummingbird
import NIOCore
import PhotoEdit

/// The web editor's files (`Resources/web`): `/` is its `index.html`,
/// `/web/NAME` any other file of that folder. Read once when the server
/// starts; answered with a content hash as `ETag` (304 on `If-None-Match`),
/// revalidated on every load (`no-cache`) so an upgraded server is never
/// paired with a stale script, and a content security policy that allows
/// nothing but this origin (and `blob:` images: the previews).
struct WebFiles: Sendable {
    struct File: Sendable {
        let bytes: [UInt8]
        let type: String
        let etag: String
    }

    let files: [String: File]

    /// The files of the bundle's `web` folder (flat; names of letters,
    /// digits, `-`, `_` and `.`, not starting with a dot).
    static let bundled = WebFiles(folder: Bundle.module.url(forResource: "web", withExtension: nil))

    init(folder: URL?) {
        var files: [String: File] = [:]
        if let folder, let names = try? FileManager.default.contentsOfDirectory(atPath: folder.path) {
            for name in names where Self.isPlainName(name) {
                guard let data = FileManager.default.contents(atPath: folder.appendingPathComponent(name).path) else { continue }
                let bytes = [UInt8](data)
                files[name] = File(bytes: bytes, type: Self.mediaType(of: name), etag: "\"" + SHA256Digest.hex(of: bytes).prefix(32) + "\"")
            }
        }
        self.files = files
    }

    static func isPlainName(_ name: String) -> Bool {
        !name.isEmpty && name.utf8.count <= 64 && !name.hasPrefix(".")
            && name.unicodeScalars.allSatisfy { $0.isASCII && (CharacterSet.alphanumerics.contains($0) || "-_.".unicodeScalars.contains($0)) }
    }

    static func mediaType(of name: String) -> String {
        switch (name as NSString).pathExtension.lowercased() {
        case "html": return "text/html; charset=utf-8"
        case "css": return "text/css; charset=utf-8"
        case "js": return "text/javascript; charset=utf-8"
        case "svg": return "image/svg+xml"
        case "png": return "image/png"
        case "json", "webmanifest": return "application/json"
        default: return "application/octet-stream"
        }
    }

    func response(_ name: String, request: Request) throws -> Response {
        guard Self.isPlainName(name), let file = files[name] else {
            throw Problem(.notFound, code: "not-found", files.isEmpty ? "no web editor is installed" : "no such file of the web editor")
        }
        var headers: HTTPFields = [
            .eTag: file.etag, .cacheControl: "no-cache",
            .xContentTypeOptions: "nosniff", .referrerPolicy: "no-referrer",
            .contentSecurityPolicy: "default-src 'self'; img-src 'self' blob: data:; object-src 'none'; base-uri 'none'; frame-ancestors 'none'",
        ]
        if let match = request.headers[.ifNoneMatch], match.split(separator: ",").contains(where: { $0.trimmingCharacters(in: .whitespaces) == file.etag }) {
            return Response(status: .notModified, headers: headers)
        }
        headers[.contentType] = file.type
        return Response(status: .ok, headers: headers, body: .init(byteBuffer: ByteBuffer(bytes: file.bytes)))
    }
}

/// `GET /` (the editor's page) and `GET /web/NAME` (its scripts and styles).
/// No token: the files are the same for everyone; the page asks for a token
/// when the API answers 401.
func addWebRoutes(_ router: Router<ServerContext>) {
    let web = WebFiles.bundled
    router.get("/") { request, _ in try web.response("index.html", request: request) }
    router.get("/web/:name") { request, context in try web.response(try context.parameters.require("name"), request: request) }
}

extension HTTPField.Name {
    static let referrerPolicy = HTTPField.Name("Referrer-Policy")!
}
#endif
