import Foundation

/// What the `denoise` filter finds for a photo: its camera and ISO, the
/// noise profile it would use (darktable's, interpolated between ISOs), and
/// the noise measured on the photo itself.
public struct DenoiseIdentification: Sendable, Codable {
    /// The camera as the file names it (libraw's make and model for a RAW, EXIF otherwise).
    public var make = "", model = ""
    /// The photo's ISO, when it says.
    public var iso: Double?
    /// The profile `denoise` would record (nil: none; the noise is estimated).
    public var profile: NoiseProfile?
    /// The noise model measured on the photo's flattest regions (full size,
    /// linear, after the RAW development).
    public var estimated: NoiseModel = .zero
    /// The profile's model carried into the linear working space (a RAW's
    /// daylight white balance and colour matrix applied), for comparison
    /// with the estimate; the recipe records the profile's own values
    /// (`profile.noise`), which the renderer applies in camera RGB.
    public var working: NoiseModel?
    /// How many 16 × 16 blocks per channel the estimate used.
    public var estimatedBlocks = 0
    /// Why no profile is used, in one line (nil when one is).
    public var note: String?
    /// The profile file read.
    public var database: String?
    /// The profile the photo's current edit records in its `denoise` node
    /// (a chain's `denoise`, or a Lightroom import's noise reduction: its
    /// name, e.g. "EOS 30D iso 1600"), which it renders with whatever the
    /// profile file says now; nil when it records none.
    public var recorded: String?

    /// The noise's standard deviation at 18 % grey (linear, 1 = white), of
    /// the estimate.
    public var estimatedSigma: Double { estimated.sigma() }
}

extension DenoiseIdentification {
    /// Identifies the photo at `path` (an original; a RAW is developed
    /// neutrally for the estimate, a rendered file linearised).
    static func of(path: String, renderer: Renderer, database: NoiseProfileDatabase = .installed) throws -> DenoiseIdentification {
        var found = DenoiseIdentification()
        found.database = database.path
        let working: Image
        if Renderer.isRaw(path) {
            let info = RawDecoder.identify(path)
            if let info {
                (found.make, found.model, found.iso) = (info.make, info.model, info.iso)
            }
            working = try renderer.workingImage(path: path, randomAccess: false)
            if let problem = database.problem {
                found.note = problem
            } else if found.make.isEmpty || info == nil {
                found.note = "the RAW names no camera; the noise is estimated"
            } else if let iso = found.iso, let info {
                found.profile = database.profile(make: found.make, model: found.model, iso: iso)
                found.working = found.profile.map { Self.working($0.noise, info: info) }
                if found.profile == nil { found.note = "no noise profile for \(found.make) \(found.model); the noise is estimated" }
            } else {
                found.note = "the RAW names no ISO; the noise is estimated"
            }
        } else {
            let image = try Image.load(path: path, sequential: true)
            found.make = image.string("exif-ifd0-Make").map(Self.exifText) ?? ""
            found.model = image.string("exif-ifd0-Model").map(Self.exifText) ?? ""
            found.iso = image.string("exif-ifd2-ISOSpeedRatings").flatMap { Double(Self.exifText($0).split(separator: " ").first ?? "") }
            working = try renderer.workingImage(upright: image)
            found.note = "a rendered file (not a RAW): the camera's processing changed its noise; the noise is estimated from its flat regions"
        }
        (found.estimated, found.estimatedBlocks) = try Denoiser.estimate(working)
        return found
    }

    /// A camera-RGB noise model (darktable's profiles: raw values 0…1 of
    /// white − black, before white balance) in the linear working space
    /// libraw develops into: out = M · diag(m) · x, with m the daylight
    /// multipliers (the smallest 1, as libraw scales them) and M the colour
    /// matrix, so per output channel a' = Σ M² m a and b' = Σ M² m² b (for a
    /// grey pixel; channels taken as independent).
    static func working(_ noise: NoiseModel, info: RawInfo) -> NoiseModel {
        let pre = info.daylightMultipliers.count == 3 ? info.daylightMultipliers : [1, 1, 1]
        let least = pre.filter { $0 > 0 }.min() ?? 1
        let m = pre.map { $0 > 0 ? $0 / least : 1 }
        let matrix = info.sRGBFromCamera.count == 9 ? info.sRGBFromCamera : [1, 0, 0, 0, 1, 0, 0, 0, 1]
        var a = [0.0, 0.0, 0.0], b = [0.0, 0.0, 0.0]
        for i in 0..<3 {
            for j in 0..<3 {
                let w = matrix[i * 3 + j] * matrix[i * 3 + j]
                a[i] += w * m[j] * noise.a[j]
                b[i] += w * m[j] * m[j] * noise.b[j]
            }
        }
        return NoiseModel(a: a, b: b)
    }

    /// libvips' EXIF strings read "value (description, …)": the value.
    private static func exifText(_ s: String) -> String {
        let value = s.range(of: " (").map { String(s[..<$0.lowerBound]) } ?? s
        return value.trimmingCharacters(in: .whitespaces)
    }

    /// The profile name a recipe's `denoise` node records (source `profile`), nil otherwise.
    static func recorded(in recipe: Recipe) -> String? {
        guard let node = recipe.node(Filters.denoise.id), node.parameters[Filters.DenoiseKeys.source] == "profile",
              NoiseModel(node.parameters) != nil else { return nil }
        let name = node.parameters[Filters.DenoiseKeys.profile]
        return name.isEmpty ? "(unnamed)" : name
    }

    /// Whether a `denoise` node still has to find its noise model when the
    /// photo is edited: source `auto`, or `profile` with none recorded yet.
    static func needsResolving(_ recipe: Recipe) -> Bool {
        guard let node = recipe.node(Filters.denoise.id), node.version == Filters.denoise.version else { return false }
        let source = node.parameters[Filters.DenoiseKeys.source]
        return source == "auto" || (source == "profile" && NoiseModel(node.parameters) == nil)
    }

    /// `recipe` with its `denoise` node's source resolved (see
    /// `needsResolving`): the profile's name, ISO and model recorded (source
    /// `profile`), or source `estimate`. Unchanged when there is no such node.
    func resolving(_ recipe: Recipe, registry: FilterRegistry) throws -> Recipe {
        guard Self.needsResolving(recipe), let node = recipe.node(Filters.denoise.id) else { return recipe }
        var values = node.parameters.values
        if let profile, working != nil {
            // The profile's own values (camera RGB, raw units): the renderer
            // carries them to each development (Filters.cameraNoise).
            let k = Filters.DenoiseKeys.self
            values[k.source.name] = .text("profile")
            values[k.profile.name] = .text(profile.name)
            values[k.iso.name] = .number(min(10_000_000, profile.iso))
            for (i, (a, b)) in [(k.aR, k.bR), (k.aG, k.bG), (k.aB, k.bB)].enumerated() {
                values[a.name] = .number(min(0.1, profile.noise.a[i]))
                values[b.name] = .number(min(0.1, profile.noise.b[i]))
            }
        } else {
            values[Filters.DenoiseKeys.source.name] = .text("estimate")
        }
        var result = recipe
        result.set(RecipeNode(filter: node.filter, version: node.version, parameters: try Filters.denoise.validated(values)), registry: registry)
        return result
    }
}
