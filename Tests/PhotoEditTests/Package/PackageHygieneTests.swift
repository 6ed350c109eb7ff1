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
}
