import Foundation

extension Filters {
    /// The parameters of `crop`, read through these keys.
    enum CropKeys {
        static let mode = ParameterKey.choice("mode", ["rect", "aspect", "trim"], default: "rect", "how the crop is chosen")
        static let x = ParameterKey.number("x", 0...1, default: 0, "left edge, as a fraction of the width (rect)")
        static let y = ParameterKey.number("y", 0...1, default: 0, "top edge, as a fraction of the height (rect)")
        static let w = ParameterKey.number("w", 0.001...1, default: 1, "width, as a fraction of the width (rect)")
        static let h = ParameterKey.number("h", 0.001...1, default: 1, "height, as a fraction of the height (rect)")
        static let aw = ParameterKey.number("aw", 0.01...10000, default: 1, "aspect ratio width (aspect)")
        static let ah = ParameterKey.number("ah", 0.01...10000, default: 1, "aspect ratio height (aspect)")
        static let threshold = ParameterKey.number("threshold", 0...100, default: 10, "how far (0–255 sRGB) a pixel may differ from the border colour (trim)")
    }

    /// Crop, in one of three modes:
    /// - `rect`: a normalized rectangle x:y:w:h (0…1, top-left origin) of the
    ///   image as it stands after rotate and flip;
    /// - `aspect`: the largest centred rectangle of aspect ratio W:H;
    /// - `trim`: removes a uniform border (scanner margins, letterboxing)
    ///   whose colour is the top-left pixel's, like ImageMagick's `-trim`.
    public static let crop = FilterDefinition(
        id: "crop", version: 1, stage: .geometry, order: 30,
        summary: "crops to a normalized rectangle, to an aspect ratio (centred), or trims a uniform border",
        colourSpace: "any",
        keys: [CropKeys.mode, CropKeys.x, CropKeys.y, CropKeys.w, CropKeys.h, CropKeys.aw, CropKeys.ah, CropKeys.threshold],
        forms: [
            ChainForm(["x", "y", "w", "h"], fixed: ["mode": .text("rect")], "a normalized rectangle, e.g. crop=0.1:0.1:0.8:0.8"),
            ChainForm(["aw", "ah"], fixed: ["mode": .text("aspect")], "the largest centred W:H rectangle, e.g. crop=16:9"),
            ChainForm([], fixed: ["mode": .text("trim")], "crop alone trims a uniform border"),
        ],
        check: { p in
            guard p[CropKeys.mode] == "rect" else { return nil }
            if p[CropKeys.x] + p[CropKeys.w] > 1.000001 { return "x + w must be at most 1 (got \(JSONValue.format(p[CropKeys.x] + p[CropKeys.w])))" }
            if p[CropKeys.y] + p[CropKeys.h] > 1.000001 { return "y + h must be at most 1 (got \(JSONValue.format(p[CropKeys.y] + p[CropKeys.h])))" }
            return nil
        },
        needsRandomAccess: { $0[CropKeys.mode] == "trim" }
    ) { image, p, _ in
        let (w, h) = (Double(image.width), Double(image.height))
        switch p[CropKeys.mode] {
        case "aspect":
            let ratio = p[CropKeys.aw] / p[CropKeys.ah]
            var cw = w, ch = (w / ratio).rounded()
            if ch > h { ch = h; cw = (h * ratio).rounded() }
            let (iw, ih) = (max(1, min(Int(w), Int(cw))), max(1, min(Int(h), Int(ch))))
            if iw == image.width && ih == image.height { return image }
            return try image.extractArea(left: (image.width - iw) / 2, top: (image.height - ih) / 2, width: iw, height: ih)
        case "trim":
            // Measure on an 8-bit sRGB view so the threshold has one meaning.
            let view = try image.colourspace("srgb")
            let background = try view.point(x: 0, y: 0)
            let box = try view.findTrim(threshold: p[CropKeys.threshold], background: background)
            if box.width <= 0 || box.height <= 0 { return image }
            if box.width == image.width && box.height == image.height { return image }
            return try image.extractArea(left: box.left, top: box.top, width: box.width, height: box.height)
        default:
            let left = Int((p[CropKeys.x] * w).rounded()), top = Int((p[CropKeys.y] * h).rounded())
            let cw = min(max(1, Int((p[CropKeys.w] * w).rounded())), image.width - min(left, image.width - 1))
            let ch = min(max(1, Int((p[CropKeys.h] * h).rounded())), image.height - min(top, image.height - 1))
            if left == 0 && top == 0 && cw == image.width && ch == image.height { return image }
            return try image.extractArea(left: min(left, image.width - 1), top: min(top, image.height - 1), width: cw, height: ch)
        }
    }
}
