import Foundation

/// What a request needs to know about a photo, read in one catalog query.
/// Files are named relative to the library and made local (a blob store's
/// read-through cache) only when a path is asked for: a request answered
/// from a preview never fetches the original.
struct ImageSubject: Sendable {
    let id: String
    /// The photo's latest revision.
    let revision: Int
    let version: ImageVersion
    /// The original's format ("jpeg", "raw", …).
    let format: String
    let originalFile: String
    let originalWidth: Int
    let originalHeight: Int
    /// The latest revision's adjustment data, render, base (when not the
    /// original) and pixel size.
    let adjustmentData: AdjustmentData?
    let renderFile: String?
    let baseFile: String?
    let currentWidth: Int
    let currentHeight: Int
    /// The RAW of a RAW+JPEG pair, if the photo is one.
    let alternateFile: String?
    /// A local path for a library file (`PhotoLibrary.readablePath`).
    let localize: @Sendable (String) -> String

    var originalPath: String { localize(originalFile) }
    var renderPath: String? { renderFile.map(localize) }
    var basePath: String? { baseFile.map(localize) }
    var alternatePath: String? { alternateFile.map(localize) }

    /// The RAW file the version is developed from, when it is a RAW's
    /// development: a single RAW's unadjusted or original version (or its
    /// unedited current one), or a pair's original version (the RAW, as
    /// PhotoKit's `.original` of a pair).
    var rawFile: String? {
        if showsAdjustments { return nil }
        if version == .original, let alternateFile { return alternateFile }
        return format == "raw" ? originalFile : nil
    }
    var rawPath: String? { rawFile.map(localize) }
    /// The library file whose pixels the version shows: the latest
    /// revision's render, the RAW developed, or the original.
    var shownFile: String? {
        if showsAdjustments { return renderFile }
        return rawFile ?? originalFile
    }
    /// The version shows the latest revision's adjustments.
    var showsAdjustments: Bool { version == .current && adjustmentData != nil }
    /// The revision the pixels depend on: the latest one for an adjusted
    /// current version, else 0 (the original never changes).
    var keyRevision: Int { version == .current ? revision : 0 }
    /// Size of the version as displayed.
    var fullSize: (width: Int, height: Int) {
        showsAdjustments ? (currentWidth, currentHeight) : (originalWidth, originalHeight)
    }
}

/// The size of a result: the region of the version it shows and the size it
/// is scaled to (docs/library-api.md, "Image requests").
struct ImageGeometry: Hashable, Sendable {
    /// The version's full size as displayed.
    let fullWidth: Int, fullHeight: Int
    /// The region shown, in full-size pixels (the whole image without a crop).
    let left: Int, top: Int, regionWidth: Int, regionHeight: Int
    /// The result's size (`fast` may return more, never less).
    let width: Int, height: Int
    /// Result pixels per full-size pixel (≤ 1: never enlarged).
    let scale: Double

    var isCropped: Bool { regionWidth != fullWidth || regionHeight != fullHeight }
    /// The size of the whole version at the result's scale (the result
    /// itself when not cropped).
    var scaledFullSize: (width: Int, height: Int) {
        isCropped ? (max(1, Int((Double(fullWidth) * scale).rounded())), max(1, Int((Double(fullHeight) * scale).rounded())))
            : (width, height)
    }
    var isFullSize: Bool { !isCropped && width == fullWidth && height == fullHeight }

    init(fullWidth: Int, fullHeight: Int, target: ImageSize, contentMode: ImageContentMode,
         resizeMode: ImageResizeMode, crop: NormalizedRect?) {
        self.fullWidth = fullWidth
        self.fullHeight = fullHeight
        let w = Double(fullWidth), h = Double(fullHeight)
        if let crop, resizeMode == .exact {
            let l = min(fullWidth - 1, Int((crop.x * w).rounded())), t = min(fullHeight - 1, Int((crop.y * h).rounded()))
            left = l
            top = t
            regionWidth = max(1, min(fullWidth - l, Int(((crop.x + crop.width) * w).rounded()) - l))
            regionHeight = max(1, min(fullHeight - t, Int(((crop.y + crop.height) * h).rounded()) - t))
        } else {
            (left, top, regionWidth, regionHeight) = (0, 0, fullWidth, fullHeight)
        }
        var s = 1.0
        if resizeMode != .none {
            let sx = Double(target.width) / Double(regionWidth), sy = Double(target.height) / Double(regionHeight)
            s = min(1, contentMode == .aspectFit ? min(sx, sy) : max(sx, sy))
        }
        scale = s
        width = max(1, min(regionWidth, Int((Double(regionWidth) * s).rounded())))
        height = max(1, min(regionHeight, Int((Double(regionHeight) * s).rounded())))
    }
}

/// Where the pixels of a result come from.
enum ImageSource {
    /// An image file libvips decodes itself (an original that is not RAW, a
    /// stored render): thumbnailed straight from the file, with
    /// shrink-on-load for JPEG, WebP and HEIF.
    case file(String)
    /// A full-size, upright, sRGB 8-bit image built in memory (a RAW's
    /// development, a render rebuilt from its recipe).
    case image(@Sendable () throws -> Image)
    /// The version's stored preview (Storage/Files/Previews.swift): the same
    /// pixels, smaller, at least the result's size: thumbnailed from the file.
    case preview(String)
}

/// Builds the images requests deliver.
enum ImagePipeline {
    /// Formats whose libvips loader shrinks on load.
    static let shrinkOnLoad: Set<String> = ["jpegload", "webpload", "heifload"]

    /// The source of the final (full-quality) image of a version.
    static func finalSource(_ s: ImageSubject, registry: FilterRegistry, renderer: Renderer) throws -> ImageSource {
        if s.showsAdjustments {
            if let render = s.renderPath, FileIO.exists(render) { return .file(render) }
            guard let data = s.adjustmentData, Recipe.canHandle(data) else {
                throw PhotoEditError.library("the render of photo \(s.id) revision \(s.revision) is missing and its adjustment data is not photoedit's; it cannot be rebuilt")
            }
            let recipe = try Recipe(adjustmentData: data, registry: registry)
            let base = s.basePath ?? s.originalPath
            return .image { try renderer.render(recipe: recipe, originalPath: base) }
        }
        if let path = s.rawPath {
            return .image { try renderer.outputImage(try RawDecoder.develop(path)) }
        }
        return .file(s.originalPath)
    }

    /// The source of a degraded image, when one is cheaper than the final
    /// image: a RAW's preview (`RawDecoder.preview`: its embedded JPEG when
    /// the long edge reaches `longEdge`, else its half-size development), or
    /// a file whose loader shrinks on load (decoded at a quarter of the final size).
    static func previewSource(_ s: ImageSubject, longEdge: Int) -> ImageSource? {
        if s.showsAdjustments {
            guard let render = s.renderPath, FileIO.exists(render), canShrinkOnLoad(render) else { return nil }
            return .file(render)
        }
        if let path = s.rawPath {
            return .image { try RawDecoder.preview(path, minSize: longEdge, target: longEdge) }
        }
        return canShrinkOnLoad(s.originalPath) ? .file(s.originalPath) : nil
    }

    static func canShrinkOnLoad(_ path: String) -> Bool {
        Vips.loader(for: path).map(shrinkOnLoad.contains) ?? false
    }

    /// The result image for `geometry` from `source`, upright, sRGB 8-bit.
    static func image(from source: ImageSource, geometry g: ImageGeometry, resizeMode: ImageResizeMode) throws -> Image {
        switch source {
        case .image(let make):
            let full = try make()
            if !g.isCropped, !g.isFullSize, full.width != g.fullWidth || full.height != g.fullHeight,
               full.width >= g.width, full.height >= g.height {
                // A reduced copy (a render's area average, a half-size RAW)
                // still covering the result: exactly the result's size.
                return try full.resizedExactly(width: g.width, height: g.height, kernel: nil)
            }
            // The built image's own size rules (a half-size preview is smaller).
            let fw = Double(g.fullWidth), fh = Double(g.fullHeight)
            let actual = full.width == g.fullWidth && full.height == g.fullHeight ? g
                : ImageGeometry(fullWidth: full.width, fullHeight: full.height,
                                target: ImageSize(width: g.width, height: g.height), contentMode: .aspectFit,
                                resizeMode: g.isFullSize ? .none : .exact,
                                crop: g.isCropped ? NormalizedRect(x: Double(g.left) / fw, y: Double(g.top) / fh,
                                                                   width: Double(g.regionWidth) / fw, height: Double(g.regionHeight) / fh) : nil)
            return try resized(full, actual)
        case .file(let path):
            if g.isFullSize {
                return try outputSRGB(try Image.load(path: path, sequential: false).autorotated())
            }
            if resizeMode == .fast, !g.isCropped, Vips.loader(for: path) == "jpegload" {
                // The largest 1/2ⁿ scale libjpeg decodes to that still covers the size.
                var factor = 8
                while factor > 1 && ((g.fullWidth + factor - 1) / factor < g.width || (g.fullHeight + factor - 1) / factor < g.height) {
                    factor /= 2
                }
                let loaded = try Image.load(path: path, sequential: false, extra: [("shrink", .number(Double(factor)))])
                return try outputSRGB(try loaded.autorotated())
            }
            return try thumbnailed(path, g)
        case .preview(let path):
            return try thumbnailed(path, g)
        }
    }

    /// The whole image in `path` at the result's scale, then the region.
    /// No export profile: libvips would then treat an untagged file as its
    /// own sRGB profile and shift it; outputSRGB converts tagged files as
    /// the renderer does.
    private static func thumbnailed(_ path: String, _ g: ImageGeometry) throws -> Image {
        let scaled = g.scaledFullSize
        var image = try Vips.image("thumbnail", [
            ("filename", .string(path)), ("width", .number(Double(scaled.width))), ("height", .number(Double(scaled.height))),
            ("size", .string("force")), ("fail_on", .string("truncated")),
        ])
        if g.isCropped { image = try region(of: image, g) }
        return try outputSRGB(image)
    }

    /// Resizes a full-size in-memory image to `g`.
    static func resized(_ full: Image, _ g: ImageGeometry) throws -> Image {
        if g.isFullSize { return full }
        let scaledWidth = max(1, Int((Double(g.fullWidth) * g.scale).rounded()))
        let scaledHeight = max(1, Int((Double(g.fullHeight) * g.scale).rounded()))
        var image = full
        if g.isCropped && g.scale == 1 {
            return try full.extractArea(left: g.left, top: g.top, width: g.width, height: g.height)
        }
        image = try full.resizedExactly(width: g.isCropped ? scaledWidth : g.width, height: g.isCropped ? scaledHeight : g.height,
                                        kernel: nil)
        return g.isCropped ? try region(of: image, g) : image
    }

    /// The region of `g` from the whole image at `g.scale`.
    private static func region(of scaled: Image, _ g: ImageGeometry) throws -> Image {
        let left = max(0, min(scaled.width - g.width, Int((Double(g.left) * g.scale).rounded())))
        let top = max(0, min(scaled.height - g.height, Int((Double(g.top) * g.scale).rounded())))
        return try scaled.extractArea(left: left, top: top, width: min(g.width, scaled.width), height: min(g.height, scaled.height))
    }

    /// Upright, no alpha, sRGB 8-bit, the sRGB profile embedded, orientation 1.
    static func outputSRGB(_ input: Image) throws -> Image {
        var image = input
        if image.hasAlpha {
            let max = image.formatName == "ushort" ? 65535.0 : 255.0
            image = try image.call("flatten", [("background", .doubles([max, max, max])), ("max_alpha", .number(max))])
        }
        if let profile = image.blob("icc-profile-data"), !ICCProfile.isSRGB(profile) {
            image = try image.call("icc_transform", [("output_profile", .string("srgb")), ("embedded", .bool(true)),
                                                     ("intent", .string("relative"))])
        }
        if image.interpretationName != "srgb" || image.bands != 3 || image.formatName != "uchar" {
            image = try image.colourspace("srgb")
            if image.bands > 3 { image = try image.extractBands(0, count: 3) }
            image = try image.cast("uchar")
        }
        let out = try image.copyForMetadata()
        out.setBlob("icc-profile-data", try ICCProfile.sRGB())
        out.setInt("orientation", 1)
        return out
    }
}
