import CPhotoEditShim
import Foundation

extension Filters {
    /// The parameters of `dehaze` (every version), read through these keys.
    enum DehazeKeys {
        static let strength = ParameterKey.number("strength", -100...100, default: 0, unit: "%", "how much haze is removed (+) or added (−); 100 removes 95 % of the estimated haze")
        static let all: [any AnyParameterKey] = [strength]
    }

    /// Dehaze: removes (or adds) atmospheric haze by the dark-channel prior
    /// (He, Sun & Tang 2009), as darktable's and RawTherapee's haze removal.
    ///
    /// The haze model is I = J·t + A·(1 − t) in linear light: the scene J
    /// seen through a transmission t, veiled by the airlight A. On a copy
    /// reduced to at most 512 px on the long edge (so previews and full
    /// renders agree): the dark channel is the minimum over R, G, B and over
    /// a square patch of about 1/36 of the long edge; A is the mean colour of
    /// its brightest 0.1 %; t = 1 − ω · dark(I / A) with ω = 0.95 · strength/100.
    /// t is refined by a guided filter with the perceptual luminance as guide, brought
    /// to full size by its coefficients, and bounded below by 0.1; then
    /// J = (I − A) / t + A, clamped at 0. A negative strength makes t > 1,
    /// which pulls the image towards A where the dark channel says it is far
    /// (adds haze).
    /// Version 2 computes the full-size part in one pass (`pe_dehaze`).
    /// Version 3, in a full-size render of a photo the engine can decode at
    /// reduced size (a JPEG of 2048 px or more on its long edge), makes
    /// the reduced copy from that decode through the earlier filters
    /// (`RenderContext.reducedInput`) instead of from the full-size input:
    /// the full-size pass then reads its input once, top to bottom, while it
    /// is decoded (no random access, no whole decode first). Elsewhere
    /// (previews, RAW, PNG, smaller photos) it renders as version 2.
    public static let dehaze = FilterDefinition(
        id: "dehaze", version: 3, stage: .tone, order: 5,
        summary: "removes atmospheric haze (dark-channel prior, guided-filter transmission); negative adds haze",
        colourSpace: "linear RGB (the haze model is physical light)",
        keys: DehazeKeys.all,
        forms: [ChainForm(["strength"], "e.g. dehaze=+40")],
        legacy: [
            LegacyVersion(version: 1, keys: DehazeKeys.all, note: Presence.versionTwoNote, changesRendering: true,
                          render: { image, p, _ in
                              let strength = p[DehazeKeys.strength] / 100
                              if strength == 0 { return image }
                              return try Haze.remove(from: image, omega: 0.95 * strength)
                          }),
            LegacyVersion(version: 2, keys: DehazeKeys.all, note: Haze.versionThreeNote, changesRendering: true,
                          render: { image, p, _ in
                              let strength = p[DehazeKeys.strength] / 100
                              if strength == 0 { return image }
                              return try Haze.remove(from: image, omega: 0.95 * strength, fused: true)
                          }),
        ],
        needsRandomAccess: { $0[DehazeKeys.strength] != 0 },
        usesReducedInput: { $0[DehazeKeys.strength] != 0 }
    ) { image, p, context in
        let strength = p[DehazeKeys.strength] / 100
        if strength == 0 { return image }
        guard let reduced = context.reducedInput else { return try Haze.remove(from: image, omega: 0.95 * strength, fused: true) }
        return try Haze.remove(from: image, omega: 0.95 * strength, reducedInput: reduced)
    }.inPanel(.basic, section: "Presence")

}

/// The dark-channel prior of `dehaze`.
enum Haze {
    /// The long edge of the reduced copy the estimates are made on.
    static let workingLongEdge = 512.0
    /// The lowest transmission used: denser haze is not pushed further.
    static let minimumTransmission = 0.1

    /// What version 3 changed.
    static let versionThreeNote = "v3 makes its estimates on the photo decoded at 1/8 size (JPEG) in full-size renders, so the full-size pass reads its input once, in order (faster): renders slightly differently"

    /// The shortest long edge of a reduced input version 3 makes its
    /// estimates on (a JPEG of 2048 px or more); below it, version 2's way.
    static let reducedInputLongEdge = 256

    /// Version 3 with a reduced input (`RenderContext.reducedInput`, `image`
    /// read once in order): the reduced copy is `reduced` (clamped at 0),
    /// reduced further by block means to at most `workingLongEdge` and
    /// resized to the block grid of the full size, block = the reduced
    /// input's shrink × that block; then as version 2. A reduced input
    /// shorter than `reducedInputLongEdge` is not used: `image` is read into
    /// memory once and rendered as version 2.
    static func remove(from image: Image, omega: Double, reducedInput reduced: Image) throws -> Image {
        guard max(reduced.width, reduced.height) >= reducedInputLongEdge else {
            return try remove(from: image.inMemory(), omega: omega, fused: true)
        }
        let more = Int((Double(max(reduced.width, reduced.height)) / workingLongEdge).rounded(.up))
        let block = Renderer.reducedInputShrink * more
        let means = more >= 2 ? try reduced.blockMeans(more, luminance: false) : reduced
        let (w, h) = ((image.width + block - 1) / block, (image.height + block - 1) / block)
        let low = try means.clampedAtZero().resizedExactly(width: w, height: h).inMemory()
        let patch = 2 * max(1, Int((Double(max(w, h)) / 72).rounded())) + 1
        let (airlight, transmission, guideLow) = try estimates(low, patch: patch, omega: omega)
        return try fusedPass(image, guideLow: guideLow, transmission: transmission, airlight: airlight, patch: patch, block: block)
    }

    /// J = (I − A) / t + A with t = 1 − ω · dark(I / A), refined (see `Filters.dehaze`).
    /// `fused` (version 2): the reduced copy is made of block means
    /// (`pe_block_means`, block = ceil(long edge / 512)) and the full-size
    /// part is one pass (`pe_dehaze`), the coefficients interpolated between
    /// the block centres; version 1 reduces and upsamples with libvips
    /// `resize` and applies the model in libvips operations. Images whose
    /// block would be 1 (512 px or less) are version 1's graph.
    static func remove(from image: Image, omega: Double, fused: Bool = false) throws -> Image {
        let block = Int((Double(max(image.width, image.height)) / workingLongEdge).rounded(.up))
        let (low, patch) = fused && block >= 2 ? try reduced(image, block: block) : try reduced(image)
        let (airlight, transmission, guideLow) = try estimates(low, patch: patch, omega: omega)
        if fused && block >= 2 {
            return try fusedPass(image, guideLow: guideLow, transmission: transmission, airlight: airlight, patch: patch, block: block)
        }
        let refined = try GuidedFilter.filter(guideLow: guideLow, inputLow: transmission, guide: image.luminance().detailPerceptual(),
                                              sigma: Double(patch), eps: 1e-3, inMemory: true)
        let t0 = minimumTransmission
        let t = try refined.linear(multiply: [1], add: [-t0]).clampedAtZero().linear(multiply: [1], add: [t0])
        let inverse = try t.call("math2_const", [("math2", .string("pow")), ("c", .doubles([-1]))])
        // J = I / t + A · (1 − 1/t)
        let veil = try inverse.linear(multiply: [-1], add: [1]).linear(multiply: airlight, add: [0, 0, 0])
        return try image.multiplied(by: inverse).adding(veil).clampedAtZero()
    }

    /// The estimates on the reduced copy `low`: the airlight A, the raw
    /// transmission 1 − ω · dark(low / A) and the guide for its refinement.
    static func estimates(_ low: Image, patch: Int, omega: Double) throws -> (airlight: [Double], transmission: Image, guide: Image) {
        let airlight = try Self.airlight(low, patch: patch)
        let normalized = try low.linear(multiply: airlight.map { 1 / $0 }, add: [0, 0, 0])
        let transmission = try darkChannel(normalized, patch: patch).linear(multiply: [-omega], add: [1])
        // The guide is perceptual luminance (Y^(1/2.2)), as He et al.'s
        // gamma-encoded guide: in linear light dark edges have too little
        // variance to be followed, and the transmission halos across them.
        return (airlight, transmission, try low.luminance().detailPerceptual())
    }

    /// The guided filter's coefficients of the transmission on the reduced
    /// copy (the block grid of `image`, `block` full-size pixels a side),
    /// and the one full-size pass that interpolates and applies them (`pe_dehaze`).
    static func fusedPass(_ image: Image, guideLow: Image, transmission: Image, airlight: [Double], patch: Int, block: Int) throws -> Image {
        let ab = try GuidedFilter.coefficients(guideLow: guideLow, inputLow: transmission, sigma: Double(patch), eps: 1e-3).cast("float")
        guard let out = airlight.withUnsafeBufferPointer({ pe_dehaze(image.pointer, ab.pointer, Int32(block), $0.baseAddress, minimumTransmission) }) else {
            throw Vips.error("dehaze")
        }
        return Image(owning: out)
    }

    /// The reduced copy the estimates are made on (at most `workingLongEdge`
    /// on the long edge, negative values clamped), and the patch side there.
    static func reduced(_ image: Image) throws -> (Image, Int) {
        let factor = max(1, Double(max(image.width, image.height)) / workingLongEdge)
        let (w, h) = GuidedFilter.lowSize(image, factor: factor)
        let low = try image.resizedExactly(width: w, height: h).clampedAtZero().inMemory()
        return (low, 2 * max(1, Int((Double(max(w, h)) / 72).rounded())) + 1)
    }

    /// Version 2's reduced copy: the means of `block`×`block` blocks, negative values clamped, and the patch side there.
    static func reduced(_ image: Image, block: Int) throws -> (Image, Int) {
        let low = try image.blockMeans(block, luminance: false).clampedAtZero().inMemory()
        return (low, 2 * max(1, Int((Double(max(low.width, low.height)) / 72).rounded())) + 1)
    }

    /// The `k`-th largest of `values` (k ≥ 1; NaN counts as smallest): a
    /// min-heap of the `k` largest seen, one pass (the value a descending
    /// sort puts at index k − 1, without sorting them all).
    static func largest(_ k: Int, of values: [Float]) -> Float {
        var heap: [Float] = []
        heap.reserveCapacity(k)
        for value in values where !value.isNaN {
            if heap.count < k {
                heap.append(value)
                var child = heap.count - 1
                while child > 0, heap[(child - 1) / 2] > heap[child] {
                    heap.swapAt(child, (child - 1) / 2)
                    child = (child - 1) / 2
                }
            } else if value > heap[0] {
                heap[0] = value
                var parent = 0
                while true {
                    let left = 2 * parent + 1, right = left + 1
                    var smallest = parent
                    if left < k, heap[left] < heap[smallest] { smallest = left }
                    if right < k, heap[right] < heap[smallest] { smallest = right }
                    if smallest == parent { break }
                    heap.swapAt(parent, smallest)
                    parent = smallest
                }
            }
        }
        return heap.count == k ? heap[0] : -.infinity
    }

    /// The dark channel: the minimum over the bands, then over a `patch`×`patch`
    /// square — no larger than the image's short side (a thin photo, whose
    /// reduced copy is narrower than the patch, was refused before).
    static func darkChannel(_ image: Image, patch: Int) throws -> Image {
        let r = try image.extractBands(0, count: 1), g = try image.extractBands(1, count: 1), b = try image.extractBands(2, count: 1)
        let minimum = try r.minimum(g).minimum(b)
        return try minimum.reducedMinimum(min(patch, image.width, image.height))
    }

    /// The airlight A: the mean colour of the pixels whose dark channel is in
    /// the brightest 0.1 % (at least one pixel), each channel at least 0.02.
    static func airlight(_ low: Image, patch: Int) throws -> [Double] {
        let dark = try darkChannel(low, patch: patch).cast("float").pixelBytes()
        let rgb = try low.cast("float").pixelBytes()
        let darkValues = dark.withUnsafeBytes { Array($0.bindMemory(to: Float.self)) }
        let colours = rgb.withUnsafeBytes { Array($0.bindMemory(to: Float.self)) }
        let count = max(1, darkValues.count / 1000)
        // The brightest `count`; among equal values the first in reading order (deterministic).
        let threshold = largest(count, of: darkValues)
        var sum = [0.0, 0.0, 0.0]
        var taken = 0
        for (index, value) in darkValues.enumerated() where value > threshold && taken < count {
            for c in 0..<3 { sum[c] += Double(colours[3 * index + c]) }
            taken += 1
        }
        for (index, value) in darkValues.enumerated() where value == threshold && taken < count {
            for c in 0..<3 { sum[c] += Double(colours[3 * index + c]) }
            taken += 1
        }
        return sum.map { max(0.02, $0 / Double(count)) }
    }
}
