// Only with the `Server` trait (Package.swift): without it the module is empty.
#if Server
import Foundation
import HTTPTypes
import Hummingbird
import PhotoEdit

/// An error answered as `application/problem+json` (RFC 9457): a stable
/// machine-readable `code`, the status, and one line of text (for engine
/// errors, the engine's own message). Extra members (such as the current
/// revision on a 412) go in `extra`.
public struct Problem: Error, HTTPResponseError, Sendable {
    /// The HTTP status.
    public let status: HTTPResponse.Status
    /// A stable identifier of the kind of problem (`unknown-asset`, `stale-revision`, …).
    public let code: String
    /// One line saying what is wrong.
    public let detail: String
    /// Extra members of the problem object.
    public var extra: [String: JSONValue] = [:]
    /// Extra response headers (`Retry-After`, `WWW-Authenticate`, `ETag`).
    public var headers: HTTPFields = [:]

    public init(_ status: HTTPResponse.Status, code: String, _ detail: String,
                extra: [String: JSONValue] = [:], headers: HTTPFields = [:]) {
        self.status = status
        self.code = code
        self.detail = detail
        self.extra = extra
        self.headers = headers
    }

    /// The problem object as JSON.
    public var json: JSONValue {
        var object = extra
        object["type"] = .string("https://photoedit.dev/problems/\(code)")
        object["title"] = .string(status.reasonPhrase)
        object["status"] = .number(Double(status.code))
        object["code"] = .string(code)
        object["detail"] = .string(detail)
        return .object(object)
    }

    public func response(from request: Request, context: some RequestContext) throws -> Response {
        var headers = self.headers
        headers[.contentType] = "application/problem+json"
        return Response(status: status, headers: headers, body: .init(byteBuffer: ByteBuffer(string: json.canonicalText)))
    }

    /// The problem for an engine error: its status, its code and its one line.
    public init(_ error: PhotoEditError) {
        let (status, code): (HTTPResponse.Status, String)
        var extra: [String: JSONValue] = [:]
        var headers: HTTPFields = [:]
        switch error {
        case .native: (status, code) = (.unprocessableContent, "native-failure")
        case .unknownFilter: (status, code) = (.badRequest, "unknown-filter")
        case .invalidParameter: (status, code) = (.badRequest, "invalid-parameter")
        case .invalidChain: (status, code) = (.badRequest, "invalid-chain")
        case .invalidAdjustmentData: (status, code) = (.unprocessableContent, "invalid-adjustment-data")
        case .unknownAsset: (status, code) = (.notFound, "unknown-asset")
        case .ambiguousAsset: (status, code) = (.conflict, "ambiguous-asset")
        case .malformedIdentifier: (status, code) = (.badRequest, "malformed-identifier")
        case .unreadableFile: (status, code) = (.unprocessableContent, "unreadable-image")
        case .unknownLUT: (status, code) = (.badRequest, "unknown-lut")
        case .imageTooLarge: (status, code) = (.unprocessableContent, "image-too-large")
        case .unknownRevision: (status, code) = (.notFound, "unknown-revision")
        case let .conflict(_, _, actual):
            (status, code) = (.preconditionFailed, "stale-revision")
            extra["currentRevision"] = .number(Double(actual))
            headers[.eTag] = ETag.revision(actual)
        case .library: (status, code) = (.serviceUnavailable, "library-unavailable")
        case .invalidOutput: (status, code) = (.badRequest, "invalid-output")
        case .invalidChange: (status, code) = (.conflict, "invalid-change")
        case .unknownAlbum: (status, code) = (.notFound, "unknown-album")
        case .invalidQuery: (status, code) = (.badRequest, "invalid-query")
        case let .catalog(failure) where failure.isBusy:
            // Another writer held the catalog for the whole busy timeout.
            (status, code) = (.serviceUnavailable, "catalog-busy")
            headers[.retryAfter] = "5"
        case let .catalog(failure) where failure.isFull: (status, code) = (HTTPResponse.Status(code: 507, reasonPhrase: "Insufficient Storage"), "storage-full")
        case .catalog: (status, code) = (.internalServerError, "catalog-failure")
        }
        self.init(status, code: code, Self.clientDetail(error), extra: extra, headers: headers)
    }

    /// An engine error's one line as a client may read it: the engine's
    /// text with every server path cut to its last component (a client
    /// learns which file, never where the server keeps it); a missing LUT
    /// names only the LUT.
    static func clientDetail(_ error: PhotoEditError) -> String {
        switch error {
        case let .unknownLUT(name, _): return "no LUT named '\(name)' on this server"
        case let .unreadableFile(path, reason): return redactingPaths("\(lastComponent(path)): \(reason)")
        case let .imageTooLarge(path, width, height, limit):
            return redactingPaths(PhotoEditError.imageTooLarge(path: lastComponent(path), width: width, height: height, limit: limit).description)
        default: return redactingPaths(error.description)
        }
    }

    /// The file name of a path (a name without folders stays as it is).
    static func lastComponent(_ path: String) -> String {
        path.split(separator: "/").last.map(String.init) ?? path
    }

    /// `text` with each absolute file path (`/a/b…`, `~/…`: two components
    /// or more, not an API path `/v1/…`) replaced by `…/` and its last component.
    static func redactingPaths(_ text: String) -> String {
        var result = ""
        var rest = Substring(text)
        while let match = rest.firstMatch(of: pathPattern) {
            let path = match.output.1
            result += String(rest[..<path.startIndex])
            result += "…/" + lastComponent(String(path))
            rest = rest[match.range.upperBound...]
        }
        return result + rest
    }

    /// An absolute path after the start of the text, a space, a quote, `(`, `=` or `,`.
    static var pathPattern: Regex<(Substring, Substring)> { #/(?:^|[\s'"(=,])(~?/(?!v1/)[^\s'"(),;:/]+/[^\s'"(),;:]*)/# }

    /// Turns any error a handler throws into a problem (engine errors keep
    /// their message; anything unexpected is a 500 that names no internals).
    static func from(_ error: any Error) -> any Error {
        switch error {
        case let problem as Problem: return problem
        case let error as PhotoEditError: return Problem(error)
        case let error as HTTPError:
            // Hummingbird's own (unknown route, body too large, bad JSON).
            let code: String
            switch error.status {
            case .notFound: code = "not-found"
            case .contentTooLarge: code = "too-large"
            case .methodNotAllowed: code = "method-not-allowed"
            case .unsupportedMediaType: code = "unsupported-media-type"
            default: code = error.status.code < 500 ? "bad-request" : "internal"
            }
            let detail = error.body ?? error.status.reasonPhrase.lowercased()
            return Problem(error.status, code: code, detail.split(whereSeparator: \.isNewline).joined(separator: " "))
        case is CancellationError:
            return Problem(.serviceUnavailable, code: "cancelled", "the request was cancelled (server shutting down or time-out)")
        default:
            return Problem(.internalServerError, code: "internal", "internal error")
        }
    }
}

/// Entity tags. A photo's answer (`GET /v1/assets/{id}` and every write that
/// answers the photo) is tagged `"rN.HASH"`: its revision N and the first 12
/// hex digits of the SHA-256 of the photo's JSON, so a change that makes no
/// new revision (favorite, hidden, albums, trash, location) changes the tag
/// too. `"rN"` alone names a revision (the form `If-Match` has always taken,
/// and editing inputs give); renders and resources keep their own tags.
enum ETag {
    /// The revision form, `"r7"`.
    static func revision(_ n: Int) -> String { "\"r\(n)\"" }

    /// The whole tag of a photo whose JSON (without `etag`) is `json`.
    static func asset(revision: Int, json: JSONValue) -> String {
        "\"r\(revision).\(SHA256Digest.hex(of: Array(json.canonicalText.utf8)).prefix(12))\""
    }

    /// Does an `If-None-Match` header (a list, or `*`) name `etag`? Weak tags compare as strong.
    static func matches(_ header: String, _ etag: String) -> Bool {
        header.split(separator: ",").contains { item in
            var tag = item.trimmingCharacters(in: .whitespaces)
            if tag == "*" { return true }
            if tag.hasPrefix("W/") { tag.removeFirst(2) }
            return tag == etag
        }
    }

    /// What an `If-Match` header asks: `"r7"`, `W/"r7"` or a bare `7` name
    /// revision 7; a whole tag `"r7.0123456789ab"` names revision 7 with
    /// that metadata. Nil when it is neither.
    static func parsePrecondition(_ header: String) -> Precondition? {
        var text = header.trimmingCharacters(in: .whitespaces)
        if text.hasPrefix("W/") { text.removeFirst(2) }
        text = text.trimmingCharacters(in: CharacterSet(charactersIn: "\""))
        if text.hasPrefix("r") { text.removeFirst() }
        let parts = text.split(separator: ".", maxSplits: 1, omittingEmptySubsequences: false)
        guard let first = parts.first, let n = Int(first), n >= 0 else { return nil }
        guard parts.count == 2 else { return Precondition(revision: n, tag: nil) }
        let hash = parts[1]
        guard hash.count == 12, hash.allSatisfy(\.isHexDigit) else { return nil }
        return Precondition(revision: n, tag: "\"r\(n).\(hash.lowercased())\"")
    }
}

/// The precondition of a write (`If-Match`): the revision it was made from
/// and, when the client sent a photo's whole tag, that tag.
struct Precondition: Sendable, Equatable {
    /// The revision the write was made from.
    let revision: Int
    /// The whole tag (`"rN.HASH"`) when the client sent one: then the photo's
    /// metadata must not have changed either.
    let tag: String?
}

/// Catches every error below it and answers it as problem+json.
struct ProblemMiddleware<Context: RequestContext>: RouterMiddleware {
    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        do {
            return try await next(request, context)
        } catch {
            let problem = Problem.from(error)
            if let problem = problem as? Problem, problem.status.code >= 500, problem.code == "internal" {
                context.logger.error("internal error: \(String(describing: error))")
            }
            throw problem
        }
    }
}
#endif
