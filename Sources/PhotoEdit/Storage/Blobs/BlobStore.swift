import CVips
import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// A store of immutable-by-convention byte blobs under string keys: the seam
/// between the engine and where originals, renders, adjustment data and the
/// derivative cache live (a local folder, an S3-compatible object store).
///
/// ## Contract (every implementation honours it; `PhotoEditStorageTests`
/// runs the same suite against each)
/// - **Keys** are validated ``BlobKey``s: `/`-separated segments of
///   `[A-Za-z0-9._=+-]`, none empty or starting with `.`, at most 1024 bytes.
///   A key never names anything outside the store.
/// - **put** streams the source (a file, bytes, or an async sequence of
///   chunks) and is atomic: a reader sees the old blob, the whole new one, or
///   nothing — never a part. With `ifAbsent: true` the put is conditional: if
///   a blob already exists under the key, nothing is written and the result is
///   ``BlobPutOutcome/existed``; of two racing conditional puts exactly one
///   creates the blob. Content-addressed keys (``BlobStore/putContentAddressed(namespace:from:fileExtension:)``)
///   make the two racing bodies identical, so either outcome is correct.
/// - **get** streams the blob's bytes in chunks; a missing key throws
///   ``BlobStoreError/notFound(key:)`` before any byte is delivered. A reader
///   that started keeps reading the version it opened (folder) or fails with a
///   typed error (object store); it never mixes two versions silently.
/// - **head** returns the blob's size (and tag/date when the store has them),
///   or `nil` when absent.
/// - **delete** is idempotent: deleting a missing key succeeds.
/// - **list** returns blobs whose key starts with `prefix` (a plain string
///   prefix, not a folder), in ascending byte order of the key, strictly after
///   `after`, at most `limit` (1...1000) per call; page by passing the last key.
/// - **Errors** are ``BlobStoreError``s that carry the underlying message
///   (errno text, S3's error code); an error never contains blob content.
public protocol BlobStore: Sendable {
    /// Where the blobs live, for messages (`folder /srv/lib/blobs`, `s3://bucket/prefix`).
    var location: String { get }

    /// Stores `source` under `key`; see the contract above for atomicity and `ifAbsent`.
    func put(_ key: BlobKey, from source: BlobSource, ifAbsent: Bool) async throws -> BlobPutOutcome

    /// Opens the blob for streamed reading; throws ``BlobStoreError/notFound(key:)`` when absent.
    func get(_ key: BlobKey) async throws -> BlobContent

    /// The blob's metadata, or `nil` when there is no blob under `key`.
    func head(_ key: BlobKey) async throws -> BlobInfo?

    /// Removes the blob; succeeds when there is none.
    func delete(_ key: BlobKey) async throws

    /// One page of blobs whose key starts with `prefix`, ascending, strictly after `after`.
    func list(prefix: String, after: BlobKey?, limit: Int) async throws -> [BlobInfo]
}

/// A validated blob key (see ``BlobStore`` for the rules).
public struct BlobKey: Hashable, Comparable, Sendable, CustomStringConvertible {
    /// The longest key, in UTF-8 bytes (S3's own limit).
    public static let maxLength = 1024
    /// The key text.
    public let rawValue: String

    /// Validates `rawValue`; throws ``BlobStoreError/invalidKey(key:problem:)``.
    public init(_ rawValue: String) throws {
        if let problem = BlobKey.problem(in: rawValue) {
            throw BlobStoreError.invalidKey(key: BlobStoreError.excerpt(rawValue), problem: problem)
        }
        self.rawValue = rawValue
    }

    /// The key for content whose SHA-256 is `sha256` (64 lowercase hex digits):
    /// `namespace/sha256/ab/abcdef….ext`, spread over 256 folders.
    public static func contentAddressed(namespace: String, sha256: String, fileExtension: String? = nil) throws -> BlobKey {
        guard sha256.utf8.count == 64, sha256.utf8.allSatisfy({ (48...57).contains($0) || (97...102).contains($0) }) else {
            throw BlobStoreError.invalidKey(key: BlobStoreError.excerpt(sha256), problem: "not a lowercase SHA-256 hex digest")
        }
        let ext = fileExtension.map { "." + $0.lowercased() } ?? ""
        return try BlobKey("\(namespace)/sha256/\(sha256.prefix(2))/\(sha256)\(ext)")
    }

    static func problem(in text: String) -> String? {
        if text.isEmpty { return "is empty" }
        if text.utf8.count > maxLength { return "is longer than \(maxLength) bytes" }
        for segment in text.utf8.split(separator: UInt8(ascii: "/"), omittingEmptySubsequences: false) {
            if segment.isEmpty { return "has an empty segment (a leading, trailing or doubled '/')" }
            if segment.first == UInt8(ascii: ".") { return "has a segment starting with '.'" }
            if segment.count > 255 { return "has a segment longer than 255 bytes" }
            for byte in segment where !BlobKey.allowed(byte) {
                return "contains a character other than A-Z a-z 0-9 . _ = + - and '/'"
            }
        }
        return nil
    }

    static func allowed(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
             UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "."), UInt8(ascii: "_"),
             UInt8(ascii: "="), UInt8(ascii: "+"), UInt8(ascii: "-"):
            return true
        default:
            return false
        }
    }

    public var description: String { rawValue }

    /// Byte order of the UTF-8 text (S3's listing order).
    public static func < (lhs: BlobKey, rhs: BlobKey) -> Bool {
        lhs.rawValue.utf8.lexicographicallyPrecedes(rhs.rawValue.utf8)
    }
}

/// What a store knows about one blob.
public struct BlobInfo: Equatable, Sendable {
    /// The blob's key.
    public var key: BlobKey
    /// Its size in bytes.
    public var size: Int64
    /// The store's entity tag (S3's ETag, quotes removed), when it has one.
    public var etag: String?
    /// When the blob was last written, when the store records it.
    public var lastModified: Date?

    public init(key: BlobKey, size: Int64, etag: String? = nil, lastModified: Date? = nil) {
        self.key = key
        self.size = size
        self.etag = etag
        self.lastModified = lastModified
    }
}

/// The bytes a put stores.
public enum BlobSource: Sendable {
    /// A local file, streamed (never read whole into memory).
    case file(URL)
    /// Bytes in memory.
    case data(Data)
    /// Chunks from any producer (a network body, an encoder); consumed once.
    case stream(AsyncThrowingStream<Data, any Error>)
}

/// What a put did.
public enum BlobPutOutcome: Equatable, Sendable {
    /// The blob was written.
    case created(BlobInfo)
    /// `ifAbsent` was set and a blob already existed under the key; nothing was written.
    case existed
}

/// An opened blob: its metadata and its bytes, streamed.
public struct BlobContent: Sendable {
    /// The blob's metadata as of opening.
    public let info: BlobInfo
    /// The bytes in chunks (a few hundred KiB to a few MiB each); consumed once.
    public let chunks: AsyncThrowingStream<Data, any Error>

    public init(info: BlobInfo, chunks: AsyncThrowingStream<Data, any Error>) {
        self.info = info
        self.chunks = chunks
    }
}

/// A blob store failed; every case carries enough to act on, none carries blob content.
public enum BlobStoreError: Error, Equatable, Sendable, CustomStringConvertible {
    /// A key that breaks the key rules (the key is shown truncated).
    case invalidKey(key: String, problem: String)
    /// No blob under this key.
    case notFound(key: String)
    /// A local file operation failed; `message` is the system's text.
    case io(operation: String, path: String, message: String)
    /// The object store answered with an error: HTTP status, its error code
    /// (`NoSuchKey`, `AccessDenied`, `PreconditionFailed`, …) and message.
    case service(status: Int, code: String, message: String, key: String?)
    /// The object store could not be reached or the connection broke.
    case transport(String)
    /// Bytes read or written do not match what was announced (size, hash).
    case integrity(key: String, problem: String)
    /// The store is configured wrongly (missing credentials, bad endpoint, bad bound).
    case configuration(String)

    public var description: String {
        switch self {
        case let .invalidKey(key, problem): return "invalid blob key \"\(key)\": \(problem)"
        case let .notFound(key): return "no blob under \(key)"
        case let .io(operation, path, message): return "cannot \(operation) \(path): \(message)"
        case let .service(status, code, message, key):
            return "object store error \(code) (HTTP \(status))\(key.map { " for \($0)" } ?? ""): \(message)"
        case let .transport(message): return "object store unreachable: \(message)"
        case let .integrity(key, problem): return "blob \(key) is damaged: \(problem)"
        case let .configuration(message): return "blob store configuration: \(message)"
        }
    }

    /// At most 80 characters of user text, control characters escaped.
    static func excerpt(_ text: String) -> String {
        var out = ""
        for scalar in text.unicodeScalars.prefix(80) {
            if scalar.value < 0x20 || scalar.value == 0x7f { out += String(format: "\\x%02x", scalar.value) }
            else { out.unicodeScalars.append(scalar) }
        }
        return text.unicodeScalars.count > 80 ? out + "…" : out
    }
}

// MARK: - Conveniences every store gets

extension BlobStore {
    /// Stores `source` under its content address (`namespace/sha256/ab/<sha256>.ext`)
    /// with a conditional put, so identical content is stored once and a racing
    /// writer of the same content is harmless. A `.stream` source is spooled to a
    /// temporary file while hashing (the key must be known before the put).
    public func putContentAddressed(namespace: String, from source: BlobSource, fileExtension: String? = nil) async throws -> (key: BlobKey, outcome: BlobPutOutcome) {
        switch source {
        case let .file(url):
            let reader = try BlobSourceReader(.file(url))
            var hasher = SHA256Digest()
            while let chunk = try reader.readFileChunk(upTo: 1 << 20) { hasher.update(chunk) }
            let digest = hasher.finish()
            let key = try BlobKey.contentAddressed(namespace: namespace, sha256: digest, fileExtension: fileExtension)
            return (key, try await put(key, from: source, ifAbsent: true))
        case let .data(data):
            let key = try BlobKey.contentAddressed(namespace: namespace, sha256: SHA256Digest.hex(of: data), fileExtension: fileExtension)
            return (key, try await put(key, from: source, ifAbsent: true))
        case let .stream(chunks):
            let spool = FileManager.default.temporaryDirectory
                .appendingPathComponent("photoedit-spool-\(UUID().uuidString)")
            defer { try? FileManager.default.removeItem(at: spool) }
            guard FileManager.default.createFile(atPath: spool.path, contents: nil, attributes: [.posixPermissions: 0o600]),
                  let handle = FileHandle(forWritingAtPath: spool.path) else {
                throw BlobStoreError.io(operation: "create", path: spool.path, message: String(cString: strerror(errno)))
            }
            var hasher = SHA256Digest()
            do {
                for try await chunk in chunks {
                    hasher.update(chunk)
                    try handle.write(contentsOf: chunk)
                }
                try handle.close()
            } catch let error as BlobStoreError {
                try? handle.close()
                throw error
            } catch {
                try? handle.close()
                throw BlobStoreError.io(operation: "spool", path: spool.path, message: "\(error)")
            }
            let key = try BlobKey.contentAddressed(namespace: namespace, sha256: hasher.finish(), fileExtension: fileExtension)
            return (key, try await put(key, from: .file(spool), ifAbsent: true))
        }
    }

    /// Reads the whole blob into memory, refusing one larger than `limit` bytes.
    public func data(for key: BlobKey, limit: Int64 = 256 << 20) async throws -> Data {
        let content = try await get(key)
        guard content.info.size <= limit else {
            throw BlobStoreError.integrity(key: key.rawValue, problem: "\(content.info.size) bytes is more than the \(limit)-byte limit of an in-memory read")
        }
        var data = Data(capacity: Int(content.info.size))
        for try await chunk in content.chunks {
            data.append(chunk)
            if Int64(data.count) > limit {
                throw BlobStoreError.integrity(key: key.rawValue, problem: "more than the \(limit)-byte limit of an in-memory read")
            }
        }
        return data
    }

    /// Streams the blob into a local file: written beside `destination` under a
    /// temporary name, flushed, checked against the announced size, then renamed
    /// (the destination appears whole or not at all). Returns the blob's info.
    @discardableResult
    public func download(_ key: BlobKey, to destination: URL) async throws -> BlobInfo {
        let content = try await get(key)
        let temp = destination.deletingLastPathComponent()
            .appendingPathComponent(".\(destination.lastPathComponent).part-\(UUID().uuidString.prefix(8))")
        let fd = open(temp.path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o644)
        guard fd >= 0 else { throw BlobStoreError.io(operation: "create", path: temp.path, message: String(cString: strerror(errno))) }
        var done = false
        defer {
            if fd >= 0 { close(fd) }
            if !done { unlink(temp.path) }
        }
        var total: Int64 = 0
        for try await chunk in content.chunks {
            try FolderBlobStore.writeAll(fd, chunk, path: temp.path)
            total += Int64(chunk.count)
        }
        guard total == content.info.size else {
            throw BlobStoreError.integrity(key: key.rawValue, problem: "read \(total) bytes of \(content.info.size)")
        }
        guard fsync(fd) == 0 else { throw BlobStoreError.io(operation: "flush", path: temp.path, message: String(cString: strerror(errno))) }
        guard rename(temp.path, destination.path) == 0 else {
            throw BlobStoreError.io(operation: "rename into", path: destination.path, message: String(cString: strerror(errno)))
        }
        done = true
        return content.info
    }

    /// Every blob under `prefix`, paging through ``list(prefix:after:limit:)``.
    public func listAll(prefix: String, pageSize: Int = 1000) async throws -> [BlobInfo] {
        var all: [BlobInfo] = []
        var after: BlobKey?
        while true {
            let page = try await list(prefix: prefix, after: after, limit: pageSize)
            all += page
            guard page.count == pageSize, let last = page.last else { return all }
            after = last.key
        }
    }
}

/// Reads a ``BlobSource`` in chunks of a requested size (used by every store's put).
package final class BlobSourceReader {
    private var fd: Int32 = -1
    private let path: String
    private var memory: Data?
    private var offset = 0
    private var iterator: AsyncThrowingStream<Data, any Error>.AsyncIterator?
    private var pending = Data()
    private var ended = false

    package init(_ source: BlobSource) throws {
        switch source {
        case let .file(url):
            path = url.path
            fd = open(path, O_RDONLY | O_CLOEXEC)
            guard fd >= 0 else { throw BlobStoreError.io(operation: "open", path: path, message: String(cString: strerror(errno))) }
            var info = stat()
            if fstat(fd, &info) == 0, (info.st_mode & S_IFMT) != S_IFREG {
                close(fd)
                fd = -1
                throw BlobStoreError.io(operation: "read", path: path, message: "not a regular file")
            }
        case let .data(data):
            path = "(memory)"
            memory = data
        case let .stream(stream):
            path = "(stream)"
            iterator = stream.makeAsyncIterator()
        }
    }

    deinit { if fd >= 0 { close(fd) } }

    /// The size when known up front (a file or bytes), else nil.
    package var knownSize: Int64? {
        if let memory { return Int64(memory.count) }
        if fd >= 0 {
            var info = stat()
            if fstat(fd, &info) == 0 { return Int64(info.st_size) }
        }
        return nil
    }

    /// Up to `count` bytes; fewer only at the end; nil once everything was read.
    package func read(upTo count: Int) async throws -> Data? {
        if fd >= 0 || memory != nil { return try readFileChunk(upTo: count) }
        while pending.count < count, !ended {
            do {
                if let chunk = try await iterator?.next() { pending.append(chunk) } else { ended = true }
            } catch let error as BlobStoreError {
                throw error
            } catch {
                throw BlobStoreError.io(operation: "read", path: path, message: "\(error)")
            }
        }
        if pending.isEmpty { return nil }
        let take = min(count, pending.count)
        let chunk = pending.prefix(take)
        pending = Data(pending.dropFirst(take))
        return Data(chunk)
    }

    /// The synchronous path for files and bytes.
    package func readFileChunk(upTo count: Int) throws -> Data? {
        if let memory {
            guard offset < memory.count else { return nil }
            let end = min(memory.count, offset + count)
            defer { offset = end }
            return memory.subdata(in: offset..<end)
        }
        var data = Data(count: count)
        var filled = 0
        while filled < count {
            let n = data.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress! + filled, count - filled) }
            if n < 0 {
                if errno == EINTR { continue }
                throw BlobStoreError.io(operation: "read", path: path, message: String(cString: strerror(errno)))
            }
            if n == 0 { break }
            filled += n
        }
        if filled == 0 { return nil }
        data.count = filled
        return data
    }
}
