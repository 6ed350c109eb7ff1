import Foundation

extension Filters {
    /// The parameters of `vibrance`, read through these keys.
    enum VibranceKeys {
        static let amount = ParameterKey.number("amount", -100...100, default: 0,
            "+100 doubles the saturation of grey-ish colours, leaves fully saturated ones; -100 turns dull colours grey")
        static let spareSkin = ParameterKey.bool("spare_skin", default: true, "when boosting, spare skin-like hues (orange, around 25°) by up to 70 %")
    }

    /// Vibrance: a saturation change weighted towards the less saturated
    /// colours, optionally sparing skin tones, in linear light with luminance
    /// kept.
    public static let vibrance = FilterDefinition(
        id: "vibrance", version: 1, stage: .colour, order: 20,
        summary: "saturation that favours dull colours and spares vivid ones (and skin tones)",
        colourSpace: "linear RGB (weights from perceptual chroma and hue)",
        keys: [VibranceKeys.amount, VibranceKeys.spareSkin],
        forms: [ChainForm(["amount"], "e.g. vibrance=+30")]
    ) { image, p, _ in
        let amount = p[VibranceKeys.amount]
        if amount == 0 { return image }
        let a = amount / 100
        let (hue, chroma) = try image.colourWheel()
        // Weight 1 for greys, 0 for fully saturated colours (chroma ≥ 1).
        var weight = try chroma.clamped01().linear(multiply: [-1], add: [1])
        if a > 0 && p[VibranceKeys.spareSkin] {
            let skin = try hue.colourHueMask(centre: 25, left: 25, right: 25)
            weight = try weight.multiplied(by: try skin.linear(multiply: [-0.7], add: [1]))
        }
        let factor = try weight.linear(multiply: [a], add: [1])
        // out = Y + (rgb − Y)·factor, Y the Rec. 709 luminance: luminance is kept.
        let l = ColourMath.luminance
        let grey = try image.recombine(l + l + l)
        return try grey.adding(try image.subtracting(grey).multiplied(by: factor))
    }.inPanel(.basic, section: "Presence")
}
