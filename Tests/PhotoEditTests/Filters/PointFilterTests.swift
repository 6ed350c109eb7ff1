import Foundation
import Testing
@testable import PhotoEdit

/// As libvips' own test suite does: a point operation applied to the whole
/// image must give, at every pixel, what it gives on that pixel alone.
@Suite("Point filters")
struct PointFilterTests {
    static let cases: [String] = [
        "exposure=+1", "exposure=-2.5", "contrast=+60", "contrast=-40", "saturation=+80", "saturation=-100",
        "temperature=+50", "temperature=-70", "tint=+40", "tint=-90",
    ]

    @Test(arguments: cases, ["coffee.jpg", "chart.png"])
    func wholeImageEqualsOnePixel(_ chain: String, _ sample: String) throws {
        let r = try recipe(chain)
        let node = try #require(r.nodes.first)
        let definition = try FilterRegistry.standard.require(node.filter)
        let renderer = Renderer(registry: .standard)
        let working = try renderer.workingImage(path: Paths.sample(sample), randomAccess: true)
        let whole = try definition.render(working, node.parameters, RenderContext())
        #expect(whole.width == working.width && whole.height == working.height)
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
            }
            if zip(before, inWhole).contains(where: { abs($0 - $1) > 1e-4 }) { changed += 1 }
        }
        // The filter does something (probes on pure black or white may not change).
        #expect(changed >= 3, "\(chain) changed only \(changed) probed pixels")
    }

    /// Point filters keep the image's size; the working image is 3-band float.
    @Test func workingImageIsLinearFloatRGB() throws {
        let renderer = Renderer(registry: .standard)
        for sample in ["coffee.jpg", "chelsea.jpg", "chart.png", "rotated-exif.jpg", "chelsea-16bit.png"] {
            let image = try renderer.workingImage(path: Paths.sample(sample), randomAccess: false)
            #expect(image.bands == 3, "\(sample)")
            #expect(image.formatName == "float", "\(sample)")
            #expect(image.interpretationName == "scrgb", "\(sample)")
        }
        // Orientation applied: rotated-exif.jpg is stored 400×600.
        let upright = try renderer.workingImage(path: Paths.sample("rotated-exif.jpg"), randomAccess: false)
        #expect(upright.width == 600 && upright.height == 400)
    }

    /// Exposure is exact in linear light: +1 EV doubles every value.
    @Test func exposureDoublesLinearLight() throws {
        let renderer = Renderer(registry: .standard)
        let working = try renderer.workingImage(path: Paths.sample("chart.png"), randomAccess: true)
        let node = try #require(try recipe("exposure=+1").node("exposure"))
        let out = try FilterRegistry.standard.require("exposure").render(working, node.parameters, RenderContext())
        let doubled = try working.linear(multiply: [2, 2, 2], add: [0, 0, 0])
        #expect(try Pixels.maxAbsDifference(out, doubled) <= 1e-6)
    }

    /// Saturation -100 leaves no colour: R = G = B at every pixel.
    @Test func saturationMinus100IsGrey() throws {
        let renderer = Renderer(registry: .standard)
        let working = try renderer.workingImage(path: Paths.sample("chart.png"), randomAccess: true)
        let node = try #require(try recipe("saturation=-100").node("saturation"))
        let out = try FilterRegistry.standard.require("saturation").render(working, node.parameters, RenderContext())
        let r = try out.extractBands(0, count: 1), g = try out.extractBands(1, count: 1), b = try out.extractBands(2, count: 1)
        #expect(try Pixels.maxAbsDifference(r, g) <= 1e-5)
        #expect(try Pixels.maxAbsDifference(g, b) <= 1e-5)
    }

    /// White balance keeps white where it adapts: neutral grey goes warm
    /// (R > B) for +temperature and cool for −temperature; tint + is magenta.
    @Test func whiteBalanceDirections() throws {
        let renderer = Renderer(registry: .standard)
        let working = try renderer.workingImage(path: Paths.sample("chart.png"), randomAccess: true)
        // A mid-grey step of the wedge row (y 64…127, value 136 at x 256…287).
        let grey = try working.extractArea(left: 260, top: 90, width: 1, height: 1)
        func rgb(_ chain: String) throws -> [Double] {
            let node = try #require(try recipe(chain).nodes.first)
            return try FilterRegistry.standard.require(node.filter).render(grey, node.parameters, RenderContext()).point(x: 0, y: 0)
        }
        let original = try grey.point(x: 0, y: 0)
        #expect(abs(original[0] - original[2]) < 1e-4)
        let warm = try rgb("temperature=+50"), cool = try rgb("temperature=-50")
        #expect(warm[0] > warm[2] + 0.01, "\(warm)")
        #expect(cool[2] > cool[0] + 0.01, "\(cool)")
        let magenta = try rgb("tint=+50"), green = try rgb("tint=-50")
        #expect(magenta[1] < magenta[0] && magenta[1] < magenta[2], "\(magenta)")
        #expect(green[1] > green[0] && green[1] > green[2], "\(green)")
    }
}
