import Foundation

extension Filters {
    /// Contrast: an S-curve in a perceptual encoding that keeps black, white
    /// and middle grey fixed and changes the slope through middle grey.
    ///
    /// Version 2 applies the curve to luminance and scales R, G and B by the
    /// same ratio, so colours keep their hue and saturation. Version 1 curved
    /// each channel on its own, which shifts hues (saturated oranges drift to
    /// yellow); its recipes keep rendering that way until upgraded.
    public static let contrast = FilterDefinition(
        id: "contrast", version: 2, stage: .tone, order: 10,
        summary: "S-curve around middle grey that keeps black and white fixed, on luminance (hues kept)",
        colourSpace: "perceptual luminance (Y ^ 1/2.2), applied to linear RGB as a ratio",
        keys: [ContrastKeys.amount],
        forms: [ChainForm(["amount"], "e.g. contrast=+20")],
        legacy: [
            LegacyVersion(
                version: 1, keys: [ContrastKeys.amount],
                note: "v2 curves luminance and keeps RGB ratios; v1 curved each channel (renders differently)",
                changesRendering: true,
                render: { image, p, _ in
                    let amount = p[ContrastKeys.amount]
                    if amount == 0 { return image }
                    return try contrastCurve(image, amount: amount)
                }),
        ]
    ) { image, p, context in
        let amount = p[ContrastKeys.amount]
        if amount == 0 { return image }
        if let fused = try image.toneFused(.contrast, amount, preview: context.scale < 1) { return fused }
        return try contrastGraph(image, amount: amount)
    }

    /// Contrast version 2 as libvips operations: the filter's reference
    /// (`Image.toneFused` computes the same bits in one pass; this runs for
    /// images that are not 3-band float).
    static func contrastGraph(_ image: Image, amount: Double) throws -> Image {
        let y = try image.luminance()
        let curved = try contrastCurve(y, amount: amount)
        // ratio = Y' / Y where Y > 0 (black stays black).
        let safeY = try y.call("relational_const", [("relational", .string("more")), ("c", .doubles([1e-9]))])
        let ratio = try Vips.image("ifthenelse", [
            ("cond", .image(safeY)),
            ("in1", .image(try Vips.image("divide", [("left", .image(curved)), ("right", .image(y))]))),
            ("in2", .image(try y.linear(multiply: [0], add: [1]))),
        ])
        return try Vips.image("multiply", [("left", .image(image)), ("right", .image(ratio))])
    }

    /// The parameters of `contrast` (every version), read through these keys.
    enum ContrastKeys {
        static let amount = ParameterKey.number("amount", -100...100, default: 0,
                                                "contrast: +100 doubles the slope at middle grey, -100 halves it")
    }

    /// The S-curve, per band: in the encoding v = x^(1/2.2), below middle
    /// grey m: m·(v/m)^k, above: 1 − (1−m)·((1−v)/(1−m))^k, k = 2^(amount/100).
    static func contrastCurve(_ image: Image, amount: Double) throws -> Image {
        let k = Foundation.pow(2.0, amount / 100)
        let gamma = 1 / 2.2
        let m = Foundation.pow(0.18, gamma)
        let perceptual = try image.signedPower(gamma)
        let low = try perceptual.linear(multiply: [1 / m], add: [0]).signedPower(k).linear(multiply: [m], add: [0])
        let high = try perceptual.linear(multiply: [-1 / (1 - m)], add: [1 / (1 - m)]).signedPower(k)
            .linear(multiply: [-(1 - m)], add: [1])
        return try perceptual.select(lessThan: m, then: low, otherwise: high).signedPower(1 / gamma)
    }
}
