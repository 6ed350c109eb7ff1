import Foundation

/// Small 3×3 matrix and chromaticity helpers for colour filters. Matrices are
/// row-major `[Double]` of 9 values, applied to column vectors.
enum ColourMath {
    /// Linear sRGB (D65) → CIE XYZ.
    static let sRGBToXYZ: [Double] = [
        0.4123907992659595, 0.3575843393838780, 0.1804807884018343,
        0.2126390058715104, 0.7151686787677559, 0.0721923153607337,
        0.0193308187155918, 0.1191947797946259, 0.9505321522496608,
    ]
    static let xyzToSRGB: [Double] = inverse(sRGBToXYZ)

    /// Bradford cone response matrix.
    static let bradford: [Double] = [
        0.8951, 0.2664, -0.1614,
        -0.7502, 1.7135, 0.0367,
        0.0389, -0.0685, 1.0296,
    ]

    /// Rec. 709 luminance weights of linear sRGB.
    static let luminance: [Double] = [0.2126, 0.7152, 0.0722]

    static let identity: [Double] = [1, 0, 0, 0, 1, 0, 0, 0, 1]

    static func multiply(_ a: [Double], _ b: [Double]) -> [Double] {
        var r = [Double](repeating: 0, count: 9)
        for i in 0..<3 { for j in 0..<3 { for k in 0..<3 { r[i * 3 + j] += a[i * 3 + k] * b[k * 3 + j] } } }
        return r
    }

    static func apply(_ m: [Double], _ v: [Double]) -> [Double] {
        (0..<3).map { i in m[i * 3] * v[0] + m[i * 3 + 1] * v[1] + m[i * 3 + 2] * v[2] }
    }

    static func inverse(_ m: [Double]) -> [Double] {
        let a = m[0], b = m[1], c = m[2], d = m[3], e = m[4], f = m[5], g = m[6], h = m[7], i = m[8]
        let det = a * (e * i - f * h) - b * (d * i - f * g) + c * (d * h - e * g)
        return [
            (e * i - f * h) / det, (c * h - b * i) / det, (b * f - c * e) / det,
            (f * g - d * i) / det, (a * i - c * g) / det, (c * d - a * f) / det,
            (d * h - e * g) / det, (b * g - a * h) / det, (a * e - b * d) / det,
        ]
    }

    /// XYZ (Y = 1) of a chromaticity.
    static func xyz(x: Double, y: Double) -> [Double] { [x / y, 1, (1 - x - y) / y] }

    /// Chromaticity of the Planckian locus at `kelvin` (Kim et al. 2002 cubic
    /// approximation, 1667 K…25000 K).
    static func planckian(kelvin: Double) -> (x: Double, y: Double) {
        let t = min(max(kelvin, 1667), 25000)
        let x: Double
        if t <= 4000 {
            x = -0.2661239e9 / (t * t * t) - 0.2343589e6 / (t * t) + 0.8776956e3 / t + 0.179910
        } else {
            x = -3.0258469e9 / (t * t * t) + 2.1070379e6 / (t * t) + 0.2226347e3 / t + 0.240390
        }
        let y: Double
        if t <= 2222 {
            y = -1.1063814 * x * x * x - 1.34811020 * x * x + 2.18555832 * x - 0.20219683
        } else if t <= 4000 {
            y = -0.9549476 * x * x * x - 1.37418593 * x * x + 2.09137015 * x - 0.16748867
        } else {
            y = 3.0817580 * x * x * x - 5.87338670 * x * x + 3.75112997 * x - 0.37001483
        }
        return (x, y)
    }

    /// Primaries (x, y of red, green, blue) of output spaces, all D65.
    static let displayP3Primaries: [(Double, Double)] = [(0.680, 0.320), (0.265, 0.690), (0.150, 0.060)]
    static let adobeRGBPrimaries: [(Double, Double)] = [(0.64, 0.33), (0.21, 0.71), (0.15, 0.06)]
    /// ITU-R BT.2020's primaries (D65).
    static let rec2020Primaries: [(Double, Double)] = [(0.708, 0.292), (0.170, 0.797), (0.131, 0.046)]
    /// ProPhoto RGB's (ROMM RGB) primaries, whose white is D50.
    static let proPhotoPrimaries: [(Double, Double)] = [(0.7347, 0.2653), (0.1596, 0.8404), (0.0366, 0.0001)]

    /// Linear RGB → XYZ for primaries with a `white` (D65 unless said; the
    /// standard derivation: columns scaled so that RGB (1,1,1) is the white).
    static func rgbToXYZ(_ primaries: [(Double, Double)], white: [Double] = d65) -> [Double] {
        let cols = primaries.map { xyz(x: $0.0, y: $0.1) }
        let m: [Double] = [cols[0][0], cols[1][0], cols[2][0], cols[0][1], cols[1][1], cols[2][1], cols[0][2], cols[1][2], cols[2][2]]
        let s = apply(inverse(m), white)
        return [m[0] * s[0], m[1] * s[1], m[2] * s[2], m[3] * s[0], m[4] * s[1], m[5] * s[2], m[6] * s[0], m[7] * s[1], m[8] * s[2]]
    }

    /// Linear sRGB → linear RGB of other D65 primaries.
    static func linearSRGB(to primaries: [(Double, Double)]) -> [Double] {
        multiply(inverse(rgbToXYZ(primaries)), sRGBToXYZ)
    }

    /// ICC's profile connection space white (D50) and sRGB's (D65), Y = 1.
    static let d50: [Double] = [0.96422, 1, 0.82521]
    static let d65: [Double] = [0.95047, 1, 1.08883]

    /// An XYZ matrix adapting colours seen under `source` white to `target`
    /// white (Bradford chromatic adaptation).
    static func bradfordXYZ(from source: [Double], to target: [Double]) -> [Double] {
        let s = apply(bradford, source), d = apply(bradford, target)
        let gain: [Double] = [d[0] / s[0], 0, 0, 0, d[1] / s[1], 0, 0, 0, d[2] / s[2]]
        return multiply(inverse(bradford), multiply(gain, bradford))
    }

    /// A linear-sRGB matrix that adapts colours seen under `source` white to
    /// `target` white (Bradford chromatic adaptation).
    static func adaptation(from source: [Double], to target: [Double]) -> [Double] {
        multiply(xyzToSRGB, multiply(bradfordXYZ(from: source, to: target), sRGBToXYZ))
    }

    /// From the XYZ libvips' `icc_import` gives (the D50 connection space
    /// scaled per component to D65, Y = 100) to linear sRGB, adapting D50 to
    /// D65 with Bradford as lcms2 does (plain per-component scaling is off by
    /// about 1 ΔE2000).
    static let iccXYZToLinearSRGB: [Double] = {
        let unscale: [Double] = [d50[0] / d65[0] / 100, 0, 0, 0, 0.01, 0, 0, 0, d50[2] / d65[2] / 100]
        return multiply(xyzToSRGB, multiply(bradfordXYZ(from: d50, to: d65), unscale))
    }()

    /// The inverse: linear sRGB → the XYZ libvips' `icc_export` reads.
    static let linearSRGBToICCXYZ: [Double] = inverse(iccXYZToLinearSRGB)
}

extension Image {
    /// sign(x)·|x|^e per pixel: a power that keeps negative values' sign.
    func signedPower(_ e: Double) throws -> Image {
        if e == 1 { return self }
        let magnitude = try call("abs").call("math2_const", [("math2", .string("pow")), ("c", .doubles([e]))])
        return try Vips.image("multiply", [("left", .image(magnitude)), ("right", .image(try call("sign")))])
    }

    /// Where `self < value` choose `then`, else `otherwise`, per band.
    func select(lessThan value: Double, then: Image, otherwise: Image) throws -> Image {
        let mask = try call("relational_const", [("relational", .string("less")), ("c", .doubles([value]))])
        return try Vips.image("ifthenelse", [("cond", .image(mask)), ("in1", .image(then)), ("in2", .image(otherwise))])
    }
}
