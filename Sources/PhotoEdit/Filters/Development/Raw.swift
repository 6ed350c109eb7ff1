import Foundation

extension Filters {
    /// The parameters of `raw`, read through these keys.
    enum RawKeys {
        static let wb = ParameterKey.choice("wb", ["as-shot", "auto", "kelvin", "custom"], default: "as-shot",
            "white balance: as shot by the camera, auto (grey world), a light's temperature + tint, or custom multipliers")
        static let temperature = ParameterKey.number("temperature", 2000...25000, default: 5500, unit: "K",
            "with wb=kelvin: the light's colour temperature (Planckian locus); higher = warmer result")
        static let tint = ParameterKey.number("tint", -150...150, default: 0,
            "with wb=kelvin: + a greener light (result more magenta), - a more magenta light; 1 = Δuv 1/3000")
        static let red = ParameterKey.number("red", 0.05...20, default: 1, "with wb=custom: red multiplier (relative to green)")
        static let green = ParameterKey.number("green", 0.05...20, default: 1, "with wb=custom: green multiplier (the others are divided by it)")
        static let blue = ParameterKey.number("blue", 0.05...20, default: 1, "with wb=custom: blue multiplier (relative to green)")
        static let highlights = ParameterKey.choice("highlights", ["clip", "unclip", "blend", "rebuild"], default: "clip",
            "clipped highlights: clip to white, unclip (keep channel values, may turn pink), blend, rebuild from the unclipped channels")
        static let demosaic = ParameterKey.choice("demosaic", ["linear", "vng", "ppg", "ahd", "dcb", "dht", "aahd"], default: "ahd",
            "demosaic algorithm (libraw): bilinear, VNG, PPG, AHD, DCB, DHT, modified AHD")
        static let exposure = ParameterKey.number("exposure", -2...3, default: 0, unit: "EV",
            "exposure applied to the sensor data before demosaic (libraw's exp_shift)")
        static let preserve = ParameterKey.number("preserve", 0...1, default: 0, "with exposure > 0: how much of the highlights to keep from clipping")
        static let black = ParameterKey.number("black", -1...65535, default: -1, step: 1, "black level override in raw units (-1: the file's)")
        static let white = ParameterKey.number("white", -1...65535, default: -1, step: 1, "white (saturation) level override in raw units (-1: the file's)")
        static let denoise = ParameterKey.number("denoise", 0...1000, default: 0, "wavelet noise reduction threshold before demosaic (0: off; 100–1000 typical)")
    }

    /// RAW development: how libraw turns the sensor data into the working
    /// image. Unlike every other filter it does not transform an image: the
    /// renderer reads its parameters and develops the RAW with them
    /// (`RawSettings(parameters:)`), so it only applies to a camera RAW base.
    /// All defaults = the neutral development of the `original` version.
    public static let raw = FilterDefinition(
        id: "raw", version: 1, stage: .development, order: 10,
        summary: "RAW development (libraw): white balance, highlights, demosaic, exposure, levels; RAW photos only",
        colourSpace: "camera RAW data (before the working space)",
        keys: [
            RawKeys.wb, RawKeys.temperature, RawKeys.tint, RawKeys.red, RawKeys.green, RawKeys.blue, RawKeys.highlights, RawKeys.demosaic,
            RawKeys.exposure, RawKeys.preserve, RawKeys.black, RawKeys.white, RawKeys.denoise,
        ],
        forms: [
            ChainForm([], "the neutral development, e.g. raw"),
            ChainForm(named: "wb", ["temperature", "tint"], fixed: ["wb": .text("kelvin")], "a light of K kelvin and a tint, e.g. raw.wb=5200:+10"),
            ChainForm(named: "wb", ["temperature"], fixed: ["wb": .text("kelvin")], "a light of K kelvin, e.g. raw.wb=3200"),
            ChainForm(named: "wb", ["red", "green", "blue"], fixed: ["wb": .text("custom")], "custom multipliers, e.g. raw.wb=2.1:1:1.4"),
        ],
        check: { p in
            let black = p[RawKeys.black], white = p[RawKeys.white]
            if black >= 0 && white >= 0 && white <= black { return "white (\(Int(white))) must be above black (\(Int(black)))" }
            return nil
        },
        normalize: { p in
            // Only the multipliers' ratios matter: keep green at 1.
            var values = p.values
            let green = p[RawKeys.green]
            if green != 1 {
                values[RawKeys.red.name] = .number(JSONValue.canonicalNumber(min(20, max(0.05, p[RawKeys.red] / green))))
                values[RawKeys.blue.name] = .number(JSONValue.canonicalNumber(min(20, max(0.05, p[RawKeys.blue] / green))))
                values[RawKeys.green.name] = .number(1)
            }
            return Parameters(values: values)
        }
    ) { image, _, _ in
        // Developed by the renderer while decoding (see `RawSettings(parameters:)`).
        image
    }
}

extension RawSettings {
    /// The development a `raw` node asks for.
    init(parameters p: Parameters) {
        self.init()
        switch p[Filters.RawKeys.wb] {
        case "auto": whiteBalance = .auto
        case "kelvin": whiteBalance = .kelvin(p[Filters.RawKeys.temperature], p[Filters.RawKeys.tint])
        case "custom": whiteBalance = .multipliers(p[Filters.RawKeys.red], 1, p[Filters.RawKeys.blue], 1)
        default: whiteBalance = .asShot
        }
        highlight = ["clip": 0, "unclip": 1, "blend": 2, "rebuild": 5][p[Filters.RawKeys.highlights]] ?? 0
        quality = ["linear": 0, "vng": 1, "ppg": 2, "ahd": 3, "dcb": 4, "dht": 11, "aahd": 12][p[Filters.RawKeys.demosaic]] ?? 3
        exposureShift = Foundation.pow(2, p[Filters.RawKeys.exposure])
        exposurePreserve = p[Filters.RawKeys.preserve]
        blackLevel = p[Filters.RawKeys.black] >= 0 ? Int(p[Filters.RawKeys.black]) : nil
        whiteLevel = p[Filters.RawKeys.white] >= 0 ? Int(p[Filters.RawKeys.white]) : nil
        denoise = p[Filters.RawKeys.denoise]
    }
}
