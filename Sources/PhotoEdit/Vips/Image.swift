import CPhotoEditShim
import CVips
import Foundation

/// An image in a libvips pipeline: immutable and lazy. Operations build new
/// images; pixels are computed only when an image is written or measured.
///
/// The class owns one libvips reference and releases it in `deinit`. libvips
/// images are thread-safe once built, so an `Image` can cross tasks.
// @unchecked: wraps a C pointer to a VipsImage, immutable and thread-safe once built.
public final class Image: @unchecked Sendable {
    let pointer: UnsafeMutablePointer<VipsImage>

    /// Takes ownership of one reference.
    init(owning pointer: UnsafeMutablePointer<VipsImage>) {
        self.pointer = pointer
    }

    deinit {
        g_object_unref(pointer)
    }

    /// Width in pixels.
    public var width: Int { Int(vips_image_get_width(pointer)) }
    /// Height in pixels.
    public var height: Int { Int(vips_image_get_height(pointer)) }
    /// Number of bands (3 for RGB, 4 with alpha, 1 for grey).
    public var bands: Int { Int(vips_image_get_bands(pointer)) }
    /// Does the image have an alpha band?
    public var hasAlpha: Bool { vips_image_hasalpha(pointer) != 0 }

    /// libvips' band format nick: "uchar", "ushort", "float", …
    var formatName: String {
        String(cString: vips_enum_nick(vips_band_format_get_type(), Int32(vips_image_get_format(pointer).rawValue)))
    }

    /// libvips' interpretation nick: "srgb", "scrgb", "rgb16", "b-w", …
    var interpretationName: String {
        String(cString: vips_enum_nick(vips_interpretation_get_type(), Int32(vips_image_get_interpretation(pointer).rawValue)))
    }

    // MARK: Loading and saving

    /// Opens an image file through the loader libvips selects by content.
    ///
    /// - Parameters:
    ///   - sequential: read top to bottom once (less memory); use random
    ///     access when the pipeline rotates or reads the image twice.
    ///   - failOnTruncated: fail on truncated or corrupt data instead of
    ///     filling it in (libvips' default only warns).
    ///   - strict: fail on any decoder warning (`fail_on=warning`): libjpeg's
    ///     "corrupt data" of a file cut short and padded with an end marker.
    ///   - cached: through libvips' operation cache (keyed by file name);
    ///     false reads the file as it is now, for files rewritten in place.
    package static func load(path: String, sequential: Bool, failOnTruncated: Bool = true, strict: Bool = false,
                     extra: [(String, Vips.Argument)] = [], cached: Bool = true) throws -> Image {
        try Vips.ensureStarted()
        guard let loader = Vips.loader(for: path) else {
            throw PhotoEditError.unreadableFile(path: path, reason: "not an image libvips can read")
        }
        var args: [(String, Vips.Argument)] = [("filename", .string(path))]
        args.append(("access", .string(sequential ? "sequential" : "random")))
        if strict {
            args.append(("fail_on", .string("warning")))
        } else if failOnTruncated {
            args.append(("fail_on", .string("truncated")))
        }
        args += extra
        do {
            return try Vips.image(loader, args, cached: cached)
        } catch let PhotoEditError.native(_, _, message) {
            throw PhotoEditError.unreadableFile(path: path, reason: "cannot decode (\(loader)): \(oneLine(message))")
        }
    }

    /// Writes the image to `path`; the saver follows `format` (a libvips saver
    /// prefix such as "jpeg", "png", "tiff", "webp", "heif").
    func save(to path: String, format: String, options: [(String, Vips.Argument)] = []) throws {
        let saver = format + "save"
        try Vips.run(saver, [("in", .image(self)), ("filename", .string(path))] + options) { _ in }
    }

    /// Decodes an encoded image held in memory (JPEG, PNG, WebP…).
    static func load(data: Data) throws -> Image {
        try Vips.ensureStarted()
        let modulesBefore = Vips.modulesLoaded
        var loader = data.withUnsafeBytes { raw in vips_foreign_find_load_buffer(raw.baseAddress, raw.count) }
        if loader == nil, !modulesBefore {
            // Perhaps a format of an optional module (Vips.modulesLoaded).
            _ = Vips.takeError()
            try Vips.loadModules()
            loader = data.withUnsafeBytes { raw in vips_foreign_find_load_buffer(raw.baseAddress, raw.count) }
        }
        guard let loader, let nickname = vips_nickname_find(g_type_from_name(loader)) else {
            _ = Vips.takeError()
            throw PhotoEditError.invalidOutput("image data is not in a format libvips can read")
        }
        return try Vips.image(String(cString: nickname), [("buffer", .blob(data)), ("fail_on", .string("truncated"))])
    }

    /// Encodes the image in memory; `format` is a libvips saver prefix
    /// ("jpeg", "png", "webp", "tiff").
    func encoded(format: String, options: [(String, Vips.Argument)] = []) throws -> Data {
        var data = Data()
        try Vips.run(format + "save_buffer", [("in", .image(self))] + options) { op in
            var bytes: UnsafeMutableRawPointer?
            var length = 0
            guard pe_get_blob(op, "buffer", &bytes, &length) == 0, let bytes else { throw Vips.error(format + "save_buffer") }
            defer { g_free(bytes) }
            data = Data(bytes: bytes, count: length)
        }
        return data
    }

    /// Every pixel, computed and copied out: rows top to bottom, bands
    /// interleaved, in the image's band format.
    package func pixelBytes() throws -> Data {
        var length = 0
        guard let memory = vips_image_write_to_memory(pointer, &length) else { throw Vips.error("write_to_memory") }
        defer { g_free(memory) }
        return Data(bytes: memory, count: length)
    }

    // MARK: Operations used by the engine

    package func call(_ name: String, _ arguments: [(String, Vips.Argument)] = []) throws -> Image {
        try Vips.image(name, [("in", .image(self))] + arguments)
    }

    /// out = in * a + b, per band.
    public func linear(multiply a: [Double], add b: [Double]) throws -> Image {
        try call("linear", [("a", .doubles(a)), ("b", .doubles(b))])
    }

    /// A 3×3 matrix image (row-major values) for `recomb`.
    static func matrix(_ values: [Double]) throws -> Image {
        precondition(values.count == 9)
        try Vips.ensureStarted()
        let m = values.withUnsafeBufferPointer { vips_image_new_matrix_from_array(3, 3, $0.baseAddress, 9) }
        guard let m else { throw Vips.error("matrix") }
        return Image(owning: m)
    }

    /// A 1×3 matrix image (one output band from three) for `recomb`.
    static func matrix1x3(_ values: [Double]) throws -> Image {
        precondition(values.count == 3)
        try Vips.ensureStarted()
        let m = values.withUnsafeBufferPointer { vips_image_new_matrix_from_array(3, 1, $0.baseAddress, 3) }
        guard let m else { throw Vips.error("matrix") }
        return Image(owning: m)
    }

    /// Multiplies the colour bands by a 3×3 matrix (row-major); alpha untouched.
    public func recombine(_ matrix: [Double]) throws -> Image {
        let mat = try Image.matrix(matrix)
        if hasAlpha && bands == 4 {
            let rgb = try extractBands(0, count: 3)
            let alpha = try extractBands(3, count: 1)
            return try rgb.call("recomb", [("m", .image(mat))]).joined(with: alpha)
        }
        return try call("recomb", [("m", .image(mat))])
    }

    /// Bands `first ..< first+count`.
    public func extractBands(_ first: Int, count: Int) throws -> Image {
        try call("extract_band", [("band", .number(Double(first))), ("n", .number(Double(count)))])
    }

    /// Appends the bands of `other`.
    public func joined(with other: Image) throws -> Image {
        try Vips.image("bandjoin", [("in", .images([self, other]))])
    }

    /// A pixel rectangle of the image.
    public func extractArea(left: Int, top: Int, width: Int, height: Int) throws -> Image {
        try Vips.image("extract_area", [("input", .image(self)), ("left", .number(Double(left))), ("top", .number(Double(top))),
                                  ("width", .number(Double(width))), ("height", .number(Double(height)))])
    }

    /// Rotates by a multiple of 90° clockwise.
    public func rotate(quarterTurns: Int) throws -> Image {
        let turns = ((quarterTurns % 4) + 4) % 4
        if turns == 0 { return self }
        return try call("rot", [("angle", .string(["d0", "d90", "d180", "d270"][turns]))])
    }

    /// Mirrors the image: "horizontal" (left–right) or "vertical" (top–bottom).
    public func flip(_ direction: String) throws -> Image {
        try call("flip", [("direction", .string(direction))])
    }

    /// Applies the EXIF orientation to the pixels and sets the tag to 1.
    package func autorotated() throws -> Image {
        try call("autorot")
    }

    /// Converts to another colour space, by libvips' interpretation nick.
    /// Linear float RGB (3-band scRGB, every render's working space) to
    /// "srgb" goes through a table built from libvips' own curve
    /// (photoedit_srgb.c): libvips' bytes (8-bit sRGB), at a fraction of
    /// the cost of its per-pixel conversion; anything else through libvips.
    package func colourspace(_ space: String) throws -> Image {
        if space == "srgb", bands == 3, formatName == "float", interpretationName == "scrgb" {
            if let out = pe_scrgb_to_srgb8(pointer) { return Image(owning: out) }
            _ = Vips.takeError()
        }
        return try call("colourspace", [("space", .string(space))])
    }

    /// This image as 8-bit sRGB: `colourspace("srgb")`, cast to 8 bits
    /// where it was not already (the working space's table gives 8 bits).
    package func sRGB8() throws -> Image {
        let srgb = try colourspace("srgb")
        return srgb.formatName == "uchar" ? srgb : try srgb.cast("uchar")
    }

    /// Casts the band format ("uchar", "ushort", "float").
    package func cast(_ format: String) throws -> Image {
        try call("cast", [("format", .string(format))])
    }

    /// The image composited over white (or black), without its alpha band;
    /// the alpha's range follows the band format (0…65535 for 16 bits).
    package func flattened(onWhite: Bool) throws -> Image {
        let max = formatName == "ushort" ? 65535.0 : 255.0
        let background = onWhite ? max : 0
        return try call("flatten", [("background", .doubles([background, background, background])), ("max_alpha", .number(max))])
    }

    /// The image computed once into memory (libvips `vips_image_copy_memory`),
    /// for pixels read more than once.
    package func inMemory() throws -> Image {
        guard let p = vips_image_copy_memory(pointer) else { throw Vips.error("copy_memory") }
        return Image(owning: p)
    }

    /// Mean over all bands and pixels (decodes the whole image).
    public func average() throws -> Double {
        try Vips.number("avg", [("in", .image(self))])
    }

    /// Decodes every pixel on the calling thread, strip by strip from the
    /// top, and fails if the decoder fails anywhere.
    ///
    /// Not `average()` or any other threaded sink: in libvips 8.14 a worker
    /// waiting on a tile another worker failed to decode gets the tile black
    /// and no error ("error in tile 0 x 392" is only logged), so a JPEG
    /// missing its last 200 bytes passed `vips avg` 1 time in 6 and our
    /// import 3 times in 5. Asked for one strip at a time by one thread,
    /// every failure comes back to the caller.
    func decodeEveryPixel() throws {
        guard let region = vips_region_new(pointer) else { throw Vips.error("region_new") }
        defer { g_object_unref(region) }
        let strip = 64
        var top = 0
        while top < height {
            var rows = VipsRect(left: 0, top: Int32(top), width: Int32(width), height: Int32(min(strip, height - top)))
            guard vips_region_prepare(region, &rows) == 0 else { throw Vips.error("decode") }
            top += strip
        }
    }

    /// The whole image computed into memory by the calling thread alone,
    /// strip by strip from the top, with its fields and metadata.
    ///
    /// libvips' sinks (a save, `copy_memory`, `avg`) run a pipeline on its
    /// shared worker threads, at their priority; computed here, the work
    /// stays on the caller's thread — e.g. a background-lane thread at a
    /// lower priority (``BlockingExecutor/inBackground(_:)``), which must not
    /// start libvips workers (a worker inherits its priority for good).
    func materializedHere() throws -> Image {
        guard let out = pe_materialize_here(pointer) else { throw Vips.error("materialize") }
        return Image(owning: out)
    }

    /// Maximum over all bands and pixels.
    public func maximum() throws -> Double {
        try Vips.number("max", [("in", .image(self))])
    }

    /// Resizes to fit inside `width`×`height` (never upsizing). libvips'
    /// `thumbnail_image`: the golden images are rendered through it, so it
    /// stays (see `resized(hscale:vscale:kernel:)` for its cost at 24 MP).
    func thumbnail(width: Int, height: Int) throws -> Image {
        try Vips.image("thumbnail_image", [("in", .image(self)), ("width", .number(Double(width))),
                                           ("height", .number(Double(height))), ("size", .string("down"))])
    }

    /// libvips' `resize` by `hscale` × `vscale` (Lanczos 3 unless `kernel`
    /// says otherwise), the horizontal pass first when both axes shrink.
    ///
    /// libvips 8.14's `resize` shrinks vertically first, and its horizontal
    /// shrink then asks the vertical pass for one line at a time: at 24 MP
    /// that costs ~1.2 s of CPU more than the two passes apart (measured in
    /// pyvips too: 1.40 s against 0.39 s single-threaded, 6000×4000 in
    /// memory to 1440 px). Each pass alone is the same operation libvips
    /// would run, so the result is the same up to rounding (float images
    /// within 1e-7; 8-bit ones within a few levels, mean 0.2).
    func resized(hscale: Double, vscale: Double, kernel: String? = nil) throws -> Image {
        let options: [(String, Vips.Argument)] = kernel.map { [("kernel", .string($0))] } ?? []
        guard hscale < 1, vscale < 1 else {
            return try call("resize", [("scale", .number(hscale)), ("vscale", .number(vscale))] + options)
        }
        let across = try call("resize", [("scale", .number(hscale)), ("vscale", .number(1))] + options)
        return try across.call("resize", [("scale", .number(1)), ("vscale", .number(vscale))] + options)
    }

    /// CIEDE2000 difference per pixel against `other` (both in a colour space
    /// libvips can convert to Lab).
    public func deltaE2000(_ other: Image) throws -> Image {
        try Vips.image("dE00", [("left", .image(self)), ("right", .image(other))])
    }

    /// The bounding box of the non-background content, as libvips' find_trim.
    func findTrim(threshold: Double, background: [Double]) throws -> (left: Int, top: Int, width: Int, height: Int) {
        var box = (0, 0, 0, 0)
        try Vips.run("find_trim", [("in", .image(self)), ("threshold", .number(threshold)),
                                   ("background", .doubles(background))]) { op in
            let p = op
            box = (Int(pe_get_number(p, "left")), Int(pe_get_number(p, "top")),
                   Int(pe_get_number(p, "width")), Int(pe_get_number(p, "height")))
        }
        return box
    }

    /// The band values of one pixel.
    func point(x: Int, y: Int) throws -> [Double] {
        var values = [Double](repeating: 0, count: 16)
        var count: Int32 = 0
        try Vips.run("getpoint", [("in", .image(self)), ("x", .number(Double(x))), ("y", .number(Double(y)))]) { op in
            count = values.withUnsafeMutableBufferPointer { pe_get_doubles(op, "out_array", $0.baseAddress, 16) }
        }
        return Array(values.prefix(Int(max(0, count))))
    }

    // MARK: Metadata

    /// A copy whose metadata can be changed without touching shared images.
    package func copyForMetadata() throws -> Image {
        guard let p = pe_image_copy(pointer) else { throw Vips.error("copy") }
        return Image(owning: p)
    }

    func hasField(_ name: String) -> Bool { pe_image_has_field(pointer, name) != 0 }

    package func int(_ name: String) -> Int? {
        guard hasField(name) else { return nil }
        var value: Int32 = 0
        if pe_image_get_int(pointer, name, &value) != 0 { _ = Vips.takeError(); return nil }
        return Int(value)
    }

    /// Any field as text (libvips' own formatting: EXIF fields read
    /// "value (description, type, count)").
    func string(_ name: String) -> String? {
        guard hasField(name) else { return nil }
        var out: UnsafeMutablePointer<CChar>?
        if pe_image_get_string(pointer, name, &out) != 0 { _ = Vips.takeError(); return nil }
        defer { g_free(out) }
        return out.map { String(cString: $0) }
    }

    func blob(_ name: String) -> Data? {
        guard hasField(name) else { return nil }
        var data: UnsafeRawPointer?
        var length = 0
        if pe_image_get_blob(pointer, name, &data, &length) != 0 { _ = Vips.takeError(); return nil }
        guard let data else { return nil }
        return Data(bytes: data, count: length)
    }

    /// Sets fields on this image. Only call on an image from `copyForMetadata()`.
    package func setBlob(_ name: String, _ data: Data) {
        data.withUnsafeBytes { pe_image_set_blob(pointer, name, $0.baseAddress, $0.count) }
    }

    func setInt(_ name: String, _ value: Int) { pe_image_set_int(pointer, name, Int32(value)) }

    func remove(_ name: String) { _ = pe_image_remove(pointer, name) }

    /// All metadata field names.
    var fieldNames: [String] {
        guard let list = pe_image_fields(pointer) else { return [] }
        defer { g_strfreev(list) }
        var names: [String] = []
        var i = 0
        while let p = list[i] { names.append(String(cString: p)); i += 1 }
        return names
    }
}

/// Collapses a multi-line C library message into one line.
func oneLine(_ message: String) -> String {
    message.split(whereSeparator: \.isNewline).map { $0.trimmingCharacters(in: .whitespaces) }
        .filter { !$0.isEmpty }.joined(separator: "; ")
}
