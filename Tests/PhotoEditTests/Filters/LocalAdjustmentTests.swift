import Foundation
import Testing
@testable import PhotoEdit

/// Local adjustments (issue 25): masks (linear, radial, brush; combined,
/// inverted), local corrections through them, and healing/cloning spots —
/// their recipe JSON and chain text, their bounds, their pixels.
@Suite("Local adjustments")
struct LocalAdjustmentTests {
    /// A float working-space image of `width`×`height`, mid grey.
    static func grey(_ width: Int, _ height: Int, _ value: Double = 0.2) throws -> Image {
        try BrushCanvas.floatImage([Float](repeating: Float(value), count: width * height * 3), width: width, height: height, bands: 3)
    }

    static func mask(_ text: String, _ width: Int = 300, _ height: Int = 200) throws -> Image {
        try MaskChain.correction(text + " exposure=+1").mask.render(width: width, height: height)
    }

    // MARK: Recipe and chain

    static let chains = [
        "local=radial(0.5 0.4 0.2 0.3) exposure=+0.5",
        "local=radial(0.3 0.3 0.1 0.15 angle=30 roundness=0.5 feather=0.2 outside) -linear(0.5 1 0.5 0.6) contrast=-20 saturation=+30",
        "local=linear(0 0.2 0 0.6) &radial(0.5 0.5 0.4 0.4) invert temperature=-20 tint=+5 off",
        "local=brush(r=0.05 0.1/0.2 0.3/0.25 | erase r=0.02 feather=0 flow=0.5 0.2/0.22) hue=+40 sharpness=80 noise=30",
        "local=radial(0.5 0.5 0.2 0.2) exposure=+1,local=linear(0.5 0 0.5 0.5) exposure=-1 highlights=-40 shadows=+20 whites=+10 blacks=-10",
        "retouch=heal(0.3 0.4 0.02 0.03 0.05 0) clone(0.6 0.6 0.01 0.01 -0.04 0.02 feather=0.5 opacity=0.8 off)",
    ]

    @Test(arguments: chains)
    func chainAndJSONRoundTrip(_ chain: String) throws {
        let r = try recipe(chain)
        let text = Chain.format(r)
        #expect(try recipe(text) == r, "\(chain) → \(text)")
        let again = try Recipe(adjustmentData: r.adjustmentData)
        #expect(again == r)
        #expect(again.adjustmentData.data == r.adjustmentData.data)
    }

    @Test func recipeJSONIsTheDocumentedShape() throws {
        let r = try recipe("local=radial(0.5 0.4 0.2 0.3 outside) exposure=+0.5,retouch=clone(0.1 0.2 0.01 0.02 0.1 0)")
        let json = String(decoding: r.adjustmentData.data, as: UTF8.self)
        #expect(json.contains(#"{"id":"retouch","params":{"spots":[{"dx":0.1,"dy":0,"enabled":true,"feather":0.3,"mode":"clone","opacity":1,"rx":0.01,"ry":0.02,"x":0.1,"y":0.2}]},"version":1}"#), "\(json)")
        #expect(json.contains(#"{"id":"local","params":{"corrections":[{"amounts":{"exposure":0.5},"enabled":true,"mask":{"invert":false,"shapes":[{"angle":0,"feather":0.5,"inside":false,"mode":"add","roundness":0,"rx":0.2,"ry":0.3,"type":"radial","x":0.5,"y":0.4}]}}]},"version":2}"#), "\(json)")
        // retouch runs first (white balance stage), local after the colour filters, before geometry.
        let ids = FilterRegistry.standard.ids
        #expect(ids.firstIndex(of: "retouch")! < ids.firstIndex(of: "temperature")!)
        #expect(ids.firstIndex(of: "lut")! < ids.firstIndex(of: "local")!)
        #expect(ids.firstIndex(of: "local")! < ids.firstIndex(of: "rotate")!)
        // The typed API reads the same values.
        #expect(r.localCorrections.count == 1 && r.localCorrections[0].amounts == [.exposure: 0.5])
        guard case .radial(let g) = r.localCorrections[0].mask.components[0].shape else { Issue.record("not radial"); return }
        #expect(g.inside == false && g.radiusY == 0.3)
        #expect(r.retouchSpots.map(\.mode) == [.clone])
    }

    @Test func chainStepsReplaceAppendSwitchAndRemove() throws {
        var r = try recipe("local=radial(0.5 0.5 0.2 0.2) exposure=+1,local=linear(0 0 0 1) exposure=-1")
        #expect(r.localCorrections.count == 2)
        // A new chain's first local= replaces the list (as exposure= replaces exposure).
        r = try recipe("local=radial(0.2 0.2 0.1 0.1) contrast=+10", on: r)
        #expect(r.localCorrections.count == 1)
        r = try recipe("local.add=radial(0.7 0.7 0.1 0.1) saturation=-50", on: r)
        #expect(r.localCorrections.map { $0.amounts.keys.first } == [.contrast, .saturation])
        r = try recipe("local.off=2", on: r)
        #expect(r.localCorrections.map(\.enabled) == [true, false])
        #expect(Chain.format(r).hasSuffix(" saturation=-50 off"))
        r = try recipe("local.on=2,local.remove=1", on: r)
        #expect(r.localCorrections.count == 1 && r.localCorrections[0].enabled)
        r = try recipe("local.remove=1", on: r)
        #expect(r.node("local") == nil && r.isEmpty)
    }

    @Test func typedAPISetsAndValidates() throws {
        var r = Recipe.empty
        let radial = RadialGradient(centre: MaskPoint(x: 0.5, y: 0.5), radiusX: 0.25, radiusY: 0.25, feather: 0.4)
        try r.setLocalCorrections([LocalCorrection(mask: Mask(.radial(radial)), amounts: [.exposure: 0.7, .contrast: 0])])
        #expect(Chain.format(r) == "local=radial(0.5 0.5 0.25 0.25 feather=0.4) exposure=+0.7", "zero amounts are dropped")
        try r.setRetouchSpots([RetouchSpot(mode: .heal, centre: MaskPoint(x: 0.5, y: 0.5), radiusX: 0.02, radiusY: 0.03, offset: MaskPoint(x: 0.05, y: 0))])
        #expect(Chain.format(r) == "retouch=heal(0.5 0.5 0.02 0.03 0.05 0),local=radial(0.5 0.5 0.25 0.25 feather=0.4) exposure=+0.7")
        var bad = radial
        bad.radiusX = 0
        expectPhotoEditError("radius 0") {
            try r.setLocalCorrections([LocalCorrection(mask: Mask(.radial(bad)), amounts: [.exposure: 1])])
        } matches: { $0.description.hasPrefix("local: correction 1 shape 1 radius x 0 is out of range") }
        expectPhotoEditError("exposure 6") {
            try r.setLocalCorrections([LocalCorrection(mask: Mask(.radial(radial)), amounts: [.exposure: 6])])
        } matches: { $0.description.contains("exposure 6 is out of range") }
        try r.setLocalCorrections([])
        #expect(r.node("local") == nil && r.retouchSpots.count == 1)
    }

    static let badChains: [(String, String)] = [
        ("local=exposure=+1", "needs a shape"),
        ("local=radial(0.5 0.5 0.2) exposure=+1", "radial takes X Y RX RY"),
        ("local=radial(0.5 0.5 0.2 0.2 blur=3) exposure=+1", "unknown option 'blur'"),
        ("local=radial(0.5 0.5 0.2 0.2) glow=+1", "'glow' is not a local adjustment"),
        ("local=radial(0.5 0.5 0.2 0.2) exposure=+9", "exposure 9 is out of range"),
        ("local=radial(9 0.5 0.2 0.2) exposure=+1", "centre x 9 is out of range"),
        ("local=radial(0.5 0.5 0.2 0.2 exposure=+1", "'(' without ')'"),
        ("local=linear(0.5 0.5 0.5 0.5) exposure=+1", "start and end must differ"),
        ("local=brush(0.1/0.2) exposure=+1", "needs its radius"),
        ("local=brush(r=0.1 0.1-0.2) exposure=+1", "a brush point is X/Y"),
        ("local=radial(0.5 0.5 nan 0.2) exposure=+1", "unknown word 'nan'"),
        ("local=radial(0.5 0.5 1e999 0.2) exposure=+1", "is not a number"),
        ("local.off=3", "local.off=3: there are 0"),
        ("local.blur=1", "local.blur is unknown"),
        ("retouch=heal(0.5 0.5 0.02 0.02 0 0)", "offset must not be 0,0"),
        ("retouch=heal(0.5 0.5 0.9 0.02 0.1 0)", "radius x 0.9 is out of range"),
        ("retouch=patch(0.5 0.5 0.02 0.02 0.1 0)", "is not a spot"),
        ("local=luminance(0.7 0.3) exposure=+1", "low must not be above its high"),
        ("local=luminance(0.2 1.5) exposure=+1", "high 1.5 is out of range"),
        ("local=luminance(0.2) exposure=+1", "luminance takes LOW HIGH"),
        ("local=colour(250 400) exposure=+1", "width 400 is out of range"),
        ("local=colour(250 30 chroma=-1) exposure=+1", "chroma -1 is out of range"),
        ("local=radial(0.5 0.5 0.2 0.2) clarity=+101", "clarity 101 is out of range"),
    ]

    @Test(arguments: badChains)
    func badChainsFailWithOneLine(_ chain: String, _ message: String) {
        do {
            _ = try recipe(chain)
            Issue.record("\(chain) was accepted")
        } catch {
            let text = "\(error)"
            #expect(text.contains(message), "\(chain): \(text)")
            #expect(!text.contains("\n"))
        }
    }

    static let badJSON: [(String, String, String)] = [
        (#"{"corrections":[{"mask":{"shapes":[{"type":"radial","x":0.5,"y":0.5,"rx":0.2,"ry":0.2}]},"amounts":{"exposure":1},"colour":1}]}"#, "local", "unknown key 'colour'"),
        (#"{"corrections":[{"mask":{"shapes":[]},"amounts":{"exposure":1}}]}"#, "local", "needs at least one shape"),
        (#"{"corrections":[{"mask":{"shapes":[{"type":"star"}]}}]}"#, "local", "type 'star' is not linear, radial, brush, luminance or colour"),
        (#"{"corrections":[{"mask":{"shapes":[{"type":"linear","x0":0,"y0":0,"x1":1,"y1":"1"}]}}]}"#, "local", "'y1' must be a number"),
        (#"{"corrections":[{"mask":{"shapes":[{"type":"brush","strokes":[{"radius":0.1,"points":[[0.1]]}]}]}}]}"#, "local", "each point is [x, y]"),
        (#"{"corrections":[{"mask":{"shapes":[{"type":"radial","x":0.5,"y":0.5,"rx":0.2,"ry":0.2,"mode":"xor"}]}}]}"#, "local", "mode 'xor'"),
        (#"{"corrections":[]}, "x":1"#, "local", "unknown key 'x'"),
        (#"{"spots":[{"mode":"heal","x":0.5,"y":0.5,"rx":0.02,"ry":0.02,"dx":0.1,"dy":0,"opacity":2}]}"#, "retouch", "opacity 2 is out of range"),
        (#"{"spots":[{"mode":"smudge","x":0.5,"y":0.5,"rx":0.02,"ry":0.02,"dx":0.1,"dy":0}]}"#, "retouch", "mode 'smudge' is not clone or heal"),
    ]

    @Test(arguments: badJSON)
    func badRecipeJSONIsRefused(_ params: String, _ id: String, _ message: String) {
        do {
            _ = try Recipe(json: JSONValue.parse(LocalAdjustmentSupport.recipeJSON(params, id: id)))
            Issue.record("\(params) was accepted")
        } catch {
            #expect("\(error)".contains(message), "\(error)")
        }
    }

    @Test func boundsOnSizes() throws {
        let many = (0..<65).map { _ in "{\"mask\":{\"shapes\":[{\"type\":\"radial\",\"x\":0.5,\"y\":0.5,\"rx\":0.2,\"ry\":0.2}]}}" }
        #expect(throws: PhotoEditError.self) { try Recipe(json: JSONValue.parse(LocalAdjustmentSupport.recipeJSON("{\"corrections\":[\(many.joined(separator: ","))]}"))) }
        let points = Array(repeating: "[0.1,0.1]", count: 10_001).joined(separator: ",")
        #expect(throws: PhotoEditError.self) {
            try Recipe(json: JSONValue.parse(LocalAdjustmentSupport.recipeJSON("{\"corrections\":[{\"mask\":{\"shapes\":[{\"type\":\"brush\",\"strokes\":[{\"radius\":0.1,\"points\":[\(points)]}]}]}}]}")))
        }
    }

    /// A brush that would paint for minutes (10 000 wide segments across
    /// the photo) is refused before painting.
    @Test func aHostileBrushIsRefusedQuickly() throws {
        let points = (0..<10_000).map { i in MaskPoint(x: i % 2 == 0 ? 0 : 1, y: Double(i % 7) / 7) }
        let start = Date()
        let shape = try MaskShape.brush([BrushStroke(points: points, radius: 1)]).validated("shape")
        do {
            _ = try shape.render(width: 300, height: 200)
            Issue.record("painted")
        } catch {
            #expect("\(error)".contains("the brush strokes would paint"), "\(error)")
        }
        #expect(Date().timeIntervalSince(start) < 5)
    }

    // MARK: Masks

    @Test func radialMask() throws {
        let m = try Self.mask("radial(0.5 0.5 0.2 0.3 feather=0.5)")
        #expect(m.bands == 1 && m.width == 300 && m.height == 200 && m.formatName == "float")
        #expect(try LocalAdjustmentSupport.value(m, 0.5, 0.5) > 0.999)
        #expect(try LocalAdjustmentSupport.value(m, 0.05, 0.05) == 0)
        // Along x the edge is at 0.5 ± 0.2: full inside half the radius, nothing beyond it.
        #expect(try LocalAdjustmentSupport.value(m, 0.58, 0.5) > 0.999)
        let mid = try LocalAdjustmentSupport.value(m, 0.65, 0.5)
        #expect(mid > 0.1 && mid < 0.9, "\(mid)")
        #expect(try LocalAdjustmentSupport.value(m, 0.71, 0.5) < 0.01)
        // Along y the radius is 0.3 of the height.
        #expect(try LocalAdjustmentSupport.value(m, 0.5, 0.76) > 0.01 && LocalAdjustmentSupport.value(m, 0.5, 0.81) == 0)
        let outside = try Self.mask("radial(0.5 0.5 0.2 0.3 feather=0.5 outside)")
        #expect(try LocalAdjustmentSupport.value(outside, 0.5, 0.5) < 0.001 && LocalAdjustmentSupport.value(outside, 0.05, 0.05) == 1)
        // Rotated 90°: the long axis along x (0.3 of the height = 60 px = 0.2 of the width).
        // rx 0.3 of 300 px = 90 px, ry 0.3 of 200 px = 60 px; turned 90° the 90 px axis is vertical.
        let flat = try Self.mask("radial(0.5 0.5 0.3 0.3 feather=0)")
        let turned = try Self.mask("radial(0.5 0.5 0.3 0.3 angle=90 feather=0)")
        #expect(try LocalAdjustmentSupport.value(flat, 0.78, 0.5) == 1 && LocalAdjustmentSupport.value(flat, 0.5, 0.9) == 0)
        #expect(try LocalAdjustmentSupport.value(turned, 0.68, 0.5) == 1 && LocalAdjustmentSupport.value(turned, 0.72, 0.5) == 0)
        #expect(try LocalAdjustmentSupport.value(turned, 0.5, 0.9) == 1)
        // Roundness 1 fills the corners of the box more than the ellipse does.
        let square = try Self.mask("radial(0.5 0.5 0.2 0.3 feather=0 roundness=1)")
        let ellipse = try Self.mask("radial(0.5 0.5 0.2 0.3 feather=0)")
        #expect(try LocalAdjustmentSupport.value(square, 0.66, 0.74) == 1 && LocalAdjustmentSupport.value(ellipse, 0.66, 0.74) == 0)
    }

    @Test func linearMask() throws {
        let m = try Self.mask("linear(0 0.2 0 0.6)")
        #expect(try LocalAdjustmentSupport.value(m, 0.5, 0.1) == 0)
        #expect(try LocalAdjustmentSupport.value(m, 0.5, 0.7) == 1)
        let middle = try LocalAdjustmentSupport.value(m, 0.5, 0.4)
        #expect(abs(middle - 0.5) < 0.03, "\(middle)")
        // Monotonic along the gradient.
        var last = -1.0
        for y in stride(from: 0.0, through: 1.0, by: 0.05) {
            let v = try LocalAdjustmentSupport.value(m, 0.3, y)
            #expect(v >= last)
            last = v
        }
    }

    @Test func combiningAndInverting() throws {
        let a = "radial(0.35 0.5 0.2 0.3 feather=0)", b = "radial(0.65 0.5 0.2 0.3 feather=0)"
        let add = try Self.mask("\(a) +\(b)"), sub = try Self.mask("\(a) -\(b)"), both = try Self.mask("\(a) &\(b)")
        let inverted = try Self.mask("\(a) +\(b) invert")
        // x = 0.2: only a; 0.5: both; 0.8: only b; 0.02: neither.
        #expect(try [0.2, 0.5, 0.8, 0.02].map { try LocalAdjustmentSupport.value(add, $0, 0.5) } == [1, 1, 1, 0])
        #expect(try [0.2, 0.5, 0.8, 0.02].map { try LocalAdjustmentSupport.value(sub, $0, 0.5) } == [1, 0, 0, 0])
        #expect(try [0.2, 0.5, 0.8, 0.02].map { try LocalAdjustmentSupport.value(both, $0, 0.5) } == [0, 1, 0, 0])
        #expect(try [0.2, 0.5, 0.8, 0.02].map { try LocalAdjustmentSupport.value(inverted, $0, 0.5) } == [0, 0, 0, 1])
    }

    @Test func brushMask() throws {
        let m = try Self.mask("brush(r=0.05 feather=0.5 0.2/0.5 0.8/0.5 | erase r=0.1 feather=0 0.5/0.5)")
        // Painted along y = 0.5, erased around the middle.
        #expect(try LocalAdjustmentSupport.value(m, 0.3, 0.5) > 0.99)
        #expect(try LocalAdjustmentSupport.value(m, 0.5, 0.5) == 0)
        #expect(try LocalAdjustmentSupport.value(m, 0.3, 0.3) == 0)
        // Half flow adds half of what is left.
        let half = try Self.mask("brush(r=0.05 flow=0.5 0.2/0.5 0.8/0.5)")
        #expect(abs(try LocalAdjustmentSupport.value(half, 0.3, 0.5) - 0.5) < 0.01)
        let twice = try Self.mask("brush(r=0.05 flow=0.5 0.2/0.5 0.8/0.5 | r=0.05 flow=0.5 0.2/0.5 0.8/0.5)")
        #expect(abs(try LocalAdjustmentSupport.value(twice, 0.3, 0.5) - 0.75) < 0.01)
    }

    /// A mask is a function of photo coordinates: rendered for a 256 px
    /// preview and for a 2400 px render (where the brush canvas is resized),
    /// the two agree once the large one is made small.
    @Test(arguments: [
        "radial(0.4 0.5 0.2 0.3 angle=20 feather=0.6)",
        "linear(0.1 0.1 0.7 0.8)",
        "brush(r=0.03 0.1/0.1 0.5/0.4 0.9/0.2 | erase r=0.02 0.5/0.4) +radial(0.7 0.7 0.1 0.1)",
    ])
    func masksAreResolutionIndependent(_ shape: String) throws {
        let small = try Self.mask(shape, 256, 171)
        let large = try Self.mask(shape, 2400, 1600)
        let shrunk = try large.call("resize", [("scale", .number(256.0 / 2400.0)), ("vscale", .number(171.0 / 1600.0))])
        let n = min(shrunk.width, small.width), h = min(shrunk.height, small.height)
        let diff = try small.extractArea(left: 0, top: 0, width: n, height: h)
            .subtracting(shrunk.extractArea(left: 0, top: 0, width: n, height: h)).call("abs")
        let mean = try diff.average()
        print(String(format: "mask %@: 256 px vs 2400 px: mean |Δ| %.4f, max %.4f", shape, mean, try diff.maximum()))
        #expect(mean < 0.01)
    }

    // MARK: Corrections

    @Test func correctionAppliesThroughTheMask() throws {
        let image = try Self.grey(300, 200)
        let r = try recipe("local=radial(0.5 0.5 0.2 0.3 feather=0.5) exposure=+1")
        let node = try #require(r.node("local"))
        let out = try Filters.local.render(image, node.parameters, RenderContext())
        #expect(abs(try out.point(x: 150, y: 100)[1] - 0.4) < 1e-5, "one stop at the centre")
        #expect(try out.point(x: 10, y: 10)[1] == Double(Float(0.2)), "nothing outside")
        let edge = try out.point(x: 195, y: 100)[1]
        #expect(edge > 0.2 && edge < 0.4)
        // Switched off: the identity.
        let off = try recipe("local=radial(0.5 0.5 0.2 0.3) exposure=+1 off")
        let same = try Filters.local.render(image, off.node("local")!.parameters, RenderContext())
        #expect(try Pixels.maxAbsDifference(same, image) == 0)
    }

    @Test func hueRotationKeepsGreyAndLuminance() {
        let m = LocalAdjustment.hueRotation(degrees: 70)
        for row in 0..<3 { #expect(abs(m[row * 3] + m[row * 3 + 1] + m[row * 3 + 2] - 1) < 1e-9) }
        let l = ColourMath.luminance
        for col in 0..<3 { #expect(abs((0..<3).reduce(0) { $0 + l[$1] * m[$1 * 3 + col] } - l[col]) < 1e-3) }
    }

    /// The mask is drawn on the upright, uncropped photo: it stays on the
    /// same content when the photo is flipped, rotated or cropped, and on a
    /// photo with an EXIF orientation it is placed on the photo as displayed.
    @Test func maskFollowsGeometryAndOrientation() throws {
        let lib = try SampleLibrary("photoedit-local", samples: ["coffee.jpg", "rotated-exif.jpg"])
        func render(_ id: String, _ chain: String) throws -> Image {
            let path = lib.temp.file(UUID().uuidString + ".png")
            try lib.library.apply(chain: chain, to: id, reset: true)
            try lib.library.render(id, to: path, options: RenderOptions(format: .png))
            return try Pixels.load(path)
        }
        let coffee = lib.ids[0]
        let bright = "local=radial(0.2 0.5 0.1 0.15 feather=0) exposure=+2"
        let plain = try render(coffee, "exposure=0")
        let lit = try render(coffee, bright)
        // Brighter at x = 0.2, untouched at x = 0.8.
        #expect(try lit.point(x: 120, y: 200)[1] > plain.point(x: 120, y: 200)[1] + 20)
        #expect(try lit.point(x: 480, y: 200) == plain.point(x: 480, y: 200))
        let flipped = try render(coffee, bright + ",flip")
        let plainFlipped = try render(coffee, "flip")
        #expect(try flipped.point(x: 479, y: 200)[1] > plainFlipped.point(x: 479, y: 200)[1] + 20, "the mask moved with the pixels")
        let cropped = try render(coffee, bright + ",crop=0.1:0.25:0.5:0.5")
        // Crop origin (60, 100): the photo's (120, 200) is the crop's (60, 100).
        #expect(try cropped.point(x: 60, y: 100) == lit.point(x: 120, y: 200))
        // rotated-exif.jpg is stored 400×600 with an orientation that displays it 600×400.
        let rotated = lib.ids[1]
        let shown = try render(rotated, "exposure=0")
        let shownLit = try render(rotated, bright)
        #expect(shown.width == shownLit.width && shown.height == shownLit.height)
        let (x, y) = (Int(0.2 * Double(shown.width)), Int(0.5 * Double(shown.height)))
        #expect(try shownLit.point(x: x, y: y)[1] > shown.point(x: x, y: y)[1] + 20)
        let (fx, fy) = (Int(0.8 * Double(shown.width)), Int(0.5 * Double(shown.height)))
        #expect(try shownLit.point(x: fx, y: fy) == shown.point(x: fx, y: fy))
    }

    /// A 256 px preview of a masked recipe and the full render made small
    /// agree (ΔE00 mean < 1). The 600 px photo previewed at 256 px renders
    /// at scale 0.43, so the preview evaluates its gradients and radials per
    /// pixel (`pe_mask_shape`) and measures its luminance range in one pass
    /// (`pe_range_lightness`) where the full render uses libvips graphs.
    @Test func previewAgreesWithFullRender() throws {
        let lib = try SampleLibrary("photoedit-local", samples: ["coffee.jpg"])
        let id = lib.ids[0]
        try lib.library.apply(chain: "local=radial(0.45 0.4 0.25 0.3 feather=0.6) exposure=+0.8 contrast=+20,"
            + "local=radial(0.7 0.3 0.15 0.2 angle=20 roundness=0.5 outside) exposure=-0.4 saturation=-20,"
            + "local=linear(0.5 0.7 0.5 0.3) &luminance(0.4 1 feather=0.2) &colour(30 90) exposure=-0.5,"
            + "local=linear(0.5 0.6 0.5 1) exposure=-1 saturation=-40,"
            + "local=brush(r=0.04 0.75/0.2 0.9/0.3 0.95/0.6) temperature=+30,"
            + "retouch=heal(0.1 0.85 0.03 0.045 0.06 0)", to: id)
        let preview = try lib.library.preview(id, steps: [], longEdge: 256, quality: 100)
        let previewPath = lib.temp.file("preview.jpg")
        try preview.data.write(to: URL(fileURLWithPath: previewPath))
        let full = lib.temp.file("full.png")
        try lib.library.render(id, to: full, options: RenderOptions(format: .png))
        let small = try Pixels.load(full).thumbnail(width: preview.width, height: preview.height)
        let p = try Pixels.load(previewPath)
        #expect(small.width == p.width && small.height == p.height)
        let d = try Pixels.deltaE(small, p)
        print(String(format: "masked recipe: 256 px preview vs full render resized: ΔE00 mean %.3f, max %.2f", d.mean, d.max))
        #expect(d.mean < 1)
    }

    // MARK: Spots

    /// Pixels inside (ρ < 1) and in a ring around (1.3 ≤ ρ < 2) a circle, as linear floats.
    static func regions(_ image: Image, cx: Double, cy: Double, r: Double) throws -> (inside: [[Double]], ring: [[Double]]) {
        let working = try Renderer.workingSpace(image)
        let left = Int(cx - 2 * r) - 1, top = Int(cy - 2 * r) - 1, size = Int(4 * r) + 3
        let box = try working.extractArea(left: left, top: top, width: size, height: size).floatPixels()
        var inside: [[Double]] = [], ring: [[Double]] = []
        for y in 0..<size {
            for x in 0..<size {
                let rho = ((Double(left + x) + 0.5 - cx) * (Double(left + x) + 0.5 - cx) + (Double(top + y) + 0.5 - cy) * (Double(top + y) + 0.5 - cy)).squareRoot() / r
                let px = (0..<3).map { Double(box[(y * size + x) * 3 + $0]) }
                if rho < 1 { inside.append(px) } else if rho >= 1.3 && rho < 2 { ring.append(px) }
            }
        }
        return (inside, ring)
    }

    static func stats(_ pixels: [[Double]]) -> (mean: Double, sd: Double) {
        let l = pixels.map { 0.2126 * $0[0] + 0.7152 * $0[1] + 0.0722 * $0[2] }
        let mean = l.reduce(0, +) / Double(l.count)
        return (mean, (l.reduce(0) { $0 + ($1 - mean) * ($1 - mean) } / Double(l.count)).squareRoot())
    }

    /// "Remove a dust spot" on a real photo: a soft dark blob painted on the
    /// wood of coffee.jpg, then healed from wood 30 px to the left. The
    /// healed area's luminance mean and spread come back to its
    /// surroundings' (and to what was there before the dust).
    @Test func healingRemovesADustSpot() throws {
        let temp = TemporaryDirectory("photoedit-heal")
        let original = try Renderer(registry: .standard).workingImage(path: Paths.sample("coffee.jpg"), randomAccess: true)
        let (cx, cy, r) = (0.88 * 600, 0.2 * 400, 9.0)
        let dust = try RadialGradient(centre: MaskPoint(x: cx / 600, y: cy / 400), radiusX: r / 600, radiusY: r / 400, feather: 0.7)
            .asShape.render(width: 600, height: 400)
        let dusty = try original.multiplied(by: dust.linear(multiply: [-0.7], add: [1]))
        let dustyPath = temp.file("dusty.png")
        try Renderer(registry: .standard).outputImage(dusty).save(to: dustyPath, format: "png")
        let lib = try PhotoLibrary(url: temp.url.appendingPathComponent("library"))
        let id = try #require(try lib.importItems([dustyPath]).first?.id)
        let healR = 12.0
        try lib.apply(chain: "retouch=heal(\(cx / 600) \(cy / 400) \(healR / 600) \(healR / 400) -0.05 0 feather=0.3)", to: id)
        let healedPath = temp.file("healed.png")
        try lib.render(id, to: healedPath, options: RenderOptions(format: .png))
        try lib.apply(chain: "retouch=clone(\(cx / 600) \(cy / 400) \(healR / 600) \(healR / 400) -0.05 0 feather=0.3)", to: id)
        let clonedPath = temp.file("cloned.png")
        try lib.render(id, to: clonedPath, options: RenderOptions(format: .png))

        let before = try Self.regions(try Pixels.load(Paths.sample("coffee.jpg")), cx: cx, cy: cy, r: r)
        let spotted = try Self.regions(try Pixels.load(dustyPath), cx: cx, cy: cy, r: r)
        let healed = try Self.regions(try Pixels.load(healedPath), cx: cx, cy: cy, r: r)
        let cloned = try Self.regions(try Pixels.load(clonedPath), cx: cx, cy: cy, r: r)
        let ring = Self.stats(healed.ring), inHealed = Self.stats(healed.inside)
        let inSpotted = Self.stats(spotted.inside), inBefore = Self.stats(before.inside), inCloned = Self.stats(cloned.inside)
        print(String(format: "dust spot (linear luminance): surroundings mean %.4f sd %.4f; before dust %.4f sd %.4f; dusty %.4f sd %.4f; healed %.4f sd %.4f; cloned %.4f sd %.4f",
                     ring.mean, ring.sd, inBefore.mean, inBefore.sd, inSpotted.mean, inSpotted.sd, inHealed.mean, inHealed.sd, inCloned.mean, inCloned.sd))
        // The dust darkened the spot well below its surroundings…
        #expect(inSpotted.mean < 0.8 * ring.mean)
        // …healing brings the mean within 8 % of the surroundings' and the spread within a factor of 2.
        #expect(abs(inHealed.mean - ring.mean) < 0.08 * ring.mean)
        #expect(inHealed.sd < 2 * ring.sd && inHealed.sd > 0.3 * ring.sd)
        #expect(abs(inHealed.mean - inBefore.mean) < abs(inSpotted.mean - inBefore.mean) / 4)
        // The ring itself is untouched by the spot (up to the feathered edge it never reaches).
        let ringSpotted = Self.stats(spotted.ring)
        #expect(abs(ringSpotted.mean - ring.mean) < 0.002)
    }

    @Test func cloneCopiesTheSourceAndHealMatchesTheEdge() throws {
        // Left half 0.1, right half 0.5; a spot on the left copies from the right.
        var pixels = [Float](repeating: 0.1, count: 100 * 60 * 3)
        for y in 0..<60 { for x in 50..<100 { for b in 0..<3 { pixels[(y * 100 + x) * 3 + b] = 0.5 } } }
        // A little texture on the right: a bright dot at (80, 30).
        for b in 0..<3 { pixels[(30 * 100 + 80) * 3 + b] = 0.9 }
        let image = try BrushCanvas.floatImage(pixels, width: 100, height: 60, bands: 3)
        let clone = RetouchSpot(mode: .clone, centre: MaskPoint(x: 0.2, y: 0.5), radiusX: 0.1, radiusY: 10 / 60, offset: MaskPoint(x: 0.6, y: 0), feather: 0)
        let c = try clone.render(image)
        #expect(abs(try c.point(x: 20, y: 30)[0] - 0.9) < 1e-6, "the dot is copied")
        #expect(abs(try c.point(x: 22, y: 30)[0] - 0.5) < 1e-6, "the source's level is copied")
        #expect(try c.point(x: 40, y: 30)[0] == Double(Float(0.1)), "outside the spot nothing changes")
        let heal = RetouchSpot(mode: .heal, centre: MaskPoint(x: 0.2, y: 0.5), radiusX: 0.1, radiusY: 10 / 60, offset: MaskPoint(x: 0.6, y: 0), feather: 0)
        let h = try heal.render(image)
        // The level comes from the destination's edge (0.1); the texture (the dot, +0.4) from the source.
        #expect(abs(try h.point(x: 22, y: 30)[0] - 0.1) < 0.01)
        #expect(abs(try h.point(x: 20, y: 30)[0] - 0.5) < 0.02)
    }
}

extension RadialGradient {
    var asShape: MaskShape { .radial(self) }
}
