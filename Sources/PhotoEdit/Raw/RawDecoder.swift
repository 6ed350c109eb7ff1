import CPhotoEditShim
import CVips
import Foundation

/// What a camera RAW file says about itself (read by libraw).
struct RawInfo: Sendable {
    var make: String
    var model: String
    var lens: String
    var iso: Double?
    var exposureTime: Double?
    var fNumber: Double?
    var focalLength: Double?
    /// Capture time as the camera's clock showed it (ISO 8601, no zone).
    var creationDate: String?
    /// EXIF-style orientation of the developed image (from libraw's flip).
    var orientation: Int
    /// Size of the developed image as displayed.
    var width: Int
    var height: Int
    var isDNG: Bool
    /// Colours of the sensor (3 for RGB Bayer and linear DNGs).
    var colors: Int
    /// White-balanced camera RGB → linear sRGB, row-major 3×3 (libraw's rgb_cam).
    var sRGBFromCamera: [Double]
    /// Daylight (D65) multipliers of the camera, R, G, B (libraw's pre_mul).
    var daylightMultipliers: [Double]
}

/// How a RAW is developed. The defaults are the neutral development used for
/// the `original` and `unadjusted` versions (docs/raw.md):
/// - 16-bit linear output with sRGB primaries (the working space), no gamma,
///   no auto-brightening;
/// - the file's own white level: libraw's `adjust_maximum_thr` is 0, so a
///   file is never brightened by a guessed maximum (its default 0.75 can add
///   ~0.3 EV on some files);
/// - as-shot white balance, AHD demosaic, highlights clipped.
package struct RawSettings: Sendable, Hashable {
    var halfSize = false
    var quality = 3
    var highlight = 0
    var whiteBalance: WhiteBalance = .asShot
    var blackLevel: Int? = nil
    var whiteLevel: Int? = nil
    /// Linear exposure before demosaic (1 = none; libraw's exp_shift, 0.25…8).
    var exposureShift: Double = 1
    /// 0…1: how much of the highlights a brightening `exposureShift` keeps
    /// from clipping (libraw's exp_preser).
    var exposurePreserve: Double = 0
    /// Wavelet denoise threshold before demosaic (0 = off; libraw's threshold).
    var denoise: Double = 0
    /// Camera RGB out (no colour matrix; see `RawDecoder.developCamera`).
    var cameraRGB = false

    enum WhiteBalance: Hashable, Sendable {
        case asShot, auto
        /// A light of this colour temperature (K) and tint (see `RawDecoder.multipliers`).
        case kelvin(Double, Double)
        /// Red, green, blue, second green multipliers.
        case multipliers(Double, Double, Double, Double)
    }

    package static let neutral = RawSettings()
}

package enum RawDecoder {
    /// File extensions of camera RAW formats the engine stores RAW originals under.
    static let extensions: Set<String> = ["dng", "cr2", "cr3", "crw", "nef", "nrw", "arw", "srf", "sr2", "raf", "orf", "rw2",
                                          "pef", "srw", "3fr", "erf", "kdc", "mrw", "x3f", "iiq", "rwl", "raw", "mef", "mos"]

    /// Metadata of a RAW file, or nil when libraw does not take it for a RAW
    /// (JPEG, PNG, ordinary TIFF…), recognised by content, not by name.
    static func identify(_ path: String) -> RawInfo? {
        var info = pe_raw_info()
        guard pe_raw_identify(path, &info) == 0 else { return nil }
        func text<T>(_ tuple: T) -> String {
            withUnsafeBytes(of: tuple) { raw in
                String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self).trimmingCharacters(in: .whitespaces)
            }
        }
        let orientation: Int
        switch info.flip {
        case 3: orientation = 3
        case 5: orientation = 8
        case 6: orientation = 6
        default: orientation = 1
        }
        let swap = orientation >= 5
        var date: String?
        if info.timestamp > 0 {
            var t = time_t(info.timestamp)
            var parts = tm()
            localtime_r(&t, &parts)
            date = String(format: "%04d-%02d-%02dT%02d:%02d:%02d", parts.tm_year + 1900, parts.tm_mon + 1, parts.tm_mday,
                          parts.tm_hour, parts.tm_min, parts.tm_sec)
        }
        func positive(_ v: Float) -> Double? { v > 0 && v.isFinite ? Double(v) : nil }
        return RawInfo(make: text(info.make), model: text(info.model), lens: text(info.lens),
                       iso: positive(info.iso), exposureTime: positive(info.shutter), fNumber: positive(info.aperture),
                       focalLength: positive(info.focal_length), creationDate: date, orientation: orientation,
                       width: Int(swap ? info.height : info.width), height: Int(swap ? info.width : info.height),
                       isDNG: info.is_dng != 0, colors: Int(info.colors),
                       sRGBFromCamera: withUnsafeBytes(of: info.rgb_cam) { raw in
                           let f = Array(raw.bindMemory(to: Float.self))
                           return (0..<3).flatMap { r in (0..<3).map { Double(f[r * 4 + $0]) } }
                       },
                       daylightMultipliers: withUnsafeBytes(of: info.pre_mul) { raw in
                           Array(raw.bindMemory(to: Float.self)).prefix(3).map(Double.init)
                       })
    }

    /// Why libraw does not read `path` as a RAW (its own message).
    static func identifyProblem(_ path: String) -> String {
        var info = pe_raw_info()
        let code = pe_raw_identify(path, &info)
        return code == 0 ? "no RAW image data" : String(cString: pe_raw_strerror(code))
    }

    /// White balance multipliers (R, G, B, G2; green = 1) that make a light of
    /// `kelvin` and `tint` neutral. The light's chromaticity is the Planckian
    /// locus at `kelvin`, moved across it (CIE 1960 uv) by Δuv = tint / 3000:
    /// positive tint is a greener light, so the correction adds magenta (D65
    /// is about 6504 K, tint +10).
    ///
    /// The camera's response to that white follows from libraw's own colour
    /// data: its camera → sRGB matrix `rgb_cam` is the inverse of the camera's
    /// sRGB → camera matrix with rows scaled to 1, the scales being the
    /// daylight multipliers `pre_mul`. So the camera sees linear sRGB `s` as
    /// `inverse(rgb_cam) · s / pre_mul`, and the multiplier of each channel is
    /// `pre_mul / (inverse(rgb_cam) · s)` (D65, s = 1: the daylight multipliers).
    static func multipliers(kelvin: Double, tint: Double, info: RawInfo) throws -> (Double, Double, Double, Double) {
        guard info.colors == 3, info.daylightMultipliers.allSatisfy({ $0 > 0 }) else {
            throw PhotoEditError.invalidParameter(filter: "raw", parameter: "wb",
                                                  problem: "a colour temperature needs an RGB sensor with a known colour matrix; this camera has neither")
        }
        // A light so far from daylight that this camera's colour matrix gives
        // a channel nothing (Lightroom writes up to 50000 K): the nearest light
        // towards daylight (6504 K) that it can balance, in steps of 2 mired.
        let daylight = 1e6 / 6504, mired = 1e6 / kelvin
        for step in 0...400 {
            let m = mired < daylight ? min(mired + Double(step) * 2, daylight) : max(mired - Double(step) * 2, daylight)
            if let camera = cameraWhite(kelvin: step == 0 ? kelvin : 1e6 / m, tint: tint, info: info) {
                let multipliers = zip(info.daylightMultipliers, camera).map { $0 / $1 }
                return (multipliers[0] / multipliers[1], 1, multipliers[2] / multipliers[1], 1)
            }
            if m == daylight { break }
        }
        throw PhotoEditError.invalidParameter(filter: "raw", parameter: "wb",
                                              problem: "this camera's colour matrix gives no white balance for \(Int(kelvin)) K")
    }

    /// The camera's response to the white of a light of `kelvin` and `tint`
    /// (see `multipliers`); nil when a channel gets nothing from it.
    private static func cameraWhite(kelvin: Double, tint: Double, info: RawInfo) -> [Double]? {
        let p = ColourMath.planckian(kelvin: kelvin)
        // To CIE 1960 uv, along the locus' normal, and back.
        func uv(_ x: Double, _ y: Double) -> (Double, Double) {
            let d = -2 * x + 12 * y + 3
            return (4 * x / d, 6 * y / d)
        }
        let (u0, v0) = uv(p.x, p.y)
        let q = ColourMath.planckian(kelvin: kelvin + 1)
        let (u1, v1) = uv(q.x, q.y)
        // Unit normal pointing to green (+v side, above the locus).
        var (nu, nv) = (-(v1 - v0), u1 - u0)
        let length = (nu * nu + nv * nv).squareRoot()
        (nu, nv) = (nu / length, nv / length)
        if nv < 0 { (nu, nv) = (-nu, -nv) }
        let offset = tint / 3000
        let (u, v) = (u0 + nu * offset, v0 + nv * offset)
        let d = 2 * u - 8 * v + 4
        let white = ColourMath.apply(ColourMath.xyzToSRGB, ColourMath.xyz(x: 3 * u / d, y: 2 * v / d))
        let camera = ColourMath.apply(ColourMath.inverse(info.sRGBFromCamera), white)
        return camera.allSatisfy({ $0 > 1e-6 }) ? camera : nil
    }

    /// Develops a RAW into the working space: linear float RGB (sRGB
    /// primaries), upright. `displayPath` names the file in errors.
    package static func develop(_ path: String, settings: RawSettings = .neutral, displayPath: String? = nil) throws -> Image {
        let (linear, flip, _, _) = try developLinear16(path, settings: settings, displayPath: displayPath)
        let scale = 1.0 / 65535
        let rgb = try upright(linear.extractBands(0, count: 3), flip: flip)
        return try rgb.linear(multiply: [scale, scale, scale], add: [0, 0, 0])
            .call("copy", [("interpretation", .string("scrgb"))])
    }

    /// A RAW developed in the camera's own RGB: linear, white-balanced,
    /// demosaiced, before the camera → working-space matrix (what darktable's
    /// noise profiles describe, after white balance); float 0…1 of the
    /// white level, 3 bands, upright. Carries what `working` needs.
    struct CameraDevelopment: Sendable {
        /// Camera RGB, float, 3 bands, upright.
        var image: Image
        /// The white balance multipliers libraw applied, R, G, B (the least is 1).
        var multipliers: [Double]
        /// Camera RGB → linear sRGB, row-major 3×3 (libraw's rgb_cam).
        var matrix: [Double]
        /// The development's scale: ½ for libraw's half-size decode, else 1.
        var developScale: Double
    }

    /// Develops `path` in camera RGB (see `CameraDevelopment`).
    static func developCamera(_ path: String, settings: RawSettings = .neutral, displayPath: String? = nil) throws -> CameraDevelopment {
        var settings = settings
        settings.cameraRGB = true
        let (linear, flip, multipliers, matrix) = try developLinear16(path, settings: settings, displayPath: displayPath)
        let scale = 1.0 / 65535
        let rgb = try upright(linear.extractBands(0, count: 3), flip: flip)
        let image = try rgb.linear(multiply: [scale, scale, scale], add: [0, 0, 0])
        let least = multipliers.filter { $0 > 0 }.min() ?? 1
        return CameraDevelopment(image: image, multipliers: multipliers.map { $0 > 0 ? Double($0 / least) : 1 },
                                 matrix: matrix.map(Double.init), developScale: settings.halfSize ? 0.5 : 1)
    }

    /// The neutral development as 8-bit sRGB, upright, with the sRGB
    /// profile attached: what `develop` followed by the renderer's default
    /// output gives, pixel for pixel, without the float working copy. Each
    /// 16-bit linear value of libraw's output goes through one table
    /// (`sRGBTable()`) as libvips' workers ask for its rows, while the
    /// writer writes the ones already made (no 8-bit copy of the whole image).
    static func developSRGB(_ path: String, displayPath: String? = nil) throws -> Image {
        // libvips starts and makes the table on the other core while libraw develops.
        let handle = try libraw(path, settings: .neutral, displayPath: displayPath, alongside: { _ = sRGBTableBytes })
        let table: [UInt8]
        do {
            table = try sRGBTableBytes.get()
        } catch {
            pe_raw_discard(handle)
            throw error
        }
        var flip: Int32 = 0
        guard let image = table.withUnsafeBufferPointer({ pe_raw_srgb8_image(handle, $0.baseAddress, &flip) }) else {
            throw Vips.error("generate")
        }
        let out = try upright(Image(owning: image), flip: Int(flip)).call("copy", [("interpretation", .string("srgb"))]).copyForMetadata()
        out.setBlob("icc-profile-data", try ICCProfile.sRGB())
        out.setInt("orientation", 1)
        return out
    }

    /// 65536 entries: the 8-bit sRGB value of each 16-bit linear value,
    /// computed once by the very operations of the float path (scale to
    /// 0…1, libvips' scRGB → sRGB, 8 bits), so both paths agree exactly.
    static func sRGBTable() throws -> Image { try sRGBTableResult.get() }

    /// `sRGBTable()`'s 65536 bytes.
    private static let sRGBTableBytes: Result<[UInt8], PhotoEditError> = {
        do {
            return .success([UInt8](try sRGBTable().pixelBytes()))
        } catch let error as PhotoEditError {
            return .failure(error)
        } catch {
            return .failure(.native(library: "libvips", operation: "identity", message: "\(error)"))
        }
    }()

    private static let sRGBTableResult: Result<Image, PhotoEditError> = {
        do {
            let ramp = try Vips.image("identity", [("ushort", .bool(true))])   // 65536 × 1, value = x
            let scale = 1.0 / 65535
            let linear = try ramp.linear(multiply: [scale], add: [0])
            // Three equal bands of scRGB (one band would be grey to libvips).
            let rgb = try Vips.image("bandjoin", [("in", .images([linear, linear, linear]))])
                .call("copy", [("interpretation", .string("scrgb"))])
            return .success(try rgb.colourspace("srgb").cast("uchar").extractBands(0, count: 1).inMemory())
        } catch let error as PhotoEditError {
            return .failure(error)
        } catch {
            return .failure(.native(library: "libvips", operation: "identity", message: "\(error)"))
        }
    }()

    /// libraw's development of `path` with `settings`: a handle on its
    /// processed 16-bit buffer, to wrap or discard (libvips is started too).
    /// `alongside` runs on another thread meanwhile, after libvips has started.
    private static func libraw(_ path: String, settings: RawSettings, displayPath: String?,
                               alongside: @escaping @Sendable () -> Void = {}) throws -> UnsafeMutableRawPointer {
        var s = pe_raw_settings()
        s.half_size = settings.halfSize ? 1 : 0
        s.quality = Int32(settings.quality)
        s.highlight = Int32(settings.highlight)
        s.user_black = Int32(settings.blackLevel ?? -1)
        s.user_sat = Int32(settings.whiteLevel ?? -1)
        s.exp_shift = Float(settings.exposureShift)
        s.exp_preserve = Float(settings.exposurePreserve)
        s.denoise = Float(settings.denoise)
        s.camera_rgb = settings.cameraRGB ? 1 : 0
        func set(_ m: (Double, Double, Double, Double)) { s.user_mul = (Float(m.0), Float(m.1), Float(m.2), Float(m.3)) }
        switch settings.whiteBalance {
        case .asShot: s.use_camera_wb = 1
        case .auto: s.use_auto_wb = 1
        case let .multipliers(r, g, b, g2): set((r, g, b, g2))
        case let .kelvin(k, tint):
            guard let info = identify(path) else {
                throw PhotoEditError.unreadableFile(path: displayPath ?? path, reason: "libraw does not read it as a RAW")
            }
            set(try multipliers(kelvin: k, tint: tint, info: info))
        }
        // libvips starts on another core while libraw develops, which uses
        // no libvips.
        let starting = DispatchGroup()   // on purpose: this synchronous call blocks until libvips has started
        DispatchQueue.global().async(group: starting) {
            if (try? Vips.ensureStarted()) != nil { alongside() }
        }
        var handle: UnsafeMutableRawPointer?
        let code = pe_raw_process(path, &s, &handle)
        starting.wait()
        guard code == 0, let handle else {
            throw PhotoEditError.unreadableFile(path: displayPath ?? path,
                                                reason: "libraw cannot develop it: \(String(cString: pe_raw_strerror(code)))")
        }
        return handle
    }

    /// libraw's development of `path`: its 16-bit linear buffer (4 bands,
    /// RGB in the first three, sRGB primaries or camera RGB), not yet turned
    /// by the camera's flip, that flip, and the white balance multipliers
    /// and colour matrix libraw used (`pe_raw_colour`).
    private static func developLinear16(_ path: String, settings: RawSettings,
                                        displayPath: String?) throws -> (Image, Int, multipliers: [Float], matrix: [Float]) {
        let handle = try libraw(path, settings: settings, displayPath: displayPath)
        var multipliers = [Float](repeating: 0, count: 3), matrix = [Float](repeating: 0, count: 9)
        pe_raw_colour(handle, &multipliers, &matrix)
        do {
            try Vips.ensureStarted()
        } catch {
            pe_raw_discard(handle)
            throw error
        }
        var out: UnsafeMutablePointer<VipsImage>?
        var flip: Int32 = 0
        guard pe_raw_wrap(handle, &out, &flip) == 0, let out else { throw Vips.error("new_from_memory") }
        return (Image(owning: out), Int(flip), multipliers, matrix)
    }

    /// Applies libraw's flip as its own image writer does: columns mirrored
    /// (bit 1) and rows (bit 2) in the stored image, then transposed (bit 4).
    static func upright(_ image: Image, flip: Int) throws -> Image {
        var image = image
        if flip & 2 != 0 { image = try image.flip("vertical") }
        if flip & 1 != 0 { image = try image.flip("horizontal") }
        if flip & 4 != 0 { image = try image.rotate(quarterTurns: 1).flip("horizontal") }
        return image
    }

    /// A quick sRGB image for previews and thumbnails, upright, never for
    /// full-quality output: the embedded JPEG when its longer side is at
    /// least `minSize` (shrunk on load to fit `target` × `target`; 0 = full
    /// size), else nil.
    static func embeddedPreview(_ path: String, minSize: Int, target: Int = 0) throws -> Image? {
        try Vips.ensureStarted()
        var out: UnsafeMutablePointer<VipsImage>?
        var flip: Int32 = 0
        let code = pe_raw_preview(path, Int32(minSize), Int32(target), &out, &flip)
        if code == 1 { return nil }
        guard code == 0, let out else {
            if code == -1 { throw Vips.error("jpegload_buffer") }
            throw PhotoEditError.unreadableFile(path: path, reason: "libraw cannot read its preview: \(String(cString: pe_raw_strerror(code)))")
        }
        return try upright(Image(owning: out), flip: Int(flip))
    }

    /// The fast preview of a RAW in sRGB, upright: the embedded JPEG when its
    /// longer side reaches `minSize`, else libraw's half-size development
    /// (neutral settings) converted to sRGB. Fits `target` × `target` when
    /// `target` > 0.
    static func preview(_ path: String, minSize: Int, target: Int = 0) throws -> Image {
        if let embedded = try embeddedPreview(path, minSize: minSize, target: target) { return embedded }
        var settings = RawSettings.neutral
        settings.halfSize = true
        var image = try develop(path, settings: settings).sRGB8()
        if target > 0 { image = try image.thumbnail(width: target, height: target) }
        return image
    }
}
