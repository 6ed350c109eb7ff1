import Foundation
import Testing
@testable import PhotoEdit
import PhotoEditGolden

/// Output colour management: `--profile`, `--intent`, `--depth`.
@Suite("Colour output")
struct ColourOutputTests {
    /// Imports a sample into a fresh library.
    static func library(_ sample: String, in temp: TemporaryDirectory) throws -> (PhotoLibrary, String) {
        let library = try PhotoLibrary(url: temp.url.appendingPathComponent("library"))
        let id = try #require(try library.importItems([sample]).first?.id)
        return (library, id)
    }

    /// The 8-bit RGB bytes of an image file.
    static func bytes(_ path: String) throws -> [UInt8] {
        let image = try Pixels.load(path).cast("uchar")
        let raw = try image.call("copy")
        var out: [UInt8] = []
        for y in 0..<raw.height { for x in 0..<raw.width { out += try raw.point(x: x, y: y).prefix(3).map { UInt8($0) } } }
        return out
    }

    @Test func untaggedAndTaggedSRGBGiveTheSamePixels() throws {
        let temp = TemporaryDirectory("photoedit-colour-out")
        let tagged = temp.file("tagged.png")
        let source = try Pixels.load(Paths.sample("coffee.jpg")).copyForMetadata()
        source.setBlob("icc-profile-data", try ICCProfile.sRGB())
        try source.save(to: tagged, format: "png")
        let tempA = TemporaryDirectory("photoedit-a"), tempB = TemporaryDirectory("photoedit-b")
        let (a, ida) = try Self.library(Paths.sample("coffee.jpg"), in: tempA)
        let (b, idb) = try Self.library(tagged, in: tempB)
        try a.render(ida, version: .unadjusted, to: temp.file("a.png"))
        try b.render(idb, version: .unadjusted, to: temp.file("b.png"))
        #expect(try Pixels.maxAbsDifference(Pixels.load(temp.file("a.png")), Pixels.load(temp.file("b.png"))) == 0)
    }

    @Test func displayP3RoundTripLosesNoMoreThanGamutMappingRequires() throws {
        // A Display P3 photo (lcms2 made it from coffee.jpg, 16-bit), rendered
        // to sRGB and back to P3: coffee's colours fit in sRGB, so little is lost.
        let temp = TemporaryDirectory("photoedit-p3")
        let p3 = temp.file("coffee-p3.png")
        try Vips.image("icc_transform", [("in", .image(try Pixels.load(Paths.sample("coffee.jpg")))), ("output_profile", .string("p3")),
                                         ("input_profile", .string("srgb")), ("depth", .number(16))]).save(to: p3, format: "png")
        let (library, id) = try Self.library(p3, in: temp)
        try library.render(id, version: .unadjusted, to: temp.file("srgb.png"), options: RenderOptions(bitDepth: 16))
        try library.render(id, version: .unadjusted, to: temp.file("back-p3.png"), options: RenderOptions(profile: .displayP3, bitDepth: 16))
        let (max, mean) = try Pixels.deltaE(p3, temp.file("back-p3.png"))
        print(String(format: "P3 → working → P3 (16-bit): max ΔE00 %.3f, mean %.3f", max, mean))
        #expect(mean <= 0.3 && max <= GoldenTolerance.standard.maxDeltaE)
        let embedded = try #require(try Pixels.load(temp.file("back-p3.png")).blob("icc-profile-data"))
        #expect(ICCProfile.description(embedded)?.contains("P3") == true || ICCProfile.description(embedded) == "sP3C")
    }

    /// Colours outside sRGB survive from a P3 input to a P3 output: the
    /// working space is unbounded float and the output conversion reads it
    /// directly (a detour through sRGB would clip this green by ~10 ΔE).
    @Test func wideGamutColoursSurviveToAWideOutput() throws {
        let temp = TemporaryDirectory("photoedit-wide")
        // A 64×64 Display P3 patch of pure P3 green, 16-bit, profile embedded.
        let green = try Vips.image("black", [("width", .number(64)), ("height", .number(64)), ("bands", .number(3))])
            .linear(multiply: [1, 1, 1], add: [0, 65535, 0]).cast("ushort").call("copy", [("interpretation", .string("rgb16"))])
            .copyForMetadata()
        green.setBlob("icc-profile-data", try Vips.builtinProfile("p3"))
        let source = temp.file("p3-green.png")
        try green.save(to: source, format: "png")
        let (library, id) = try Self.library(source, in: temp)
        try library.render(id, version: .unadjusted, to: temp.file("out-p3.png"), options: RenderOptions(profile: .displayP3, bitDepth: 16))

        try library.render(id, version: .unadjusted, to: temp.file("out-srgb.png"))
        // Compare as colours: each file through its own embedded profile (lcms2) to Lab.
        func lab(_ path: String) throws -> Image {
            try Pixels.load(path).call("icc_import", [("embedded", .bool(true)), ("intent", .string("relative"))])
        }
        let kept = try Pixels.deltaE(lab(source), lab(temp.file("out-p3.png")))
        let clipped = try Pixels.deltaE(lab(source), lab(temp.file("out-srgb.png")))
        print(String(format: "P3 green → P3: ΔE00 max %.3f; → sRGB (clipped): ΔE00 mean %.3f", kept.max, clipped.mean))
        #expect(kept.max < 0.5, "a P3 colour did not survive to P3 output: ΔE00 \(kept.max)")
        #expect(clipped.mean > 3, "the test colour should lie outside sRGB")
    }

    @Test(arguments: [OutputProfile.displayP3, .adobeRGB])
    func conversionAgreesWithLcms2(_ profile: OutputProfile) throws {
        let temp = TemporaryDirectory("photoedit-lcms")
        let (library, id) = try Self.library(Paths.sample("chelsea.jpg"), in: temp)
        let small = RenderOptions(maxWidth: 48, maxHeight: 48)
        var options = small
        options.profile = profile
        try library.render(id, version: .unadjusted, to: temp.file("srgb.png"), options: small)
        try library.render(id, version: .unadjusted, to: temp.file("out.png"), options: options)
        let target = try #require(try Pixels.load(temp.file("out.png")).blob("icc-profile-data"))
        let reference = try #require(ICCProfile.transform(rgb8: try Self.bytes(temp.file("srgb.png")), from: try ICCProfile.sRGB(),
                                                          to: target, intent: .relative))
        let ours = try Self.bytes(temp.file("out.png"))
        let worst = zip(ours, reference).map { abs(Int($0) - Int($1)) }.max() ?? 255
        print("\(profile): largest difference from lcms2's own transform: \(worst) levels of 255")
        #expect(ours.count == reference.count)
        #expect(worst <= 2, "our \(profile) output differs from lcms2's transform by \(worst) levels")
    }

    @Test func badOutputOptionsAreClearErrors() throws {
        let lib = CLILibrary()
        let id = try lib.importSample("coffee.jpg")
        let out = TemporaryDirectory("photoedit-out")
        for args in [["--profile", "rec2020"], ["--profile", "/nonexistent.icc"], ["--intent", "vivid"], ["--depth", "12", "-o", "x.png"],
                     ["--compression", "jpeg"]] {
            var command = ["render", id, "-o", out.file("x.jpg")]
            command += args.filter { $0 != "-o" && $0 != "x.png" }
            let r = try lib.run(command)
            #expect(r.status != 0 && r.stderrLines.count == 1, "\(r)")
        }
        let jpeg16 = try lib.run(["render", id, "-o", out.file("x.jpg"), "--depth", "16"])
        #expect(jpeg16.status != 0 && jpeg16.stderr.contains("8 bits"))
        #expect(try FileManager.default.contentsOfDirectory(atPath: out.url.path).isEmpty)
    }

    @Test func tiffCompressionIsChosenAndLossless() throws {
        let lib = CLILibrary()
        let id = try lib.importSample("coffee.jpg")
        let out = TemporaryDirectory("photoedit-tiff")
        var sizes: [String: Int] = [:]
        for c in ["none", "lzw", "deflate"] {
            try lib.succeed(["render", id, "--version", "unadjusted", "-o", out.file("\(c).tif"), "--compression", c])
            sizes[c] = try FileManager.default.attributesOfItem(atPath: out.file("\(c).tif"))[.size] as? Int
        }
        // 400×… × 3 bytes uncompressed; both codecs smaller, all three the same pixels.
        #expect(sizes["none"]! > sizes["lzw"]! && sizes["none"]! > sizes["deflate"]!, "\(sizes)")
        let none = try Pixels.load(out.file("none.tif"))
        #expect(try Pixels.maxAbsDifference(none, Pixels.load(out.file("lzw.tif"))) == 0)
        #expect(try Pixels.maxAbsDifference(none, Pixels.load(out.file("deflate.tif"))) == 0)
    }
}
