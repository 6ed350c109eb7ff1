import Foundation
import Testing
@testable import PhotoEdit

/// The tone filters (highlights, shadows, whites, blacks, levels, curve):
/// point filters (whole image = one pixel alone), neutral = identity, and the
/// numbers their declarations promise.
@Suite("Tone filters")
struct ToneFilterTests {
    static let cases: [String] = [
        "highlights=-80", "highlights=+60", "shadows=+60", "shadows=-50", "whites=+50", "whites=-70",
        "blacks=+40", "blacks=-60", "levels=0.05:0.9:1.2", "levels=0.1:0.8:0.7:0.05:0.95",
        "curve=0:0:0.25:0.2:0.75:0.8:1:1", "curve=0:0:0.5:0.7:1:1,curve.channel=luma",
        "curve=0:0.1:0.4:0.3:1:0.9,curve.channel=red", "curve=0.1:0:0.3:0.4:0.6:0.5:0.9:1",
    ]

    static let working: Image = {
        try! Renderer(registry: .standard).workingImage(path: Paths.sample("chart.png"), randomAccess: true)
    }()

    /// As PointFilterTests: every probed pixel of the whole render equals the
    /// render of that pixel alone.
    @Test(arguments: cases, ["coffee.jpg", "chart.png"])
    func wholeImageEqualsOnePixel(_ chain: String, _ sample: String) throws {
        let node = try #require(try recipe(chain).nodes.first)
        let definition = try FilterRegistry.standard.require(node.filter)
        let working = try Renderer(registry: .standard).workingImage(path: Paths.sample(sample), randomAccess: true)
        let whole = try definition.render(working, node.parameters, RenderContext())
        #expect(whole.width == working.width && whole.height == working.height && whole.bands == 3)
        var changed = 0
        for (x, y) in PixelProbes.spread(width: working.width, height: working.height) {
            let pixel = try working.extractArea(left: x, top: y, width: 1, height: 1)
            let alone = try definition.render(pixel, node.parameters, RenderContext()).point(x: 0, y: 0)
            let inWhole = try whole.point(x: x, y: y)
            let before = try working.point(x: x, y: y)
            #expect(alone.count == 3 && inWhole.count == 3)
            for band in 0..<min(alone.count, inWhole.count) {
                #expect(abs(alone[band] - inWhole[band]) <= 1e-6 * max(1, abs(inWhole[band])),
                        "\(chain) on \(sample) at (\(x), \(y)) band \(band): whole \(inWhole[band]), alone \(alone[band])")
                #expect(inWhole[band].isFinite)
            }
            if zip(before, inWhole).contains(where: { abs($0 - $1) > 1e-4 }) { changed += 1 }
        }
        #expect(changed >= 2, "\(chain) changed only \(changed) probed pixels")
    }

    /// A 1×1 grey (or coloured) pixel of the given perceptual values (linear = p^2.2).
    static func pixel(_ perceptual: [Double]) throws -> Image {
        let one = try working.extractArea(left: 0, top: 0, width: 1, height: 1)
        return try one.linear(multiply: [0, 0, 0], add: perceptual.map { $0 < 0 ? -Foundation.pow(-$0, 2.2) : Foundation.pow($0, 2.2) })
    }

    /// Renders `chain` on one pixel and returns its perceptual values.
    static func perceptual(_ chain: String, _ values: [Double]) throws -> [Double] {
        let node = try #require(try recipe(chain).nodes.first)
        let out = try FilterRegistry.standard.require(node.filter).render(try pixel(values), node.parameters, RenderContext())
        return try out.point(x: 0, y: 0).map { $0 < 0 ? -Foundation.pow(-$0, 1 / 2.2) : Foundation.pow($0, 1 / 2.2) }
    }

    static func grey(_ chain: String, _ v: Double) throws -> Double { try perceptual(chain, [v, v, v])[1] }

    @Test func levelsMapsInputPointsToOutputPoints() throws {
        #expect(abs(try Self.grey("levels=0.02:0.95:1.1", 0.02)) < 1e-5)
        #expect(abs(try Self.grey("levels=0.02:0.95:1.1", 0.95) - 1) < 1e-5)
        #expect(abs(try Self.grey("levels=0.1:0.8:1:0.05:0.9", 0.1) - 0.05) < 1e-5)
        #expect(abs(try Self.grey("levels=0.1:0.8:1:0.05:0.9", 0.8) - 0.9) < 1e-5)
        // Gamma above 1 brightens the midtones: t^(1/γ).
        let mid = try Self.grey("levels=0:1:2", 0.25)
        #expect(abs(mid - 0.5) < 1e-5, "\(mid)")
        // Linear between the points with gamma 1.
        #expect(abs(try Self.grey("levels=0.2:0.6", 0.4) - 0.5) < 1e-5)
        // in_white below in_black inverts; equal points threshold at in_black.
        #expect(abs(try Self.grey("levels=1:0", 0.2) - 0.8) < 1e-5)
        #expect(abs(try Self.grey("levels=0.4:0.4:1:0.1:0.9", 0.39) - 0.1) < 1e-5)
        #expect(abs(try Self.grey("levels=0.4:0.4:1:0.1:0.9", 0.41) - 0.9) < 1e-5)
    }

    @Test func curveGoesThroughItsPoints() throws {
        #expect(abs(try Self.grey("curve=0:0:0.5:0.7:1:1", 0.5) - 0.7) < 1e-5)
        for (x, y) in [(0.0, 0.0), (0.25, 0.2), (0.75, 0.8), (1.0, 1.0)] {
            #expect(abs(try Self.grey("curve=0:0:0.25:0.2:0.75:0.8:1:1", x) - y) < 1e-5, "\(x)")
        }
        // Two points at one x make a step there.
        #expect(abs(try Self.grey("curve=0:0:0.5:0.2:0.5:0.8:1:1", 0.49) - 0.2) < 0.01)
        #expect(abs(try Self.grey("curve=0:0:0.5:0.2:0.5:0.8:1:1", 0.5) - 0.8) < 1e-5)
        #expect(abs(try Self.grey("curve=0.3:0.2:0.3:0.6", 0.1) - 0.2) < 1e-5)
        #expect(abs(try Self.grey("curve=0.3:0.2:0.3:0.6", 0.7) - 0.6) < 1e-5)
        // Flat before the first and after the last point (inside 0…1); slope 1 beyond 1.
        #expect(abs(try Self.grey("curve=0.2:0.1:0.8:0.9", 0.05) - 0.1) < 1e-5)
        #expect(abs(try Self.grey("curve=0.2:0.1:0.8:0.9", 0.95) - 0.9) < 1e-5)
        let above = try Self.perceptual("curve=0.2:0.1:0.8:0.9", [1.2, 1.2, 1.2])[0]
        // In perceptual terms: C(v) = C(1) + (v − 1) = 0.9 + 0.2.
        #expect(abs(above - 1.1) < 1e-5, "\(above)")
    }

    /// The libvips evaluation agrees with the scalar definition, and a curve
    /// through increasing points is increasing (Fritsch–Carlson).
    @Test func curveImageEvaluationMatchesScalarAndIsMonotone() throws {
        let points: [(x: Double, y: Double)] = [(0, 0), (0.1, 0.02), (0.3, 0.5), (0.35, 0.55), (0.8, 0.6), (0.8, 0.7), (1, 1)]
        let curve = ToneCurve(points)
        var previous = -Double.infinity
        for i in 0...200 {
            let v = Double(i) / 200
            let c = curve.value(v)
            #expect(c >= previous - 1e-12, "not monotone at \(v)")
            previous = c
        }
        let chain = "curve=" + points.map { "\($0.x):\($0.y)" }.joined(separator: ":")
        for v in [0.0, 0.05, 0.1, 0.2, 0.31, 0.5, 0.79, 0.9, 1.0] {
            #expect(abs(try Self.grey(chain, v) - curve.value(v)) < 1e-5, "\(v)")
        }
    }

    @Test func curveOnOneChannelLeavesTheOthers() throws {
        let out = try Self.perceptual("curve=0:0:0.5:0.8:1:1,curve.channel=green", [0.5, 0.5, 0.5])
        #expect(abs(out[0] - 0.5) < 1e-5 && abs(out[2] - 0.5) < 1e-5)
        #expect(abs(out[1] - 0.8) < 1e-5)
    }

    /// Luminance mode changes the luminance only: channel ratios are kept (within
    /// 3 %: a share ε/(Y+ε) of the change is added as grey, ε = 0.004).
    @Test func lumaModesKeepChromaticity() throws {
        for chain in ["curve=0:0:0.5:0.7:1:1,curve.channel=luma", "shadows=+80", "highlights=-80", "whites=-50", "blacks=+30"] {
            let node = try #require(try recipe(chain).nodes.first)
            let input = try Self.pixel([0.7, 0.45, 0.3])
            let before = try input.point(x: 0, y: 0)
            let after = try FilterRegistry.standard.require(node.filter).render(input, node.parameters, RenderContext()).point(x: 0, y: 0)
            #expect(abs(after[0] / after[1] - before[0] / before[1]) < 0.03 * before[0] / before[1], "\(chain): \(before) → \(after)")
            #expect(abs(after[2] / after[1] - before[2] / before[1]) < 0.03 * before[2] / before[1], "\(chain): \(before) → \(after)")
            #expect(abs(after[1] - before[1]) > 1e-4, "\(chain) did nothing")
        }
        // Through the curve, the luminance lands exactly on the curve.
        let node = try #require(try recipe("curve=0:0:0.5:0.7:1:1,curve.channel=luma").nodes.first)
        let grey = try FilterRegistry.standard.require("curve").render(try Self.pixel([0.5, 0.5, 0.5]), node.parameters, RenderContext())
        #expect(abs(Foundation.pow(try grey.point(x: 0, y: 0)[1], 1 / 2.2) - 0.7) < 1e-4)
    }

    @Test func shadowsAndHighlightsWorkOnTheirOwnTones() throws {
        // Shadows +60 lifts dark tones, hardly touches light ones, keeps black and white.
        #expect(try Self.grey("shadows=+60", 0.2) > 0.27)
        #expect(abs(try Self.grey("shadows=+60", 0.9) - 0.9) < 0.001)
        #expect(abs(try Self.grey("shadows=+60", 0)) < 1e-6)
        #expect(abs(try Self.grey("shadows=+60", 1) - 1) < 1e-5)
        #expect(try Self.grey("shadows=-60", 0.2) < 0.17)
        // Highlights −60 lowers light tones, hardly touches dark ones.
        #expect(try Self.grey("highlights=-60", 0.8) < 0.73)
        #expect(abs(try Self.grey("highlights=-60", 0.1) - 0.1) < 0.001)
        #expect(abs(try Self.grey("highlights=-60", 1) - 1) < 1e-5)
        #expect(try Self.grey("highlights=+60", 0.8) > 0.83)
        // Values above white are left alone by highlights and shadows.
        #expect(abs(try Self.perceptual("highlights=-100", [1.3, 1.3, 1.3])[1] - 1.3) < 1e-5)
    }

    @Test func whitesAndBlacksMoveTheirEnds() throws {
        #expect(abs(try Self.grey("whites=-100", 1) - 0.75) < 1e-5)
        #expect(abs(try Self.grey("whites=+100", 1) - 1.25) < 1e-5)
        #expect(abs(try Self.grey("whites=+100", 0.05) - 0.05) < 0.001)
        #expect(abs(try Self.grey("blacks=+100", 0) - 0.25) < 1e-4)
        #expect(try Self.grey("blacks=-100", 0.1) < 0)
        #expect(abs(try Self.grey("blacks=-100", 0.95) - 0.95) < 0.001)
    }

    /// Every tone curve is monotone: brighter in, brighter (or equal) out.
    @Test(arguments: ["highlights=-100", "highlights=+100", "shadows=-100", "shadows=+100", "whites=-100", "whites=+100",
                      "blacks=-100", "blacks=+100", "levels=0.3:0.6:0.2", "curve=0:0:0.2:0.6:0.4:0.65:1:1"])
    func toneCurvesAreMonotone(_ chain: String) throws {
        var previous = -Double.infinity
        for i in -4...44 {
            let v = Double(i) / 40
            let out = try Self.grey(chain, v)
            #expect(out >= previous - 1e-6, "\(chain) decreases at \(v): \(previous) → \(out)")
            previous = out
        }
    }

    @Test func neutralChainsAreTheDefaults() throws {
        for (chain, id) in [("highlights=0", "highlights"), ("shadows=0", "shadows"), ("whites=0", "whites"), ("blacks=0", "blacks"),
                            ("levels=0:1", "levels"), ("levels=0:1:1", "levels"), ("levels=0:1:1:0:1", "levels"),
                            ("curve=0:0:1:1", "curve")] {
            #expect(try recipe(chain).node(id)?.parameters == FilterRegistry.standard.filter(id)?.defaults, "\(chain)")
        }
        // A diagonal curve through more points is also the identity, returned as is.
        let node = try #require(try recipe("curve=0:0:0.3:0.3:1:1,curve.channel=luma").node("curve"))
        let input = Self.working
        let out = try FilterRegistry.standard.require("curve").render(input, node.parameters, RenderContext())
        #expect(out === input)
    }

    @Test func curveChainsRoundTripAndAreChecked() throws {
        for chain in ["curve=0:0:0.25:0.2:0.75:0.8:1:1", "curve=0:0:0.5:0.7:1:1,curve.channel=luma",
                      "curve=0:0:0.1:0.1:0.2:0.3:0.3:0.4:0.4:0.5:0.5:0.6:0.6:0.7:1:1", "levels=0.02:0.95:1.1"] {
            let r = try recipe(chain)
            let text = Chain.format(r)
            #expect(try recipe(text) == r, "\(chain) → \(text)")
        }
        #expect(Chain.format(try recipe("curve=0:0:0.25:0.2:0.75:0.8:1:1")) == "curve=0:0:0.25:0.2:0.75:0.8:1:1")
        #expect(throws: PhotoEditError.self) { try recipe("curve=0:0:0.5:0.7:0.4:0.8:1:1") }
        #expect(throws: PhotoEditError.self) { try recipe("curve=0:0:1") }
        #expect(throws: PhotoEditError.self) { try recipe("curve=0:0:1:1,curve.channel=hue") }
        #expect(throws: PhotoEditError.self) { try recipe("shadows=+101") }
        // Unused points are normalized away: the same curve is the same recipe.
        let a = try recipe("curve=0:0:0.5:0.7:1:1")
        let b = try recipe("curve=0:0:0.5:0.7:0.9:0.95:1:1,curve=0:0:0.5:0.7:1:1")
        #expect(a == b)
    }
}
