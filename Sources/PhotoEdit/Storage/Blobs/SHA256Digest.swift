import Crypto
import Foundation

/// The package's one SHA-256 and HMAC-SHA256 (swift-crypto): the importer's
/// and the copier's file digests, content addresses of blobs, LUT file
/// digests, the server's token hashes, ETags and signed URLs, and S3's SigV4.
///
/// Digests are lowercase hex, byte for byte what `sha256sum` prints (the
/// catalog stores them: `asset.sha256`, blob keys). Streaming: feed bytes in
/// pieces with `update`, then ``finish()``; a file's digest is `FileIO.sha256(of:)`.
package struct SHA256Digest: Sendable {
    private var hasher = SHA256()

    package init() {}

    package mutating func update(_ bytes: UnsafeRawBufferPointer) {
        guard !bytes.isEmpty else { return }
        hasher.update(bufferPointer: bytes)
    }

    package mutating func update(_ data: some DataProtocol) {
        hasher.update(data: data)
    }

    /// The lowercase hex digest of everything fed so far.
    package func finish() -> String { Self.hex(hasher.finalize()) }

    /// The lowercase hex SHA-256 of `data`.
    package static func hex(of data: some DataProtocol) -> String { hex(SHA256.hash(data: data)) }

    /// HMAC-SHA256 of `message` keyed with `key` (RFC 2104): the 32 raw bytes.
    package static func hmac(key: some ContiguousBytes, message: some DataProtocol) -> [UInt8] {
        Array(HMAC<SHA256>.authenticationCode(for: message, using: SymmetricKey(data: key)))
    }

    /// Whether two byte strings are equal, in a time that depends only on
    /// their lengths (comparing a MAC or a token hash an attacker chose).
    package static func constantTimeEqual(_ a: [UInt8], _ b: [UInt8]) -> Bool {
        guard a.count == b.count else { return false }
        var difference: UInt8 = 0
        for i in a.indices { difference |= a[i] ^ b[i] }
        return difference == 0
    }

    /// Lowercase hex of any bytes (a digest, a MAC).
    package static func hex(_ bytes: some Sequence<UInt8>) -> String {
        let digits = Array("0123456789abcdef".utf8)
        var out: [UInt8] = []
        out.reserveCapacity(64)
        for byte in bytes {
            out.append(digits[Int(byte >> 4)])
            out.append(digits[Int(byte & 0x0f)])
        }
        return String(decoding: out, as: UTF8.self)
    }
}
