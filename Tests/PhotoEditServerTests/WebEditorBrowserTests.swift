// Only with the `Server` trait (Package.swift): these tests need its servers and modules.
#if Server
import Foundation
import PhotoEditTestSupport
import Testing

/// The web editor in a real browser: runs Tests/web/test_editor.py (headless
/// Debian chromium + chromedriver, selenium from PyPI, all installed by
/// scripts/install-deps) against the `photoedit` binary beside the tests.
/// It uploads, edits with a slider, saves, reverts, sees another client's
/// change live and takes screenshots into .build/web-screenshots/.
@Suite("Web editor (browser)")
struct WebEditorBrowserTests {
    @Test("upload, slider preview, save, history, revert, live update, 412, auto, favorite, curve, crop tool, masks and spots (drawn, saved, render checked by region), albums, hide, search, phone width",
          .enabled(if: BrowserScript.missing == nil, "\(BrowserScript.missing ?? ""): scripts/install-deps installs chromium, chromium-driver and selenium"),
          .timeLimit(.minutes(15)))  // above a whole run: there the body waits for the 2-thread pool behind every suite (300-400 s)
    func editorInChromium() async throws {
        let screenshots = Paths.root.appendingPathComponent(".build/web-screenshots")
        let (status, text) = try await BrowserScript.run("test_editor.py", screenshots: screenshots, deadline: 150)
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
}
#endif
