// Only with the `Server` trait (Package.swift): these tests need its servers and modules.
#if Server
import Foundation
@testable import PhotoEditServer
import PhotoEditTestSupport
import Testing

/// The typed clients under clients/ (docs/clients.md): regenerated from the
/// OpenAPI document they match the committed ones file for file, and each,
/// installed as a package (`pip install`, `npm pack` + `npm install`,
/// offline), works against a real `photoedit serve` on loopback
/// (scripts/test-clients starts one per language, with a token and a
/// signing key, and stops it).
/// The generators and the clients' dependencies live in the venv
/// scripts/install-deps fills (`~/.cache/photoedit/clients-venv`); tsc is
/// Debian's node-typescript.
@Suite("Generated clients (Python, TypeScript)")
struct ClientSDKTests {
    static let venv = ProcessInfo.processInfo.environment["PHOTOEDIT_CLIENTS_VENV"]
        ?? (ProcessInfo.processInfo.environment["XDG_CACHE_HOME"].flatMap { $0.isEmpty ? nil : $0 } ?? (NSHomeDirectory() + "/.cache"))
        + "/photoedit/clients-venv"

    /// Why the clients cannot be generated or run here (nil: they can).
    static let missing: String? = {
        let files = FileManager.default
        for tool in ["openapi-python-client", "openapi-generator-cli", "ruff", "python"]
        where !files.isExecutableFile(atPath: venv + "/bin/" + tool) {
            return "\(tool) is not in \(venv)"
        }
        for tool in ["/usr/bin/java", "/usr/bin/tsc", "/usr/bin/node", "/usr/bin/npm"] where !files.isExecutableFile(atPath: tool) {
            return "no \(tool)"
        }
        return nil
    }()

    @Test("regenerating the clients from openapi.yaml changes nothing that is committed",
          .enabled(if: missing == nil, "\(missing ?? ""): scripts/install-deps installs the generators"),
          .timeLimit(.minutes(15)))  // above a whole run: there the body waits for the 2-thread pool behind every suite (300-400 s)
    func regeneratedMatch() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("photoedit-clients-\(UUID().uuidString.prefix(8))")
        defer { try? FileManager.default.removeItem(at: folder) }
        let script = Paths.root.appendingPathComponent("scripts/generate-clients").path
        let (status, text) = try await ClientThreads.run { try runToEnd(script, [folder.path], environment: ["PHOTOEDIT_CLIENTS_VENV": Self.venv]) }
        try #require(status == 0, "scripts/generate-clients failed:\n\(text.suffix(3000))")
        let clients = Paths.root.appendingPathComponent("clients")
        let (diffStatus, diff) = try await ClientThreads.run {
            try runToEnd("/usr/bin/diff", ["-r", "-q", "-x", "__pycache__", clients.appendingPathComponent("python/photoedit_client").path,
                                           folder.appendingPathComponent("python/photoedit_client").path]) }
        #expect(diffStatus == 0, "the Python client differs from a fresh generation (run scripts/generate-clients):\n\(diff.prefix(3000))")
        let (tsStatus, tsDiff) = try await ClientThreads.run {
            try runToEnd("/usr/bin/diff", ["-r", "-q", "-x", "__pycache__", clients.appendingPathComponent("typescript/src").path,
                                           folder.appendingPathComponent("typescript/src").path]) }
        #expect(tsStatus == 0, "the TypeScript client differs from a fresh generation (run scripts/generate-clients):\n\(tsDiff.prefix(3000))")
    }

    @Test("each client, installed as a package, against a real photoedit serve: upload, where with spaces, If-Match and a typed 412, signed URL, content editing, change feed",
          .enabled(if: missing == nil, "\(missing ?? ""): scripts/install-deps installs the clients' tools"),
          .timeLimit(.minutes(15)))  // above a whole run: there the body waits for the 2-thread pool behind every suite (300-400 s)
    func clientsAgainstServe() async throws {
        let binary = try PhotoEditBinary.url().path
        let script = Paths.root.appendingPathComponent("scripts/test-clients").path
        let (status, text) = try await ClientThreads.run { try runToEnd(script, [binary], environment: ["PHOTOEDIT_CLIENTS_VENV": Self.venv]) }
        // Python prints `ok …`/`FAIL …`; node's test runner TAP, a subtest a check (`    ok 3 - …`, `not ok …`).
        let lines = text.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }
        let failed = lines.filter { $0.hasPrefix("FAIL") || $0.hasPrefix("not ok") }
        #expect(status == 0 && failed.isEmpty, "scripts/test-clients failed:\n\(text.suffix(6000))")
        #expect(text.contains("installed photoedit-client 1.0.0"), "pip install clients/python: \(text.suffix(3000))")
        #expect(text.contains("packed photoedit-client-1.0.0.tgz"), "npm pack clients/typescript: \(text.suffix(3000))")
        #expect(text.contains("python client: all checks passed"), "\(text.suffix(3000))")
        #expect(text.contains("typescript client: all checks passed"), "\(text.suffix(3000))")
        let passed = lines.filter { $0.hasPrefix("ok ") }.count
        #expect(passed >= 30, "expected both clients' whole runs, got \(passed) checks:\n\(text.suffix(3000))")
    }
}
#endif
