// Only with the `Server` trait (Package.swift): these tests need its servers and modules.
#if Server
import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
@testable import PhotoEdit
@testable import PhotoEditServer
import Testing

/// The web editor's files (`/`, `/web/NAME`) and the preset list it reads.
@Suite("Web editor: static files and presets")
struct WebRouteTests {
    @Test("/ is the editor's page, /web/NAME its files: types, hash ETag → 304, CSP, no token needed")
    func files() async throws {
        let temp = try TemporaryLibrary()
        let tokens = try TokenStore(text: TokenStore.entry(for: TokenStore.newToken(), scope: .edit, name: "t"), source: "test")
        try await server(temp) { $0.tokens = tokens }.test(.router) { client in
            var etag = ""
            try await client.execute(uri: "/", method: .get) { response in
                #expect(response.status == .ok)
                #expect(response.headers[.contentType] == "text/html; charset=utf-8")
                let page = String(buffer: response.body)
                #expect(page.contains("<script type=\"module\" src=\"/web/app.js\"></script>"))
                #expect(response.headers[.contentSecurityPolicy]?.contains("default-src 'self'") == true)
                #expect(response.headers[.xContentTypeOptions] == "nosniff")
                #expect(response.headers[.cacheControl] == "no-cache")
                etag = response.headers[.eTag] ?? ""
            }
            #expect(etag.count == 34)
            try await client.execute(uri: "/", method: .get, headers: [.ifNoneMatch: etag]) { response in
                #expect(response.status == .notModified)
                #expect(response.body.readableBytes == 0)
            }
            for (name, type) in [("app.js", "text/javascript; charset=utf-8"), ("api.js", "text/javascript; charset=utf-8"),
                                 ("filters.js", "text/javascript; charset=utf-8"), ("app.css", "text/css; charset=utf-8"),
                                 ("icon.svg", "image/svg+xml")] {
                try await client.execute(uri: "/web/\(name)", method: .get) { response in
                    #expect(response.status == .ok, "\(name)")
                    #expect(response.headers[.contentType] == type, "\(name)")
                    #expect(response.body.readableBytes > 100, "\(name)")
                }
            }
            // Only the folder's own plain names: nothing above it, nothing hidden.
            for uri in ["/web/missing.js", "/web/..%2FPackage.swift", "/web/%2E%2E", "/web/.hidden", "/web/", "/web/a/b.js"] {
                try await client.execute(uri: uri, method: .get) { response in
                    #expect(response.status == .notFound, "\(uri)")
                    #expect(response.headers[.contentType] == "application/problem+json", "\(uri)")
                }
            }
        }
    }

    @Test("the page's scripts name only files the server has, and no other origin")
    func selfContained() throws {
        let files = WebFiles.bundled.files
        #expect(Set(files.keys).isSuperset(of: ["index.html", "app.js", "api.js", "filters.js", "app.css", "icon.svg"]))
        for (name, file) in files where name.hasSuffix(".html") || name.hasSuffix(".js") || name.hasSuffix(".css") {
            let text = String(decoding: file.bytes, as: UTF8.self)
            #expect(!text.contains("http://") && !text.contains("https://") && !text.contains("//cdn"), "\(name) names another origin")
            for match in text.matches(of: /(?:src|href)="\/web\/([^"]+)"|from "\.\/([^"]+)"/) {
                let referenced = String(match.output.1 ?? match.output.2 ?? "")
                #expect(files[referenced] != nil, "\(name) refers to \(referenced), which is not served")
            }
        }
    }

    @Test("GET /v1/presets: the shipped presets with their chains (read scope), no file paths")
    func presets() async throws {
        let temp = try TemporaryLibrary()
        try await server(temp).test(.router) { client in
            try await client.execute(uri: "/v1/presets", method: .get) { response in
                #expect(response.status == .ok)
                guard case let .array(presets)? = response.member("presets") else {
                    Issue.record("no presets array: \(response.json)")
                    return
                }
                let byName = Dictionary(presets.compactMap { preset -> (String, [String: JSONValue])? in
                    guard case let .object(members) = preset, case let .string(name)? = members["name"] else { return nil }
                    return (name, members)
                }, uniquingKeysWith: { a, _ in a })
                #expect(byName["punchy"]?["chain"] == .string("contrast=+25,saturation=+15,exposure=+0.1"))
                #expect(byName["faded"] != nil)
                #expect(!String(buffer: response.body).contains("/filters/presets"))
            }
        }
    }
}
#endif
