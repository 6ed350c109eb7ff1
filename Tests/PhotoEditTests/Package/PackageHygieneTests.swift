import Foundation
import Testing

/// Issue 42's package hygiene, read from the package's own files.
@Suite("Package hygiene")
struct PackageHygieneTests {
    /// Where a test file names a suite declared in another file (`LutTests.cube`,
    /// `DetailFilterTests()`, `typealias Fixture = OtherTests.Fixture`): a
    /// helper that more than one file uses belongs in a support place —
    /// PhotoEditTestSupport for every test target, a target's `Support/`
    /// folder for its own files — not inside one suite.
    static func crossSuiteUses(_ files: [(path: String, content: String)]) -> [String] {
        let suite = /^\s*(?:@[A-Za-z]+(?:\([^)]*\))?\s+)*(?:(?:public|package|internal|fileprivate|private|final)\s+)*(?:struct|class|enum|actor)\s+([A-Za-z_][A-Za-z0-9_]*Tests)\b/
        let code = files.map { (path: $0.path, lines: SwiftSource.code($0.content)) }
        var declaredIn: [String: Set<String>] = [:]
        for file in code {
            for line in file.lines {
                if let m = line.firstMatch(of: suite) { declaredIn[String(m.1), default: []].insert(file.path) }
            }
        }
        let suites = declaredIn.keys.sorted()
        var uses: [String] = []
        for file in code {
            let others = suites.filter { !declaredIn[$0, default: []].contains(file.path) }
            for (n, line) in file.lines.enumerated() {
                if let name = SwiftSource.word(of: others, in: line) {
                    uses.append("\(file.path):\(n + 1) uses \(name), a suite of another file: \(line.trimmingCharacters(in: .whitespaces))")
                }
            }
        }
        return uses
    }

    @Test func noTestFileUsesAnotherFilesSuite() throws {
        let files = try SwiftSource.files(under: "Tests")
        #expect(files.count > 100, "the test sources were found (\(files.count) files)")
        let uses = Self.crossSuiteUses(files)
        #expect(uses.isEmpty, """
            move these helpers into PhotoEditTestSupport (shared by test targets) or the target's Support/ folder:
            \(uses.joined(separator: "\n"))
            """)
    }

    /// The finder on made-up files: a static helper, an instance and a
    /// nested type of another file's suite are found; a comment, a string
    /// and the file's own suite are not.
    @Test func aCrossSuiteUseIsFound() {
        let files = [
            ("A/LutTests.swift", "@Suite struct LutTests {\n    static func cube() -> String { \"\" }\n    @Test func t() { _ = Self.cube() }\n}\n"),
            ("B/OtherTests.swift", """
                /// Like LutTests, but "LutTests" in a string is no use.
                struct OtherTests {
                    let detail = DetailTests()
                    typealias Fixture = LutTests.Fixture
                    func t() { _ = LutTests.cube() + "LutTests"; _ = OtherTests.self }
                }
                """),
            ("C/DetailTests.swift", "final class DetailTests {}\n"),
        ]
        #expect(Self.crossSuiteUses(files) == [
            "B/OtherTests.swift:3 uses DetailTests, a suite of another file: let detail = DetailTests()",
            "B/OtherTests.swift:4 uses LutTests, a suite of another file: typealias Fixture = LutTests.Fixture",
            "B/OtherTests.swift:5 uses LutTests, a suite of another file: func t() { _ = LutTests.cube() + \"\"; _ = OtherTests.self }",
        ])
    }

    // MARK: Every import declared

    /// Modules of the toolchain and the system, which no manifest lists.
    static let systemModules: Set<String> = ["Foundation", "FoundationNetworking", "FoundationXML", "FoundationEssentials", "Dispatch",
                                             "Glibc", "Musl", "Darwin", "Synchronization", "RegexBuilder", "Testing", "XCTest",
                                             "_Concurrency"]

    /// Each target's dependencies as Package.swift names them: the quoted
    /// names after its `dependencies:` (targets, and products without their
    /// package's name), whatever their trait condition.
    static func declaredDependencies(_ manifest: String) -> [String: Set<String>] {
        let start = /^        \.(?:target|testTarget|executableTarget|systemLibrary)\(/
        var blocks: [String] = []
        for line in manifest.split(separator: "\n", omittingEmptySubsequences: false) {
            if line.firstMatch(of: start) != nil { blocks.append("") }
            if !blocks.isEmpty { blocks[blocks.count - 1] += line + "\n" }
        }
        var out: [String: Set<String>] = [:]
        for block in blocks {
            guard let name = block.firstMatch(of: /name:\s*"([^"]+)"/)?.1 else { continue }
            var dependencies = block.split(separator: "dependencies:", maxSplits: 1).dropFirst().first.map(String.init) ?? ""
            for end in ["resources:", "exclude:", "path:"] {
                if let r = dependencies.range(of: end) { dependencies = String(dependencies[..<r.lowerBound]) }
            }
            dependencies = dependencies.replacing(/package:\s*"[^"]*"/, with: "").replacing(/traits:\s*\[[^\]]*\]/, with: "")
            out[String(name)] = Set(dependencies.matches(of: /"([A-Za-z0-9_]+)"/).map { String($0.1) })
        }
        return out
    }

    /// Each `import` of a target's files (`Sources/<target>/`, `Tests/<target>/`)
    /// that is neither the target's declared dependency nor a system module.
    static func undeclaredImports(_ files: [(path: String, content: String)], _ dependencies: [String: Set<String>]) -> [String] {
        let importLine = /^\s*(?:@testable\s+|@preconcurrency\s+|@_exported\s+)*import\s+([A-Za-z0-9_]+)\s*$/
        var out: [String] = []
        for file in files {
            let parts = file.path.split(separator: "/")
            guard parts.count > 2, let declared = dependencies[String(parts[1])] else { continue }
            for (n, line) in file.content.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
                guard let module = line.firstMatch(of: importLine)?.1.description,
                      module != String(parts[1]), !systemModules.contains(module), !declared.contains(module) else { continue }
                out.append("\(file.path):\(n + 1) imports \(module), which Package.swift does not list for \(parts[1])")
            }
        }
        return out
    }

    @Test func everyImportIsDeclared() throws {
        let manifest = try String(contentsOf: Paths.root.appendingPathComponent("Package.swift"), encoding: .utf8)
        let dependencies = Self.declaredDependencies(manifest)
        #expect(dependencies["PhotoEditTests"]?.contains("PhotoEditTestSupport") == true && dependencies.count > 15,
                "the manifest's targets were read: \(dependencies.keys.sorted())")
        let files = try SwiftSource.files(under: "Sources") + SwiftSource.files(under: "Tests")
        let undeclared = Self.undeclaredImports(files, dependencies)
        #expect(undeclared.isEmpty, "\(undeclared.joined(separator: "\n"))")
    }

    /// The reading on a made-up manifest: a module reached only through
    /// another dependency is found; a trait-conditional one counts as listed.
    @Test func anUndeclaredImportIsFound() {
        let manifest = """
            let package = Package(name: "x", targets: [
                    .target(name: "A", dependencies: ["B", .product(name: "Logging", package: "swift-log",
                                                                     condition: .when(traits: ["Server"]))]),
                    .target(name: "B", dependencies: ["C"]),
            ])
            """
        let dependencies = Self.declaredDependencies(manifest)
        #expect(dependencies == ["A": ["B", "Logging"], "B": ["C"]])
        let files = [("Sources/A/a.swift", "import Foundation\n@testable import B\nimport Logging\nimport C\n")]
        #expect(Self.undeclaredImports(files, dependencies) == ["Sources/A/a.swift:4 imports C, which Package.swift does not list for A"])
    }
}
