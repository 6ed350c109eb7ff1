import Foundation

/// The concrete settings `auto` writes into a recipe: white balance, exposure
/// and tone, and vibrance, each the value of one ordinary filter (so the
/// recipe renders the same forever and every value can be adjusted).
public struct AutoAdjustment: Hashable, Sendable {
    /// `temperature` (mired), `tint`, `exposure` (EV), `contrast`,
    /// `highlights`, `shadows`, `whites`, `blacks`, `vibrance`, by filter id;
    /// 0 means the filter is left out.
    public var values: [String: Double]

    /// The value for filter `id` (0 when auto does not set it).
    public subscript(id: String) -> Double { values[id] ?? 0 }

    /// The settings as chain text, in pipeline order, leaving out zeros
    /// (`temperature=+12,exposure=+0.85,…`); "" when nothing is needed.
    public var chain: String {
        AutoAdjust.filters.compactMap { id in
            guard let v = values[id], v != 0 else { return nil }
            return "\(id)=\(v > 0 ? "+" : "")\(JSONValue.format(v))"
        }.joined(separator: ",")
    }

    /// `recipe` with every filter auto sets replaced by these values
    /// (filters at 0 removed); the recipe's other filters are kept.
    public func applied(to recipe: Recipe, registry: FilterRegistry = .standard) throws -> Recipe {
        var out = recipe
        for id in AutoAdjust.filters { out.remove(id) }
        let text = chain
        return text.isEmpty ? out : try Chain.apply(Chain.parse(text), to: out, registry: registry)
    }
}

/// Automatic adjustment (`auto` in a chain, `photoedit apply auto ID`), like
/// Lightroom's Auto and Core Image's auto-adjustment filters: measures the
/// photo and chooses values for ordinary filters. Deterministic: the same
/// pixels give the same values.
///
/// On a copy of at most 512 px on the long edge, in linear RGB:
///
/// 1. White balance: the illuminant is the mean colour of the brightest 2 %
///    of the pixels that are not nearly black and not clipped in only some
///    channels (white patch);
///    `temperature` and `tint` are the whole numbers (tint within ±20) whose
///    matrices map it closest to grey.
/// 2. Exposure: EV = 2.2 · log2(0.46 / mean L), L = Y^(1/2.2) of the balanced
///    pixels clamped to 0…1, rounded to 0.05 EV, within ±4 EV.
/// 3. Tone, from the distribution of L after exposure: `whites` brings the
///    99.5th percentile to 0.96, `blacks` the 0.5th percentile to 0.02;
///    `highlights` recovers when more than 5 % is above 0.9, `shadows`
///    lifts when more than 15 % is below 0.2; `contrast` moves the standard
///    deviation halfway to 0.21. 4. `vibrance` lifts a dull photo (mean
///    saturation below 0.3). Every value is bounded (see docs/chain-grammar.md).
public enum AutoAdjust {
    /// The filters auto sets, in pipeline order.
    public static let filters = ["temperature", "tint", "exposure", "contrast", "highlights", "shadows", "whites", "blacks", "vibrance"]
    /// The long edge of the copy that is measured.
    static let analysisLongEdge = 512.0
    /// The mean perceptual luminance exposure aims at.
    static let targetMean = 0.46

    /// Measures a working-space image (linear RGB, three bands) and returns the settings.
    public static func analyse(_ working: Image) throws -> AutoAdjustment {
        let factor = max(1, Double(max(working.width, working.height)) / analysisLongEdge)
        let (w, h) = GuidedFilter.lowSize(working, factor: factor)
        let small = try working.resizedExactly(width: w, height: h).cast("float")
        let floats = try small.pixelBytes().withUnsafeBytes { Array($0.bindMemory(to: Float.self)) }
        let rgb = stride(from: 0, to: floats.count - 2, by: 3).map { [Double(floats[$0]), Double(floats[$0 + 1]), Double(floats[$0 + 2])] }
        guard !rgb.isEmpty else { return AutoAdjustment(values: [:]) }

        // 1. White balance.
        let illuminant = estimateIlluminant(rgb, width: w, height: h)
        let (temperature, tint) = whiteBalance(for: illuminant)
        let m = ColourMath.multiply(Filters.tintMatrix(tint), Filters.temperatureMatrix(temperature))
        let balanced = rgb.map { ColourMath.apply(m, $0) }

        // 2. Exposure, on perceptual luminance.
        let l0 = balanced.map { perceptual(luminance($0)) }
        let mean0 = l0.reduce(0) { $0 + min(1, max(0, $1)) } / Double(l0.count)
        var ev = mean0 > 1e-4 ? 2.2 * log2(targetMean / mean0) : 4
        ev = min(4, max(-4, (ev / 0.05).rounded() * 0.05))
        let gain = pow(2, ev / 2.2)
        let l = l0.map { $0 * gain }.sorted()

        // 3. Tone.
        func percentile(_ q: Double) -> Double { l[min(l.count - 1, max(0, Int((q * Double(l.count - 1)).rounded())))] }
        func fraction(_ test: (Double) -> Bool) -> Double { Double(l.filter(test).count) / Double(l.count) }
        let p995 = percentile(0.995), p005 = percentile(0.005)
        var whites = 0.0, blacks = 0.0, highlights = 0.0, shadows = 0.0
        if p995 < 0.96 { whites = min(40, (0.96 - p995) * 400) } else if p995 > 1 { whites = -min(30, (p995 - 1) * 400) }
        if p005 > 0.04 { blacks = -min(30, (p005 - 0.02) * 400) }
        let bright = fraction { $0 > 0.9 }, dark = fraction { $0 < 0.2 }
        if bright > 0.05 { highlights = -min(60, (bright - 0.05) * 300) }
        if dark > 0.15 { shadows = min(50, (dark - 0.15) * 200) }
        let meanL = l.reduce(0) { $0 + min(1, $1) } / Double(l.count)
        let sd = (l.reduce(0) { $0 + pow(min(1, $1) - meanL, 2) } / Double(l.count)).squareRoot()
        var contrast = 0.0
        if sd > 1e-3 {
            let k = 0.21 / sd
            contrast = min(30, max(-30, 0.5 * (k >= 1 ? (k - 1) * 100 : -(1 / k - 1) * 100)))
        }

        // 4. Vibrance, from the mean saturation of mid-tone pixels.
        var saturationSum = 0.0, counted = 0.0
        for (pixel, lum) in zip(balanced, l0) where (0.1...0.95).contains(lum * gain) {
            let p = pixel.map { perceptual(max(0, $0)) }
            let high = p.max()!, low = p.min()!
            if high > 0 { saturationSum += (high - low) / high; counted += 1 }
        }
        let saturation = counted > 0 ? saturationSum / counted : 0.3
        let vibrance = saturation < 0.3 ? min(30, (0.3 - saturation) / 0.3 * 50) : 0

        var values: [String: Double] = [:]
        let whole: [(String, Double)] = [("temperature", temperature), ("tint", tint), ("contrast", contrast), ("highlights", highlights),
                                         ("shadows", shadows), ("whites", whites), ("blacks", blacks), ("vibrance", vibrance)]
        for (id, v) in whole where v.rounded() != 0 { values[id] = v.rounded() }
        if ev != 0 { values["exposure"] = ev }
        return AutoAdjustment(values: values)
    }

    static func luminance(_ p: [Double]) -> Double { ColourMath.luminance[0] * p[0] + ColourMath.luminance[1] * p[1] + ColourMath.luminance[2] * p[2] }
    static func perceptual(_ y: Double) -> Double { pow(max(0, y), 1 / 2.2) }

    /// The light's colour (linear RGB, green = 1): the mean of the brightest
    /// 2 % of the usable pixels (not nearly black, and either clipped in no
    /// channel or in all three) — whites and
    /// speculars reflect the light most faithfully ("white patch"). Grey-world
    /// and grey-edge were tried and follow a photo's dominant colour (an
    /// orange cat, a wooden table) far more (docs/benchmarks.md, "Auto").
    static func estimateIlluminant(_ rgb: [[Double]], width: Int, height: Int) -> [Double] {
        // Clipped in every channel is white (a clipped sky, a blown-out cup);
        // clipped in some channels only says nothing about the light.
        let usable = rgb.filter { p in (p.max()! < 0.95 || p.min()! >= 0.95) && luminance(p) > 0.01 }
        guard !usable.isEmpty else { return [1, 1, 1] }
        // Brightest first; equal luminance in reading order (a stable sort): deterministic.
        let order = usable.indices.sorted { (luminance(usable[$1]), $0) < (luminance(usable[$0]), $1) }
        let top = order.prefix(max(1, usable.count / 50))
        var sum = [0.0, 0.0, 0.0]
        for i in top { for c in 0..<3 { sum[c] += usable[i][c] } }
        return sum[1] > 0 ? sum.map { $0 / sum[1] } : [1, 1, 1]
    }

    /// The `temperature` (mired, within ±100) and `tint` (within ±20: casts
    /// follow the Planckian locus far more than the green–magenta axis, and a
    /// wider tint chased coloured highlights), whole numbers, whose matrices
    /// map `illuminant` closest to grey.
    static func whiteBalance(for illuminant: [Double]) -> (Double, Double) {
        func error(_ t: Double, _ n: Double) -> Double {
            let v = ColourMath.apply(ColourMath.multiply(Filters.tintMatrix(n), Filters.temperatureMatrix(t)), illuminant)
            guard v[1] > 0 else { return .infinity }
            return pow(v[0] / v[1] - 1, 2) + pow(v[2] / v[1] - 1, 2)
        }
        func search(_ ts: [Double], _ ns: [Double], from start: (Double, Double)) -> (Double, Double) {
            var best = start, bestError = error(start.0, start.1)
            for t in ts where abs(t) <= 100 {
                for n in ns where abs(n) <= 20 {
                    let e = error(t, n)
                    if e < bestError - 1e-12 { (best, bestError) = ((t, n), e) }
                }
            }
            return best
        }
        let coarse = search(stride(from: -100.0, through: 100, by: 4).map { $0 }, stride(from: -20.0, through: 20, by: 4).map { $0 }, from: (0, 0))
        return search((-4...4).map { coarse.0 + Double($0) }, (-4...4).map { coarse.1 + Double($0) }, from: coarse)
    }
}
