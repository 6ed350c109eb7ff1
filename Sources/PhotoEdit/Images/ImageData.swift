import Foundation
import Synchronization

/// The bytes of a version's file, as PhotoKit's `requestImageDataAndOrientation`,
/// streamed in chunks: iterate it with `for try await chunk in data`.
///
/// The file is opened when the request is made, so the bytes stay those of
/// that moment even if the photo is edited or purged while they are read.
public struct ImageData: AsyncSequence, Sendable {
    public typealias Element = Data
    /// Uniform type of the bytes ("public.jpeg", "com.adobe.raw-image", …).
    public let uniformTypeIdentifier: String
    /// How many bytes the sequence delivers.
    public let byteCount: Int
    /// The version the bytes are.
    public let version: ImageVersion
    let reader: ChunkReader

    /// An iterator over the chunks (up to `ImageData.chunkSize` bytes each).
    public func makeAsyncIterator() -> Iterator { Iterator(reader: reader) }

    /// Bytes per chunk.
    public static let chunkSize = 256 * 1024

    /// Reads the chunks in order.
    public struct Iterator: AsyncIteratorProtocol {
        let reader: ChunkReader
        /// The next chunk, nil at the end.
        public mutating func next() async throws -> Data? { try reader.next() }
    }

    /// All the bytes at once.
    public func collect() async throws -> Data {
        var all = Data(capacity: byteCount)
        for try await chunk in self { all.append(chunk) }
        return all
    }
}

/// Reads one open file (or bytes held in memory) in chunks, from any thread.
final class ChunkReader: Sendable {
    private let handle: Mutex<FileHandle?>
    private let held: Mutex<Data?>
    /// How many bytes the reader delivers in all (the file's size when opened).
    let byteCount: Int

    init(path: String) throws {
        guard let h = FileHandle(forReadingAtPath: path) else {
            throw PhotoEditError.unreadableFile(path: (path as NSString).lastPathComponent, reason: "cannot open it")
        }
        var st = stat()
        byteCount = fstat(h.fileDescriptor, &st) == 0 ? Int(st.st_size) : 0
        handle = Mutex(h)
        held = Mutex(nil)
    }

    init(data: Data) {
        byteCount = data.count
        handle = Mutex(nil)
        held = Mutex(data.isEmpty ? nil : data)
    }

    func next() throws -> Data? {
        let inMemory = held.withLock { rest -> Data? in
            guard let all = rest else { return nil }
            let chunk = Data(all.prefix(ImageData.chunkSize))
            rest = all.count > chunk.count ? Data(all.dropFirst(chunk.count)) : nil
            return chunk
        }
        if let inMemory { return inMemory }
        return try handle.withLock { h in
            guard let file = h else { return nil }
            let chunk: Data?
            do {
                chunk = try file.read(upToCount: ImageData.chunkSize)
            } catch {
                throw PhotoEditError.library("reading image data: \(error.localizedDescription)")
            }
            guard let chunk, !chunk.isEmpty else {
                try? file.close()
                h = nil
                return nil
            }
            return chunk
        }
    }
}

extension ImageManager {
    /// The bytes and type of a version's file, streamed (PhotoKit's
    /// `requestImageDataAndOrientation`; the orientation is always up, except
    /// for an original, which is the file as imported):
    /// - `original`: the original file, byte for byte;
    /// - `current`: the stored full-size render of the latest revision
    ///   (rebuilt from its recipe if the file is missing); the original file
    ///   when the photo has no adjustments, as PhotoKit does;
    /// - `unadjusted`: the original rendered upright to sRGB (a JPEG, Q92).
    public func requestImageData(for idOrPrefix: String, options: ImageRequestOptions = ImageRequestOptions()) throws -> ImageData {
        let s = try library.imageSubject(idOrPrefix, version: options.version)
        let asset = try library.asset(s.id)
        var path: String
        var type: String
        var rendered = false
        switch options.version {
        case .original:
            (path, type) = (s.originalPath, asset.uniformTypeIdentifier)
        case .current where !s.showsAdjustments:
            (path, type) = (s.originalPath, asset.uniformTypeIdentifier)
        case .current where s.renderPath.map(FileIO.exists) == true:
            path = s.renderPath!
            type = Importer.uniformType(forExtension: (path as NSString).pathExtension)
        case .current, .unadjusted:
            path = library.layout.temporary(".jpg")
            type = "public.jpeg"
            rendered = true
            try library.render(s.id, version: options.version, to: path)
        }
        defer { if rendered { unlink(path) } }   // the open file stays readable
        let reader = try ChunkReader(path: path)
        return ImageData(uniformTypeIdentifier: type, byteCount: reader.byteCount, version: options.version, reader: reader)
    }
}
