import Foundation
import PhotoEdit

/// How far two images may differ and still count as the same picture, in
/// CIEDE2000 (ΔE00) units: the largest difference of any pixel and the mean
/// over all pixels. The standard values are darktable's for its golden
/// images: max 2.3 (about one just-noticeable difference), mean 0.77.
public struct GoldenTolerance: Hashable, Sendable, Codable, CustomStringConvertible {
    /// The largest ΔE00 any pixel may have.
    public var maxDeltaE: Double
    /// The largest mean ΔE00 over the image.
    public var meanDeltaE: Double

    /// max 2.3, mean 0.77.
    public static let standard = GoldenTolerance(maxDeltaE: 2.3, meanDeltaE: 0.77)

    /// A tolerance of `maxDeltaE` per pixel and `meanDeltaE` on average.
    public init(maxDeltaE: Double, meanDeltaE: Double) {
        self.maxDeltaE = maxDeltaE
        self.meanDeltaE = meanDeltaE
    }

    enum CodingKeys: String, CodingKey {
        case maxDeltaE = "max", meanDeltaE = "mean"
    }

    /// Checks both limits are finite and not negative.
    public func validated() throws -> GoldenTolerance {
        for (name, value) in [("max", maxDeltaE), ("mean", meanDeltaE)] where !(value.isFinite && value >= 0 && value <= 1000) {
            throw PhotoEditError.invalidOutput("tolerance \(name) \(value) is not a number from 0 to 1000")
        }
        return self
    }

    /// "max 2.3, mean 0.77".
    public var description: String { "max \(JSONValue.format(maxDeltaE)), mean \(JSONValue.format(meanDeltaE))" }
}

/// How two images differ: CIEDE2000 per pixel, summarised.
public struct ImageDifference: Sendable, Equatable {
    /// The first image's size, as displayed (EXIF orientation applied).
    public var size: ImageSize
    /// The second image's size, as displayed.
    public var referenceSize: ImageSize
    /// Largest ΔE00 of any pixel (infinity when the sizes differ).
    public var maxDeltaE: Double
    /// Mean ΔE00 over all pixels (infinity when the sizes differ).
    public var meanDeltaE: Double
    /// Where the largest difference is (x, y from the top left), the first such pixel.
    public var maxAt: (x: Int, y: Int) { (maxX, maxY) }
    var maxX: Int
    var maxY: Int
    /// Share of the pixels (0…1) whose ΔE00 reaches the tolerance's max.
    public var fractionOverMax: Double
    /// The tolerance the images were checked against.
    public var tolerance: GoldenTolerance

    /// Are both images the same size?
    public var sameSize: Bool { size == referenceSize }

    /// Same size, and within both limits of the tolerance.
    public var passes: Bool { problem == nil }

    /// Why the images do not count as the same picture (one line), or nil.
    public var problem: String? {
        guard sameSize else {
            return "sizes differ: \(size.width)×\(size.height) vs \(referenceSize.width)×\(referenceSize.height) (images of different sizes cannot be compared pixel by pixel)"
        }
        guard maxDeltaE > tolerance.maxDeltaE || meanDeltaE > tolerance.meanDeltaE else { return nil }
        return "ΔE2000 " + figures
    }

    /// "max 0.412 (limit 2.3) at 120,43, mean 0.051 (limit 0.77), 0.00 % of pixels ≥ 2.3".
    public var figures: String {
        guard sameSize else { return "sizes differ" }
        return String(format: "max %.3f (limit %@) at %d,%d, mean %.3f (limit %@), %.2f %% of pixels ≥ %@",
                      maxDeltaE, JSONValue.format(tolerance.maxDeltaE), maxX, maxY, meanDeltaE,
                      JSONValue.format(tolerance.meanDeltaE), fractionOverMax * 100, JSONValue.format(tolerance.maxDeltaE))
    }

    public static func == (a: ImageDifference, b: ImageDifference) -> Bool {
        a.size == b.size && a.referenceSize == b.referenceSize && a.maxDeltaE == b.maxDeltaE && a.meanDeltaE == b.meanDeltaE
            && a.maxX == b.maxX && a.maxY == b.maxY && a.fractionOverMax == b.fractionOverMax && a.tolerance == b.tolerance
    }

    /// The figures as JSON (for `photoedit compare --json` and reports).
    public var json: JSONValue {
        var out: [String: JSONValue] = [
            "pass": .bool(passes), "sameSize": .bool(sameSize),
            "width": .number(Double(size.width)), "height": .number(Double(size.height)),
            "referenceWidth": .number(Double(referenceSize.width)), "referenceHeight": .number(Double(referenceSize.height)),
            "tolerance": .object(["max": .number(tolerance.maxDeltaE), "mean": .number(tolerance.meanDeltaE)]),
        ]
        if sameSize {
            out["maxDeltaE"] = .number(JSONValue.canonicalNumber((maxDeltaE * 1e4).rounded() / 1e4))
            out["meanDeltaE"] = .number(JSONValue.canonicalNumber((meanDeltaE * 1e4).rounded() / 1e4))
            out["maxAt"] = .object(["x": .number(Double(maxX)), "y": .number(Double(maxY))])
            out["fractionOverMax"] = .number(JSONValue.canonicalNumber((fractionOverMax * 1e6).rounded() / 1e6))
        }
        if let problem { out["problem"] = .string(problem) }
        return .object(out)
    }
}

/// CIEDE2000 comparison of two image files of any format photoedit reads,
/// as they are displayed (the engine behind `photoedit compare`, `photoedit
/// test`, PhotoEditTesting and the project's golden tests).
///
/// - Colour: each image goes through its embedded ICC profile (lcms2) into
///   the engine's working space, then CIE Lab (libvips `dE00`); an image
///   without a profile is sRGB. So an Adobe RGB PNG and its sRGB conversion
///   compare as equal, up to rounding and colours sRGB cannot hold.
/// - Depth: 8- and 16-bit images compare by colour, not by code value.
/// - Orientation: the EXIF orientation is applied first.
/// - Alpha: each image is composited over black and over white, and a pixel's
///   ΔE00 is the larger of the two. A change of transparency counts as much
///   as the change it makes on either background; the colour of fully
///   transparent pixels, which nobody sees, does not count. An image without
///   alpha is opaque.
/// - Camera RAW files compare as their neutral development.
/// - Limits: both files are checked as `photoedit import` checks their
///   headers (accepted formats, pixel limit `PHOTOEDIT_MAX_PIXELS`) before
///   any pixel is decoded; truncated or corrupt pixel data is an error when
///   it is read. Errors are one line.
public enum ImageComparison {
    /// Compares `path` with `reference`.
    ///
    /// - Parameters:
    ///   - tolerance: the limits `passes` and `problem` check.
    ///   - diffImage: where to write the difference picture (PNG, JPEG, TIFF
    ///     or WebP by extension): the reference in dimmed grey, pixels from
    ///     ΔE00 0.5 up to the max tolerance in yellow (more opaque as they
    ///     near it), pixels at or above it in red. Not written when the sizes
    ///     differ.
    ///   - diffOnlyOnFailure: write `diffImage` only when the images do not pass.
    /// - Returns: the difference; images of different sizes are a result
    ///   (`sameSize` false), not an error.
    /// - Throws: `PhotoEditError` when a file cannot be read as an image.
    public static func compare(_ path: String, _ reference: String, tolerance: GoldenTolerance = .standard,
                               diffImage: String? = nil, diffOnlyOnFailure: Bool = false) throws -> ImageDifference {
        let tolerance = try tolerance.validated()
        if let diffImage { _ = try diffFormat(diffImage) }
        let a = try DisplayedImage(path: path)
        let b = try DisplayedImage(path: reference)
        var result = ImageDifference(size: a.size, referenceSize: b.size, maxDeltaE: .infinity, meanDeltaE: .infinity,
                                     maxX: 0, maxY: 0, fractionOverMax: 1, tolerance: tolerance)
        guard result.sameSize else { return result }
        var map = try deltaEMap(a, b)
        let wantsDiff = diffImage != nil
        if wantsDiff && a.size.width * a.size.height <= inMemoryLimit {
            // Computed once, read twice (figures, then the picture).
            map = try map.inMemory()
        }
        let over = try map.call("relational_const", [("relational", .string("moreeq")), ("c", .doubles([tolerance.maxDeltaE]))])
        let stats = try Statistics(try map.joined(with: over.cast("float")))
        result.maxDeltaE = stats.maximum(band: 0)
        result.meanDeltaE = stats.mean(band: 0)
        (result.maxX, result.maxY) = stats.maximumAt(band: 0)
        result.fractionOverMax = stats.mean(band: 1) / 255
        if let diffImage, !(diffOnlyOnFailure && result.passes) {
            try writeDiff(map: map, reference: b, tolerance: tolerance, to: diffImage)
        }
        return result
    }

    /// Above this many pixels the ΔE map is recomputed for the diff picture
    /// instead of held in memory (4 bytes a pixel).
    static let inMemoryLimit = 40_000_000

    /// ΔE00 per pixel; for images with alpha, the larger over black and over white.
    static func deltaEMap(_ a: DisplayedImage, _ b: DisplayedImage) throws -> Image {
        let onBlack = try a.onBlack.deltaE2000(b.onBlack)
        guard a.hasAlpha || b.hasAlpha else { return onBlack }
        let onWhite = try a.onWhite.deltaE2000(b.onWhite)
        let blackIsLarger = try Vips.image("relational", [("left", .image(onBlack)), ("right", .image(onWhite)),
                                                          ("relational", .string("more"))])
        return try Vips.image("ifthenelse", [("cond", .image(blackIsLarger)), ("in1", .image(onBlack)), ("in2", .image(onWhite))])
    }

    static func diffFormat(_ path: String) throws -> OutputFormat {
        let ext = (path as NSString).pathExtension
        guard let format = OutputFormat(pathExtension: ext) else {
            throw PhotoEditError.invalidOutput("diff image \(path): unknown file extension '.\(ext)' (use .png, .jpg, .tif or .webp)")
        }
        let folder = (path as NSString).deletingLastPathComponent
        guard folder.isEmpty || FileIO.isDirectory(folder) else {
            throw PhotoEditError.invalidOutput("cannot write \(path): folder \(folder) does not exist")
        }
        return format
    }

    /// The difference picture: the reference's luminance as a light, low
    /// contrast grey (so the eye goes to the colours), yellow where ΔE00 is
    /// from 0.5 (about the smallest visible difference) to the max
    /// tolerance, opacity 25 % → 85 %, red where it reaches the max.
    static func writeDiff(map: Image, reference: DisplayedImage, tolerance: GoldenTolerance, to path: String) throws {
        let format = try diffFormat(path)
        let maximum = max(tolerance.maxDeltaE, 0.01)
        let low = min(0.5, maximum / 2)
        let grey = try reference.onWhite.colourspace("b-w").cast("float").linear(multiply: [0.3], add: [150])
        let base = try Vips.image("bandjoin", [("in", .images([grey, grey, grey]))])
        // Opacity 0…1 per pixel.
        let slope = 0.6 / (maximum - low)
        let ramp = try map.linear(multiply: [slope], add: [0.25 - slope * low])
        let isLow = try map.call("relational_const", [("relational", .string("less")), ("c", .doubles([low]))])
        let isOver = try map.call("relational_const", [("relational", .string("moreeq")), ("c", .doubles([maximum]))])
        func constant(_ values: [Double]) throws -> Image {
            try map.linear(multiply: values.map { _ in 0 }, add: values)
        }
        func choose(_ condition: Image, _ yes: Image, _ no: Image) throws -> Image {
            try Vips.image("ifthenelse", [("cond", .image(condition)), ("in1", .image(yes)), ("in2", .image(no))])
        }
        let alpha = try choose(isOver, constant([1]), choose(isLow, constant([0]), ramp))
        let colour = try choose(isOver, constant([220, 20, 20]), constant([255, 200, 0]))
        // base + (colour − base) × alpha
        let blended = try base.adding(colour.subtracting(base).multiplied(by: alpha))
        let out = try blended.cast("uchar").call("copy", [("interpretation", .string("srgb"))]).copyForMetadata()
        out.setBlob("icc-profile-data", try ICCProfile.sRGB())
        try writeStaged(to: path) { staged in
            try Renderer.save(out, to: staged, format: format, quality: 95)
        }
    }
}

/// Writes a file through a temporary name beside it, so that it appears
/// whole or not at all.
func writeStaged(to path: String, _ write: (String) throws -> Void) throws {
    let staged = path + ".photoedit-\(UUID().uuidString.prefix(8))"
    defer { unlink(staged) }
    try write(staged)
    guard rename(staged, path) == 0 else {
        throw PhotoEditError.invalidOutput("cannot write \(path): \(String(cString: strerror(errno)))")
    }
}

/// One image file as displayed, in the working space (linear float RGB),
/// composited over black and over white when it has alpha.
struct DisplayedImage {
    let onBlack: Image
    let onWhite: Image
    let hasAlpha: Bool

    var size: ImageSize { ImageSize(width: onBlack.width, height: onBlack.height) }

    init(path: String) throws {
        let probed = try Importer.probe(path: path, displayPath: path, decodeAll: false)
        if probed.format == "raw" {
            let developed = try RawDecoder.develop(path)
            (onBlack, onWhite, hasAlpha) = (developed, developed, false)
            return
        }
        // Outside libvips' cache: golden files are rewritten in place (record mode).
        var image = try Image.load(path: path, sequential: false, cached: false)
        if (image.int("orientation") ?? 1) != 1 { image = try image.autorotated() }
        if image.hasAlpha {
            onBlack = try Renderer.workingSpace(image.flattened(onWhite: false))
            onWhite = try Renderer.workingSpace(image.flattened(onWhite: true))
            hasAlpha = true
        } else {
            let working = try Renderer.workingSpace(image)
            (onBlack, onWhite, hasAlpha) = (working, working, false)
        }
    }
}

/// libvips' `stats`: per band min, max, sum, sum², mean, deviation, and the
/// positions of the min and max, in one pass over the image.
struct Statistics {
    private let values: [Double]
    private let columns = 10

    init(_ image: Image) throws {
        let matrix = try image.call("stats")
        let bytes = try matrix.pixelBytes()
        values = bytes.withUnsafeBytes { Array($0.bindMemory(to: Double.self)) }
    }

    /// Row 0 is every band together; row b + 1 is band b.
    private func value(band: Int, column: Int) -> Double {
        let index = (band + 1) * columns + column
        return index < values.count ? values[index] : .nan
    }

    func maximum(band: Int) -> Double { value(band: band, column: 1) }
    func mean(band: Int) -> Double { value(band: band, column: 4) }
    func maximumAt(band: Int) -> (Int, Int) { (Int(value(band: band, column: 8)), Int(value(band: band, column: 9))) }
}
