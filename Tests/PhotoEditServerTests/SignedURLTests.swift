// Only with the `Server` trait (Package.swift): these tests need its servers and modules.
#if Server
import Foundation
import Hummingbird
import HummingbirdTesting
@testable import PhotoEdit
@testable import PhotoEditServer
import Testing

@Suite("HTTP API v1: signed render URLs")
struct SignedURLTests {
    static let oldKey = "old:" + String(repeating: "11", count: 32)
    static let newKey = "new:" + String(repeating: "22", count: 32)

    /// The signature and token hash are what any HMAC-SHA256/SHA-256 gives
    /// (expected values from Python's hmac and hashlib), so URLs signed and
    /// token files written before the hashing moved to swift-crypto still hold.
    @Test func signatureAndTokenHashMatchAnIndependentImplementation() throws {
        let signer = try URLSigner(text: Self.newKey, source: "test")
        let path = "/v1/assets/0123456789abcdef0123456789abcdef/render?w=64"
        let url = try #require(signer.sign(path, expires: Date(timeIntervalSince1970: 1_900_000_000)))
        #expect(url == path + "&exp=1900000000&kid=new&sig=FNrTsjZpQ0d5FuTMTnC-LU6LH4dHu4YX5DrXxp6OtJ0")
        #expect(TokenStore.sha256Hex("test") == "9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08")
    }

    @Test("a signed render URL is fetched without a token; tampered, expired, foreign-key or non-render URLs are 403")
    func signedRenders() async throws {
        let temp = try TemporaryLibrary()
        let id = try temp.importSample("coffee.jpg")
        let token = TokenStore.newToken()
        let tokens = try TokenStore(text: TokenStore.entry(for: token, scope: .read, name: "reader"), source: "test")
        // The new key signs; the old one (rotation) is still accepted.
        let signer = try URLSigner(text: "\(Self.newKey)\n\(Self.oldKey)", source: "test")
        let oldOnly = try URLSigner(text: Self.oldKey, source: "test")
        let foreign = try URLSigner(text: "new:" + String(repeating: "33", count: 32), source: "test")
        let later = Date().addingTimeInterval(600)

        try await server(temp) { $0.tokens = tokens; $0.signer = signer }.test(.router) { client in
            // Minted by the server for a read token.
            var minted = ""
            try await client.execute(uri: "/v1/assets/\(id)/render-url?w=64&format=png&ttl=120", method: .get,
                                     headers: [.authorization: "Bearer \(token)"]) { response in
                #expect(response.status == .ok)
                guard case let .string(url)? = response.member("url") else { Issue.record("no url: \(response.json)"); return }
                minted = url
            }
            #expect(minted.hasPrefix("/v1/assets/\(id)/render?w=64&format=png&exp="))
            #expect(minted.contains("&kid=new&sig="))
            try await client.execute(uri: minted, method: .get) { response in
                #expect(response.status == .ok)
                #expect(response.headers[.contentType] == "image/png")
                let image = try PhotoEdit.Image.load(data: Data(response.body.readableBytesView))
                #expect(image.width == 64)
            }
            // Signed with the old key: still good.
            let old = try #require(oldOnly.sign("/v1/assets/\(id)/render?w=32", expires: later))
            try await client.execute(uri: old, method: .get) { response in
                #expect(response.status == .ok)
            }
            // Any change to the signed part breaks it.
            let tampered = minted.replacingOccurrences(of: "w=64", with: "w=640")
            try await client.execute(uri: tampered, method: .get) { response in
                #expect(response.status == .forbidden)
                #expect(response.member("code") == .string("invalid-signature"))
            }
            // A key of the same name with another secret.
            let forged = try #require(foreign.sign("/v1/assets/\(id)/render?w=32", expires: later))
            try await client.execute(uri: forged, method: .get) { response in
                #expect(response.member("code") == .string("invalid-signature"))
            }
            // Expired (the signature itself is right).
            let expired = try #require(signer.sign("/v1/assets/\(id)/render?w=32", expires: Date().addingTimeInterval(-5)))
            try await client.execute(uri: expired, method: .get) { response in
                #expect(response.status == .forbidden)
                #expect(response.member("code") == .string("signature-expired"))
            }
            // A key the server does not have.
            let unknown = try #require(try URLSigner(text: "gone:" + String(repeating: "44", count: 32), source: "test")
                .sign("/v1/assets/\(id)/render?w=32", expires: later))
            try await client.execute(uri: unknown, method: .get) { response in
                #expect(response.member("code") == .string("unknown-signing-key"))
            }
            // A signature opens renders only, not the photo's metadata.
            let metadata = try #require(signer.sign("/v1/assets/\(id)", expires: later))
            try await client.execute(uri: metadata, method: .get) { response in
                #expect(response.status == .unauthorized)
            }
            // Without a signature a render still needs the token.
            try await client.execute(uri: "/v1/assets/\(id)/render?w=32", method: .get) { response in
                #expect(response.status == .unauthorized)
            }
            // Only render parameters are signed.
            try await client.execute(uri: "/v1/assets/\(id)/render-url?w=64&evil=1", method: .get,
                                     headers: [.authorization: "Bearer \(token)"]) { response in
                #expect(response.status == .badRequest)
            }
        }
    }

    @Test("signing key files: short secrets, bad ids and repeated ids are refused with their entry number")
    func keyFiles() throws {
        #expect(throws: ServerSetupError.self) { try URLSigner(text: "k:abcd", source: "keys") }
        #expect(throws: ServerSetupError.self) { try URLSigner(text: "a/b:" + String(repeating: "11", count: 32), source: "keys") }
        #expect(throws: ServerSetupError.self) { try URLSigner(text: "\(Self.oldKey);\(Self.oldKey)", source: "keys") }
        do {
            _ = try URLSigner(text: "# comment\n\(Self.oldKey)\nnew:zz", source: "keys")
            Issue.record("a non-hex secret was accepted")
        } catch let error as ServerSetupError {
            #expect(error.description == "keys entry 3: expected 'ID:<hex secret>'")
        }
        let entry = URLSigner.newKeyEntry(id: "k1")
        #expect(try URLSigner(text: entry, source: "new").keys.map(\.id) == ["k1"])
    }

    @Test("a listing with thumbnail=SIZE gives every photo a signed, revision-addressed thumbnail URL that opens without a token")
    func thumbnailsInListing() async throws {
        let temp = try TemporaryLibrary()
        var ids: [String] = []
        for name in ["coffee.jpg", "chelsea.jpg", "chart.png"] { ids.append(try temp.importSample(name)) }
        let imported = Set(ids)
        let token = TokenStore.newToken()
        let tokens = try TokenStore(text: TokenStore.entry(for: token, scope: .read, name: "reader"), source: "test")
        let signer = try URLSigner(text: Self.newKey, source: "test")
        let auth: HTTPFields = [.authorization: "Bearer \(token)"]
        try await server(temp) { $0.tokens = tokens; $0.signer = signer }.test(.router) { client in
            var urls: [String: String] = [:]
            try await client.execute(uri: "/v1/assets?limit=10&thumbnail=96", method: .get, headers: auth) { response in
                #expect(response.status == .ok)
                guard case let .array(assets)? = response.member("assets") else { Issue.record("no assets"); return }
                #expect(assets.count == 3)
                for case let .object(asset) in assets {
                    guard case let .string(id)? = asset["id"], case let .string(url)? = asset["thumbnailURL"],
                          case let .string(expires)? = asset["thumbnailURLExpires"] else { Issue.record("no thumbnail: \(asset)"); continue }
                    #expect(url.hasPrefix("/v1/assets/\(id)/render?w=96&h=96&fit=fill&format=webp&rev=0&exp="))
                    #expect(url.contains("&kid=new&sig="))
                    // At least a day, at most two, and the same all day.
                    let date = try #require(ISO8601DateFormatter().date(from: expires))
                    #expect(date.timeIntervalSinceNow > 86_000 && date.timeIntervalSinceNow <= 2 * 86_400)
                    urls[id] = url
                }
            }
            #expect(Set(urls.keys) == imported)
            // Each opens with no token: a WebP whose short side is 96.
            for (_, url) in urls {
                try await client.execute(uri: url, method: .get) { response in
                    #expect(response.status == .ok)
                    #expect(response.headers[.contentType] == "image/webp")
                    #expect(response.headers[.cacheControl]?.contains("immutable") == true)
                    let image = try PhotoEdit.Image.load(data: Data(response.body.readableBytesView))
                    #expect(min(image.width, image.height) == 96)
                }
            }
            // The same listing again: the same URLs (browsers and CDNs keep them).
            try await client.execute(uri: "/v1/assets?limit=10&thumbnail=96", method: .get, headers: auth) { response in
                guard case let .array(assets)? = response.member("assets") else { Issue.record("no assets"); return }
                for case let .object(asset) in assets {
                    if case let .string(id)? = asset["id"] { #expect(asset["thumbnailURL"] == .string(urls[id] ?? "")) }
                }
            }
            // fit and format; no thumbnails without the parameter.
            try await client.execute(uri: "/v1/assets?limit=1&thumbnail=64&thumbnailFit=fit&thumbnailFormat=jpeg", method: .get,
                                     headers: auth) { response in
                guard case let .array(assets)? = response.member("assets"), case let .object(asset)? = assets.first,
                      case let .string(url)? = asset["thumbnailURL"] else { Issue.record("no thumbnail"); return }
                #expect(url.contains("w=64&h=64&fit=fit&format=jpeg&rev="))
            }
            try await client.execute(uri: "/v1/assets?limit=1", method: .get, headers: auth) { response in
                guard case let .array(assets)? = response.member("assets"), case let .object(asset)? = assets.first else { return }
                #expect(asset["thumbnailURL"] == nil)
            }
            // Bounded sizes and checked values.
            for bad in ["thumbnail=8", "thumbnail=4096", "thumbnail=big", "thumbnail=64&thumbnailFit=stretch",
                        "thumbnail=64&thumbnailFormat=gif", "thumbnailFormat=webp"] {
                try await client.execute(uri: "/v1/assets?\(bad)", method: .get, headers: auth) { response in
                    #expect(response.status == .badRequest, "\(bad)")
                    #expect(response.member("code") == .string("invalid-parameter"), "\(bad)")
                }
            }
        }
        // Without signing keys: plain revision-addressed URLs (for a server that needs no token).
        try await server(temp).test(.router) { client in
            try await client.execute(uri: "/v1/assets?limit=1&thumbnail=128", method: .get) { response in
                guard case let .array(assets)? = response.member("assets"), case let .object(asset)? = assets.first,
                      case let .string(url)? = asset["thumbnailURL"] else { Issue.record("no thumbnail"); return }
                #expect(!url.contains("sig=") && url.hasSuffix("&rev=0"))
                #expect(asset["thumbnailURLExpires"] == .null)
            }
        }
    }

}
#endif
