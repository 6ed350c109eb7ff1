import CPhotoEditShim
import Foundation
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// File operations with the durability the commit protocol needs.
package enum FileIO {
    /// Copies `source` to `destination` in 1 MiB chunks, hashing the bytes
    /// with SHA-256 (``SHA256Digest``) on the way, and flushes the copy to
    /// disk. Returns the hex digest and the byte count.
    ///
    /// Only a regular file is read (symbolic links followed): a FIFO, a
    /// device (`/dev/zero`) or a socket is refused without blocking, checked
    /// on the opened descriptor. With `limit`, a file that grows past it while
    /// being read is refused too (`limitName` names the setting in the error).
    static func copyHashing(from source: String, to destination: String,
                            limit: Int64? = nil, limitName: String = "") throws -> (sha256: String, size: Int64) {
        try copyHashing(from: SystemPath(source), to: destination, limit: limit, limitName: limitName)
    }

    /// `copyHashing` from a path given as the file system's bytes (a name
    /// that is not valid UTF-8); errors name it by its `display` form.
    static func copyHashing(from path: SystemPath, to destination: String,
                            limit: Int64? = nil, limitName: String = "") throws -> (sha256: String, size: Int64) {
        let source = path.display
        // O_NONBLOCK: opening a FIFO with no writer must not wait for one.
        let input = path.withCString { open($0, O_RDONLY | O_CLOEXEC | O_NONBLOCK) }
        guard input >= 0 else {
            throw PhotoEditError.unreadableFile(path: source, reason: String(cString: strerror(errno)))
        }
        defer { close(input) }
        var info = stat()
        guard fstat(input, &info) == 0 else {
            throw PhotoEditError.unreadableFile(path: source, reason: String(cString: strerror(errno)))
        }
        switch info.st_mode & S_IFMT {
        case S_IFREG: break
        case S_IFDIR: throw PhotoEditError.unreadableFile(path: source, reason: "is a folder")
        case S_IFIFO: throw PhotoEditError.unreadableFile(path: source, reason: "not a regular file (a FIFO)")
        case S_IFCHR, S_IFBLK: throw PhotoEditError.unreadableFile(path: source, reason: "not a regular file (a device)")
        default: throw PhotoEditError.unreadableFile(path: source, reason: "not a regular file")
        }
        if let limit, Int64(info.st_size) > limit {
            throw PhotoEditError.unreadableFile(path: source, reason: Self.tooLarge(limit: limit, name: limitName))
        }
        _ = fcntl(input, F_SETFL, fcntl(input, F_GETFL) & ~O_NONBLOCK)
        let output = try HashingWriter(path: destination, limit: limit, limitName: limitName, source: source)
        try readChunks(input, path: source) { try output.append($0) }
        return try output.finish()
    }

    /// Reads an open file to its end in 1 MiB pieces, handing each to `body`.
    static func readChunks(_ fd: Int32, path: String, _ body: (UnsafeRawBufferPointer) throws -> Void) throws {
        let size = 1 << 20
        let buffer = UnsafeMutableRawPointer.allocate(byteCount: size, alignment: 16)
        defer { buffer.deallocate() }
        while true {
            let n = try readOnce(fd, buffer, size, path: path)
            if n == 0 { return }
            try body(UnsafeRawBufferPointer(start: buffer, count: n))
        }
    }

    /// One read(2) of up to `count` bytes into `buffer`, an interrupted one
    /// (EINTR) retried; 0 at the end.
    private static func readOnce(_ fd: Int32, _ buffer: UnsafeMutableRawPointer?, _ count: Int, path: String) throws -> Int {
        while true {
            let n = read(fd, buffer, count)
            if n >= 0 { return n }
            if errno != EINTR { throw PhotoEditError.unreadableFile(path: path, reason: String(cString: strerror(errno))) }
        }
    }

    /// Everything left to read from `fd` (a pipe, a file), an interrupted
    /// read retried. Foundation's `FileHandle.readDataToEndOfFile()` and
    /// `availableData` end the whole process when a read fails, an
    /// interrupted one (EINTR) included: a child's output read that way can
    /// take a test run or a command down with it.
    package static func readToEnd(_ fd: Int32, what: String) throws -> Data {
        var data = Data()
        try readChunks(fd, path: what) { data.append(contentsOf: $0) }
        return data
    }

    /// What one read of `fd` gives, up to `limit` bytes (waiting until some
    /// arrive), an interrupted read retried; empty at the end. For reading a
    /// pipe line by line instead of `FileHandle.availableData` (see ``readToEnd(_:what:)``).
    package static func readSome(_ fd: Int32, what: String, limit: Int = 1 << 16) throws -> Data {
        var data = Data(count: limit)
        let n = try data.withUnsafeMutableBytes { try readOnce(fd, $0.baseAddress, $0.count, path: what) }
        data.count = n
        return data
    }

    /// Writes a new file from bytes that arrive in pieces (a copy, an
    /// upload), hashing them with SHA-256 and counting them against `limit`
    /// on the way. `finish()` flushes it and returns the digest and size;
    /// a writer never finished removes its file.
    /// Sendable, so that an async caller can hand each piece to the
    /// ``BlockingExecutor`` (the pieces arrive in order, one at a time).
    final class HashingWriter: Sendable {
        let path: String
        let limit: Int64?
        let limitName: String
        /// Names the bytes' origin in errors.
        let source: String
        private let fd: Int32
        private struct State {
            var digest = SHA256Digest()
            var size: Int64 = 0
            var finished = false
        }
        private let state = Mutex(State())

        init(path: String, limit: Int64?, limitName: String, source: String) throws {
            fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
            guard fd >= 0 else { throw PhotoEditError.library("cannot create \(path): \(String(cString: strerror(errno)))") }
            self.path = path
            self.limit = limit
            self.limitName = limitName
            self.source = source
        }

        func append(_ bytes: UnsafeRawBufferPointer) throws {
            guard let base = bytes.baseAddress, !bytes.isEmpty else { return }
            try state.withLock { state in
                state.size += Int64(bytes.count)
                if let limit, state.size > limit {
                    throw PhotoEditError.unreadableFile(path: source, reason: FileIO.tooLarge(limit: limit, name: limitName))
                }
                state.digest.update(bytes)
                try FileIO.writeAll(fd, UnsafeMutableRawPointer(mutating: base), bytes.count, path: path)
            }
        }

        func finish() throws -> (sha256: String, size: Int64) {
            guard fsync(fd) == 0 else { throw PhotoEditError.library("cannot flush \(path): \(String(cString: strerror(errno)))") }
            return state.withLock { state in
                state.finished = true
                return (state.digest.finish(), state.size)
            }
        }

        deinit {
            close(fd)
            if !state.withLock({ $0.finished }) { unlink(path) }
        }
    }

    static func tooLarge(limit: Int64, name: String) -> String {
        let mb = Double(limit) / 1_048_576
        let size = mb >= 1 ? String(format: "%.0f MB", mb) : "\(limit) bytes"
        return "larger than the limit of \(size)" + (name.isEmpty ? "" : " (\(name))")
    }

    /// A file's size in bytes, nil if it does not exist.
    package static func size(_ path: String) -> Int64? {
        var info = stat()
        return stat(path, &info) == 0 ? Int64(info.st_size) : nil
    }

    /// SHA-256 of a file, streamed (lowercase hex, as `sha256sum` prints it).
    static func sha256(of path: String) throws -> String {
        let input = open(path, O_RDONLY | O_CLOEXEC)
        guard input >= 0 else { throw PhotoEditError.unreadableFile(path: path, reason: String(cString: strerror(errno))) }
        defer { close(input) }
        var digest = SHA256Digest()
        try readChunks(input, path: path) { digest.update($0) }
        return digest.finish()
    }

    /// Writes `data` to a new file (never an existing one) and flushes it.
    static func writeFlushed(_ data: Data, to path: String) throws {
        try writeNew(data, to: path, mode: 0o600, flush: true)
    }

    /// Writes `data` to a new file (never an existing one), created with
    /// `mode` (less the umask), flushed to disk only when `flush`: what only
    /// a cache or the user's own output holds need not wait for the disk
    /// (Foundation's `createFile` always flushes, and renames a file of its own).
    static func writeNew(_ data: Data, to path: String, mode: mode_t, flush: Bool) throws {
        let fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, mode)
        guard fd >= 0 else { throw PhotoEditError.library("cannot create \(path): \(String(cString: strerror(errno)))") }
        defer { close(fd) }
        do {
            try data.withUnsafeBytes { bytes in
                guard let base = bytes.baseAddress else { return }
                try writeAll(fd, UnsafeMutableRawPointer(mutating: base), bytes.count, path: path)
            }
            if flush {
                guard fsync(fd) == 0 else { throw PhotoEditError.library("cannot flush \(path): \(String(cString: strerror(errno)))") }
            }
        } catch {
            unlink(path)
            throw error
        }
    }

    /// Writes `count` bytes at `buffer` to `fd`, all of them (a short write
    /// continues, EINTR retries).
    package static func writeAll(_ fd: Int32, _ buffer: UnsafeMutableRawPointer, _ count: Int, path: String) throws {
        var done = 0
        while done < count {
            let n = write(fd, buffer + done, count - done)
            if n < 0 {
                if errno == EINTR { continue }
                throw PhotoEditError.library("cannot write \(path): \(String(cString: strerror(errno)))")
            }
            done += n
        }
    }

    /// Flushes a file that was written by someone else (libvips) to disk.
    static func flush(_ path: String) throws {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0, fsync(fd) == 0 else {
            if fd >= 0 { close(fd) }
            throw PhotoEditError.library("cannot flush \(path): \(String(cString: strerror(errno)))")
        }
        close(fd)
    }

    /// Starts writing `path`'s data to disk without waiting for it, so a
    /// `flush` later (after other work) finds most of it written. Best
    /// effort: the `flush` is what makes the file durable.
    static func startWriteback(_ path: String) {
        _ = pe_start_writeback(path)
    }

    /// Flushes a directory entry (after a rename into it).
    static func flushDirectory(_ path: String) {
        let fd = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        if fd >= 0 { _ = fsync(fd); close(fd) }
    }

    /// Atomically renames `from` to `to` (same file system), creating the
    /// destination folder, and flushes the folder.
    static func moveIntoPlace(from: String, to: String, readOnly: Bool) throws {
        let folder = (to as NSString).deletingLastPathComponent
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        if readOnly { chmod(from, 0o444) }
        guard rename(from, to) == 0 else {
            throw PhotoEditError.library("cannot move \(from) to \(to): \(String(cString: strerror(errno)))")
        }
        flushDirectory(folder)
    }

    /// Copies a file to `destination` through a temporary name beside it
    /// (streamed; the destination appears whole or not at all).
    static func copyFile(from source: String, to destination: String) throws {
        let temp = destination + ".photoedit-\(UUID().uuidString.prefix(8))"
        _ = try copyHashing(from: source, to: temp)
        chmod(temp, 0o644)
        guard rename(temp, destination) == 0 else {
            unlink(temp)
            throw PhotoEditError.invalidOutput("cannot write \(destination): \(String(cString: strerror(errno)))")
        }
    }

    static func exists(_ path: String) -> Bool {
        var info = stat()
        return stat(path, &info) == 0
    }

    package static func isDirectory(_ path: String) -> Bool {
        var info = stat()
        return stat(path, &info) == 0 && (info.st_mode & S_IFMT) == S_IFDIR
    }
}

/// An advisory lock on the library folder (flock). Every open library holds
/// it shared; crash recovery runs only when it can take it exclusively, i.e.
/// when no other process has the library open.
final class LibraryLock: Sendable {
    let fd: Int32

    /// The library's lock file; nil for a read-only library without one
    /// (nobody can write there to need it). Read-only, an existing lock file
    /// is still held shared (`flock` needs no write access).
    convenience init?(path: String, readOnly: Bool) throws {
        let fd = open(path, (readOnly ? O_RDONLY : O_RDWR | O_CREAT) | O_CLOEXEC, 0o644)
        if fd < 0 && readOnly && errno == ENOENT { return nil }
        guard fd >= 0 else { throw PhotoEditError.library("cannot open lock file \(path): \(String(cString: strerror(errno)))") }
        self.init(fd: fd)
    }

    private init(fd: Int32) { self.fd = fd }

    /// Tries to take the lock exclusively without waiting.
    func tryExclusive() -> Bool { flock(fd, LOCK_EX | LOCK_NB) == 0 }

    /// Holds the lock shared (waits for an exclusive holder to finish).
    func shared() { while flock(fd, LOCK_SH) != 0 && errno == EINTR {} }

    deinit { close(fd) }
}

/// A commit's journal of the files it moves into `originals/` or `renders/`
/// before its catalog transaction. Each path is written and flushed *before*
/// its file is moved, and the journal is removed once the transaction has
/// committed. So every file in place but not (yet) in the catalog is named by
/// a pending journal: recovery removes the files of journals a crash left
/// behind (when no row references them), and verify never mistakes an
/// in-flight file for a stray one. Files no journal names are never deleted
/// by recovery (e.g. after restoring an older catalog from a backup).
final class IntentJournal {
    static let prefix = "intent-"
    let path: String
    private(set) var isEmpty = true

    init(layout: LibraryLayout) {
        path = "\(layout.tmp)/\(IntentJournal.prefix)\(getpid())-\(UUID().uuidString.lowercased())"
    }

    /// Records (durably) that `relative` is about to be moved into place, or
    /// (for a purge) that it is about to be removed once the transaction
    /// commits: either way, recovery removes it if no catalog row references it.
    func record(_ relative: String) throws {
        try record(contentsOf: [relative])
    }

    /// `record(_:)` for many files, flushed once (a commit that touches
    /// many photos' records).
    func record(contentsOf relatives: [String]) throws {
        guard !relatives.isEmpty else { return }
        let fd = open(path, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0o600)
        guard fd >= 0 else { throw PhotoEditError.library("cannot write \(path): \(String(cString: strerror(errno)))") }
        defer { close(fd) }
        let line = Array(relatives.map { $0 + "\n" }.joined().utf8)
        guard line.withUnsafeBytes({ write(fd, $0.baseAddress, $0.count) }) == line.count, fsync(fd) == 0 else {
            throw PhotoEditError.library("cannot write \(path): \(String(cString: strerror(errno)))")
        }
        if isEmpty { FileIO.flushDirectory((path as NSString).deletingLastPathComponent) }
        isEmpty = false
    }

    /// The transaction committed (or nothing was placed): the journal goes.
    func finish() {
        unlink(path)
    }

    /// Paths named by every pending journal in `tmp`.
    static func pendingPaths(in tmp: String) -> (journals: [String], paths: Set<String>) {
        var journals: [String] = []
        var paths = Set<String>()
        for name in (try? FileManager.default.contentsOfDirectory(atPath: tmp)) ?? [] where name.hasPrefix(prefix) {
            let file = tmp + "/" + name
            journals.append(file)
            if let text = try? String(contentsOfFile: file, encoding: .utf8) {
                for line in text.split(separator: "\n") where !line.isEmpty { paths.insert(String(line)) }
            }
        }
        return (journals, paths)
    }
}

/// Named moments of a commit where the crash tests kill the process for
/// certain (`PHOTOEDIT_CRASH_POINT=NAME` sends SIGKILL to itself there),
/// besides the random kills. Unset, it costs one environment lookup per
/// commit that reaches a point.
enum CrashPoint {
    static func reach(_ name: String) {
        if ProcessInfo.processInfo.environment["PHOTOEDIT_CRASH_POINT"] == name { kill(getpid(), SIGKILL) }
    }
}
