import Foundation

extension Filters {
    /// The parameters of `blacks`, read through these keys.
    enum BlacksKeys {
        static let amount = ParameterKey.number("amount", -100...100, default: 0,
            "black (L 0) moves by amount/400 on the perceptual scale: +100 to 0.25, -100 to -0.25 (clipped)")
    }

    /// Blacks: moves the black point region up (+, black becomes dark grey,
    /// a faded look) or down (−, the darkest tones crush to black at output),
    /// fading out towards white.
    ///
    /// In perceptual luminance L = Y^(1/2.2): L' = L + 0.25 · a · (1 − L)³
    /// with a = amount/100 (monotone for every a), L clamped to 0…1 inside
    /// the weight. Applied through the luminance ratio (lifted black gets the
    /// added light as neutral grey).
    public static let blacks = FilterDefinition(
        id: "blacks", version: 1, stage: .tone, order: 50,
        summary: "moves the black point region: + lifts black to dark grey, - crushes dark tones to black",
        colourSpace: "perceptual luminance (Rec. 709 Y ^ 1/2.2), applied to linear RGB by the luminance ratio",
        keys: [BlacksKeys.amount],
        forms: [ChainForm(["amount"], "e.g. blacks=-20")]
    ) { image, p, context in
        let a = p[BlacksKeys.amount] / 100
        if a == 0 { return image }
        if let fused = try image.toneFused(.blacks, 0.25 * a, preview: context.scale < 1) { return fused }
        return try blacksGraph(image, 0.25 * a)
    }

    /// Blacks as libvips operations: the filter's reference (`Image.toneFused`
    /// computes the same bits in one pass; this runs for images that are not
    /// 3-band float). `factor`: the weight's, 0.25 * a.
    static func blacksGraph(_ image: Image, _ factor: Double) throws -> Image {
        try image.toneMapLuminance { l in
            try l.toneAddWeighted(factor) { c in try c.linear(multiply: [-1], add: [1]).tonePower(3) }
        }
    }
}
