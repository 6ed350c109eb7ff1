import Foundation
import Testing
@testable import PhotoEdit

/// The detail, effects and geometry filters: sharpen, noise, blur, vignette,
/// grain, straighten, resize.
@Suite("Detail, effects and geometry filters")
struct DetailFilterTests: FilterRunning {
    let registry = FilterRegistry.standard

    // MARK: grain

    @Test func grainIsDeterministicAndSeeded() throws {
        let renderer = Renderer(registry: registry)
        let temp = TemporaryDirectory()
        func render(_ chain: String, _ name: String) throws -> String {
            let path = temp.file(name)
            try renderer.render(recipe: try recipe(chain), originalPath: Paths.sample("chelsea.jpg")).save(to: path, format: "png")
            return path
        }
        let a = try render("grain=50:2:7", "a.png"), b = try render("grain=50:2:7", "b.png")
        let other = try render("grain=50:2:8", "c.png"), none = try render("grain=0", "d.png")
        #expect(try Data(contentsOf: URL(fileURLWithPath: a)) == Data(contentsOf: URL(fileURLWithPath: b)), "two renders give the same bytes")
        #expect(try Pixels.maxAbsDifference(Pixels.load(a), Pixels.load(b)) == 0)
        #expect(try Pixels.maxAbsDifference(Pixels.load(a), Pixels.load(other)) > 20, "another seed gives another pattern")
        #expect(try Pixels.deltaE(a, none).mean > 1, "grain is visible")
        // Deterministic whatever the order of evaluation: a region read alone matches.
        let image = try working("chelsea.jpg")
        let whole = try run("grain=30:1:3", on: image)
        let crop = try whole.extractArea(left: 200, top: 100, width: 50, height: 40)
        let again = try run("grain=30:1:3", on: image).extractArea(left: 200, top: 100, width: 50, height: 40)
        #expect(try Pixels.maxAbsDifference(crop, again) == 0)
    }

    @Test func grainKeepsTheMeanBrightness() throws {
        let grey = try flat(300, 200, 0.2)
        let out = try run("grain=40", on: grey)
        #expect(try deviation(out) > 0.01)
        #expect(abs(try mean(out) - 0.2) < 0.01)
    }

    // MARK: straighten

    @Test(arguments: [10.0, -3.5, 45.0, -45.0, 0.7])
    func straightenCropsToTheLargestUprightRectangle(_ angle: Double) throws {
        let (w, h) = (600.0, 400.0)
        let t = abs(angle) * .pi / 180
        let s = min(w / (w * cos(t) + h * sin(t)), h / (w * sin(t) + h * cos(t)))
        let expected = (Int((w * s).rounded(.down)), Int((h * s).rounded(.down)))
        // A flat image stays flat: no pixel comes from outside the photo.
        let out = try run("straighten=\(angle)", on: try flat(Int(w), Int(h), 0.5))
        #expect(out.width == expected.0 && out.height == expected.1, "\(out.width)×\(out.height), expected \(expected)")
        #expect(out.bands == 3)
        #expect(try Vips.number("min", [("in", .image(out))]) >= 0.4999, "a border pixel from outside the image")
        #expect(try out.maximum() <= 0.5001)
    }

    @Test func straightenRotatesClockwiseAndCornersComeFromThePhoto() throws {
        let image = try working("coffee.jpg")
        let angle = 10.0
        let out = try run("straighten=\(angle)", on: image)
        let t = angle * .pi / 180
        let (cx, cy) = (Double(image.width - 1) / 2, Double(image.height - 1) / 2)
        let (ox, oy) = (Double(out.width - 1) / 2, Double(out.height - 1) / 2)
        for (x, y) in [(0, 0), (out.width - 1, 0), (0, out.height - 1), (out.width - 1, out.height - 1), (out.width / 2, out.height / 3)] {
            // Output = R(θ)·(input − c) + o, so input = R(−θ)·(output − o) + c.
            let (dx, dy) = (Double(x) - ox, Double(y) - oy)
            let ix = cos(t) * dx + sin(t) * dy + cx, iy = -sin(t) * dx + cos(t) * dy + cy
            #expect(ix >= -0.5 && iy >= -0.5 && ix <= Double(image.width) - 0.5 && iy <= Double(image.height) - 0.5,
                    "output (\(x), \(y)) comes from (\(ix), \(iy)), outside the photo")
            let (x0, y0) = (min(max(Int(ix.rounded(.down)), 0), image.width - 2), min(max(Int(iy.rounded(.down)), 0), image.height - 2))
            let neighbours = try [(x0, y0), (x0 + 1, y0), (x0, y0 + 1), (x0 + 1, y0 + 1)].map { try image.point(x: $0.0, y: $0.1) }
            let value = try out.point(x: x, y: y)
            for band in 0..<3 {
                let values = neighbours.map { $0[band] }
                #expect(value[band] >= values.min()! - 1e-3 && value[band] <= values.max()! + 1e-3,
                        "output (\(x), \(y)) band \(band) = \(value[band]), source pixels \(values)")
            }
        }
    }

    @Test func straightenNeedsRandomAccessOnlyWhenTurning() throws {
        let f = try registry.require("straighten")
        #expect(f.needsRandomAccess(try recipe("straighten=2").nodes[0].parameters))
        #expect(!f.needsRandomAccess(f.defaults))
        #expect(throws: PhotoEditError.self) { try recipe("straighten=46") }
        #expect(f.stage == .geometry && f.order > Filters.rotate.order && f.order < Filters.flip.order)
    }

    // MARK: resize

    @Test func resizeGivesTheRequestedSize() throws {
        let image = try working("coffee.jpg")  // 600×400
        let cases: [(String, Double, Int, Int)] = [
            ("resize=300", 1, 300, 200), ("resize=120:120", 1, 120, 80), ("resize=1000:100", 1, 150, 100),
            ("resize.width=451", 1, 451, 301), ("resize.height=99", 1, 149, 99), ("resize.scale=0.5", 1, 300, 200),
            ("resize.scale=0.05", 1, 30, 20), ("resize=2000", 1, 600, 400), ("resize=2000,resize.enlarge=true", 1, 2000, 1333),
            ("resize=300,resize.kernel=nearest", 1, 300, 200), ("resize=300,resize.kernel=mitchell", 1, 300, 200),
            ("resize=300", 0.5, 150, 100), ("resize=0", 1, 600, 400),
        ]
        for (chain, scale, w, h) in cases {
            let out = try run(chain, on: image, scale: scale)
            #expect(out.width == w && out.height == h, "\(chain) at scale \(scale): \(out.width)×\(out.height), expected \(w)×\(h)")
            #expect(out.bands == 3)
        }
        #expect(throws: PhotoEditError.self) { try recipe("resize=300,resize.scale=0.5") }
        #expect(throws: PhotoEditError.self) { try recipe("resize.kernel=box") }
        // Resampling in linear light keeps the mean light.
        #expect(abs(try mean(run("resize=150", on: image)) - mean(image)) < 0.01)
    }

    // MARK: sharpen and blur

    @Test func sharpenIncreasesLocalContrastAtAnEdge() throws {
        let edge = try step(64, 16, left: 0.1, right: 0.5)
        let out = try run("sharpen=150:2", on: edge)
        let dark = try out.point(x: 30, y: 8), bright = try out.point(x: 33, y: 8)
        #expect(dark[0] < 0.1 - 0.01, "the dark side gets darker at the edge: \(dark[0])")
        #expect(bright[0] > 0.5 + 0.01, "the bright side gets brighter at the edge: \(bright[0])")
        // Far from the edge nothing changes.
        #expect(abs(try out.point(x: 3, y: 8)[0] - 0.1) < 1e-4)
        #expect(abs(try out.point(x: 60, y: 8)[0] - 0.5) < 1e-4)
        // A threshold above the edge's detail leaves it alone.
        let spared = try run("sharpen=150:2:255", on: edge)
        #expect(try Pixels.maxAbsDifference(spared, edge) < 1e-4)
        // Colour ratios are kept (luminance only).
        let colour = try step(64, 16, left: 0.05, right: 0.3).linear(multiply: [1, 0.5, 0.25], add: [0, 0, 0])
        let p = try run("sharpen=150:2", on: colour).point(x: 33, y: 8)
        #expect(abs(p[1] / p[0] - 0.5) < 1e-3 && abs(p[2] / p[0] - 0.25) < 1e-3)
    }

    @Test func blurSigmaScalesWithTheRenderScale() throws {
        let image = try working("chart.png")  // 512×256, sharp edges
        let half = try run("resize.scale=0.5", on: image)
        // Blurring the full image by 6 px then halving it ≈ blurring the half
        // image at scale 0.5 (3 px); blurring the half image by 6 px does not.
        let full = try run("resize.scale=0.5", on: run("blur=6", on: image))
        let scaled = try run("blur=6", on: half, scale: 0.5)
        let unscaled = try run("blur=6", on: half, scale: 1)
        let good = try Pixels.maxAbsDifference(full, scaled), bad = try Pixels.maxAbsDifference(full, unscaled)
        #expect(good < 0.05, "scaled blur differs by \(good)")
        #expect(bad > 2 * good, "an unscaled blur should differ more (\(bad) vs \(good))")
        // The blur keeps the mean light (linear light).
        #expect(abs(try mean(run("blur=20", on: image)) - mean(image)) < 0.01)
        #expect(try run("blur=0.01", on: image, scale: 1) === image)
    }

    // MARK: vignette and noise

    @Test func vignetteDarkensOrBrightensTheCorners() throws {
        let grey = try flat(300, 200, 0.25)
        let dark = try run("vignette=-50", on: grey)
        let centre = try dark.point(x: 150, y: 100)[0], corner = try dark.point(x: 0, y: 0)[0], edge = try dark.point(x: 150, y: 0)[0]
        #expect(abs(centre - 0.25) < 0.005, "the centre is untouched: \(centre)")
        #expect(corner < 0.25 * 0.4, "corners darken by up to 1.5 EV: \(corner)")
        #expect(corner < edge && edge < centre)
        let other = try dark.point(x: 299, y: 199)[0]
        #expect(abs(other - corner) < 1e-4, "symmetric")
        let bright = try run("vignette=100", on: grey).point(x: 0, y: 0)[0]
        #expect(bright > 0.25 * 7, "+100 is +3 EV in the corners: \(bright)")
    }

    @Test func noiseReductionSmoothsNoiseButKeepsEdges() throws {
        let noise = try Vips.image("gaussnoise", [("width", .number(128)), ("height", .number(64)), ("mean", .number(0)),
                                                  ("sigma", .number(0.02)), ("seed", .number(1))])
        let noisy = try step(128, 64, left: 0.1, right: 0.6).adding(noise)
        let out = try run("noise=60:2", on: noisy)
        let flatBefore = try deviation(noisy.extractArea(left: 5, top: 5, width: 40, height: 50))
        let flatAfter = try deviation(out.extractArea(left: 5, top: 5, width: 40, height: 50))
        #expect(flatAfter < flatBefore * 0.7, "noise \(flatBefore) → \(flatAfter)")
        // The edge stays sharp: a blur of the same radius softens it much more.
        let blurred = try run("blur=2", on: noisy)
        let kept = try out.point(x: 65, y: 30)[0], soft = try blurred.point(x: 65, y: 30)[0]
        #expect(kept > soft + 0.03, "edge: denoised \(kept), blurred \(soft)")
    }

    @Test(arguments: ["sharpen", "noise", "blur", "vignette", "grain", "straighten", "resize"])
    func neutralIsTheSameImage(_ id: String) throws {
        let f = try registry.require(id)
        let image = try working("chelsea.jpg")
        #expect(try f.render(image, f.defaults, RenderContext()) === image)
        #expect(f.version == (["grain", "noise", "sharpen"].contains(id) ? 2 : 1), "grain version 2 added roughness, noise version 2 chroma, sharpen version 2 detail")
    }
}
