import Foundation
import Testing
@testable import PhotoEdit
import PhotoEditGolden

/// The unadjusted version is the original, colour-managed to sRGB: the
/// same colours whatever profile the file carries.
@Suite("Colour management")
struct ColourManagementTests {
    /// Imports `path` into a fresh library and renders its unadjusted version as PNG.
    static func unadjusted(_ path: String, in temp: TemporaryDirectory) throws -> String {
        let library = try PhotoLibrary(url: temp.url.appendingPathComponent("library"))
        let id = try #require(try library.importItems([path]).first?.id)
        let out = temp.file("unadjusted-\(UUID().uuidString.prefix(6)).png")
        try library.render(id, version: .unadjusted, to: out, options: RenderOptions())
        return out
    }

    @Test(arguments: ["coffee.jpg", "chelsea.jpg", "astronaut.jpg", "chart.png", "coffee.tif"])
    func sRGBFilesRenderTheirOwnColours(_ sample: String) throws {
        let temp = TemporaryDirectory()
        let (max, mean) = try Pixels.deltaE(Self.unadjusted(Paths.sample(sample), in: temp), Paths.sample(sample))
        #expect(max < 0.5 && mean < 0.05, "\(sample): max ΔE00 \(max), mean \(mean)")
    }

    /// A 16-bit PNG renders as its values scaled to 8 bits (÷257, rounded),
    /// to within one level of float rounding.
    @Test func sixteenBitPNGRendersItsColours() throws {
        let temp = TemporaryDirectory()
        let rendered = try Pixels.load(Self.unadjusted(Paths.sample("chelsea-16bit.png"), in: temp))
        let scaled = try Pixels.load(Paths.sample("chelsea-16bit.png")).linear(multiply: [1 / 257.0], add: [0.5]).cast("uchar")
        let reference = try Vips.image("copy", [("in", .image(scaled)), ("interpretation", .string("srgb"))])
        #expect(rendered.width == reference.width && rendered.height == reference.height)
        let diff = try Vips.image("subtract", [("left", .image(rendered)), ("right", .image(reference))]).call("abs")
        #expect(try diff.maximum() <= 1, "more than one level off")
        #expect(try diff.average() < 0.3)
    }

    /// coffee.jpg converted by lcms to Display P3 (profile embedded) must
    /// render like coffee.jpg. libvips' own `icc_transform` back to sRGB
    /// does (mean ΔE00 ≈ 0.15); the engine goes `icc_import` (Lab, D50
    /// PCS) → `colourspace scrgb` (which takes Lab as D65) and ends with a
    /// warm cast (mean ≈ 1.3, R +5 levels on average).
    @Test func displayP3FileRendersTheSameColoursAsItsSRGBSource() throws {
        let temp = TemporaryDirectory()
        let p3 = temp.file("coffee-p3.png")
        let source = try Pixels.load(Paths.sample("coffee.jpg"))
        try Vips.image("icc_transform", [("in", .image(source)), ("output_profile", .string("p3")),
                                         ("input_profile", .string("srgb")), ("intent", .string("relative"))])
            .save(to: p3, format: "png")
        let tagged = try Pixels.load(p3)
        let profile = try #require(tagged.blob("icc-profile-data"))
        #expect(!ICCProfile.isSRGB(profile), "the test file carries a P3 profile: \(ICCProfile.description(profile) ?? "?")")

        // The reference: libvips + lcms2 straight back to sRGB.
        let reference = temp.file("reference.png")
        try Vips.image("icc_transform", [("in", .image(tagged)), ("output_profile", .string("srgb")),
                                         ("embedded", .bool(true)), ("intent", .string("relative"))])
            .save(to: reference, format: "png")
        let control = try Pixels.deltaE(reference, Paths.sample("coffee.jpg"))
        #expect(control.mean < 0.3, "lcms round trip: mean ΔE00 \(control.mean)")

        let rendered = try Self.unadjusted(p3, in: temp)
        let (max, mean) = try Pixels.deltaE(rendered, Paths.sample("coffee.jpg"))
        print(String(format: "P3 file, unadjusted render vs sRGB source: max ΔE00 %.3f, mean %.3f (lcms reference: max %.3f, mean %.3f)",
                     max, mean, control.max, control.mean))
        #expect(mean < 1.5, "the profile is applied at all (unmanaged it would be ≈ 2.7): mean \(mean)")
        do {
            #expect(mean <= GoldenTolerance.standard.meanDeltaE && max <= GoldenTolerance.standard.maxDeltaE,
                    "P3 file renders differently from its sRGB source: max ΔE00 \(max), mean \(mean)")
        }
    }
}
