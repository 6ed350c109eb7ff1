import Foundation

extension Filters {
    /// The parameters of `calibration`, read through these keys.
    enum CalibrationKeys {
        static let redHue = ParameterKey.number("red_hue", -100...100, default: 0, "turns the red primary: + towards yellow, − towards magenta (100 = 20°)")
        static let redSat = ParameterKey.number("red_sat", -100...100, default: 0, "the red primary's saturation: +100 × 1.5, −100 × 0.5")
        static let greenHue = ParameterKey.number("green_hue", -100...100, default: 0, "turns the green primary: + towards cyan, − towards yellow")
        static let greenSat = ParameterKey.number("green_sat", -100...100, default: 0, "the green primary's saturation")
        static let blueHue = ParameterKey.number("blue_hue", -100...100, default: 0, "turns the blue primary: + towards magenta, − towards cyan")
        static let blueSat = ParameterKey.number("blue_sat", -100...100, default: 0, "the blue primary's saturation")
        static let shadowTint = ParameterKey.number("shadow_tint", -100...100, default: 0, "tints the shadows: + magenta, − green")
    }

    /// Calibration: moves the working space's red, green and blue primaries
    /// (the colour a pure channel stands for), as Lightroom's Calibration
    /// panel and the "primaries" of darktable's and RawTherapee's channel
    /// mixers do, and tints the shadows green or magenta.
    ///
    /// Each primary (a column of the identity) is taken to the colour
    /// wheel's opponent plane (a = R − (G+B)/2, b = √3/2·(G − B): hue 0° red,
    /// 120° green, 240° blue) with its mean (R+G+B)/3 beside it; its (a, b)
    /// is turned by hue/100 × 20° (+ towards increasing hue: red towards
    /// yellow, green towards cyan, blue towards magenta) and scaled by
    /// 1 + sat/100 × 0.5, the mean kept. The moved primaries are then scaled
    /// so that they add up to white, as a profile's primaries are (the
    /// standard RGB-to-XYZ construction, here in RGB): neutrals stay neutral,
    /// and a primary moved towards a brighter one gets a little darker. The
    /// 3×3 matrix acts on linear light, so a colour that mixes two channels
    /// moves with both primaries.
    ///
    /// Shadow tint multiplies green by g = 2^(−0.25 · tint/100 · w) and red
    /// and blue by (1 − 0.7152·g)/0.2848 (luminance kept), with
    /// w = (1 − v/m)² below middle grey (v the perceptual luminance Y^(1/2.2),
    /// m middle grey's) and 0 above: + magenta, − green, strongest at black.
    public static let calibration = FilterDefinition(
        id: "calibration", version: 1, stage: .whiteBalance, order: 30,
        summary: "moves the red, green and blue primaries (hue, saturation) and tints the shadows, like Lightroom's Calibration panel",
        colourSpace: "linear RGB (a 3×3 matrix that keeps white); the shadow tint weighted by perceptual luminance",
        keys: [
            CalibrationKeys.redHue, CalibrationKeys.redSat, CalibrationKeys.greenHue, CalibrationKeys.greenSat, CalibrationKeys.blueHue,
            CalibrationKeys.blueSat, CalibrationKeys.shadowTint,
        ],
        forms: [
            ChainForm(["red_hue", "red_sat", "green_hue", "green_sat", "blue_hue", "blue_sat"],
                      "the primaries' hue and saturation, e.g. calibration=+10:+20:0:0:-15:+5"),
            ChainForm(["red_hue", "red_sat", "green_hue", "green_sat", "blue_hue", "blue_sat", "shadow_tint"],
                      "and the shadow tint, e.g. calibration=0:0:0:0:0:0:+8"),
        ]
    ) { image, p, _ in
        let primaries = [(CalibrationKeys.redHue, CalibrationKeys.redSat), (CalibrationKeys.greenHue, CalibrationKeys.greenSat),
                         (CalibrationKeys.blueHue, CalibrationKeys.blueSat)].map { (hue: p[$0], sat: p[$1]) }
        let tint = p[CalibrationKeys.shadowTint]
        var out = image
        if primaries.contains(where: { $0.hue != 0 || $0.sat != 0 }) {
            out = try out.recombine(calibrationMatrix(primaries))
        }
        if tint != 0 {
            out = try calibrationShadowTint(out, tint)
        }
        return out
    }.inPanel(.calibration)

    /// The linear-RGB matrix of the primaries' moves (hue, saturation on −100…100).
    static func calibrationMatrix(_ primaries: [(hue: Double, sat: Double)]) -> [Double] {
        let s3 = 3.0.squareRoot() / 2
        // (R, G, B) → (a, b, mean): the hue plane around the grey axis, and the grey.
        let t: [Double] = [1, -0.5, -0.5, 0, s3, -s3, 1.0 / 3, 1.0 / 3, 1.0 / 3]
        let back = ColourMath.inverse(t)
        var columns: [[Double]] = []
        for (j, move) in primaries.enumerated() {
            let v = ColourMath.apply(t, [j == 0 ? 1 : 0, j == 1 ? 1 : 0, j == 2 ? 1 : 0])
            let angle = move.hue / 100 * calibrationMaxTurn * Double.pi / 180, scale = 1 + move.sat / 100 * 0.5
            let a = (v[0] * cos(angle) - v[1] * sin(angle)) * scale, b = (v[0] * sin(angle) + v[1] * cos(angle)) * scale
            columns.append(ColourMath.apply(back, [a, b, v[2]]))
        }
        let moved: [Double] = [columns[0][0], columns[1][0], columns[2][0],
                               columns[0][1], columns[1][1], columns[2][1],
                               columns[0][2], columns[1][2], columns[2][2]]
        // White stays white: each moved primary is scaled so that the three add up to (1, 1, 1)
        // (within the parameters' ranges every scale is positive: at least 0.16).
        let k = ColourMath.apply(ColourMath.inverse(moved), [1, 1, 1])
        return (0..<9).map { moved[$0] * k[$0 % 3] }
    }

    /// The largest turn of a primary, in degrees on the hue plane (hue ±100).
    static let calibrationMaxTurn = 20.0

    /// Shadow tint: green against red and blue, weighted towards black.
    static func calibrationShadowTint(_ image: Image, _ tint: Double) throws -> Image {
        let y = ColourMath.luminance
        let m = Foundation.pow(0.18, 1 / 2.2)
        let v = try image.luminance().clampedAtZero().call("math2_const", [("math2", .string("pow")), ("c", .doubles([1 / 2.2]))])
        let under = try v.linear(multiply: [-1 / m], add: [1]).clampedAtZero()
        let weight = try under.multiplied(by: under)
        let green = try weight.linear(multiply: [-0.25 * tint / 100 * Foundation.log(2)], add: [0]).call("math", [("math", .string("exp"))])
        let others = try green.linear(multiply: [-y[1] / (y[0] + y[2])], add: [1 / (y[0] + y[2])])
        return try image.multiplied(by: others.joined(with: green).joined(with: others))
    }
}
