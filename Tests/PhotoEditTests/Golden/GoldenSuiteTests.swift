import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif
import Testing
@testable import PhotoEdit
@testable import PhotoEditGolden

/// The engine's golden-case runner (`GoldenSuite`), its reports and `photoedit test`.
@Suite("Golden suites")
struct GoldenSuiteTests {
    /// A suite folder with cases `group/name` → case.json text.
    static func suite(_ cases: [String: String], in temp: TemporaryDirectory) throws -> URL {
        let root = temp.url.appendingPathComponent("suite")
        for (id, json) in cases {
            let folder = root.appendingPathComponent(id)
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            try Data(json.utf8).write(to: folder.appendingPathComponent("case.json"))
        }
        try FileManager.default.copyItem(atPath: Paths.sample("chelsea.jpg"), toPath: root.appendingPathComponent("chelsea.jpg").path)
        return root
    }

    @Test func badCaseFilesAreOneLineErrors() throws {
        let temp = TemporaryDirectory("photoedit-golden-bad")
        let root = try Self.suite([
            "g/0001-no-source": #"{"chain": "exposure=1", "size": 64}"#,
            "g/0002-both": #"{"source": "chelsea.jpg", "chain": "exposure=1", "recipe": {}, "size": 64}"#,
            "g/0003-neither": #"{"source": "chelsea.jpg", "size": 64}"#,
            "g/0004-version": #"{"source": "chelsea.jpg", "chain": "exposure=1", "version": "newest", "size": 64}"#,
            "g/0005-size": #"{"source": "chelsea.jpg", "chain": "exposure=1", "size": 0}"#,
            "g/0006-not-json": "{ source",
            "g/0007-tolerance": #"{"source": "chelsea.jpg", "chain": "exposure=1", "size": 64, "tolerance": {"max": -1, "mean": 1}}"#,
            "g/0008-missing-photo": #"{"source": "nowhere.jpg", "chain": "exposure=1", "size": 64}"#,
            "g/0009-bad-chain": #"{"source": "chelsea.jpg", "chain": "exposure=lots", "size": 64}"#,
        ], in: temp)
        // A case.json over 1 MB is not read at all.
        let huge = root.appendingPathComponent("g/0010-huge")
        try FileManager.default.createDirectory(at: huge, withIntermediateDirectories: true)
        try Data(repeating: 0x20, count: 2 << 20).write(to: huge.appendingPathComponent("case.json"))
        let suite = GoldenSuite(root: root, record: .missing)
        let cases = try suite.cases()
        #expect(cases.map(\.name) == ["0001-no-source", "0002-both", "0003-neither", "0004-version", "0005-size", "0006-not-json",
                                       "0007-tolerance", "0008-missing-photo", "0009-bad-chain", "0010-huge"])
        let results = suite.run(cases, jobs: 2)
        let messages = results.map { result -> String in
            guard case .error(let message) = result.outcome else { return "not an error: \(result.outcome)" }
            return message
        }
        for (result, message) in zip(results, messages) {
            #expect(!message.contains("\n") && !message.hasPrefix("not an error"), "\(result.golden.id): \(message)")
        }
        #expect(messages[0].contains("source"))
        #expect(messages[1].contains("not both") && messages[2].contains("not neither"))
        #expect(messages[3].contains("newest") && messages[4].contains("size"))
        #expect(messages[6].contains("tolerance max -1"))
        #expect(messages[7].contains("nowhere.jpg"))
        #expect(messages[8].contains("exposure"))
        #expect(messages[9].contains("larger than 1 MB"))
        // Nothing recorded for cases that could not run.
        #expect(cases.allSatisfy { !FileManager.default.fileExists(atPath: $0.expected.path) })
        #expect(GoldenReport.Summary(results).errors == 10)
    }

    @Test func recipeAndVersionCasesRecordThenPass() throws {
        let temp = TemporaryDirectory("photoedit-golden-recipe")
        let recipe = #"{"format": "org.photoedit.recipe", "formatVersion": 1, "filters": [{"id": "exposure", "version": 1, "params": {"ev": 1}}]}"#
        let root = try Self.suite([
            "a/0001-recipe": #"{"source": "chelsea.jpg", "recipe": \#(recipe), "size": 64}"#,
            "a/0002-chain": #"{"sample": "chelsea.jpg", "chain": "exposure=1", "size": 64}"#,
            "a/0003-unadjusted": #"{"source": "chelsea.jpg", "chain": "exposure=1", "version": "unadjusted", "size": 64}"#,
        ], in: temp)
        // A folder of photos beside the groups is not a case.
        try FileManager.default.createDirectory(at: root.appendingPathComponent("photos/raw"), withIntermediateDirectories: true)
        #expect(try GoldenSuite(root: root).cases().map(\.id) == ["a/0001-recipe", "a/0002-chain", "a/0003-unadjusted"])
        let recorded = GoldenSuite(root: root, record: .missing).run(try GoldenSuite(root: root).cases())
        #expect(recorded.map(\.outcome) == [.recorded, .recorded, .recorded])
        // The recipe and the chain are the same edit; the unadjusted version is the photo.
        let recipeCase = try #require(recorded.first?.golden), chainCase = recorded[1].golden, unadjusted = recorded[2].golden
        #expect(try ImageComparison.compare(recipeCase.expected.path, chainCase.expected.path).maxDeltaE == 0)
        #expect(try ImageComparison.compare(unadjusted.expected.path, chainCase.expected.path).meanDeltaE > 5)
        let again = GoldenSuite(root: root, failures: temp.url.appendingPathComponent("failures")).run(try GoldenSuite(root: root).cases())
        #expect(again.map(\.outcome) == [.passed, .passed, .passed])
        #expect(!FileManager.default.fileExists(atPath: temp.file("failures")), "passing cases leave no failure folder")
    }

    @Test func cliTestWritesReportsAndFails() throws {
        let temp = TemporaryDirectory("photoedit-cli-test")
        let root = try Self.suite([
            "portraits/0001-bright": #"{"source": "chelsea.jpg", "chain": "exposure=+1", "size": 96, "note": "one stop <brighter>"}"#,
            "portraits/0002-contrast": #"{"source": "chelsea.jpg", "chain": "contrast=20", "size": 96}"#,
        ], in: temp)
        let failures = temp.file("failures")
        let missing = try CLI.run(["test", root.path, "--failures", failures])
        #expect(missing.status == 1 && missing.stdout.contains("MISSING portraits/0001-bright"), "\(missing)")
        let recorded = try CLI.run(["test", root.path, "--record", "--failures", failures])
        #expect(recorded.status == 0 && recorded.stdout.contains("OK: 2 recorded"), "\(recorded)")
        let passed = try CLI.run(["test", root.path, "--failures", failures, "--jobs", "2"])
        #expect(passed.status == 0 && passed.stdout.contains("OK: 2 passed"), "\(passed)")

        // The edit changes: the case fails, with pictures in the report and a JUnit failure.
        try Data(#"{"source": "chelsea.jpg", "chain": "exposure=+1.5", "size": 96, "note": "one stop <brighter>"}"#.utf8)
            .write(to: root.appendingPathComponent("portraits/0001-bright/case.json"))
        try FileManager.default.createDirectory(atPath: temp.file("out"), withIntermediateDirectories: true)
        let report = temp.file("out/report.html"), junit = temp.file("out/junit.xml")
        let failed = try CLI.run(["test", root.path, "--failures", failures, "--report", report, "--junit", junit])
        #expect(failed.status == 1, "\(failed)")
        #expect(failed.stdout.contains("FAIL portraits/0001-bright: ΔE2000 max") && failed.stdout.contains("FAILED: 1 passed, 1 failed"), "\(failed)")
        let html = try String(contentsOfFile: report, encoding: .utf8)
        #expect(html.contains("one stop &lt;brighter&gt;"))
        for name in ["expected.png", "actual.png", "diff.png"] {
            let link = "../failures/portraits/0001-bright/\(name)"
            #expect(html.contains("<img src=\"\(link)\""), "\(name) is shown")
            #expect(FileManager.default.fileExists(atPath: temp.file("out/" + link)), "\(link) exists beside the report")
        }
        let diff = try Pixels.load(temp.file("failures/portraits/0001-bright/diff.png"))
        #expect(diff.width == 96 && diff.bands == 3)
        let document = try XMLDocument(contentsOf: URL(fileURLWithPath: junit))
        let suite = try #require(try document.nodes(forXPath: "/testsuites/testsuite").first as? XMLElement)
        #expect(suite.attribute(forName: "tests")?.stringValue == "2" && suite.attribute(forName: "failures")?.stringValue == "1")
        let failure = try document.nodes(forXPath: "//testcase[@name='0001-bright']/failure")
        #expect(failure.count == 1)
        #expect(try document.nodes(forXPath: "//testcase[@name='0002-contrast']/failure").isEmpty)

        // --record-all takes the new look; then it passes.
        let rerecorded = try CLI.run(["test", root.path, "--record-all", "--failures", failures])
        #expect(rerecorded.status == 0 && rerecorded.stdout.contains("RECORDED portraits/0001-bright"), "\(rerecorded)")
        #expect(try CLI.run(["test", root.path, "--failures", failures]).status == 0)

        // Usage errors: one line, exit 2.
        let nowhere = try CLI.run(["test", temp.file("nowhere")])
        #expect(nowhere.status == 2 && nowhere.stderrLines.count == 1, "\(nowhere)")
        let empty = try CLI.run(["test", root.path, "--filter", "no-such-case"])
        #expect(empty.status == 2 && empty.stderrLines.count == 1, "\(empty)")
        let badReport = try CLI.run(["test", root.path, "--failures", failures, "--report", temp.file("no/folder/r.html")])
        #expect(badReport.status == 2 && badReport.stderrLines.count == 1, "\(badReport)")
    }

    /// photoedit's own suite runs through `photoedit test` as it runs through GoldenTests.
    @Test func projectSuiteRunsThroughTheCLI() throws {
        let temp = TemporaryDirectory("photoedit-cli-test-project")
        let result = try CLI.run(["test", "filters", "--samples", "samples", "--samples", ".", "--filter", "exposure/",
                                  "--failures", temp.file("failures"), "--jobs", "2"])
        let count = GoldenCase.all.filter { $0.filter == "exposure" }.count
        #expect(result.status == 0 && result.stdout.contains("OK: \(count) passed"), "\(result)")
    }

    @Test func relativePathsAndEscaping() {
        #expect(GoldenReport.relativePath(URL(fileURLWithPath: "/a/b/c/d.png"), from: URL(fileURLWithPath: "/a/x")) == "../b/c/d.png")
        #expect(GoldenReport.relativePath(URL(fileURLWithPath: "/a/d.png"), from: URL(fileURLWithPath: "/a")) == "d.png")
        #expect(GoldenReport.escape("a<b>&\"c\u{1}\u{1B}") == "a&lt;b&gt;&amp;&quot;c")
    }
}
