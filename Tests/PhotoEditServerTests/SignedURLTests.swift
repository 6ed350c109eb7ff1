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

        try await server(temp.library) { $0.tokens = tokens; $0.signer = signer }.test(.router) { client in
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
}
