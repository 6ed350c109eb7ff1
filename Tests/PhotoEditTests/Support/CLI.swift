import Foundation
import Testing
@testable import PhotoEdit
import PhotoEditTestSupport

/// Runs the real built `photoedit` executable as a subprocess
/// (PhotoEditTestSupport's `PhotoEditBinary`), recording a missing binary
/// as an issue at the caller.
enum CLI {
    /// The `photoedit` binary: `$PHOTOEDIT_BINARY` if set, else the file named
    /// `photoedit` beside the test bundle in the build products folder.
    static var binary: Result<URL, CLIError> { PhotoEditBinary.location }

    /// Runs `photoedit ARGS` in the package root, with a clean environment
    /// (no PHOTOEDIT_LIBRARY, so every test names its library).
    @discardableResult
    static func run(_ arguments: [String], environment extra: [String: String] = [:],
                    sourceLocation: SourceLocation = #_sourceLocation) throws -> CLIResult {
        let binary: URL
        switch CLI.binary {
        case .success(let url): binary = url
        case .failure(let error):
            Issue.record(Comment(rawValue: error.message), sourceLocation: sourceLocation)
            throw error
        }
        return try runExecutable(binary, arguments, display: arguments, environment: extra)
    }

    /// Runs an executable (the `photoedit` binary, or a wrapper such as
    /// setpriv around it) in the package root with the clean environment.
    static func runExecutable(_ binary: URL, _ arguments: [String], display: [String],
                              environment extra: [String: String] = [:]) throws -> CLIResult {
        try PhotoEditBinary.runExecutable(binary, arguments, display: display, environment: extra)
    }
}

/// A temporary library driven through the CLI.
final class CLILibrary: @unchecked Sendable {
    let temp = TemporaryDirectory("photoedit-cli")
    var path: String { temp.file("library") }

    /// Runs a command with `--library` set.
    @discardableResult
    func run(_ arguments: [String], sourceLocation: SourceLocation = #_sourceLocation) throws -> CLIResult {
        guard let command = arguments.first else { throw CLIError("no command") }
        return try CLI.run([command, "--library", path] + arguments.dropFirst(), sourceLocation: sourceLocation)
    }

    /// Runs a command that must succeed.
    @discardableResult
    func succeed(_ arguments: [String], sourceLocation: SourceLocation = #_sourceLocation) throws -> CLIResult {
        let r = try run(arguments, sourceLocation: sourceLocation)
        #expect(r.status == 0, "\(r)", sourceLocation: sourceLocation)
        guard r.status == 0 else { throw CLIError("command failed: \(r)") }
        return r
    }

    /// Imports files; returns their ids in order.
    func importFiles(_ paths: [String], sourceLocation: SourceLocation = #_sourceLocation) throws -> [String] {
        let r = try succeed(["import"] + paths, sourceLocation: sourceLocation)
        return r.stdoutLines.map { String($0.split(separator: "\t")[0]) }
    }

    @discardableResult
    func importSample(_ name: String, sourceLocation: SourceLocation = #_sourceLocation) throws -> String {
        let ids = try importFiles([Paths.sample(name)], sourceLocation: sourceLocation)
        guard ids.count == 1 else { throw CLIError("importing \(name) printed \(ids.count) ids") }
        return ids[0]
    }

    /// `show --json` as an object.
    func show(_ id: String, sourceLocation: SourceLocation = #_sourceLocation) throws -> [String: JSONValue] {
        guard case .object(let o) = try succeed(["show", "--json", id], sourceLocation: sourceLocation).json() else {
            throw CLIError("show --json is not an object")
        }
        return o
    }

    /// `history --json` as a list of objects.
    func history(_ id: String, sourceLocation: SourceLocation = #_sourceLocation) throws -> [[String: JSONValue]] {
        guard case .array(let a) = try succeed(["history", "--json", id], sourceLocation: sourceLocation).json() else {
            throw CLIError("history --json is not an array")
        }
        return a.compactMap { if case .object(let o) = $0 { return o } else { return nil } }
    }

    /// Everything observable about the library: the hash of every file
    /// (except SQLite's shared-memory index) and the catalog as `list --json`
    /// and `history --json` of every photo show it.
    struct Snapshot: Equatable {
        var files: [String: String]
        var list: String
        var histories: [String: String]
    }

    /// Take the "before" snapshot with `filesFirst: false` and the "after"
    /// one with `filesFirst: true`, so only the command under test runs
    /// between the two file hashes.
    func snapshot(filesFirst: Bool, sourceLocation: SourceLocation = #_sourceLocation) throws -> Snapshot {
        var files = filesFirst ? try Hashing.tree(path) : [:]
        let list = try succeed(["list", "--json"], sourceLocation: sourceLocation)
        var histories: [String: String] = [:]
        if case .array(let items) = try list.json() {
            for case .object(let o) in items {
                guard case .string(let id)? = o["id"] else { continue }
                histories[id] = try succeed(["history", "--json", id], sourceLocation: sourceLocation).stdout
            }
        }
        if !filesFirst { files = try Hashing.tree(path) }
        return Snapshot(files: files, list: list.stdout, histories: histories)
    }
}

extension JSONValue {
    var string: String? { if case .string(let s) = self { return s } else { return nil } }
    var number: Double? { if case .number(let n) = self { return n } else { return nil } }
    var bool: Bool? { if case .bool(let b) = self { return b } else { return nil } }
    var object: [String: JSONValue]? { if case .object(let o) = self { return o } else { return nil } }
    var array: [JSONValue]? { if case .array(let a) = self { return a } else { return nil } }
    var isNull: Bool { self == .null }
}

extension CLILibrary {
    /// Removes the library's catalog with its WAL and shared-memory files
    /// (a lost or deleted catalog); `leaveEmpty`: an empty catalog.sqlite in its place.
    func removeCatalog(leaveEmpty: Bool = false) {
        for suffix in ["", "-wal", "-shm"] { unlink(path + "/catalog.sqlite" + suffix) }
        if leaveEmpty { _ = FileManager.default.createFile(atPath: path + "/catalog.sqlite", contents: Data()) }
    }

    /// Imports 17 distinct synthetic photos: by the pigeonhole principle at
    /// least two ids share their first hex digit. Returns the ids and that digit.
    func importSyntheticPhotosSharingAPrefix() throws -> ([String], String) {
        let folder = temp.url.appendingPathComponent("synthetic")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        for seed in 0..<17 {
            try Pixels.writeSyntheticPNG(to: folder.appendingPathComponent(String(format: "s%02d.png", seed)).path, seed: seed)
        }
        let r = try succeed(["import", folder.path])
        let ids = r.stdoutLines.map { String($0.prefix(32)) }
        #expect(!r.stderr.contains("17/17"), "no progress when stderr is not a terminal: \(r.stderr)")
        #expect(ids.count == 17)
        #expect(Set(ids).count == 17, "distinct images get distinct ids")
        let counts = Dictionary(grouping: ids) { String($0.prefix(1)) }
        let prefix = try #require(counts.first { $0.value.count >= 2 }?.key)
        return (ids, prefix)
    }
}
