import Foundation
import Testing
@testable import PhotoEdit

/// The result of one run of the `photoedit` binary.
struct CLIResult: CustomStringConvertible {
    let arguments: [String]
    let status: Int32
    let stdout: String
    let stderr: String

    var succeeded: Bool { status == 0 }
    var stdoutLines: [String] { stdout.lines }
    var stderrLines: [String] { stderr.lines }

    var description: String {
        "photoedit \(arguments.joined(separator: " ")) → exit \(status)\nstdout: \(stdout)\nstderr: \(stderr)"
    }

    /// stdout parsed as the engine's JSON.
    func json() throws -> JSONValue { try JSONValue.parse(Data(stdout.utf8)) }
}

/// Runs the real built `photoedit` executable as a subprocess.
enum CLI {
    /// The `photoedit` binary: `$PHOTOEDIT_BINARY` if set, else the file named
    /// `photoedit` beside the test bundle in the build products folder.
    static let binary: Result<URL, CLIError> = {
        let fm = FileManager.default
        if let path = ProcessInfo.processInfo.environment["PHOTOEDIT_BINARY"], !path.isEmpty {
            return fm.isExecutableFile(atPath: path) ? .success(URL(fileURLWithPath: path))
                : .failure(CLIError("PHOTOEDIT_BINARY=\(path) is not an executable file"))
        }
        var folders: [URL] = []
        let bundle = Bundle.main.bundleURL
        folders.append(bundle)
        folders.append(bundle.deletingLastPathComponent())
        if let arg0 = CommandLine.arguments.first {
            let url = URL(fileURLWithPath: arg0).resolvingSymlinksInPath()
            folders.append(url.deletingLastPathComponent())
            folders.append(url.deletingLastPathComponent().deletingLastPathComponent())
        }
        if let exe = try? fm.destinationOfSymbolicLink(atPath: "/proc/self/exe") {
            folders.append(URL(fileURLWithPath: exe).deletingLastPathComponent())
        }
        for folder in folders {
            let candidate = folder.appendingPathComponent("photoedit")
            var isDirectory: ObjCBool = false
            if fm.fileExists(atPath: candidate.path, isDirectory: &isDirectory), !isDirectory.boolValue,
               fm.isExecutableFile(atPath: candidate.path) {
                return .success(candidate)
            }
        }
        return .failure(CLIError("no executable named 'photoedit' beside the test bundle (looked in: \(folders.map(\.path).joined(separator: ", "))); build it with `swift build --scratch-path .build-tests` or set PHOTOEDIT_BINARY"))
    }()

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
        let outputs = TemporaryDirectory("photoedit-cli-out")
        let outPath = outputs.file("stdout"), errPath = outputs.file("stderr")
        guard FileManager.default.createFile(atPath: outPath, contents: nil),
              FileManager.default.createFile(atPath: errPath, contents: nil) else {
            throw CLIError("cannot create output files in \(outputs.path)")
        }
        let out = try FileHandle(forWritingTo: URL(fileURLWithPath: outPath))
        let err = try FileHandle(forWritingTo: URL(fileURLWithPath: errPath))
        let process = Process()
        process.executableURL = binary
        process.arguments = arguments
        process.currentDirectoryURL = Paths.root
        var environment = ProcessInfo.processInfo.environment
        environment.removeValue(forKey: "PHOTOEDIT_LIBRARY")
        environment.removeValue(forKey: "PHOTOEDIT_DEBUG")
        environment["XDG_DATA_HOME"] = outputs.file("xdg-unused")
        for (k, v) in extra { environment[k] = v }
        process.environment = environment
        process.standardInput = FileHandle.nullDevice
        process.standardOutput = out
        process.standardError = err
        try process.run()
        let status = waitForExit(process)
        try out.close()
        try err.close()
        let stdout = String(decoding: try Data(contentsOf: URL(fileURLWithPath: outPath)), as: UTF8.self)
        let stderr = String(decoding: try Data(contentsOf: URL(fileURLWithPath: errPath)), as: UTF8.self)
        return CLIResult(arguments: display, status: status, stdout: stdout, stderr: stderr)
    }

    /// Waits for a child with `waitpid` itself and returns what
    /// `Process.terminationStatus` would (the exit status, or the signal).
    /// Foundation's `waitUntilExit` learns of the exit through a socket the
    /// child holds; a child another test spawns at the same moment (a server)
    /// can inherit that socket and keep it open, and the wait then lasts as
    /// long as that server (seen once: a `photoedit` zombie, the test waiting).
    /// When Foundation reaps the child first (`ECHILD` here), its own
    /// status is the answer, and then it has one.
    static func waitForExit(_ process: Process) -> Int32 {
        var status: Int32 = 0
        var result: Int32
        repeat { result = waitpid(process.processIdentifier, &status, 0) } while result == -1 && errno == EINTR
        guard result == process.processIdentifier else {
            process.waitUntilExit()
            return process.terminationStatus
        }
        let signal = status & 0x7f
        return signal == 0 ? (status >> 8) & 0xff : signal
    }
}

struct CLIError: Error, CustomStringConvertible {
    let message: String
    init(_ message: String) { self.message = message }
    var description: String { message }
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
