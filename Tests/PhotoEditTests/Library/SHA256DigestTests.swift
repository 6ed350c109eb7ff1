import Foundation
import Testing
@testable import PhotoEdit

/// The package's one SHA-256/HMAC (swift-crypto) gives exactly the digests
/// the catalog already stores: byte for byte what coreutils' `sha256sum`
/// prints, for files read whole, streamed in pieces, copied while hashing,
/// and for blobs stored under their content address.
@Suite("SHA256Digest") struct SHA256DigestTests {
    /// `sha256sum FILE`'s digest (a separate implementation: GNU coreutils).
    static func sha256sum(_ path: String) throws -> String {
        String(try Tool.output("/usr/bin/sha256sum", [path]).prefix(64))
    }

    /// Every sample (JPEG, PNG, TIFF, HEIC, RAW…), an empty file, and files
    /// around the 1 MiB read size.
    static func files(in folder: TemporaryDirectory) throws -> [String] {
        let samples = try FileManager.default.contentsOfDirectory(atPath: Paths.samples.path).sorted()
            .map(Paths.sample).filter { !FileIO.isDirectory($0) }
        var made: [String] = []
        for size in [0, 1, (1 << 20) - 1, 1 << 20, (1 << 20) + 1, 3 << 20] {
            let path = folder.file("bytes-\(size)")
            var generator = SystemRandomNumberGenerator()
            let bytes = (0..<size).map { _ in UInt8.random(in: 0...255, using: &generator) }
            try FileIO.writeFlushed(Data(bytes), to: path)
            made.append(path)
        }
        return samples + made
    }

    @Test func fileDigestsAreWhatSha256sumPrints() throws {
        let folder = TemporaryDirectory()
        let files = try Self.files(in: folder)
        #expect(files.count >= 10)
        for file in files {
            let expected = try Self.sha256sum(file)
            #expect(expected.count == 64)
            #expect(try FileIO.sha256(of: file) == expected, "\(file)")
            // Copied while hashing (the importer's path).
            let copy = folder.file("copy-\(UUID().uuidString)")
            let (digest, size) = try FileIO.copyHashing(from: file, to: copy)
            #expect(digest == expected, "\(file)")
            #expect(size == FileIO.size(file))
            #expect(try Self.sha256sum(copy) == expected)
        }
    }

    @Test func streamedInAnyPiecesIsTheWholeDigest() throws {
        let data = try Data(contentsOf: URL(fileURLWithPath: Paths.sample("coffee.jpg")))
        let whole = SHA256Digest.hex(of: data)
        #expect(whole == (try Self.sha256sum(Paths.sample("coffee.jpg"))))
        for piece in [1, 7, 64, 1000, 65_537] {
            var digest = SHA256Digest()
            var offset = 0
            while offset < data.count {
                let end = min(data.count, offset + piece)
                data[offset..<end].withUnsafeBytes { digest.update($0) }
                offset = end
            }
            #expect(digest.finish() == whole, "pieces of \(piece)")
        }
        // FIPS 180-2's "abc" and the empty string.
        #expect(SHA256Digest.hex(of: Array("abc".utf8)) == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
        #expect(SHA256Digest().finish() == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")
    }

    /// RFC 4231's HMAC-SHA256 test cases 1, 2 and 6 (a key longer than a block).
    @Test func hmacMatchesRFC4231() {
        #expect(SHA256Digest.hex(SHA256Digest.hmac(key: [UInt8](repeating: 0x0b, count: 20), message: Array("Hi There".utf8)))
                == "b0344c61d8db38535ca8afceaf0bf12b881dc200c9833da726e9376c2e32cff7")
        #expect(SHA256Digest.hex(SHA256Digest.hmac(key: Array("Jefe".utf8), message: Array("what do ya want for nothing?".utf8)))
                == "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843")
        #expect(SHA256Digest.hex(SHA256Digest.hmac(key: [UInt8](repeating: 0xaa, count: 131),
                                                  message: Array("Test Using Larger Than Block-Size Key - Hash Key First".utf8)))
                == "60e431591ee0b67f0d8a26aacbf5b77f8e0bc6213728c5140546040f0ee37f54")
        #expect(SHA256Digest.constantTimeEqual([1, 2, 3], [1, 2, 3]))
        #expect(!SHA256Digest.constantTimeEqual([1, 2, 3], [1, 2, 4]))
        #expect(!SHA256Digest.constantTimeEqual([1, 2, 3], [1, 2]))
    }

    /// A blob's content address is the `sha256sum` of its bytes, whether it
    /// is stored from a file, from memory or from a stream.
    @Test func contentAddressesAreSha256sum() async throws {
        let folder = TemporaryDirectory()
        let store = try FolderBlobStore(root: URL(fileURLWithPath: folder.file("blobs")))
        let file = Paths.sample("coffee.jpg")
        let expected = try Self.sha256sum(file)
        let data = try Data(contentsOf: URL(fileURLWithPath: file))
        let fromFile = try await store.putContentAddressed(namespace: "t", from: .file(URL(fileURLWithPath: file)), fileExtension: "jpg")
        let fromData = try await store.putContentAddressed(namespace: "t", from: .data(data), fileExtension: "jpg")
        let stream = AsyncThrowingStream<Data, any Error> { continuation in
            stride(from: 0, to: data.count, by: 100_000).forEach { continuation.yield(data[$0..<min(data.count, $0 + 100_000)]) }
            continuation.finish()
        }
        let fromStream = try await store.putContentAddressed(namespace: "t", from: .stream(stream), fileExtension: "jpg")
        let key = "t/sha256/\(expected.prefix(2))/\(expected).jpg"
        #expect(fromFile.key.rawValue == key)
        #expect(fromData.key.rawValue == key)
        #expect(fromStream.key.rawValue == key)
    }
}
