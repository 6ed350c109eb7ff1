import Foundation
import Testing
@testable import PhotoEdit

/// Translation 7 (issue 39): Lightroom's remaining detail settings —
/// `SharpenDetail` onto sharpen version 2's `detail` —, and the filters
/// they need; each written back by `export --xmp`.
@Suite("Lightroom detail settings")
struct LightroomDetailTests {
    let detail = FilterBench()

    /// A soft edge (a step blurred by σ 2 px) in linear light.
    func softEdge() throws -> Image {
        try detail.step(64, 16, left: 0.1, right: 0.5).call("gaussblur", [("sigma", .number(2))])
    }

    // MARK: Sharpen's detail

    @Test func sharpenVersionOneMigratesToDetailHundred() throws {
        let json = #"{"format":"org.photoedit.recipe","formatVersion":1,"filters":[{"id":"sharpen","version":1,"params":{"amount":120,"radius":1.5,"threshold":2}}]}"#
        let node = try #require(try Recipe(json: JSONValue.parse(Data(json.utf8))).node("sharpen"))
        #expect(node.version == 2 && node.parameters.number("detail") == 100)
        // The golden cases recorded by version 1 (filters/sharpen, and its migrations/v1) check the pixels.
        let image = try detail.working("chelsea.jpg")
        #expect(try Pixels.maxAbsDifference(detail.run("sharpen=120:1.5:2", on: image), detail.run("sharpen=120:1.5:2:100", on: image)) == 0)
    }

    /// Detail 0 holds the sharpened edge within its neighbourhood's range
    /// (no halo) and still steepens it; 100 overshoots, as an unsharp mask.
    @Test func lowDetailSuppressesHalosAndStillSteepensTheEdge() throws {
        let edge = try softEdge()
        let full = try detail.run("sharpen=150:2:0:100", on: edge), held = try detail.run("sharpen=150:2:0:0", on: edge)
        let row = { (image: Image) in try (0..<64).map { try image.point(x: $0, y: 8)[0] } }
        let (input, a, b) = (try row(edge), try row(full), try row(held))
        #expect(a.min()! < input.min()! - 0.01 && a.max()! > input.max()! + 0.01, "detail 100 overshoots (halos): \(a.min()!)…\(a.max()!)")
        #expect(b.min()! >= input.min()! - 1e-4 && b.max()! <= input.max()! + 1e-4, "detail 0 stays within the edge's range: \(b.min()!)…\(b.max()!)")
        // Steeper: the largest step between neighbours grows.
        let slope = { (r: [Double]) in zip(r, r.dropFirst()).map { $1 - $0 }.max()! }
        #expect(slope(b) > slope(input) * 1.1, "detail 0 still steepens the edge: \(slope(input)) → \(slope(b))")
        // In between, the overshoot grows with detail.
        let half = try row(detail.run("sharpen=150:2:0:50", on: edge))
        #expect(half.max()! > b.max()! && half.max()! < a.max()!)
    }

    @Test func sharpenDetailTranslatesAndIsWrittenBack() throws {
        let t = try LightroomPackets.translate(#"crs:Sharpness="60" crs:SharpenRadius="+1.2" crs:SharpenDetail="10""#)
        let node = try #require(t.recipe.node("sharpen"))
        #expect(node.version == 2 && node.parameters.number("detail") == 10 && node.parameters.number("amount") == 60)
        #expect(t.unmapped.isEmpty && t.applied.contains("SharpenDetail"), "\(t.unmapped) \(t.applied)")
        // Without SharpenDetail, Lightroom's default 25.
        #expect(try LightroomPackets.translate(#"crs:Sharpness="60""#).recipe.node("sharpen")?.parameters.number("detail") == 25)
        // Version 6 lists it, with sharpen version 1 (read as version 2 at detail 100: the same pixels).
        let v6 = try LightroomPackets.translate(#"crs:Sharpness="60" crs:SharpenDetail="10""#, version: 6)
        #expect(v6.recipe.node("sharpen")?.parameters.number("detail") == 100 && v6.unmapped == ["SharpenDetail +10"], "\(v6.unmapped)")
        // Written back and read again: the same node.
        #expect(try LightroomPackets.writtenBack(t).recipe.node("sharpen") == node)
    }

    // MARK: Defringe

    /// A dark–bright edge with a purple fringe (4 px) on it, beside a flat purple patch and a flat green patch.
    func fringedEdge() throws -> Image {
        let dark = try detail.flat(30, 16, 0.02), bright = try detail.flat(30, 16, 0.8)
        let fringe = try detail.flat(4, 16, 1).linear(multiply: [0.25, 0.05, 0.45], add: [0, 0, 0])
        let join = { (a: Image, b: Image) in try Vips.image("join", [("in1", .image(a)), ("in2", .image(b)), ("direction", .string("horizontal"))]) }
        let flatPurple = try detail.flat(24, 16, 1).linear(multiply: [0.25, 0.05, 0.45], add: [0, 0, 0])
        let flatGreen = try detail.flat(24, 16, 1).linear(multiply: [0.05, 0.4, 0.08], add: [0, 0, 0])
        return try join(join(join(join(dark, fringe), bright), flatPurple), flatGreen)
    }

    func chroma(_ image: Image, x: Int) throws -> Double {
        try image.call("colourspace", [("space", .string("lch")), ("source_space", .string("scrgb"))]).point(x: x, y: 8)[1]
    }

    @Test func defringeTakesTheColourOutOfFringesAtEdgesOnly() throws {
        let image = try fringedEdge()
        let out = try detail.run("defringe=10:0", on: image)
        let (fringe, removed) = (try chroma(image, x: 31), try chroma(out, x: 31))
        #expect(fringe > 40)
        #expect(removed < fringe * 0.1, "the fringe loses its colour: \(fringe) → \(removed)")
        // Lightness kept.
        let lightness = { (i: Image) in try i.call("colourspace", [("space", .string("lab")), ("source_space", .string("scrgb"))]).point(x: 31, y: 8)[0] }
        #expect(abs(try lightness(out) - lightness(image)) < 0.05)
        // A flat purple area (no edge) and the green patch (another band) are kept exactly.
        for x in [75, 100] { #expect(try out.point(x: x, y: 8) == image.point(x: x, y: 8), "x \(x)") }
        // The green amount reaches green, not purple; a hue range that misses purple leaves the fringe.
        #expect(try chroma(detail.run("defringe=0:20", on: image), x: 31) == chroma(image, x: 31))
        #expect(try chroma(detail.run("defringe.purple=10:0:10", on: image), x: 31) == chroma(image, x: 31))
        // Neutral is the same image.
        #expect(try Filters.defringe.render(image, Filters.defringe.defaults, RenderContext()) === image)
    }

    @Test func defringeTranslatesAndIsWrittenBack() throws {
        let t = try LightroomPackets.translate(#"crs:DefringePurpleAmount="6" crs:DefringePurpleHueLo="25" crs:DefringePurpleHueHi="75" crs:DefringeGreenAmount="3""#)
        let p = try #require(t.recipe.node("defringe")).parameters
        #expect(p.number("purple") == 6 && p.number("purple_lo") == 25 && p.number("purple_hi") == 75)
        #expect(p.number("green") == 3 && p.number("green_lo") == 40 && p.number("green_hi") == 60)
        #expect(t.unmapped.isEmpty, "\(t.unmapped)")
        #expect(Set(t.applied).isSuperset(of: ["DefringePurpleAmount", "DefringePurpleHueLo", "DefringePurpleHueHi", "DefringeGreenAmount"]))
        #expect(try LightroomPackets.writtenBack(t).recipe.node("defringe")?.parameters == p)
        // Version 6 lists them; hue ranges the wrong way round use Lightroom's defaults, said.
        #expect(try LightroomPackets.translate(#"crs:DefringePurpleAmount="6""#, version: 6).unmapped == ["DefringePurpleAmount +6"])
        let reversed = try LightroomPackets.translate(#"crs:DefringeGreenAmount="4" crs:DefringeGreenHueLo="70" crs:DefringeGreenHueHi="50""#)
        #expect(reversed.recipe.node("defringe")?.parameters.number("green_lo") == 40 && reversed.unmapped.count == 1, "\(reversed.unmapped)")
    }
}
