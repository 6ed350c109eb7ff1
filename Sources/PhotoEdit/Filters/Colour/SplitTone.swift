import Foundation

extension Filters {
    /// The parameters of `splittone`, read through these keys.
    enum SplitToneKeys {
        static let shadowHue = ParameterKey.number("shadow_hue", 0...360, default: 220, unit: "°", "hue of the shadow tint (0 red, 60 yellow, 120 green, 180 cyan, 240 blue, 300 magenta)")
        static let shadowSat = ParameterKey.number("shadow_sat", 0...100, default: 0, "strength of the shadow tint; 100 gives the pure hue in the deepest shadows")
        static let highHue = ParameterKey.number("high_hue", 0...360, default: 40, unit: "°", "hue of the highlights' tint")
        static let highSat = ParameterKey.number("high_sat", 0...100, default: 0, "strength of the highlights' tint; 100 gives the pure hue in the brightest highlights")
        static let balance = ParameterKey.number("balance", -100...100, default: 0, "+ gives the highlight tint more of the tonal range, - the shadow tint")
    }

    /// Split toning: tints the shadows with one hue and the highlights with
    /// another, keeping each pixel's luminance. `splittone` alone is a sepia
    /// tone (use `mono,splittone` for a sepia print).
    public static let splittone = FilterDefinition(
        id: "splittone", version: 1, stage: .colour, order: 50,
        summary: "tints shadows and highlights with their own hues (split toning); splittone alone is sepia",
        colourSpace: "linear RGB, luminance kept (shadow/highlight weights from perceptual luminance)",
        keys: [SplitToneKeys.shadowHue, SplitToneKeys.shadowSat, SplitToneKeys.highHue, SplitToneKeys.highSat, SplitToneKeys.balance],
        forms: [
            ChainForm(["shadow_hue", "shadow_sat", "high_hue", "high_sat"], "e.g. splittone=220:30:40:25 (teal shadows, warm highlights)"),
            ChainForm(["shadow_hue", "shadow_sat", "high_hue", "high_sat", "balance"], "with a balance, e.g. splittone=220:30:40:25:+20"),
            ChainForm([], fixed: ["shadow_hue": .number(30), "shadow_sat": .number(70), "high_hue": .number(45),
                                  "high_sat": .number(50), "balance": .number(0)],
                      "splittone alone: a sepia tone (shadows 30°/70, highlights 45°/50); mono,splittone for a sepia print"),
        ]
    ) { image, p, _ in
        let ss = p[SplitToneKeys.shadowSat] / 100, hs = p[SplitToneKeys.highSat] / 100
        if ss == 0 && hs == 0 { return image }
        // out = rgb + Y·(ws·ss·(cs − 1) + wh·hs·(ch − 1)), with c the tint colour
        // scaled to luminance 1, so Y(out) = Y(rgb).
        let cs = colourTint(hue: p[SplitToneKeys.shadowHue]), ch = colourTint(hue: p[SplitToneKeys.highHue])
        let y = try image.luminance()
        let t = try y.signedPower(1 / 2.2).linear(multiply: [1], add: [p[SplitToneKeys.balance] / 200]).clamped01()
        let ws = try t.linear(multiply: [-1], add: [1]).call("math2_const", [("math2", .string("pow")), ("c", .doubles([2]))])
        let wh = try t.call("math2_const", [("math2", .string("pow")), ("c", .doubles([2]))])
        let shadow = try ws.linear(multiply: cs.map { ss * ($0 - 1) }, add: [0, 0, 0])
        let highlight = try wh.linear(multiply: ch.map { hs * ($0 - 1) }, add: [0, 0, 0])
        return try image.adding(try shadow.adding(highlight).multiplied(by: y))
    }
}

/// The linear RGB of a fully saturated hue (HSV hue in degrees, S = V = 1,
/// decoded with gamma 2.2), scaled to Rec. 709 luminance 1.
fileprivate func colourTint(hue: Double) -> [Double] {
    let h = (hue.truncatingRemainder(dividingBy: 360) + 360).truncatingRemainder(dividingBy: 360) / 60
    let x = 1 - abs(h.truncatingRemainder(dividingBy: 2) - 1)
    let encoded: [Double]
    switch Int(h) {
    case 0: encoded = [1, x, 0]
    case 1: encoded = [x, 1, 0]
    case 2: encoded = [0, 1, x]
    case 3: encoded = [0, x, 1]
    case 4: encoded = [x, 0, 1]
    default: encoded = [1, 0, x]
    }
    let linear = encoded.map { Foundation.pow($0, 2.2) }
    let l = ColourMath.luminance
    let y = linear[0] * l[0] + linear[1] * l[1] + linear[2] * l[2]
    return linear.map { $0 / y }
}
