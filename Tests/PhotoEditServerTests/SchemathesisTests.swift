// Only with the `Server` trait (Package.swift): these tests need its servers and modules.
#if Server
import Foundation
@testable import PhotoEditServer
import Testing
import PhotoEditTestSupport

/// schemathesis against the real `photoedit serve` (scripts/schemathesis):
/// generated requests on every operation of the OpenAPI document, with an
/// admin token; no 5xx, no answer that breaks the document. Bounded: a few
/// examples per operation, at most 120 s of generation.
@Suite("schemathesis against photoedit serve")
struct SchemathesisTests {
    static let venv = ProcessInfo.processInfo.environment["PHOTOEDIT_VENV"]
        ?? FileManager.default.homeDirectoryForCurrentUser.appendingPathComponent(".cache/photoedit/venv").path
    /// scripts/install-deps installs it; only a machine where pip could not
    /// reach PyPI lacks it.
    static let installed = FileManager.default.isExecutableFile(atPath: venv + "/bin/schemathesis")

    @Test("the run's own check finds server paths in problems, and only those",
          .enabled(if: installed, "schemathesis is not installed (scripts/install-deps installs it in ~/.cache/photoedit/venv)"))
    func noServerPathCheck() async throws {
        let script = Paths.root.appendingPathComponent("scripts/schemathesis_checks.py").path
        let (status, text) = try await ClientThreads.run { try runToEnd(Self.venv + "/bin/python", [script]) }
        #expect(status == 0 && text.contains("self-check passed"), "\(text.suffix(2000))")
    }

    @Test("no 5xx and no schema violation on generated requests",
          .enabled(if: installed, "schemathesis is not installed (scripts/install-deps installs it in ~/.cache/photoedit/venv)"),
          .timeLimit(.minutes(15)))  // above a whole run: there the body waits for the 2-thread pool behind every suite (300-400 s)
    func schemathesis() async throws {
        // The run takes minutes: on a Dispatch thread, never blocking Swift's
        // cooperative pool (which the other suites' servers run on).
        let binary = try PhotoEditBinary.url().path
        let script = Paths.root.appendingPathComponent("scripts/schemathesis").path
        let (status, text) = try await ClientThreads.run { try runToEnd(script, [binary], environment: ["PHOTOEDIT_VENV": Self.venv]) }
        // The summary names every failure; its reproductions can be huge.
        let summary = text.components(separatedBy: "\n").filter { $0.count < 300 }.suffix(60).joined(separator: "\n")
        #expect(status == 0, "scripts/schemathesis failed:\n\(summary)")
        #expect(text.contains("passed") && !text.contains("Failures:"), "\(summary)")
    }
}
#endif
