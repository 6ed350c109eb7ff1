// Only with the `Server` trait (Package.swift): without it the module is empty.
#if Server
import Foundation
import Hummingbird
import PhotoEdit

/// A secret that signs render URLs, named by the URL's `kid`.
public struct SigningKey: Sendable {
    /// The name a URL gives for it (`kid`): letters, digits, `-` and `_`, at most 32.
    public let id: String
    let secret: [UInt8]

    /// A key from its id and secret (at least 16 bytes).
    public init(id: String, secret: [UInt8]) throws {
        guard (1...32).contains(id.utf8.count),
              id.unicodeScalars.allSatisfy({ CharacterSet.alphanumerics.contains($0) && $0.isASCII || $0 == "-" || $0 == "_" })
        else { throw ServerSetupError("a signing key id is 1 to 32 letters, digits, '-' or '_'") }
        guard secret.count >= 16 else { throw ServerSetupError("signing key '\(id)': the secret must be at least 16 bytes (32 hex digits)") }
        self.id = id
        self.secret = secret
    }
}

/// Signs and checks render URLs, as imgproxy does: a browser or a CDN fetches
/// a render with no token when its URL carries an expiry and an HMAC-SHA256
/// of its path and query made with one of the server's keys.
///
/// A signed URL ends `…&exp=UNIX-SECONDS&kid=KEY-ID&sig=SIGNATURE`, where
/// `SIGNATURE` is the unpadded base64url HMAC-SHA256, keyed with the key's
/// secret, of everything before `&sig=`: the path and the query exactly as
/// sent (`/v1/assets/ID/render?w=256&exp=…&kid=…`). `sig` must come last.
/// The first key signs; every key is accepted, so keys rotate by adding the
/// new one first, waiting for old URLs to expire, then removing the old one.
public struct URLSigner: Sendable {
    /// The keys, the signing one first.
    public let keys: [SigningKey]

    public init(keys: [SigningKey]) { self.keys = keys }

    /// Parses a key file (or `$PHOTOEDIT_SIGNING_KEYS`, entries separated by
    /// `;`): one `ID:HEX-SECRET` a line, `#` starts a comment. A malformed
    /// entry is an error naming its number, never its secret.
    public init(text: String, source: String) throws {
        var keys: [SigningKey] = []
        for (index, line) in TokenStore.entries(text) {
            let parts = line.split(separator: ":", maxSplits: 1).map(String.init)
            guard parts.count == 2, let secret = TokenStore.hex(parts[1]) else {
                throw ServerSetupError("\(source) entry \(index): expected 'ID:<hex secret>'")
            }
            do { keys.append(try SigningKey(id: parts[0], secret: secret)) } catch let error as ServerSetupError {
                throw ServerSetupError("\(source) entry \(index): \(error.description)")
            }
            if Set(keys.map(\.id)).count != keys.count {
                throw ServerSetupError("\(source) entry \(index): key id '\(parts[0])' is given twice")
            }
        }
        self.keys = keys
    }

    /// A new key file entry: `ID:` and 32 random bytes in hex.
    public static func newKeyEntry(id: String) -> String {
        var generator = SystemRandomNumberGenerator()
        let secret = (0..<32).map { _ in UInt8.random(in: 0...255, using: &generator) }
        return id + ":" + secret.map { String(format: "%02x", $0) }.joined()
    }

    /// `pathAndQuery` (a path with or without a query) signed with the first
    /// key, valid until `expires`; nil without keys.
    public func sign(_ pathAndQuery: String, expires: Date) -> String? {
        guard let key = keys.first else { return nil }
        let separator = pathAndQuery.contains("?") ? "&" : "?"
        let message = pathAndQuery + separator + "exp=\(Int(expires.timeIntervalSince1970))&kid=\(key.id)"
        return message + "&sig=" + Self.signature(key: key, message: message)
    }

    /// Why a signed URL is refused.
    enum Refusal: Equatable {
        case malformed, unknownKey, badSignature, expired
    }

    /// Checks a request's signature: nil when valid now.
    func check(path: String, query: String, now: Date) -> Refusal? {
        guard let range = query.range(of: "&sig=", options: .backwards) else { return .malformed }
        let signature = String(query[range.upperBound...])
        let signed = String(query[..<range.lowerBound])
        var exp: Int?, kid: String?
        for pair in signed.split(separator: "&") {
            let parts = pair.split(separator: "=", maxSplits: 1).map(String.init)
            guard parts.count == 2 else { continue }
            if parts[0] == "exp" { exp = Int(parts[1]) } else if parts[0] == "kid" { kid = parts[1] }
        }
        guard let exp, let kid, !signature.contains("&") else { return .malformed }
        guard let key = keys.first(where: { $0.id == kid }) else { return .unknownKey }
        let expected = Self.signature(key: key, message: path + "?" + signed)
        guard SHA256Digest.constantTimeEqual(Array(expected.utf8), Array(signature.utf8)) else { return .badSignature }
        guard Double(exp) >= now.timeIntervalSince1970 else { return .expired }
        return nil
    }

    static func signature(key: SigningKey, message: String) -> String {
        Data(SHA256Digest.hmac(key: key.secret, message: Array(message.utf8))).base64EncodedString()
            .replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
            .replacingOccurrences(of: "=", with: "")
    }

    /// Whether a path may be fetched with a signature instead of a token: renders and resources only.
    static func isSignable(_ path: String) -> Bool {
        let parts = path.split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count >= 5, parts[0].isEmpty, parts[1] == "v1", parts[2] == "assets" else { return false }
        // A render, or a resource (an editor's base image).
        return parts.count == 5 && parts[4] == "render" || parts.count == 6 && parts[4] == "resources"
    }
}
#endif
