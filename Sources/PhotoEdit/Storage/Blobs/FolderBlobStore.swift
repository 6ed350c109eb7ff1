import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// A ``BlobStore`` over a local folder: the embedded default.
///
/// A blob `a/b/c.jpg` is the file `<root>/a/b/c.jpg`. A put streams into
/// `<root>/.partial/<random>` (same file system), flushes it, then moves it
/// into place: `rename(2)` for a plain put, `link(2)` for a conditional one
/// (`link` fails with `EEXIST` when the key exists, atomically, so of two
/// racing conditional puts exactly one wins), then flushes the folder.
/// A crash leaves at worst a file in `.partial`, which is never a blob
/// (keys cannot start with `.`) and is removed by ``removeStalePartials(olderThan:)``.
/// Listing walks the folder under the prefix's deepest whole folder: cost
/// grows with the blobs under that folder, fine for a local library.
public struct FolderBlobStore: BlobStore {
    /// The folder holding the blobs.
    public let root: URL
    /// Size of a read chunk in ``get(_:)``.
    public static let chunkSize = 1 << 20

    /// A store over `root`, created if missing.
    public init(root: URL) throws {
        self.root = root.standardizedFileURL
        do {
            try FileManager.default.createDirectory(at: self.root.appendingPathComponent(".partial"), withIntermediateDirectories: true)
        } catch {
            throw BlobStoreError.io(operation: "create", path: self.root.path, message: "\((error as NSError).localizedDescription)")
        }
    }

    public var location: String { "folder \(root.path)" }

    /// The local file of a key (whether or not it exists).
    public func path(of key: BlobKey) -> String { root.path + "/" + key.rawValue }

    public func put(_ key: BlobKey, from source: BlobSource, ifAbsent: Bool) async throws -> BlobPutOutcome {
        let reader = try BlobSourceReader(source)
        let temp = root.path + "/.partial/" + UUID().uuidString
        let fd = open(temp, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o644)
        guard fd >= 0 else { throw BlobStoreError.io(operation: "create", path: temp, message: String(cString: strerror(errno))) }
        var open = true
        defer {
            if open { close(fd) }
            unlink(temp)
        }
        var total: Int64 = 0
        while let chunk = try await reader.read(upTo: FolderBlobStore.chunkSize) {
            try FolderBlobStore.writeAll(fd, chunk, path: temp)
            total += Int64(chunk.count)
        }
        guard fsync(fd) == 0 else { throw BlobStoreError.io(operation: "flush", path: temp, message: String(cString: strerror(errno))) }
        close(fd)
        open = false
        let destination = path(of: key)
        let folder = (destination as NSString).deletingLastPathComponent
        do {
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        } catch {
            throw BlobStoreError.io(operation: "create folder", path: folder, message: "\((error as NSError).localizedDescription)")
        }
        if ifAbsent {
            if link(temp, destination) != 0 {
                if errno == EEXIST { return .existed }
                throw BlobStoreError.io(operation: "link into", path: destination, message: String(cString: strerror(errno)))
            }
        } else {
            guard rename(temp, destination) == 0 else {
                throw BlobStoreError.io(operation: "rename into", path: destination, message: String(cString: strerror(errno)))
            }
        }
        FolderBlobStore.flushDirectory(folder)
        return .created(try info(of: key) ?? BlobInfo(key: key, size: total))
    }

    public func get(_ key: BlobKey) async throws -> BlobContent {
        let file = path(of: key)
        let fd = open(file, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else {
            if errno == ENOENT || errno == ENOTDIR { throw BlobStoreError.notFound(key: key.rawValue) }
            throw BlobStoreError.io(operation: "open", path: file, message: String(cString: strerror(errno)))
        }
        var status = stat()
        guard fstat(fd, &status) == 0, (status.st_mode & S_IFMT) == S_IFREG else {
            close(fd)
            throw BlobStoreError.notFound(key: key.rawValue)
        }
        let info = BlobInfo(key: key, size: Int64(status.st_size), etag: nil, lastModified: Date(timeIntervalSince1970: TimeInterval(status.st_mtim.tv_sec)))
        // The open descriptor keeps this version readable even if the key is
        // replaced or deleted meanwhile; it is closed at the end or on cancel.
        let handle = FileHandle(fileDescriptor: fd, closeOnDealloc: true)
        let chunks = AsyncThrowingStream<Data, any Error> { continuation in
            let task = Task {
                do {
                    while !Task.isCancelled {
                        guard let chunk = try handle.read(upToCount: FolderBlobStore.chunkSize), !chunk.isEmpty else { break }
                        continuation.yield(chunk)
                    }
                    continuation.finish()
                } catch {
                    continuation.finish(throwing: BlobStoreError.io(operation: "read", path: file, message: "\(error)"))
                }
            }
            continuation.onTermination = { _ in task.cancel() }
        }
        return BlobContent(info: info, chunks: chunks)
    }

    public func head(_ key: BlobKey) async throws -> BlobInfo? { try info(of: key) }

    public func delete(_ key: BlobKey) async throws {
        let file = path(of: key)
        if unlink(file) != 0, errno != ENOENT, errno != ENOTDIR {
            throw BlobStoreError.io(operation: "delete", path: file, message: String(cString: strerror(errno)))
        }
        FolderBlobStore.flushDirectory((file as NSString).deletingLastPathComponent)
    }

    public func list(prefix: String, after: BlobKey?, limit: Int) async throws -> [BlobInfo] {
        guard (1...1000).contains(limit) else { throw BlobStoreError.configuration("a list page holds 1 to 1000 blobs, not \(limit)") }
        guard prefix.utf8.count <= BlobKey.maxLength else { throw BlobStoreError.invalidKey(key: BlobStoreError.excerpt(prefix), problem: "prefix longer than \(BlobKey.maxLength) bytes") }
        // The deepest whole folder the prefix names; a prefix that cannot be
        // part of any key (e.g. holding "..") matches nothing.
        let folderPart = prefix.lastIndex(of: "/").map { String(prefix[..<$0]) } ?? ""
        if !folderPart.isEmpty, BlobKey.problem(in: folderPart) != nil { return [] }
        let start = folderPart.isEmpty ? root.path : root.path + "/" + folderPart
        var keys: [String] = []
        try walk(start, relative: folderPart, prefix: prefix, into: &keys)
        var result: [BlobInfo] = []
        for raw in keys.sorted(by: { $0.utf8.lexicographicallyPrecedes($1.utf8) }) {
            if let after, !after.rawValue.utf8.lexicographicallyPrecedes(raw.utf8) { continue }
            guard let key = try? BlobKey(raw), let info = try info(of: key) else { continue }
            result.append(info)
            if result.count == limit { break }
        }
        return result
    }

    /// Removes interrupted puts older than `age` seconds (a crash's leftovers).
    @discardableResult
    public func removeStalePartials(olderThan age: TimeInterval) throws -> Int {
        let folder = root.appendingPathComponent(".partial")
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
        var removed = 0
        for name in names {
            let file = folder.path + "/" + name
            var status = stat()
            guard lstat(file, &status) == 0 else { continue }
            if Date().timeIntervalSince1970 - TimeInterval(status.st_mtim.tv_sec) > age, unlink(file) == 0 { removed += 1 }
        }
        return removed
    }

    private func walk(_ folder: String, relative: String, prefix: String, into keys: inout [String]) throws {
        guard let dir = opendir(folder) else {
            if errno == ENOENT || errno == ENOTDIR { return }
            throw BlobStoreError.io(operation: "list", path: folder, message: String(cString: strerror(errno)))
        }
        defer { closedir(dir) }
        while let entry = readdir(dir) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                String(cString: raw.bindMemory(to: CChar.self).baseAddress!)
            }
            if name.hasPrefix(".") { continue }
            let key = relative.isEmpty ? name : relative + "/" + name
            let full = folder + "/" + name
            var status = stat()
            guard lstat(full, &status) == 0 else { continue }
            if (status.st_mode & S_IFMT) == S_IFDIR {
                // Descend only where a key under this folder can match the prefix.
                let folderKey = key + "/"
                if folderKey.hasPrefix(prefix) || prefix.hasPrefix(folderKey) {
                    try walk(full, relative: key, prefix: prefix, into: &keys)
                }
            } else if (status.st_mode & S_IFMT) == S_IFREG, key.hasPrefix(prefix) {
                keys.append(key)
            }
        }
    }

    private func info(of key: BlobKey) throws -> BlobInfo? {
        let file = path(of: key)
        var status = stat()
        guard stat(file, &status) == 0 else {
            if errno == ENOENT || errno == ENOTDIR { return nil }
            throw BlobStoreError.io(operation: "inspect", path: file, message: String(cString: strerror(errno)))
        }
        guard (status.st_mode & S_IFMT) == S_IFREG else { return nil }
        return BlobInfo(key: key, size: Int64(status.st_size), etag: nil, lastModified: Date(timeIntervalSince1970: TimeInterval(status.st_mtim.tv_sec)))
    }

    static func writeAll(_ fd: Int32, _ data: Data, path: String) throws {
        try data.withUnsafeBytes { raw in
            guard let base = raw.baseAddress else { return }
            var done = 0
            while done < raw.count {
                let n = write(fd, base + done, raw.count - done)
                if n < 0 {
                    if errno == EINTR { continue }
                    throw BlobStoreError.io(operation: "write", path: path, message: String(cString: strerror(errno)))
                }
                done += n
            }
        }
    }

    static func flushDirectory(_ path: String) {
        let fd = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        if fd >= 0 { _ = fsync(fd); close(fd) }
    }
}
