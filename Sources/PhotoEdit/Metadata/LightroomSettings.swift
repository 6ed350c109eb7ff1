import Foundation

/// Lightroom / Camera Raw develop settings: the `crs:` members of an XMP
/// packet (namespace `http://ns.adobe.com/camera-raw-settings/1.0/`), read
/// as adjustment data photoedit *can handle* (format identifier
/// `com.adobe.crs`). The packet is kept verbatim as the adjustment data's
/// `data`; `translation()` turns it into a photoedit recipe, and lists every
/// setting that is set and has no photoedit equivalent (docs/xmp.md has the
/// mapping table).
///
/// The translation is versioned by the adjustment data's `formatVersion`
/// (`translationVersion`): a revision made from a packet always renders the
/// way that version of the translation reads it, as filter versions do.
public struct LightroomSettings: Sendable {
    /// The `formatIdentifier` of Lightroom develop settings kept as adjustment data.
    public static let formatIdentifier = "com.adobe.crs"
    /// The version of photoedit's translation, written as `formatVersion`.
    public static let translationVersion = 1
    /// The `crs:` namespace.
    public static let namespace = "http://ns.adobe.com/camera-raw-settings/1.0/"
    static let tiff = "http://ns.adobe.com/tiff/1.0/"
    /// The largest packet kept as adjustment data (Lightroom's packets with
    /// many brushed masks measure a few hundred KB).
    public static let maxPacketBytes = 2 << 20
    /// The most `crs:` members read.
    public static let maxSettings = 2000
    /// The most points of one tone curve (Lightroom writes at most a few dozen).
    public static let maxCurvePoints = 256

    /// Simple `crs:` values by local name.
    let values: [String: String]
    /// Array `crs:` values (tone curves, retouch lists) by local name.
    let arrays: [String: [String]]
    /// `crs:` members whose value is a structure (`Look`, masks).
    let structures: Set<String>
    /// `tiff:Orientation` of the packet: the frame Lightroom's crop is in.
    let orientation: Int
    /// The text of `photoedit:recipe` (a sidecar photoedit wrote), if any.
    let photoeditRecipe: String?

    /// Reads the `crs:` members of a parsed packet.
    init(packet: XMPPacket) throws(XMPProblem) {
        var values: [String: String] = [:], arrays: [String: [String]] = [:]
        for (name, value) in packet.properties where name.namespace == Self.namespace {
            switch value {
            case .text(let t): values[name.local] = t.trimmingCharacters(in: .whitespacesAndNewlines)
            case .array(let items): arrays[name.local] = items.map { $0.text.trimmingCharacters(in: .whitespacesAndNewlines) }
            }
        }
        self.values = values
        self.arrays = arrays
        structures = Set(packet.structures.filter { $0.namespace == Self.namespace }.map(\.local))
        guard values.count + arrays.count + structures.count <= Self.maxSettings else {
            throw XMPProblem("more than \(Self.maxSettings) crs: settings")
        }
        var orientation = 1
        if let text = packet.value(Self.tiff, "Orientation")?.defaultText {
            guard let o = Int(text.trimmingCharacters(in: .whitespaces)), (1...8).contains(o) else {
                throw XMPProblem("tiff:Orientation is not an orientation from 1 to 8")
            }
            orientation = o
        }
        self.orientation = orientation
        photoeditRecipe = packet.value(XMPSidecar.namespace, "recipe")?.defaultText
    }

    /// Reads the develop settings of a packet's bytes (a sidecar's whole
    /// file, or an embedded packet).
    public init(packet data: Data) throws(XMPProblem) {
        guard data.count <= Self.maxPacketBytes else {
            throw XMPProblem("larger than \(Self.maxPacketBytes >> 20) MiB, the most kept as develop settings")
        }
        try self.init(packet: XMPPacket(data: data))
    }

    /// Reads `com.adobe.crs` adjustment data of a translation version this build knows.
    public init(adjustmentData: AdjustmentData) throws {
        guard Self.canHandle(adjustmentData) else {
            throw PhotoEditError.invalidAdjustmentData("format '\(adjustmentData.formatIdentifier)' version '\(adjustmentData.formatVersion)' is not Lightroom develop settings this engine reads (\(Self.formatIdentifier) up to \(Self.translationVersion))")
        }
        do {
            try self.init(packet: adjustmentData.data)
        } catch {
            throw PhotoEditError.invalidAdjustmentData("Lightroom develop settings: \(error)")
        }
    }

    /// Whether this build translates the adjustment data: `com.adobe.crs`
    /// of a translation version it knows.
    public static func canHandle(_ data: AdjustmentData) -> Bool {
        data.formatIdentifier == formatIdentifier && Int(data.formatVersion).map { $0 >= 1 && $0 <= translationVersion } == true
    }

    /// The packet as adjustment data (the bytes as they are).
    public static func adjustmentData(packet: Data) -> AdjustmentData {
        AdjustmentData(formatIdentifier: formatIdentifier, formatVersion: String(translationVersion), data: packet)
    }

    /// Whether the packet has no `crs:` member at all (nor a `photoedit:recipe`).
    public var isEmpty: Bool { values.isEmpty && arrays.isEmpty && structures.isEmpty && photoeditRecipe == nil }

    /// `crs:AlreadyApplied="True"`: Lightroom and Camera Raw write it into the
    /// files they export, whose pixels already have the settings. Such a
    /// packet describes how the file was made and is never applied again.
    public var isAlreadyApplied: Bool { values["AlreadyApplied"]?.lowercased() == "true" }

    /// Settings to apply: not empty and not already applied.
    var isToApply: Bool { !isEmpty && !isAlreadyApplied }

    /// The `photoedit:recipe` of a sidecar photoedit wrote, when this build
    /// reads it and it applies to a photo from scratch (not on another
    /// tool's render); nil otherwise.
    public func photoeditRecipe(registry: FilterRegistry = .standard) -> Recipe? {
        guard let text = photoeditRecipe, let json = try? JSONValue.parse(Data(text.utf8)),
              let recipe = try? Recipe(json: json, registry: registry), recipe.base != .render else { return nil }
        return recipe
    }
}

/// A translation of Lightroom develop settings into a photoedit recipe.
public struct LightroomTranslation: Sendable, Hashable {
    /// The recipe: every mapped setting that is not at its default.
    public let recipe: Recipe
    /// Settings that are set (not at their default) and have no photoedit
    /// equivalent, one text each: the `crs:` name, and its value when simple
    /// (`Clarity2012 +20`, `MaskGroupBasedCorrections`).
    public let unmapped: [String]
    /// The recipe develops a camera RAW (it has a `raw` node: Lightroom's
    /// kelvin white balance), so it applies to a RAW base only.
    public var needsRaw: Bool { recipe.node(Filters.raw.id) != nil }
    /// Nothing to apply and nothing unmapped: Lightroom's defaults.
    public var isDefault: Bool { recipe.isEmpty && unmapped.isEmpty }
}

extension LightroomSettings {
    /// The filter versions translation version 1 writes (pinned, so a later
    /// filter version never changes how an imported edit renders).
    static let filterVersions: [String: Int] = [
        "raw": 1, "temperature": 1, "tint": 1, "exposure": 1, "contrast": 2, "highlights": 1, "shadows": 1, "whites": 1,
        "blacks": 1, "curve": 1, "saturation": 1, "vibrance": 1, "hsl": 1, "mono": 1, "splittone": 1, "straighten": 1,
        "crop": 1, "sharpen": 1, "vignette": 1, "grain": 1,
    ]

    /// Lightroom's eight HSL bands and photoedit's `hsl` range names.
    static let bands = ["Red": "red", "Orange": "orange", "Yellow": "yellow", "Green": "green", "Aqua": "aqua",
                        "Blue": "blue", "Purple": "purple", "Magenta": "magenta"]

    /// Settings read for the translation (a value outside its range refuses the packet).
    static var mapped: Set<String> {
        var names: Set<String> = [
            "Exposure2012", "Contrast2012", "Highlights2012", "Shadows2012", "Whites2012", "Blacks2012", "WhiteBalance",
            "Temperature", "Tint", "IncrementalTemperature", "IncrementalTint", "Vibrance", "Saturation", "HasCrop",
            "CropLeft", "CropTop", "CropRight", "CropBottom", "CropAngle", "ToneCurvePV2012", "Sharpness", "SharpenRadius",
            "SharpenEdgeMasking", "PostCropVignetteAmount", "PostCropVignetteMidpoint", "PostCropVignetteRoundness",
            "PostCropVignetteFeather", "GrainAmount", "GrainSize", "ConvertToGrayscale", "GrayMixerRed", "GrayMixerGreen",
            "GrayMixerBlue", "SplitToningShadowHue", "SplitToningShadowSaturation", "SplitToningHighlightHue",
            "SplitToningHighlightSaturation", "SplitToningBalance",
        ]
        for band in bands.keys { names.formUnion(["HueAdjustment\(band)", "SaturationAdjustment\(band)", "LuminanceAdjustment\(band)"]) }
        return names
    }

    /// Bookkeeping that describes, not adjusts: never listed as unmapped.
    static let bookkeeping: Set<String> = [
        "Version", "ProcessVersion", "CompatibleVersion", "RawFileName", "HasSettings", "AlreadyApplied", "CameraProfile",
        "CameraProfileDigest", "Look", "ToneCurveName", "ToneCurveName2012", "CropConstrainToWarp", "CropConstrainAspectRatio",
        "CropUnit", "CropWidth", "CropHeight", "PostCropVignetteStyle", "LensProfileSetup", "LensProfileName", "LensProfileFilename",
        "LensProfileDigest", "LensProfileIsEmbedded", "LensProfileDistortionScale", "LensProfileVignettingScale",
        "LensProfileChromaticAberrationScale", "UprightVersion", "UprightCenterMode", "UprightCenterNormX", "UprightCenterNormY",
        "UprightFocalMode", "UprightFocalLength35mm", "UprightPreview", "UprightTransformCount", "UprightDependentDigest",
        "UprightGuidedDependentDigest", "AutoWhiteVersion", "CameraModelRestriction", "Copyright", "ContactInfo", "Cluster",
        "UUID", "Group", "Name", "SortName", "ShortName", "Type", "PresetType", "SupportsAmount", "SupportsColor",
        "SupportsMonochrome", "SupportsHighDynamicRange", "SupportsNormalDynamicRange", "SupportsSceneReferred",
        "SupportsOutputReferred", "OverrideLookVignette", "GrayMixerOrange", "GrayMixerYellow", "GrayMixerAqua",
        "GrayMixerPurple", "GrayMixerMagenta",
    ]

    /// Settings whose default is not zero or False, with that default.
    static let defaults: [String: Double] = [
        "Brightness": 50, "Contrast": 25, "Shadows": 5, "ColorNoiseReduction": 25, "ColorNoiseReductionDetail": 50,
        "ColorNoiseReductionSmoothness": 50, "LuminanceNoiseReductionDetail": 50, "SharpenDetail": 25, "GrainFrequency": 50,
        "ParametricShadowSplit": 25, "ParametricMidtoneSplit": 50, "ParametricHighlightSplit": 75, "PerspectiveScale": 100,
        "ColorGradeBlending": 50, "DefringePurpleHueLo": 30, "DefringePurpleHueHi": 70, "DefringeGreenHueLo": 40,
        "DefringeGreenHueHi": 60, "CurveRefineSaturation": 100, "VignetteMidpoint": 50,
    ]

    /// A number read from the packet, refused when it is not a finite
    /// number inside Lightroom's range.
    func number(_ name: String, _ range: ClosedRange<Double>) throws(XMPProblem) -> Double? {
        guard let text = values[name] else { return nil }
        guard let value = Self.parseNumber(text), range.contains(value) else {
            throw XMPProblem("crs:\(name) is not a number from \(JSONValue.format(range.lowerBound)) to \(JSONValue.format(range.upperBound))")
        }
        return value
    }

    /// `+1.00`, `-15`, `0.5`: a finite number, or nil.
    static func parseNumber(_ text: String) -> Double? {
        guard text.count <= 40, let value = Double(text), value.isFinite else { return nil }
        return value
    }

    /// A `True`/`False` setting.
    func flag(_ name: String) throws(XMPProblem) -> Bool? {
        guard let text = values[name] else { return nil }
        switch text.lowercased() {
        case "true", "1": return true
        case "false", "0": return false
        default: throw XMPProblem("crs:\(name) is not True or False")
        }
    }

    /// A tone curve: `x, y` points on 0…255, x not decreasing. Nil when not set.
    func curve(_ name: String) throws(XMPProblem) -> [(x: Double, y: Double)]? {
        guard let items = arrays[name] ?? values[name].map({ [$0] }) else { return nil }
        if items.isEmpty { return nil }
        guard (2...Self.maxCurvePoints).contains(items.count) else {
            throw XMPProblem("crs:\(name) has \(items.count) points (2 to \(Self.maxCurvePoints))")
        }
        var points: [(x: Double, y: Double)] = []
        for item in items {
            let parts = item.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
            guard parts.count == 2, let x = Self.parseNumber(parts[0]), let y = Self.parseNumber(parts[1]),
                  (0...255).contains(x), (0...255).contains(y), x >= (points.last?.x ?? 0) else {
                throw XMPProblem("crs:\(name) holds a point that is not \"x, y\" on 0…255 with x not decreasing")
            }
            points.append((x, y))
        }
        return points
    }

    static func isIdentity(_ points: [(x: Double, y: Double)]) -> Bool {
        points.first!.x == 0 && points.last!.x == 255 && points.allSatisfy { $0.x == $0.y }
    }

    /// The translation into a photoedit recipe (filters in `registry`), and
    /// the settings it cannot map. Throws for a value that is not valid
    /// (not a number, outside Lightroom's range): a packet is used whole or not at all.
    public func translation(registry: FilterRegistry = .standard) throws(XMPProblem) -> LightroomTranslation {
        var nodes: [String: [String: Double]] = [:]
        var texts: [String: [String: String]] = [:]
        var unmapped: [String] = []
        func set(_ filter: String, _ parameter: String, _ value: Double, _ range: ClosedRange<Double>) {
            nodes[filter, default: [:]][parameter] = JSONValue.canonicalNumber(min(max(value, range.lowerBound), range.upperBound))
        }

        // Basic tone: the same −100…100 sliders (exposure in stops).
        if let v = try number("Exposure2012", -5...5), v != 0 { set("exposure", "ev", v, -5...5) }
        for (name, filter) in [("Contrast2012", "contrast"), ("Highlights2012", "highlights"), ("Shadows2012", "shadows"),
                               ("Whites2012", "whites"), ("Blacks2012", "blacks"), ("Vibrance", "vibrance"), ("Saturation", "saturation")] {
            if let v = try number(name, -100...100), v != 0 { set(filter, "amount", v, -100...100) }
        }

        // White balance: a RAW's light in kelvin, or a relative shift for other files.
        let temperature = try number("Temperature", 1000...60000), tint = try number("Tint", -150...150)
        switch values["WhiteBalance"]?.lowercased() {
        case nil, "as shot", "asshot":
            // As shot is photoedit's default development; a Temperature without
            // WhiteBalance is a custom one.
            if values["WhiteBalance"] == nil, let temperature {
                texts["raw", default: [:]]["wb"] = "kelvin"
                set("raw", "temperature", temperature, 2000...25000)
                set("raw", "tint", tint ?? 0, -150...150)
            }
        case "auto":
            texts["raw", default: [:]]["wb"] = "auto"
        default:
            // Custom and Lightroom's presets (Daylight, Cloudy, Tungsten…) all write their kelvin.
            if let temperature {
                texts["raw", default: [:]]["wb"] = "kelvin"
                set("raw", "temperature", temperature, 2000...25000)
                set("raw", "tint", tint ?? 0, -150...150)
            }
        }
        if let v = try number("IncrementalTemperature", -100...100), v != 0 { set("temperature", "amount", v, -100...100) }
        if let v = try number("IncrementalTint", -100...100), v != 0 { set("tint", "amount", v, -100...100) }

        // Crop and straighten: Lightroom's edges are fractions of the frame as
        // stored (before tiff:Orientation); photoedit crops the upright image.
        if try flag("HasCrop") == true {
            let left = try number("CropLeft", 0...1) ?? 0, top = try number("CropTop", 0...1) ?? 0
            let right = try number("CropRight", 0...1) ?? 1, bottom = try number("CropBottom", 0...1) ?? 1
            guard right > left, bottom > top else { throw XMPProblem("crs:CropRight/CropBottom are not beyond CropLeft/CropTop") }
            let (x, y, w, h) = Self.upright(left: left, top: top, right: right, bottom: bottom, orientation: orientation)
            if x > 0 || y > 0 || w < 1 || h < 1 {
                texts["crop", default: [:]]["mode"] = "rect"
                set("crop", "x", x, 0...1)
                set("crop", "y", y, 0...1)
                set("crop", "w", min(w, 1 - nodes["crop"]!["x"]!), 0.001...1)
                set("crop", "h", min(h, 1 - nodes["crop"]!["y"]!), 0.001...1)
            }
            if let angle = try number("CropAngle", -45...45), angle != 0 {
                // A mirrored frame turns the other way.
                set("straighten", "angle", [2, 4, 5, 7].contains(orientation) ? -angle : angle, -45...45)
            }
        }

        // Tone curves: one `curve` node, so the master curve, else the one
        // channel curve set; any other curve that is set is listed.
        var curves: [(channel: String, name: String, points: [(x: Double, y: Double)])] = []
        for (channel, name) in [("rgb", "ToneCurvePV2012"), ("red", "ToneCurvePV2012Red"), ("green", "ToneCurvePV2012Green"),
                                ("blue", "ToneCurvePV2012Blue")] {
            if let points = try curve(name), !Self.isIdentity(points) { curves.append((channel, name, points)) }
        }
        if let first = curves.first {
            let points = Self.resampled(first.points, to: Filters.curveMaxPoints)
            texts["curve", default: [:]]["channel"] = first.channel
            set("curve", "n", Double(points.count), 2...Double(Filters.curveMaxPoints))
            for (i, p) in points.enumerated() {
                set("curve", "x\(i + 1)", p.x / 255, 0...1)
                set("curve", "y\(i + 1)", p.y / 255, 0...1)
            }
            unmapped += curves.dropFirst().map { "\($0.name) (one tone curve is mapped: \(first.name))" }
        }

        // HSL: the same eight bands.
        for (band, range) in Self.bands {
            for (prefix, suffix) in [("HueAdjustment", "h"), ("SaturationAdjustment", "s"), ("LuminanceAdjustment", "l")] {
                if let v = try number(prefix + band, -100...100), v != 0 { set("hsl", "\(range)_\(suffix)", v, -100...100) }
            }
        }

        // Detail.
        if let amount = try number("Sharpness", 0...150), amount != 0 {
            set("sharpen", "amount", amount, 0...500)
            if let radius = try number("SharpenRadius", 0.5...3) { set("sharpen", "radius", radius, 0.3...20) }
            if let masking = try number("SharpenEdgeMasking", 0...100), masking != 0 { set("sharpen", "threshold", masking / 5, 0...255) }
        }

        // Effects.
        if let amount = try number("PostCropVignetteAmount", -100...100), amount != 0 {
            set("vignette", "amount", amount, -100...100)
            if let v = try number("PostCropVignetteMidpoint", 0...100) { set("vignette", "midpoint", v, 0...100) }
            if let v = try number("PostCropVignetteRoundness", -100...100) { set("vignette", "roundness", v, -100...100) }
            if let v = try number("PostCropVignetteFeather", 0...100) { set("vignette", "feather", v, 0...100) }
        }
        if let amount = try number("GrainAmount", 0...100), amount != 0 {
            set("grain", "amount", amount, 0...100)
            // Lightroom's size 0…100 (default 25) → 1…10 px.
            if let size = try number("GrainSize", 0...100) { set("grain", "size", 1 + size * 0.09, 1...10) }
        }

        // Colour effects.
        if try flag("ConvertToGrayscale") == true {
            set("mono", "amount", 100, 0...100)
            // The grey mixer's red, green and blue sliders (−100…100) scale
            // the Rec. 709 weights; its other five bands are not mapped.
            let red = try number("GrayMixerRed", -200...200), green = try number("GrayMixerGreen", -200...200)
            let blue = try number("GrayMixerBlue", -200...200)
            if red != nil || green != nil || blue != nil {
                let weights = [(red, 0.2126), (green, 0.7152), (blue, 0.0722)].map { max(0.001, $0.1 * (1 + ($0.0 ?? 0) / 100)) }
                let scale = weights.max()! > 1 ? 1 / weights.max()! : 1
                set("mono", "red", weights[0] * scale, 0...1)
                set("mono", "green", weights[1] * scale, 0...1)
                set("mono", "blue", weights[2] * scale, 0...1)
            }
            for band in ["Orange", "Yellow", "Aqua", "Purple", "Magenta"] {
                if let v = try number("GrayMixer\(band)", -200...200), v != 0 { unmapped.append("GrayMixer\(band) \(Self.describe(v))") }
            }
        }
        let shadowSat = try number("SplitToningShadowSaturation", 0...100) ?? 0
        let highSat = try number("SplitToningHighlightSaturation", 0...100) ?? 0
        if shadowSat != 0 || highSat != 0 {
            set("splittone", "shadow_sat", shadowSat, 0...100)
            set("splittone", "high_sat", highSat, 0...100)
            set("splittone", "shadow_hue", try number("SplitToningShadowHue", 0...360) ?? 0, 0...360)
            set("splittone", "high_hue", try number("SplitToningHighlightHue", 0...360) ?? 0, 0...360)
            set("splittone", "balance", try number("SplitToningBalance", -100...100) ?? 0, -100...100)
        } else {
            _ = try number("SplitToningShadowHue", 0...360)
            _ = try number("SplitToningHighlightHue", 0...360)
            _ = try number("SplitToningBalance", -100...100)
        }
        // The remaining mapped settings are checked even when they do not apply.
        _ = try number("SharpenRadius", 0.5...3)
        _ = try number("SharpenEdgeMasking", 0...100)
        for name in ["PostCropVignetteMidpoint", "PostCropVignetteFeather", "GrainSize"] { _ = try number(name, 0...100) }
        _ = try number("PostCropVignetteRoundness", -100...100)
        for name in ["CropLeft", "CropTop", "CropRight", "CropBottom"] { _ = try number(name, 0...1) }
        _ = try number("CropAngle", -45...45)
        _ = try flag("ConvertToGrayscale")

        unmapped += unmappedSettings()
        let json = JSONValue.object([
            "format": .string(Recipe.formatIdentifier), "formatVersion": .number(1),
            "filters": .array(Set(nodes.keys).union(texts.keys).sorted().map { id in
                var params = (nodes[id] ?? [:]).mapValues { JSONValue.number($0) }
                for (k, v) in texts[id] ?? [:] { params[k] = .string(v) }
                return .object(["id": .string(id), "version": .number(Double(Self.filterVersions[id] ?? 1)), "params": .object(params)])
            }),
        ])
        do {
            return LightroomTranslation(recipe: try Recipe(json: json, registry: registry), unmapped: unmapped)
        } catch {
            // Every value was checked and clamped above: a refusal here is a
            // translation bug, reported rather than guessed around.
            throw XMPProblem("the develop settings do not translate (\(error))")
        }
    }

    /// Every setting present, not at its default, that the translation does not read.
    func unmappedSettings() -> [String] {
        let mapped = Self.mapped
        var out: [String] = []
        for (name, text) in values.sorted(by: { $0.key < $1.key }) where !mapped.contains(name) && !Self.bookkeeping.contains(name) {
            if let v = Self.parseNumber(text) {
                // Zero is off (a JPEG's noise reduction), or the default.
                if v != 0 && v != Self.defaults[name] { out.append("\(name) \(Self.describe(v))") }
            } else if text.lowercased() == "true" {
                if !name.hasPrefix("Enable") { out.append(name) }
            } else if text.lowercased() != "false" && !text.isEmpty {
                // Text settings (a profile name, a preset's) describe; names only for the others.
                out.append(name)
            }
        }
        for (name, items) in arrays.sorted(by: { $0.key < $1.key }) where !mapped.contains(name) && !Self.bookkeeping.contains(name) {
            if name.hasPrefix("ToneCurvePV2012") { continue }  // read by the translation
            if name == "ToneCurve", let points = try? curve(name), Self.isIdentity(points) { continue }
            if !items.isEmpty { out.append(name) }
        }
        for name in structures.sorted() where !Self.bookkeeping.contains(name) { out.append(name) }
        // The camera profile is bookkeeping while it is Adobe's neutral one; another
        // (Camera Portrait, Adobe Monochrome…) changes the look, which photoedit does not apply.
        if let profile = values["CameraProfile"], !Self.neutralProfiles.contains(profile) {
            let printable = profile.count <= 64 && profile.unicodeScalars.allSatisfy { $0.value >= 0x20 && $0.value != 0x7F }
            out.append(printable ? "CameraProfile \(profile)" : "CameraProfile (not Adobe Standard)")
        }
        return out
    }

    /// Profiles that render as Lightroom's default look for the camera.
    static let neutralProfiles: Set<String> = ["", "Adobe Standard", "Adobe Color", "Embedded"]

    static func describe(_ v: Double) -> String { (v > 0 ? "+" : "") + JSONValue.format(v) }

    /// A crop rectangle of the stored frame as (x, y, w, h) of the upright
    /// frame after EXIF `orientation`.
    static func upright(left: Double, top: Double, right: Double, bottom: Double, orientation: Int) -> (Double, Double, Double, Double) {
        func map(_ x: Double, _ y: Double) -> (Double, Double) {
            switch orientation {
            case 2: return (1 - x, y)
            case 3: return (1 - x, 1 - y)
            case 4: return (x, 1 - y)
            case 5: return (y, x)
            case 6: return (1 - y, x)
            case 7: return (1 - y, 1 - x)
            case 8: return (y, 1 - x)
            default: return (x, y)
            }
        }
        let a = map(left, top), b = map(right, bottom)
        let x0 = min(a.0, b.0), x1 = max(a.0, b.0), y0 = min(a.1, b.1), y1 = max(a.1, b.1)
        return (x0, y0, x1 - x0, y1 - y0)
    }

    /// At most `count` points of a curve: the curve itself when it has no
    /// more, else `count` points evenly spaced in x on its polyline.
    static func resampled(_ points: [(x: Double, y: Double)], to count: Int) -> [(x: Double, y: Double)] {
        guard points.count > count else { return points }
        let (x0, x1) = (points.first!.x, points.last!.x)
        return (0..<count).map { i in
            let x = x0 + (x1 - x0) * Double(i) / Double(count - 1)
            guard let k = points.indices.dropFirst().first(where: { points[$0].x >= x }) else { return (x, points.last!.y) }
            let (a, b) = (points[k - 1], points[k])
            let t = b.x > a.x ? (x - a.x) / (b.x - a.x) : 1
            return (x, a.y + (b.y - a.y) * t)
        }
    }
}
