// Only with the `Server` trait (Package.swift): without it the module is empty.
#if Server
import Foundation
import HTTPTypes
import Hummingbird
import PhotoEdit

/// What a token may do. Each scope includes the ones below it:
/// `admin` ⊃ `edit` ⊃ `read`.
public enum Scope: Int, Comparable, Sendable, CaseIterable {
    /// Read photos, renders, history, the change feed.
    case read
    /// Upload, edit, favorite, hide, delete (to the recently deleted), albums.
    case edit
    /// Purge (delete for good) and the operations pages.
    case admin

    public var name: String { ["read", "edit", "admin"][rawValue] }

    public init?(name: String) {
        guard let scope = Self.allCases.first(where: { $0.name == name.lowercased() }) else { return nil }
        self = scope
    }

    public static func < (a: Scope, b: Scope) -> Bool { a.rawValue < b.rawValue }
}

/// API tokens, kept only as SHA-256 hashes. A token file (or the
/// `PHOTOEDIT_TOKENS` variable, entries separated by `;`) has one entry a
/// line: `sha256:HEX SCOPE [NAME]`, e.g.
/// `sha256:9f86d0…0f00a08 edit ci-bot`. `#` starts a comment.
public struct TokenStore: Sendable {
    struct Entry: Sendable {
        let hash: [UInt8]
        let scope: Scope
        let name: String
    }

    private let entries: [Entry]

    /// No tokens: the server answers without authentication (for a
    /// loopback-only development server; `serve` says so when it starts).
    public var isEmpty: Bool { entries.isEmpty }

    /// Parses entries; a malformed one is an error naming its line (never the hash).
    public init(text: String, source: String) throws {
        var entries: [Entry] = []
        for (index, line) in Self.entries(text) {
            let fields = line.split(separator: " ", omittingEmptySubsequences: true).map(String.init)
            guard fields.count >= 2, fields[0].hasPrefix("sha256:"), let hash = Self.hex(String(fields[0].dropFirst(7))), hash.count == 32
            else { throw ServerSetupError("\(source) entry \(index): expected 'sha256:<64 hex digits> <read|edit|admin> [name]'") }
            guard let scope = Scope(name: fields[1]) else {
                throw ServerSetupError("\(source) entry \(index): unknown scope '\(fields[1])' (read, edit or admin)")
            }
            entries.append(Entry(hash: hash, scope: scope, name: fields.count > 2 ? fields[2...].joined(separator: " ") : "token \(index)"))
        }
        self.entries = entries
    }

    public init() { entries = [] }

    /// The entry line for a token: what to put in a token file.
    public static func entry(for token: String, scope: Scope, name: String) -> String {
        "sha256:\(sha256Hex(token)) \(scope.name) \(name)"
    }

    /// A new random token (32 bytes from the system's generator, base64url).
    public static func newToken() -> String {
        var bytes = [UInt8](repeating: 0, count: 32)
        var generator = SystemRandomNumberGenerator()
        for i in bytes.indices { bytes[i] = generator.next() }
        return "pe_" + Data(bytes).base64EncodedString().replacingOccurrences(of: "+", with: "-")
            .replacingOccurrences(of: "/", with: "_").replacingOccurrences(of: "=", with: "")
    }

    /// The scope and name of a presented token, or nil when it is unknown.
    func lookup(_ token: String) -> (scope: Scope, name: String)? {
        let hash = Self.hex(Self.sha256Hex(token)) ?? []
        // Every entry is compared in full, whatever matches, so the time taken
        // says nothing about which hash came close.
        var found: Entry?
        for entry in entries where SHA256Digest.constantTimeEqual(entry.hash, hash) { found = entry }
        return found.map { ($0.scope, $0.name) }
    }

    /// The entries of a token or key file (or of a variable, `;` between
    /// them) with their numbers from 1: comments (`#`) and blank entries left out.
    static func entries(_ text: String) -> [(number: Int, text: String)] {
        let lines = text.split(omittingEmptySubsequences: false, whereSeparator: { $0 == "\n" || $0 == ";" })
        return lines.enumerated().compactMap { index, raw in
            let line = raw.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false).first.map(String.init)?
                .trimmingCharacters(in: .whitespaces) ?? ""
            return line.isEmpty ? nil : (index + 1, line)
        }
    }

    static func sha256Hex(_ text: String) -> String { SHA256Digest.hex(of: Array(text.utf8)) }

    static func hex(_ text: String) -> [UInt8]? {
        guard text.count % 2 == 0 else { return nil }
        var bytes: [UInt8] = []
        var index = text.startIndex
        while index < text.endIndex {
            let next = text.index(index, offsetBy: 2)
            guard let byte = UInt8(text[index..<next], radix: 16) else { return nil }
            bytes.append(byte)
            index = next
        }
        return bytes
    }
}

/// A problem in the server's configuration (token file, keys, options): one line.
public struct ServerSetupError: Error, CustomStringConvertible, Sendable {
    public let description: String
    public init(_ description: String) { self.description = description }
}

/// Checks the bearer token of every request below it against the scope
/// the route needs: GET/HEAD read, other methods edit, purge admin.
/// No token → 401 with `WWW-Authenticate`; too small a scope → 403.
///
/// A render whose URL carries `sig` is checked against the signing keys
/// instead (URLSigner): valid and unexpired → served without a token;
/// otherwise 403, whatever the token.
struct AuthMiddleware<Context: RequestContext>: RouterMiddleware {
    let tokens: TokenStore
    let signer: URLSigner

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        if request.method == .get || request.method == .head, request.uri.queryParameters.get("sig") != nil,
           URLSigner.isSignable(request.uri.path) {
            guard !signer.keys.isEmpty else {
                throw Problem(.forbidden, code: "invalid-signature", "this server has no signing keys; signed URLs are not accepted")
            }
            switch signer.check(path: request.uri.path, query: request.uri.query ?? "", now: Date()) {
            case nil: return try await next(request, context)
            case .expired: throw Problem(.forbidden, code: "signature-expired", "the signed URL has expired")
            case .unknownKey: throw Problem(.forbidden, code: "unknown-signing-key", "the signed URL names a key this server does not have")
            case .malformed: throw Problem(.forbidden, code: "invalid-signature", "a signed URL ends with &exp=SECONDS&kid=KEY&sig=SIGNATURE")
            case .badSignature: throw Problem(.forbidden, code: "invalid-signature", "the URL's signature does not match it")
            }
        }
        if tokens.isEmpty { return try await next(request, context) }
        let needed = Self.scope(for: request)
        guard let header = request.headers[.authorization], header.lowercased().hasPrefix("bearer ") else {
            throw Problem(.unauthorized, code: "unauthenticated", "this request needs an API token (Authorization: Bearer TOKEN)",
                          headers: [.wwwAuthenticate: "Bearer realm=\"photoedit\""])
        }
        let token = String(header.dropFirst(7)).trimmingCharacters(in: .whitespaces)
        guard let (scope, name) = tokens.lookup(token) else {
            throw Problem(.unauthorized, code: "invalid-token", "the API token is not valid",
                          headers: [.wwwAuthenticate: "Bearer realm=\"photoedit\", error=\"invalid_token\""])
        }
        guard scope >= needed else {
            throw Problem(.forbidden, code: "insufficient-scope",
                          "this request needs the '\(needed.name)' scope; the token '\(name)' has '\(scope.name)'")
        }
        return try await next(request, context)
    }

    static func scope(for request: Request) -> Scope {
        if request.uri.path.hasSuffix("/purge") || request.uri.path.hasPrefix("/v1/admin") || request.uri.path == "/metrics" { return .admin }
        // An editing input only reads (it is a POST for its body).
        if request.method == .post && request.uri.path.hasSuffix("/editing-input") { return .read }
        return request.method == .get || request.method == .head ? .read : .edit
    }
}
#endif
