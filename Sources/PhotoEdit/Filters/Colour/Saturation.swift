import Foundation

extension Filters {
    /// The parameters of `saturation`, read through these keys.
    enum SaturationKeys {
        static let amount = ParameterKey.number("amount", -100...100, default: 0, "saturation change: -100 grey, +100 twice as saturated")
    }

    /// Saturation: moves each colour away from (or towards) its own grey of
    /// equal luminance, in linear light, so brightness is kept.
    public static let saturation = FilterDefinition(
        id: "saturation", version: 1, stage: .colour, order: 10,
        summary: "colour intensity; -100 is black and white of equal luminance",
        colourSpace: "linear RGB",
        keys: [SaturationKeys.amount],
        forms: [ChainForm(["amount"], "e.g. saturation=+15")]
    ) { image, p, _ in
        let amount = p[SaturationKeys.amount]
        if amount == 0 { return image }
        let s = 1 + amount / 100
        let l = ColourMath.luminance
        var m = [Double](repeating: 0, count: 9)
        for row in 0..<3 {
            for col in 0..<3 {
                m[row * 3 + col] = (1 - s) * l[col] + (row == col ? s : 0)
            }
        }
        return try image.recombine(m)
    }.inPanel(.basic, section: "Presence")
}
