import Foundation

extension Filters {
    /// The parameters of `levels`, read through these keys.
    enum LevelsKeys {
        static let inBlack = ParameterKey.number("in_black", 0...1, default: 0, "input value (perceptual 0…1) that becomes the output black")
        static let inWhite = ParameterKey.number("in_white", 0...1, default: 1, "input value (perceptual 0…1) that becomes the output white")
        static let gamma = ParameterKey.number("gamma", 0.1...10, default: 1, "midtone gamma: above 1 brightens the midtones, below 1 darkens them")
        static let outBlack = ParameterKey.number("out_black", 0...1, default: 0, "output value (perceptual 0…1) of the input black")
        static let outWhite = ParameterKey.number("out_white", 0...1, default: 1, "output value (perceptual 0…1) of the input white")
    }

    /// Levels, as in Photoshop: input black and white points, a midtone
    /// gamma, output black and white points, on each RGB channel alike.
    ///
    /// Per channel in the perceptual encoding v = linear^(1/2.2):
    /// t = (v − in_black) / (in_white − in_black), t' = sign(t)·|t|^(1/gamma),
    /// v' = out_black + (out_white − out_black) · t', back to linear. Nothing
    /// is clipped (values outside the input range continue the line, and are
    /// clipped only at output). in_white below in_black inverts; equal points
    /// are the limit of the mapping, a threshold at in_black.
    public static let levels = FilterDefinition(
        id: "levels", version: 1, stage: .tone, order: 60,
        summary: "input black/white points, midtone gamma and output black/white points, on every channel",
        colourSpace: "perceptual (linear RGB ^ 1/2.2, per channel), back to linear",
        keys: [LevelsKeys.inBlack, LevelsKeys.inWhite, LevelsKeys.gamma, LevelsKeys.outBlack, LevelsKeys.outWhite],
        forms: [
            ChainForm(["in_black", "in_white"], "input black and white points, e.g. levels=0.05:0.9"),
            ChainForm(["in_black", "in_white", "gamma"], "input points and midtone gamma, e.g. levels=0.02:0.95:1.1"),
            ChainForm(["in_black", "in_white", "gamma", "out_black", "out_white"],
                      "input points, gamma and output points, e.g. levels=0:1:1:0.05:0.95"),
        ],
    ) { image, p, _ in
        let (ib, iw, g) = (p[LevelsKeys.inBlack], p[LevelsKeys.inWhite], p[LevelsKeys.gamma])
        let (ob, ow) = (p[LevelsKeys.outBlack], p[LevelsKeys.outWhite])
        if ib == 0 && iw == 1 && g == 1 && ob == 0 && ow == 1 { return image }
        return try image.toneMapPerceptual { v in
            if iw == ib {
                // The limit of a closing input range: a threshold at in_black.
                let low = try v.linear(multiply: [0], add: [ob]), high = try v.linear(multiply: [0], add: [ow])
                return try v.select(lessThan: ib, then: low, otherwise: high)
            }
            let t = try v.linear(multiply: [1 / (iw - ib)], add: [-ib / (iw - ib)]).signedPower(1 / g)
            return try t.linear(multiply: [ow - ob], add: [ob])
        }
    }.inPanel(.toneCurve)
}
