import Foundation

extension Filters {
    /// The parameters of `lens`, read through these keys.
    enum LensKeys {
        static let distortion = ParameterKey.number("distortion", 0...200, default: 0, unit: "%", "corrects the lens's geometric distortion (100 = the profile)")
        static let tca = ParameterKey.number("tca", 0...200, default: 0, unit: "%", "corrects lateral chromatic aberration, red and blue fringes (100 = the profile)")
        static let vignetting = ParameterKey.number("vignetting", 0...200, default: 0, unit: "%", "brightens the corners the lens darkens (100 = the profile)")
        static let manual = ParameterKey.number("manual", -100...100, default: 0, "manual distortion on top of the profile: + corrects barrel, − pincushion (±100 = ±10 % at the corners)")
        static let camera = ParameterKey.text("camera", default: "", "the camera as lensfun names it (found in EXIF when empty; see photoedit lenses)")
        static let lens = ParameterKey.text("lens", default: "", "the lens profile as lensfun names it (found in EXIF when empty; see photoedit lenses)")
        static let focal = ParameterKey.number("focal", 0...5000, default: 0, unit: "mm", "focal length (from EXIF; 0 = unknown: no correction)")
        static let aperture = ParameterKey.number("aperture", 0...128, default: 0, "f-number for vignetting (from EXIF; 0 = the lens wide open)")
        static let distance = ParameterKey.number("distance", 0...1000, default: 0, unit: "m", "focus distance for vignetting (from EXIF; 0 = far)")
        static let crop = ParameterKey.number("crop", 0...100, default: 0, "the camera's crop factor (0 = the camera's in the database, else the profile's)")
        static let database = ParameterKey.text("database", default: "", "the lensfun database the lens was found in (recorded)")
        static let autoscale = ParameterKey.bool("autoscale", default: true,
                                                 "scales the corrected picture to fill the frame: no empty corners (as Lightroom's profile correction)")
        /// Version 1's parameters (no `autoscale`).
        static let version1: [any AnyParameterKey] = [
            distortion, tca, vignetting, manual, camera, lens, focal, aperture, distance, crop, database,
        ]
        /// The current version's: version 1's with `autoscale` after `manual`.
        static let all: [any AnyParameterKey] = [
            distortion, tca, vignetting, manual, autoscale, camera, lens, focal, aperture, distance, crop, database,
        ]
    }

    /// Lens correction from lensfun's profiles: geometric distortion, lateral
    /// chromatic aberration (TCA) and vignetting, each with an amount in
    /// percent of the profile's correction (0 = off, 100 = the profile).
    ///
    /// The camera and lens are found in the photo's EXIF when the filter is
    /// applied (`LensIdentification`, as darktable's lens module: "… or …"
    /// alternatives trimmed, a compact's built-in lens, lens-less names) and
    /// stored in the recipe with the focal length, aperture, distance, crop
    /// factor and the database's version, so the render never depends on the
    /// EXIF again; `camera=` and `lens=` set by hand override. A photo whose
    /// lens is unknown keeps an empty `lens` and renders unchanged.
    ///
    /// Vignetting is a gain (≥ 1 towards the corners) multiplied in linear
    /// light, then distortion and TCA one `mapim` per channel through
    /// lensfun's source coordinates; both are computed on a grid of at most
    /// ~400 points along the long edge and interpolated bilinearly (the
    /// error stays far below a pixel, `LensCorrectionTests`). It runs first
    /// in the pipeline, on the scene-referred pixels, so that crop, straighten
    /// and perspective frame the corrected picture.
    ///
    /// Version 2 adds `autoscale` (on by default, as darktable's lens module
    /// and Lightroom's profile correction): the corrected picture is scaled
    /// about its centre so that it just fills the frame, without the empty
    /// (black) corners a barrel correction leaves, or the picture a
    /// pincushion correction pushes out of it (`LensCorrection.fillScale`).
    public static let lens = FilterDefinition(
        id: "lens", version: 2, stage: .whiteBalance, order: -10,
        summary: "lens correction from lensfun's profiles: distortion, lateral chromatic aberration, vignetting (camera and lens from EXIF)",
        colourSpace: "linear RGB (scene-referred; resampled bilinearly)",
        keys: LensKeys.all,
        forms: [
            ChainForm([], fixed: [LensKeys.distortion.name: .number(100), LensKeys.tca.name: .number(100), LensKeys.vignetting.name: .number(100)],
                      "every correction of the lens found in the photo's EXIF, e.g. lens"),
            ChainForm(["distortion", "tca", "vignetting"], "amounts in percent, e.g. lens=100:100:50 (0 switches one off)"),
        ],
        legacy: [
            .adding([LensKeys.autoscale.name: .bool(false)], version: 1, keys: LensKeys.version1,
                    note: "v2 adds autoscale (on for new edits: the corrected picture fills the frame); v1 recipes keep autoscale off, rendering as before"),
        ],
        needsRandomAccess: { LensCorrection.changesGeometry($0) },
        recorded: [LensKeys.database.name],
        bind: { try LensCorrection.bind($0) }
    ) { image, p, _ in
        try LensCorrection.render(image, p)
    }.inPanel(.optics, section: "Lens corrections")
}

/// The lens filter's work: naming lenses, binding a recipe to the
/// database, rendering.
enum LensCorrection {
    /// The keys `lens`'s parameters are read through.
    private typealias K = Filters.LensKeys

    /// Is any correction switched on?
    static func isOn(_ p: Parameters) -> Bool {
        p[K.distortion] > 0 || p[K.tca] > 0 || p[K.vignetting] > 0 || p[K.manual] != 0
    }

    static func changesGeometry(_ p: Parameters) -> Bool {
        !p[K.lens].isEmpty && (p[K.distortion] > 0 || p[K.tca] > 0) || p[K.manual] != 0
    }

    /// The parameters that name the photo's camera and lens (what copying a
    /// recipe to another photo looks up again).
    static let identity = ["camera", "lens", "focal", "aperture", "distance", "crop", "database"]

    /// The manual distortion's strength at the corners for `manual` = ±100.
    static let manualStrength = 0.1

    /// `points` moved by the manual distortion: a source radius of
    /// r·(1 − k·r²), r in half diagonals from the centre, k = manual/100 × 0.1.
    static func manuallyDistorted(_ points: [Float], manual: Double, width: Int, height: Int) -> [Float] {
        let k = manual / 100 * manualStrength
        let (cx, cy) = (Double(width - 1) / 2, Double(height - 1) / 2)
        let r2 = cx * cx + cy * cy
        var out = points
        for i in stride(from: 0, to: points.count, by: 2) {
            let (dx, dy) = (Double(points[i]) - cx, Double(points[i + 1]) - cy)
            let f = 1 - k * (dx * dx + dy * dy) / r2
            out[i] = Float(cx + dx * f)
            out[i + 1] = Float(cy + dy * f)
        }
        return out
    }

    /// Puts the camera and lens in the database's own names and records the
    /// database's version; a name the database does not know is an error
    /// (a typo in `lens.lens=` must not silently do nothing).
    static func bind(_ p: Parameters) throws -> Parameters {
        var out = p
        let db = try LensDatabase.shared()
        let cameraName = p[K.camera], lensName = p[K.lens]
        var camera: LensDatabase.Camera?
        if !cameraName.isEmpty {
            let candidates = db.cameras(model: cameraName)
            guard let found = candidates.first(where: { $0.model == cameraName }) ?? candidates.first else {
                throw PhotoEditError.invalidParameter(filter: "lens", parameter: "camera",
                                                      problem: "no camera '\(cameraName)' in lensfun's database (photoedit lenses --search TEXT lists it)")
            }
            camera = found
            out.values[K.camera.name] = .text(found.model)
        }
        if !lensName.isEmpty {
            guard let found = db.lens(named: lensName, camera: camera) ?? db.lens(named: lensName) else {
                throw PhotoEditError.invalidParameter(filter: "lens", parameter: "lens",
                                                      problem: "no lens '\(lensName)' in lensfun's database (photoedit lenses --search TEXT lists it)")
            }
            out.values[K.lens.name] = .text(found.model)
            out.values[K.database.name] = .text(db.version)
        } else {
            out.values[K.database.name] = .text("")
        }
        return out
    }

    /// The setting the parameters name, or nil when they name no lens the
    /// database has (the filter then leaves the image unchanged).
    static func setting(_ p: Parameters, db: LensDatabase) -> LensDatabase.Setting? {
        let lensName = p[K.lens]
        guard !lensName.isEmpty, p[K.focal] > 0 else { return nil }
        let camera = p[K.camera].isEmpty ? nil : db.cameras(model: p[K.camera]).first { $0.model == p[K.camera] }
        guard let lens = db.lens(named: lensName, camera: camera) ?? db.lens(named: lensName), lens.model == lensName else { return nil }
        let crop = p[K.crop] > 0 ? p[K.crop] : camera?.cropFactor ?? lens.cropFactor
        return LensDatabase.Setting(lens: lens, cropFactor: crop, focal: p[K.focal],
                                    aperture: p[K.aperture] > 0 ? p[K.aperture] : max(lens.minAperture, 1),
                                    distance: p[K.distance] > 0 ? p[K.distance] : 1000)
    }

    /// The grid spacing the maps are computed at, in pixels, for an image
    /// whose long edge is `long`: ~400 points along it (every pixel up to 400).
    static func gridStep(long: Int) -> Int { max(1, min(32, long / 400)) }

    static func render(_ image: Image, _ p: Parameters) throws -> Image {
        guard isOn(p) else { return image }
        let db = try LensDatabase.shared()
        let setting = setting(p, db: db), manual = p[K.manual]
        guard setting != nil || manual != 0 else { return image }
        let (w, h) = (image.width, image.height)
        let step = gridStep(long: max(w, h))
        let nx = (w - 1 + step - 1) / step + 1, ny = (h - 1 + step - 1) / step + 1
        var points = [Float](repeating: 0, count: nx * ny * 2)
        for j in 0..<ny {
            for i in 0..<nx {
                points[2 * (j * nx + i)] = Float(i * step)
                points[2 * (j * nx + i) + 1] = Float(j * step)
            }
        }
        var out = image
        // Vignetting first, where the lens darkened: in source coordinates.
        let v = p[K.vignetting] / 100
        if v > 0, let setting, let gains = try db.vignetting(setting, width: w, height: h, at: points) {
            let scaled = v == 1 ? gains : gains.map { Float(pow(Double($0), v)) }
            let gain = try upsampled(BrushCanvas.floatImage(scaled, width: nx, height: ny, bands: 1), step: step, width: w, height: h)
            out = try out.multiplied(by: gain)
        }
        let d = p[K.distortion] / 100, t = p[K.tca] / 100
        guard d > 0 || t > 0 || manual != 0 else { return out }
        let geometry = Geometry(setting: setting, db: db, distortion: d, tca: t, manual: manual, width: w, height: h)
        let scale = p[K.autoscale] ? try geometry.fillScale() : 1
        let channels = try geometry.sources(scale == 1 ? points : scaled(points, by: scale, width: w, height: h))
        let source = channels[1]
        if channels[0] == channels[1] && channels[2] == channels[1] {
            let index = try upsampled(BrushCanvas.floatImage(source, width: nx, height: ny, bands: 2), step: step, width: w, height: h)
            return try remap(out, index)
        }
        // One 6-band map (x, y of red, green, blue), interpolated once.
        var joined = [Float](repeating: 0, count: source.count * 3)
        for n in 0..<(source.count / 2) {
            for c in 0..<3 {
                joined[6 * n + 2 * c] = channels[c][2 * n]
                joined[6 * n + 2 * c + 1] = channels[c][2 * n + 1]
            }
        }
        let map = try upsampled(BrushCanvas.floatImage(joined, width: nx, height: ny, bands: 6), step: step, width: w, height: h)
        let bands = try (0..<3).map { c in try remap(out.extractBands(c, count: 1), map.extractBands(2 * c, count: 2)) }
        return try Vips.image("bandjoin", [("in", .images(bands))])
    }

    /// Where the corrected picture's pixels come from: the manual
    /// distortion, the profile's distortion and its TCA, at their amounts.
    struct Geometry {
        let setting: LensDatabase.Setting?
        let db: LensDatabase
        let distortion: Double, tca: Double, manual: Double
        let width: Int, height: Int

        /// The source positions of red, green and blue (x, y pairs each) for
        /// the output positions `points`: the manual distortion first (it acts
        /// on the profile-corrected picture), then the profile's.
        func sources(_ points: [Float]) throws -> [[Float]] {
            let start = manual == 0 ? points : LensCorrection.manuallyDistorted(points, manual: manual, width: width, height: height)
            var source = start
            if distortion > 0, let setting, let moved = try db.distortion(setting, width: width, height: height, at: start) {
                for k in source.indices { source[k] = start[k] + Float(distortion) * (moved[k] - start[k]) }
            }
            var channels = [source, source, source]
            if tca > 0, let setting, let fringes = try db.tca(setting, width: width, height: height, at: source) {
                for c in [0, 2] {
                    for n in 0..<(source.count / 2) {
                        channels[c][2 * n] = source[2 * n] + Float(tca) * (fringes[6 * n + 2 * c] - source[2 * n])
                        channels[c][2 * n + 1] = source[2 * n + 1] + Float(tca) * (fringes[6 * n + 2 * c + 1] - source[2 * n + 1])
                    }
                }
            }
            return channels
        }

        /// Points along the frame's four edges (corners included), `perEdge` on each.
        func border(perEdge: Int = 256) -> [Float] {
            let (right, bottom) = (Float(width - 1), Float(height - 1))
            var points = [Float]()
            for k in 0...perEdge {
                let f = Float(k) / Float(perEdge)
                points += [f * right, 0, f * right, bottom, 0, f * bottom, right, f * bottom]
            }
            return points
        }

        /// Does every channel of the frame, scaled by `scale`, come from inside the picture?
        func fills(_ scale: Double, border: [Float]) throws -> Bool {
            let (right, bottom) = (Float(width - 1) + 1e-3, Float(height - 1) + 1e-3)
            for channel in try sources(LensCorrection.scaled(border, by: scale, width: width, height: height)) {
                for n in 0..<(channel.count / 2) {
                    let (x, y) = (channel[2 * n], channel[2 * n + 1])
                    if !(x >= -1e-3 && x <= right && y >= -1e-3 && y <= bottom) { return false }
                }
            }
            return true
        }

        /// The smallest scale (0.5…2, to 1/10 000) at which the corrected
        /// picture fills the frame: more than 1 where a correction leaves
        /// empty corners (barrel), less than 1 where it pushes picture out of
        /// the frame (pincushion). Found by bisection along the frame's edges
        /// (every channel, so TCA's fringes leave no coloured edge either);
        /// as lensfun's `lf_modifier_get_auto_scale`, for this filter's
        /// amounts and manual distortion too.
        func fillScale() throws -> Double {
            let border = border()
            if try sources(border).allSatisfy({ $0 == border }) { return 1 }  // nothing moves
            var (low, high) = (0.5, 2.0)
            if try fills(low, border: border) { return low }
            if try !fills(high, border: border) { return high }
            while high - low > 1e-4 {
                let middle = (low + high) / 2
                if try fills(middle, border: border) { high = middle } else { low = middle }
            }
            return high
        }
    }

    /// `points` (x, y pairs) brought towards the centre of a `width`×`height`
    /// frame by `scale`: the positions that show the picture enlarged by it.
    static func scaled(_ points: [Float], by scale: Double, width: Int, height: Int) -> [Float] {
        let (cx, cy) = (Double(width - 1) / 2, Double(height - 1) / 2)
        var out = points
        for i in stride(from: 0, to: points.count, by: 2) {
            out[i] = Float(cx + (Double(points[i]) - cx) / scale)
            out[i + 1] = Float(cy + (Double(points[i + 1]) - cy) / scale)
        }
        return out
    }

    /// `image` resampled bilinearly at the positions of `index` (black outside).
    private static func remap(_ image: Image, _ index: Image) throws -> Image {
        try Vips.image("mapim", [("in", .image(image)), ("index", .image(index)), ("extend", .string("black"))])
    }

    /// A grid computed every `step` pixels, interpolated bilinearly to
    /// `width`×`height` (grid point (i, j) is pixel (i·step, j·step)).
    static func upsampled(_ grid: Image, step: Int, width: Int, height: Int) throws -> Image {
        if step == 1 { return grid }
        // libvips affine: output pixel X samples input X / step (pixel centres on integers).
        let s = Double(step)
        return try grid.call("affine", [("matrix", .doubles([s, 0, 0, s])),  // bilinear, libvips affine's default
                                        ("oarea", .doubles([0, 0, Double(width), Double(height)])), ("extend", .string("copy"))])
    }
}
