import Foundation

extension Filters {
    /// The parameters of `whites`, read through these keys.
    enum WhitesKeys {
        static let amount = ParameterKey.number("amount", -100...100, default: 0,
            "white (L 1) moves by amount/400 on the perceptual scale: +100 to 1.25, -100 to 0.75")
    }

    /// Whites: moves the white point region up (+, more of the light tones
    /// reach white and clip at output) or down (−, white becomes light grey),
    /// fading out towards black.
    ///
    /// In perceptual luminance L = Y^(1/2.2): L' = L + 0.25 · a · L³ with
    /// a = amount/100 (monotone for every a), L clamped to 0…1 inside the
    /// weight, so values above white shift by 0.25·a. Applied through the
    /// luminance ratio, so hue and saturation are kept.
    public static let whites = FilterDefinition(
        id: "whites", version: 1, stage: .tone, order: 40,
        summary: "moves the white point region: + pushes light tones to white, - dims white to light grey",
        colourSpace: "perceptual luminance (Rec. 709 Y ^ 1/2.2), applied to linear RGB by the luminance ratio",
        keys: [WhitesKeys.amount],
        forms: [ChainForm(["amount"], "e.g. whites=+20")]
    ) { image, p, context in
        let a = p[WhitesKeys.amount] / 100
        if a == 0 { return image }
        if let fused = try image.toneFused(.whites, 0.25 * a, preview: context.scale < 1) { return fused }
        return try whitesGraph(image, 0.25 * a)
    }

    /// Whites as libvips operations: the filter's reference (`Image.toneFused`
    /// computes the same bits in one pass; this runs for images that are not
    /// 3-band float). `factor`: the weight's, 0.25 * a.
    static func whitesGraph(_ image: Image, _ factor: Double) throws -> Image {
        try image.toneMapLuminance { l in
            try l.toneAddWeighted(factor) { c in try c.tonePower(3) }
        }
    }
}
