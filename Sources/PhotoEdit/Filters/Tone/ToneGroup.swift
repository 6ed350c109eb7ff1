import CPhotoEditShim
import Foundation

extension Filters {
    /// The tone filters (highlights, shadows, whites, blacks, levels, curve), registered in `FilterRegistry.standard`.
    static let toneGroup: [FilterDefinition] = [
        Filters.highlights, Filters.shadows, Filters.whites, Filters.blacks, Filters.levels, Filters.curve,
    ]
}

/// Shared arithmetic of the tone filters. All of it is per pixel (no image
/// statistics), so every tone filter is a point filter.
enum ToneMath {
    /// The perceptual encoding the tone filters work in: linear^(1/2.2), as `contrast`.
    static let gamma = 2.2
    /// Keeps the luminance ratio finite near black (linear light, about 0.08
    /// perceptual); see `toneMapLuminance`. Below it, changes are added as grey
    /// rather than scaling colour noise in the darkest tones.
    static let ratioFloor = 0.004
}

/// A luminance tone filter computed in one pass (`Image.toneFused`).
enum FusedTone {
    case contrast, highlights, shadows, whites, blacks

    var kind: Int32 {
        switch self {
        case .contrast: return Int32(PE_TONE_CONTRAST)
        case .highlights: return Int32(PE_TONE_HIGHLIGHTS)
        case .shadows: return Int32(PE_TONE_SHADOWS)
        case .whites: return Int32(PE_TONE_WHITES)
        case .blacks: return Int32(PE_TONE_BLACKS)
        }
    }
}

extension Image {
    /// Contrast (version 2, `amount`) or highlights, shadows, whites, blacks
    /// (`amount`: their weight's factor) in one libvips pass
    /// (`pe_tone_luminance`): the same bits as the filter's graph of libvips
    /// operations (`contrastGraph`, `highlightsGraph`, …), without its two to
    /// three dozen intermediate images (their CPU time on a preview, their
    /// strip buffers in a streamed render). nil when the image is not 3-band
    /// float: the graph then. `preview` (a render at reduced scale, whose
    /// pixels no version fixes): `powf` instead of `pow`, ~2.5× quicker and
    /// within a float ulp or so of the graph (ToneFusionTests bounds it), as
    /// previews evaluate masks per pixel.
    func toneFused(_ tone: FusedTone, _ amount: Double, preview: Bool = false) throws -> Image? {
        guard bands == 3, formatName == "float" else { return nil }
        let out = ColourMath.luminance.withUnsafeBufferPointer { pe_tone_luminance(pointer, tone.kind, amount, $0.baseAddress, preview ? 1 : 0) }
        guard let out else { throw Vips.error("tone") }
        return Image(owning: out)
    }

    /// Applies a tone function to the luminance only, keeping each pixel's
    /// chromaticity. `map` receives the perceptual luminance L = Y^(1/2.2)
    /// (one band) and returns L'; with Y' = L'^2.2 each pixel becomes
    ///
    ///     RGB' = RGB · r + (Y' − Y · r),   r = (Y' + ε) / (max(Y, 0) + ε),  ε = 0.004
    ///
    /// whose luminance is exactly Y'. Well above ε this is (nearly) a pure
    /// scaling, so hue and saturation are kept; towards black, where no ratio
    /// exists, the change is added as grey instead, so lifting pure black
    /// works and dark colour noise is not amplified.
    func toneMapLuminance(_ map: (Image) throws -> Image) throws -> Image {
        let y = try luminance()
        let mappedY = try map(y.signedPower(1 / ToneMath.gamma)).signedPower(ToneMath.gamma)
        let e = ToneMath.ratioFloor
        let ratio = try mappedY.linear(multiply: [1], add: [e]).divided(by: y.clampedAtZero().linear(multiply: [1], add: [e]))
        let grey = try mappedY.subtracting(y.multiplied(by: ratio))
        return try multiplied(by: ratio).adding(grey)
    }

    /// Applies `map` to each channel in the perceptual encoding (linear^(1/2.2)), back to linear.
    func toneMapPerceptual(_ map: (Image) throws -> Image) throws -> Image {
        try map(signedPower(1 / ToneMath.gamma)).signedPower(ToneMath.gamma)
    }
}

extension Image {
    /// L + amount · weight(clamp(L, 0, 1)): the shape shared by highlights,
    /// shadows, whites and blacks (`weight` is built from libvips arithmetic
    /// on the clamped perceptual luminance).
    func toneAddWeighted(_ amount: Double, weight: (Image) throws -> Image) throws -> Image {
        let w = try weight(clamped01())
        return try adding(w.linear(multiply: [amount], add: [0]))
    }

    /// self^n for a small positive integer n, by repeated multiplication (exact for negatives).
    func tonePower(_ n: Int) throws -> Image {
        var out = self
        for _ in 1..<max(1, n) { out = try out.multiplied(by: self) }
        return out
    }
}
