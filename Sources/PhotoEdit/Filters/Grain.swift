import Foundation

extension Filters {
    /// Grain: seeded gaussian luminance noise (libvips `gaussnoise` with its
    /// `seed`), so a recipe renders the same pixels every time.
    ///
    /// n is unit gaussian noise drawn at 1/size of the resolution and
    /// enlarged (bilinear) so grains are about `size` pixels across; the
    /// pixels are multiplied by 2^(0.5 · amount/100 · n): a change of
    /// exposure, the same on the three channels, that shows as much in the
    /// shadows as in the highlights (amount 100 has a spread of ±0.5 EV).
    public static let grain = FilterDefinition(
        id: "grain", version: 1, stage: .effects, order: 20,
        summary: "film-like luminance grain, seeded so the same recipe gives the same pixels",
        colourSpace: "linear RGB (multiplicative, as an exposure change per pixel)",
        parameters: [
            .number("amount", 0...100, default: 0, "strength: 100 gives a standard deviation of 0.5 EV"),
            .number("size", 1...10, default: 1.5, unit: "px", "grain size, in pixels of the full-size image"),
            .number("seed", 0...2_147_483_647, default: 0, step: 1, "random seed: another seed gives another grain pattern"),
        ],
        forms: [
            ChainForm(["amount"], "e.g. grain=25"),
            ChainForm(["amount", "size"], "amount and size, e.g. grain=25:2"),
            ChainForm(["amount", "size", "seed"], "amount, size and seed, e.g. grain=25:2:7"),
        ]
    ) { image, p, context in
        let amount = p.number("amount") / 100
        if amount == 0 { return image }
        let size = max(1, p.number("size") * context.scale)
        let (w, h) = (image.width, image.height)
        let (nw, nh) = (Int((Double(w) / size).rounded(.up)) + 2, Int((Double(h) / size).rounded(.up)) + 2)
        var noise = try Vips.image("gaussnoise", [("width", .number(Double(nw))), ("height", .number(Double(nh))),
                                                  ("mean", .number(0)), ("sigma", .number(1)),
                                                  ("seed", .number(Double(Int32(truncatingIfNeeded: Int(p.number("seed"))))))])
        if size > 1 {
            noise = try noise.call("resize", [("scale", .number(size)), ("kernel", .string("linear"))])
        }
        noise = try noise.extractArea(left: 0, top: 0, width: w, height: h)
        let gain = try noise.linear(multiply: [0.5 * amount * Foundation.log(2)], add: [0]).call("math", [("math", .string("exp"))])
        return try image.multiplied(by: gain)
    }
}
