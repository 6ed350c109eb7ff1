import Foundation
import Testing
@testable import PhotoEdit

/// Issue 10 §3: a server has bytes, not paths. `createAsset` from `Data` and
/// from an `AsyncSequence` of bytes, streamed to a staging file within the
/// size limit, then the import path of a file (decoded whole, checked).
@Suite("Creating photos from bytes")
struct CreateFromBytesTests {
    /// Bytes in pieces of `size`, each after a suspension, as a network body arrives.
    struct Pieces: AsyncSequence, Sendable {
        typealias Element = Data
        let data: Data
        let size: Int
        struct AsyncIterator: AsyncIteratorProtocol {
            var rest: Data
            let size: Int
            mutating func next() async -> Data? {
                guard !rest.isEmpty else { return nil }
                await Task.yield()
                defer { rest = rest.dropFirst(size) }
                return Data(rest.prefix(size))
            }
        }
        func makeAsyncIterator() -> AsyncIterator { AsyncIterator(rest: data, size: size) }
    }

    /// Bytes one at a time, suspending now and then.
    struct Bytes: AsyncSequence, Sendable {
        typealias Element = UInt8
        let data: Data
        struct AsyncIterator: AsyncIteratorProtocol {
            let data: Data
            var index: Int
            mutating func next() async -> UInt8? {
                guard index < data.endIndex else { return nil }
                if index % 4096 == 0 { await Task.yield() }
                defer { index += 1 }
                return data[index]
            }
        }
        func makeAsyncIterator() -> AsyncIterator { AsyncIterator(data: data, index: data.startIndex) }
    }

    /// Bytes that never end (an upload that does not stop).
    struct Endless: AsyncSequence, Sendable {
        typealias Element = UInt8
        struct AsyncIterator: AsyncIteratorProtocol {
            mutating func next() async -> UInt8? { 0xFF }
        }
        func makeAsyncIterator() -> AsyncIterator { AsyncIterator() }
    }

    static func library() throws -> (TemporaryDirectory, PhotoLibrary) {
        let temp = TemporaryDirectory("photoedit-bytes")
        return (temp, try PhotoLibrary(url: URL(fileURLWithPath: temp.file("library"))))
    }

    static func bytes(_ path: String) throws -> Data { try Data(contentsOf: URL(fileURLWithPath: path)) }

    @Test func fromDataSyncAndInAChangeBlock() throws {
        let (temp, library) = try Self.library()
        defer { withExtendedLifetime(temp) {} }
        let data = try Self.bytes(Paths.sample("coffee.jpg"))
        let created = try library.createAsset(from: data, filename: "IMG_0001.JPG")
        #expect(!created.existed)
        let asset = try library.asset(created.localIdentifier)
        let sha = try Hashing.sha256(Paths.sample("coffee.jpg"))
        #expect(asset.originalFilename == "IMG_0001.JPG" && asset.format == "jpeg" && asset.sha256 == sha)
        #expect(try library.createAsset(from: data).existed, "the same bytes again: the photo that has them")
        // In a change block, with other requests, all-or-nothing.
        var placeholder: ObjectPlaceholder?
        try library.performChanges { changes in
            placeholder = changes.createAsset(from: try Self.bytes(Paths.sample("chelsea.jpg")))
            _ = changes.createAlbum(title: "Uploads")
        }
        let second = try library.asset(try #require(placeholder).localIdentifier)
        #expect(second.originalFilename.hasSuffix(".jpg") && second.originalFilename.hasPrefix(second.sha256), "named by its hash")
        #expect(try library.verify().isClean)
    }

    @Test func fromAsyncSequences() async throws {
        let (temp, library) = try Self.library()
        defer { withExtendedLifetime(temp) {} }
        let png = try Self.bytes(Paths.sample("chart.png"))
        let byChunks = try await library.createAsset(fromChunks: Pieces(data: png, size: 4000), filename: "chart.png")
        let asset = try await BlockingExecutor.run { try library.asset(byChunks.localIdentifier) }
        #expect(asset.format == "png" && asset.fileSize == Int64(png.count) && asset.originalFilename == "chart.png")
        let jpeg = try Self.bytes(Paths.sample("coffee.jpg"))
        let byBytes = try await library.createAsset(from: Bytes(data: jpeg), filename: "coffee.jpg")
        let sha = try Hashing.sha256(Paths.sample("coffee.jpg"))
        #expect(try await BlockingExecutor.run { try library.asset(byBytes.localIdentifier) }.sha256 == sha)
        let byData = try await BlockingExecutor.run { try library.createAsset(from: jpeg) }
        #expect(byData.existed && byData.localIdentifier == byBytes.localIdentifier)
        #expect(try await BlockingExecutor.run { try library.verify() }.isClean)
    }

    /// Bytes in pieces of the sizes given (the last repeated), as a network body arrives.
    struct Sized: AsyncSequence, Sendable {
        typealias Element = Data
        let data: Data
        let sizes: [Int]
        struct AsyncIterator: AsyncIteratorProtocol {
            var rest: Data
            var sizes: [Int]
            mutating func next() async -> Data? {
                guard !rest.isEmpty, let size = sizes.first else { return nil }
                if sizes.count > 1 { sizes.removeFirst() }
                await Task.yield()
                defer { rest = rest.dropFirst(size) }
                return Data(rest.prefix(size))
            }
        }
        func makeAsyncIterator() -> AsyncIterator { AsyncIterator(rest: data, sizes: sizes) }
    }

    /// An upload of several megabytes arrives in pieces that straddle the
    /// staging buffer's 1 MiB (`StagedUpload`), one of them larger than it:
    /// the staged file is the bytes sent, byte for byte.
    @Test func piecesAcrossTheStagingBuffer() async throws {
        let (temp, library) = try Self.library()
        defer { withExtendedLifetime(temp) {} }
        // coffee.jpg with 3.2 MB of comment segments after its SOI marker (decoders skip them).
        let jpeg = try Self.bytes(Paths.sample("coffee.jpg"))
        var padded = Data(jpeg.prefix(2))
        for index in 0..<50 {
            let text = Data(repeating: UInt8(ascii: "a") &+ UInt8(index % 26), count: 65_000)
            padded.append(contentsOf: [0xFF, 0xFE, UInt8((text.count + 2) >> 8), UInt8((text.count + 2) & 0xFF)])
            padded.append(text)
        }
        padded.append(jpeg.dropFirst(2))
        #expect(padded.count > 3 * StagedUpload.pieceBytes)
        let sizes = [7, StagedUpload.pieceBytes - 8, 2, StagedUpload.pieceBytes + 4097, 333_333]
        let created = try await library.createAsset(fromChunks: Sized(data: padded, sizes: sizes), filename: "padded.jpg")
        let asset = try await BlockingExecutor.run { try library.asset(created.localIdentifier) }
        #expect(asset.fileSize == Int64(padded.count))
        #expect(asset.sha256 == SHA256Digest.hex(of: padded))
        let original = try Self.bytes(try await BlockingExecutor.run { try library.originalPath(created.localIdentifier) })
        #expect(original == padded)
    }

    /// Damaged bytes are refused as a damaged file is, naming the upload,
    /// and leave nothing behind (no original, no staging file).
    @Test func damagedBytesAreRefusedAndLeaveNothing() async throws {
        let (temp, library) = try Self.library()
        let truncated = try Self.bytes(Paths.bad("truncated.jpg"))
        #expect {
            try library.createAsset(from: truncated, filename: "IMG_0002.JPG")
        } throws: { error in
            guard case PhotoEditError.unreadableFile(let path, _) = error else { return false }
            return path == "IMG_0002.JPG"
        }
        await #expect(throws: PhotoEditError.self) {
            try await library.createAsset(fromChunks: Pieces(data: truncated, size: 1000))
        }
        #expect(throws: PhotoEditError.self) { try library.createAsset(from: Data("not an image".utf8), filename: "../../etc/x.jpg") }
        let files = try Hashing.tree(temp.file("library")).keys.filter { !$0.hasPrefix("catalog") && $0 != "library.lock" }
        #expect(files.isEmpty, "\(files.sorted())")
        #expect(try await BlockingExecutor.run { try library.assets() }.isEmpty)
    }

    /// A stream is counted while it arrives: one that never ends stops at
    /// the size limit, its staging file removed.
    @Test func anEndlessStreamStopsAtTheSizeLimit() async throws {
        let (temp, library) = try Self.library()
        await #expect {
            try await library.importing.createAsset(streaming: "endless.jpg", limit: 3 << 20) { upload in
                var chunk: [UInt8] = []
                for try await byte in Endless() {
                    chunk.append(byte)
                    if chunk.count == 1 << 16 { try await upload.append(chunk); chunk.removeAll(keepingCapacity: true) }
                }
            }
        } throws: { error in
            "\(error)".contains("endless.jpg: larger than the limit of 3 MB (PHOTOEDIT_MAX_FILE_SIZE)")
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: temp.file("library/tmp")).isEmpty)
    }
}
