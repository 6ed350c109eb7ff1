import Foundation

extension Filters {
    /// Resize, last in the pipeline: to a long edge, to fit a box, or by a
    /// scale factor, with a named resampling kernel (libvips `resize`).
    /// Long edge and box never enlarge unless `enlarge` is set; a scale is
    /// applied as given. Sizes are in pixels of the full-size render and
    /// follow `RenderContext.scale` in previews.
    public static let resize = FilterDefinition(
        id: "resize", version: 1, stage: .output, order: 10,
        summary: "resizes the output to a long edge, to fit a width×height box, or by a scale, with a named kernel",
        colourSpace: "linear RGB (resampled in linear light)",
        parameters: [
            .number("long", 0...100_000, default: 0, unit: "px", step: 1, "long edge in pixels; 0 = not set"),
            .number("width", 0...100_000, default: 0, unit: "px", step: 1, "box width in pixels (fit inside); 0 = no limit"),
            .number("height", 0...100_000, default: 0, unit: "px", step: 1, "box height in pixels (fit inside); 0 = no limit"),
            .number("scale", 0.01...8, default: 1, "scale factor, applied as given (1 = unchanged)"),
            .choice("kernel", ["lanczos3", "lanczos2", "cubic", "mitchell", "linear", "nearest"], default: "lanczos3", "resampling kernel"),
            .bool("enlarge", default: false, "let a long edge or box enlarge a smaller image (otherwise it only shrinks)"),
        ],
        forms: [
            ChainForm(["long"], "to a long edge, e.g. resize=2048"),
            ChainForm(["width", "height"], "to fit inside a box, e.g. resize=1920:1080"),
        ],
        check: { p in
            let modes = [p.number("long") > 0, p.number("width") > 0 || p.number("height") > 0, p.number("scale") != 1].filter { $0 }
            return modes.count > 1 ? "give one of a long edge, a width/height box or a scale, not several" : nil
        }
    ) { image, p, context in
        let (w, h) = (Double(image.width), Double(image.height))
        let target: (Double, Double)
        if p.number("scale") != 1 {
            target = ((w * p.number("scale")).rounded(), (h * p.number("scale")).rounded())
        } else {
            var k = Double.infinity
            if p.number("long") > 0 { k = p.number("long") * context.scale / max(w, h) }
            if p.number("width") > 0 { k = min(k, p.number("width") * context.scale / w) }
            if p.number("height") > 0 { k = min(k, p.number("height") * context.scale / h) }
            if !k.isFinite { return image }
            if k > 1 && !p.bool("enlarge") { return image }
            target = ((w * k).rounded(), (h * k).rounded())
        }
        let (tw, th) = (max(1, target.0), max(1, target.1))
        if Int(tw) == image.width && Int(th) == image.height { return image }
        var out = try image.call("resize", [("scale", .number(tw / w)), ("vscale", .number(th / h)),
                                            ("kernel", .string(p.text("kernel")))])
        // libvips rounds the output size; make it exactly the size asked for.
        if out.width != Int(tw) || out.height != Int(th) {
            out = try out.call("embed", [("x", .number(0)), ("y", .number(0)), ("width", .number(tw)), ("height", .number(th)),
                                         ("extend", .string("copy"))])
        }
        return out
    }
}
