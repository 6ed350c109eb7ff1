// Only with the `Server` trait (Package.swift): these tests need its servers and modules.
#if Server
import Foundation
import PhotoEdit
import PhotoEditTestSupport
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// The browser tests' scripts (Tests/web/*.py: headless Debian chromium +
/// chromedriver, selenium from PyPI, all installed by scripts/install-deps),
/// run against the `photoedit` binary beside the tests, one at a time.
enum BrowserScript {
    /// The Python with selenium: `$PHOTOEDIT_WEB_PYTHON`, else the venv
    /// scripts/install-deps fills (`${XDG_CACHE_HOME:-~/.cache}/photoedit/venv`).
    static let python: String = {
        let environment = ProcessInfo.processInfo.environment
        if let given = environment["PHOTOEDIT_WEB_PYTHON"] { return given }
        let cache = environment["XDG_CACHE_HOME"].flatMap { $0.isEmpty ? nil : $0 }
            ?? (NSHomeDirectory() + "/.cache")
        return cache + "/photoedit/venv/bin/python"
    }()

    static let chromium = ProcessInfo.processInfo.environment["PHOTOEDIT_CHROMIUM"] ?? "/usr/bin/chromium"
    static let chromedriver = ProcessInfo.processInfo.environment["PHOTOEDIT_CHROMEDRIVER"] ?? "/usr/bin/chromedriver"

    /// Why the browser test cannot run here (nil: it can).
    static let missing: String? = {
        let files = FileManager.default
        if !files.isExecutableFile(atPath: chromium) { return "no chromium at \(chromium)" }
        if !files.isExecutableFile(atPath: chromedriver) { return "no chromedriver at \(chromedriver)" }
        if !files.isExecutableFile(atPath: python) { return "no Python venv at \(python)" }
        let probe = Process()
        probe.executableURL = URL(fileURLWithPath: python)
        probe.arguments = ["-c", "import selenium"]
        probe.standardOutput = FileHandle.nullDevice
        probe.standardError = FileHandle.nullDevice
        guard (try? probe.run()) != nil else { return "cannot run \(python)" }
        probe.waitUntilExit()
        return probe.terminationStatus == 0 ? nil : "selenium is not installed in \(python)"
    }()

    /// Runs a browser script (`runScript`) when no other one runs, on a
    /// thread of its own: the suites' three browser tests (editor, export
    /// dialog, versions) each start chromium and a server, and on 2 cores
    /// running them together pushed all three past their time limits in the
    /// whole suite, while their waits held every cooperative thread, so every
    /// other async test stalled too. Waiting for the lane and for the script
    /// holds no thread. The time limits (10 min) cover the wait for the other
    /// two; each script still stops itself at its own deadline.
    static func run(_ name: String, screenshots: URL, deadline: Int) async throws -> (status: Int32, text: String) {
        await BrowserLane.shared.enter()
        do {
            let result = try await withCheckedThrowingContinuation { (done: CheckedContinuation<(status: Int32, text: String), any Error>) in
                Thread { done.resume(with: Result { try runScript(name, screenshots: screenshots, deadline: deadline) }) }.start()
            }
            await BrowserLane.shared.leave()
            return result
        } catch {
            await BrowserLane.shared.leave()
            throw error
        }
    }

    /// One browser script at a time in the test process.
    actor BrowserLane {
        static let shared = BrowserLane()
        private var busy = false
        private var waiting: [CheckedContinuation<Void, Never>] = []

        func enter() async {
            guard busy else { busy = true; return }
            await withCheckedContinuation { waiting.append($0) }
        }

        func leave() {
            if waiting.isEmpty { busy = false } else { waiting.removeFirst().resume() }
        }
    }

    /// Runs a script of Tests/web against the `photoedit` binary beside the
    /// tests; returns its exit status and output. The script stops itself at
    /// `deadline` seconds; 30 s later it gets SIGTERM (it quits the browser
    /// and the servers), 10 s after that its process group gets SIGKILL
    /// (`--process-group`: the browser, chromedriver and the servers are in it).
    static func runScript(_ name: String, screenshots: URL, deadline: Int) throws -> (status: Int32, text: String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: python)
        process.arguments = [Paths.root.appendingPathComponent("Tests/web/" + name).path,
                             "--binary", try PhotoEditBinary.url().path, "--screenshots", screenshots.path,
                             "--deadline", String(deadline), "--process-group"]
        let output = Pipe()
        process.standardOutput = output
        process.standardError = output
        // Its group (the browser, chromedriver, the servers) is stopped with the test process, however it ends.
        try Lifeline.run(process)
        let collected = Collected()
        let reader = Thread { collected.append((try? FileIO.readToEnd(output.fileHandleForReading.fileDescriptor, what: "the browser script's output")) ?? Data()) }
        reader.start()
        let started = Date()
        let term = TimeInterval(deadline + 30), kill9 = TimeInterval(deadline + 40)
        while process.isRunning && Date().timeIntervalSince(started) < term { Thread.sleep(forTimeInterval: 0.2) }
        if process.isRunning { kill(process.processIdentifier, SIGTERM) }
        while process.isRunning && Date().timeIntervalSince(started) < kill9 { Thread.sleep(forTimeInterval: 0.2) }
        if process.isRunning { kill(-process.processIdentifier, SIGKILL) }
        process.waitUntilExit()
        while !collected.done { Thread.sleep(forTimeInterval: 0.05) }
        return (process.terminationStatus, collected.text)
    }

    /// The script's output, filled by a reader thread.
    final class Collected: Sendable {
        private let state = Mutex((data: Data(), finished: false))

        func append(_ chunk: Data) {
            state.withLock { $0.data += chunk; $0.finished = true }
        }

        var done: Bool { state.withLock { $0.finished } }
        var text: String { state.withLock { String(decoding: $0.data, as: UTF8.self) } }
    }
}
#endif
