import Foundation
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// Which version of a photo to render, as PhotoKit's `PHImageRequestOptionsVersion`.
public enum ImageVersion: String, Sendable, CaseIterable {
    /// With every adjustment of the latest revision.
    case current
    /// Before any adjustment: the original, upright, colour-managed to sRGB.
    case unadjusted
    /// The original data at its highest fidelity (the original file itself
    /// when no conversion is asked for).
    case original
}

/// Output file formats the engine writes.
public enum OutputFormat: String, Sendable, CaseIterable {
    case jpeg, png, tiff, webp

    /// The format a file name's extension names, if any.
    public init?(pathExtension ext: String) {
        guard let format = ExportFormat(pathExtension: ext).flatMap({ OutputFormat(rawValue: $0.rawValue) }) else { return nil }
        self = format
    }

    var fileExtension: String { self == .jpeg ? "jpg" : rawValue == "tiff" ? "tif" : rawValue }
}

/// The colour space a render is written in; its ICC profile is embedded.
public enum OutputProfile: Hashable, Sendable {
    case sRGB
    case displayP3
    case adobeRGB
    /// An ICC profile file.
    case file(String)

    /// `srgb`, `display-p3`, `adobe-rgb`, or a path to an `.icc`/`.icm` file.
    public init?(name: String) {
        switch name.lowercased() {
        case "srgb": self = .sRGB
        case "display-p3", "p3": self = .displayP3
        case "adobe-rgb", "adobergb", "adobe-rgb-1998": self = .adobeRGB
        default:
            guard name.lowercased().hasSuffix(".icc") || name.lowercased().hasSuffix(".icm") else { return nil }
            self = .file(name)
        }
    }
}

/// ICC rendering intents, for colours the output profile cannot hold.
public enum RenderingIntent: String, Sendable, CaseIterable {
    case perceptual, relative, saturation, absolute
}

/// How a TIFF's pixels are compressed (lossless either way).
public enum TIFFCompression: String, Sendable, CaseIterable {
    /// Uncompressed: the fastest to write and read.
    case none
    /// LZW: smaller, slower to write.
    case lzw
    /// Deflate (zip): smaller still, slower again.
    case deflate
}

/// How to write a rendered image.
public struct RenderOptions: Sendable {
    /// Fit inside this box (never enlarging); nil = full size.
    public var maxWidth: Int?
    /// Fit inside this height (never enlarging); nil = no limit.
    public var maxHeight: Int?
    /// nil: from the output file's extension (JPEG if it has none).
    public var format: OutputFormat?
    /// JPEG / WebP quality, 1…100. A full-size JPEG of the current version
    /// at the stored render's quality (92) is the stored file itself.
    public var quality: Int
    /// The output colour space (default sRGB).
    public var profile: OutputProfile
    /// How out-of-gamut colours are mapped (default relative colorimetric).
    public var intent: RenderingIntent
    /// 8 or 16 bits per channel; 16 only for PNG and TIFF.
    public var bitDepth: Int
    /// Compression of TIFF output (default LZW).
    public var tiffCompression: TIFFCompression = .lzw
    /// Fit inside or fill the box of `maxWidth`×`maxHeight`, as an image
    /// request's content mode (docs/library-api.md, "Image requests").
    public var contentMode: ImageContentMode
    /// nil: fit inside the box, never enlarging (exact). Otherwise the size
    /// follows an image request's resize mode: none (full size), fast (at
    /// least the box, by shrink-on-load), exact.
    public var resizeMode: ImageResizeMode?
    /// The part of the image to write (0…1, top-left origin, as displayed);
    /// needs the exact resize mode.
    public var normalizedCropRect: NormalizedRect?

    public init(maxWidth: Int? = nil, maxHeight: Int? = nil, format: OutputFormat? = nil, quality: Int = Renderer.renderQuality,
                profile: OutputProfile = .sRGB, intent: RenderingIntent = .relative, bitDepth: Int = 8,
                contentMode: ImageContentMode = .aspectFit, resizeMode: ImageResizeMode? = nil, normalizedCropRect: NormalizedRect? = nil) {
        self.maxWidth = maxWidth
        self.maxHeight = maxHeight
        self.format = format
        self.quality = quality
        self.profile = profile
        self.intent = intent
        self.bitDepth = bitDepth
        self.contentMode = contentMode
        self.resizeMode = resizeMode
        self.normalizedCropRect = normalizedCropRect
    }

    /// A content mode, resize mode or crop is asked for: the size follows an
    /// image request's rules (ImageGeometry).
    var usesRequestGeometry: Bool { contentMode != .aspectFit || resizeMode != nil || normalizedCropRect != nil }

    /// The box as a target size (unbounded sides: the maximum).
    var targetSize: ImageSize {
        ImageSize(width: maxWidth ?? ImageSize.maximum.width, height: maxHeight ?? ImageSize.maximum.height)
    }

    /// The request options these options mean (for validation and the pipeline).
    func requestOptions(version: ImageVersion) -> ImageRequestOptions {
        ImageRequestOptions(version: version, deliveryMode: .highQuality, resizeMode: resizeMode ?? .exact, normalizedCropRect: normalizedCropRect)
    }

    /// The geometry for a full-size image of `width`×`height`.
    func geometry(width: Int, height: Int) -> ImageGeometry {
        ImageGeometry(fullWidth: width, fullHeight: height, target: targetSize, contentMode: contentMode,
                      resizeMode: resizeMode ?? .exact, crop: normalizedCropRect)
    }

    /// The default output: sRGB, 8 bits, relative colorimetric.
    var isDefaultColour: Bool { profile == .sRGB && bitDepth == 8 && intent == .relative }
}

/// Builds and runs the filter graph on libvips.
///
/// Pipeline (docs/architecture.md): decode → apply EXIF orientation →
/// flatten alpha → colour-manage to linear-light float RGB (scRGB, primaries
/// of sRGB, values may leave 0…1) → filters in canonical order → sRGB 8-bit
/// with the sRGB ICC profile embedded, EXIF orientation 1, other EXIF kept.
public struct Renderer: Sendable {
    let registry: FilterRegistry

    /// The JPEG quality of stored full-size renders.
    public static let renderQuality = 92

    /// Decodes `path` into the working space: upright, no alpha, 3-band
    /// linear-light float RGB. A camera RAW is developed with `raw` (the
    /// neutral development when nil); any other file refuses `raw` settings.
    func workingImage(path: String, randomAccess: Bool, raw: RawSettings? = nil) throws -> Image {
        if Renderer.isRaw(path) {
            // A camera RAW, developed by libraw straight into the working
            // space (linear, sRGB primaries, upright).
            return try RawDecoder.develop(path, settings: raw ?? .neutral)
        }
        if raw != nil {
            throw PhotoEditError.invalidParameter(filter: "raw", parameter: "",
                                                  problem: "develops camera RAW files only, and this edit's base is a \((path as NSString).pathExtension.uppercased()) (for a RAW+JPEG pair, edit from the RAW: --base raw)")
        }
        var image = try Image.load(path: path, sequential: !randomAccess)
        let orientation = image.int("orientation") ?? 1
        if orientation != 1 {
            if !randomAccess { image = try Image.load(path: path, sequential: false) }
            image = try image.autorotated()
        }
        return try workingImage(upright: image)
    }

    /// An upright decoded image (its ICC profile attached, if any) in the
    /// working space: alpha flattened on white, through its profile to
    /// linear-light float RGB, three bands.
    func workingImage(upright image: Image) throws -> Image {
        var image = image
        if image.hasAlpha {
            image = try image.flattened(onWhite: true)
        }
        return try Renderer.workingSpace(image)
    }

    /// An opaque decoded image, colour-managed into the working space:
    /// through its embedded ICC profile when it is not sRGB, else as sRGB;
    /// grey becomes three equal bands.
    package static func workingSpace(_ image: Image) throws -> Image {
        var image = image
        if let profile = image.blob("icc-profile-data"), !ICCProfile.isSRGB(profile) {
            // Through the embedded profile (lcms2) to CIE XYZ, then to linear
            // RGB by matrix: wide-gamut colours stay outside 0…1 instead of
            // clipping. See ColourMath.iccXYZToLinearSRGB for the white point.
            image = try image.call("icc_import", [("embedded", .bool(true)), ("intent", .string("relative")), ("pcs", .string("xyz"))])
            if image.bands > 3 { image = try image.extractBands(0, count: 3) }
            image = try image.call("recomb", [("m", .image(try Image.matrix(ColourMath.iccXYZToLinearSRGB)))])
            image = try image.call("copy", [("interpretation", .string("scrgb"))])
        } else {
            image = try image.colourspace("scrgb")
        }
        if image.bands == 1 {
            image = try Vips.image("bandjoin", [("in", .images([image, image, image]))])
        }
        if image.bands > 3 { image = try image.extractBands(0, count: 3) }
        return image
    }

    /// Is `path` a camera RAW stored by the library (originals keep their RAW extension)?
    static func isRaw(_ path: String) -> Bool {
        RawDecoder.extensions.contains((path as NSString).pathExtension.lowercased())
    }

    /// Renders `recipe` on the original at `path`; returns an sRGB 8-bit image
    /// ready to save.
    func render(recipe: Recipe, originalPath: String, context: RenderContext = RenderContext(),
                output: RenderOptions = RenderOptions()) throws -> Image {
        if recipe.nodes.isEmpty && output.isDefaultColour && Renderer.isRaw(originalPath) {
            // A RAW's neutral development to 8-bit sRGB: libraw's 16-bit
            // output through a table, no float working copy (the same pixels).
            return try RawDecoder.developSRGB(originalPath)
        }
        let steps = Array(zip(try recipe.nodes.map { try registry.require($0.filter) }, recipe.nodes))
        let raw = recipe.node(Filters.raw.id).map { RawSettings(parameters: $0.parameters) }
        // Filters that make whole-image estimates on a reduced input get one
        // (the original decoded at reduced size, through the filters before
        // them): they then read their full-size input only once, in order.
        let lastReducing = steps.lastIndex { $0.usesReducedInput(version: $1.version, $1.parameters) }
        var reduced = lastReducing != nil && raw == nil ? try reducedWorkingImage(path: originalPath) : nil
        let random = steps.contains { definition, node in
            definition.needsRandomAccess(version: node.version, node.parameters)
                && !(reduced != nil && definition.usesReducedInput(version: node.version, node.parameters))
        }
        var image: Image
        var context = context
        let inCamera = Renderer.denoisesInCamera(recipe, path: originalPath)
        if let node = inCamera {
            // Developed and denoised in camera RGB, at the output's scale when
            // the output is much smaller (`developmentScale`).
            context.scale = context.scale * developmentScale(recipe, path: originalPath, output: output)
            image = try developDenoised(originalPath, raw: raw ?? .neutral, parameters: node.parameters, scale: context.scale)
        } else {
            image = try workingImage(path: originalPath, randomAccess: random, raw: raw)
        }
        var reducedContext = context
        if let small = reduced { reducedContext.scale = context.scale * Double(small.width) / Double(image.width) }
        for (index, (definition, node)) in steps.enumerated() {
            if inCamera != nil && definition.id == Filters.denoise.id { continue }
            let render = definition.renderer(for: node.version)
            var filterContext = context
            if let small = reduced, definition.usesReducedInput(version: node.version, node.parameters) {
                let input = try small.inMemory()
                filterContext.reducedInput = input
                reduced = input
            }
            image = try render(image, node.parameters, filterContext)
            if let small = reduced, let lastReducing, index < lastReducing {
                reduced = try render(small, node.parameters, reducedContext)
            }
        }
        return try outputImage(image, options: output)
    }

    /// The `denoise` node that denoises the RAW at `path` in camera RGB,
    /// while it is developed (`developDenoised`): the current version's, when
    /// it changes anything; nil for other files and older versions (which
    /// run after the colour matrix, in the filter chain).
    static func denoisesInCamera(_ recipe: Recipe, path: String) -> RecipeNode? {
        guard isRaw(path), let node = recipe.node(Filters.denoise.id), node.version == Filters.denoise.version,
              Denoiser.Settings(node.parameters).isActive else { return nil }
        return node
    }

    /// The RAW at `path` developed in camera RGB (`raw`'s settings),
    /// reduced to `scale` of its full size (libraw's half-size decode when
    /// `scale` ≤ ½), denoised there by the `denoise` node's `parameters`
    /// (a recorded profile carried to this development by
    /// `Filters.cameraNoise`; otherwise the noise estimated on it), then
    /// turned into the working space by libraw's colour matrix.
    func developDenoised(_ path: String, raw: RawSettings, parameters: Parameters, scale: Double) throws -> Image {
        try denoised(cameraDevelopment(path, raw: raw, scale: scale), raw: raw, parameters: parameters)
    }

    /// The RAW at `path` developed in camera RGB with `raw`'s settings and
    /// reduced to `scale` of its full size (libraw's half-size decode when
    /// `scale` ≤ ½); `developScale` is then the reduction from full size.
    func cameraDevelopment(_ path: String, raw: RawSettings, scale: Double) throws -> RawDecoder.CameraDevelopment {
        var settings = raw
        if scale <= 0.5 { settings.halfSize = true }
        var development = try RawDecoder.developCamera(path, settings: settings)
        let relative = min(1, scale / development.developScale)
        if relative < 1 {
            development.image = try development.image.resized(hscale: relative, vscale: relative)
            development.developScale *= relative
        }
        return development
    }

    /// `development` (see `cameraDevelopment`) denoised by a `denoise`
    /// node's `parameters` and turned into the working space.
    func denoised(_ development: RawDecoder.CameraDevelopment, raw: RawSettings, parameters: Parameters) throws -> Image {
        let halfSize = development.developScale <= 0.5
        let model = NoiseModel(parameters).map {
            Filters.cameraNoise($0, multipliers: development.multipliers, exposure: raw.exposureShift,
                                halfSize: halfSize, scale: development.developScale / (halfSize ? 0.5 : 1))
        }
        return try Denoiser.apply(development.image, model: model, settings: Denoiser.Settings(parameters),
                                  scale: development.developScale, matrix: development.matrix)
    }

    /// The base of a preview of the RAW at `path` fitting `longEdge`, for
    /// `recipe`: developed with its `raw` settings, reduced, and when its
    /// `denoise` runs in camera RGB (`denoisesInCamera`), denoised — then
    /// `denoised` is true and the chain skips that node. The reduced
    /// development is kept in memory for the next previews of the same
    /// photo, settings and size (`rawPreviewBases`), so a slider's next
    /// preview starts from it instead of developing the RAW again.
    package func rawPreview(path: String, recipe: Recipe, longEdge: Int) throws -> (image: Image, scale: Double, denoised: Bool) {
        let raw = recipe.node(Filters.raw.id).map { RawSettings(parameters: $0.parameters) }
        let node = Renderer.denoisesInCamera(recipe, path: path)
        var info = stat()
        let statted = stat(path, &info) == 0
        let key = RawPreviewKey(path: path, settings: raw ?? .neutral, longEdge: longEdge, camera: node != nil,
                                size: statted ? Int64(info.st_size) : -1, modified: statted ? Int64(info.st_mtim.tv_sec) : -1)
        let cached = Renderer.rawPreviewBases.withLock { entries -> RawPreviewBase? in
            guard let i = entries.firstIndex(where: { $0.key == key }) else { return nil }
            let entry = entries.remove(at: i)
            entries.append(entry)
            return entry.base
        }
        let base: RawPreviewBase
        if let cached {
            base = cached
        } else {
            let size = RawDecoder.identify(path).map { max($0.width, $0.height) } ?? 0
            if node != nil {
                let scale = size > 0 ? min(1, Double(longEdge) / Double(size)) : 1
                var development = try cameraDevelopment(path, raw: raw ?? .neutral, scale: scale)
                development.image = try development.image.inMemory()
                base = RawPreviewBase(content: .camera(development), scale: scale)
            } else {
                let full = try workingImage(path: path, randomAccess: true, raw: raw)
                let scale = min(1, Double(longEdge) / Double(max(full.width, full.height)))
                base = RawPreviewBase(content: .working(try (scale < 1 ? full.resized(hscale: scale, vscale: scale) : full).inMemory()), scale: scale)
            }
            let pixels: Int
            switch base.content {
            case let .camera(development): pixels = development.image.width * development.image.height
            case let .working(image): pixels = image.width * image.height
            }
            if statted && pixels <= Renderer.rawPreviewMaxPixels {
                Renderer.rawPreviewBases.withLock { entries in
                    entries.removeAll { $0.key == key }
                    entries.append((key, base))
                    if entries.count > Renderer.rawPreviewCapacity { entries.removeFirst(entries.count - Renderer.rawPreviewCapacity) }
                }
            }
        }
        switch (base.content, node) {
        case let (.camera(camera), node?):
            return (try denoised(camera, raw: raw ?? .neutral, parameters: node.parameters), base.scale, true)
        case let (.working(image), _):
            return (image, base.scale, false)
        case let (.camera(camera), nil):   // never made (the key says which): turned by its matrix alone
            return (try Denoiser.apply(camera.image, model: .zero, settings: Denoiser.Settings(), matrix: camera.matrix), base.scale, false)
        }
    }

    private struct RawPreviewKey: Hashable {
        let path: String
        let settings: RawSettings
        let longEdge: Int
        let camera: Bool
        let size: Int64
        let modified: Int64
    }

    private struct RawPreviewBase: Sendable {
        enum Content: Sendable {
            /// Reduced, in camera RGB, to be denoised and turned by its matrix.
            case camera(RawDecoder.CameraDevelopment)
            /// Reduced, in the working space.
            case working(Image)
        }
        let content: Content
        let scale: Double
    }

    /// How many RAW preview bases are kept (float RGB: ~17 MB at 1440 × 960).
    static let rawPreviewCapacity = 2
    /// The largest base kept (pixels; 48 MB): larger previews develop each time.
    static let rawPreviewMaxPixels = 4_000_000
    private static let rawPreviewBases = Mutex<[(key: RawPreviewKey, base: RawPreviewBase)]>([])

    /// The scale a RAW whose `denoise` runs in camera RGB is developed at
    /// for `output`: the output box over the full size when the box is
    /// smaller (previews scale their filters the same way), else 1. Only
    /// when the recipe's size is the development's (no crop, rotation or
    /// resize: their output's size is not known before they run), and never
    /// below what the box needs.
    func developmentScale(_ recipe: Recipe, path: String, output: RenderOptions) -> Double {
        guard !output.usesRequestGeometry, output.maxWidth != nil || output.maxHeight != nil,
              !recipe.nodes.contains(where: { [.geometry, .output].contains((try? registry.require($0.filter))?.stage ?? .geometry) }),
              let info = RawDecoder.identify(path), info.width > 0, info.height > 0 else { return 1 }
        let box = output.targetSize
        let scale = min(Double(box.width) / Double(info.width), Double(box.height) / Double(info.height))
        return scale < 0.9 ? scale : 1
    }

    /// The shrink of the reduced decode (`reducedWorkingImage`).
    static let reducedInputShrink = 8
    /// The shortest side of a photo decoded at reduced size (32 px at 1/8).
    static let reducedInputMinimumSide = 256

    /// The original at `path` decoded at 1/`reducedInputShrink` size (libjpeg
    /// scales while it decodes, from the DCT coefficients) in the working
    /// space, upright; nil when its format has no such decode (only JPEG
    /// has: a RAW, PNG, TIFF… would be decoded whole to make it) or the
    /// photo is under `reducedInputMinimumSide` on a side (libvips 8.14's
    /// shrink-on-load aborts the process on a JPEG narrower than its shrink).
    func reducedWorkingImage(path: String) throws -> Image? {
        guard !Renderer.isRaw(path), Vips.loader(for: path) == "jpegload" else { return nil }
        let header = try Image.load(path: path, sequential: true, cached: false)
        guard min(header.width, header.height) >= Renderer.reducedInputMinimumSide else { return nil }
        var image = try Image.load(path: path, sequential: false, extra: [("shrink", .number(Double(Renderer.reducedInputShrink)))])
        if (image.int("orientation") ?? 1) != 1 { image = try image.autorotated() }
        return try workingImage(upright: image)
    }

    /// Linear float RGB → the output space with its profile embedded and
    /// orientation 1: sRGB 8-bit by libvips' own fast path; any other profile,
    /// intent or depth through lcms2 (libvips' `icc_export`).
    func outputImage(_ working: Image, options: RenderOptions = RenderOptions()) throws -> Image {
        if options.isDefaultColour {
            let srgb = try working.sRGB8()
            let out = try srgb.copyForMetadata()
            out.setBlob("icc-profile-data", try ICCProfile.sRGB())
            out.setInt("orientation", 1)
            return out
        }
        // Through lcms2 on the float working data, so colours outside sRGB
        // reach a wider output profile intact (lcms2 transforms unbounded
        // float input). The buffer is the whole image: only non-default
        // output pays for it.
        let exported = try ICCProfile.exportLinear(working, to: options.profile, intent: options.intent, depth: options.bitDepth)
        let out = try exported.copyForMetadata()
        out.setInt("orientation", 1)
        return out
    }

    /// Writes `image` to `path` in `format`, resized to fit the options' box.
    func write(_ image: Image, to path: String, format: OutputFormat, options: RenderOptions) throws {
        var image = image
        if options.usesRequestGeometry {
            image = try ImagePipeline.resized(image, options.geometry(width: image.width, height: image.height))
        } else if options.maxWidth != nil || options.maxHeight != nil {
            image = try image.thumbnail(width: options.maxWidth ?? 10_000_000, height: options.maxHeight ?? 10_000_000)
        }
        try Renderer.save(image, to: path, format: format, quality: options.quality, tiffCompression: options.tiffCompression)
    }

    package static func save(_ image: Image, to path: String, format: OutputFormat, quality: Int, tiffCompression: TIFFCompression = .lzw) throws {
        switch format {
        case .jpeg: try image.save(to: path, format: "jpeg", options: [("Q", .number(Double(quality)))])
        case .webp: try image.save(to: path, format: "webp", options: [("Q", .number(Double(quality)))])
        case .png: try image.save(to: path, format: "png")
        case .tiff: try image.save(to: path, format: "tiff", options: [("compression", .string(tiffCompression.rawValue))])
        }
    }
}
