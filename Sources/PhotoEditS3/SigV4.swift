// Only with the `Server` trait (Package.swift): without it the module is empty.
#if Server
import Foundation
import PhotoEdit

/// AWS Signature Version 4 (header form), as S3 computes it: each path segment
/// percent-encoded once (no normalisation), the query sorted by encoded name
/// then value, headers lower-cased, trimmed and sorted.
///
/// Verified against AWS's published test vectors (the `aws-sig-v4-test-suite`
/// cases that S3 signs the same way, and the examples of the S3 API reference),
/// committed under `Tests/PhotoEditStorageTests/Fixtures/sigv4`.
public struct SigV4Signer: Sendable {
    /// The credentials and the scope they sign for.
    public var credentials: S3Credentials
    /// The region of the scope (`us-east-1` for SeaweedFS unless configured).
    public var region: String
    /// The service of the scope (`s3`).
    public var service: String

    public init(credentials: S3Credentials, region: String, service: String = "s3") {
        self.credentials = credentials
        self.region = region
        self.service = service
    }

    /// The parts of a signature, each checkable on its own against the vectors.
    public struct Signature: Sendable {
        /// The canonical request text.
        public let canonicalRequest: String
        /// The string to sign (algorithm, date, scope, hash of the canonical request).
        public let stringToSign: String
        /// The `;`-separated lower-case names of the signed headers.
        public let signedHeaders: String
        /// The hex signature.
        public let signature: String
        /// The `Authorization` header value.
        public let authorization: String
    }

    /// Signs a request. `path` is the decoded path (`/bucket/key`), `query` the
    /// decoded name/value pairs, `headers` every header to sign (it must hold
    /// `host` and `x-amz-date`), `payloadHash` the hex SHA-256 of the body (or
    /// `UNSIGNED-PAYLOAD`), `date` the instant in `x-amz-date`.
    public func sign(method: String, path: String, query: [(String, String)], headers: [(String, String)],
                     payloadHash: String, date: Date) -> Signature {
        let canonicalURI = path.split(separator: "/", omittingEmptySubsequences: false)
            .map { SigV4Signer.encode(String($0)) }.joined(separator: "/")
        let encodedQuery: [(name: String, value: String)] = query.map { pair in
            (name: SigV4Signer.encode(pair.0), value: SigV4Signer.encode(pair.1))
        }
        let sortedQuery = encodedQuery.sorted { (a: (name: String, value: String), b: (name: String, value: String)) -> Bool in
            a.name == b.name ? a.value < b.value : a.name < b.name
        }
        let canonicalQuery = sortedQuery.map { pair -> String in pair.name + "=" + pair.value }.joined(separator: "&")
        var merged: [String: [String]] = [:]
        for (name, value) in headers {
            merged[name.lowercased(), default: []].append(SigV4Signer.trim(value))
        }
        let sortedHeaders = merged.sorted { $0.key < $1.key }
        let canonicalHeaders = sortedHeaders.map { "\($0.key):\($0.value.joined(separator: ","))\n" }.joined()
        let signedHeaders = sortedHeaders.map(\.key).joined(separator: ";")
        let canonicalRequest = [method, canonicalURI.isEmpty ? "/" : canonicalURI, canonicalQuery,
                                canonicalHeaders, signedHeaders, payloadHash].joined(separator: "\n")
        let stamp = SigV4Signer.timestamp(date)
        let day = String(stamp.prefix(8))
        let scope = "\(day)/\(region)/\(service)/aws4_request"
        let stringToSign = ["AWS4-HMAC-SHA256", stamp, scope, SHA256Digest.hex(of: Array(canonicalRequest.utf8))]
            .joined(separator: "\n")
        var key = Array("AWS4\(credentials.secretAccessKey)".utf8)
        for part in [day, region, service, "aws4_request"] {
            key = SHA256Digest.hmac(key: key, message: Array(part.utf8))
        }
        let signature = SHA256Digest.hex(SHA256Digest.hmac(key: key, message: Array(stringToSign.utf8)))
        let authorization = "AWS4-HMAC-SHA256 Credential=\(credentials.accessKeyID)/\(scope), SignedHeaders=\(signedHeaders), Signature=\(signature)"
        return Signature(canonicalRequest: canonicalRequest, stringToSign: stringToSign,
                         signedHeaders: signedHeaders, signature: signature, authorization: authorization)
    }

    /// `YYYYMMDD'T'HHMMSS'Z'` in UTC.
    public static func timestamp(_ date: Date) -> String {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = .gmt
        let c = calendar.dateComponents([.year, .month, .day, .hour, .minute, .second], from: date)
        return String(format: "%04d%02d%02dT%02d%02d%02dZ", c.year!, c.month!, c.day!, c.hour!, c.minute!, c.second!)
    }

    /// Hex SHA-256 of bytes.
    public static func sha256Hex(_ data: Data) -> String { SHA256Digest.hex(of: data) }

    /// The hex SHA-256 of no bytes.
    public static let emptyPayloadHash = "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"

    /// Percent-encodes every byte but the unreserved `A-Z a-z 0-9 - . _ ~`.
    public static func encode(_ text: String) -> String {
        var out = ""
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
                 UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "."),
                 UInt8(ascii: "_"), UInt8(ascii: "~"):
                out.unicodeScalars.append(UnicodeScalar(byte))
            default:
                out += String(format: "%%%02X", byte)
            }
        }
        return out
    }

    private static func trim(_ value: String) -> String {
        value.split(whereSeparator: { $0 == " " || $0 == "\t" }).joined(separator: " ")
    }
}

/// Credentials for an S3-compatible store.
public struct S3Credentials: Sendable, Equatable {
    /// The access key id (`AWS_ACCESS_KEY_ID`).
    public var accessKeyID: String
    /// The secret (`AWS_SECRET_ACCESS_KEY`); never printed.
    public var secretAccessKey: String
    /// A session token for temporary credentials (`AWS_SESSION_TOKEN`), sent as `x-amz-security-token`.
    public var sessionToken: String?

    public init(accessKeyID: String, secretAccessKey: String, sessionToken: String? = nil) {
        self.accessKeyID = accessKeyID
        self.secretAccessKey = secretAccessKey
        self.sessionToken = sessionToken
    }
}
#endif
