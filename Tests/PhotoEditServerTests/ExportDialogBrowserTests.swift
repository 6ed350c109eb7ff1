// Only with the `Server` trait (Package.swift): these tests need its servers and modules.
#if Server
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
          .enabled(if: BrowserScript.missing == nil,
                   "\(BrowserScript.missing ?? ""): scripts/install-deps installs chromium, chromium-driver and selenium"),
          .timeLimit(.minutes(15)))  // above a whole run: there the body waits for the 2-thread pool behind every suite (300-400 s)
    func exportDialogInChromium() async throws {
        let screenshots = Paths.root.appendingPathComponent(".build/web-screenshots")
        // The script stops itself at its deadline (100 s); runScript sends
        // SIGTERM 30 s later and SIGKILL to its process group 10 s after that.
        let (status, text) = try await BrowserScript.run("test_export.py", screenshots: screenshots, deadline: 100)
        let failures = text.split(separator: "\n").filter { $0.hasPrefix("FAIL") }
        #expect(status == 0 && failures.isEmpty,
                "the export dialog test failed (screenshots in \(screenshots.path)):\n\(text.suffix(6000))")
        let passed = text.split(separator: "\n").last { $0.hasSuffix(" s") && $0.contains("checks passed") }
            .flatMap { Int($0.prefix { $0.isNumber }) } ?? 0
        #expect(passed >= 21, "expected the whole run (21+ checks), got \(passed):\n\(text.suffix(3000))")
        #expect(FileManager.default.fileExists(atPath: screenshots.appendingPathComponent("20-export-dialog.png").path))
    }
}
#endif
