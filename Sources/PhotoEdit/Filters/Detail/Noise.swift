import Foundation

extension Filters {
    /// The parameters of `noise`, read through these keys.
    enum NoiseKeys {
        static let strength = ParameterKey.number("strength", 0...100, default: 0, "how much is smoothed, and how large a difference still counts as noise")
        static let radius = ParameterKey.number("radius", 0.5...10, default: 1.5, unit: "px", "gaussian sigma of the smoothing, in pixels of the full-size image")
        static let chroma = ParameterKey.number("chroma", 0...100, default: 0, "colour noise reduction: how much the colour (not the luminance) is smoothed, and how widely")
        /// Version 1's parameters.
        static let version1: [any AnyParameterKey] = [strength, radius]
        /// The current version's.
        static let all: [any AnyParameterKey] = version1 + [chroma]
    }

    /// Noise reduction: a gaussian blur blended in where the pixel is close
    /// to its neighbourhood (a sigma filter, edge-preserving like a
    /// bilateral filter).
    ///
    /// B = gauss(image, radius); G = gauss(image, 0.8 px), a lightly smoothed
    /// guide; Δ = |L(G) − L(B)| with L the perceptual luminance (Rec. 709
    /// Y ^ 1/2.2); t = 0.12 · strength/100;
    /// w = strength/100 · exp(−(Δ/t)²); out = image + w · (B − image), in
    /// linear light. Flat, noisy areas are smoothed (chroma noise too); edges,
    /// where Δ is large, keep their sharpness.
    ///
    /// Version 2 adds `chroma` (colour noise reduction, Lightroom's Color
    /// slider): the colour of each pixel, C = image − Y (Y its Rec. 709
    /// luminance, so C has none), is blended towards its gaussian blur
    /// (sigma 1 + 4 · chroma/100 px) by chroma/100; the luminance is kept
    /// exactly. At 0 (the default) version 2 renders as version 1.
    public static let noise = FilterDefinition(
        id: "noise", version: 2, stage: .denoise, order: 10,
        summary: "noise reduction: blends in a gaussian blur where the pixel differs little from its surroundings, sparing edges; smooths colour noise",
        colourSpace: "linear RGB, guarded by perceptual luminance (Rec. 709 Y ^ 1/2.2); colour as RGB − Y",
        keys: NoiseKeys.all,
        forms: [
            ChainForm(["strength"], "e.g. noise=40"),
            ChainForm(["strength", "radius"], "strength and radius, e.g. noise=40:2"),
            ChainForm(["strength", "radius", "chroma"], "strength, radius and colour, e.g. noise=40:2:30"),
        ],
        legacy: [
            .adding([NoiseKeys.chroma.name: .number(0)], version: 1, keys: NoiseKeys.version1,
                    note: "v2 adds chroma, colour noise reduction (default 0: version 1's render exactly)"),
        ]
    ) { image, p, context in
        var out = try noiseLuminance(image, strength: p[NoiseKeys.strength] / 100, sigma: p[NoiseKeys.radius] * context.scale, context)
        let chroma = p[NoiseKeys.chroma] / 100
        if chroma > 0 {
            let y = try out.luminance()
            let grey = try y.joined(with: y).joined(with: y)
            let colour = try out.subtracting(grey)
            let smooth = try colour.detailGaussBlur(sigma: (1 + 4 * chroma) * context.scale)
            out = try out.adding(smooth.subtracting(colour).linear(multiply: [chroma, chroma, chroma], add: [0, 0, 0]))
        }
        return out
    }

    /// Version 1's edge-preserving smoothing (strength 0…1, sigma in pixels of this render).
    static func noiseLuminance(_ image: Image, strength: Double, sigma: Double, _ context: RenderContext) throws -> Image {
        if strength == 0 || sigma < 0.05 { return image }
        let blurred = try image.detailGaussBlur(sigma: sigma)
        // The guide is lightly smoothed so that noise itself does not look like an edge.
        let guide = try image.detailGaussBlur(sigma: max(0.5, 0.8 * context.scale))
        let delta = try guide.luminance().detailPerceptual()
            .subtracting(blurred.luminance().detailPerceptual())
        let t = 0.12 * strength
        let weight = try delta.multiplied(by: delta).linear(multiply: [-1 / (t * t)], add: [0])
            .call("math", [("math", .string("exp"))]).linear(multiply: [strength], add: [0])
        return try image.adding(blurred.subtracting(image).multiplied(by: weight))
    }
}
