import Foundation

extension Filters {
    /// The parameters of `mono`, read through these keys.
    enum MonoKeys {
        static let amount = ParameterKey.number("amount", 0...100, default: 0, unit: "%", "how far towards black and white: 0 none, 100 fully grey")
        static let red = ParameterKey.number("red", 0...1, default: 0.2126, "relative weight of the red channel (the weights are normalised to sum 1)")
        static let green = ParameterKey.number("green", 0...1, default: 0.7152, "relative weight of the green channel")
        static let blue = ParameterKey.number("blue", 0...1, default: 0.0722, "relative weight of the blue channel")
    }

    /// Black and white through a channel mix: grey = (r·R + g·G + b·B) / (r + g + b)
    /// in linear light, blended with the colour by `amount`.
    public static let mono = FilterDefinition(
        id: "mono", version: 1, stage: .colour, order: 40,
        summary: "black and white from a red/green/blue channel mix (Rec. 709 luminance by default)",
        colourSpace: "linear RGB",
        keys: [MonoKeys.amount, MonoKeys.red, MonoKeys.green, MonoKeys.blue],
        forms: [
            ChainForm([], fixed: ["amount": .number(100)], "mono alone: black and white of equal luminance (Rec. 709)"),
            ChainForm(["red", "green", "blue"], fixed: ["amount": .number(100)],
                      "black and white from these channel weights, e.g. mono=0.5:0.3:0.2 (a red-filter look)"),
            ChainForm(["amount"], "partly black and white, e.g. mono=50"),
        ],
        check: { p in
            let sum = p[MonoKeys.red] + p[MonoKeys.green] + p[MonoKeys.blue]
            return sum >= 0.01 ? nil : "red + green + blue must add up to at least 0.01 (got \(JSONValue.format(sum)))"
        }
    ) { image, p, _ in
        let k = p[MonoKeys.amount] / 100
        if k == 0 { return image }
        let w = [p[MonoKeys.red], p[MonoKeys.green], p[MonoKeys.blue]]
        let sum = w[0] + w[1] + w[2]
        let n = w.map { $0 / sum }
        // M = (1 − k)·I + k·[n; n; n]
        var m = [Double](repeating: 0, count: 9)
        for row in 0..<3 {
            for col in 0..<3 {
                m[row * 3 + col] = k * n[col] + (row == col ? 1 - k : 0)
            }
        }
        return try image.recombine(m)
    }
}
