import CPhotoEditShim
import Foundation

extension Filters {
    /// The presence filters (dehaze, texture, clarity), registered in `FilterRegistry.standard`.
    /// They run in the tone stage: dehaze first (order 5, before contrast, on
    /// linear scene light), texture (75) and clarity (80) after the curve.
    static let presenceGroup: [FilterDefinition] = [Filters.dehaze, Filters.texture, Filters.clarity]

    /// Clarity: local contrast at a large radius, on the mid-tones.
    ///
    /// L = Y^(1/2.2) (perceptual luminance); B = the edge-preserving base of
    /// L, a guided filter of L by itself (gaussian window of sigma `radius`,
    /// ε = 0.01, so edges steeper than about 0.1 in L stay in the base and
    /// make no halo); D = L − B, softly bounded as D / (1 + |D| / 0.2);
    /// w = 1 − (2·clamp(B) − 1)⁴, a mid-tone weight; L' = L + amount/100 · w · D.
    /// The RGB channels follow the luminance as in the tone filters
    /// (`toneMapLuminance`), so hue and saturation are kept. The guided filter
    /// runs at a reduced size (its window about 4 px there) and its
    /// coefficients are interpolated back (He & Sun's fast guided filter).
    /// Negative amounts flatten towards the base (a soft, "glow" look).
    /// Version 2 reduces by block means and computes the full-size part in
    /// one pass (`Presence.fusedLocalContrast`). Version 3 computes the
    /// guided filter on the reduced copy in one C call, as texture 3, and —
    /// in a full-size render of a photo the engine can decode at reduced
    /// size (a JPEG), for a radius of 30 px or more — makes the reduced
    /// copy from that decode through the earlier filters
    /// (`RenderContext.reducedInput`): the full-size pass then reads its
    /// input once, top to bottom, while it is decoded.
    public static let clarity = FilterDefinition(
        id: "clarity", version: 3, stage: .tone, order: 80,
        summary: "local contrast at a large radius on the mid-tones, edge-aware (guided filter); negative softens",
        colourSpace: "perceptual luminance (Rec. 709 Y ^ 1/2.2); RGB follows the luminance in linear light",
        keys: ClarityKeys.all,
        forms: [
            ChainForm(["amount"], "e.g. clarity=+30"),
            ChainForm(["amount", "radius"], "amount and radius, e.g. clarity=+30:80"),
        ],
        legacy: [
            LegacyVersion(version: 1, keys: ClarityKeys.all, note: Presence.versionTwoNote, changesRendering: true,
                          render: { image, p, context in
                              try Presence.localContrast(image, amount: p[ClarityKeys.amount] / 100, sigma: p[ClarityKeys.radius] * context.scale,
                                                         eps: 0.01, lowSigma: 4, limit: 0.2, midTones: true)
                          }),
            LegacyVersion(version: 2, keys: ClarityKeys.all, note: Presence.clarityVersionThreeNote, changesRendering: true,
                          needsRandomAccess: { $0[ClarityKeys.amount] != 0 },
                          render: { image, p, context in
                              try Presence.fusedLocalContrast(image, amount: p[ClarityKeys.amount] / 100, sigma: p[ClarityKeys.radius] * context.scale,
                                                              eps: 0.01, lowSigma: 4, limit: 0.2, midTones: true)
                          }),
        ],
        needsRandomAccess: { $0[ClarityKeys.amount] != 0 },
        // Blocks of at least the reduced decode's shrink: the reduced copy is no larger than that decode.
        usesReducedInput: { $0[ClarityKeys.amount] != 0 && Presence.block(sigma: $0[ClarityKeys.radius], lowSigma: 4) >= Renderer.reducedInputShrink }
    ) { image, p, context in
        try Presence.fusedLocalContrast(image, amount: p[ClarityKeys.amount] / 100, sigma: p[ClarityKeys.radius] * context.scale, eps: 0.01,
                                        lowSigma: 4, limit: 0.2, midTones: true, fusedCoefficients: true, reducedInput: context.reducedInput)
    }.inPanel(.basic, section: "Presence")

    /// The parameters of `clarity` (every version), read through these keys.
    enum ClarityKeys {
        static let amount = ParameterKey.number("amount", -100...100, default: 0, unit: "%", "strength: +100 doubles the mid-tone local contrast, −100 removes it")
        static let radius = ParameterKey.number("radius", 5...500, default: 50, unit: "px", "size of the neighbourhood (gaussian sigma), in pixels of the full-size image")
        static let all: [any AnyParameterKey] = [amount, radius]
    }

    /// Texture: detail at a small radius (skin, foliage, fabric), edge-aware.
    ///
    /// As `clarity` at a smaller scale and on every tone: B = guided filter of
    /// L by itself (sigma `radius`, ε = 0.004), D = L − B bounded as
    /// D / (1 + |D| / 0.1), L' = L + amount/100 · D. Negative amounts smooth
    /// the texture towards B (−100 gives B), sparing edges. Version 2 works
    /// as clarity's, its guided filter on blocks of about radius / 1.5 px.
    /// Version 3 computes that guided filter in one C call
    /// (`pe_self_guided_coefficients`: its own separable gaussian window on
    /// plain arrays) instead of libvips operations: the same filter, cheaper
    /// (issue 26's cost goal), rendering slightly differently. Since then
    /// (the same pixels, to the bit) that filter is streamed: its reduced
    /// copy and coefficients are made row by row just ahead of the full-size
    /// pass (`pe_self_guided_local_contrast`), so texture reads its input top
    /// to bottom once and needs no random access for radii of 2.25 to 9 px
    /// (`Presence.streams`; a smaller radius is version 1's graph, a larger
    /// one would read too far ahead: both still ask for it).
    public static let texture = FilterDefinition(
        id: "texture", version: 3, stage: .tone, order: 75,
        summary: "medium-scale detail, edge-aware (guided filter): positive enhances texture, negative smooths it",
        colourSpace: "perceptual luminance (Rec. 709 Y ^ 1/2.2); RGB follows the luminance in linear light",
        keys: TextureKeys.all,
        forms: [
            ChainForm(["amount"], "e.g. texture=+25"),
            ChainForm(["amount", "radius"], "amount and radius, e.g. texture=-40:6"),
        ],
        legacy: [
            LegacyVersion(version: 1, keys: TextureKeys.all, note: Presence.versionTwoNote, changesRendering: true,
                          needsRandomAccess: { $0[TextureKeys.amount] != 0 },
                          render: { image, p, context in
                              try Presence.localContrast(image, amount: p[TextureKeys.amount] / 100, sigma: p[TextureKeys.radius] * context.scale,
                                                         eps: 0.004, lowSigma: 2, limit: 0.1, midTones: false)
                          }),
            LegacyVersion(version: 2, keys: TextureKeys.all, note: Presence.textureVersionThreeNote, changesRendering: true,
                          needsRandomAccess: { $0[TextureKeys.amount] != 0 },
                          render: { image, p, context in
                              try Presence.fusedLocalContrast(image, amount: p[TextureKeys.amount] / 100, sigma: p[TextureKeys.radius] * context.scale,
                                                              eps: 0.004, lowSigma: 1.5, limit: 0.1, midTones: false)
                          }),
        ],
        // Streamed (top to bottom) unless the radius leaves no block to
        // reduce by or reads too far ahead (at full size; previews render from memory).
        needsRandomAccess: { $0[TextureKeys.amount] != 0 && !Presence.streams(sigma: $0[TextureKeys.radius], lowSigma: 1.5) }
    ) { image, p, context in
        let sigma = p[TextureKeys.radius] * context.scale
        guard Presence.streams(sigma: sigma, lowSigma: 1.5) else {
            return try Presence.fusedLocalContrast(image, amount: p[TextureKeys.amount] / 100, sigma: sigma, eps: 0.004, lowSigma: 1.5,
                                                   limit: 0.1, midTones: false, fusedCoefficients: true)
        }
        return try Presence.streamedLocalContrast(image, amount: p[TextureKeys.amount] / 100, sigma: sigma,
                                                  eps: 0.004, lowSigma: 1.5, limit: 0.1, midTones: false)
    }.inPanel(.basic, section: "Presence")

    /// The parameters of `texture` (every version), read through these keys.
    enum TextureKeys {
        static let amount = ParameterKey.number("amount", -100...100, default: 0, unit: "%", "strength: +100 doubles the texture, −100 smooths it away")
        static let radius = ParameterKey.number("radius", 1...50, default: 4, unit: "px", "size of the texture (gaussian sigma), in pixels of the full-size image")
        static let all: [any AnyParameterKey] = [amount, radius]
    }
}

/// Shared arithmetic of the presence filters.
enum Presence {
    /// What version 2 of clarity, texture and dehaze changed.
    static let versionTwoNote = "v2 reduces by block means and renders the full-size part in one fused pass (faster), the coefficients interpolated between block centres: renders slightly differently"
    /// What version 3 of clarity changed.
    static let clarityVersionThreeNote = "v3 computes the guided filter on the reduced copy in one C pass (its own gaussian window) and, in full-size renders of JPEGs, makes that copy from the photo decoded at 1/8 size, so the full-size pass reads its input once, in order (faster): renders slightly differently"
    /// What version 3 of texture changed.
    static let textureVersionThreeNote = "v3 computes the guided filter on the reduced copy in one C pass (its own gaussian window; faster): renders slightly differently"

    /// Clarity and texture: L' = L + amount · w · bounded(L − B), B the
    /// guided filter of the perceptual luminance L by itself (window sigma
    /// `sigma`, ε `eps`, worked at the size where the sigma is `lowSigma`),
    /// w = 1 − (2B − 1)⁴ with `midTones`, else 1; RGB follows the luminance.
    /// The reduced L is made from the reduced image (one full-size pass fewer).
    static func localContrast(_ image: Image, amount: Double, sigma: Double, eps: Double, lowSigma: Double,
                              limit: Double, midTones: Bool) throws -> Image {
        if amount == 0 { return image }
        let sigma = max(0.5, sigma)
        let factor = max(1, sigma / lowSigma)
        let (w, h) = GuidedFilter.lowSize(image, factor: factor)
        let low = factor > 1 ? try image.resizedExactly(width: w, height: h).luminance().signedPower(1 / ToneMath.gamma).inMemory() : nil
        return try image.toneMapLuminance { l in
            let base = try GuidedFilter.filter(guideLow: low ?? l, inputLow: low ?? l, guide: l, sigma: sigma / factor, eps: eps,
                                               inMemory: low != nil)
            var detail = try bounded(l.subtracting(base), limit: limit)
            if midTones {
                let t = try base.clamped01().linear(multiply: [2], add: [-1])
                let t2 = try t.multiplied(by: t)
                detail = try detail.multiplied(by: t2.multiplied(by: t2).linear(multiply: [-1], add: [1]))
            }
            return try l.adding(detail.linear(multiply: [amount], add: [0]))
        }
    }

    /// Version 2 of clarity and texture: the same arithmetic with two
    /// passes over the full-size image. The reduced L is the mean luminance
    /// of `block`×`block` blocks, block = round(sigma / lowSigma), raised to
    /// 1/2.2 (`pe_block_means`: one pass of sums); the guided filter's
    /// coefficients are made there by libvips (window sigma / block); then
    /// `pe_local_contrast` interpolates them bilinearly between the block
    /// centres and does the rest per pixel in one pass. A block below 2
    /// (a sigma under twice `lowSigma`) leaves nothing to reduce: version 1's graph.
    /// `fusedCoefficients` (texture version 3): the guided filter's
    /// coefficients by `pe_self_guided_coefficients` (one C call) instead
    /// of libvips operations.
    /// `reducedInput` (clarity version 3, blocks of at least its shrink):
    /// the reduced luminance is its luminance resized (bilinear) to the
    /// block grid, raised to 1/2.2, instead of block means of `image`, which
    /// is then read once.
    static func fusedLocalContrast(_ image: Image, amount: Double, sigma: Double, eps: Double, lowSigma: Double,
                                   limit: Double, midTones: Bool, fusedCoefficients: Bool = false, reducedInput: Image? = nil) throws -> Image {
        if amount == 0 { return image }
        let sigma = max(0.5, sigma)
        let block = block(sigma: sigma, lowSigma: lowSigma)
        guard block >= 2 else {
            return try localContrast(image, amount: amount, sigma: sigma, eps: eps, lowSigma: lowSigma, limit: limit, midTones: midTones)
        }
        let low: Image
        if let reduced = reducedInput, block >= Renderer.reducedInputShrink {
            let (w, h) = ((image.width + block - 1) / block, (image.height + block - 1) / block)
            low = try reduced.luminance().resizedExactly(width: w, height: h).signedPower(1 / ToneMath.gamma).cast("float").inMemory()
        } else {
            low = try image.blockMeans(block, luminance: true)
        }
        let ab = fusedCoefficients ? try GuidedFilter.selfGuidedCoefficients(low, sigma: sigma / Double(block), eps: eps)
            : try GuidedFilter.coefficients(guideLow: low, inputLow: low, sigma: sigma / Double(block), eps: eps).cast("float")
        guard let out = pe_local_contrast(image.pointer, ab.pointer, Int32(block), amount, limit, midTones ? 1 : 0) else {
            throw Vips.error("local contrast")
        }
        return Image(owning: out)
    }

    /// Texture version 3 as rendered: `fusedLocalContrast` with
    /// `fusedCoefficients` (the same pixels, tested bit for bit), its reduced
    /// copy and coefficients made row by row as the full-size pass reaches
    /// them (`pe_self_guided_local_contrast`), so that the input is read top
    /// to bottom once, a sequentially decoded JPEG never held whole.
    static func streamedLocalContrast(_ image: Image, amount: Double, sigma: Double, eps: Double, lowSigma: Double,
                                      limit: Double, midTones: Bool) throws -> Image {
        if amount == 0 { return image }
        let sigma = max(0.5, sigma)
        let block = block(sigma: sigma, lowSigma: lowSigma)
        guard block >= 2 else {
            return try localContrast(image, amount: amount, sigma: sigma, eps: eps, lowSigma: lowSigma, limit: limit, midTones: midTones)
        }
        guard let out = pe_self_guided_local_contrast(image.pointer, Int32(block), sigma / Double(block), eps, amount, limit,
                                                      midTones ? 1 : 0) else {
            throw Vips.error("local contrast")
        }
        return Image(owning: out)
    }

    /// Does `streamedLocalContrast` stream for a window sigma: a block of at
    /// least 2, and the rows it reads ahead of the pass — block × (2 × the
    /// window's radius + 11): the two blurs' windows, the interpolation and
    /// one group of 8 reduced rows (`PE_STREAM_GROUP`) — at most 128, well
    /// inside the sequential JPEG loader's cache of recent rows (3 × 128
    /// with two threads, of which the pass threads' strips use up to 256).
    /// Texture's default radius 4 reads 57 rows ahead; radius 9 is the
    /// largest that streams. Otherwise the one-call form, which needs random access.
    static func streams(sigma: Double, lowSigma: Double) -> Bool {
        let block = block(sigma: sigma, lowSigma: lowSigma)
        guard block >= 2 else { return false }
        let radius = Int((max(0.5, sigma) / Double(block) * (2 * log(100.0)).squareRoot()).rounded(.down))
        return block * (2 * radius + 11) <= 128
    }

    /// The side of the blocks `fusedLocalContrast` reduces by for a window
    /// sigma: round(sigma / lowSigma) (below 2: no reduction).
    static func block(sigma: Double, lowSigma: Double) -> Int {
        Int((max(0.5, sigma) / lowSigma).rounded())
    }

    /// d / (1 + |d| / limit): about d for small d, never beyond ±limit.
    static func bounded(_ d: Image, limit: Double) throws -> Image {
        try d.divided(by: d.call("abs").linear(multiply: [1 / limit], add: [1]))
    }
}

/// The guided filter (He, Sun & Tang 2010) with a gaussian window, run at a
/// reduced size and its linear coefficients interpolated back to full size
/// (He & Sun 2015, "Fast guided filter"): an edge-preserving smoothing whose
/// cost hardly depends on the radius.
enum GuidedFilter {
    /// The size of `image` shrunk by `factor` (at least 1×1).
    static func lowSize(_ image: Image, factor: Double) -> (Int, Int) {
        (max(1, Int((Double(image.width) / factor).rounded())), max(1, Int((Double(image.height) / factor).rounded())))
    }

    /// The fast guided filter: `inputLow` filtered with `guideLow` as the
    /// guide (both one band, the same size), window sigma `sigma` in their
    /// pixels; the coefficients a, b of q = a·I + b are then brought to the
    /// size of the full-size `guide` and applied to it.
    static func filter(guideLow i: Image, inputLow p: Image, guide: Image, sigma: Double, eps: Double, inMemory: Bool) throws -> Image {
        var ab = try coefficients(guideLow: i, inputLow: p, sigma: sigma, eps: eps)
        if inMemory {
            ab = try ab.inMemory().resizedExactly(width: guide.width, height: guide.height)
        }
        return try ab.extractBands(0, count: 1).multiplied(by: guide).adding(ab.extractBands(1, count: 1))
    }

    /// The coefficients of the guided filter of the one-band float image
    /// `i` by itself, in one C call (`pe_self_guided_coefficients`): two
    /// float bands a, b, window a gaussian of `sigma` (at most 64).
    static func selfGuidedCoefficients(_ i: Image, sigma: Double, eps: Double) throws -> Image {
        guard let out = pe_self_guided_coefficients(i.pointer, sigma, eps) else { throw Vips.error("guided filter") }
        return Image(owning: out)
    }

    /// The guided filter's coefficients at the reduced size: two bands, the
    /// window means of a and b (q = a·I + b).
    /// A filter of an image by itself (`i` and `p` the same image, as
    /// clarity and texture) blurs two bands, I and I², instead of four:
    /// libvips blurs each band alike, so the means are the same numbers.
    static func coefficients(guideLow i: Image, inputLow p: Image, sigma: Double, eps: Double) throws -> Image {
        let meanI: Image, meanP: Image, cov: Image, variance: Image
        if i === p {
            let means = try Vips.image("bandjoin", [("in", .images([i, i.multiplied(by: i)]))]).reducedGaussBlur(sigma: sigma)
            meanI = try means.extractBands(0, count: 1)
            meanP = meanI
            variance = try means.extractBands(1, count: 1).subtracting(meanI.multiplied(by: meanI))
            cov = variance
        } else {
            // One blur of four bands: mean I, mean p, mean I·p, mean I².
            let stack = try Vips.image("bandjoin", [("in", .images([i, p, i.multiplied(by: p), i.multiplied(by: i)]))])
            let means = try stack.reducedGaussBlur(sigma: sigma)
            meanI = try means.extractBands(0, count: 1)
            meanP = try means.extractBands(1, count: 1)
            cov = try means.extractBands(2, count: 1).subtracting(meanI.multiplied(by: meanP))
            variance = try means.extractBands(3, count: 1).subtracting(meanI.multiplied(by: meanI))
        }
        let a = try cov.divided(by: variance.linear(multiply: [1], add: [eps]))
        let b = try meanP.subtracting(a.multiplied(by: meanI))
        return try a.joined(with: b).reducedGaussBlur(sigma: sigma)
    }
}

extension Image {
    /// `detailGaussBlur` (libvips' float `gaussblur`, min_ampl 0.01) of a
    /// float image of at most `pe_gauss_blur_limit` pixels by `pe_gauss_blur`:
    /// the same numbers (tested bit for bit), computed in memory in plain
    /// loops, several times faster on the guided filters' reduced copies.
    /// Larger or non-float images: libvips' own.
    func reducedGaussBlur(sigma: Double) throws -> Image {
        guard formatName == "float", width * height <= Self.reducedLimit, sigma >= 0.01, sigma <= 1000 else {
            return try detailGaussBlur(sigma: sigma)
        }
        guard let out = pe_gauss_blur(pointer, sigma, 0.01) else { throw Vips.error("gaussian blur") }
        return Image(owning: out)
    }

    /// The largest image (pixels) `reducedGaussBlur` and `reducedMinimum` copy into memory.
    static let reducedLimit = 4_000_000

    /// libvips' `rank` with index 0 (the minimum of a `size`×`size` square,
    /// edges repeated) of a one-band float image, by `pe_min_filter` (rows,
    /// then columns: the same values) when the window fits in the image and
    /// the image is small; else libvips' own.
    func reducedMinimum(_ size: Int) throws -> Image {
        guard formatName == "float", bands == 1, size <= min(width, height), width * height <= Self.reducedLimit else {
            return try call("rank", [("width", .number(Double(size))), ("height", .number(Double(size))), ("index", .number(0))])
        }
        guard let out = pe_min_filter(pointer, Int32(size)) else { throw Vips.error("minimum filter") }
        return Image(owning: out)
    }

    /// A reduced copy in memory (`pe_block_means`): each pixel the mean of a
    /// `block`×`block` block of this 3-band float image (the last row and
    /// column of blocks may be partial), of R, G, B or (`luminance`) of
    /// Rec. 709 Y raised to 1/2.2; ceil(size / block) pixels.
    func blockMeans(_ block: Int, luminance: Bool) throws -> Image {
        guard let out = pe_block_means(pointer, Int32(block), luminance ? 1 : 0) else { throw Vips.error("block means") }
        return Image(owning: out)
    }

    /// Resized to exactly `width`×`height` by libvips' `resize` (`kernel`,
    /// bilinear unless told; nil: Lanczos 3; a box shrink first when
    /// reducing a lot). A size the rounding misses by a pixel is completed
    /// by copying the edge.
    func resizedExactly(width: Int, height: Int, kernel: String? = "linear") throws -> Image {
        if width == self.width && height == self.height { return self }
        var out = try resized(hscale: Double(width) / Double(self.width), vscale: Double(height) / Double(self.height),
                              kernel: kernel)
        if out.width != width || out.height != height {
            out = try out.call("embed", [("x", .number(0)), ("y", .number(0)),
                                         ("width", .number(Double(max(width, out.width)))),
                                         ("height", .number(Double(max(height, out.height)))),
                                         ("extend", .string("copy"))])
            out = try out.extractArea(left: 0, top: 0, width: width, height: height)
        }
        return out
    }
}
