import Foundation

/// What a photo's EXIF says of its camera and lens, and the lensfun profile
/// they name — what the `lens` filter stores when it is applied
/// (`photoedit lens ID` prints it).
public struct LensIdentification: Sendable, Equatable {
    /// The keys of the `lens` parameters it fills in.
    private typealias K = Filters.LensKeys

    /// The EXIF camera maker and model ("" when absent).
    public var exifMake = "", exifModel = ""
    /// The EXIF lens model ("" when absent).
    public var exifLens = ""
    /// Focal length in mm, f-number and focus distance in metres, from EXIF.
    public var focal: Double?, aperture: Double?, distance: Double?
    /// The 35 mm equivalent focal length from EXIF.
    public var focal35: Double?
    /// The camera as lensfun names it, when the database has it.
    public var camera: String?
    /// The lens profile as lensfun names it, when one was found.
    public var lens: String?
    /// The crop factor used: the camera's, else 35 mm ÷ focal, else the profile's.
    public var cropFactor: Double?
    /// Which corrections the profile holds ("distortion", "tca", "vignetting").
    public var corrections: [String] = []
    /// The lensfun database's version.
    public var database = ""
    /// Why no lens was found, in one line (nil when one was).
    public var problem: String?

    /// Reads the EXIF of the photo file at `path` (a RAW through libraw) and
    /// looks its camera and lens up in lensfun's database.
    public static func of(path: String) throws -> LensIdentification {
        var id = LensIdentification()
        if Renderer.isRaw(path) {
            if let info = RawDecoder.identify(path) {
                (id.exifMake, id.exifModel, id.exifLens) = (info.make, info.model, info.lens)
                (id.focal, id.aperture) = (info.focalLength, info.fNumber)
            }
        } else {
            let image = try Image.load(path: path, sequential: true)
            func text(_ field: String) -> String {
                guard let s = image.string(field) else { return "" }
                let value = s.range(of: " (").map { String(s[..<$0.lowerBound]) } ?? s
                return value.trimmingCharacters(in: .whitespaces)
            }
            func number(_ field: String) -> Double? {
                let parts = text(field).split(separator: "/").compactMap { Double($0) }
                let n = parts.count == 2 ? (parts[1] == 0 ? nil : parts[0] / parts[1]) : parts.first
                return n.flatMap { $0.isFinite && $0 > 0 ? $0 : nil }
            }
            (id.exifMake, id.exifModel) = (text("exif-ifd0-Make"), text("exif-ifd0-Model"))
            id.exifLens = text("exif-ifd2-LensModel")
            (id.focal, id.aperture) = (number("exif-ifd2-FocalLength"), number("exif-ifd2-FNumber"))
            id.distance = number("exif-ifd2-SubjectDistance")
            id.focal35 = number("exif-ifd2-FocalLengthIn35mmFilm")
        }
        try id.lookUp()
        return id
    }

    /// EXIF lens names that name no lens.
    static let lenslessNames: Set<String> = ["", "-", "----", "0", "65535", "(65535)", "n/a", "none", "unknown", "manual lens", "no lens"]

    /// The EXIF lens name as lensfun can match it: the first of "A or B"
    /// alternatives, without a parenthesised remark; nil for lens-less names.
    static func sanitized(_ name: String) -> String? {
        var s = name.trimmingCharacters(in: .whitespaces)
        for cut in [" or ", " ("] {
            if let r = s.range(of: cut), r.lowerBound > s.startIndex { s = String(s[..<r.lowerBound]) }
        }
        s = s.trimmingCharacters(in: .whitespaces)
        return lenslessNames.contains(s.lowercased()) ? nil : s
    }

    /// Finds the camera and the lens in the database.
    mutating func lookUp() throws {
        let db = try LensDatabase.shared()
        database = db.version
        let camera = exifModel.isEmpty ? nil : db.cameras(maker: exifMake.isEmpty ? nil : exifMake, model: exifModel).first
        self.camera = camera?.model
        var found: LensDatabase.Lens?
        if let name = Self.sanitized(exifLens) {
            // The lens as it fits the camera; else on any camera (an adapter).
            found = db.lenses(model: name, camera: camera).first ?? (camera == nil ? nil : db.lenses(model: name).first)
        }
        if found == nil, let camera, camera.hasFixedLens {
            // A compact: its own lens, whatever EXIF calls it.
            found = db.lenses(model: nil, camera: camera).first
        }
        if let focal, let focal35, camera == nil { cropFactor = focal35 / focal }
        if let camera { cropFactor = camera.cropFactor }
        if let found {
            lens = found.model
            if cropFactor == nil { cropFactor = found.cropFactor }
            corrections = [found.hasDistortion ? "distortion" : nil, found.hasTCA ? "tca" : nil, found.hasVignetting ? "vignetting" : nil].compactMap { $0 }
            if focal == nil { problem = "the photo's EXIF has no focal length" }
        } else if exifMake.isEmpty && exifModel.isEmpty && exifLens.isEmpty {
            problem = "the photo's EXIF names no camera and no lens"
        } else if Self.sanitized(exifLens) == nil {
            problem = camera.map { "the photo's EXIF names no lens, and \($0.model) has interchangeable lenses" }
                ?? "the photo's EXIF names no lens, and lensfun's database has no camera '\(exifMake) \(exifModel)'"
        } else {
            problem = "lensfun's database has no profile for '\(exifLens)'" + (camera.map { " on \($0.model)" } ?? "")
        }
    }

    /// The `lens` parameters this identification fills in (camera, lens,
    /// focal, aperture, distance, crop, database); empty when no lens was found.
    var parameters: [String: ParameterValue] {
        guard let lens, problem == nil, let focal else { return [:] }
        var out: [String: ParameterValue] = [K.lens.name: .text(lens), K.focal.name: .number(Self.rounded(focal)), K.database.name: .text(database)]
        if let camera { out[K.camera.name] = .text(camera) }
        if let aperture { out[K.aperture.name] = .number(Self.rounded(min(aperture, 128))) }
        if let distance { out[K.distance.name] = .number(Self.rounded(min(distance, 1000))) }
        if let cropFactor, camera == nil { out[K.crop.name] = .number(Self.rounded(min(cropFactor, 100))) }
        return out
    }

    private static func rounded(_ x: Double) -> Double { (x * 1000).rounded() / 1000 }

    /// `recipe` with its `lens` node, when it names no lens yet, filled in
    /// from this identification (left as it is when nothing was found: the
    /// filter then leaves the photo unchanged).
    public func applied(to recipe: Recipe, registry: FilterRegistry = .standard) throws -> Recipe {
        guard let node = recipe.node(Filters.lens.id), node.version == Filters.lens.version else { return recipe }
        var values = node.parameters.values
        if node.parameters[K.lens].isEmpty {
            // A camera chosen by hand stays (its crop factor with it).
            var found = parameters
            if !node.parameters[K.camera].isEmpty { found[K.camera.name] = nil; found[K.crop.name] = nil }
            values.merge(found) { $1 }
        }
        // A lens chosen by hand takes the photo's focal length, aperture and distance.
        let exif: [(ParameterKey<Double>, Double?, Double)] = [(K.focal, focal, 5000), (K.aperture, aperture, 128), (K.distance, distance, 1000)]
        for (key, value, limit) in exif where node.parameters[key] == 0 {
            if let value { values[key.name] = .number(Self.rounded(min(value, limit))) }
        }
        guard values != node.parameters.values else { return recipe }
        var out = recipe
        let parameters = try Filters.lens.validated(values)
        out.set(RecipeNode(filter: Filters.lens.id, version: Filters.lens.version, parameters: parameters), registry: registry)
        return out
    }

    /// One line: what was found, or why nothing was.
    public var summary: String {
        if let problem { return "no lens correction: \(problem)" }
        let what = corrections.isEmpty ? "no corrections" : corrections.joined(separator: ", ")
        return "\(lens ?? "") on \(camera ?? "\(exifMake) \(exifModel)") (\(what))"
    }
}

extension LensIdentification {
    /// lensfun's database, for listing: its version, and one line per camera
    /// ("maker<TAB>model<TAB>mount<TAB>crop factor") and per lens
    /// ("maker<TAB>model<TAB>focal range<TAB>corrections") whose maker and
    /// model contain `text` (case-insensitive; everything when empty).
    public static func database(matching text: String) throws -> (version: String, cameras: [String], lenses: [String]) {
        let db = try LensDatabase.shared()
        let found = db.search(text)
        let format = { (x: Double) in JSONValue.format((x * 1000).rounded() / 1000) }
        let cameras = found.cameras.map { "\($0.maker)\t\($0.model)\t\($0.mount)\t\(format($0.cropFactor))" }
        let lenses = found.lenses.map { l -> String in
            let range = l.minFocal == l.maxFocal ? "\(format(l.minFocal)) mm" : "\(format(l.minFocal))-\(format(l.maxFocal)) mm"
            let has = [l.hasDistortion ? "distortion" : nil, l.hasTCA ? "tca" : nil, l.hasVignetting ? "vignetting" : nil].compactMap { $0 }
            return "\(l.maker)\t\(l.model)\t\(range)\t\(has.isEmpty ? "-" : has.joined(separator: ","))"
        }
        return (db.version, cameras, lenses)
    }
}
