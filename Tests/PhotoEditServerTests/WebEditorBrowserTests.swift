// Only with the `Server` trait (Package.swift): these tests need its servers and modules.
#if Server
import Foundation
import PhotoEditTestSupport
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// The web editor in a real browser: runs Tests/web/test_editor.py (headless
/// Debian chromium + chromedriver, selenium from PyPI, all installed by
/// scripts/install-deps) against the `photoedit` binary beside the tests.
/// It uploads, edits with a slider, saves, reverts, sees another client's
/// change live and takes screenshots into .build/web-screenshots/.
@Suite("Web editor (browser)")
struct WebEditorBrowserTests {
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

    @Test("upload, slider preview, save, history, revert, live update, 412, auto, favorite, curve, crop tool, masks and spots (drawn, saved, render checked by region), albums, hide, search, phone width",
          .enabled(if: missing == nil, "\(missing ?? ""): scripts/install-deps installs chromium, chromium-driver and selenium"),
          .timeLimit(.minutes(10)))
    func editorInChromium() async throws {
        let screenshots = Paths.root.appendingPathComponent(".build/web-screenshots")
        let (status, text) = try await Self.runBrowserScript("test_editor.py", screenshots: screenshots, deadline: 150)
        let failures = text.split(separator: "\n").filter { $0.hasPrefix("FAIL") }
        #expect(status == 0 && failures.isEmpty,
                "the browser test failed (screenshots in \(screenshots.path)):\n\(text.suffix(6000))")
        let passed = text.split(separator: "\n").last { $0.hasSuffix(" s") && $0.contains("checks passed") }
            .flatMap { Int($0.prefix { $0.isNumber }) } ?? 0
        #expect(passed >= 35, "expected the whole run (35+ checks), got \(passed):\n\(text.suffix(3000))")
        for name in ["02-library", "03-editor-preview", "05-saved", "06-live-update", "08-phone-photo"] {
            #expect(FileManager.default.fileExists(atPath: screenshots.appendingPathComponent(name + ".png").path), "no screenshot \(name)")
        }
    }

    /// Runs a browser script (`runScript`) when no other one runs, on a
    /// thread of its own: the suites' three browser tests (editor, export
    /// dialog, versions) each start chromium and a server, and on 2 cores
    /// running them together pushed all three past their time limits in the
    /// whole suite, while their waits held every cooperative thread, so every
    /// other async test stalled too. Waiting for the lane and for the script
    /// holds no thread. The time limits (10 min) cover the wait for the other
    /// two; each script still stops itself at its own deadline.
    static func runBrowserScript(_ name: String, screenshots: URL, deadline: Int) async throws -> (status: Int32, text: String) {
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
        try process.run()
        let collected = Collected()
        let reader = Thread { collected.append(output.fileHandleForReading.readDataToEndOfFile()) }
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
    final class Collected: @unchecked Sendable {  // guarded by lock
        private let lock = NSLock()
        private var data = Data()
        private var finished = false

        func append(_ chunk: Data) {
            lock.lock()
            data += chunk
            finished = true
            lock.unlock()
        }

        var done: Bool { lock.lock(); defer { lock.unlock() }; return finished }
        var text: String { lock.lock(); defer { lock.unlock() }; return String(decoding: data, as: UTF8.self) }
    }
}
#endif
