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
          .timeLimit(.minutes(4)))
    func editorInChromium() throws {
        let screenshots = Paths.root.appendingPathComponent(".build/web-screenshots")
        let process = Process()
        // --process-group: the script leads a process group of its own (the
        // browser, chromedriver and the servers in it), so a run past its
        // time can be ended whole.
        process.executableURL = URL(fileURLWithPath: Self.python)
        process.arguments = [Paths.root.appendingPathComponent("Tests/web/test_editor.py").path,
                             "--binary", try PhotoEditBinary.url().path, "--screenshots", screenshots.path,
                             "--deadline", "150", "--process-group"]
        let output = Pipe()
        process.standardOutput = output
        process.standardError = output
        try process.run()
        let collected = Collected()
        let reader = Thread { collected.append(output.fileHandleForReading.readDataToEndOfFile()) }
        reader.start()
        // The script stops itself at its deadline (150 s); past 180 s it gets
        // SIGTERM (it quits the browser and the server), past 190 s the group
        // gets SIGKILL.
        let started = Date()
        while process.isRunning && Date().timeIntervalSince(started) < 180 { Thread.sleep(forTimeInterval: 0.2) }
        if process.isRunning { kill(process.processIdentifier, SIGTERM) }
        while process.isRunning && Date().timeIntervalSince(started) < 190 { Thread.sleep(forTimeInterval: 0.2) }
        if process.isRunning { kill(-process.processIdentifier, SIGKILL) }
        process.waitUntilExit()
        while !collected.done { Thread.sleep(forTimeInterval: 0.05) }
        let text = collected.text
        let failures = text.split(separator: "\n").filter { $0.hasPrefix("FAIL") }
        #expect(process.terminationStatus == 0 && failures.isEmpty,
                "the browser test failed (screenshots in \(screenshots.path)):\n\(text.suffix(6000))")
        let passed = text.split(separator: "\n").last { $0.hasSuffix(" s") && $0.contains("checks passed") }
            .flatMap { Int($0.prefix { $0.isNumber }) } ?? 0
        #expect(passed >= 35, "expected the whole run (35+ checks), got \(passed):\n\(text.suffix(3000))")
        for name in ["02-library", "03-editor-preview", "05-saved", "06-live-update", "08-phone-photo"] {
            #expect(FileManager.default.fileExists(atPath: screenshots.appendingPathComponent(name + ".png").path), "no screenshot \(name)")
        }
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
