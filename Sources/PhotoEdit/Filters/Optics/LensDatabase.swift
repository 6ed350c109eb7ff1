import CLensfun
import Foundation

/// lensfun's database of cameras and lens profiles (the system's
/// liblensfun-data-v1 and any update lensfun finds), loaded once. Read-only
/// after loading; lensfun's lookups only read it.
// @unchecked: wraps lensfun's C database, only read after loading (never freed, never written).
final class LensDatabase: @unchecked Sendable {
    private let db: UnsafeMutablePointer<lfDatabase>
    /// Which database answered: "v1-<timestamp>", the newest `timestamp.txt`
    /// of lensfun's data folders (recorded in recipes as `database`).
    let version: String

    private init(db: UnsafeMutablePointer<lfDatabase>, version: String) {
        self.db = db
        self.version = version
    }

    /// The database, or why lensfun could not load it.
    static func shared() throws -> LensDatabase { try loaded.get() }

    private static let loaded: Result<LensDatabase, PhotoEditError> = {
        guard let db = lf_db_new() else {
            return .failure(.native(library: "lensfun", operation: "lf_db_new", message: "out of memory"))
        }
        let status = lf_db_load(db)
        if status.rawValue != 0 {
            lf_db_destroy(db)
            return .failure(.native(library: "lensfun", operation: "lf_db_load",
                                    message: "cannot load the lens database (error \(status.rawValue)); install liblensfun-data-v1"))
        }
        return .success(LensDatabase(db: db, version: databaseVersion()))
    }()

    /// "v1-" and the newest timestamp of the folders lensfun 0.3 reads.
    private static func databaseVersion() -> String {
        let home = FileManager.default.homeDirectoryForCurrentUser.path
        let folders = ["/usr/share/lensfun/version_1", "/usr/local/share/lensfun/version_1", "/var/lib/lensfun-updates/version_1",
                       home + "/.local/share/lensfun/updates/version_1", home + "/.local/share/lensfun/version_1"]
        let stamps = folders.compactMap { folder -> Int? in
            guard let data = FileManager.default.contents(atPath: folder + "/timestamp.txt") else { return nil }
            return Int(String(decoding: data, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines))
        }
        return "v\(LF_MAX_DATABASE_VERSION)-\(stamps.max() ?? 0)"
    }

    private var pointer: UnsafeMutablePointer<lfDatabase> { db }

    // MARK: Cameras and lenses as values

    /// A camera body of the database.
    struct Camera: Hashable, Sendable {
        let maker: String
        let model: String
        let mount: String
        let cropFactor: Double
        /// A compact with its lens built in (lensfun names such mounts in lower case).
        var hasFixedLens: Bool { mount.first?.isLowercase ?? false }
    }

    /// A lens profile of the database.
    struct Lens: Hashable, Sendable {
        let maker: String
        let model: String
        let minFocal: Double
        let maxFocal: Double
        let minAperture: Double
        /// Crop factor of the camera the profile was measured on.
        let cropFactor: Double
        let hasDistortion: Bool
        let hasTCA: Bool
        let hasVignetting: Bool
    }

    /// A multi-language string's default text (never the locale's: a
    /// recipe names lenses the same on every machine).
    private static func text(_ s: UnsafeMutablePointer<CChar>?) -> String {
        guard let s else { return "" }
        return String(cString: s)
    }

    private static func camera(_ c: UnsafePointer<lfCamera>) -> Camera {
        Camera(maker: text(c.pointee.Maker), model: text(c.pointee.Model),
               mount: c.pointee.Mount.map { String(cString: $0) } ?? "", cropFactor: Double(c.pointee.CropFactor))
    }

    private static func count<T>(_ list: UnsafeMutablePointer<UnsafeMutablePointer<T>?>?) -> Int {
        guard let list else { return 0 }
        var n = 0
        while list[n] != nil { n += 1 }
        return n
    }

    private static func lens(_ l: UnsafePointer<lfLens>) -> Lens {
        Lens(maker: text(l.pointee.Maker), model: text(l.pointee.Model),
             minFocal: Double(l.pointee.MinFocal), maxFocal: Double(l.pointee.MaxFocal), minAperture: Double(l.pointee.MinAperture),
             cropFactor: Double(l.pointee.CropFactor),
             hasDistortion: count(l.pointee.CalibDistortion) > 0, hasTCA: count(l.pointee.CalibTCA) > 0,
             hasVignetting: count(l.pointee.CalibVignetting) > 0)
    }

    // MARK: Lookups

    private func cameraPointers(maker: String?, model: String) -> [UnsafePointer<lfCamera>] {
        guard let found = lf_db_find_cameras_ext(pointer, maker, model, 0) else { return [] }
        defer { lf_free(found) }
        var out: [UnsafePointer<lfCamera>] = []
        var i = 0
        while let c = found[i] { out.append(c); i += 1 }
        return out
    }

    private func lensPointers(camera: UnsafePointer<lfCamera>?, model: String?) -> [UnsafePointer<lfLens>] {
        guard let found = lf_db_find_lenses_hd(pointer, camera, nil, model, 0) else { return [] }
        defer { lf_free(found) }
        var out: [UnsafePointer<lfLens>] = []
        var i = 0
        while let l = found[i] { out.append(l); i += 1 }
        return out
    }

    /// Cameras matching `model` (and `maker` when given), best first.
    func cameras(maker: String? = nil, model: String) -> [Camera] {
        cameraPointers(maker: maker, model: model).map(Self.camera)
    }

    /// Lenses matching `model` (fits `camera` when given), best first; with
    /// no model, every lens that fits the camera (a compact's own lens).
    func lenses(model: String?, camera: Camera? = nil) -> [Lens] {
        withCamera(camera) { lensPointers(camera: $0, model: model).map(Self.lens) }
    }

    /// Every camera and lens whose maker or model contains `text` (case-insensitive; all when empty).
    func search(_ text: String) -> (cameras: [Camera], lenses: [Lens]) {
        let needle = text.lowercased()
        func matches(_ maker: String, _ model: String) -> Bool {
            needle.isEmpty || (maker + " " + model).lowercased().contains(needle)
        }
        var cameras: [Camera] = [], lenses: [Lens] = []
        if let all = lf_db_get_cameras(pointer) {
            var i = 0
            while let c = all[i] { let v = Self.camera(c); if matches(v.maker, v.model) { cameras.append(v) }; i += 1 }
        }
        if let all = lf_db_get_lenses(pointer) {
            var i = 0
            while let l = all[i] { let v = Self.lens(l); if matches(v.maker, v.model) { lenses.append(v) }; i += 1 }
        }
        return (cameras, lenses)
    }

    private func withCamera<T>(_ camera: Camera?, _ body: (UnsafePointer<lfCamera>?) -> T) -> T {
        guard let camera else { return body(nil) }
        let pointer = cameraPointers(maker: camera.maker, model: camera.model).first { Self.camera($0) == camera }
        return body(pointer)
    }

    /// The lens profile called exactly `model` (as the database names it;
    /// else the best fuzzy match), fitting `camera` when given.
    func lens(named model: String, camera: Camera? = nil) -> Lens? {
        let found = lenses(model: model, camera: camera)
        return found.first { $0.model == model } ?? found.first
    }

    // MARK: Corrections

    /// What a correction needs besides the pixels.
    struct Setting: Sendable {
        var lens: Lens
        var cropFactor: Double
        var focal: Double
        var aperture: Double
        var distance: Double
    }

    /// lensfun's modifier for `setting` on a `width`×`height` image,
    /// with only `flags` (LF_MODIFY_*) enabled; nil when the profile has none of them.
    private func withModifier<T>(_ setting: Setting, width: Int, height: Int, flags: Int32,
                                 _ body: (UnsafeMutablePointer<lfModifier>) throws -> T) throws -> T? {
        guard let l = lensPointers(camera: nil, model: setting.lens.model).first(where: { Self.lens($0) == setting.lens }) else {
            throw PhotoEditError.native(library: "lensfun", operation: "lf_db_find_lenses_hd",
                                        message: "lens '\(setting.lens.model)' is no longer in the database")
        }
        guard let modifier = lf_modifier_new(l, Float(setting.cropFactor), Int32(width), Int32(height)) else {
            throw PhotoEditError.native(library: "lensfun", operation: "lf_modifier_new", message: "out of memory")
        }
        defer { lf_modifier_destroy(modifier) }
        let enabled = lf_modifier_initialize(modifier, l, LF_PF_F32, Float(setting.focal), Float(setting.aperture),
                                             Float(setting.distance), 1, l.pointee.Type, flags, 0)
        guard enabled & flags != 0 else { return nil }
        return try body(modifier)
    }

    /// lensfun's flags, by value.
    static let modifyTCA: Int32 = 1, modifyVignetting: Int32 = 2, modifyDistortion: Int32 = 8

    /// Source positions of the distortion correction at `points` (x, y
    /// pairs, pixel centres on integers) of a `width`×`height` image; nil
    /// when the profile has no distortion data.
    func distortion(_ setting: Setting, width: Int, height: Int, at points: [Float]) throws -> [Float]? {
        try withModifier(setting, width: width, height: height, flags: Self.modifyDistortion) { m in
            var out = [Float](repeating: 0, count: points.count)
            var res: (Float, Float) = (0, 0)
            for i in stride(from: 0, to: points.count, by: 2) {
                _ = withUnsafeMutablePointer(to: &res) {
                    $0.withMemoryRebound(to: Float.self, capacity: 2) {
                        lf_modifier_apply_geometry_distortion(m, points[i], points[i + 1], 1, 1, $0)
                    }
                }
                out[i] = res.0
                out[i + 1] = res.1
            }
            return out
        }
    }

    /// Source positions of red, green and blue (x, y each: six values per
    /// point) of the lateral chromatic aberration correction at `points`;
    /// nil when the profile has no TCA data.
    func tca(_ setting: Setting, width: Int, height: Int, at points: [Float]) throws -> [Float]? {
        try withModifier(setting, width: width, height: height, flags: Self.modifyTCA) { m in
            var out = [Float](repeating: 0, count: points.count * 3)
            var res = [Float](repeating: 0, count: 6)
            for i in stride(from: 0, to: points.count, by: 2) {
                _ = res.withUnsafeMutableBufferPointer {
                    lf_modifier_apply_subpixel_distortion(m, points[i], points[i + 1], 1, 1, $0.baseAddress)
                }
                for k in 0..<6 { out[i * 3 + k] = res[k] }
            }
            return out
        }
    }

    /// The vignetting correction's gain (≥ 1 towards the corners) at the
    /// integer pixel positions `points`; nil when the profile has no
    /// vignetting data for the setting.
    func vignetting(_ setting: Setting, width: Int, height: Int, at points: [Float]) throws -> [Float]? {
        try withModifier(setting, width: width, height: height, flags: Self.modifyVignetting) { m in
            var out = [Float](repeating: 1, count: points.count / 2)
            for i in 0..<out.count {
                var gain: Float = 1
                _ = lf_modifier_apply_color_modification(m, &gain, points[2 * i], points[2 * i + 1], 1, 1,
                                                         3 /* LF_CR_1(INTENSITY) */, Int32(MemoryLayout<Float>.size))
                out[i] = gain
            }
            return out
        }
    }
}
