import Foundation

extension Filters {
    /// Saturation: moves each colour away from (or towards) its own grey of
    /// equal luminance, in linear light, so brightness is kept.
    public static let saturation = FilterDefinition(
        id: "saturation", version: 1, stage: .colour, order: 10,
        summary: "colour intensity; -100 is black and white of equal luminance",
        colourSpace: "linear RGB",
        parameters: [
            .number("amount", -100...100, default: 0, "saturation change: -100 grey, +100 twice as saturated"),
        ],
        forms: [ChainForm(["amount"], "e.g. saturation=+15")]
    ) { image, p, _ in
        let amount = p.number("amount")
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
