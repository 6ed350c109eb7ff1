import Foundation

extension Filters {
    /// The parameters of `resize`, read through these keys.
    enum ResizeKeys {
        static let long = ParameterKey.number("long", 0...100_000, default: 0, unit: "px", step: 1, "long edge in pixels; 0 = not set")
        static let width = ParameterKey.number("width", 0...100_000, default: 0, unit: "px", step: 1, "box width in pixels (fit inside); 0 = no limit")
        static let height = ParameterKey.number("height", 0...100_000, default: 0, unit: "px", step: 1, "box height in pixels (fit inside); 0 = no limit")
        static let scale = ParameterKey.number("scale", 0.01...8, default: 1, "scale factor, applied as given (1 = unchanged)")
        static let kernel = ParameterKey.choice("kernel", ["lanczos3", "lanczos2", "cubic", "mitchell", "linear", "nearest"], default: "lanczos3", "resampling kernel")
        static let enlarge = ParameterKey.bool("enlarge", default: false, "let a long edge or box enlarge a smaller image (otherwise it only shrinks)")
    }

    /// Resize, last in the pipeline: to a long edge, to fit a box, or by a
    /// scale factor, with a named resampling kernel (libvips `resize`).
    /// Long edge and box never enlarge unless `enlarge` is set; a scale is
    /// applied as given. Sizes are in pixels of the full-size render and
    /// follow `RenderContext.scale` in previews.
    public static let resize = FilterDefinition(
        id: "resize", version: 1, stage: .output, order: 10,
        summary: "resizes the output to a long edge, to fit a width×height box, or by a scale, with a named kernel",
        colourSpace: "linear RGB (resampled in linear light)",
        keys: [ResizeKeys.long, ResizeKeys.width, ResizeKeys.height, ResizeKeys.scale, ResizeKeys.kernel, ResizeKeys.enlarge],
        forms: [
            ChainForm(["long"], "to a long edge, e.g. resize=2048"),
            ChainForm(["width", "height"], "to fit inside a box, e.g. resize=1920:1080"),
        ],
        check: { p in
            let modes = [p[ResizeKeys.long] > 0, p[ResizeKeys.width] > 0 || p[ResizeKeys.height] > 0, p[ResizeKeys.scale] != 1].filter { $0 }
            return modes.count > 1 ? "give one of a long edge, a width/height box or a scale, not several" : nil
        }
    ) { image, p, context in
        let (w, h) = (Double(image.width), Double(image.height))
        let target: (Double, Double)
        if p[ResizeKeys.scale] != 1 {
            target = ((w * p[ResizeKeys.scale]).rounded(), (h * p[ResizeKeys.scale]).rounded())
        } else {
            var k = Double.infinity
            if p[ResizeKeys.long] > 0 { k = p[ResizeKeys.long] * context.scale / max(w, h) }
            if p[ResizeKeys.width] > 0 { k = min(k, p[ResizeKeys.width] * context.scale / w) }
            if p[ResizeKeys.height] > 0 { k = min(k, p[ResizeKeys.height] * context.scale / h) }
            if !k.isFinite { return image }
            if k > 1 && !p[ResizeKeys.enlarge] { return image }
            target = ((w * k).rounded(), (h * k).rounded())
        }
        let (tw, th) = (max(1, target.0), max(1, target.1))
        if Int(tw) == image.width && Int(th) == image.height { return image }
        var out = try image.call("resize", [("scale", .number(tw / w)), ("vscale", .number(th / h)),
                                            ("kernel", .string(p[ResizeKeys.kernel]))])
        // libvips rounds the output size; make it exactly the size asked for.
        if out.width != Int(tw) || out.height != Int(th) {
            out = try out.call("embed", [("x", .number(0)), ("y", .number(0)), ("width", .number(tw)), ("height", .number(th)),
                                         ("extend", .string("copy"))])
        }
        return out
    }
}
