import Foundation
import Testing
@testable import PhotoEdit

/// The colour filters: vibrance, hsl, mono, splittone.
@Suite("Colour filters")
struct ColourFilterTests {
    static let chains: [String] = [
        "vibrance=+80", "vibrance=-60", "vibrance.amount=+100,vibrance.spare_skin=false",
        "hsl.blue_s=-100", "hsl.red_h=+60,hsl.orange_s=+50,hsl.green_l=-70,hsl.aqua_l=+40",
        "mono", "mono=0.5:0.3:0.2", "mono=40",
        "splittone", "splittone=220:60:40:50:+30",
    ]

    static let renderer = Renderer(registry: .standard)

    static func working(_ sample: String) throws -> Image {
        try renderer.workingImage(path: Paths.sample(sample), randomAccess: true)
    }

    /// Renders the first filter of `chain` on `image`.
    static func render(_ chain: String, _ image: Image) throws -> Image {
        let node = try #require(try recipe(chain).nodes.first)
        return try FilterRegistry.standard.require(node.filter).render(image, node.parameters, RenderContext())
    }

    /// A point filter gives the same result on the whole image as on one pixel.
    @Test(arguments: chains, ["coffee.jpg", "chart.png", "astronaut.jpg"])
    func wholeImageEqualsOnePixel(_ chain: String, _ sample: String) throws {
        let working = try Self.working(sample)
        let whole = try Self.render(chain, working)
        #expect(whole.width == working.width && whole.height == working.height && whole.bands == 3)
        #expect(whole.formatName == "float")
        var changed = 0
        let (w, h) = (working.width, working.height)
        for (x, y) in PixelProbes.spread(width: w, height: h) + [(w / 8, h * 5 / 8), (w * 3 / 8, h * 5 / 8), (w * 5 / 8, h * 7 / 8)] {
            let alone = try Self.render(chain, try working.extractArea(left: x, top: y, width: 1, height: 1)).point(x: 0, y: 0)
            let inWhole = try whole.point(x: x, y: y)
            #expect(alone.count == 3 && inWhole.count == 3)
            for band in 0..<min(alone.count, inWhole.count) {
                #expect(abs(alone[band] - inWhole[band]) <= 1e-6 * max(1, abs(inWhole[band])),
                        "\(chain) on \(sample) at (\(x), \(y)) band \(band): whole \(inWhole[band]), alone \(alone[band])")
            }
            if zip(try working.point(x: x, y: y), inWhole).contains(where: { abs($0 - $1) > 1e-4 }) { changed += 1 }
        }
        if !chain.hasPrefix("hsl") {  // hsl changes only its ranges; the probes may miss them
            #expect(changed >= 3, "\(chain) on \(sample) changed only \(changed) probed pixels")
        }
    }

    /// At their defaults the colour filters return the very same image.
    @Test(arguments: ["vibrance", "hsl", "mono", "splittone"])
    func neutralReturnsTheInput(_ id: String) throws {
        let working = try Self.working("chart.png")
        let f = try FilterRegistry.standard.require(id)
        #expect(try f.render(working, f.defaults, RenderContext()) === working)
    }

    static func isGrey(_ image: Image, tolerance: Double) throws -> Bool {
        let r = try image.extractBands(0, count: 1), g = try image.extractBands(1, count: 1), b = try image.extractBands(2, count: 1)
        return try Pixels.maxAbsDifference(r, g) <= tolerance && Pixels.maxAbsDifference(g, b) <= tolerance
    }

    /// mono gives R = G = B, for the luminance mix and any channel mix; the
    /// luminance mix keeps each pixel's luminance.
    @Test func monoIsGrey() throws {
        let working = try Self.working("astronaut.jpg")
        for chain in ["mono", "mono=0.5:0.3:0.2", "mono=0:0:1"] {
            #expect(try Self.isGrey(try Self.render(chain, working), tolerance: 1e-5), "\(chain)")
        }
        let luminance = try working.luminance()
        let grey = try Self.render("mono", working)
        #expect(try Pixels.maxAbsDifference(grey.extractBands(0, count: 1), luminance) <= 1e-5)
        // Weights are normalised: 5:3:2 is 0.5:0.3:0.2.
        #expect(try Pixels.maxAbsDifference(Self.render("mono=1:0.6:0.4", working), Self.render("mono=0.5:0.3:0.2", working)) <= 1e-6)
        // mono=50 is half way.
        let half = try Self.render("mono=50", working)
        let mid = try working.adding(grey).linear(multiply: [0.5], add: [0])
        #expect(try Pixels.maxAbsDifference(half, mid) <= 1e-5)
    }

    @Test func monoRejectsWeightsSummingToZero() throws {
        #expect(throws: PhotoEditError.self) { try recipe("mono=1.5:0:0") }
        #expect(throws: PhotoEditError.self) { try recipe("mono=0:0:0") }
    }

    /// The chart's pure patches (row 128…191): red, green, blue, cyan,
    /// magenta, yellow, white, black, 64 px each.
    static func pureRow(_ image: Image) throws -> [[Double]] {
        try (0..<8).map { try image.point(x: $0 * 64 + 32, y: 160) }
    }

    /// hsl.blue_s=-100 greys the blue patch and leaves every other patch of
    /// the pure row exactly as it was.
    @Test func hslTouchesOnlyItsRange() throws {
        let working = try Self.working("chart.png")
        let before = try Self.pureRow(working), after = try Self.pureRow(try Self.render("hsl.blue_s=-100", working))
        for (i, name) in ["red", "green", "blue", "cyan", "magenta", "yellow", "white", "black"].enumerated() {
            if name == "blue" {
                #expect(abs(after[i][0] - after[i][1]) < 2e-3 && abs(after[i][1] - after[i][2]) < 2e-3, "blue → grey: \(after[i])")
            } else {
                #expect(before[i] == after[i], "\(name): \(before[i]) → \(after[i])")
            }
        }
        // The red range's hue shift moves red towards orange (G up) and leaves blue alone.
        let shifted = try Self.pureRow(try Self.render("hsl.red_h=+100", working))
        #expect(shifted[0][1] > before[0][1] + 0.01, "\(shifted[0])")
        #expect(shifted[2] == before[2])
        // Luminance: -100 darkens the greens, leaves the greys (white, black) alone.
        let darker = try Self.pureRow(try Self.render("hsl.green_l=-100", working))
        #expect(darker[1][1] < before[1][1] * 0.5, "\(darker[1])")
        #expect(darker[6] == before[6] && darker[7] == before[7])
    }

    /// The masks of neighbouring ranges add up to 1: the same saturation
    /// change in every range is a global one (-100 everywhere gives grey).
    @Test func hslRangesCoverTheWheel() throws {
        let working = try Self.working("astronaut.jpg")
        let all = Filters.hslRanges.map { "hsl.\($0.name)_s=-100" }.joined(separator: ",")
        #expect(try Self.isGrey(try Self.render(all, working), tolerance: 2e-3))
    }

    /// Vibrance boosts dull colours more than vivid ones and keeps luminance.
    @Test func vibranceFavoursDullColours() throws {
        let working = try Self.working("chart.png")
        let out = try Self.render("vibrance.amount=+100,vibrance.spare_skin=false", working)
        func chroma(_ image: Image, _ x: Int, _ y: Int) throws -> Double {
            try image.call("colourspace", [("space", .string("lch")), ("source_space", .string("scrgb"))]).point(x: x, y: y)[1]
        }
        // Pure red (row 128) and the ColorChecker blue-sky patch (98,122,157), row 192, x 128…191.
        let vividGain = try chroma(out, 32, 160) / chroma(working, 32, 160)
        let dullGain = try chroma(out, 160, 224) / chroma(working, 160, 224)
        #expect(abs(vividGain - 1) < 0.02, "vivid red gain \(vividGain)")
        #expect(dullGain > 1.3, "dull blue gain \(dullGain)")
        #expect(try Pixels.maxAbsDifference(out.luminance(), working.luminance()) <= 1e-5)
        // Skin protection: the ColorChecker light-skin patch (194,150,130) gains less with it.
        let protected = try Self.render("vibrance=+100", working)
        #expect(try chroma(protected, 96, 224) < chroma(out, 96, 224) - 1)
        // Negative vibrance takes more colour from the dull patch than from the vivid one.
        let less = try Self.render("vibrance=-100", working)
        #expect(try chroma(less, 160, 224) < 0.5 * chroma(working, 160, 224))
        #expect(try chroma(less, 32, 160) > 0.95 * chroma(working, 32, 160))
    }

    /// Split toning keeps luminance and tints shadows and highlights with
    /// their own hues.
    @Test func splitToneTintsShadowsAndHighlights() throws {
        let working = try Self.working("chart.png")
        let out = try Self.render("splittone=240:50:60:50", working)
        #expect(try Pixels.maxAbsDifference(out.luminance(), working.luminance()) <= 1e-5)
        // Grey wedge (row 64…127): a dark step (value 34) and a light one (221).
        let dark = try out.point(x: 2 * 32 + 16, y: 96), light = try out.point(x: 13 * 32 + 16, y: 96)
        #expect(dark[2] > dark[0] && dark[2] > dark[1], "shadows blue: \(dark)")
        #expect(light[0] > light[2] && light[1] > light[2], "highlights yellow: \(light)")
        // Black stays black.
        #expect(try out.point(x: 7 * 64 + 32, y: 160) == [0, 0, 0])
    }

    /// Chains of the colour filters are written back in their shortest form.
    @Test func chainsRoundTrip() throws {
        for (chain, formatted) in [("mono", "mono"), ("mono=0.5:0.3:0.2", "mono=0.5:0.3:0.2"), ("mono=50", "mono=50"),
                                   ("splittone", "splittone=30:70:45:50"), ("splittone=200:30:40:25:-20", "splittone=200:30:40:25:-20"),
                                   ("hsl.blue_s=-30", "hsl.blue_s=-30"), ("vibrance=+20", "vibrance=+20"), ("hsl", "hsl")] {
            let r = try recipe(chain)
            let text = Chain.format(r)
            #expect(text.replacingOccurrences(of: "+", with: "") == formatted.replacingOccurrences(of: "+", with: ""), "\(chain) → \(text)")
            #expect(try recipe(text) == r, "\(chain) → \(text)")
        }
        // Partial mono with weights goes through parameter steps and back.
        let partial = try recipe("mono=0.5:0.3:0.2,mono.amount=60")
        #expect(partial.node("mono")?.parameters.number("amount") == 60)
        #expect(try recipe(Chain.format(partial)) == partial)
    }
}
