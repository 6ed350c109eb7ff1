import Foundation
import PhotoEditTestSupport
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// The web editor's Export dialog in a real browser: runs
/// Tests/web/test_export.py (the same chromium, chromedriver and selenium as
/// WebEditorBrowserTests) against the `photoedit` binary beside the tests:
/// grid selection, presets, the expected file size checked against the
/// server's real render, an export job's ZIP downloaded and read.
@Suite("Export dialog (browser)")
struct ExportDialogBrowserTests {
    @Test("select two photos, pick a preset, the expected size is the real render's, export, the ZIP's files and their metadata",
          .enabled(if: WebEditorBrowserTests.missing == nil,
                   "\(WebEditorBrowserTests.missing ?? ""): scripts/install-deps installs chromium, chromium-driver and selenium"),
          .timeLimit(.minutes(3)))
    func exportDialogInChromium() throws {
        let screenshots = Paths.root.appendingPathComponent(".build/web-screenshots")
        let process = Process()
        process.executableURL = URL(fileURLWithPath: WebEditorBrowserTests.python)
        process.arguments = [Paths.root.appendingPathComponent("Tests/web/test_export.py").path,
                             "--binary", try PhotoEditBinary.url().path, "--screenshots", screenshots.path,
                             "--deadline", "100", "--process-group"]
        let output = Pipe()
        process.standardOutput = output
        process.standardError = output
        try process.run()
        let collected = WebEditorBrowserTests.Collected()
        let reader = Thread { collected.append(output.fileHandleForReading.readDataToEndOfFile()) }
        reader.start()
        // The script stops itself at its deadline (100 s); past 120 s it gets
        // SIGTERM, past 130 s its process group gets SIGKILL.
        let started = Date()
        while process.isRunning && Date().timeIntervalSince(started) < 120 { Thread.sleep(forTimeInterval: 0.2) }
        if process.isRunning { kill(process.processIdentifier, SIGTERM) }
        while process.isRunning && Date().timeIntervalSince(started) < 130 { Thread.sleep(forTimeInterval: 0.2) }
        if process.isRunning { kill(-process.processIdentifier, SIGKILL) }
        process.waitUntilExit()
        while !collected.done { Thread.sleep(forTimeInterval: 0.05) }
        let text = collected.text
        let failures = text.split(separator: "\n").filter { $0.hasPrefix("FAIL") }
        #expect(process.terminationStatus == 0 && failures.isEmpty,
                "the export dialog test failed (screenshots in \(screenshots.path)):\n\(text.suffix(6000))")
        let passed = text.split(separator: "\n").last { $0.hasSuffix(" s") && $0.contains("checks passed") }
            .flatMap { Int($0.prefix { $0.isNumber }) } ?? 0
        #expect(passed >= 21, "expected the whole run (21+ checks), got \(passed):\n\(text.suffix(3000))")
        #expect(FileManager.default.fileExists(atPath: screenshots.appendingPathComponent("20-export-dialog.png").path))
    }
}
