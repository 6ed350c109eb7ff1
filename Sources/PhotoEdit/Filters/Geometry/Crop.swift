import Foundation

extension Filters {
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
        parameters: [
            .choice("mode", ["rect", "aspect", "trim"], default: "rect", "how the crop is chosen"),
            .number("x", 0...1, default: 0, "left edge, as a fraction of the width (rect)"),
            .number("y", 0...1, default: 0, "top edge, as a fraction of the height (rect)"),
            .number("w", 0.001...1, default: 1, "width, as a fraction of the width (rect)"),
            .number("h", 0.001...1, default: 1, "height, as a fraction of the height (rect)"),
            .number("aw", 0.01...10000, default: 1, "aspect ratio width (aspect)"),
            .number("ah", 0.01...10000, default: 1, "aspect ratio height (aspect)"),
            .number("threshold", 0...100, default: 10, "how far (0–255 sRGB) a pixel may differ from the border colour (trim)"),
        ],
        forms: [
            ChainForm(["x", "y", "w", "h"], fixed: ["mode": .text("rect")], "a normalized rectangle, e.g. crop=0.1:0.1:0.8:0.8"),
            ChainForm(["aw", "ah"], fixed: ["mode": .text("aspect")], "the largest centred W:H rectangle, e.g. crop=16:9"),
            ChainForm([], fixed: ["mode": .text("trim")], "crop alone trims a uniform border"),
        ],
        check: { p in
            guard p.text("mode") == "rect" else { return nil }
            if p.number("x") + p.number("w") > 1.000001 { return "x + w must be at most 1 (got \(JSONValue.format(p.number("x") + p.number("w"))))" }
            if p.number("y") + p.number("h") > 1.000001 { return "y + h must be at most 1 (got \(JSONValue.format(p.number("y") + p.number("h"))))" }
            return nil
        },
        needsRandomAccess: { $0.text("mode") == "trim" }
    ) { image, p, _ in
        let (w, h) = (Double(image.width), Double(image.height))
        switch p.text("mode") {
        case "aspect":
            let ratio = p.number("aw") / p.number("ah")
            var cw = w, ch = (w / ratio).rounded()
            if ch > h { ch = h; cw = (h * ratio).rounded() }
            let (iw, ih) = (max(1, min(Int(w), Int(cw))), max(1, min(Int(h), Int(ch))))
            if iw == image.width && ih == image.height { return image }
            return try image.extractArea(left: (image.width - iw) / 2, top: (image.height - ih) / 2, width: iw, height: ih)
        case "trim":
            // Measure on an 8-bit sRGB view so the threshold has one meaning.
            let view = try image.colourspace("srgb")
            let background = try view.point(x: 0, y: 0)
            let box = try view.findTrim(threshold: p.number("threshold"), background: background)
            if box.width <= 0 || box.height <= 0 { return image }
            if box.width == image.width && box.height == image.height { return image }
            return try image.extractArea(left: box.left, top: box.top, width: box.width, height: box.height)
        default:
            let left = Int((p.number("x") * w).rounded()), top = Int((p.number("y") * h).rounded())
            let cw = min(max(1, Int((p.number("w") * w).rounded())), image.width - min(left, image.width - 1))
            let ch = min(max(1, Int((p.number("h") * h).rounded())), image.height - min(top, image.height - 1))
            if left == 0 && top == 0 && cw == image.width && ch == image.height { return image }
            return try image.extractArea(left: min(left, image.width - 1), top: min(top, image.height - 1), width: cw, height: ch)
        }
    }
}
