import Foundation

extension Filters {
    /// The parameters of `shadows`, read through these keys.
    enum ShadowsKeys {
        static let amount = ParameterKey.number("amount", -100...100, default: 0,
            "+100 lifts a quarter-tone (L 0.25) by 0.17 on the perceptual scale, -100 lowers it by 0.09")
    }

    /// Shadows: lifts (+) or deepens (−) the dark tones through a smooth
    /// luminance mask that peaks at a quarter of the perceptual scale and
    /// vanishes at black and white, like Lightroom's Shadows slider (but per
    /// pixel, without a local mask).
    ///
    /// In perceptual luminance L = Y^(1/2.2): L' = L + k · a · L(1 − L)³ with
    /// a = amount/100, k = 1.6 lifting and 0.9 deepening (both keep the curve
    /// monotone), L clamped to 0…1 inside the mask. Applied through the
    /// luminance ratio, so hue and saturation are kept.
    public static let shadows = FilterDefinition(
        id: "shadows", version: 1, stage: .tone, order: 30,
        summary: "lifts (+) or deepens (-) the dark tones, leaving black, white and the highlights in place",
        colourSpace: "perceptual luminance (Rec. 709 Y ^ 1/2.2), applied to linear RGB by the luminance ratio",
        keys: [ShadowsKeys.amount],
        forms: [ChainForm(["amount"], "e.g. shadows=+40")]
    ) { image, p, context in
        let a = p[ShadowsKeys.amount] / 100
        if a == 0 { return image }
        let k = a > 0 ? 1.6 : 0.9
        if let fused = try image.toneFused(.shadows, k * a, preview: context.scale < 1) { return fused }
        return try shadowsGraph(image, k * a)
    }

    /// Shadows as libvips operations: the filter's reference (`Image.toneFused`
    /// computes the same bits in one pass; this runs for images that are not
    /// 3-band float). `factor`: the weight's, k * a.
    static func shadowsGraph(_ image: Image, _ factor: Double) throws -> Image {
        try image.toneMapLuminance { l in
            try l.toneAddWeighted(factor) { c in
                // c · (1 − c)³
                try c.multiplied(by: c.linear(multiply: [-1], add: [1]).tonePower(3))
            }
        }
    }
}
