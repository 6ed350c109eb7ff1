import Foundation
import Testing
@testable import PhotoEdit

/// `local` version 2 (issue 25): range shapes refining a mask by the photo's
/// lightness and colour, and the dehaze, texture and clarity amounts; version
/// 1 recipes keep loading and rendering as before.
@Suite("Range masks and local version 2")
struct RangeMaskTests {
    /// A 200×20 ramp of greys, linear light from 0 (left) to 1 (right).
    static func ramp() throws -> Image {
        var pixels = [Float](repeating: 0, count: 200 * 20 * 3)
        for y in 0..<20 { for x in 0..<200 { for b in 0..<3 { pixels[(y * 200 + x) * 3 + b] = Float(x) / 199 } } }
        return try BrushCanvas.floatImage(pixels, width: 200, height: 20, bands: 3)
    }

    /// CIE L*/100 of a linear grey.
    static func lightness(_ y: Double) -> Double { y > 216.0 / 24389 ? 1.16 * cbrt(y) - 0.16 : y * 24389 / 2700 }

    static func mask(_ text: String, on image: Image) throws -> Image {
        try MaskChain.correction(text + " exposure=+1").mask.render(width: image.width, height: image.height, ranges: RangeSource(image))
    }

    @Test func luminanceRangeIsATrapezoidOnLightness() throws {
        let image = try Self.ramp()
        let m = try Self.mask("luminance(0.4 0.6 feather=0.1)", on: image)
        #expect(m.width == 200 && m.height == 20 && m.bands == 1)
        var inside = 0, outside = 0
        for x in 0..<200 {
            let l = Self.lightness(Double(x) / 199), v = try m.point(x: x, y: 10)[0]
            if l >= 0.41 && l <= 0.59 { #expect(v > 0.999, "L \(l): \(v)"); inside += 1 }
            if l < 0.29 || l > 0.71 { #expect(v < 0.001, "L \(l): \(v)"); outside += 1 }
            if abs(l - 0.35) < 0.01 { #expect(v > 0.2 && v < 0.8, "half way down the ramp: \(v)") }
        }
        #expect(inside > 10 && outside > 100)
    }

    @Test func colourRangeSelectsHueAndSparesGreys() throws {
        // Four patches (linear RGB): saturated blue, saturated red, grey, pale blue.
        let colours: [[Float]] = [[0.02, 0.05, 0.6], [0.6, 0.03, 0.02], [0.2, 0.2, 0.2], [0.17, 0.18, 0.22]]
        var pixels = [Float]()
        for _ in 0..<10 { for c in colours { for _ in 0..<10 { pixels += c } } }
        let image = try BrushCanvas.floatImage(pixels, width: 40, height: 10, bands: 3)
        let lch = try image.call("colourspace", [("space", .string("lch")), ("source_space", .string("scrgb"))])
        let blueHue = try lch.point(x: 5, y: 5)[2]
        let m = try Self.mask("colour(\(blueHue) 20 feather=20 chroma=20)", on: image)
        #expect(try m.point(x: 5, y: 5)[0] > 0.999, "the blue")
        #expect(try m.point(x: 15, y: 5)[0] == 0, "the red")
        #expect(try m.point(x: 25, y: 5)[0] < 0.001, "the grey has no hue")
        let pale = try m.point(x: 35, y: 5)[0], paleChroma = try lch.point(x: 35, y: 5)[1]
        #expect(paleChroma < 20 && pale < 1 && pale > 0, "a pale blue is selected in part (C* \(paleChroma)): \(pale)")
        // Outside the hue range by more than the feather: nothing.
        let off = try Self.mask("colour(\(blueHue + 60) 20 feather=20 chroma=20)", on: image)
        #expect(try off.point(x: 5, y: 5)[0] == 0)
    }

    /// A preview measures L* in one C pass (`pe_range_lightness`) instead
    /// of libvips' colourspace chain: the same values, on a field of colours
    /// from black through saturated and out-of-gamut (negative) ones, and
    /// the same range masks.
    @Test func previewMeasuresRangesLikeTheFullRender() throws {
        var pixels = [Float]()
        let (w, h) = (120, 90)
        for y in 0..<h {
            for x in 0..<w {
                let (u, v) = (Float(x) / Float(w - 1), Float(y) / Float(h - 1))
                pixels += [u * u * 1.2 - 0.05, v * (1 - u), (1 - v) * 0.9 * u + 0.001 * Float(x % 7)]
            }
        }
        let image = try BrushCanvas.floatImage(pixels, width: w, height: h, bands: 3)
        let (graph, perPixel) = (RangeSource(image), RangeSource(image, perPixel: true))
        let (l0, l1) = (try graph.lightness().floatPixels(), try perPixel.lightness().floatPixels())
        #expect(l1.count == w * h && Set(l1).count > 1000)
        let worst = zip(l0, l1).map { Double(abs($0 - $1)) }.max()!
        print(String(format: "range source, per pixel vs libvips: L*/100 within %.2g", worst))
        #expect(worst < 1e-5)
        for text in ["luminance(0.3 0.6 feather=0.1)", "luminance(0 0.2 feather=0)", "colour(250 60)", "linear(0 0 1 1) &luminance(0.5 1) &colour(30 90)"] {
            let c = try MaskChain.correction(text + " exposure=+1")
            let m0 = try c.mask.render(width: w, height: h, ranges: graph)
            let m1 = try c.mask.render(width: w, height: h, ranges: perPixel, perPixel: true)
            #expect(try Pixels.maxAbsDifference(m0, m1) < 1e-4, "\(text)")
        }
    }

    @Test func rangeIntersectsADrawnShapeAtFullSize() throws {
        let image = try Self.ramp()
        // The left half of the photo, intersected with its bright pixels: nothing (they are on the right).
        let none = try Self.mask("linear(0.5 0.5 0.4 0.5) &luminance(0.8 1 feather=0)", on: image)
        #expect(try Vips.number("max", [("in", .image(none))]) < 1e-6)
        // The right half and the mid-tones: only where both hold.
        let both = try Self.mask("linear(0.45 0.5 0.55 0.5) &luminance(0.4 0.9 feather=0.01)", on: image)
        #expect(try both.point(x: 20, y: 10)[0] == 0, "dark, left")
        #expect(try both.point(x: 150, y: 10)[0] > 0.99, "mid-tone, right")
        #expect(try both.point(x: 199, y: 10)[0] < 0.01, "too bright")
    }

    @Test func rangeShapesRoundTripInChainAndJSON() throws {
        for chain in ["local=radial(0.5 0.5 0.3 0.3) &luminance(0.2 0.7 feather=0.05) exposure=+0.5",
                      "local=colour(250) saturation=+20",
                      "local=linear(0.5 1 0.5 0.5) &colour(30 40 feather=10 chroma=5) -luminance(0.9 1) dehaze=+15 texture=-20 clarity=+30"] {
            let r = try recipe(chain)
            #expect(Chain.format(r) == chain)
            #expect(try Recipe(adjustmentData: r.adjustmentData) == r)
            #expect(r.node("local")?.version == 2)
        }
    }

    @Test func aColourHueIsKeptInOneTurn() throws {
        let r = try recipe("local=colour(-90) exposure=+1")
        guard case .colour(let c) = r.localCorrections[0].mask.components[0].shape else { Issue.record("not colour"); return }
        #expect(c.hue == 270)
    }

    @Test func versionOneLoadsAsTwoAndRefusesWhatItDidNotHave() throws {
        let v1 = #"{"format":"org.photoedit.recipe","formatVersion":1,"filters":[{"id":"local","version":1,"params":{"corrections":[{"amounts":{"exposure":0.5},"mask":{"shapes":[{"type":"radial","x":0.5,"y":0.5,"rx":0.2,"ry":0.2}]}}]}}]}"#
        let r = try Recipe(json: JSONValue.parse(Data(v1.utf8)))
        #expect(r.node("local")?.version == 2, "nothing renders differently: read as version 2")
        #expect(r.frozenNodes().isEmpty)
        for params in [#"{"corrections":[{"amounts":{"clarity":10},"mask":{"shapes":[{"type":"radial","x":0.5,"y":0.5,"rx":0.2,"ry":0.2}]}}]}"#,
                       #"{"corrections":[{"amounts":{"exposure":1},"mask":{"shapes":[{"type":"luminance","low":0,"high":0.5}]}}]}"#] {
            do {
                _ = try Recipe(json: JSONValue.parse(LocalAdjustmentSupport.recipeJSON(params)))
                Issue.record("version 1 accepted \(params)")
            } catch {
                #expect("\(error)".contains("needs local version 2"), "\(error)")
            }
        }
    }

    /// Mean |a − b| over pixels and bands (8-bit values).
    static func meanAbsDifference(_ a: Image, _ b: Image) throws -> Double {
        try a.cast("float").subtracting(b.cast("float")).call("abs").average()
    }

    @Test func presenceAmountsApplyOnlyThroughTheMask() throws {
        let temp = TemporaryDirectory("photoedit-local-presence")
        let library = try PhotoLibrary(url: temp.url.appendingPathComponent("library"))
        let id = try #require(try library.importItems([Paths.sample("coffee.jpg")]).first?.id)
        func render(_ chain: String) throws -> Image {
            try library.apply(chain: chain, to: id)
            let path = temp.file("\(chain.hashValue).png")
            try library.render(id, to: path, options: RenderOptions(maxWidth: 400, maxHeight: 400, format: .png))
            return try Pixels.load(path)
        }
        let plain = try render("exposure=0")
        for amount in ["clarity=+80", "texture=+100", "dehaze=+60"] {
            let out = try render("local=radial(0.3 0.5 0.15 0.2 feather=0) \(amount)")
            let w = Double(out.width), h = Double(out.height)
            let inside = try Self.meanAbsDifference(out.extractArea(left: Int(0.22 * w), top: Int(0.4 * h), width: Int(0.16 * w), height: Int(0.2 * h)),
                                                      plain.extractArea(left: Int(0.22 * w), top: Int(0.4 * h), width: Int(0.16 * w), height: Int(0.2 * h)))
            let outside = try Self.meanAbsDifference(out.extractArea(left: Int(0.6 * w), top: 0, width: Int(0.4 * w), height: Int(h)),
                                                       plain.extractArea(left: Int(0.6 * w), top: 0, width: Int(0.4 * w), height: Int(h)))
            print("\(amount): mean |Δ| inside \(inside), outside \(outside)")
            #expect(inside > 1, "\(amount) changes the masked area (\(inside))")
            #expect(outside == 0, "\(amount) leaves the rest (\(outside))")
        }
    }
}

/// The fast path of a local correction (only the mask's box adjusted, then
/// put back) gives exactly the pixels of the whole-image blend.
@Suite("Local correction boxes")
struct LocalCorrectionBoxTests {
    /// A lazily computed 3-band float image with structure (x, y ramps and their product).
    static func synthetic(_ width: Int, _ height: Int) throws -> Image {
        let xy = try Vips.image("xyz", [("width", .number(Double(width))), ("height", .number(Double(height)))]).cast("float")
        let x = try xy.extractBands(0, count: 1).linear(multiply: [1 / Double(width)], add: [0.02])
        let y = try xy.extractBands(1, count: 1).linear(multiply: [1 / Double(height)], add: [0.02])
        return try Vips.image("bandjoin", [("in", .images([x, y, x.multiplied(by: y)]))])
    }

    static let cases: [(String, Bool)] = [
        ("radial(0.35 0.45 0.2 0.3 feather=0.6) exposure=+0.6 contrast=+10", true),
        ("radial(0.6 0.4 0.1 0.3 angle=35 roundness=0.8 feather=0) exposure=-1 highlights=-30 shadows=+20", true),
        ("brush(r=0.04 0.2/0.7 0.3/0.72 0.4/0.75 | erase r=0.02 0.3/0.72) exposure=+0.3 saturation=+20 hue=+30", true),
        ("linear(0.5 0.8 0.55 0.9) exposure=-0.7 temperature=-10 tint=+5", true),
        ("linear(0.9 0.5 0.8 0.6) exposure=-0.7", false),
        ("radial(0.3 0.3 0.1 0.1) &radial(0.35 0.35 0.1 0.1) -brush(r=0.02 0.3/0.3) whites=+20 blacks=-20", true),
        ("radial(0.3 0.3 0.1 0.1) +brush(r=0.03 0.45/0.4) exposure=+1", true),
        ("radial(0.5 0.5 0.2 0.2 outside) exposure=+1", false),
        ("radial(0.5 0.5 0.2 0.2) invert exposure=+1", false),
        ("radial(0.5 0.5 0.2 0.2) sharpness=100", false),
    ]

    @Test(arguments: cases)
    func boxGivesTheSamePixels(_ text: String, _ boxed: Bool) throws {
        for (w, h) in [(600, 400), (3000, 2000)] {
            let image = try Self.synthetic(w, h)
            let c = try MaskChain.correction(text)
            let box = c.amounts.keys.allSatisfy(\.isPointwise) ? c.mask.support(width: w, height: h) : nil
            #expect((box != nil) == boxed, "\(text) at \(w)×\(h): \(String(describing: box))")
            let fast = try c.render(image, context: RenderContext())
            var adjusted = image
            for kind in c.amounts.keys.sorted() { adjusted = try kind.apply(c.amounts[kind]!, to: adjusted, context: RenderContext()) }
            let mask = try c.mask.render(width: w, height: h)
            let whole = try image.adding(adjusted.subtracting(image).multiplied(by: mask))
            // The same pixels (matrices fused: up to float rounding).
            #expect(try Pixels.maxAbsDifference(fast, whole) < 1e-5, "\(text) at \(w)×\(h)")
            if let box {
                // Outside the box, the input exactly.
                let outside = try fast.extractArea(left: 0, top: 0, width: w, height: max(1, box.top))
                let before = try image.extractArea(left: 0, top: 0, width: w, height: max(1, box.top))
                let difference = try Pixels.maxAbsDifference(outside, before)
                #expect(box.top == 0 || difference == 0)
            }
        }
    }

    /// A preview (scale < 1) evaluates gradients and radials per pixel in C
    /// (`pe_mask_shape`) instead of the libvips graph a full render uses:
    /// the same mask up to float rounding, for every branch (linear; radial
    /// ellipse, superellipse, diamond, hard edge, outside, turned), and the
    /// same corrected pixels. The graph rounds its planes to float; a hard
    /// edge (feather 0: a ramp of a thousandth of the radius, slope 1500)
    /// magnifies that rounding, hence its looser bound.
    static let shapes: [(String, Double)] = [
        ("linear(0.5 0.8 0.55 0.9)", 4e-6), ("linear(0.9 0.5 0.8 0.6)", 4e-6), ("linear(-0.5 0.2 1.5 0.3)", 4e-6),
        ("radial(0.35 0.45 0.2 0.3 feather=0.6)", 4e-6), ("radial(0.6 0.4 0.1 0.3 angle=35 roundness=0.8 feather=0)", 3e-3),
        ("radial(0.5 0.5 0.25 0.2 roundness=-1 feather=1)", 4e-6), ("radial(0.5 0.5 0.2 0.2 angle=-60 roundness=-0.4 outside)", 4e-6),
        ("radial(0.3 0.3 0.1 0.1) &radial(0.35 0.35 0.1 0.1) -linear(0 0 0.4 0.4) invert", 4e-6),
    ]

    @Test(arguments: shapes)
    func previewMasksAreTheFullRendersFunction(_ text: String, _ tolerance: Double) throws {
        let c = try MaskChain.correction(text + " exposure=+1 contrast=+20")
        for (w, h) in [(256, 171), (1440, 960), (97, 300)] {
            let graph = try c.mask.render(width: w, height: h)
            let perPixel = try c.mask.render(width: w, height: h, perPixel: true)
            #expect(perPixel.width == w && perPixel.height == h && perPixel.bands == 1 && perPixel.formatName == "float")
            #expect(try Pixels.maxAbsDifference(graph, perPixel) < tolerance, "\(text) at \(w)×\(h)")
            // Something to compare: the mask is neither empty nor full everywhere.
            let pixels = try perPixel.floatPixels()
            #expect(pixels.contains { $0 > 0.01 } && pixels.contains { $0 < 0.99 }, "\(text) at \(w)×\(h)")
            let image = try Self.synthetic(w, h)
            let preview = try c.render(image, context: RenderContext(scale: 0.5))
            let full = try c.render(image, context: RenderContext())
            #expect(try Pixels.maxAbsDifference(preview, full) < tolerance, "\(text) at \(w)×\(h)")
        }
    }
}
