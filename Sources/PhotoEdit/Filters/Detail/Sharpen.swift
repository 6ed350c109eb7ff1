import Foundation

extension Filters {
    /// The parameters of `sharpen`, read through these keys.
    enum SharpenKeys {
        static let amount = ParameterKey.number("amount", 0...500, default: 0, unit: "%", "strength: how much of the detail (image − blurred image) is added")
        static let radius = ParameterKey.number("radius", 0.3...20, default: 1, unit: "px", "gaussian sigma of the blur, in pixels of the full-size image")
        static let threshold = ParameterKey.number("threshold", 0...255, default: 0, "detail smaller than this (0–255 perceptual levels) is left alone, to spare noise")
        static let detail = ParameterKey.number("detail", 0...100, default: 100,
            "how much of the overshoot beyond the neighbourhood's darkest and lightest values is kept (Lightroom's Detail): 0 edges only, no halos; 100 the whole unsharp mask")
        /// Version 1's parameters.
        static let version1: [any AnyParameterKey] = [amount, radius, threshold]
        /// The current version's.
        static let all: [any AnyParameterKey] = version1 + [detail]
    }

    /// Sharpen: unsharp mask on perceptual luminance, so colours do not fringe.
    ///
    /// L = max(Y, 0)^(1/2.2) with Y the Rec. 709 luminance; D = L − gauss(L, radius);
    /// where |D| > threshold/255, L' = max(L + amount/100 · D, 0); the RGB
    /// channels are then scaled by Y'/Y = (L'/L)^2.2 (with a small ε), which
    /// keeps each pixel's hue and saturation.
    ///
    /// Version 2 adds `detail` (Lightroom's Detail slider): L' is first held
    /// between the darkest and lightest L of the pixel's neighbourhood (a
    /// square of side 2·⌈radius⌉ + 1, at most 11 px) — the overshoot that
    /// makes halos, and most of the boost of fine texture, cut off, while
    /// edges still steepen — and then detail/100 of the overshoot is given
    /// back: 0 sharpens edges only, without halos; 100 (the default) is the
    /// whole unsharp mask, version 1 exactly.
    public static let sharpen = FilterDefinition(
        id: "sharpen", version: 2, stage: .detail, order: 10,
        summary: "unsharp mask on perceptual luminance: amount, radius, threshold, detail (halo suppression)",
        colourSpace: "perceptual luminance (Rec. 709 Y ^ 1/2.2); RGB scaled by the luminance ratio in linear light",
        keys: SharpenKeys.all,
        forms: [
            ChainForm(["amount"], "e.g. sharpen=80"),
            ChainForm(["amount", "radius"], "amount and radius, e.g. sharpen=80:1.5"),
            ChainForm(["amount", "radius", "threshold"], "amount, radius and threshold, e.g. sharpen=80:1.5:4"),
            ChainForm(["amount", "radius", "threshold", "detail"], "amount, radius, threshold and detail, e.g. sharpen=80:1:0:25"),
            ChainForm(named: "detail", ["detail"], "detail alone, e.g. sharpen.detail=25"),
        ],
        legacy: [
            .adding([SharpenKeys.detail.name: .number(100)], version: 1, keys: SharpenKeys.version1,
                    note: "v2 adds detail (halo suppression; default 100: version 1's unsharp mask exactly)"),
        ]
    ) { image, p, context in
        try unsharpMask(image, amount: p[SharpenKeys.amount] / 100, sigma: p[SharpenKeys.radius] * context.scale,
                        threshold: p[SharpenKeys.threshold] / 255, detail: p[SharpenKeys.detail] / 100)
    }

    /// The largest side of the neighbourhood `detail` holds the sharpened luminance in.
    static let sharpenWindowLimit = 11

    /// Sharpen's render (version 1 is `detail` 1: no step of the hold is taken).
    static func unsharpMask(_ image: Image, amount: Double, sigma: Double, threshold: Double, detail: Double) throws -> Image {
        if amount == 0 || sigma < 0.05 { return image }
        let y = try image.luminance()
        let l = try y.detailPerceptual()
        var detailImage = try l.subtracting(l.detailGaussBlur(sigma: sigma))
        if threshold > 0 {
            let magnitude = try detailImage.call("abs")
            detailImage = try magnitude.select(lessThan: threshold, then: detailImage.linear(multiply: [0], add: [0]), otherwise: detailImage)
        }
        var sharpened = try l.adding(detailImage.linear(multiply: [amount], add: [0]))
        if detail < 1 {
            // The neighbourhood's darkest and lightest perceptual luminance.
            let side = min(2 * Int(sigma.rounded(.up)) + 1, sharpenWindowLimit)
            let rank = { (index: Int) in
                try l.call("rank", [("width", .number(Double(side))), ("height", .number(Double(side))), ("index", .number(Double(index)))])
            }
            let held = try sharpened.maximum(rank(0)).minimum(rank(side * side - 1))
            sharpened = try held.adding(sharpened.subtracting(held).linear(multiply: [detail], add: [0]))
        }
        let zero = try sharpened.linear(multiply: [0], add: [0])
        let yNew = try sharpened.select(lessThan: 0, then: zero, otherwise: sharpened)
            .call("math2_const", [("math2", .string("pow")), ("c", .doubles([2.2]))])
        let epsilon = 1e-5
        let yClamped = try y.select(lessThan: 0, then: y.linear(multiply: [0], add: [0]), otherwise: y)
        let ratio = try yNew.linear(multiply: [1], add: [epsilon]).divided(by: yClamped.linear(multiply: [1], add: [epsilon]))
        return try image.multiplied(by: ratio)
    }
}
