import CVips
import Foundation

extension Filters {
    /// The parameters of `grain`, read through these keys.
    enum GrainKeys {
        static let amount = ParameterKey.number("amount", 0...100, default: 0, "strength: 100 gives a standard deviation of 0.5 EV")
        static let size = ParameterKey.number("size", 1...10, default: 1.5, unit: "px", "grain size, in pixels of the full-size image")
        static let seed = ParameterKey.number("seed", 0...2_147_483_647, default: 0, step: 1, "random seed: another seed gives another grain pattern")
        static let roughness = ParameterKey.number("roughness", 0...100, default: 50, "how uneven the grain is: 50 as version 1, 100 gritty, 0 soft and regular")
        /// Version 1's parameters.
        static let version1: [any AnyParameterKey] = [amount, size, seed]
        /// The current version's.
        static let all: [any AnyParameterKey] = version1 + [roughness]
    }

    /// Grain: seeded gaussian luminance noise (libvips `gaussnoise` with its
    /// `seed`), so a recipe renders the same pixels every time.
    ///
    /// n is unit gaussian noise drawn at 1/size of the resolution and
    /// enlarged (bilinear) so grains are about `size` pixels across; the
    /// pixels are multiplied by 2^(0.5 · amount/100 · n): a change of
    /// exposure, the same on the three channels, that shows as much in the
    /// shadows as in the highlights (amount 100 has a spread of ±0.5 EV).
    ///
    /// Version 2 adds `roughness` (Lightroom's grain roughness, 0…100): 50
    /// is version 1's grain exactly. Above 50 a second noise, at half the
    /// grain size (another seed: seed + 1), is mixed in with a share of the
    /// variance of (roughness − 50)/100 (up to a half): uneven, gritty grain.
    /// Below 50 the coarse noise is smoothed (a gaussian of (50 − roughness)/50
    /// × 0.7 grains) before it is enlarged, its spread restored: softer, more
    /// regular grain. The spread of n stays 1 at every roughness.
    public static let grain = FilterDefinition(
        id: "grain", version: 2, stage: .effects, order: 20,
        summary: "film-like luminance grain, seeded so the same recipe gives the same pixels",
        colourSpace: "linear RGB (multiplicative, as an exposure change per pixel)",
        keys: GrainKeys.all,
        forms: [
            ChainForm(["amount"], "e.g. grain=25"),
            ChainForm(["amount", "size"], "amount and size, e.g. grain=25:2"),
            ChainForm(["amount", "size", "seed"], "amount, size and seed, e.g. grain=25:2:7"),
            ChainForm(["amount", "size", "seed", "roughness"], "amount, size, seed and roughness, e.g. grain=25:2:7:80"),
        ],
        legacy: [
            .adding([GrainKeys.roughness.name: .number(50)], version: 1, keys: GrainKeys.version1,
                    note: "v2 adds roughness (default 50: version 1's grain exactly)"),
        ]
    ) { image, p, context in
        let amount = p[GrainKeys.amount] / 100
        if amount == 0 { return image }
        let size = max(1, p[GrainKeys.size] * context.scale)
        let seed = Int(p[GrainKeys.seed]), roughness = p[GrainKeys.roughness] / 100
        var noise = try grainNoise(width: image.width, height: image.height, size: size, seed: seed,
                                   smoothing: roughness < 0.5 ? (0.5 - roughness) * 2 * 0.7 : 0)
        if roughness > 0.5 {
            let share = roughness - 0.5
            let fine = try grainNoise(width: image.width, height: image.height, size: max(1, size / 2), seed: seed + 1, smoothing: 0)
            noise = try noise.linear(multiply: [(1 - share).squareRoot()], add: [0])
                .adding(fine.linear(multiply: [share.squareRoot()], add: [0]))
        }
        let gain = try noise.linear(multiply: [0.5 * amount * Foundation.log(2)], add: [0]).call("math", [("math", .string("exp"))])
        return try image.multiplied(by: gain)
    }

    /// Unit gaussian noise (1 band, width × height) drawn at 1/size of the
    /// resolution and enlarged bilinearly, after a gaussian of `smoothing`
    /// grains (its spread restored to 1) when that is not 0.
    static func grainNoise(width w: Int, height h: Int, size: Double, seed: Int, smoothing: Double) throws -> Image {
        let (nw, nh) = (Int((Double(w) / size).rounded(.up)) + 2, Int((Double(h) / size).rounded(.up)) + 2)
        var noise = try Vips.image("gaussnoise", [("width", .number(Double(nw))), ("height", .number(Double(nh))),
                                                  ("mean", .number(0)), ("sigma", .number(1)),
                                                  ("seed", .number(Double(Int32(truncatingIfNeeded: seed))))])
        if smoothing > 0.05 {
            // A separable gaussian whose weights are known, so the spread it leaves is too: Σk² per axis.
            let radius = Int((3 * smoothing).rounded(.up))
            var k = (-radius...radius).map { Foundation.exp(-Double($0 * $0) / (2 * smoothing * smoothing)) }
            let total = k.reduce(0, +)
            k = k.map { $0 / total }
            let spread = k.map { $0 * $0 }.reduce(0, +)  // the variance left per axis
            // Bilinear enlargement keeps (2 + ρ)/3 of the variance per axis, ρ the
            // correlation of neighbours (0 for the unsmoothed noise): the same share is kept.
            let rho = size > 1 ? zip(k, k.dropFirst()).map { $0 * $1 }.reduce(0, +) / spread : 0
            noise = try noise.call("convsep", [("mask", .image(try Image.row(k))), ("precision", .string("float"))])
                .linear(multiply: [1 / spread / (1 + rho / 2)], add: [0])
        }
        if size > 1 {
            noise = try noise.call("resize", [("scale", .number(size)), ("kernel", .string("linear"))])
        }
        return try noise.extractArea(left: 0, top: 0, width: w, height: h)
    }
}

extension Image {
    /// A 1-row matrix image (a convolution kernel of `values`, scale 1).
    static func row(_ values: [Double]) throws -> Image {
        try Vips.ensureStarted()
        let m = values.withUnsafeBufferPointer { vips_image_new_matrix_from_array(Int32($0.count), 1, $0.baseAddress, Int32($0.count)) }
        guard let m else { throw Vips.error("matrix") }
        return Image(owning: m)
    }
}
