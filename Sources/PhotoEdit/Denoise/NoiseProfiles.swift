import Foundation

/// One measured noise profile: a camera at one ISO (darktable's
/// `noiseprofiles.json`), or one interpolated between two ISOs.
public struct NoiseProfile: Sendable, Hashable, Codable {
    /// darktable's name ("EOS 30D iso 1600"), or for an interpolated one
    /// "EOS 30D iso 1600–3200 at 2000".
    public var name: String
    /// darktable's maker and model names.
    public var maker: String
    public var model: String
    /// The ISO the profile is for.
    public var iso: Double
    /// The noise model (variance a·x + b per channel).
    public var noise: NoiseModel
}

/// darktable's noise profiles, read at run time from the installed package
/// (`/usr/share/darktable/noiseprofiles.json`; `PHOTOEDIT_NOISE_PROFILES`
/// names another file). A missing or damaged file gives an empty database
/// and a `problem` line, never an error: the noise is then estimated.
public struct NoiseProfileDatabase: Sendable {
    /// Where Debian's darktable package installs the profiles.
    public static let installedPath = "/usr/share/darktable/noiseprofiles.json"
    /// The largest file read (the installed one is 1.5 MB).
    public static let maxFileBytes = 32 << 20
    /// The most profiles kept (the installed file has ~7 000).
    public static let maxProfiles = 100_000

    /// Every usable profile, by maker and model, in the file's order.
    public let profiles: [NoiseProfile]
    /// The file read (nil: none was).
    public let path: String?
    /// Why the file could not be used, in one line (nil when it could).
    public let problem: String?

    /// The database at `PHOTOEDIT_NOISE_PROFILES` or the installed path,
    /// read once per process.
    public static var installed: NoiseProfileDatabase { cached }
    private static let cached = NoiseProfileDatabase(path: ProcessInfo.processInfo.environment["PHOTOEDIT_NOISE_PROFILES"] ?? installedPath)

    /// Reads `path`; a missing, oversized or damaged file gives an empty
    /// database with its `problem`. Entries without a name, a positive
    /// ISO and three finite a and b values are skipped, as are the ones
    /// darktable marks `skip`.
    public init(path: String) {
        self.path = path
        let url = URL(fileURLWithPath: path)
        let size = (try? FileManager.default.attributesOfItem(atPath: path)[.size] as? Int) ?? nil
        guard let size else {
            profiles = []; problem = "no noise profiles at \(path) (install darktable's data, or set PHOTOEDIT_NOISE_PROFILES); the noise is estimated"
            return
        }
        guard size <= Self.maxFileBytes else {
            profiles = []; problem = "noise profiles at \(path) are larger than \(Self.maxFileBytes >> 20) MB; the noise is estimated"
            return
        }
        guard let data = try? Data(contentsOf: url), let root = try? JSONSerialization.jsonObject(with: data) as? [String: Any],
              let makers = root["noiseprofiles"] as? [Any] else {
            profiles = []; problem = "noise profiles at \(path) are not darktable's JSON (no 'noiseprofiles' list); the noise is estimated"
            return
        }
        var found: [NoiseProfile] = []
        outer: for case let maker as [String: Any] in makers {
            guard let makerName = maker["maker"] as? String, let models = maker["models"] as? [Any] else { continue }
            for case let model as [String: Any] in models {
                guard let modelName = model["model"] as? String, let list = model["profiles"] as? [Any] else { continue }
                for case let entry as [String: Any] in list {
                    if found.count >= Self.maxProfiles { break outer }
                    if (entry["skip"] as? Bool) == true { continue }
                    guard let name = entry["name"] as? String, let iso = (entry["iso"] as? NSNumber)?.doubleValue, iso > 0, iso.isFinite,
                          let a = Self.triple(entry["a"]), let b = Self.triple(entry["b"]) else { continue }
                    found.append(NoiseProfile(name: String(name.prefix(200)), maker: String(makerName.prefix(100)),
                                              model: String(modelName.prefix(100)), iso: iso, noise: NoiseModel(a: a, b: b)))
                }
            }
        }
        profiles = found
        problem = found.isEmpty ? "noise profiles at \(path) hold no usable profile; the noise is estimated" : nil
    }

    private static func triple(_ value: Any?) -> [Double]? {
        guard let list = value as? [Any], list.count == 3 else { return nil }
        let numbers = list.compactMap { ($0 as? NSNumber)?.doubleValue }
        return numbers.count == 3 && numbers.allSatisfy({ $0.isFinite && abs($0) < 1 }) ? numbers : nil
    }

    /// The profiles of the camera an EXIF or libraw make and model name,
    /// sorted by ISO (empty when the database does not know it).
    public func profiles(make: String, model: String) -> [NoiseProfile] {
        let make = Self.makerKey(make), modelKey = Self.modelKey(model, make: make)
        guard !make.isEmpty, !modelKey.isEmpty else { return [] }
        return profiles.filter { Self.makerKey($0.maker) == make && Self.modelKey($0.model, make: make) == modelKey }
            .sorted { $0.iso < $1.iso }
    }

    /// The profile for a camera at `iso`: the measured one at that ISO, else
    /// a and b interpolated linearly in ISO between the two nearest measured
    /// (the nearest one, scaled, beyond the measured range: variance grows
    /// with the gain). nil when the camera is unknown.
    public func profile(make: String, model: String, iso: Double) -> NoiseProfile? {
        let list = profiles(make: make, model: model)
        guard !list.isEmpty, iso > 0, iso.isFinite else { return nil }
        if let exact = list.first(where: { abs($0.iso - iso) < 0.5 }) { return exact }
        let format = { (v: Double) in JSONValue.format(v.rounded()) }
        if let upper = list.firstIndex(where: { $0.iso > iso }), upper > 0 {
            let lo = list[upper - 1], hi = list[upper]
            let t = (iso - lo.iso) / (hi.iso - lo.iso)
            let mix = { (x: [Double], y: [Double]) in zip(x, y).map { $0 + ($1 - $0) * t } }
            return NoiseProfile(name: "\(lo.name)–\(format(hi.iso)) at \(format(iso))", maker: lo.maker, model: lo.model, iso: iso,
                                noise: NoiseModel(a: mix(lo.noise.a, hi.noise.a), b: mix(lo.noise.b, hi.noise.b)))
        }
        // Outside the measured range: the nearest profile, a scaled by the
        // gain ratio and b by its square (shot noise ∝ gain, read noise ∝ gain²).
        let nearest = iso < list[0].iso ? list[0] : list[list.count - 1]
        let r = iso / nearest.iso
        return NoiseProfile(name: "\(nearest.name) scaled to \(format(iso))", maker: nearest.maker, model: nearest.model, iso: iso,
                            noise: NoiseModel(a: nearest.noise.a.map { $0 * r }, b: nearest.noise.b.map { $0 * r * r }))
    }

    /// A maker's name as one key: the first word, lower case, without
    /// company suffixes ("NIKON CORPORATION" → "nikon", "OLYMPUS IMAGING
    /// CORP." → "olympus", "RICOH IMAGING COMPANY, LTD." → "ricoh").
    static func makerKey(_ make: String) -> String {
        let words = make.lowercased().split(whereSeparator: { !$0.isLetter && !$0.isNumber })
        guard let first = words.first else { return "" }
        if first == "om" { return "om system" }
        if first == "pentax" || first == "ricoh" { return "pentax" }
        if first == "lg" || first == "lge" { return "lge" }
        return String(first)
    }

    /// A model's name as one key: lower case letters and digits only, the
    /// maker's name left out ("Canon EOS 30D" and "EOS 30D" → "eos30d").
    static func modelKey(_ model: String, make: String) -> String {
        var text = model.lowercased()
        for word in [make, "nikon", "canon", "sony", "fujifilm", "panasonic", "olympus", "pentax", "ricoh", "leica", "samsung"]
        where !word.isEmpty && text.hasPrefix(word) {
            text.removeFirst(word.count)
        }
        return String(text.filter { $0.isLetter || $0.isNumber })
    }
}
