import Foundation

extension Filters {
    /// The parameters of `defringe`, read through these keys.
    enum DefringeKeys {
        static let purple = ParameterKey.number("purple", 0...20, default: 0, "purple fringe removal (Lightroom's Purple Amount): 10 removes the colour at strong edges")
        static let purpleLo = ParameterKey.number("purple_lo", 0...100, default: 30, "low end of the purple hues (Lightroom's Purple Hue, 0…100 = 250°…350° LCh hue)")
        static let purpleHi = ParameterKey.number("purple_hi", 0...100, default: 70, "high end of the purple hues")
        static let green = ParameterKey.number("green", 0...20, default: 0, "green fringe removal (Lightroom's Green Amount)")
        static let greenLo = ParameterKey.number("green_lo", 0...100, default: 40, "low end of the green hues (Lightroom's Green Hue, 0…100 = 90°…190° LCh hue)")
        static let greenHi = ParameterKey.number("green_hi", 0...100, default: 60, "high end of the green hues")
    }

    /// Defringe (Lightroom's Lens Corrections › Manual › Defringe): removes
    /// the purple and green fringes of longitudinal chromatic aberration at
    /// high-contrast edges.
    ///
    /// In CIE LCh (D65): a pixel is an edge pixel by the lightness range of
    /// its neighbourhood (the lightest minus the darkest L* in a square of
    /// side 2·⌈3·scale⌉ + 1 px: weight 0 below a range of 10 L*, 1 from 30
    /// up), and in a colour's band by its hue (purple: hue slider 0…100 →
    /// 250°…350°, green: 0…100 → 90°…190°, feathered by 10° on each side).
    /// Its chroma is multiplied by 1 − min(1, amount/10 · edge · band):
    /// amount 10 takes the colour out of fringes at strong edges, more also
    /// reaches weaker ones. Lightness and every pixel outside the bands or
    /// away from edges are kept exactly.
    public static let defringe = FilterDefinition(
        id: "defringe", version: 1, stage: .whiteBalance, order: -5,
        summary: "removes purple and green fringes at high-contrast edges (desaturates those hues there), as Lightroom's Defringe",
        colourSpace: "CIE LCh (D65) from linear RGB; only the chroma of fringe hues at edges changes",
        keys: [
            DefringeKeys.purple, DefringeKeys.purpleLo, DefringeKeys.purpleHi, DefringeKeys.green, DefringeKeys.greenLo,
            DefringeKeys.greenHi,
        ],
        forms: [
            ChainForm([], fixed: ["purple": .number(5), "green": .number(5)], "defringe alone: purple and green at 5, Lightroom's default hues"),
            ChainForm(["purple", "green"], "purple and green amounts, e.g. defringe=8:4"),
            ChainForm(named: "purple", ["purple", "purple_lo", "purple_hi"], "purple amount and hue range, e.g. defringe.purple=8:20:80"),
            ChainForm(named: "green", ["green", "green_lo", "green_hi"], "green amount and hue range, e.g. defringe.green=6:35:65"),
        ],
        check: { p in
            if p[DefringeKeys.purpleLo] > p[DefringeKeys.purpleHi] { return "purple_lo must not be above purple_hi" }
            if p[DefringeKeys.greenLo] > p[DefringeKeys.greenHi] { return "green_lo must not be above green_hi" }
            return nil
        }
    ) { image, p, context in
        let bands = [(p[DefringeKeys.purple], 250 + p[DefringeKeys.purpleLo], 250 + p[DefringeKeys.purpleHi]),
                     (p[DefringeKeys.green], 90 + p[DefringeKeys.greenLo], 90 + p[DefringeKeys.greenHi])].filter { $0.0 > 0 }
        if bands.isEmpty { return image }
        let toLCh: [(String, Vips.Argument)] = [("space", .string("lch")), ("source_space", .string("scrgb"))]
        let lch = try image.call("colourspace", toLCh)
        let lightness = try lch.extractBands(0, count: 1), chroma = try lch.extractBands(1, count: 1), hue = try lch.extractBands(2, count: 1)
        // Edges: the lightness range of the neighbourhood, 10 → 0, 30 → 1.
        let side = 2 * max(1, Int((3 * context.scale).rounded(.up))) + 1
        let rank = { (index: Int) in
            try lightness.call("rank", [("width", .number(Double(side))), ("height", .number(Double(side))), ("index", .number(Double(index)))])
        }
        let edge = try rank(side * side - 1).subtracting(rank(0)).linear(multiply: [1.0 / 20], add: [-0.5]).clamped01()
        // Each colour's band of hues, feathered by 10° on each side; × amount/10.
        let feather = 10.0
        func removal(_ amount: Double, _ lo: Double, _ hi: Double) throws -> Image {
            let rising = try hue.linear(multiply: [1 / feather], add: [-(lo - feather) / feather])
            let falling = try hue.linear(multiply: [-1 / feather], add: [(hi + feather) / feather])
            return try rising.minimum(falling).clamped01().linear(multiply: [amount / 10], add: [0])
        }
        guard let (amount, lo, hi) = bands.first else { return image }
        var removed = try removal(amount, lo, hi)
        for (amount, lo, hi) in bands.dropFirst() { removed = try removed.adding(removal(amount, lo, hi)) }
        let keep = try removed.multiplied(by: edge).clamped01().linear(multiply: [-1], add: [1])
        let edited = try Vips.image("bandjoin", [("in", .images([lightness, chroma.multiplied(by: keep), hue]))])
        // The change, added to the original: pixels left alone stay exactly as they were.
        let toRGB: [(String, Vips.Argument)] = [("space", .string("scrgb")), ("source_space", .string("lch"))]
        return try image.adding(try edited.call("colourspace", toRGB).subtracting(lch.call("colourspace", toRGB)))
    }.inPanel(.optics, section: "Lens corrections")
}
