// Only with the `Server` trait (Package.swift): these tests need its servers and modules.
#if Server
import Foundation
import PhotoEditTestSupport
import Testing

/// Versions in the web editor, in a real browser: runs Tests/web/test_versions.py
/// (the same chromium, chromedriver and selenium as WebEditorBrowserTests)
/// against the `photoedit` binary beside the tests: a virtual copy stacked
/// in the grid, a snapshot taken and restored, a preset saved from an edit
/// and a sync onto a checked photo, each checked in the page and in the library.
@Suite("Web editor: versions (browser)")
struct WebVersionsBrowserTests {
    @Test("virtual copy (stack badge, expand), snapshot taken and restored, Save as preset with the checklist, Sync onto a checked photo",
          .enabled(if: BrowserScript.missing == nil,
                   "\(BrowserScript.missing ?? ""): scripts/install-deps installs chromium, chromium-driver and selenium"),
          .timeLimit(.minutes(15)))  // above a whole run: there the body waits for the 2-thread pool behind every suite (300-400 s)
    func versionsInChromium() async throws {
        let screenshots = Paths.root.appendingPathComponent(".build/web-screenshots")
        let (status, text) = try await BrowserScript.run("test_versions.py", screenshots: screenshots, deadline: 110)
        #expect(status == 0 && !text.split(separator: "\n").contains { $0.hasPrefix("FAIL") },
                "the versions browser test failed (screenshots in \(screenshots.path)):\n\(text.suffix(6000))")
        let passed = text.split(separator: "\n").last { $0.hasSuffix(" s") && $0.contains("checks passed") }
            .flatMap { Int($0.prefix { $0.isNumber }) } ?? 0
        #expect(passed >= 16, "expected the whole run (16 checks), got \(passed):\n\(text.suffix(3000))")
    }
}
#endif
