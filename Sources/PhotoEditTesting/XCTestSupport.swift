import Foundation
import PhotoEdit
import PhotoEditGolden
import XCTest

/// Asserts that the image file `actual` matches the golden image `golden`
/// within `tolerance` (CIEDE2000, default max 2.3, mean 0.77), in an XCTest
/// test case.
///
/// On a mismatch fails with the figures and the folder holding
/// expected.png, actual.png and diff.png (`PHOTOEDIT_GOLDEN_FAILURES`,
/// default `.golden-failures/`); where XCTest supports attachments (Apple
/// platforms) they are attached too. With `PHOTOEDIT_RECORD_GOLDEN=1` a
/// missing golden file is written; `=all` also rewrites those that differ.
///
///     func testPortrait() throws {
///         try library.render(id, to: "out.png", options: RenderOptions(maxWidth: 512, maxHeight: 512))
///         XCTAssertGolden("out.png", matches: "Tests/Goldens/portrait.png")
///     }
@discardableResult
public func XCTAssertGolden(_ actual: String, matches golden: String, tolerance: GoldenTolerance = .standard,
                            record: GoldenRecordMode = GoldenMatch.recordMode, failures: URL? = GoldenMatch.failuresFolder,
                            file: StaticString = #filePath, line: UInt = #line) -> ImageDifference? {
    xctReport(GoldenMatch.check(actual, matches: golden, tolerance: tolerance, record: record, failures: failures), golden: golden, file: file, line: line)
}

/// Renders photo `id` of `library` (`version`, `options`; as PNG) and
/// asserts it matches `golden`, as `XCTAssertGolden(_:matches:)` does.
@discardableResult
public func XCTAssertGolden(rendering id: String, in library: PhotoLibrary, version: ImageVersion = .current,
                            options: RenderOptions = RenderOptions(), matches golden: String,
                            tolerance: GoldenTolerance = .standard,
                            record: GoldenRecordMode = GoldenMatch.recordMode, failures: URL? = GoldenMatch.failuresFolder, file: StaticString = #filePath, line: UInt = #line) -> ImageDifference? {
    let match = GoldenMatch.check(rendering: id, in: library, version: version, options: options, matches: golden, tolerance: tolerance, record: record, failures: failures)
    return xctReport(match, golden: golden, file: file, line: line)
}

/// Runs one case of a golden suite and asserts it passes.
@discardableResult
public func XCTAssertGolden(_ golden: GoldenCase, in suite: GoldenSuite, file: StaticString = #filePath, line: UInt = #line) -> ImageDifference? {
    xctReport(GoldenMatch.check(golden, in: suite), golden: golden.expected.path, file: file, line: line)
}

private func xctReport(_ match: GoldenMatch, golden: String, file: StaticString, line: UInt) -> ImageDifference? {
    switch match.verdict {
    case .passed:
        break
    case .recorded:
        FileHandle.standardError.write(Data("photoedit: recorded golden image \(golden); look at it before committing\n".utf8))
    case let .failed(message, files):
        XCTFail(message, file: file, line: line)
        #if canImport(Darwin)
        for url in files {
            XCTContext.runActivity(named: url.lastPathComponent) { activity in
                activity.add(XCTAttachment(contentsOfFile: url))
            }
        }
        #else
        _ = files  // corelibs XCTest has no attachments; the message names the folder.
        #endif
    }
    return match.difference
}
