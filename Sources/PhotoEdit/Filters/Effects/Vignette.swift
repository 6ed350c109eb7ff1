import Foundation

extension Filters {
    /// The parameters of `vignette`, read through these keys.
    enum VignetteKeys {
        static let amount = ParameterKey.number("amount", -100...100, default: 0, "−100 darkens the corners by 3 EV, +100 brightens them by 3 EV")
        static let midpoint = ParameterKey.number("midpoint", 0...100, default: 50, unit: "%", "where the change is half done: 0 the centre, 100 the corners")
        static let roundness = ParameterKey.number("roundness", -100...100, default: 0, "0 follows the frame's shape, +100 a circle, −100 a rounded rectangle")
        static let feather = ParameterKey.number("feather", 0...100, default: 50, unit: "%", "width of the transition, as a share of centre-to-corner")
    }

    /// Vignette: darkens (amount < 0) or brightens (amount > 0) towards the
    /// corners of the final frame, as an exposure change in linear light.
    ///
    /// With u, v ∈ −1…1 the position across the frame, the distance is a
    /// superellipse d = ((|a·u|^p + |b·v|^p) / (a^p + b^p))^(1/p), 0 at the
    /// centre and 1 in the corners (roundness 0: an ellipse of the frame's
    /// shape, p = 2, a = b = 1; +100: a circle; −100: p = 8, a rounded
    /// rectangle). The mask s = smoothstep over midpoint ± feather/2 and the
    /// pixels are multiplied by 2^(3 · amount/100 · s): −100 is −3 EV in the corners.
    public static let vignette = FilterDefinition(
        id: "vignette", version: 1, stage: .effects, order: 10,
        summary: "darkens (negative) or brightens (positive) the corners of the final frame, in linear light",
        colourSpace: "linear RGB (an exposure change of up to ±3 EV)",
        keys: [VignetteKeys.amount, VignetteKeys.midpoint, VignetteKeys.roundness, VignetteKeys.feather],
        forms: [
            ChainForm(["amount"], "e.g. vignette=-30"),
            ChainForm(["amount", "midpoint"], "amount and midpoint, e.g. vignette=-30:40"),
            ChainForm(["amount", "midpoint", "roundness"], "amount, midpoint and roundness, e.g. vignette=-30:40:100"),
            ChainForm(["amount", "midpoint", "roundness", "feather"], "all four, e.g. vignette=-30:40:100:80"),
        ]
    ) { image, p, _ in
        let amount = p[VignetteKeys.amount] / 100
        if amount == 0 { return image }
        let (w, h) = (Double(image.width), Double(image.height))
        let roundness = p[VignetteKeys.roundness] / 100
        let power = roundness < 0 ? 2 * Foundation.pow(4, -roundness) : 2
        let r = (w * w + h * h).squareRoot() / 2
        let circle = max(0, roundness)
        let a = (1 - circle) + circle * (w / 2) / r, b = (1 - circle) + circle * (h / 2) / r
        let (ap, bp) = (Foundation.pow(a, power), Foundation.pow(b, power))
        // u, v in −1…1 at pixel centres.
        let uv = try Vips.image("xyz", [("width", .number(w)), ("height", .number(h))]).cast("float")
            .linear(multiply: [2 / w, 2 / h], add: [(1 - w) / w, (1 - h) / h])
        let powered = try uv.call("abs").call("math2_const", [("math2", .string("pow")), ("c", .doubles([power]))])
            .linear(multiply: [ap, bp], add: [0, 0]).call("bandmean")
        let d = try powered.linear(multiply: [2 / (ap + bp)], add: [0])
            .call("math2_const", [("math2", .string("pow")), ("c", .doubles([1 / power]))])
        let mid = p[VignetteKeys.midpoint] / 100
        let width = max(0.02, p[VignetteKeys.feather] / 100)
        let t = try d.linear(multiply: [1 / width], add: [-(mid - width / 2) / width]).clamped(0, 1)
        let smooth = try t.multiplied(by: t).multiplied(by: t.linear(multiply: [-2], add: [3]))
        let gain = try smooth.linear(multiply: [3 * amount * Foundation.log(2)], add: [0]).call("math", [("math", .string("exp"))])
        return try image.multiplied(by: gain)
    }
}
