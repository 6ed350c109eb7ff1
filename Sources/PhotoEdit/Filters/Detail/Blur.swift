import Foundation

extension Filters {
    /// The parameters of `blur`, read through these keys.
    enum BlurKeys {
        static let sigma = ParameterKey.number("sigma", 0...100, default: 0, unit: "px", "gaussian standard deviation, in pixels of the full-size image; 0 = off")
    }

    /// Blur: a gaussian blur in linear light (physically like defocus:
    /// bright points spread as light does). Sigma is in pixels of the
    /// full-size image and follows `RenderContext.scale` in previews.
    public static let blur = FilterDefinition(
        id: "blur", version: 1, stage: .detail, order: 20,
        summary: "gaussian blur in linear light; sigma in pixels of the full-size image",
        colourSpace: "linear RGB",
        keys: [BlurKeys.sigma],
        forms: [ChainForm(["sigma"], "e.g. blur=2")]
    ) { image, p, context in
        let sigma = p[BlurKeys.sigma] * context.scale
        if sigma < 0.05 { return image }
        return try image.detailGaussBlur(sigma: sigma)
    }
}
