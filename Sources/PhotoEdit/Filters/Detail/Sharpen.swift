import Foundation

extension Filters {
    /// Sharpen: unsharp mask on perceptual luminance, so colours do not fringe.
    ///
    /// L = max(Y, 0)^(1/2.2) with Y the Rec. 709 luminance; D = L − gauss(L, radius);
    /// where |D| > threshold/255, L' = max(L + amount/100 · D, 0); the RGB
    /// channels are then scaled by Y'/Y = (L'/L)^2.2 (with a small ε), which
    /// keeps each pixel's hue and saturation.
    public static let sharpen = FilterDefinition(
        id: "sharpen", version: 1, stage: .detail, order: 10,
        summary: "unsharp mask on perceptual luminance: amount, radius, threshold",
        colourSpace: "perceptual luminance (Rec. 709 Y ^ 1/2.2); RGB scaled by the luminance ratio in linear light",
        parameters: [
            .number("amount", 0...500, default: 0, unit: "%", "strength: how much of the detail (image − blurred image) is added"),
            .number("radius", 0.3...20, default: 1, unit: "px", "gaussian sigma of the blur, in pixels of the full-size image"),
            .number("threshold", 0...255, default: 0, "detail smaller than this (0–255 perceptual levels) is left alone, to spare noise"),
        ],
        forms: [
            ChainForm(["amount"], "e.g. sharpen=80"),
            ChainForm(["amount", "radius"], "amount and radius, e.g. sharpen=80:1.5"),
            ChainForm(["amount", "radius", "threshold"], "amount, radius and threshold, e.g. sharpen=80:1.5:4"),
        ]
    ) { image, p, context in
        let amount = p.number("amount") / 100
        let sigma = p.number("radius") * context.scale
        if amount == 0 || sigma < 0.05 { return image }
        let y = try image.luminance()
        let l = try y.detailPerceptual()
        var detail = try l.subtracting(l.detailGaussBlur(sigma: sigma))
        let threshold = p.number("threshold") / 255
        if threshold > 0 {
            let magnitude = try detail.call("abs")
            detail = try magnitude.select(lessThan: threshold, then: detail.linear(multiply: [0], add: [0]), otherwise: detail)
        }
        let sharpened = try l.adding(detail.linear(multiply: [amount], add: [0]))
        let zero = try sharpened.linear(multiply: [0], add: [0])
        let yNew = try sharpened.select(lessThan: 0, then: zero, otherwise: sharpened)
            .call("math2_const", [("math2", .string("pow")), ("c", .doubles([2.2]))])
        let epsilon = 1e-5
        let yClamped = try y.select(lessThan: 0, then: y.linear(multiply: [0], add: [0]), otherwise: y)
        let ratio = try yNew.linear(multiply: [1], add: [epsilon]).divided(by: yClamped.linear(multiply: [1], add: [epsilon]))
        return try image.multiplied(by: ratio)
    }
}
