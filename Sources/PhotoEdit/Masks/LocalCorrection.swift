import CPhotoEditShim
import Foundation

/// The adjustments a local correction can make, in the order they are
/// applied (the canonical pipeline's). Each reuses a whole-image filter,
/// pinned to the version it had when the `local` version that introduced it
/// was written, so a later change of that filter keeps its renders.
/// `dehaze`, `texture` and `clarity` came with `local` version 2.
public enum LocalAdjustment: String, Hashable, Sendable, CaseIterable, Comparable {
    case temperature, tint, exposure, noise, dehaze, contrast, highlights, shadows, whites, blacks, texture, clarity, saturation, hue, sharpness

    /// The first version of `local` that has the adjustment.
    public var since: Int {
        switch self {
        case .dehaze, .texture, .clarity: return 2
        default: return 1
        }
    }

    /// Reads the photo out of order (its filter needs random access).
    var needsRandomAccess: Bool { [.dehaze, .texture, .clarity].contains(self) }

    /// Each output pixel depends on the same input pixel only (no neighbourhood, no image statistics).
    var isPointwise: Bool { ![.noise, .sharpness, .dehaze, .texture, .clarity].contains(self) }

    /// Its filter is a 3×3 matrix on linear RGB (a gain, a chromatic adaptation, a mix with luminance, a rotation).
    var isLinear: Bool { [.temperature, .tint, .exposure, .saturation, .hue].contains(self) }

    /// The range of the amount.
    public var range: ClosedRange<Double> {
        switch self {
        case .exposure: return -5...5
        case .noise: return 0...100
        case .hue: return -180...180
        case .sharpness: return 0...500
        default: return -100...100
        }
    }

    /// Unit and meaning, for help and docs.
    public var summary: String {
        switch self {
        case .temperature: return "mired, as the temperature filter (+ warmer)"
        case .tint: return "as the tint filter (+ magenta)"
        case .exposure: return "EV, as the exposure filter"
        case .noise: return "noise reduction strength, as noise's strength"
        case .contrast: return "as the contrast filter (v2)"
        case .highlights, .shadows, .whites, .blacks: return "as the \(rawValue) filter"
        case .saturation: return "as the saturation filter"
        case .hue: return "degrees: rotates hues around the grey axis, keeping luminance"
        case .sharpness: return "%, as sharpen's amount (radius 1 px)"
        case .dehaze: return "%, as dehaze's strength (haze estimated on the whole photo)"
        case .texture: return "%, as texture's amount (radius 4 px)"
        case .clarity: return "%, as clarity's amount (radius 50 px)"
        }
    }

    /// The whole-image filter, its version and parameter the amount drives (nil: hue, local's own).
    var filter: (definition: FilterDefinition, version: Int, parameter: String)? {
        switch self {
        case .temperature: return (Filters.temperature, 1, "amount")
        case .tint: return (Filters.tint, 1, "amount")
        case .exposure: return (Filters.exposure, 1, "ev")
        case .noise: return (Filters.noise, 1, "strength")
        case .contrast: return (Filters.contrast, 2, "amount")
        case .highlights: return (Filters.highlights, 1, "amount")
        case .shadows: return (Filters.shadows, 1, "amount")
        case .whites: return (Filters.whites, 1, "amount")
        case .blacks: return (Filters.blacks, 1, "amount")
        case .saturation: return (Filters.saturation, 1, "amount")
        case .sharpness: return (Filters.sharpen, 1, "amount")
        case .dehaze: return (Filters.dehaze, 1, "strength")
        case .texture: return (Filters.texture, 1, "amount")
        case .clarity: return (Filters.clarity, 1, "amount")
        case .hue: return nil
        }
    }

    public static func < (a: LocalAdjustment, b: LocalAdjustment) -> Bool {
        allCases.firstIndex(of: a)! < allCases.firstIndex(of: b)!
    }
}

/// A local correction: adjustments applied through a mask. Where the mask
/// is m (0…1), out = in + m × (adjusted − in).
public struct LocalCorrection: Hashable, Sendable {
    /// Where the correction applies.
    public var mask: Mask
    /// How much of each adjustment; adjustments left out (or 0) do nothing.
    public var amounts: [LocalAdjustment: Double]
    /// A switched-off correction stays in the recipe and renders nothing.
    public var enabled: Bool

    public init(mask: Mask, amounts: [LocalAdjustment: Double], enabled: Bool = true) {
        self.mask = mask
        self.amounts = amounts
        self.enabled = enabled
    }

    /// The first version of `local` that can hold the correction (range shapes, dehaze/texture/clarity: 2).
    var minimumVersion: Int {
        let amounts = self.amounts.keys.map(\.since).max() ?? 1
        return max(amounts, mask.hasRange ? 2 : 1)
    }

    /// Reads the photo out of order.
    var needsRandomAccess: Bool { enabled && amounts.keys.contains { $0.needsRandomAccess } }

    /// Checks every value; zero amounts are dropped, numbers made canonical.
    func validated(_ what: String) throws -> LocalCorrection {
        var amounts: [LocalAdjustment: Double] = [:]
        for (kind, value) in self.amounts {
            let v = try checkedNumber(value, kind.range, "\(what) \(kind.rawValue)")
            if v != 0 { amounts[kind] = v }
        }
        return LocalCorrection(mask: try mask.validated(what), amounts: amounts, enabled: enabled)
    }

    /// The correction applied to `image` (linear float RGB, upright and
    /// uncropped: local corrections run before the geometry filters). Range
    /// shapes measure `ranges`.
    ///
    /// When every adjustment is pointwise and the mask is 0 outside a box
    /// (a radial inside, a brush, a gradient's part), only the box is
    /// adjusted and blended; the rest is the input as it is. When every
    /// adjustment is a matrix (exposure, temperature, tint, saturation, hue),
    /// the change is one matrix product, (M − I)·in, instead of the adjusted
    /// image less the input. The blend, in + m × change, is one pass
    /// (`pe_masked_blend`).
    func render(_ image: Image, ranges: RangeSource? = nil, context: RenderContext) throws -> Image {
        guard enabled, !amounts.isEmpty else { return image }
        let box = amounts.keys.allSatisfy(\.isPointwise) ? mask.support(width: image.width, height: image.height) : nil
        if let box, box.width == 0 || box.height == 0 { return image }
        // A preview (scale < 1) evaluates gradients and radials per pixel; a full render keeps its pixels.
        var mask = try self.mask.render(width: image.width, height: image.height, ranges: ranges, perPixel: context.scale < 1)
        var source = image
        if let box {
            mask = try mask.extractArea(left: box.left, top: box.top, width: box.width, height: box.height)
            source = try image.extractArea(left: box.left, top: box.top, width: box.width, height: box.height)
        }
        let sorted = amounts.sorted { $0.key < $1.key }
        if sorted.allSatisfy({ $0.key.isLinear }) {
            var m = try Self.matrix(sorted.map { ($0.key, $0.value) }, context: context)
            for i in 0..<3 { m[i * 4] -= 1 }
            return try Self.blend(image, adjusted: nil, mask: mask, at: box, matrix: m)
        }
        var adjusted = source
        for (kind, amount) in sorted {
            adjusted = try kind.apply(amount, to: adjusted, context: context)
        }
        return try Self.blend(image, adjusted: adjusted, mask: mask, at: box, matrix: nil)
    }

    /// in + mask × (adjusted − in), or in + mask × ((M − I)·in) with
    /// `matrix` = M − I, over `box` (nil: the whole image), in one pass.
    private static func blend(_ image: Image, adjusted: Image?, mask: Image, at box: (left: Int, top: Int, width: Int, height: Int)?,
                              matrix: [Double]?) throws -> Image {
        func float(_ i: Image) throws -> Image { i.formatName == "float" ? i : try i.cast("float") }
        let (input, mask) = (try float(image), try float(mask))
        let adjusted = try adjusted.map(float)
        let out = (matrix ?? []).withUnsafeBufferPointer { m in
            pe_masked_blend(input.pointer, adjusted?.pointer, mask.pointer, Int32(box?.left ?? 0), Int32(box?.top ?? 0),
                            matrix == nil ? nil : m.baseAddress)
        }
        guard let out else { throw Vips.error("local") }
        return Image(owning: out)
    }

    /// The 3×3 matrix (row-major) of linear adjustments applied in order,
    /// read off their filters on the three unit colours.
    static func matrix(_ steps: [(LocalAdjustment, Double)], context: RenderContext) throws -> [Double] {
        var probe = try BrushCanvas.floatImage([1, 0, 0, 0, 1, 0, 0, 0, 1], width: 3, height: 1, bands: 3)
        for (kind, amount) in steps { probe = try kind.apply(amount, to: probe, context: context) }
        let columns = try probe.floatPixels().map(Double.init)
        // Pixel j is M applied to unit vector j: column j of M.
        return (0..<3).flatMap { row in (0..<3).map { column in columns[column * 3 + row] } }
    }
}

extension LocalAdjustment {
    /// The adjustment on the whole image.
    func apply(_ amount: Double, to image: Image, context: RenderContext) throws -> Image {
        guard let target = filter else {
            return try image.recombine(Self.hueRotation(degrees: amount))
        }
        let (definition, version, parameter) = target
        let values: [String: ParameterValue] = [parameter: .number(amount)]
        guard version == definition.version || definition.legacy.contains(where: { $0.version == version }) else {
            throw PhotoEditError.invalidParameter(filter: "local", parameter: rawValue, problem: "\(definition.id) version \(version) is unknown")
        }
        // Brought forward through the migrations that keep the rendering (as
        // a recipe's node is when loaded): the renderer reached then gets the
        // whole parameter set it declares (`noise` v1 → v2 adds chroma 0).
        let (reached, parameters) = try definition.load(version: version, values: values)
        return try definition.renderer(for: reached)(image, parameters, context)
    }

    /// A rotation of linear RGB around the grey axis that keeps Rec. 709
    /// luminance (the usual hue-rotate matrix).
    static func hueRotation(degrees: Double) -> [Double] {
        let (c, s) = (cos(degrees * .pi / 180), sin(degrees * .pi / 180))
        let l = ColourMath.luminance
        // M = L + cos·(I − L) + sin·K, with L the luminance projection and K
        // the skew part that keeps luminance (its rows are orthogonal to grey).
        let k: [Double] = [-l[0], -l[1], 1 - l[2],
                           0.143, 0.140, -0.283,
                           -(1 - l[0]), l[1], l[2]]
        var m = [Double](repeating: 0, count: 9)
        for row in 0..<3 {
            for col in 0..<3 {
                m[row * 3 + col] = l[col] + c * ((row == col ? 1 : 0) - l[col]) + s * k[row * 3 + col]
            }
        }
        return m
    }
}

extension Filters {
    /// Local corrections: adjustments through masks (`LocalCorrection`).
    /// Runs after the colour filters and before geometry, so masks are
    /// drawn on the upright, uncropped photo and follow crop, rotation and
    /// flips as the pixels do. Version 2 adds range shapes (`luminance`,
    /// `colour`) and the dehaze, texture and clarity amounts; version 1's
    /// recipes hold neither and render as before.
    public static let local: FilterDefinition = {
        var d = FilterDefinition(
            id: "local", version: 2, stage: .colour, order: 1000,
            summary: "local corrections: exposure, contrast, colour, clarity… through linear, radial, brush and luminance/colour range masks",
            colourSpace: "linear RGB",
            parameters: [],
            forms: [ChainForm([], "e.g. local=radial(0.5 0.5 0.2 0.3) exposure=+0.5 (docs/chain-grammar.md)")],
            legacy: [
                LegacyVersion(version: 1, parameters: [], note: "version 2 adds luminance and colour range shapes and the dehaze, texture and clarity amounts",
                              changesRendering: false),
            ],
            needsRandomAccess: { p in
                if case .corrections(let list)? = p.content { return list.contains { $0.needsRandomAccess } }
                return false
            }
        ) { image, p, context in
            guard case .corrections(let corrections)? = p.content else { return image }
            // Range shapes measure the photo as it enters the corrections, once (a preview: in one C pass).
            let ranges = RangeSource(image, perPixel: context.scale < 1)
            var out = image
            for correction in corrections {
                out = try correction.render(out, ranges: ranges, context: context)
            }
            return out
        }
        d.structure = StructuredFilter(
            decode: { params, version in
                try StructuredFilter.checked("local") { .corrections(try LocalJSON.corrections(params, version: version)) }
            },
            apply: { parameter, text, current in
                try StructuredFilter.checked("local") {
                    var list: [LocalCorrection] = []
                    if case .corrections(let c)? = current { list = c }
                    return .corrections(try MaskChain.applyLocal(parameter, text, to: list))
                }
            },
            format: { content in
                guard case .corrections(let list) = content else { return [] }
                return list.map(MaskChain.format)
            })
        return d
    }()
}
