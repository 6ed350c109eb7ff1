import Foundation

extension Filters {
    /// The parameters of `denoise` (both versions), read through these keys.
    enum DenoiseKeys {
        static let luma = ParameterKey.number("luma", 0...100, default: 0, "luminance noise reduction (Lightroom's Luminance): how strongly each wavelet scale's noise is suppressed (about 33: least squares)")
        static let lumaDetail = ParameterKey.number("luma_detail", 0...100, default: 50, "keeps the finest luminance detail (Lightroom's Detail): 50 neutral, more spares the two finest scales, less smooths them harder")
        static let lumaContrast = ParameterKey.number("luma_contrast", 0...100, default: 0, "keeps medium-scale contrast (Lightroom's Contrast): spares the coarser scales")
        static let chroma = ParameterKey.number("chroma", 0...100, default: 0, "colour noise reduction (Lightroom's Color), on the two colour-difference planes")
        static let chromaDetail = ParameterKey.number("chroma_detail", 0...100, default: 50, "keeps fine colour detail (Lightroom's Color Detail): 50 neutral")
        static let chromaSmoothness = ParameterKey.number("chroma_smoothness", 0...100, default: 50, "how coarse the colour blotches removed may be (Lightroom's Color Smoothness): 3 to 6 wavelet scales")
        static let source = ParameterKey.choice("source", ["auto", "profile", "estimate"], default: "auto",
            "where the noise model comes from: auto (the camera's profile when editing, else an estimate), profile (the stored one), estimate (measured on the photo)")
        static let profile = ParameterKey.text("profile", default: "", "the noise profile used (darktable's name, e.g. 'EOS 30D iso 1600'), recorded when the filter is set")
        static let iso = ParameterKey.number("iso", 0...10_000_000, default: 0, "the photo's ISO the profile was interpolated at, recorded")
        static let aR = ParameterKey.number("a_r", 0...0.1, default: 0, "noise model: signal-dependent variance, red (recorded)")
        static let aG = ParameterKey.number("a_g", 0...0.1, default: 0, "noise model: signal-dependent variance, green (recorded)")
        static let aB = ParameterKey.number("a_b", 0...0.1, default: 0, "noise model: signal-dependent variance, blue (recorded)")
        static let bR = ParameterKey.number("b_r", 0...0.1, default: 0, "noise model: constant variance, red (recorded)")
        static let bG = ParameterKey.number("b_g", 0...0.1, default: 0, "noise model: constant variance, green (recorded)")
        static let bB = ParameterKey.number("b_b", 0...0.1, default: 0, "noise model: constant variance, blue (recorded)")
        static let all: [any AnyParameterKey] = [
            luma, lumaDetail, lumaContrast, chroma, chromaDetail, chromaSmoothness, source, profile, iso, aR, aG, aB, bR, bG, bB,
        ]
        /// The recorded noise model: a (signal-dependent) and b (constant) variance of red, green, blue.
        static let model = [aR, aG, aB, bR, bG, bB]
    }

    /// Profiled noise reduction (issue 39): Lightroom's manual noise
    /// reduction (Luminance with Detail and Contrast; Color with Detail and
    /// Smoothness) on darktable's noise model.
    ///
    /// The noise of each channel is taken as Poisson–Gaussian, variance
    /// a·x + b (x linear, 1 = white), from the camera's measured profile
    /// (darktable's `noiseprofiles.json`, for the photo's make, model and
    /// ISO; its name and a, b are stored in the recipe), or estimated from
    /// the photo's flattest regions. A generalised Anscombe transform makes
    /// the noise uniform; luminance and two colour differences are split
    /// into à-trous wavelet scales whose details are shrunk by a locally
    /// adaptive Wiener gain (the signal's variance around each pixel against
    /// the noise of that scale); the transform is inverted. Previews scale the variance by scale², the
    /// noise left after averaging, and skip the full size's finest wavelet
    /// scales (below their pixels): each of their scales takes the strength
    /// of the full size's scale it shows, so a preview looks like the full
    /// render reduced.
    ///
    /// Version 2, on a RAW, works in the camera's own RGB — linear, white
    /// balanced, demosaiced, before the colour matrix (the space darktable's
    /// profiles describe, where the channels' noise is independent) — and
    /// records the profile's own values (raw units); the renderer scales them
    /// by the white balance multipliers and exposure the development applied
    /// (`cameraNoise`), then applies the colour matrix. On other files, as
    /// version 1, on the linear working space (its noise estimated).
    public static let denoise = FilterDefinition(
        id: "denoise", version: 2, stage: .denoise, order: 5,
        summary: "profiled noise reduction: variance-stabilised wavelet shrinkage of luminance and colour, by the camera's noise profile or an estimate",
        colourSpace: "a RAW's linear camera RGB before the colour matrix (else linear RGB), variance-stabilised per channel (generalised Anscombe), as luminance and two colour differences",
        keys: DenoiseKeys.all,
        forms: [
            ChainForm([], fixed: defaultStrengths,
                      "denoise alone: luminance \(JSONValue.format(defaultLuma)), colour \(JSONValue.format(defaultChroma)), with the camera's profile (else an estimate)"),
            ChainForm(["source"], fixed: defaultStrengths,
                      "the noise model's source at the default strengths: denoise=auto (the camera's profile, else an estimate), denoise=estimate"),
            ChainForm(["luma", "chroma"], "luminance and colour strengths, e.g. denoise=60:40"),
            ChainForm(["luma", "chroma", "source"], "strengths and the source, e.g. denoise=60:40:estimate"),
            ChainForm(named: "luma", ["luma", "luma_detail"], "luminance and its detail, e.g. denoise.luma=60:70"),
            ChainForm(named: "luma", ["luma", "luma_detail", "luma_contrast"], "luminance, detail and contrast, e.g. denoise.luma=60:70:20"),
            ChainForm(named: "chroma", ["chroma", "chroma_detail"], "colour and its detail, e.g. denoise.chroma=40:50"),
            ChainForm(named: "chroma", ["chroma", "chroma_detail", "chroma_smoothness"], "colour, detail and smoothness, e.g. denoise.chroma=40:50:70"),
        ],
        legacy: [
            LegacyVersion(version: 1, keys: DenoiseKeys.all,
                          note: "v2 denoises a RAW in camera RGB before the colour matrix and records the profile's raw values (v1 recorded them carried into the working space, and ran after the matrix); a recorded v1 model is dropped (source auto: found again)",
                          changesRendering: true,
                          migrate: { p in
                              var values = p.values
                              if p[DenoiseKeys.source] == "profile" {
                                  values[DenoiseKeys.source.name] = .text("auto")
                                  for key in DenoiseKeys.model { values[key.name] = .number(0) }
                                  values[DenoiseKeys.profile.name] = .text("")
                                  values[DenoiseKeys.iso.name] = .number(0)
                              }
                              return values
                          },
                          render: { image, p, context in
                              let settings = Denoiser.Settings(p)
                              if !settings.isActive { return image }
                              return try Denoiser.apply(image, model: NoiseModel(p)?.reduced(by: context.scale), settings: settings,
                                                        scale: context.scale)
                          }),
        ],
        recorded: ["profile", "iso", "a_r", "a_g", "a_b", "b_r", "b_g", "b_b"]
    ) { image, p, context in
        // A RAW is denoised in camera RGB while it is developed
        // (`Renderer.developDenoised`); here the image is in the working
        // space already (a rendered file, or a local correction): a recorded
        // profile's raw values do not describe it, so its noise is estimated.
        let settings = Denoiser.Settings(p)
        if !settings.isActive { return image }
        return try Denoiser.apply(image, model: nil, settings: settings, scale: context.scale)
    }

    /// A camera-RGB profile (darktable's values: variance a·x + b of raw
    /// values x, 0…1 of white − black, before white balance) carried to the
    /// development the renderer denoises: each channel c scaled by the white
    /// balance multiplier w_c libraw applied and the RAW's linear exposure k,
    /// y = k·w_c·x, so var(y) = k·w_c·a_c·y + (k·w_c)²·b_c; then the variance
    /// left after averaging: libraw's half-size decode averages the two
    /// greens of each Bayer block (green's variance halved; red and blue are
    /// single samples), and a reduction by `scale` of the development
    /// averages 1/scale² pixels.
    ///
    /// darktable's own denoise (profiled) takes green's a and b for all
    /// three channels, each times its white balance coefficient (a·w_c and
    /// b·w_c: its wavelets' `compute_wb_factors`) and times the zoom scale;
    /// here each channel keeps its measured values and the read noise scales
    /// with the gain squared, as a variance does.
    static func cameraNoise(_ profile: NoiseModel, multipliers w: [Double], exposure k: Double, halfSize: Bool, scale: Double) -> NoiseModel {
        let green = halfSize ? 0.5 : 1
        let a = (0..<3).map { k * w[$0] * profile.a[$0] * ($0 == 1 ? green : 1) }
        let b = (0..<3).map { k * k * w[$0] * w[$0] * profile.b[$0] * ($0 == 1 ? green : 1) }
        return NoiseModel(a: a, b: b).reduced(by: scale)
    }

    /// The strengths `denoise` and `denoise=SOURCE` set (the parameters'
    /// defaults are 0, the identity): where the noise of flat areas falls
    /// at least threefold while edges stay within 10 % of their width.
    static let defaultLuma = 50.0, defaultChroma = 50.0
    static let defaultStrengths: [String: ParameterValue] = [
        DenoiseKeys.luma.name: .number(defaultLuma), DenoiseKeys.chroma.name: .number(defaultChroma),
    ]
}

extension Denoiser.Settings {
    private typealias K = Filters.DenoiseKeys

    /// Does it change anything (a strength above 0)?
    var isActive: Bool { luma > 0 || chroma > 0 }

    /// The `denoise` filter's settings (0…100 → 0…1).
    init(_ p: Parameters) {
        self.init(luma: p[K.luma] / 100, lumaDetail: p[K.lumaDetail] / 100, lumaContrast: p[K.lumaContrast] / 100,
                  chroma: p[K.chroma] / 100, chromaDetail: p[K.chromaDetail] / 100,
                  chromaSmoothness: p[K.chromaSmoothness] / 100)
    }
}

extension NoiseModel {
    private typealias K = Filters.DenoiseKeys

    /// The model a `denoise` node of source `profile` records; nil otherwise
    /// (or when it is all zero), so that it is estimated on the image rendered.
    init?(_ p: Parameters) {
        let model = NoiseModel(a: [p[K.aR], p[K.aG], p[K.aB]],
                               b: [p[K.bR], p[K.bG], p[K.bB]])
        if p[K.source] != "profile" || model.isZero { return nil }
        self = model
    }
}
