import Foundation
import Testing
@testable import PhotoEdit

/// The calibration filter (Lightroom's Calibration panel: primaries and
/// shadow tint) and grain version 2's roughness.
@Suite("Calibration and grain roughness")
struct CalibrationFilterTests {
    let registry = FilterRegistry.standard
    let detail = FilterBench()

    func run(_ chain: String, on image: Image) throws -> Image { try detail.run(chain, on: image) }

    /// A w×h image of one linear RGB colour.
    func colour(_ rgb: [Double], _ width: Int = 40, _ height: Int = 30) throws -> Image {
        try detail.flat(width, height, 0).linear(multiply: [0, 0, 0], add: rgb)
    }

    /// Hue on the colour wheel's opponent plane (0° red, 120° green, 240° blue) and chroma of linear RGB.
    func hue(_ p: [Double]) -> (hue: Double, chroma: Double) {
        let a = p[0] - (p[1] + p[2]) / 2, b = 3.0.squareRoot() / 2 * (p[1] - p[2])
        var h = atan2(b, a) * 180 / .pi
        if h < 0 { h += 360 }
        return (h, (a * a + b * b).squareRoot())
    }

    @Test func neutralIsTheSameImageAndTheDeclaration() throws {
        let f = try registry.require("calibration")
        let image = try detail.working("chelsea.jpg")
        #expect(try f.render(image, f.defaults, RenderContext()) === image)
        #expect(f.version == 1 && f.stage == .whiteBalance)
        #expect(registry.ids.firstIndex(of: "calibration")! < registry.ids.firstIndex(of: "exposure")!, "before exposure, after tint")
    }

    /// Whatever the primaries do, white and every grey stay as they are.
    @Test(arguments: ["calibration=+100:-100:-100:+100:+100:-100", "calibration=+20:+15:-10:0:-20:+25",
                      "calibration=-100:-100:+100:-100:0:+100", "calibration=0:+100:0:+100:0:+100"])
    func neutralsStayNeutral(_ chain: String) throws {
        let node = try #require(try recipe(chain).nodes.first)
        let m = Filters.calibrationMatrix(["red", "green", "blue"].map { (node.parameters.number("\($0)_hue"), node.parameters.number("\($0)_sat")) })
        let white = ColourMath.apply(m, [1, 1, 1])
        #expect(white.allSatisfy { abs($0 - 1) < 1e-9 }, "\(white)")
        for level in [0.02, 0.18, 0.7] {
            let p = try run(chain, on: colour([level, level, level])).point(x: 5, y: 5)
            #expect(p.allSatisfy { abs($0 - level) < 1e-5 }, "\(chain) on grey \(level): \(p)")
        }
    }

    /// Hue + turns each primary towards increasing hue (red → yellow, green → cyan, blue → magenta), − the other way.
    @Test(arguments: [(0, "red"), (1, "green"), (2, "blue")])
    func hueTurnsThePrimary(_ index: Int, _ name: String) throws {
        var rgb = [0.05, 0.05, 0.05]
        rgb[index] = 0.6
        let before = hue(rgb)
        let plus = hue(try run("calibration.\(name)_hue=+60", on: colour(rgb)).point(x: 3, y: 3))
        let minus = hue(try run("calibration.\(name)_hue=-60", on: colour(rgb)).point(x: 3, y: 3))
        func turn(_ h: Double) -> Double { (h - before.hue + 540).truncatingRemainder(dividingBy: 360) - 180 }
        #expect(turn(plus.hue) > 8 && turn(plus.hue) < 16, "\(name) +60: \(turn(plus.hue))°")
        #expect(turn(minus.hue) < -8 && turn(minus.hue) > -16, "\(name) -60: \(turn(minus.hue))°")
    }

    @Test func saturationScalesThePrimarysChroma() throws {
        let red = [0.6, 0.05, 0.05]
        let before = hue(red).chroma
        let less = hue(try run("calibration.red_sat=-100", on: colour(red)).point(x: 3, y: 3))
        let more = hue(try run("calibration.red_sat=+100", on: colour(red)).point(x: 3, y: 3))
        #expect(less.chroma < before * 0.8 && more.chroma > before * 1.08, "\(before) → \(less.chroma), \(more.chroma)")
        #expect(abs(less.hue) < 1 || abs(less.hue - 360) < 1, "the hue is kept: \(less.hue)")
        // A blue is not touched by the red primary's saturation beyond white's balance.
        let blue = hue(try run("calibration.red_sat=-100", on: colour([0.05, 0.05, 0.6])).point(x: 3, y: 3))
        #expect(abs(blue.hue - 240) < 3, "\(blue.hue)")
    }

    /// Shadow tint: + magenta, − green in the shadows, luminance kept, nothing from middle grey up.
    @Test func shadowTintTintsOnlyTheShadows() throws {
        for (tint, magenta) in [(60.0, true), (-60.0, false)] {
            let dark = try run("calibration.shadow_tint=\(tint)", on: colour([0.01, 0.01, 0.01])).point(x: 3, y: 3)
            #expect(magenta ? dark[1] < dark[0] * 0.95 : dark[1] > dark[0] * 1.05, "\(tint): \(dark)")
            #expect(abs(dark[0] - dark[2]) < 1e-7)
            let y = ColourMath.luminance
            #expect(abs(dark[0] * y[0] + dark[1] * y[1] + dark[2] * y[2] - 0.01) < 1e-6, "luminance kept: \(dark)")
            let bright = try run("calibration.shadow_tint=\(tint)", on: colour([0.3, 0.3, 0.3])).point(x: 3, y: 3)
            #expect(bright.allSatisfy { abs($0 - 0.3) < 1e-6 }, "above middle grey: \(bright)")
        }
    }

    // MARK: grain version 2

    /// Roughness 50 is version 1's grain: a recipe of version 1 migrates to it on load.
    @Test func grainVersionOneMigratesToRoughness50() throws {
        let json = #"{"format":"org.photoedit.recipe","formatVersion":1,"filters":[{"id":"grain","version":1,"params":{"amount":25,"size":2,"seed":3}}]}"#
        let r = try Recipe(json: JSONValue.parse(Data(json.utf8)))
        let node = try #require(r.node("grain"))
        #expect(node.version == 2 && node.parameters.number("roughness") == 50)
        #expect(try registry.require("grain").version == 2)
        let image = try detail.working("chelsea.jpg")
        let a = try run("grain=25:2:3", on: image), b = try run("grain=25:2:3:50", on: image)
        #expect(try Pixels.maxAbsDifference(a, b) == 0)
    }

    /// Rougher grain has more fine detail (the difference between neighbouring
    /// pixels), smoother less; the spread of the grain stays about the same.
    @Test func roughnessChangesTheGrainsFineStructureNotItsSpread() throws {
        let grey = try detail.flat(400, 300, 0.2)
        func measure(_ roughness: Int) throws -> (spread: Double, fine: Double) {
            let out = try run("grain=60:4:5:\(roughness)", on: grey).extractBands(0, count: 1)
            let shifted = try out.extractArea(left: 1, top: 0, width: 399, height: 300)
            let step = try out.extractArea(left: 0, top: 0, width: 399, height: 300).subtracting(shifted)
            return (try detail.deviation(out), try detail.deviation(step))
        }
        let smooth = try measure(0), middle = try measure(50), rough = try measure(100)
        #expect(rough.fine > middle.fine * 1.3 && smooth.fine < middle.fine * 0.8, "fine detail \(smooth.fine), \(middle.fine), \(rough.fine)")
        for m in [smooth, rough] { #expect(abs(m.spread / middle.spread - 1) < 0.25, "spread \(m.spread) against \(middle.spread)") }
    }
}
