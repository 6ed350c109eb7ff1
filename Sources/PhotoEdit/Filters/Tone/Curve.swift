extension Filters {
    /// Curve: a tone curve through 2 to 8 control points (x, y on the
    /// perceptual 0…1 scale), interpolated by a monotone cubic (Fritsch–
    /// Carlson), on all three channels, one channel, or the luminance; then
    /// (version 2) a curve of its own on each of red, green and blue
    /// (Lightroom's and Photoshop's channel curves beside the RGB one).
    ///
    /// The curve is evaluated exactly, piecewise, with libvips arithmetic on
    /// the float data (no LUT, so no quantisation): on each segment a cubic
    /// Hermite polynomial, picked per pixel by comparisons. Two points with the
    /// same x make a step there (the curve jumps to the second). Before the first
    /// and after the last point the curve is flat (as in Photoshop); beyond
    /// the 0…1 range (wide-gamut or brighter-than-white values) it continues
    /// with slope 1 from C(0) and C(1), so those values are not clipped here.
    public static let curve = FilterDefinition(
        id: "curve", version: 2, stage: .tone, order: 70,
        summary: "tone curve through control points (monotone cubic), on RGB, one channel or the luminance; then one per channel",
        colourSpace: "perceptual (linear ^ 1/2.2): per channel, or on the luminance Y applied by the luminance ratio",
        keys: CurveKeys.all,
        forms: (2...curveMaxPoints).map { n in
            ChainForm((1...n).flatMap { ["x\($0)", "y\($0)"] }, fixed: ["n": .number(Double(n))],
                      n == 4 ? "\(n) points as x:y pairs, e.g. curve=0:0:0.25:0.2:0.75:0.8:1:1" : "\(n) points as x:y pairs")
        } + curveChannels.flatMap { channel in
            (2...curveMaxPoints).map { n in
                ChainForm(named: channel, (1...n).flatMap { ["\(channel)_x\($0)", "\(channel)_y\($0)"] },
                          fixed: ["\(channel)_n": .number(Double(n))],
                          n == 2 ? "the \(channel) channel's own curve, after the main one, e.g. curve.\(channel)=0:0.05:1:0.95" : "\(n) points of the \(channel) channel's curve")
            }
        },
        legacy: [
            LegacyVersion(
                version: 1, keys: CurveKeys.version1,
                note: "v2 adds a curve of its own on each of red, green and blue, after the main curve (identity for v1 recipes)",
                changesRendering: false,
                migrate: { p in
                    var values = p.values
                    for key in CurveKeys.channels.flatMap(\.all) { values[key.spec.name] = key.spec.defaultValue }
                    return values
                }),
        ],
        check: { p in
            for keys in [CurveKeys.main] + CurveKeys.channels {
                let points = curvePoints(p, keys)
                for i in 1..<points.count where points[i].x < points[i - 1].x {
                    return "the points' x must not decrease (\(keys.x[i].name) = \(JSONValue.format(points[i].x)) follows \(keys.x[i - 1].name) = \(JSONValue.format(points[i - 1].x)))"
                }
            }
            return nil
        },
        normalize: curveNormalized
    ) { image, p, _ in
        var image = try curveRendered(image, p)
        // The channel curves, each on its own channel, after the main one.
        for (band, keys) in CurveKeys.channels.enumerated() {
            let points = curvePoints(p, keys)
            if isIdentityCurve(points) { continue }
            image = try curveOnBand(image, band, ToneCurve(points))
        }
        return image
    }.inPanel(.toneCurve)

    /// The channels that have a curve of their own (version 2).
    static let curveChannels = ["red", "green", "blue"]

    /// Points beyond n (of each curve) are unused: kept at their defaults so
    /// equal curves are equal recipes.
    @Sendable static func curveNormalized(_ p: Parameters) -> Parameters {
        var out = p
        for keys in [CurveKeys.main] + CurveKeys.channels where p.values[keys.n.name] != nil {
            let n = Int(p[keys.n])
            for i in max(3, n + 1)..<(curveMaxPoints + 1) {
                out.values[keys.x[i - 1].name] = .number(1)
                out.values[keys.y[i - 1].name] = .number(1)
            }
        }
        return out
    }

    /// The main curve (version 1's whole filter).
    static func curveRendered(_ image: Image, _ p: Parameters) throws -> Image {
        let points = curvePoints(p, CurveKeys.main)
        if isIdentityCurve(points) { return image }
        let spline = ToneCurve(points)
        switch p[CurveKeys.channel] {
        case "luma":
            return try image.toneMapLuminance(spline.apply)
        case "red":
            return try curveOnBand(image, 0, spline)
        case "green":
            return try curveOnBand(image, 1, spline)
        case "blue":
            return try curveOnBand(image, 2, spline)
        default:
            return try image.toneMapPerceptual(spline.apply)
        }
    }

    /// `spline` on one band (0 red, 1 green, 2 blue), the others kept.
    static func curveOnBand(_ image: Image, _ band: Int, _ spline: ToneCurve) throws -> Image {
        let mapped = try image.extractBands(band, count: 1).toneMapPerceptual(spline.apply)
        let bands = try (0..<3).map { $0 == band ? mapped : try image.extractBands($0, count: 1) }
        return try Vips.image("bandjoin", [("in", .images(bands))])
    }

    /// The identity: from (0, 0) to (1, 1) with every point on the diagonal.
    static func isIdentityCurve(_ points: [(x: Double, y: Double)]) -> Bool {
        points.first?.x == 0 && points.last?.x == 1 && points.allSatisfy { $0.x == $0.y }
    }

    static let curveMaxPoints = 8

    /// The parameters of `curve`, read through these keys.
    enum CurveKeys {
        static let channel = ParameterKey.choice("channel", ["rgb", "luma", "red", "green", "blue"], default: "rgb",
                                                 "what the curve maps: each of R, G, B alike; the luminance (colours kept); or one channel")

        /// The keys of one curve's control points: `n`, then x and y of
        /// points 1…`curveMaxPoints` (`x[0]` is point 1's).
        struct Points: Sendable {
            let n: ParameterKey<Double>
            let x: [ParameterKey<Double>]
            let y: [ParameterKey<Double>]

            /// Names start with `prefix` ("" for the main curve, `red_`…).
            init(prefix: String, what: String) {
                let of = what.isEmpty ? "" : " of \(what)"
                n = .number(prefix + "n", 2...Double(curveMaxPoints), default: 2, step: 1, "number of control points used\(of) (set by the chain form)")
                let unused = { (i: Int) in i > 2 ? " (used when \(prefix)n ≥ \(i))" : "" }
                x = (1...curveMaxPoints).map { i in
                    .number("\(prefix)x\(i)", 0...1, default: i == 1 ? 0 : 1, "input of control point \(i)\(of), perceptual 0…1\(unused(i))")
                }
                y = (1...curveMaxPoints).map { i in
                    .number("\(prefix)y\(i)", 0...1, default: i == 1 ? 0 : 1, "output of control point \(i)\(of), perceptual 0…1\(unused(i))")
                }
            }

            /// In declaration order: n, x1, y1, x2, y2…
            var all: [any AnyParameterKey] { [n] + zip(x, y).flatMap { [$0, $1] as [any AnyParameterKey] } }
        }

        /// The main curve's points.
        static let main = Points(prefix: "", what: "")
        /// The red, green and blue curves' points (version 2), in band order.
        static let channels = curveChannels.map { Points(prefix: "\($0)_", what: "the \($0) channel's curve") }
        /// Version 1's parameters: the channel and the main curve.
        static let version1: [any AnyParameterKey] = [channel] + main.all
        /// The current version's.
        static let all: [any AnyParameterKey] = version1 + channels.flatMap(\.all)
    }

    /// The n control points of one curve.
    static func curvePoints(_ p: Parameters, _ keys: CurveKeys.Points) -> [(x: Double, y: Double)] {
        let n = min(max(Int(p[keys.n]), 2), curveMaxPoints)
        return (0..<n).map { (p[keys.x[$0]], p[keys.y[$0]]) }
    }
}

/// A monotone cubic (Fritsch–Carlson) through control points, evaluated on
/// images with libvips arithmetic.
struct ToneCurve: Sendable {
    let xs: [Double]
    let ys: [Double]
    /// Tangents at the points.
    let ms: [Double]

    init(_ points: [(x: Double, y: Double)]) {
        xs = points.map(\.x)
        ys = points.map(\.y)
        ms = ToneCurve.tangents(xs, ys)
    }

    /// Fritsch–Carlson tangents: secant averages, zero at local extrema and
    /// flat segments, scaled down where they would overshoot. Each run of
    /// points with strictly increasing x (runs are split by steps, equal x)
    /// is a spline of its own.
    static func tangents(_ x: [Double], _ y: [Double]) -> [Double] {
        var m = [Double](repeating: 0, count: x.count)
        var start = 0
        while start < x.count {
            var end = start
            while end + 1 < x.count && x[end + 1] > x[end] { end += 1 }
            if end > start {
                let run = runTangents(Array(x[start...end]), Array(y[start...end]))
                for i in 0..<run.count { m[start + i] = run[i] }
            }
            start = end + 1
        }
        return m
    }

    /// Fritsch–Carlson tangents of points with strictly increasing x (at least two).
    static func runTangents(_ x: [Double], _ y: [Double]) -> [Double] {
        let n = x.count
        var d = [Double](repeating: 0, count: n - 1)
        for k in 0..<(n - 1) { d[k] = (y[k + 1] - y[k]) / (x[k + 1] - x[k]) }
        var m = [Double](repeating: 0, count: n)
        m[0] = d[0]
        m[n - 1] = d[n - 2]
        for k in 1..<(n - 1) {
            let prod: Double = d[k - 1] * d[k]
            m[k] = prod <= 0 ? 0 : (d[k - 1] + d[k]) / 2
        }
        for k in 0..<(n - 1) {
            if d[k] == 0 {
                m[k] = 0
                m[k + 1] = 0
                continue
            }
            let a: Double = m[k] / d[k]
            let b: Double = m[k + 1] / d[k]
            let s: Double = a * a + b * b
            if s > 9 {
                let t: Double = 3 / s.squareRoot()
                m[k] = t * a * d[k]
                m[k + 1] = t * b * d[k]
            }
        }
        return m
    }

    /// The curve at one value (for tests and docs); same definition as `apply`.
    func value(_ v: Double) -> Double {
        if v < 0 { return value(0) + v }
        if v > 1 { return value(1) + (v - 1) }
        if v <= xs[0] { return ys[0] }
        if v >= xs[xs.count - 1] { return ys[ys.count - 1] }
        let k = (0..<(xs.count - 1)).first { xs[$0] <= v && v < xs[$0 + 1] }!
        let c = coefficients(k)
        let t = (v - xs[k]) / (xs[k + 1] - xs[k])
        return ((c.3 * t + c.2) * t + c.1) * t + c.0
    }

    /// Polynomial coefficients (in t = (v − x_k)/h) of segment k's Hermite cubic.
    func coefficients(_ k: Int) -> (Double, Double, Double, Double) {
        let h = xs[k + 1] - xs[k]
        let y0: Double = ys[k], y1: Double = ys[k + 1]
        let m0: Double = ms[k] * h, m1: Double = ms[k + 1] * h
        // h00 = 2t³−3t²+1, h10 = t³−2t²+t, h01 = −2t³+3t², h11 = t³−t²
        let c2: Double = 3 * (y1 - y0) - 2 * m0 - m1
        let c3: Double = 2 * (y0 - y1) + m0 + m1
        return (y0, m0, c2, c3)
    }

    /// The curve applied to every value of `v` (any number of bands).
    func apply(_ v: Image) throws -> Image {
        let n = xs.count
        // Inside 0…1: flat below the first point, then each segment, flat after the last.
        let c = try v.clamped01()
        var result = try c.linear(multiply: [0], add: [ys[n - 1]])
        for k in stride(from: n - 2, through: 0, by: -1) {
            let h = xs[k + 1] - xs[k]
            if h <= 0 { continue }  // a step: the next segment down covers c < x[k]
            let t = try c.linear(multiply: [1 / h], add: [-xs[k] / h])
            let (a, b, cc, d) = coefficients(k)
            let poly = try t.linear(multiply: [d], add: [cc]).multiplied(by: t).linear(multiply: [1], add: [b])
                .multiplied(by: t).linear(multiply: [1], add: [a])
            result = try c.select(lessThan: xs[k + 1], then: poly, otherwise: result)
        }
        result = try c.select(lessThan: xs[0], then: c.linear(multiply: [0], add: [ys[0]]), otherwise: result)
        // Outside 0…1: slope 1 from the ends, i.e. add v − clamp(v).
        return try result.adding(v.subtracting(c))
    }
}
