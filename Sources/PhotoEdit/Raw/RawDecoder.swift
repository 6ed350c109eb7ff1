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
}

/// How a RAW is developed. The defaults are the neutral development used for
/// the `original` and `unadjusted` versions (docs/raw.md):
/// - 16-bit linear output with sRGB primaries (the working space), no gamma,
///   no auto-brightening;
/// - the file's own white level: libraw's `adjust_maximum_thr` is 0, so a
///   file is never brightened by a guessed maximum (its default 0.75 can add
///   ~0.3 EV on some files);
/// - as-shot white balance, AHD demosaic, highlights clipped.
struct RawSettings: Sendable, Hashable {
    var halfSize = false
    var quality = 3
    var highlight = 0
    var whiteBalance: WhiteBalance = .asShot
    var blackLevel: Int? = nil
    var whiteLevel: Int? = nil
    /// Linear exposure before demosaic (1 = none; libraw's exp_shift, 0.25…8).
    var exposureShift: Double = 1

    enum WhiteBalance: Hashable, Sendable {
        case asShot, auto
        case multipliers(Double, Double, Double, Double)
    }

    static let neutral = RawSettings()
}

enum RawDecoder {
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
                       isDNG: info.is_dng != 0)
    }

    /// Develops a RAW into the working space: linear float RGB (sRGB
    /// primaries), upright. `displayPath` names the file in errors.
    static func develop(_ path: String, settings: RawSettings = .neutral, displayPath: String? = nil) throws -> Image {
        try Vips.ensureStarted()
        var s = pe_raw_settings()
        s.half_size = settings.halfSize ? 1 : 0
        s.quality = Int32(settings.quality)
        s.highlight = Int32(settings.highlight)
        s.user_black = Int32(settings.blackLevel ?? -1)
        s.user_sat = Int32(settings.whiteLevel ?? -1)
        s.exp_shift = Float(settings.exposureShift)
        switch settings.whiteBalance {
        case .asShot: s.use_camera_wb = 1
        case .auto: s.use_auto_wb = 1
        case let .multipliers(r, g, b, g2): s.user_mul = (Float(r), Float(g), Float(b), Float(g2))
        }
        var pixels: UnsafeMutablePointer<UInt16>?
        var width: Int32 = 0, height: Int32 = 0
        let code = pe_raw_develop(path, &s, &pixels, &width, &height)
        guard code == 0, let pixels else {
            throw PhotoEditError.unreadableFile(path: displayPath ?? path,
                                                reason: "libraw cannot develop it: \(String(cString: pe_raw_strerror(code)))")
        }
        defer { g_free(pixels) }
        let bytes = Int(width) * Int(height) * 3 * 2
        guard let made = vips_image_new_from_memory_copy(pixels, bytes, width, height, 3, VIPS_FORMAT_USHORT) else {
            throw Vips.error("new_from_memory_copy")
        }
        let scale = 1.0 / 65535
        return try Image(owning: made).linear(multiply: [scale, scale, scale], add: [0, 0, 0])
            .call("copy", [("interpretation", .string("scrgb"))])
    }
}
