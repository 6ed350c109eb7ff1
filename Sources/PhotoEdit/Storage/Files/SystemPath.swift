import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// A path as the file system has it: bytes. Linux file names need not be
/// valid UTF-8 (a Latin-1 `caf\xE9.jpg` from an old camera card or archive),
/// and Swift's `String`, `URL` and `FileManager` replace such bytes with
/// U+FFFD, after which the file cannot be opened. Import carries the bytes;
/// `display` shows the invalid ones as `\xHH` (in messages, results and the
/// catalog's file name).
struct SystemPath: Hashable, Sendable {
    /// The path's bytes, without a terminating NUL.
    let bytes: [UInt8]

    init(_ path: String) { bytes = Array(path.utf8) }
    init(bytes: [UInt8]) { self.bytes = bytes }

    /// Valid UTF-8 as it is, each other byte as `\xHH`.
    var display: String { Self.display(bytes) }

    static func display<Bytes: Collection>(_ bytes: Bytes) -> String where Bytes.Element == UInt8, Bytes.Index == Int {
        if let text = String(validating: bytes, as: UTF8.self) { return text }
        var out = ""
        var i = bytes.startIndex
        while i < bytes.endIndex {
            let lead = bytes[i]
            let length = lead < 0x80 ? 1 : lead >= 0xF0 ? 4 : lead >= 0xE0 ? 3 : lead >= 0xC2 ? 2 : 0
            if length > 0, i + length <= bytes.endIndex, let scalar = String(validating: bytes[i..<(i + length)], as: UTF8.self) {
                out += scalar
                i += length
            } else {
                out += String(format: "\\x%02X", lead)
                i += 1
            }
        }
        return out
    }

    /// The last component's bytes.
    var lastComponent: ArraySlice<UInt8> {
        let trimmed = bytes.count > 1 && bytes.last == UInt8(ascii: "/") ? bytes.dropLast() : bytes[...]
        guard let slash = trimmed.lastIndex(of: UInt8(ascii: "/")) else { return trimmed }
        return trimmed[(slash + 1)...]
    }

    /// The folder holding it ("." for a bare name).
    var parent: SystemPath {
        guard let slash = bytes.lastIndex(of: UInt8(ascii: "/")) else { return SystemPath(".") }
        return SystemPath(bytes: slash == 0 ? [UInt8(ascii: "/")] : Array(bytes[..<slash]))
    }

    func appending(_ name: ArraySlice<UInt8>) -> SystemPath {
        SystemPath(bytes: bytes.last == UInt8(ascii: "/") ? bytes + name : bytes + [UInt8(ascii: "/")] + name)
    }

    /// Calls `body` with the path as a C string.
    func withCString<T>(_ body: (UnsafePointer<CChar>) throws -> T) rethrows -> T {
        try (bytes + [0]).withUnsafeBufferPointer { buffer in
            try buffer.withMemoryRebound(to: CChar.self) { try body($0.baseAddress!) }
        }
    }

    /// `stat` (symbolic links followed), nil when it fails.
    func status() -> stat? {
        var info = stat()
        return withCString { stat($0, &info) } == 0 ? info : nil
    }

    var exists: Bool { status() != nil }
    var isDirectory: Bool { status().map { ($0.st_mode & S_IFMT) == S_IFDIR } ?? false }

    /// The absolute path with symbolic links resolved, or nil.
    func resolved() -> SystemPath? {
        guard let real = withCString({ realpath($0, nil) }) else { return nil }
        defer { free(real) }
        return SystemPath(bytes: Array(UnsafeBufferPointer(start: UnsafeRawPointer(real).assumingMemoryBound(to: UInt8.self), count: strlen(real))))
    }

    /// Regular files under this folder, recursively (symbolic links to
    /// files followed, to folders not), hidden ones skipped, sorted by bytes.
    func regularFilesInside() -> [SystemPath] {
        var out: [SystemPath] = []
        var folders = [self]
        while let folder = folders.popLast() {
            guard let dir = folder.withCString({ opendir($0) }) else { continue }
            defer { closedir(dir) }
            while let entry = readdir(dir) {
                let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                    Array(raw.prefix(while: { $0 != 0 }))
                }
                guard let first = name.first, first != UInt8(ascii: ".") else { continue }
                let path = folder.appending(name[...])
                var link = stat()
                guard path.withCString({ lstat($0, &link) }) == 0 else { continue }
                if (link.st_mode & S_IFMT) == S_IFDIR {
                    folders.append(path)
                } else if let info = path.status(), (info.st_mode & S_IFMT) == S_IFREG {
                    out.append(path)
                }
            }
        }
        return out.sorted { $0.bytes.lexicographicallyPrecedes($1.bytes) }
    }
}

/// Where the bytes of a new photo come from.
enum ImportSource {
    /// A file, by path.
    case file(SystemPath)
    /// Bytes in memory, with the file name to record (nil: named by content).
    case data(Data, filename: String?)
    /// A streamed upload, already written to a staging file in `tmp/` and
    /// hashed; it stays there for a retry (the caller removes it).
    case staged(path: String, sha256: String, size: Int64, filename: String?)
}
