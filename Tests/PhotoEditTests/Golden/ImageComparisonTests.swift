import Foundation
import Testing
@testable import PhotoEdit
import PhotoEditGolden

/// The engine's CIEDE2000 comparison (`ImageComparison`) and `photoedit compare`.
@Suite("Image comparison")
struct ImageComparisonTests {
    /// coffee.jpg with its exposure changed by `stops` (same size).
    static func brighter(_ stops: Double, in temp: TemporaryDirectory, name: String = "brighter.png") throws -> String {
        let path = temp.file(name)
        let factor = pow(2, stops)
        try Pixels.load(Paths.sample("coffee.jpg")).linear(multiply: [factor, factor, factor], add: [0, 0, 0])
            .cast("uchar").save(to: path, format: "png")
        return path
    }

    @Test func sameImageInAnotherFormatPasses() throws {
        let temp = TemporaryDirectory("photoedit-compare")
        let png = temp.file("coffee.png")
        try Pixels.load(Paths.sample("coffee.jpg")).save(to: png, format: "png")
        let result = try ImageComparison.compare(png, Paths.sample("coffee.jpg"))
        #expect(result.passes && result.maxDeltaE == 0 && result.meanDeltaE == 0, "\(result.figures)")
        // 16-bit and 8-bit of the same picture compare by colour, not code value.
        let wide = temp.file("coffee16.png")
        try Pixels.load(Paths.sample("coffee.jpg")).cast("ushort").linear(multiply: [257, 257, 257], add: [0, 0, 0])
            .cast("ushort").call("copy", [("interpretation", .string("rgb16"))]).save(to: wide, format: "png")
        let deep = try ImageComparison.compare(wide, Paths.sample("coffee.jpg"))
        #expect(deep.passes && deep.maxDeltaE < 0.01, "\(deep.figures)")
    }

    @Test func colourManagedThroughEmbeddedProfile() throws {
        // The same picture as Display P3 numbers with its profile: the same colours.
        let temp = TemporaryDirectory("photoedit-compare-icc")
        let p3 = temp.file("coffee-p3.png")
        try Vips.image("icc_transform", [("in", .image(try Pixels.load(Paths.sample("coffee.jpg")))), ("output_profile", .string("p3")),
                                         ("input_profile", .string("srgb")), ("depth", .number(16))]).save(to: p3, format: "png")
        let managed = try ImageComparison.compare(p3, Paths.sample("coffee.jpg"))
        #expect(managed.passes && managed.meanDeltaE < 0.1, "\(managed.figures)")
        // The same numbers without the profile are other colours.
        let stripped = temp.file("stripped.png")
        try Pixels.load(p3).copyForMetadata().save(to: stripped, format: "png", options: [("strip", .bool(true))])
        let unmanaged = try ImageComparison.compare(stripped, Paths.sample("coffee.jpg"))
        #expect(unmanaged.meanDeltaE > managed.meanDeltaE + 1, "unmanaged \(unmanaged.figures), managed \(managed.figures)")
    }

    @Test func differentPictureFailsAndTheDiffShowsWhere() throws {
        let temp = TemporaryDirectory("photoedit-compare-fail")
        let bright = try Self.brighter(1, in: temp)
        let diff = temp.file("diff.png")
        let result = try ImageComparison.compare(bright, Paths.sample("coffee.jpg"), diffImage: diff)
        #expect(!result.passes && result.sameSize)
        #expect(result.maxDeltaE > 5 && result.meanDeltaE > 0.77 && result.fractionOverMax > 0.3, "\(result.figures)")
        #expect(result.problem?.hasPrefix("ΔE2000 max") == true)
        let picture = try Pixels.load(diff)
        #expect(picture.width == 600 && picture.height == 400 && picture.bands == 3)
        // Red where the difference is over the tolerance.
        let red = try picture.extractBands(0, count: 1).maximum(), green = try picture.extractBands(1, count: 1)
        #expect(red > 200)
        #expect(try green.call("relational_const", [("relational", .string("less")), ("c", .doubles([60]))]).average() > 0.3 * 255)
        // A loose enough tolerance passes the same pair; diffOnlyOnFailure then writes nothing.
        let loose = temp.file("loose.png")
        let passing = try ImageComparison.compare(bright, Paths.sample("coffee.jpg"), tolerance: GoldenTolerance(maxDeltaE: 100, meanDeltaE: 100),
                                                  diffImage: loose, diffOnlyOnFailure: true)
        #expect(passing.passes)
        #expect(!FileManager.default.fileExists(atPath: loose))
    }

    @Test func alphaCountsWhereItIsSeen() throws {
        let temp = TemporaryDirectory("photoedit-compare-alpha")
        let rgb = try Pixels.load(Paths.sample("chart.png")).extractBands(0, count: 3)
        func withAlpha(_ alpha: Double, _ name: String) throws -> String {
            let a = try rgb.extractBands(0, count: 1).linear(multiply: [0], add: [alpha]).cast("uchar")
            let path = temp.file(name)
            try Vips.image("bandjoin", [("in", .images([rgb, a]))]).save(to: path, format: "png")
            return path
        }
        let opaque = try withAlpha(255, "opaque.png"), half = try withAlpha(128, "half.png")
        #expect(try ImageComparison.compare(opaque, opaque).maxDeltaE == 0)
        let result = try ImageComparison.compare(half, opaque)
        #expect(!result.passes && result.meanDeltaE > 5, "half transparent is seen: \(result.figures)")
        // Fully transparent pixels of any colour are the same picture.
        let clear1 = temp.file("clear1.png"), clear2 = temp.file("clear2.png")
        let zero = try rgb.extractBands(0, count: 1).linear(multiply: [0], add: [0]).cast("uchar")
        try Vips.image("bandjoin", [("in", .images([rgb, zero]))]).save(to: clear1, format: "png")
        try Vips.image("bandjoin", [("in", .images([rgb.linear(multiply: [0, 0, 0], add: [0, 255, 0]).cast("uchar"), zero]))])
            .save(to: clear2, format: "png")
        #expect(try ImageComparison.compare(clear1, clear2).maxDeltaE == 0)
    }

    @Test func sizesDifferIsAResultAndBadFilesAreErrors() throws {
        let result = try ImageComparison.compare(Paths.sample("chelsea.jpg"), Paths.sample("coffee.jpg"))
        #expect(!result.sameSize && !result.passes)
        #expect(result.problem?.contains("sizes differ") == true)
        #expect(throws: PhotoEditError.self) { try ImageComparison.compare("/nonexistent.png", Paths.sample("coffee.jpg")) }
        #expect(throws: PhotoEditError.self) { try ImageComparison.compare(Paths.bad("truncated.jpg"), Paths.bad("truncated.jpg")) }
        #expect(throws: PhotoEditError.self) {
            try ImageComparison.compare(Paths.sample("coffee.jpg"), Paths.sample("coffee.jpg"), tolerance: GoldenTolerance(maxDeltaE: .nan, meanDeltaE: 1))
        }
        #expect(throws: PhotoEditError.self) {
            try ImageComparison.compare(Paths.sample("coffee.jpg"), Paths.sample("coffee.jpg"), diffImage: "/tmp/diff.xyz")
        }
    }

    @Test func cliCompare() throws {
        let temp = TemporaryDirectory("photoedit-cli-compare")
        let same = try CLI.run(["compare", Paths.sample("coffee.jpg"), Paths.sample("coffee.jpg")])
        #expect(same.status == 0 && same.stdout.hasPrefix("PASS ΔE2000 max 0.000"), "\(same)")
        let bright = try Self.brighter(0.5, in: temp)
        let diff = temp.file("d.png")
        let fail = try CLI.run(["compare", bright, Paths.sample("coffee.jpg"), "--diff", diff])
        #expect(fail.status == 1 && fail.stdout.hasPrefix("FAIL ΔE2000 max"), "\(fail)")
        #expect(FileManager.default.fileExists(atPath: diff))
        let loose = try CLI.run(["compare", bright, Paths.sample("coffee.jpg"), "--max", "50", "--mean", "50", "--json"])
        #expect(loose.status == 0, "\(loose)")
        guard case .object(let o) = try loose.json() else { Issue.record("not a JSON object: \(loose.stdout)"); return }
        #expect(o["pass"] == .bool(true))
        #expect((o["maxDeltaE"]?.number ?? 0) > 1)
        let sizes = try CLI.run(["compare", Paths.sample("chelsea.jpg"), Paths.sample("coffee.jpg")])
        #expect(sizes.status == 1 && sizes.stdout.contains("sizes differ"), "\(sizes)")
        let missing = try CLI.run(["compare", temp.file("none.png"), Paths.sample("coffee.jpg")])
        #expect(missing.status == 2 && missing.stderrLines.count == 1 && missing.stdout.isEmpty, "\(missing)")
    }
}
