import CPhotoEditShim
import Foundation

/// An exported file's bytes and how they were made.
public struct ExportedImage: Sendable {
    /// The encoded file.
    public let data: Data
    public let format: ExportFormat
    public let width: Int
    public let height: Int
    /// The quality used (nil for lossless output).
    public let quality: Int?
    /// Encodes made (more than one when a max-bytes limit was searched).
    public let encodes: Int
}

/// The last steps of an export, on an upright image in the output colour
/// space (8-bit sRGB, or what `ICCProfile.exportLinear` made): size,
/// output sharpening, watermark, metadata, encoding (and the max-bytes
/// search). docs/export.md gives the numbers used.
public enum ExportEncoder {
    /// Does libheif encode HEVC here (`heic`)? Tried once on a 16×16 image.
    public static let canEncodeHEIC: Bool = {
        guard let tiny = try? Vips.image("black", [("width", .number(16)), ("height", .number(16)), ("bands", .number(3))]),
              let data = try? tiny.cast("uchar").encoded(format: "heif", options: [("compression", .string("hevc"))]) else {
            _ = Vips.takeError()
            return false
        }
        return data.count > 0
    }()

    /// Size, sharpening, watermark, metadata and encoding of `image`.
    public static func finish(_ image: Image, settings: ExportSettings, metadata: ExportMetadata?) throws -> ExportedImage {
        try settings.validate()
        var image = image
        let target = settings.size.pixels(width: image.width, height: image.height, enlarge: settings.enlarge)
        if target.width != image.width || target.height != image.height {
            image = try image.resizedExactly(width: target.width, height: target.height, kernel: nil)
        }
        if let sharpening = settings.sharpening { image = try sharpen(image, sharpening) }
        if let mark = settings.watermark { image = try watermark(image, mark) }
        image = try withMetadata(image, metadata, policy: settings.metadata)
        return try encode(image, settings: settings)
    }

    // MARK: Sharpening

    /// The unsharp mask of a medium and amount at an output of `longEdge`
    /// pixels: libvips' `sharpen` (on the L of LabS, so colours do not
    /// fringe) with this radius (sigma) and strength (m2, the slope above
    /// the threshold; m1 = 0: flat areas and noise are left alone).
    public static func sharpeningParameters(_ s: ExportSharpening, longEdge: Int) -> (sigma: Double, amount: Double) {
        // Screen output is seen pixel for pixel: a fixed small radius.
        // Prints are seen at a distance where a pixel is small: the radius
        // grows with the output (relative to 2048 px), within limits.
        let scale = Double(longEdge) / 2048
        let sigma: Double
        switch s.medium {
        // libvips' sharpen does nothing below sigma ~0.5 (its mask is one pixel).
        case .screen: sigma = 0.5 * min(max(scale, 1), 1.5)
        case .matte: sigma = 1.0 * min(max(scale, 1), 2.5)
        case .glossy: sigma = 0.7 * min(max(scale, 1), 2.5)
        }
        let amount: Double
        switch s.amount {
        case .low: amount = 1.0
        case .standard: amount = 2.0
        case .high: amount = 3.5
        }
        // Matte paper absorbs ink and softens more than glossy.
        return (sigma, s.medium == .matte ? amount * 1.25 : amount)
    }

    static func sharpen(_ image: Image, _ s: ExportSharpening) throws -> Image {
        let p = sharpeningParameters(s, longEdge: max(image.width, image.height))
        let out = try image.call("sharpen", [("sigma", .number(p.sigma)), ("x1", .number(2)), ("m1", .number(0)), ("m2", .number(p.amount))])
        return try out.formatName == image.formatName ? out : out.cast(image.formatName)
    }

    // MARK: Watermark

    static func watermark(_ image: Image, _ mark: ExportWatermark) throws -> Image {
        let short = Double(min(image.width, image.height))
        let inset = Int((short * mark.inset / 100).rounded())
        let white = image.formatName == "ushort" ? 65535.0 : 255.0
        // The mark's pixels (in the image's format and bands) and its coverage 0…255.
        let pixels: Image, coverage: Image
        if let text = mark.text {
            let height = max(6, short * mark.size / 100)
            let markup = text.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;").replacingOccurrences(of: ">", with: "&gt;")
            // A 12 pt font at `dpi` is 12 × dpi / 72 pixels high.
            let mask = try Vips.image("text", [("text", .string(markup)), ("font", .string("sans bold 12")), ("dpi", .number(max(1, height * 6)))])
            coverage = try mask.cast("uchar")
            pixels = try image.extractArea(left: 0, top: 0, width: 1, height: 1).call("linear", [("a", .doubles([0])), ("b", .doubles([white]))])
                .cast(image.formatName)
                .call("embed", [("x", .number(0)), ("y", .number(0)), ("width", .number(Double(coverage.width))),
                                ("height", .number(Double(coverage.height))), ("extend", .string("copy"))])
        } else if let path = mark.imagePath {
            let loaded: Image
            do {
                loaded = try Image.load(path: path, sequential: false)
            } catch {
                throw PhotoEditError.invalidOutput("watermark file \((path as NSString).lastPathComponent) is not an image libvips can read")
            }
            var m = try loaded.autorotated()
            let width = max(1, Int((Double(image.width) * mark.size / 100).rounded()))
            let height = max(1, Int((Double(m.height) * Double(width) / Double(m.width)).rounded()))
            m = try m.resizedExactly(width: width, height: height, kernel: nil)
            let alpha: Image
            if m.hasAlpha {
                alpha = try m.extractBands(m.bands - 1, count: 1)
                m = try m.extractBands(0, count: m.bands - 1)
            } else {
                alpha = try m.extractBands(0, count: 1).call("linear", [("a", .doubles([0])), ("b", .doubles([255]))]).cast("uchar")
            }
            m = try m.colourspace("srgb")
            if m.bands == 1 { m = try Vips.image("bandjoin", [("in", .images([m, m, m]))]) }
            if m.bands > 3 { m = try m.extractBands(0, count: 3) }
            m = try m.cast("uchar")
            coverage = alpha.formatName == "ushort" ? try alpha.call("linear", [("a", .doubles([1.0 / 257])), ("b", .doubles([0]))]).cast("uchar") : try alpha.cast("uchar")
            pixels = image.formatName == "ushort" ? try m.call("linear", [("a", .doubles([257])), ("b", .doubles([0]))]).cast("ushort") : m
        } else {
            return image
        }
        // Clip the mark to the image, then place it.
        let w = min(coverage.width, max(1, image.width - 2 * inset)), h = min(coverage.height, max(1, image.height - 2 * inset))
        let cov = try coverage.extractArea(left: 0, top: 0, width: w, height: h)
            .call("linear", [("a", .doubles([mark.opacity])), ("b", .doubles([0]))]).cast("uchar")
        let pix = try pixels.extractArea(left: 0, top: 0, width: w, height: h)
        let (x, y) = placement(mark.position, markWidth: w, markHeight: h, width: image.width, height: image.height, inset: inset)
        func placed(_ i: Image) throws -> Image {
            try i.call("embed", [("x", .number(Double(x))), ("y", .number(Double(y))), ("width", .number(Double(image.width))),
                                 ("height", .number(Double(image.height))), ("extend", .string("black"))])
        }
        let out = try Vips.image("ifthenelse", [("cond", .image(try placed(cov))), ("in1", .image(try placed(pix))), ("in2", .image(image)),
                                                ("blend", .bool(true))])
        let cast = try out.formatName == image.formatName ? out : out.cast(image.formatName)
        // ifthenelse keeps the metadata of `cond`: carry the image's over.
        return try carryMetadata(from: image, to: cast)
    }

    static func placement(_ p: WatermarkPosition, markWidth w: Int, markHeight h: Int, width: Int, height: Int, inset: Int) -> (Int, Int) {
        let left = inset, right = max(0, width - w - inset), centreX = max(0, (width - w) / 2)
        let top = inset, bottom = max(0, height - h - inset), centreY = max(0, (height - h) / 2)
        switch p {
        case .topLeft: return (left, top)
        case .top: return (centreX, top)
        case .topRight: return (right, top)
        case .left: return (left, centreY)
        case .center: return (centreX, centreY)
        case .right: return (right, centreY)
        case .bottomLeft: return (left, bottom)
        case .bottom: return (centreX, bottom)
        case .bottomRight: return (right, bottom)
        }
    }

    static func carryMetadata(from source: Image, to image: Image) throws -> Image {
        let out = try image.call("copy", [("interpretation", .string(source.interpretationName))]).copyForMetadata()
        for name in ["icc-profile-data", "exif-data", "xmp-data", "iptc-data"] {
            if let blob = source.blob(name) { out.setBlob(name, blob) }
        }
        return out
    }

    // MARK: Metadata

    /// The fields libvips writes into a saved file's metadata.
    static func isMetadataField(_ name: String) -> Bool {
        name.hasPrefix("exif-") || name.hasPrefix("xmp") || name.hasPrefix("iptc") || name.hasPrefix("jpeg-thumbnail")
            || name == "orientation" || name.hasPrefix("heif-") || name.hasPrefix("png-comment") || name.hasPrefix("gif-comment")
    }

    /// `image` with only the policy's metadata: every EXIF, XMP and IPTC
    /// field removed, then the rebuilt EXIF and the XMP made here set.
    static func withMetadata(_ image: Image, _ metadata: ExportMetadata?, policy: ExportMetadataPolicy) throws -> Image {
        let out = try image.copyForMetadata()
        for name in out.fieldNames where isMetadataField(name) { out.remove(name) }
        if let exif = metadata?.exifBlock(policy) {
            out.setBlob("exif-data", exif)
            if pe_exif_parse(out.pointer) != 0 { _ = Vips.takeError(); out.remove("exif-data") }
        }
        if let xmp = metadata?.xmpPacket(policy) { out.setBlob("xmp-data", xmp) }
        out.setInt("orientation", 1)
        return out
    }

    // MARK: Encoding

    /// Encodes at the settings' quality, or searches the quality for
    /// `maxBytes`.
    static func encode(_ image: Image, settings: ExportSettings) throws -> ExportedImage {
        let lossless = settings.format.isAlwaysLossless || settings.lossless
        func made(_ data: Data, quality: Int?, encodes: Int) -> ExportedImage {
            ExportedImage(data: data, format: settings.format, width: image.width, height: image.height, quality: lossless ? nil : quality, encodes: encodes)
        }
        // Computed once: the search encodes the same pixels several times.
        let source = settings.maxBytes != nil ? try image.inMemory() : image
        guard let limit = settings.maxBytes else {
            return made(try encoded(source, settings, quality: settings.effectiveQuality), quality: settings.effectiveQuality, encodes: 1)
        }
        var encodes = 0
        func at(_ q: Int) throws -> Data { encodes += 1; return try encoded(source, settings, quality: q) }
        let search = try QualitySearch.run(limit: limit, start: settings.effectiveQuality, encode: at)
        guard let (quality, data) = search.fit else {
            throw PhotoEditError.invalidOutput("no quality fits max-bytes \(limit): the smallest \(settings.format.rawValue) at quality 1 is \(search.smallest) bytes at \(image.width)x\(image.height) (make it smaller or allow more)")
        }
        return made(data, quality: quality, encodes: encodes)
    }

    /// The encoded bytes at `quality`.
    static func encoded(_ image: Image, _ s: ExportSettings, quality q: Int) throws -> Data {
        var image = image
        if s.bitDepth == 16, image.formatName != "ushort" {
            image = try image.colourspace("rgb16")
        } else if s.bitDepth == 8, image.formatName != "uchar" {
            image = try image.cast("uchar")
        }
        let Q = ("Q", Vips.Argument.number(Double(q)))
        switch s.format {
        case .jpeg:
            let data = try image.encoded(format: "jpeg", options: [Q, ("optimize_coding", .bool(true))])
            return ExportContainers.withoutGeneratedExif(data, format: .jpeg, policy: s.metadata)
        case .png:
            return try image.encoded(format: "png", options: [("compression", .number(Double(s.effort ?? 6)))])
        case .tiff:
            return try image.encoded(format: "tiff", options: [("compression", .string(s.tiffCompression.rawValue))])
        case .webp:
            let data = try image.encoded(format: "webp", options: [Q, ("lossless", .bool(s.lossless)),
                                                                   ("effort", .number(Double((s.effort ?? 4) * 6 / 9)))])
            return ExportContainers.withoutGeneratedExif(data, format: .webp, policy: s.metadata)
        case .avif, .heic:
            // HEIF keeps its EXIF and XMP in items of the meta box. libvips
            // 8.14's heifsave always adds an Exif item (unless `strip`, which
            // drops the ICC profile too): under `none` it is taken out of
            // the container after encoding, the profile stays.
            let data = try image.encoded(format: "heif", options: [Q, ("lossless", .bool(s.lossless)),
                                                                   ("compression", .string(s.format == .avif ? "av1" : "hevc")),
                                                                   ("effort", .number(Double(s.effort ?? 4)))])
            return ExportContainers.withoutGeneratedExif(data, format: s.format, policy: s.metadata)
        case .jxl:
            return try image.encoded(format: "jxl", options: [Q, ("lossless", .bool(s.lossless)), ("effort", .number(Double(max(1, s.effort ?? 7))))])
        }
    }
}

/// The max-bytes search: the highest quality whose file fits, found in few
/// encodes. The variable is not the quality itself but libjpeg's scaling of
/// its quantisation tables (5000/q below 50, 200 − 2q above): the log of a
/// file's size is close to a straight line in the log of that scale for
/// JPEG, and near enough for WebP, AVIF, HEIC and JPEG XL. A first encode
/// at the asked quality; when it is too large, a secant step aims at the
/// middle of the accepted band (90–100 % of the limit): with the prior slope
/// (−0.7, measured on photos) after one encode, through the last two encodes
/// after that, across the bracket once something fits. It stops when a file
/// fits within 10 % of the limit or no quality is left between one that
/// fits and one that does not. On photos from 30 KB to 2 MB limits it takes
/// 2.7–3.4 encodes on average, 4 at most for JPEG.
enum QualitySearch {
    struct Result {
        var fit: (quality: Int, data: Data)?
        /// The smallest size seen (the quality 1 size when nothing fit).
        var smallest: Int
    }

    /// A fit this close to the limit ends the search.
    static let accepted = 0.9
    /// d log(size) / d log(scale) before two encodes are known.
    static let priorSlope = -0.7

    /// log of libjpeg's table scale (percent) at quality `q`.
    static func logScale(_ q: Int) -> Double {
        log(max(q < 50 ? 5000 / Double(q) : 200 - 2 * Double(q), 1))
    }

    /// The quality whose scale is `exp(x)`.
    static func quality(logScale x: Double) -> Double {
        let scale = exp(x)
        return scale <= 100 ? (200 - scale) / 2 : 5000 / scale
    }

    static func run(limit: Int, start: Int, encode: (Int) throws -> Data) throws -> Result {
        typealias Point = (q: Int, size: Int)
        var data = try encode(start)
        var smallest = data.count
        if data.count <= limit { return Result(fit: (start, data), smallest: smallest) }
        let target = log((1 + accepted) / 2 * Double(limit))
        var high: Point = (start, data.count)
        var low: (q: Int, size: Int, data: Data)?
        var last: Point = high
        var beforeLast: Point?
        for _ in 0..<10 {
            if let low, Double(low.size) >= accepted * Double(limit) || high.q - low.q <= 1 { break }
            if high.q == 1 { break }
            let (a, b): (Point, Point?) = low.map { ((high.q, high.size), ($0.q, $0.size)) } ?? (last, beforeLast)
            var slope = priorSlope
            if let b, logScale(a.q) != logScale(b.q) {
                let measured = (log(Double(a.size)) - log(Double(b.size))) / (logScale(a.q) - logScale(b.q))
                if measured < 0 { slope = measured }
            }
            let guess = quality(logScale: logScale(a.q) + (target - log(Double(a.size))) / slope)
            let q = min(high.q - 1, max((low?.q ?? 0) + 1, Int(guess.rounded())))
            data = try encode(q)
            smallest = min(smallest, data.count)
            beforeLast = last
            last = (q, data.count)
            if data.count <= limit { low = (q, data.count, data) } else { high = (q, data.count) }
        }
        return Result(fit: low.map { ($0.q, $0.data) }, smallest: smallest)
    }
}
