import CPhotoEditShim
import CVips
import Foundation

/// A look table applied in its own colour space (issue 39): the working
/// space's linear sRGB converted to the table's primaries (a 3×3 matrix,
/// Bradford-adapted to ProPhoto's D50 white) and clipped to 0…1, encoded
/// with the table's transfer curve, looked up (a cube tetrahedrally, curves
/// per channel), mixed with the input by the amount in the encoded space,
/// clipped, decoded and converted back — the order of Adobe's DNG SDK
/// (`RefRGBTables`). With `extend` gamut handling, what the clip at the
/// input cut off (linear, in the table's primaries) is added back after the
/// decode, so colours beyond the table's gamut keep their distance from it.
struct LookTableTransform: Sendable {
    /// Linear sRGB → the table's linear primaries (nil: sRGB itself), row-major.
    let toTable: [Float]?
    /// The inverse.
    let fromTable: [Float]?
    /// The transfer curve and its inverse, sampled at `cells + 1` points on 0…1.
    let encode: [Float], decode: [Float]
    let extend: Bool
    let table: LightroomRGBTable

    /// Cells of the sampled transfer curves (as the DNG SDK's runtime tables).
    static let cells = 4096

    init(_ table: LightroomRGBTable) {
        self.table = table
        let matrix = Self.matrix(table.primaries)
        toTable = matrix.map { $0.map(Float.init) }
        fromTable = matrix.map { ColourMath.inverse($0).map(Float.init) }
        (encode, decode) = Self.curves(table.gamma)
        extend = table.gamut == .extend
    }

    /// Linear sRGB (D65) → linear RGB of `primaries`; nil for sRGB.
    static func matrix(_ primaries: LightroomRGBTable.Primaries) -> [Double]? {
        switch primaries {
        case .sRGB: return nil
        case .adobeRGB: return ColourMath.linearSRGB(to: ColourMath.adobeRGBPrimaries)
        case .displayP3: return ColourMath.linearSRGB(to: ColourMath.displayP3Primaries)
        case .rec2020: return ColourMath.linearSRGB(to: ColourMath.rec2020Primaries)
        case .proPhoto:
            let toXYZ = ColourMath.rgbToXYZ(ColourMath.proPhotoPrimaries, white: ColourMath.d50)
            return ColourMath.multiply(ColourMath.inverse(toXYZ),
                                       ColourMath.multiply(ColourMath.bradfordXYZ(from: ColourMath.d65, to: ColourMath.d50), ColourMath.sRGBToXYZ))
        }
    }

    /// A transfer curve and its inverse, each sampled once per process.
    static func curves(_ gamma: LightroomRGBTable.Gamma) -> (encode: [Float], decode: [Float]) {
        switch gamma {
        case .linear: linearCurves
        case .sRGB: sRGBCurves
        case .g18: g18Curves
        case .g22: g22Curves
        case .rec2020: rec2020Curves
        }
    }

    private static let linearCurves = sampled(.linear), sRGBCurves = sampled(.sRGB), g18Curves = sampled(.g18),
                       g22Curves = sampled(.g22), rec2020Curves = sampled(.rec2020)

    private static func sampled(_ gamma: LightroomRGBTable.Gamma) -> (encode: [Float], decode: [Float]) {
        ((0...cells).map { Float(gamma.encode(Double($0) / Double(cells))) },
         (0...cells).map { Float(gamma.decode(Double($0) / Double(cells))) })
    }

    /// Applies the table at `amount` (0 nothing, 1 whole, up to the table's
    /// maximum) to a linear float RGB image; an alpha band is kept as it is.
    func apply(to image: Image, cube: CubeLUT?, amount: Double) throws -> Image {
        if image.bands == 4 {
            return try apply(to: image.extractBands(0, count: 3), cube: cube, amount: amount).joined(with: image.extractBands(3, count: 1))
        }
        let input = try (image.formatName == "float" ? image : image.cast("float")).inMemory()
        var length = 0
        guard let raw = vips_image_write_to_memory(input.pointer, &length) else { throw Vips.error("write_to_memory") }
        defer { g_free(raw) }
        let pixels = raw.assumingMemoryBound(to: Float.self)
        let count = length / MemoryLayout<Float>.size / 3
        let chunk = 16384
        let chunks = (count + chunk - 1) / chunk
        nonisolated(unsafe) let buffer = pixels
        let transform = self
        concurrentlyPerform(chunks, jobs: ProcessInfo.processInfo.activeProcessorCount) { c in
            let end = min(count, (c + 1) * chunk)
            for i in (c * chunk)..<end { transform.pixel(buffer + i * 3, cube: cube, amount: Float(amount)) }
        }
        guard let out = vips_image_new_from_memory_copy(raw, length, Int32(input.width), Int32(input.height), 3, BrushCanvas.floatFormat) else {
            throw Vips.error("new_from_memory_copy")
        }
        return try Image(owning: out).call("copy", [("interpretation", .string("scrgb"))])
    }

    /// One pixel, in place.
    @inline(__always)
    func pixel(_ p: UnsafeMutablePointer<Float>, cube: CubeLUT?, amount s: Float) {
        var (r, g, b) = (p[0], p[1], p[2])
        if let m = toTable { (r, g, b) = (m[0] * r + m[1] * g + m[2] * b, m[3] * r + m[4] * g + m[5] * b, m[6] * r + m[7] * g + m[8] * b) }
        let (cr, cg, cb) = (Self.clip(r), Self.clip(g), Self.clip(b))
        let (er, eg, eb) = (Self.sample(encode, cr), Self.sample(encode, cg), Self.sample(encode, cb))
        let o: (Float, Float, Float)
        if let cube {
            o = cube.lookup(er, eg, eb, tetrahedral: true)
        } else {
            o = (curve(0, er), curve(1, eg), curve(2, eb))
        }
        var (lr, lg, lb) = (Self.sample(decode, Self.clip(er + (o.0 - er) * s)), Self.sample(decode, Self.clip(eg + (o.1 - eg) * s)),
                            Self.sample(decode, Self.clip(eb + (o.2 - eb) * s)))
        if extend { (lr, lg, lb) = (lr + r - cr, lg + g - cg, lb + b - cb) }
        if let m = fromTable { (lr, lg, lb) = (m[0] * lr + m[1] * lg + m[2] * lb, m[3] * lr + m[4] * lg + m[5] * lb, m[6] * lr + m[7] * lg + m[8] * lb) }
        (p[0], p[1], p[2]) = (lr, lg, lb)
    }

    @inline(__always) static func clip(_ x: Float) -> Float { x > 0 ? (x < 1 ? x : 1) : 0 }

    /// A sampled curve at x (0…1), linearly between its samples.
    @inline(__always) static func sample(_ table: [Float], _ x: Float) -> Float {
        let t = x * Float(cells)
        let i = min(Int(t), cells - 1)
        return table[i] + (table[i + 1] - table[i]) * (t - Float(i))
    }

    /// A 1-D table's curve of `channel` at x (0…1, encoded), linearly between its nodes.
    @inline(__always) func curve(_ channel: Int, _ x: Float) -> Float {
        let n = table.divisions
        let t = x * Float(n - 1)
        let i = min(Int(t), n - 2)
        let a = Float(table.samples[i * 3 + channel]), b = Float(table.samples[(i + 1) * 3 + channel])
        return (a + (b - a) * (t - Float(i))) / 65535
    }
}

extension LightroomRGBTable.Gamma {
    /// The transfer curve (linear 0…1 → encoded 0…1), as Adobe's DNG SDK
    /// defines each: sRGB's; 1.8 and 2.2 as powers with a cubic toe that
    /// starts at slope 32 (so that the curve has a finite slope at black);
    /// Rec. 2020's (BT.2020, 12-bit constants).
    func encode(_ x: Double) -> Double {
        switch self {
        case .linear: return x
        case .sRGB: return x <= 0.0031308 ? x * 12.92 : 1.055 * Foundation.pow(x, 1 / 2.4) - 0.055
        case .g18: return Self.toed(x, 1 / 1.8)
        case .g22: return Self.toed(x, 1 / 2.2)
        case .rec2020:
            return x < 0.018053968510807 ? 4.5 * x : 1.09929682680944 * Foundation.pow(x, 0.45) - 0.09929682680944
        }
    }

    /// x^g above x₁ = 2·32^(1/(g − 1)); below, the cubic Hermite segment
    /// from (0, 0) with slope 32 to (x₁, x₁^g) with the power's slope there.
    static func toed(_ x: Double, _ g: Double) -> Double {
        let s0 = 32.0
        let x1 = Foundation.pow(s0, 1 / (g - 1)) * 2, y1 = Foundation.pow(x1, g), s1 = g * Foundation.pow(x1, g - 1)
        guard x < x1 else { return Foundation.pow(x, g) }
        let t = x / x1, t2 = t * t, t3 = t2 * t
        return (t3 - 2 * t2 + t) * x1 * s0 + (3 * t2 - 2 * t3) * y1 + (t3 - t2) * x1 * s1
    }

    /// The inverse (encoded → linear), by bisection: every curve rises from 0 to 1.
    func decode(_ y: Double) -> Double {
        if self == .linear { return y }
        var (low, high) = (0.0, 1.0)
        for _ in 0..<60 {
            let mid = (low + high) / 2
            if encode(mid) < y { low = mid } else { high = mid }
        }
        return (low + high) / 2
    }
}
