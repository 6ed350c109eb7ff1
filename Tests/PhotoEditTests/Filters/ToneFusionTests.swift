import Foundation
import Testing
@testable import PhotoEdit

/// The luminance tone filters in one pass (`Image.toneFused`,
/// photoedit_tone.c) against their graphs of libvips operations (the
/// filters' reference): the same bits, on values across and beyond the
/// working range (negatives, zeros, near-black, above white, the curves'
/// break points) and on a real photo.
@Suite("Tone fusion")
struct ToneFusionTests {
    /// Every float of a 3-band image, as bit patterns.
    static func bits(_ image: Image) throws -> [UInt32] {
        try image.floatPixels().map(\.bitPattern)
    }

    /// A 3-band float image: random values from −0.3 to 3 (seeded), then
    /// the special ones: ±0, denormals, 1e-10, ε, the contrast curve's
    /// middle grey (0.18) and its perceptual break, white, values just
    /// around them, and greys, primaries, negative colours.
    static let synthetic: Image = {
        var values: [Float] = []
        var state: UInt64 = 0x9E37_79B9_7F4A_7C15
        func next() -> Float {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Float(Double(state >> 11) / Double(1 << 53))
        }
        let special: [Float] = [0, -0.0, .leastNonzeroMagnitude, -.leastNonzeroMagnitude, 1e-10, 1e-9, 2e-9, 0.004, 0.0031,
                                0.18, Float(0.18).nextUp, Float(0.18).nextDown, 1, Float(1).nextUp, Float(1).nextDown, 0.5, 2, 16, -0.01, -1, 1e-6, 0.9999]
        for a in special {
            for b in special.prefix(8) { values += [a, b, a]; values += [a, a, a]; values += [b, a, a] }
        }
        let width = 256, height = 128
        while values.count < width * height * 3 {
            let v = next()
            // Mostly the working range, some far outside it.
            let x = v < 0.9 ? v * 1.2 - 0.02 : v * 30 - 27.3
            values.append(x)
        }
        values = Array(values.prefix(width * height * 3))
        return try! BrushCanvas.floatImage(values, width: width, height: height, bands: 3)
    }()

    static let cases: [(FusedTone, [Double])] = [
        (.contrast, [15, -15, 100, -100, 37.3, 1, -0.5]),
        (.highlights, [-20, -100, 50, 100, -0.35].map { $0 / 100 * ($0 < 0 ? 1.6 : 0.9) }),
        (.shadows, [20, 100, -50, -100, 7].map { $0 / 100 * ($0 > 0 ? 1.6 : 0.9) }),
        (.whites, [50, -70, 100, -100].map { 0.25 * $0 / 100 }),
        (.blacks, [40, -60, 100, -100].map { 0.25 * $0 / 100 }),
    ]

    static func graph(_ tone: FusedTone, _ image: Image, _ amount: Double) throws -> Image {
        switch tone {
        case .contrast: return try Filters.contrastGraph(image, amount: amount)
        case .highlights: return try Filters.highlightsGraph(image, amount)
        case .shadows: return try Filters.shadowsGraph(image, amount)
        case .whites: return try Filters.whitesGraph(image, amount)
        case .blacks: return try Filters.blacksGraph(image, amount)
        }
    }

    static func compare(_ tone: FusedTone, _ image: Image, _ amount: Double, _ what: String) throws {
        let fused = try #require(try image.toneFused(tone, amount))
        #expect(fused.width == image.width && fused.height == image.height && fused.bands == 3 && fused.formatName == "float")
        let (a, b) = (try bits(fused), try bits(graph(tone, image, amount)))
        try #require(a.count == b.count)
        let differing = zip(a, b).enumerated().filter { $0.element.0 != $0.element.1 }
        let first = differing.first.map { i, pair in
            " (first at value \(i): input \(try! image.floatPixels()[i]), fused \(Float(bitPattern: pair.0)), graph \(Float(bitPattern: pair.1)))"
        } ?? ""
        #expect(differing.isEmpty, "\(tone) \(amount) on \(what): \(differing.count) of \(a.count) values differ\(first)")
        // The filter changed something (the comparison is not between two copies of the input).
        #expect(a != (try bits(image)), "\(tone) \(amount) left \(what) as it was")
    }

    @Test func sameBitsAsTheGraphOnSyntheticValues() throws {
        for (tone, amounts) in Self.cases {
            for amount in amounts { try Self.compare(tone, Self.synthetic, amount, "synthetic values") }
        }
    }

    @Test func sameBitsAsTheGraphOnAPhoto() throws {
        let working = try Renderer(registry: .standard).workingImage(path: Paths.sample("coffee.jpg"), randomAccess: true)
        #expect(working.bands == 3 && working.formatName == "float")
        for (tone, amounts) in Self.cases {
            try Self.compare(tone, working, amounts[0], "coffee.jpg")
        }
    }

    /// Previews (a context's scale below 1) take `powf`: not the same bits,
    /// but within a few float ulps of the graph on every value (relative
    /// 1e-5, or 1e-6 absolute near zero), far below what a preview's 8-bit
    /// JPEG or the goldens' ΔE00 tolerance can show; and some values do
    /// differ (the preview's pass is not the exact one).
    @Test func previewPassIsWithinFloatRounding() throws {
        for (tone, amounts) in Self.cases {
            for amount in amounts {
                let fast = try Self.bits(try #require(try Self.synthetic.toneFused(tone, amount, preview: true)))
                let exact = try Self.bits(Self.graph(tone, Self.synthetic, amount))
                var worst = 0.0, differing = 0
                for (a, b) in zip(fast, exact) where a != b {
                    differing += 1
                    let (x, y) = (Double(Float(bitPattern: a)), Double(Float(bitPattern: b)))
                    guard x.isFinite, y.isFinite else { worst = .infinity; continue }
                    worst = max(worst, abs(x - y) / max(abs(y), 0.1))
                }
                #expect(worst <= 1e-5, "\(tone) \(amount): preview differs from the graph by \(worst) (relative)")
                #expect(differing > 0, "\(tone) \(amount): the preview's pass gave the exact bits everywhere (is it taken?)")
            }
        }
        // Through a filter: a preview's context takes it, a full render's does not.
        let working = try Renderer(registry: .standard).workingImage(path: Paths.sample("coffee.jpg"), randomAccess: true)
        let node = try #require(try recipe("contrast=+40").nodes.first)
        let definition = try FilterRegistry.standard.require(node.filter)
        let preview = try Self.bits(definition.render(working, node.parameters, RenderContext(scale: 0.5)))
        let full = try Self.bits(definition.render(working, node.parameters, RenderContext()))
        #expect(full == (try Self.bits(Filters.contrastGraph(working, amount: 40))))
        #expect(preview != full)
    }

    /// The filters' renderers take the one pass on the working image and
    /// the graph on anything else (here a double image), both the same values.
    @Test func filtersUseItAndFallBackToTheGraph() throws {
        let working = try Renderer(registry: .standard).workingImage(path: Paths.sample("coffee.jpg"), randomAccess: true)
            .extractArea(left: 0, top: 0, width: 64, height: 48)
        for chain in ["contrast=+30", "highlights=-40", "shadows=+60", "whites=+20", "blacks=-30"] {
            let node = try #require(try recipe(chain).nodes.first)
            let definition = try FilterRegistry.standard.require(node.filter)
            let rendered = try definition.render(working, node.parameters, RenderContext())
            let tone: FusedTone, amount: Double
            switch node.filter {
            case "contrast": (tone, amount) = (.contrast, 30)
            case "highlights": (tone, amount) = (.highlights, -0.4 * 1.6)
            case "shadows": (tone, amount) = (.shadows, 0.6 * 1.6)
            case "whites": (tone, amount) = (.whites, 0.25 * 0.2)
            default: (tone, amount) = (.blacks, 0.25 * -0.3)
            }
            #expect(try Self.bits(rendered) == Self.bits(Self.graph(tone, working, amount)), "\(chain)")
            let double = try working.cast("double")
            #expect(try double.toneFused(tone, amount) == nil)
            let viaGraph = try definition.render(double, node.parameters, RenderContext())
            #expect(viaGraph.formatName == "double")
            let (x, y) = try (viaGraph.floatPixels(), rendered.floatPixels())
            #expect(zip(x, y).allSatisfy { abs($0 - $1) <= 1e-5 * max(1, abs($1)) }, "\(chain): the graph on double pixels")
        }
    }
}
