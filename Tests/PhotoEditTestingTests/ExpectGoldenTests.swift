import Foundation
import PhotoEdit
import PhotoEditTesting
import PhotoEditTestSupport
import Testing

/// A library holding chelsea.jpg edited with `chain`.
func library(_ scratch: TemporaryDirectory, chain: String) throws -> (PhotoLibrary, String) {
    let library = try PhotoLibrary(url: scratch.url.appendingPathComponent("library"))
    let id = try #require(try library.importItems([Paths.sample("chelsea.jpg")]).first?.id)
    try library.apply(chain: chain, to: id)
    return (library, id)
}

/// PhotoEditTesting's Swift Testing helpers: a match passes, a mismatch fails.
@Suite("expectGolden")
struct ExpectGoldenTests {
    @Test func matchingImagePasses() throws {
        let scratch = TemporaryDirectory("photoedit-testing")
        let (library, id) = try library(scratch, chain: "exposure=+0.5")
        let golden = scratch.file("golden.png")
        try library.render(id, to: golden, options: RenderOptions(maxWidth: 128, maxHeight: 128))
        let difference = expectGolden(rendering: id, in: library, options: RenderOptions(maxWidth: 128, maxHeight: 128), matches: golden, record: .never, failures: scratch.url)
        #expect(difference?.maxDeltaE == 0)
        #expect(expectGolden(golden, matches: golden, record: .never)?.passes == true)
    }

    @Test func mismatchFailsTheTest() throws {
        let scratch = TemporaryDirectory("photoedit-testing")
        let (library, id) = try library(scratch, chain: "exposure=+1")
        let golden = scratch.file("golden.png")
        try library.render(id, to: golden, options: RenderOptions(maxWidth: 128, maxHeight: 128))
        try library.apply(chain: "exposure=-1", to: id)
        // The helper records an issue: withKnownIssue fails when none is recorded.
        withKnownIssue("a different render must fail") {
            expectGolden(rendering: id, in: library, options: RenderOptions(maxWidth: 128, maxHeight: 128), matches: golden, record: .never, failures: scratch.url)
        } matching: { issue in
            issue.comments.contains { $0.rawValue.contains("does not match") && $0.rawValue.contains("ΔE2000 max") }
        }
        withKnownIssue("a missing golden image fails when not recording") {
            expectGolden(golden, matches: scratch.file("missing.png"), record: .never)
        } matching: { issue in
            issue.comments.contains { $0.rawValue.contains("PHOTOEDIT_RECORD_GOLDEN=1") }
        }
        // A loose enough tolerance passes the same pair.
        let loose = GoldenTolerance(maxDeltaE: 100, meanDeltaE: 100)
        #expect(expectGolden(rendering: id, in: library, options: RenderOptions(maxWidth: 128, maxHeight: 128), matches: golden,
                             tolerance: loose, record: .never)?.passes == true)
    }

    @Test func failureLeavesExpectedActualAndDiff() throws {
        let scratch = TemporaryDirectory("photoedit-testing")
        let (library, id) = try library(scratch, chain: "saturation=-100")
        let golden = scratch.file("goldens/grey.png"), actual = scratch.file("colour.png")
        try FileManager.default.createDirectory(atPath: scratch.file("goldens"), withIntermediateDirectories: true)
        try library.render(id, to: golden, options: RenderOptions(maxWidth: 96, maxHeight: 96))
        try library.render(id, version: .unadjusted, to: actual, options: RenderOptions(maxWidth: 96, maxHeight: 96))
        let failures = scratch.url.appendingPathComponent("failures")
        let match = GoldenMatch.check(actual, matches: golden, record: .never, failures: failures)
        guard case let .failed(message, files) = match.verdict else {
            Issue.record("a colour render matched its grey golden: \(match.verdict)")
            return
        }
        #expect(message.contains(failures.appendingPathComponent("goldens-grey").path))
        #expect(files.map(\.lastPathComponent) == ["expected.png", "actual.png", "diff.png"])
        #expect(files.allSatisfy { FileManager.default.fileExists(atPath: $0.path) })
        #expect((match.difference?.meanDeltaE ?? 0) > 2)
    }

    @Test func recordModes() throws {
        let scratch = TemporaryDirectory("photoedit-testing")
        let golden = scratch.file("new/golden.png")
        #expect(GoldenMatch.check(Paths.sample("chelsea.jpg"), matches: golden, record: .missing, failures: nil).verdict == .recorded)
        #expect(FileManager.default.fileExists(atPath: golden))
        #expect(GoldenMatch.check(Paths.sample("chelsea.jpg"), matches: golden, record: .never, failures: nil).verdict == .passed)
        // `missing` leaves a golden that differs alone (and fails); `all` rewrites it.
        let other = Paths.sample("coffee.jpg")
        if case .failed = GoldenMatch.check(other, matches: golden, record: .missing, failures: nil).verdict {} else {
            Issue.record("record: .missing overwrote a golden that differs")
        }
        #expect(GoldenMatch.check(other, matches: golden, record: .all, failures: nil).verdict == .recorded)
        #expect(GoldenMatch.check(other, matches: golden, record: .never, failures: nil).verdict == .passed)
        #expect(GoldenRecordMode(environmentValue: "1") == .missing && GoldenRecordMode(environmentValue: "all") == .all)
        #expect(GoldenRecordMode(environmentValue: nil) == .never && GoldenRecordMode(environmentValue: "0") == .never)
    }

    @Test func suiteCasesAsArguments() throws {
        let scratch = TemporaryDirectory("photoedit-testing")
        let folder = scratch.url.appendingPathComponent("suite/portraits/0001-bright")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try Data(#"{"source": "chelsea.jpg", "chain": "exposure=+1", "size": 64}"#.utf8).write(to: folder.appendingPathComponent("case.json"))
        let root = scratch.url.appendingPathComponent("suite")
        let recording = GoldenSuite(root: root, sourceFolders: [Paths.samples], record: .missing)
        let golden = try #require(try recording.cases().first)
        withKnownIssue("recording is a warning, not a failure") {
            expectGolden(golden, in: recording)
        } matching: { $0.severity == .warning }
        let checking = GoldenSuite(root: root, sourceFolders: recording.sourceFolders, failures: scratch.url.appendingPathComponent("f"))
        #expect(expectGolden(golden, in: checking)?.maxDeltaE == 0)
        try Data(#"{"source": "chelsea.jpg", "chain": "exposure=-1", "size": 64}"#.utf8).write(to: folder.appendingPathComponent("case.json"))
        let changed = try #require(try checking.cases().first)
        withKnownIssue("a case whose render changed fails") {
            expectGolden(changed, in: checking)
        }
    }
}
