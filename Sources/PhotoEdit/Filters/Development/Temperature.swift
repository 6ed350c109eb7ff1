import Foundation

extension Filters {
    /// The parameters of `temperature`, read through these keys.
    enum TemperatureKeys {
        static let amount = ParameterKey.number("amount", -100...100, default: 0, unit: "mired",
                                                "shift of the assumed light along the Planckian locus; + warmer, - cooler")
    }

    /// The parameters of `tint`, read through these keys.
    enum TintKeys {
        static let amount = ParameterKey.number("amount", -100...100, default: 0, "green–magenta shift; 100 moves the white point by Δy = 0.02")
    }

    /// Colour temperature: a chromatic adaptation (Bradford) as if the light
    /// had been cooler (warm result, positive) or warmer (cool result).
    public static let temperature = FilterDefinition(
        id: "temperature", version: 1, stage: .whiteBalance, order: 10,
        summary: "white balance warm/cool: +N warms as if the light were N mired bluer",
        colourSpace: "linear RGB (scene-referred)",
        keys: [TemperatureKeys.amount],
        forms: [ChainForm(["amount"], "e.g. temperature=+20")]
    ) { image, p, _ in
        let amount = p[TemperatureKeys.amount]
        if amount == 0 { return image }
        return try image.recombine(temperatureMatrix(amount))
    }

    /// The linear-RGB matrix of `temperature` at `amount` mired.
    static func temperatureMatrix(_ amount: Double) -> [Double] {
        let reference = 6504.0
        let source = 1e6 / (1e6 / reference - amount)
        let s = ColourMath.planckian(kelvin: source), d = ColourMath.planckian(kelvin: reference)
        return ColourMath.adaptation(from: ColourMath.xyz(x: s.x, y: s.y), to: ColourMath.xyz(x: d.x, y: d.y))
    }

    /// Tint: the green–magenta axis of white balance, also a Bradford adaptation.
    public static let tint = FilterDefinition(
        id: "tint", version: 1, stage: .whiteBalance, order: 20,
        summary: "white balance green/magenta: + towards magenta, - towards green",
        colourSpace: "linear RGB (scene-referred)",
        keys: [TintKeys.amount],
        forms: [ChainForm(["amount"], "e.g. tint=-10")]
    ) { image, p, _ in
        let amount = p[TintKeys.amount]
        if amount == 0 { return image }
        return try image.recombine(tintMatrix(amount))
    }

    /// The linear-RGB matrix of `tint` at `amount`.
    static func tintMatrix(_ amount: Double) -> [Double] {
        let d = (x: 0.31271, y: 0.32902)  // D65
        let s = (x: d.x, y: d.y + amount / 100 * 0.02)  // a greener light, corrected → magenta
        return ColourMath.adaptation(from: ColourMath.xyz(x: s.x, y: s.y), to: ColourMath.xyz(x: d.x, y: d.y))
    }
}
