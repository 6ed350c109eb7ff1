// Only with the `Server` trait (Package.swift): these tests need its servers and modules.
#if Server
import Foundation
import Hummingbird
import HummingbirdTesting
@testable import PhotoEdit
@testable import PhotoEditServer
import Testing

@Suite("HTTP API v1: CORS")
struct CORSTests {
    @Test("configured origins: preflight answered before auth, errors and answers carry Allow-Origin; other origins get none")
    func origins() async throws {
        let temp = try TemporaryLibrary()
        let token = TokenStore.newToken()
        let tokens = try TokenStore(text: TokenStore.entry(for: token, scope: .read, name: "web"), source: "test")
        let app = "https://app.example"
        try await server(temp) { $0.tokens = tokens; $0.corsOrigins = [app] }.test(.router) { client in
            try await client.execute(uri: "/v1/assets", method: .options,
                                     headers: [.origin: app, .accessControlRequestMethod: "GET",
                                               .accessControlRequestHeaders: "authorization"]) { response in
                #expect(response.status == .noContent)
                #expect(response.headers[.accessControlAllowOrigin] == app)
                #expect(response.headers[.accessControlAllowHeaders]?.contains("Authorization") == true)
                #expect(response.headers[.accessControlAllowMethods]?.contains("PATCH") == true)
            }
            // A 401 a browser script can read.
            try await client.execute(uri: "/v1/assets", method: .get, headers: [.origin: app]) { response in
                #expect(response.status == .unauthorized)
                #expect(response.headers[.accessControlAllowOrigin] == app)
                #expect(response.headers[.contentType] == "application/problem+json")
            }
            try await client.execute(uri: "/v1/assets", method: .get,
                                     headers: [.origin: app, .authorization: "Bearer \(token)"]) { response in
                #expect(response.status == .ok)
                #expect(response.headers[.accessControlAllowOrigin] == app)
                #expect(response.headers[.accessControlExposeHeaders]?.contains("ETag") == true)
                #expect(response.headers[values: .vary].contains("Origin"))
            }
            // Another origin: nothing, and its preflight is not answered.
            try await client.execute(uri: "/v1/assets", method: .get,
                                     headers: [.origin: "https://evil.example", .authorization: "Bearer \(token)"]) { response in
                #expect(response.status == .ok)
                #expect(response.headers[.accessControlAllowOrigin] == nil)
            }
            try await client.execute(uri: "/v1/assets", method: .options,
                                     headers: [.origin: "https://evil.example", .accessControlRequestMethod: "GET"]) { response in
                #expect(response.headers[.accessControlAllowOrigin] == nil)
                #expect(response.status != .noContent)
            }
        }
        // Not configured: no CORS headers at all.
        try await server(temp).test(.router) { client in
            try await client.execute(uri: "/health", method: .get, headers: [.origin: app]) { response in
                #expect(response.headers[.accessControlAllowOrigin] == nil)
            }
        }
    }
}
#endif
