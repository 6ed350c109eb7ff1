import CPhotoEditShim
import CVips
import Foundation

extension Filters {
    /// The parameters of `ca`, read through these keys.
    enum ChromaticAberrationKeys {
        static let mode = ParameterKey.choice("mode", ["manual", "auto"], default: "manual",
            "auto: red's and blue's magnifications measured on the photo (every render); manual: red and blue as set")
        static let red = ParameterKey.number("red", -10...10, default: 0, unit: "‰", "red's magnification about the centre, in thousandths (+ enlarges red)")
        static let blue = ParameterKey.number("blue", -10...10, default: 0, unit: "‰", "blue's magnification about the centre, in thousandths (+ enlarges blue)")
    }

    /// Lateral chromatic aberration, measured on the photo or set by hand
    /// (Lightroom's Remove Chromatic Aberration when no lens profile is
    /// known; `lens.tca` corrects it from lensfun's profile of the lens).
    ///
    /// Red and blue are each magnified about the image centre (bilinear,
    /// edges repeated) by 1 + red/1000 and 1 + blue/1000. With mode `auto` the
    /// two magnifications are measured on the image the filter receives:
    /// on square-root planes high-passed by a 7 × 7 box, at the strongest
    /// green edges away from the centre, red and blue are fitted by least
    /// squares as green plus its radial derivative (three rounds); the
    /// estimate is made on every render (at most 1200 px on the long side).
    public static let ca = FilterDefinition(
        id: "ca", version: 1, stage: .whiteBalance, order: -8,
        summary: "corrects lateral chromatic aberration (red and blue fringes towards the corners): measured on the photo, or set",
        colourSpace: "linear RGB; red and blue resampled bilinearly",
        keys: [ChromaticAberrationKeys.mode, ChromaticAberrationKeys.red, ChromaticAberrationKeys.blue],
        forms: [
            ChainForm([], fixed: ["mode": .text("auto")], "ca alone: measured on the photo"),
            ChainForm(["red", "blue"], "red and blue magnifications in thousandths, e.g. ca=+0.4:-0.3"),
        ],
        needsRandomAccess: { p in p[ChromaticAberrationKeys.mode] == "auto" || p[ChromaticAberrationKeys.red] != 0 || p[ChromaticAberrationKeys.blue] != 0 }
    ) { image, p, _ in
        var red = 1 + p[ChromaticAberrationKeys.red] / 1000, blue = 1 + p[ChromaticAberrationKeys.blue] / 1000
        if p[ChromaticAberrationKeys.mode] == "auto" { (red, blue) = try LateralCA.measure(image) }
        if red == 1 && blue == 1 { return image }
        return try LateralCA.magnify(image, red: red, blue: blue)
    }.inPanel(.optics, section: "Lens corrections")
}

/// The `ca` filter's measurement and correction.
enum LateralCA {
    /// The longest side the measurement looks at.
    static let measureSide = 1200

    /// Red's and blue's magnifications that align them with green (1, 1 when too few edges).
    static func measure(_ image: Image) throws -> (red: Double, blue: Double) {
        let long = max(image.width, image.height)
        var small = image
        if long > measureSide {
            let s = Double(measureSide) / Double(long)
            small = try image.resized(hscale: s, vscale: s)
        }
        let input = try small.cast("float").inMemory()
        var length = 0
        guard let raw = vips_image_write_to_memory(input.pointer, &length) else { throw Vips.error("write_to_memory") }
        defer { g_free(raw) }
        guard length == input.width * input.height * 3 * MemoryLayout<Float>.size else {
            throw PhotoEditError.invalidParameter(filter: "ca", parameter: "mode", problem: "expected a 3-band image")
        }
        var red = 1.0, blue = 1.0
        let edges = pe_measure_lateral_ca(raw.assumingMemoryBound(to: Float.self), Int32(input.width), Int32(input.height), &red, &blue)
        guard edges >= 0 else { throw PhotoEditError.library("lateral chromatic aberration: the image could not be measured") }
        return (red, blue)
    }

    /// Red and blue magnified about the centre by `red` and `blue`.
    static func magnify(_ image: Image, red: Double, blue: Double) throws -> Image {
        let (cx, cy) = (Double(image.width - 1) / 2, Double(image.height - 1) / 2)
        func scaled(_ band: Int, _ k: Double) throws -> Image {
            let plane = try image.extractBands(band, count: 1)
            if k == 1 { return plane }
            return try plane.call("affine", [
                ("matrix", .doubles([k, 0, 0, k])), ("odx", .number(cx * (1 - k))), ("ody", .number(cy * (1 - k))),
                ("oarea", .doubles([0, 0, Double(image.width), Double(image.height)])), ("extend", .string("copy")),
            ])
        }
        let joined = try Vips.image("bandjoin", [("in", .images([try scaled(0, red), try image.extractBands(1, count: 1), try scaled(2, blue)]))])
        return try joined.call("copy", [("interpretation", .string(image.interpretationName))])
    }
}
