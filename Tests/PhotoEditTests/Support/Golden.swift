import Foundation
import Testing
@testable import PhotoEdit
import PhotoEditGolden

/// photoedit's own golden suite: `filters/<filter-id>/NNNN-<case>/`
/// (case.json and expected.png), run by the engine's `GoldenSuite` — the
/// same code as `photoedit test filters --samples samples --samples .`.
/// Sources are looked up in the case folder, `filters/`, `samples/`, then
/// from the package root (e.g. `Tests/Fixtures/raw/coffee.dng`).
extension GoldenSuite {
    static let project = GoldenSuite(root: Paths.filters, sourceFolders: [Paths.samples, Paths.root],
                                     record: GoldenRunner.recordMode, failures: Paths.goldenFailures)
}

extension GoldenCase: CustomTestStringConvertible {
    public var testDescription: String { id }
    /// The filter id (the group folder).
    var filter: String { group }
    /// The source photo's path, if it exists.
    var samplePath: String? { GoldenSuite.project.sourcePath(for: self) }

    /// Every case under `root` (default: the package's `filters/`), sorted.
    static func load(root: URL = Paths.filters) -> [GoldenCase] {
        (try? GoldenSuite(root: root).cases()) ?? []
    }

    static let all: [GoldenCase] = load()
}

/// What happened to one of photoedit's own golden cases.
enum GoldenCaseOutcome: Equatable {
    case passed(max: Double, mean: Double)
    case recorded
    case missingExpected
    /// `folder` holds actual.png and diff.png.
    case failed(String, folder: URL)
}

/// Runs photoedit's own golden cases through the engine's `GoldenSuite`,
/// adding the identity checks of neutral cases.
enum GoldenRunner {
    /// Is record mode on (`PHOTOEDIT_RECORD_GOLDEN=1`, or `all`)?
    static var recordMode: GoldenRecordMode { GoldenRecordMode(environmentValue: ProcessInfo.processInfo.environment["PHOTOEDIT_RECORD_GOLDEN"]) }

    /// Checks `actual` against `expected` with the engine's comparison (the
    /// one behind `photoedit compare` and PhotoEditTesting); on failure,
    /// copies actual.png and writes diff.png into `folder`.
    static func compare(actual: String, expected: String, failureFolder folder: URL) throws -> ImageDifference {
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let result = try ImageComparison.compare(actual, expected, diffImage: folder.appendingPathComponent("diff.png").path,
                                                 diffOnlyOnFailure: true)
        if result.passes {
            try? FileManager.default.removeItem(at: folder)
        } else {
            let actualCopy = folder.appendingPathComponent("actual.png").path
            try? FileManager.default.removeItem(atPath: actualCopy)
            try FileManager.default.copyItem(atPath: actual, toPath: actualCopy)
        }
        return result
    }

    /// The outcome of a case, plus, for identity cases, the ΔE2000 of its
    /// current render against the unadjusted render (`identity`): a PNG of
    /// the current version renders from the recipe, so a neutral edit is the
    /// unadjusted photo.
    struct Result {
        var outcome: GoldenCaseOutcome
        var identity: (max: Double, mean: Double)?
    }

    /// Runs one case: render, then compare with expected.png (or record it).
    static func run(_ golden: GoldenCase, record: GoldenRecordMode = recordMode, failures: URL = Paths.goldenFailures) throws -> Result {
        let suite = GoldenSuite(root: golden.folder.deletingLastPathComponent().deletingLastPathComponent(),
                                sourceFolders: GoldenSuite.project.sourceFolders, record: record, failures: failures)
        let temp = TemporaryDirectory("photoedit-golden")
        let render = try suite.render(golden, in: temp.url)
        var identity: (max: Double, mean: Double)?
        if let spec = golden.spec, spec.identity == true {
            let unadjusted = temp.file("unadjusted.png")
            try render.library.render(render.id, version: .unadjusted, to: unadjusted,
                                      options: RenderOptions(maxWidth: spec.size, maxHeight: spec.size))
            identity = try Pixels.deltaE(render.actual, unadjusted)
        }
        let result = try suite.check(golden, actual: render.actual)
        let outcome: GoldenCaseOutcome
        switch result.outcome {
        case .passed: outcome = .passed(max: result.difference?.maxDeltaE ?? 0, mean: result.difference?.meanDeltaE ?? 0)
        case .recorded: outcome = .recorded
        case .missingExpected: outcome = .missingExpected
        case .failed: outcome = .failed(result.difference?.problem ?? "differs", folder: result.failureFolder ?? failures)
        case .error(let message): throw CLIError(message)
        }
        return Result(outcome: outcome, identity: identity)
    }
}
