import Foundation
import PhotoEdit
import PhotoEditGolden
import Testing

/// Expects the image file `actual` to match the golden image `golden`
/// within `tolerance` (CIEDE2000, default max 2.3, mean 0.77), in a Swift
/// Testing test.
///
/// On a mismatch records an issue naming the figures, and attaches
/// expected.png, actual.png and diff.png (`swift test --attachments-path
/// DIR` saves them; they are also left in `PHOTOEDIT_GOLDEN_FAILURES`,
/// default `.golden-failures/`). With `PHOTOEDIT_RECORD_GOLDEN=1` a missing
/// golden file is written (a warning says so); `=all` also rewrites those
/// that differ.
///
///     @Test func portrait() throws {
///         try library.render(id, to: "out.png", options: RenderOptions(maxWidth: 512, maxHeight: 512))
///         expectGolden("out.png", matches: "Tests/Goldens/portrait.png")
///     }
///
/// - Returns: the comparison, for further checks (nil when there was none).
@discardableResult
public func expectGolden(_ actual: String, matches golden: String, tolerance: GoldenTolerance = .standard,
                         record: GoldenRecordMode = GoldenMatch.recordMode, failures: URL? = GoldenMatch.failuresFolder,
                         sourceLocation: SourceLocation = #_sourceLocation) -> ImageDifference? {
    report(GoldenMatch.check(actual, matches: golden, tolerance: tolerance, record: record, failures: failures), golden: golden, sourceLocation: sourceLocation)
}

/// Renders photo `id` of `library` (`version`, `options`; as PNG) and
/// expects it to match `golden`, as `expectGolden(_:matches:)` does.
@discardableResult
public func expectGolden(rendering id: String, in library: PhotoLibrary, version: ImageVersion = .current,
                         options: RenderOptions = RenderOptions(), matches golden: String,
                         tolerance: GoldenTolerance = .standard,
                         record: GoldenRecordMode = GoldenMatch.recordMode, failures: URL? = GoldenMatch.failuresFolder, sourceLocation: SourceLocation = #_sourceLocation) -> ImageDifference? {
    let match = GoldenMatch.check(rendering: id, in: library, version: version, options: options, matches: golden, tolerance: tolerance, record: record, failures: failures)
    return report(match, golden: golden, sourceLocation: sourceLocation)
}

/// Runs one case of a golden suite (the layout `photoedit test` runs) and
/// expects it to pass. Use the suite's cases as test arguments:
///
///     static let suite = GoldenSuite(root: URL(fileURLWithPath: "Tests/Goldens"), record: GoldenMatch.recordMode,
///                                    failures: GoldenMatch.failuresFolder)
///     @Test(arguments: try! suite.cases()) func golden(_ golden: GoldenCase) {
///         expectGolden(golden, in: Self.suite)
///     }
@discardableResult
public func expectGolden(_ golden: GoldenCase, in suite: GoldenSuite, sourceLocation: SourceLocation = #_sourceLocation) -> ImageDifference? {
    report(GoldenMatch.check(golden, in: suite), golden: golden.expected.path, sourceLocation: sourceLocation)
}

private func report(_ match: GoldenMatch, golden: String, sourceLocation: SourceLocation) -> ImageDifference? {
    switch match.verdict {
    case .passed:
        break
    case .recorded:
        Issue.record("recorded golden image \(golden); look at it before committing", severity: .warning, sourceLocation: sourceLocation)
    case let .failed(message, files):
        Issue.record(Comment(rawValue: message), sourceLocation: sourceLocation)
        for file in files {
            guard let data = FileManager.default.contents(atPath: file.path) else { continue }
            Attachment.record([UInt8](data), named: file.lastPathComponent, sourceLocation: sourceLocation)
        }
    }
    return match.difference
}
