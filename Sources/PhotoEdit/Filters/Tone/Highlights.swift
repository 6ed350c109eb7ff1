import Foundation

extension Filters {
    /// The parameters of `highlights`, read through these keys.
    enum HighlightsKeys {
        static let amount = ParameterKey.number("amount", -100...100, default: 0,
            "-100 lowers a three-quarter tone (L 0.75) by 0.17 on the perceptual scale, +100 raises it by 0.09")
    }

    /// Highlights: recovers (−) or brightens (+) the light tones through a
    /// smooth luminance mask that peaks at three quarters of the perceptual
    /// scale and vanishes at black and white, like Lightroom's Highlights
    /// slider (but per pixel, without a local mask).
    ///
    /// In perceptual luminance L = Y^(1/2.2): L' = L + k · a · L³(1 − L) with
    /// a = amount/100, k = 1.6 recovering and 0.9 brightening (both keep the
    /// curve monotone), L clamped to 0…1 inside the mask, so values above
    /// white are left as they are. Applied through the luminance ratio, so
    /// hue and saturation are kept.
    public static let highlights = FilterDefinition(
        id: "highlights", version: 1, stage: .tone, order: 20,
        summary: "recovers (-) or brightens (+) the light tones, leaving black, white and the shadows in place",
        colourSpace: "perceptual luminance (Rec. 709 Y ^ 1/2.2), applied to linear RGB by the luminance ratio",
        keys: [HighlightsKeys.amount],
        forms: [ChainForm(["amount"], "e.g. highlights=-40")]
    ) { image, p, context in
        let a = p[HighlightsKeys.amount] / 100
        if a == 0 { return image }
        let k = a < 0 ? 1.6 : 0.9
        if let fused = try image.toneFused(.highlights, k * a, preview: context.scale < 1) { return fused }
        return try highlightsGraph(image, k * a)
    }

    /// Highlights as libvips operations: the filter's reference (`Image.toneFused`
    /// computes the same bits in one pass; this runs for images that are not
    /// 3-band float). `factor`: the weight's, k * a.
    static func highlightsGraph(_ image: Image, _ factor: Double) throws -> Image {
        try image.toneMapLuminance { l in
            try l.toneAddWeighted(factor) { c in
                // c³ · (1 − c)
                try c.tonePower(3).multiplied(by: c.linear(multiply: [-1], add: [1]))
            }
        }
    }
}
