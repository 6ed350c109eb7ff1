import Foundation

extension Filters {
    /// The eight colour ranges of `hsl` and their centres on the colour wheel
    /// (HSV-like hue of the perceptual RGB, as Lightroom's HSL panel).
    static let hslRanges: [(name: String, centre: Double)] = [
        ("red", 0), ("orange", 30), ("yellow", 60), ("green", 120), ("aqua", 180), ("blue", 240), ("purple", 270), ("magenta", 300),
    ]

    /// The parameters of `hsl`, read through these keys: three per colour range.
    enum HSLKeys {
        /// The keys of one colour range (`red_h`, `red_s`, `red_l`).
        struct RangeKeys: Sendable {
            /// The range's name (`red`…).
            let name: String
            let hue, saturation, luminance: ParameterKey<Double>

            init(_ name: String) {
                self.name = name
                hue = .number("\(name)_h", -100...100, default: 0, "hue shift of the \(name)s: ±100 turns them by ±30° (towards the next range)")
                saturation = .number("\(name)_s", -100...100, default: 0, "saturation of the \(name)s: -100 grey, +100 twice the chroma")
                luminance = .number("\(name)_l", -100...100, default: 0, "luminance of the \(name)s: ±100 scales their lightness L* by 1 ± 0.5")
            }
        }

        /// In the order of `hslRanges`.
        static let ranges = hslRanges.map { RangeKeys($0.name) }
    }

    /// Hue, saturation and luminance per colour range (Lightroom's HSL panel):
    /// soft hue masks select the range, the change is made in CIE LCh.
    public static let hsl = FilterDefinition(
        id: "hsl", version: 1, stage: .colour, order: 30,
        summary: "hue, saturation and luminance of eight colour ranges (red, orange, yellow, green, aqua, blue, purple, magenta)",
        colourSpace: "CIE LCh(ab) from linear RGB and back (masks by hue on the perceptual RGB colour wheel)",
        keys: HSLKeys.ranges.flatMap { [$0.hue, $0.saturation, $0.luminance] as [any AnyParameterKey] },
        forms: [ChainForm([], "hsl alone resets every range; set ranges by name, e.g. hsl.blue_s=-30,hsl.orange_l=+20")]
    ) { image, p, _ in
        let ranges = Filters.hslRanges
        guard p.values.values.contains(where: { $0 != .number(0) }) else { return image }
        let (hue, _) = try image.colourWheel()
        var dh: Image?, ds: Image?, dl: Image?
        func add(_ sum: Image?, _ term: Image) throws -> Image { try sum.map { try $0.adding(term) } ?? term }
        for (i, range) in ranges.enumerated() {
            let keys = HSLKeys.ranges[i]
            let h = p[keys.hue], s = p[keys.saturation], l = p[keys.luminance]
            if h == 0 && s == 0 && l == 0 { continue }
            let previous = ranges[(i + ranges.count - 1) % ranges.count].centre, next = ranges[(i + 1) % ranges.count].centre
            let mask = try hue.colourHueMask(centre: range.centre,
                                             left: (range.centre - previous + 360).truncatingRemainder(dividingBy: 360),
                                             right: (next - range.centre + 360).truncatingRemainder(dividingBy: 360))
            if h != 0 { dh = try add(dh, try mask.linear(multiply: [h * 0.3], add: [0])) }
            if s != 0 { ds = try add(ds, try mask.linear(multiply: [s / 100], add: [0])) }
            if l != 0 { dl = try add(dl, try mask.linear(multiply: [l / 200], add: [0])) }
        }
        let lch = try image.call("colourspace", [("space", .string("lch")), ("source_space", .string("scrgb"))])
        var lightness = try lch.extractBands(0, count: 1)
        var chroma = try lch.extractBands(1, count: 1)
        var angle = try lch.extractBands(2, count: 1)
        if let dl {
            // Lightness changes only where there is colour: full from C* = 20 up.
            let colourful = try chroma.linear(multiply: [1.0 / 20], add: [0]).clamped01()
            lightness = try lightness.multiplied(by: try dl.multiplied(by: colourful).linear(multiply: [1], add: [1]))
        }
        // The masks add up to at most 1, so the chroma factor is ≥ 0.
        if let ds { chroma = try chroma.multiplied(by: try ds.linear(multiply: [1], add: [1])) }
        if let dh { angle = try angle.adding(dh) }
        let edited = try Vips.image("bandjoin", [("in", .images([lightness, chroma, angle]))])
        let toRGB: [(String, Vips.Argument)] = [("space", .string("scrgb")), ("source_space", .string("lch"))]
        // The change, added to the original: pixels outside every range stay
        // exactly as they were (no round-trip error through LCh).
        let back = try edited.call("colourspace", toRGB), roundTrip = try lch.call("colourspace", toRGB)
        return try image.adding(try back.subtracting(roundTrip))
    }
}
