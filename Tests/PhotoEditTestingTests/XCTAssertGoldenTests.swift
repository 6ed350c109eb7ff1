import Foundation
import PhotoEdit
import PhotoEditTesting
import PhotoEditTestSupport
import XCTest

/// PhotoEditTesting's XCTest helpers: a match passes, a mismatch fails the test.
final class XCTAssertGoldenTests: XCTestCase {
    /// Failures caught while `capturing`, instead of failing this test.
    private var captured: [String] = []
    private var capturing = false

    override func recordFailure(withDescription description: String, inFile filePath: String, atLine lineNumber: Int, expected: Bool) {
        if capturing {
            captured.append(description)
        } else {
            super.recordFailure(withDescription: description, inFile: filePath, atLine: lineNumber, expected: expected)
        }
    }

    private func failures(_ body: () -> Void) -> [String] {
        captured = []
        capturing = true
        body()
        capturing = false
        return captured
    }

    func testMatchPassesAndMismatchFails() throws {
        let scratch = TemporaryDirectory("photoedit-testing")
        let (library, id) = try library(scratch, chain: "contrast=30")
        let options = RenderOptions(maxWidth: 96, maxHeight: 96)
        let golden = scratch.file("golden.png")
        try library.render(id, to: golden, options: options)

        XCTAssertEqual(failures { XCTAssertGolden(rendering: id, in: library, options: options, matches: golden, record: .never, failures: scratch.url) }, [])
        XCTAssertEqual(XCTAssertGolden(golden, matches: golden, record: .never)?.maxDeltaE, 0)

        try library.apply(chain: "contrast=-60", to: id)
        let caught = failures { XCTAssertGolden(rendering: id, in: library, options: options, matches: golden, record: .never, failures: scratch.url) }
        XCTAssertEqual(caught.count, 1)
        XCTAssertTrue(caught.first?.contains("ΔE2000 max") == true, "\(caught)")

        let missing = failures { XCTAssertGolden(golden, matches: scratch.file("none.png"), record: .never) }
        XCTAssertEqual(missing.count, 1)
        XCTAssertTrue(missing.first?.contains("PHOTOEDIT_RECORD_GOLDEN=1") == true, "\(missing)")
    }
}
