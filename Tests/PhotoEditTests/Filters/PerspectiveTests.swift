import Foundation
import Testing
@testable import PhotoEdit

/// The `perspective` filter: one projective transform by libvips `mapim`.
@Suite("Perspective")
struct PerspectiveTests {
    let registry = FilterRegistry.standard

    let detail = FilterBench()

    func run(_ chain: String, on image: Image) throws -> Image { try detail.run(chain, on: image) }
    func flat(_ width: Int, _ height: Int, _ value: Double) throws -> Image { try detail.flat(width, height, value) }

    @Test func neutralIsTheSameImage() throws {
        let f = try registry.require("perspective")
        let image = try flat(30, 20, 0.5)
        #expect(try f.render(image, f.defaults, RenderContext()) === image)
        #expect(!f.needsRandomAccess(f.defaults))
        #expect(f.needsRandomAccess(try #require(try recipe("perspective=+10").nodes.first).parameters))
    }

    @Test func verticalWidensTheTopAndKeepsTheCentre() throws {
        let image = try flat(300, 200, 0.5)
        let out = try run("perspective=+40", on: image)
        #expect(out.width == 300 && out.height == 200)
        // The top row is all picture; the bottom corners fall outside it (black).
        #expect(abs(try out.point(x: 0, y: 0)[0] - 0.5) < 1e-3)
        #expect(try out.point(x: 0, y: 199)[0] < 1e-3)
        #expect(abs(try out.point(x: 150, y: 100)[0] - 0.5) < 1e-3)
        // Negative does the reverse.
        let reverse = try run("perspective=-40", on: image)
        let (reverseTop, reverseBottom) = (try reverse.point(x: 0, y: 0)[0], try reverse.point(x: 0, y: 199)[0])
        #expect(reverseTop < 1e-3 && abs(reverseBottom - 0.5) < 1e-3)
        // The centre of the picture stays where it was: a bright dot at the
        // centre of a 301×201 image is still there, and nowhere else near.
        let dot = try Vips.image("insert", [("main", .image(try flat(301, 201, 0))), ("sub", .image(try flat(1, 1, 1))),
                                            ("x", .number(150)), ("y", .number(100))])
        let turned = try run("perspective=+60:-30", on: dot)
        #expect(try turned.point(x: 150, y: 100)[0] > 0.8)
        #expect(try turned.extractArea(left: 140, top: 90, width: 21, height: 21).average() < 2.0 / 441)
    }

    @Test func horizontalEnlargesTheRightSide() throws {
        let out = try run("perspective=0:+40", on: try flat(300, 200, 0.5))
        let corners = try [(299, 0), (299, 199), (0, 0), (0, 199)].map { try out.point(x: $0.0, y: $0.1)[0] }
        #expect(abs(corners[0] - 0.5) < 1e-3 && abs(corners[1] - 0.5) < 1e-3, "\(corners)")
        #expect(corners[2] < 1e-3 && corners[3] < 1e-3, "\(corners)")
    }

    @Test func scaleAspectAndOffsetsAreAnAffineFraming() throws {
        // A 1-px bright column at x = 100 of a 300 px wide image.
        let column = try flat(1, 200, 1)
        let image = try Vips.image("insert", [("main", .image(try flat(300, 200, 0))), ("sub", .image(column)),
                                              ("x", .number(100)), ("y", .number(0))])
        // x = +20 % of half the width moves it right by 30 px.
        let moved = try run("perspective.x=20", on: image)
        let (there, gone) = (try moved.point(x: 130, y: 100)[0], try moved.point(x: 100, y: 100)[0])
        #expect(there > 0.9 && gone < 0.1)
        // Scale 150 % about the centre (149.5): x = 100 goes to 149.5 + 1.5·(100 − 149.5) = 75.25.
        let zoomed = try run("perspective.scale=150", on: image)
        #expect(try zoomed.point(x: 75, y: 100)[0] > 0.4)
        #expect(try zoomed.point(x: 100, y: 100)[0] < 0.1)
        // Zooming in leaves no black corner; zooming out does.
        #expect(try run("perspective.scale=120", on: try flat(300, 200, 0.5)).point(x: 0, y: 0)[0] > 0.49)
        #expect(try run("perspective.scale=80", on: try flat(300, 200, 0.5)).point(x: 0, y: 0)[0] < 1e-3)
        let wide = try run("perspective.aspect=100", on: try flat(300, 200, 0.5))
        let (side, top) = (try wide.point(x: 0, y: 100)[0], try wide.point(x: 150, y: 0)[0])
        #expect(side > 0.49 && top < 1e-3, "wider and less tall")
    }

    @Test func runsBeforeStraightenAndCropAndIsBounded() throws {
        #expect(try recipe("crop=0.1:0.1:0.8:0.8,straighten=2,perspective=+10,rotate=90").nodes.map(\.filter)
            == ["rotate", "perspective", "straighten", "crop"])
        #expect(throws: PhotoEditError.self) { try recipe("perspective=101") }
        #expect(throws: PhotoEditError.self) { try recipe("perspective=0:0:11") }
        #expect(throws: PhotoEditError.self) { try recipe("perspective.scale=49") }
        #expect(throws: PhotoEditError.self) { try recipe("perspective.x=inf") }
    }
}
