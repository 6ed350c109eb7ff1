import Foundation

extension Filters {
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
    public static let noise = FilterDefinition(
        id: "noise", version: 1, stage: .denoise, order: 10,
        summary: "noise reduction: blends in a gaussian blur where the pixel differs little from its surroundings, sparing edges",
        colourSpace: "linear RGB, guarded by perceptual luminance (Rec. 709 Y ^ 1/2.2)",
        parameters: [
            .number("strength", 0...100, default: 0, "how much is smoothed, and how large a difference still counts as noise"),
            .number("radius", 0.5...10, default: 1.5, unit: "px", "gaussian sigma of the smoothing, in pixels of the full-size image"),
        ],
        forms: [
            ChainForm(["strength"], "e.g. noise=40"),
            ChainForm(["strength", "radius"], "strength and radius, e.g. noise=40:2"),
        ]
    ) { image, p, context in
        let strength = p.number("strength") / 100
        let sigma = p.number("radius") * context.scale
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
