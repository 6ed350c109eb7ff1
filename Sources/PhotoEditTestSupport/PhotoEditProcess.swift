import Foundation
import PhotoEdit
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// The built `photoedit` executable, and the tests' ways of running it and
/// other programs as child processes.
package enum PhotoEditBinary {
    /// `$PHOTOEDIT_BINARY` if set, else the file named `photoedit` beside
    /// the test bundle in the build products folder.
    package static let location: Result<URL, TestFailure> = {
        if let path = ProcessInfo.processInfo.environment["PHOTOEDIT_BINARY"], !path.isEmpty {
            return FileManager.default.isExecutableFile(atPath: path) ? .success(URL(fileURLWithPath: path))
                : .failure(TestFailure("PHOTOEDIT_BINARY=\(path) is not an executable file"))
        }
        return built("photoedit", hint: "build it with `swift build --scratch-path .build-tests` or set PHOTOEDIT_BINARY")
    }()

    /// The executable product `name` (photoedit, photoedit-bench…) beside
    /// the test bundle in the build products folder; `hint` ends the
    /// message when there is none.
    package static func built(_ name: String, hint: String = "`swift build --build-tests` builds it") -> Result<URL, TestFailure> {
        let fm = FileManager.default
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
            let candidate = folder.appendingPathComponent(name)
            var isDirectory: ObjCBool = false
            if fm.fileExists(atPath: candidate.path, isDirectory: &isDirectory), !isDirectory.boolValue,
               fm.isExecutableFile(atPath: candidate.path) {
                return .success(candidate)
            }
        }
        return .failure(TestFailure("no executable named '\(name)' beside the test bundle (looked in: \(folders.map(\.path).joined(separator: ", "))); \(hint)"))
    }

    /// The binary, or the reason it was not found.
    package static func url() throws -> URL { try location.get() }

    /// The environment a child gets: ours, without PHOTOEDIT_LIBRARY and
    /// PHOTOEDIT_DEBUG (so every test names its library), without
    /// `removing`, with `extra` added.
    package static func environment(_ extra: [String: String] = [:], removing: [String] = []) -> [String: String] {
        var environment = ProcessInfo.processInfo.environment
        for name in ["PHOTOEDIT_LIBRARY", "PHOTOEDIT_DEBUG"] + removing { environment.removeValue(forKey: name) }
        for (k, v) in extra { environment[k] = v }
        return environment
    }

    /// A `photoedit ARGS` process, not started: in the package root, with
    /// `environment(extra, removing:)`, stdin from /dev/null; its output is
    /// the caller's to set.
    package static func process(_ arguments: [String], environment extra: [String: String] = [:],
                                removing: [String] = []) throws -> Process {
        let process = Process()
        process.executableURL = try url()
        process.arguments = arguments
        process.currentDirectoryURL = Paths.root
        process.environment = environment(extra, removing: removing)
        process.standardInput = FileHandle.nullDevice
        return process
    }

    /// Runs `photoedit ARGS` to its end (see `runExecutable`).
    @discardableResult
    package static func run(_ arguments: [String], environment extra: [String: String] = [:],
                            removing: [String] = []) throws -> CLIResult {
        try runExecutable(try url(), arguments, display: arguments, environment: extra, removing: removing)
    }

    /// Runs an executable (the `photoedit` binary, or a wrapper such as
    /// setpriv around it) to its end, in the package root with the clean
    /// environment (and an XDG_DATA_HOME of its own, unused): its status and
    /// its output, stdout and stderr apart.
    package static func runExecutable(_ binary: URL, _ arguments: [String], display: [String],
                                      environment extra: [String: String] = [:], removing: [String] = []) throws -> CLIResult {
        let outputs = TemporaryDirectory("photoedit-cli-out")
        let outPath = outputs.file("stdout"), errPath = outputs.file("stderr")
        guard FileManager.default.createFile(atPath: outPath, contents: nil),
              FileManager.default.createFile(atPath: errPath, contents: nil) else {
            throw TestFailure("cannot create output files in \(outputs.path)")
        }
        let out = try FileHandle(forWritingTo: URL(fileURLWithPath: outPath))
        let err = try FileHandle(forWritingTo: URL(fileURLWithPath: errPath))
        let process = Process()
        process.executableURL = binary
        process.arguments = arguments
        process.currentDirectoryURL = Paths.root
        process.environment = environment(["XDG_DATA_HOME": outputs.file("xdg-unused")].merging(extra) { $1 }, removing: removing)
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
}

/// How a child process ended.
package enum Termination: Equatable, Sendable {
    /// It exited with this status.
    case exited(Int32)
    /// A signal ended it.
    case signalled(Int32)

    /// What `Process.terminationStatus` would say: the exit status, or the signal.
    package var status: Int32 {
        switch self {
        case .exited(let status), .signalled(let status): return status
        }
    }
}

/// Waits for a started child with `waitpid` itself. Foundation's
/// `waitUntilExit` learns of the exit through a socket the child holds; a
/// child another test spawns at the same moment (a server) can inherit that
/// socket and keep it open, and the wait then lasts as long as that server
/// (seen once: a `photoedit` zombie, the test waiting). When Foundation
/// reaps the child first (`ECHILD` here), its own status is the answer, and
/// then it has one.
package func waitForTermination(_ process: Process) -> Termination {
    var status: Int32 = 0
    var result: Int32
    repeat { result = waitpid(process.processIdentifier, &status, 0) } while result == -1 && errno == EINTR
    guard result == process.processIdentifier else {
        process.waitUntilExit()
        return process.terminationReason == .exit ? .exited(process.terminationStatus) : .signalled(process.terminationStatus)
    }
    let signal = status & 0x7f
    return signal == 0 ? .exited((status >> 8) & 0xff) : .signalled(signal)
}

/// `waitForTermination`, as `Process.terminationStatus` says it: the exit status, or the signal.
package func waitForExit(_ process: Process) -> Int32 { waitForTermination(process).status }

/// Runs a program to its end, with `environment` added to ours: its exit
/// status and its output (stdout and stderr together).
package func runToEnd(_ program: String, _ arguments: [String], environment: [String: String] = [:]) throws -> (Int32, String) {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: program)
    process.arguments = arguments
    process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
    let output = Pipe()
    process.standardOutput = output
    process.standardError = output
    try process.run()
    let text = String(decoding: try FileIO.readToEnd(output.fileHandleForReading.fileDescriptor, what: "photoedit's output"), as: UTF8.self)
    return (waitForExit(process), text)
}

/// The result of one run of the `photoedit` binary.
package struct CLIResult: CustomStringConvertible, Sendable {
    package let arguments: [String]
    package let status: Int32
    package let stdout: String
    package let stderr: String

    package init(arguments: [String], status: Int32, stdout: String, stderr: String) {
        self.arguments = arguments
        self.status = status
        self.stdout = stdout
        self.stderr = stderr
    }

    package var succeeded: Bool { status == 0 }
    package var stdoutLines: [String] { stdout.lines }
    package var stderrLines: [String] { stderr.lines }

    package var description: String {
        "photoedit \(arguments.joined(separator: " ")) → exit \(status)\nstdout: \(stdout)\nstderr: \(stderr)"
    }

    /// stdout parsed as the engine's JSON.
    package func json() throws -> JSONValue { try JSONValue.parse(Data(stdout.utf8)) }
}

extension String {
    /// Non-empty lines.
    package var lines: [String] { split(whereSeparator: \.isNewline).map(String.init) }
}

/// `photoedit serve` started as a process on a library folder, on a free
/// port it picks itself (`--port 0`); the first line it prints names it. It
/// runs on a `Lifeline`: it stops when the test process ends, however it ends.
// @unchecked: Foundation's Process is not Sendable; all stored properties are `let`s, and waiting is serialised by the Mutexes below.
package final class ServeProcess: @unchecked Sendable {
    package let process: Process
    /// The port it listens on.
    package let port: Int
    /// The first line it printed ("listening on http://127.0.0.1:PORT").
    package let firstLine: String
    /// Its stderr, or nil when discarded.
    package let errors: URL?

    /// Starts `photoedit serve --library LIBRARY --port 0 ARGS` on `lifeline`
    /// (this process's when nil); its stderr goes to `LIBRARY-serve.err`
    /// beside the library (`keepErrors`) or nowhere. Throws when it printed no port.
    package init(library: URL, arguments: [String] = [], keepErrors: Bool = true, lifeline: Lifeline? = nil) throws {
        process = try PhotoEditBinary.process(["serve", "--library", library.path, "--port", "0"] + arguments)
        if keepErrors {
            let errors = library.deletingLastPathComponent().appendingPathComponent(library.lastPathComponent + "-serve.err")
            _ = FileManager.default.createFile(atPath: errors.path, contents: nil)
            process.standardError = try FileHandle(forWritingTo: errors)
            self.errors = errors
        } else {
            process.standardError = FileHandle.nullDevice
            errors = nil
        }
        let stdout = Pipe()
        process.standardOutput = stdout
        try (lifeline ?? Lifeline.shared.get()).run(process)
        let (text, listening) = Self.firstLine(stdout)
        guard let port = listening else {
            process.terminate()
            _ = waitForTermination(process)
            throw TestFailure("serve did not start: \(text)")
        }
        self.port = port
        firstLine = text
    }

    /// The first line serve prints, and the port it names.
    static func firstLine(_ stdout: Pipe) -> (text: String, port: Int?) {
        var line = Data()
        while !line.contains(UInt8(ascii: "\n")) {
            guard let chunk = try? FileIO.readSome(stdout.fileHandleForReading.fileDescriptor, what: "serve's output") else { break }
            if chunk.isEmpty { break }
            line += chunk
        }
        let text = String(decoding: line, as: UTF8.self)
        return (text, text.components(separatedBy: "127.0.0.1:").last.flatMap { Int($0.prefix { $0.isNumber }) })
    }

    /// How it ended, once it was waited for (it is waited for once, by
    /// whoever holds `waiting`; `ended` is read without waiting).
    private let ended = Mutex<Termination?>(nil)
    private let waiting = Mutex<Void>(())

    /// Waits until it ends: how it ended.
    @discardableResult
    package func wait() -> Termination {
        waiting.withLock { _ in
            if let termination { return termination }
            let result = waitForTermination(process)
            ended.withLock { $0 = result }
            return result
        }
    }

    /// How it ended, if it was waited for (`wait`, `stop`, `kill9`); nil before.
    package var termination: Termination? { ended.withLock { $0 } }

    /// Does it still run? (Not after `wait`, `stop` or `kill9`: they reap it
    /// themselves, and Foundation's `isRunning` may not learn of that.)
    package var isRunning: Bool { termination == nil && process.isRunning }

    /// Sends `signal` if it still runs (by its own pid only).
    package func send(signal: Int32) {
        if isRunning { kill(process.processIdentifier, signal) }
    }

    /// SIGKILL: no shutdown of any kind.
    package func kill9() {
        send(signal: SIGKILL)
        wait()
    }

    /// SIGTERM (if it still runs), then waits: how it ended.
    @discardableResult
    package func stop() -> Termination {
        send(signal: SIGTERM)
        return wait()
    }

    /// What it wrote on stderr so far.
    package var log: String { errors.flatMap { try? String(contentsOf: $0, encoding: .utf8) } ?? "" }
}
