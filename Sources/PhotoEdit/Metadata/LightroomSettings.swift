import Foundation

/// Lightroom / Camera Raw develop settings: the `crs:` members of an XMP
/// packet (namespace `http://ns.adobe.com/camera-raw-settings/1.0/`), read
/// as adjustment data photoedit *can handle* (format identifier
/// `com.adobe.crs`). The packet is kept verbatim as the adjustment data's
/// `data`; `translation()` turns it into a photoedit recipe, and lists every
/// setting that is set, changes the picture and has no photoedit equivalent
/// (docs/xmp.md has the mapping table).
///
/// The translation is versioned by the adjustment data's `formatVersion`
/// (`translationVersion`): a revision made from a packet always renders the
/// way that version of the translation reads it, as filter versions do.
/// From version 2 the format version also says whether the settings develop
/// a RAW (`2`) or apply to a rendered file (`2-rendered`: a JPEG, TIFF…,
/// where Lightroom turns a kelvin white balance into its relative form).
public struct LightroomSettings: Sendable {
    /// The `formatIdentifier` of Lightroom develop settings kept as adjustment data.
    public static let formatIdentifier = "com.adobe.crs"
    /// The version of photoedit's translation, written as `formatVersion`.
    public static let translationVersion = 9
    /// The first translation version that maps noise reduction onto the
    /// profiled `denoise` filter (before: luminance onto `noise`, colour
    /// beyond Lightroom's default 25 onto `noise.chroma`).
    static let denoiseSince = 6
    /// The first translation version that maps Lightroom's remaining detail
    /// settings (issue 39): `SharpenDetail` onto sharpen version 2's `detail`.
    static let detailSince = 7
    /// The first translation version that applies a look table
    /// (`crs:RGBTable` and its `crs:Table_<MD5>`) onto `rgbtable`.
    static let lookTableSince = 8
    /// The first translation version that applies a look table in any of
    /// Adobe's spaces (ProPhoto, Adobe RGB, P3, Rec. 2020; linear and
    /// gamma-encoded; cubes and curves), reads a profile's look (`crs:Look`),
    /// and maps the corpus' remaining settings (issue 39).
    static let lookSpacesSince = 9
    /// The suffix of `formatVersion` for settings applied to a rendered file (not a RAW).
    public static let renderedSuffix = "-rendered"
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
    /// `tiff:Orientation` of the packet: the frame Lightroom's crop is in
    /// (nil when it is not an orientation from 1 to 8).
    let orientation: Int?
    /// The text of `photoedit:recipe` (a sidecar photoedit wrote), if any.
    let photoeditRecipe: String?
    /// Masks and spots (`LightroomLocalCorrections`), read from version 2 on
    /// (version 1 listed them as not mapped); a problem with them leaves
    /// them out, listed, never the packet.
    let local: Result<LightroomLocalCorrections.Reading, XMPProblem>?
    /// The camera and lens the packet's `tiff:`/`exif:`/`aux:` members name
    /// (Lightroom writes them into sidecars), for the lens profile.
    let lensEXIF: [String: String]
    /// The profile's look (`crs:Look`) when it is not Lightroom's default
    /// rendering (translation 9 on): its look table is applied, its other
    /// settings are merged into `values`/`arrays` beneath the packet's own.
    let look: LightroomLook?
    /// The look's settings the packet sets too (the packet's are applied).
    let lookConflicts: [String]
    /// The noise profile recorded with the packet at import
    /// (`photoedit:denoise`, translation 9 on; LightroomDenoise.swift).
    let recordedDenoise: Result<[String: ParameterValue], XMPProblem>?
    /// The translation version read with.
    public let version: Int
    /// The settings apply to a rendered file (JPEG, TIFF…), not a RAW's development.
    public internal(set) var rendered: Bool

    /// Reads the `crs:` members of a parsed packet, for the translation
    /// `version`, to develop a RAW or (`rendered`) to apply to a rendered file.
    init(packet: XMPPacket, version: Int = translationVersion, rendered: Bool = false) throws(XMPProblem) {
        var values: [String: String] = [:], arrays: [String: [String]] = [:]
        for (name, value) in packet.properties where name.namespace == Self.namespace {
            switch value {
            case .text(let t): values[name.local] = t.trimmingCharacters(in: .whitespacesAndNewlines)
            case .array(let items): arrays[name.local] = items.map { $0.text.trimmingCharacters(in: .whitespacesAndNewlines) }
            }
        }
        structures = Set(packet.structures.filter { $0.namespace == Self.namespace }.map(\.local))
        if version >= Self.lookSpacesSince, let look = LightroomLook(packet), !look.isNeutral {
            let merged = look.merged(into: values, arrays: arrays)
            (values, arrays, lookConflicts) = (merged.values, merged.arrays, merged.conflicts)
            self.look = look
        } else {
            (look, lookConflicts) = (nil, [])
        }
        self.values = values
        self.arrays = arrays
        recordedDenoise = version >= Self.lookSpacesSince ? Self.recordedDenoise(packet) : nil
        guard values.count + arrays.count + structures.count <= Self.maxSettings else {
            throw XMPProblem("more than \(Self.maxSettings) crs: settings")
        }
        var orientation: Int? = 1
        if let text = packet.value(Self.tiff, "Orientation")?.defaultText {
            orientation = Int(text.trimmingCharacters(in: .whitespaces)).flatMap { (1...8).contains($0) ? $0 : nil }
            // Version 1 refused the packet; it never made a revision of one.
            if orientation == nil && version == 1 { throw XMPProblem("tiff:Orientation is not an orientation from 1 to 8") }
        }
        self.orientation = orientation
        photoeditRecipe = packet.value(XMPSidecar.namespace, "recipe")?.defaultText
        lensEXIF = Self.lensEXIF(packet)
        local = version >= 2 ? Result { () throws(XMPProblem) in try LightroomLocalCorrections.read(packet, orientation: orientation ?? 1, translation: version) } : nil
        self.version = version
        self.rendered = rendered
    }

    /// Reads the develop settings of a packet's bytes (a sidecar's whole
    /// file, or an embedded packet), to develop a RAW or (`rendered`) to
    /// apply to a rendered file, with the current translation.
    public init(packet data: Data, rendered: Bool = false) throws(XMPProblem) {
        guard data.count <= Self.maxPacketBytes else {
            throw XMPProblem("larger than \(Self.maxPacketBytes >> 20) MiB, the most kept as develop settings")
        }
        try self.init(packet: XMPPacket(data: data), rendered: rendered)
    }

    /// Reads `com.adobe.crs` adjustment data of a translation version this build knows.
    public init(adjustmentData: AdjustmentData) throws {
        guard let (version, rendered) = Self.formatVersion(adjustmentData) else {
            throw PhotoEditError.invalidAdjustmentData("format '\(adjustmentData.formatIdentifier)' version '\(adjustmentData.formatVersion)' is not Lightroom develop settings this engine reads (\(Self.formatIdentifier) up to \(Self.translationVersion))")
        }
        do {
            guard adjustmentData.data.count <= Self.maxPacketBytes else {
                throw XMPProblem("larger than \(Self.maxPacketBytes >> 20) MiB, the most kept as develop settings")
            }
            try self.init(packet: XMPPacket(data: adjustmentData.data), version: version, rendered: rendered)
        } catch {
            throw PhotoEditError.invalidAdjustmentData("Lightroom develop settings: \(error)")
        }
    }

    /// The translation version and target of `com.adobe.crs` adjustment
    /// data this build reads: `1`, `2` (a RAW's development), `2-rendered`.
    static func formatVersion(_ data: AdjustmentData) -> (version: Int, rendered: Bool)? {
        guard data.formatIdentifier == formatIdentifier else { return nil }
        var text = Substring(data.formatVersion)
        let rendered = text.hasSuffix(renderedSuffix)
        if rendered { text = text.dropLast(renderedSuffix.count) }
        guard let version = Int(text), version >= 1, version <= translationVersion, !(rendered && version < 2) else { return nil }
        return (version, rendered)
    }

    /// Whether this build translates the adjustment data: `com.adobe.crs`
    /// of a translation version it knows.
    public static func canHandle(_ data: AdjustmentData) -> Bool { formatVersion(data) != nil }

    /// The packet as adjustment data (the bytes as they are), translated by
    /// the current version for a RAW's development or (`rendered`) a rendered file.
    public static func adjustmentData(packet: Data, rendered: Bool = false) -> AdjustmentData {
        AdjustmentData(formatIdentifier: formatIdentifier, formatVersion: String(translationVersion) + (rendered ? renderedSuffix : ""), data: packet)
    }

    /// Whether the packet has no `crs:` member at all (nor a `photoedit:recipe`).
    public var isEmpty: Bool { values.isEmpty && arrays.isEmpty && structures.isEmpty && photoeditRecipe == nil }

    /// `crs:AlreadyApplied="True"`: Lightroom and Camera Raw write it into the
    /// files they export, whose pixels already have the settings. Such a
    /// packet describes how the file was made and is never applied again.
    public var isAlreadyApplied: Bool { values["AlreadyApplied"]?.lowercased() == "true" }

    /// Settings to apply: not empty and not already applied.
    var isToApply: Bool { !isEmpty && !isAlreadyApplied }

    /// A develop preset (`crs:PresetType`, Lightroom 7.3+ / Camera Raw 10.3+
    /// `.xmp` presets), rather than a photo's settings.
    public var isPreset: Bool { values["PresetType"] != nil }

    /// The preset's name (`crs:Name`, its default language), when it has one.
    public var presetName: String? { values["Name"] ?? arrays["Name"]?.first }

    /// A preset's amount, 0…2 (0 to 200 %): `crs:Amount` when the preset
    /// supports one (`crs:SupportsAmount` True), else 1. Version 1 read none.
    var amount: Double {
        guard version >= 2, values["SupportsAmount"]?.lowercased() == "true",
              let a = values["Amount"].flatMap(Self.parseNumber) else { return 1 }
        return min(max(a, 0), 2)
    }

    /// The same settings, translated for a rendered file or a RAW's development.
    public func targeting(rendered: Bool) -> LightroomSettings {
        var copy = self
        copy.rendered = rendered
        return copy
    }

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
    /// Settings that are set (not at their default), change the picture and
    /// have no photoedit equivalent — or a value that cannot be used —, one
    /// text each: the `crs:` name, and its value when simple (`Clarity2012
    /// +20`, `MaskGroupBasedCorrections`, `Exposure2012 (not a number)`).
    public let unmapped: [String]
    /// The settings that are set (not at their default) and applied, by
    /// `crs:` name: with `unmapped`, every setting that changes the picture.
    public let applied: [String]
    /// The recipe develops a camera RAW (it has a `raw` node: Lightroom's
    /// kelvin white balance), so it applies to a RAW base only.
    public var needsRaw: Bool { recipe.node(Filters.raw.id) != nil }
    /// Nothing to apply and nothing unmapped: Lightroom's defaults.
    public var isDefault: Bool { recipe.isEmpty && unmapped.isEmpty }
    /// The share of the settings that change the picture that are applied (1 when there are none).
    public var appliedShare: Double {
        applied.isEmpty && unmapped.isEmpty ? 1 : Double(applied.count) / Double(applied.count + unmapped.count)
    }
}

/// One `crs:` slider read as one filter parameter (`value × scale`): the
/// mapping table. A slider that needs a filter still to come is one more
/// line here, with the translation version it arrives in.
struct LightroomSlider: Sendable {
    /// The `crs:` name.
    let setting: String
    /// Lightroom's range (values beyond it are clamped, and said).
    let range: ClosedRange<Double>
    let filter: String
    let parameter: String
    /// The filter parameter's range (the value is clamped to it).
    let filterRange: ClosedRange<Double>
    /// The filter's value per unit of the slider.
    var scale: Double = 1
    /// Lightroom's default, which adds nothing.
    var neutral: Double = 0
    /// The filter parameter's value at Lightroom's default (`perspective.scale`: 100).
    var filterNeutral: Double = 0
    /// The first translation version that reads it.
    var since = 1
    /// The last translation version that reads it this way.
    var until = Int.max
    /// The process versions it belongs to (Lightroom reads only its own process's sliders).
    var process: LightroomSettings.Process? = .pv2012
}

extension LightroomSettings {
    /// Lightroom's process versions: which sliders a packet's settings mean.
    enum Process: Sendable {
        /// Process 2010 and older (`crs:ProcessVersion` 5.7 and below): `Exposure`, `Brightness`, `FillLight`…
        case pv2010
        /// Process 2012 and later (6.7, 10, 11, 15…): `Exposure2012`…
        case pv2012
    }

    /// The process the settings are in: `crs:ProcessVersion`, else the
    /// sliders present (a packet with `…2012` sliders is 2012's).
    var process: Process {
        if let pv = values["ProcessVersion"].flatMap({ Double($0) }), pv.isFinite { return pv < 6 ? .pv2010 : .pv2012 }
        if values.keys.contains(where: { $0.hasSuffix("2012") }) || arrays["ToneCurvePV2012"] != nil { return .pv2012 }
        return values.keys.contains { ["Exposure", "Brightness", "FillLight", "HighlightRecovery"].contains($0) } ? .pv2010 : .pv2012
    }

    /// The filter versions each translation version writes (pinned, so a
    /// later filter version never changes how an imported edit renders).
    static func filterVersions(_ version: Int) -> [String: Int] {
        var versions: [String: Int] = [
            "raw": 1, "temperature": 1, "tint": 1, "exposure": 1, "contrast": 2, "highlights": 1, "shadows": 1, "whites": 1,
            "blacks": 1, "curve": 1, "saturation": 1, "vibrance": 1, "hsl": 1, "mono": 1, "splittone": 1, "straighten": 1,
            "crop": 1, "sharpen": 1, "vignette": 1, "grain": 1, "noise": 1,
        ]
        if version >= LightroomSettings.lensSince { versions["lens"] = 1 }
        if version >= 2 {
            versions["curve"] = 2
            versions["clarity"] = 1
            versions["texture"] = 1
            versions["dehaze"] = 1
        }
        if version >= 3 {
            versions["calibration"] = 1
            versions["grain"] = 2
            versions["noise"] = 2
            versions["perspective"] = 1
            // The presence filters' fused version 2 (the same filter, faster).
            versions["clarity"] = 2
            versions["texture"] = 2
            versions["dehaze"] = 2
        }
        if version >= 4 {
            // Lens version 2: the profile correction scaled to fill the frame, as Lightroom's.
            versions["lens"] = 2
            // Texture version 3 (the same filter, faster).
            versions["texture"] = 3
        }
        if version >= LightroomSettings.denoiseSince {
            // Noise reduction on the profiled `denoise` (issue 39).
            versions["denoise"] = 1
        }
        if version >= detailSince {
            // Sharpen version 2: Lightroom's Detail slider (halo suppression); Defringe.
            versions["sharpen"] = 2
            versions["defringe"] = 1
            versions["ca"] = 1
            // Denoise version 2: on a RAW, in camera RGB before the colour matrix.
            versions["denoise"] = 2
        }
        if version >= 5 {
            // Clarity and dehaze version 3 (the same filters, faster: their
            // estimates on a reduced decode in full-size renders of JPEGs).
            versions["clarity"] = 3
            versions["dehaze"] = 3
        }
        return versions
    }

    /// Lightroom's eight HSL bands and photoedit's `hsl` range names.
    static let bands = ["Red": "red", "Orange": "orange", "Yellow": "yellow", "Green": "green", "Aqua": "aqua",
                        "Blue": "blue", "Purple": "purple", "Magenta": "magenta"]

    /// The sliders that are one filter parameter each.
    static let sliders: [LightroomSlider] = {
        var table: [LightroomSlider] = [
            LightroomSlider(setting: "Exposure2012", range: -5...5, filter: "exposure", parameter: "ev", filterRange: -5...5),
            LightroomSlider(setting: "Contrast2012", range: -100...100, filter: "contrast", parameter: "amount", filterRange: -100...100),
            LightroomSlider(setting: "Highlights2012", range: -100...100, filter: "highlights", parameter: "amount", filterRange: -100...100),
            LightroomSlider(setting: "Shadows2012", range: -100...100, filter: "shadows", parameter: "amount", filterRange: -100...100),
            LightroomSlider(setting: "Whites2012", range: -100...100, filter: "whites", parameter: "amount", filterRange: -100...100),
            LightroomSlider(setting: "Blacks2012", range: -100...100, filter: "blacks", parameter: "amount", filterRange: -100...100),
            LightroomSlider(setting: "Vibrance", range: -100...100, filter: "vibrance", parameter: "amount", filterRange: -100...100, process: nil),
            LightroomSlider(setting: "Saturation", range: -100...100, filter: "saturation", parameter: "amount", filterRange: -100...100, process: nil),
            // Process 2010 (version 2): the older Basic panel, translated (docs/xmp.md says how).
            LightroomSlider(setting: "Exposure", range: -4...4, filter: "exposure", parameter: "ev", filterRange: -5...5, since: 2, process: .pv2010),
            LightroomSlider(setting: "Contrast", range: -50...100, filter: "contrast", parameter: "amount", filterRange: -100...100,
                            neutral: 25, since: 2, process: .pv2010),
            LightroomSlider(setting: "FillLight", range: 0...100, filter: "shadows", parameter: "amount", filterRange: -100...100,
                            since: 2, process: .pv2010),
            LightroomSlider(setting: "HighlightRecovery", range: 0...100, filter: "highlights", parameter: "amount", filterRange: -100...100,
                            scale: -1, since: 2, process: .pv2010),
            LightroomSlider(setting: "Shadows", range: 0...100, filter: "blacks", parameter: "amount", filterRange: -100...100,
                            scale: -2, neutral: 5, since: 2, process: .pv2010),
            // Noise reduction's luminance slider: photoedit's edge-preserving smoothing (rough);
            // from version 6 the profiled `denoise` (its detail and contrast in `detailAndEffects`).
            LightroomSlider(setting: "LuminanceSmoothing", range: 0...100, filter: "noise", parameter: "strength", filterRange: 0...100,
                            since: 2, until: 5, process: nil),
            LightroomSlider(setting: "LuminanceSmoothing", range: 0...100, filter: "denoise", parameter: "luma", filterRange: 0...100,
                            since: LightroomSettings.denoiseSince, process: nil),
            // Presence (issue 26): one filter each, the same scale (docs/xmp.md).
            LightroomSlider(setting: "Clarity2012", range: -100...100, filter: "clarity", parameter: "amount", filterRange: -100...100, since: 2),
            LightroomSlider(setting: "Clarity", range: -100...100, filter: "clarity", parameter: "amount", filterRange: -100...100,
                            since: 2, process: .pv2010),
            LightroomSlider(setting: "Texture", range: -100...100, filter: "texture", parameter: "amount", filterRange: -100...100,
                            since: 2, process: nil),
            LightroomSlider(setting: "Dehaze", range: -100...100, filter: "dehaze", parameter: "strength", filterRange: -100...100,
                            since: 2, process: nil),
            // Transform (version 3): the `perspective` filter; Vertical's sign is Lightroom's opposite (docs/xmp.md).
            LightroomSlider(setting: "PerspectiveVertical", range: -100...100, filter: "perspective", parameter: "vertical",
                            filterRange: -100...100, scale: -1, since: 3, process: nil),
            LightroomSlider(setting: "PerspectiveHorizontal", range: -100...100, filter: "perspective", parameter: "horizontal",
                            filterRange: -100...100, since: 3, process: nil),
            LightroomSlider(setting: "PerspectiveRotate", range: -10...10, filter: "perspective", parameter: "rotate",
                            filterRange: -10...10, since: 3, process: nil),
            LightroomSlider(setting: "PerspectiveScale", range: 50...150, filter: "perspective", parameter: "scale",
                            filterRange: 50...150, neutral: 100, filterNeutral: 100, since: 3, process: nil),
            LightroomSlider(setting: "PerspectiveAspect", range: -100...100, filter: "perspective", parameter: "aspect",
                            filterRange: -100...100, since: 3, process: nil),
            LightroomSlider(setting: "PerspectiveX", range: -100...100, filter: "perspective", parameter: "x",
                            filterRange: -100...100, since: 3, process: nil),
            LightroomSlider(setting: "PerspectiveY", range: -100...100, filter: "perspective", parameter: "y",
                            filterRange: -100...100, since: 3, process: nil),
            // Calibration (version 3): the primaries and the shadow tint, the same scale (docs/xmp.md: inferred).
            LightroomSlider(setting: "ShadowTint", range: -100...100, filter: "calibration", parameter: "shadow_tint", filterRange: -100...100,
                            since: 3, process: nil),
        ]
        for (primary, name) in [("Red", "red"), ("Green", "green"), ("Blue", "blue")] {
            for (suffix, parameter) in [("Hue", "hue"), ("Saturation", "sat")] {
                table.append(LightroomSlider(setting: primary + suffix, range: -100...100, filter: "calibration", parameter: "\(name)_\(parameter)",
                                             filterRange: -100...100, since: 3, process: nil))
            }
        }
        for (band, range) in bands {
            for (prefix, suffix) in [("HueAdjustment", "h"), ("SaturationAdjustment", "s"), ("LuminanceAdjustment", "l")] {
                table.append(LightroomSlider(setting: prefix + band, range: -100...100, filter: "hsl", parameter: "\(range)_\(suffix)",
                                             filterRange: -100...100, process: nil))
            }
        }
        return table
    }()

    /// Settings read by the translation of `version` besides the sliders
    /// (a setting it reads is never listed as not mapped just for being set).
    static func read(_ version: Int) -> Set<String> {
        var names: Set<String> = [
            "WhiteBalance", "Temperature", "Tint", "IncrementalTemperature", "IncrementalTint", "HasCrop",
            "CropLeft", "CropTop", "CropRight", "CropBottom", "CropAngle", "ToneCurvePV2012", "Sharpness", "SharpenRadius",
            "SharpenEdgeMasking", "PostCropVignetteAmount", "PostCropVignetteMidpoint", "PostCropVignetteRoundness",
            "PostCropVignetteFeather", "GrainAmount", "GrainSize", "ConvertToGrayscale", "GrayMixerRed", "GrayMixerGreen",
            "GrayMixerBlue", "SplitToningShadowHue", "SplitToningShadowSaturation", "SplitToningHighlightHue",
            "SplitToningHighlightSaturation", "SplitToningBalance",
        ]
        names.formUnion(sliders.filter { $0.since <= version && version <= $0.until }.map(\.setting))
        if version >= 2 {
            names.formUnion(["ToneCurvePV2012Red", "ToneCurvePV2012Green", "ToneCurvePV2012Blue", "ToneCurve", "ParametricShadows",
                             "ParametricDarks", "ParametricLights", "ParametricHighlights", "ParametricShadowSplit",
                             "ParametricMidtoneSplit", "ParametricHighlightSplit", "Brightness", "ColorGradeShadowHue",
                             "ColorGradeShadowSat", "ColorGradeHighlightHue", "ColorGradeHighlightSat", "ColorGradeBalance"])
            if version >= 3 { names.formUnion(["GrainFrequency", "ColorNoiseReduction"]) }
            if version >= detailSince { names.formUnion(["SharpenDetail", "DefringePurpleAmount", "DefringeGreenAmount"]) }
            if version >= denoiseSince {
                names.formUnion(["LuminanceNoiseReductionDetail", "LuminanceNoiseReductionContrast", "ColorNoiseReductionDetail",
                                 "ColorNoiseReductionSmoothness"])
            }
            // Masks and spots: what of them cannot be rebuilt is listed by their reader.
            names.formUnion(LightroomLocalCorrections.properties)
        }
        return names
    }

    /// Bookkeeping that describes, not adjusts: never listed as unmapped.
    static let bookkeeping: Set<String> = [
        "Version", "ProcessVersion", "CompatibleVersion", "RawFileName", "HasSettings", "AlreadyApplied", "CameraProfile",
        "Look", "ToneCurveName", "ToneCurveName2012", "CropConstrainToWarp", "CropConstrainAspectRatio",
        "CropUnit", "CropWidth", "CropHeight", "PostCropVignetteStyle", "LensProfileSetup", "LensProfileName", "LensProfileFilename",
        "LensProfileIsEmbedded", "LensProfileDistortionScale", "LensProfileVignettingScale",
        "LensProfileChromaticAberrationScale", "UprightVersion", "UprightCenterMode", "UprightCenterNormX", "UprightCenterNormY",
        "UprightFocalMode", "UprightFocalLength35mm", "UprightPreview", "UprightTransformCount", "UprightFourSegmentsCount",
        "AutoWhiteVersion", "CameraModelRestriction", "Copyright", "ContactInfo", "Cluster", "ClusterGroup",
        "UUID", "Group", "Name", "SortName", "ShortName", "Type", "PresetType", "PresetSubtype", "SupportsAmount", "SupportsAmount2",
        "SupportsColor", "SupportsMonochrome", "SupportsHighDynamicRange", "SupportsNormalDynamicRange", "SupportsSceneReferred",
        "SupportsOutputReferred", "RequiresRenditionBehavior", "ShowInPresets", "ShowInQuickActions", "Description", "Treatment",
        "ProfileName", "OverrideLookVignette", "GrayMixerOrange", "GrayMixerYellow", "GrayMixerAqua", "GrayMixerPurple",
        "GrayMixerMagenta", "GrainSeed", "ColorVariance", "LookTable", "RGBTableName", "Amount", "HDREditMode", "SDRBrightness",
        "SDRContrast", "SDRClarity", "SDRHighlights", "SDRShadows", "SDRWhites", "SDRBlend", "LensProfileMatchKeyExifMake",
        "LensProfileMatchKeyExifModel", "LensProfileMatchKeyCameraModelName", "LensProfileMatchKeyLensInfo",
        "LensProfileMatchKeyLensID", "LensProfileMatchKeyLensName", "LensProfileMatchKeyIsRaw", "LensProfileMatchKeySensorFormatFactor",
        "DefringePurpleHueLo", "DefringePurpleHueHi", "DefringeGreenHueLo", "DefringeGreenHueHi", "ToneMapStrength",
        "EnableCalibration", "EnableColorAdjustments", "EnableDetail", "EnableEffects", "EnableGrayscaleMix", "EnableLensCorrections",
        "EnableRedEye", "EnableRetouch", "EnableSplitToning", "EnableToneCurve", "EnableTransform", "EnableCircularGradientBasedCorrections",
        "EnableGradientBasedCorrections", "EnablePaintBasedCorrections", "EnableMaskGroupBasedCorrections",
    ]

    /// Whether a setting's name alone says it is bookkeeping: digests
    /// (`CameraProfileDigest`, `Table_<digest>`), Upright's recorded transforms.
    static func isBookkeeping(_ name: String) -> Bool {
        bookkeeping.contains(name) || name.hasSuffix("Digest") || name.hasPrefix("Table_") || name.hasPrefix("UprightTransform_")
            || name.hasPrefix("UprightGuided") || name.hasPrefix("LensProfileMatchKey")
    }

    /// The sliders a preset's amount scales, with their neutral value.
    static let scalable: [String: Double] = {
        var table = Dictionary(sliders.map { ($0.setting, $0.neutral) }) { a, _ in a }
        for name in ["ParametricShadows", "ParametricDarks", "ParametricLights", "ParametricHighlights", "IncrementalTemperature",
                     "IncrementalTint", "Sharpness", "PostCropVignetteAmount", "GrainAmount", "SplitToningShadowSaturation",
                     "SplitToningHighlightSaturation", "ColorGradeShadowSat", "ColorGradeHighlightSat"] {
            table[name] = 0
        }
        table["Brightness"] = 50
        return table
    }()

    /// Settings whose default is not zero or False, with that default.
    static let defaults: [String: Double] = [
        "Brightness": 50, "Contrast": 25, "Shadows": 5, "ColorNoiseReduction": 25, "ColorNoiseReductionDetail": 50,
        "ColorNoiseReductionSmoothness": 50, "LuminanceNoiseReductionDetail": 50, "SharpenDetail": 25, "GrainFrequency": 50,
        "ParametricShadowSplit": 25, "ParametricMidtoneSplit": 50, "ParametricHighlightSplit": 75, "PerspectiveScale": 100,
        "ColorGradeBlending": 50, "CurveRefineSaturation": 100, "VignetteMidpoint": 50,
    ]

    /// Settings that refine another and change nothing while it is off
    /// (at zero): never listed then (version 2).
    static let dependents: [String: String] = [
        "SharpenDetail": "Sharpness", "GrainFrequency": "GrainAmount", "PostCropVignetteHighlightContrast": "PostCropVignetteAmount",
        "ColorNoiseReductionDetail": "ColorNoiseReduction", "ColorNoiseReductionSmoothness": "ColorNoiseReduction",
        "LuminanceNoiseReductionDetail": "LuminanceSmoothing", "LuminanceNoiseReductionContrast": "LuminanceSmoothing",
        "DefringePurpleHueLo": "DefringePurpleAmount", "DefringePurpleHueHi": "DefringePurpleAmount",
        "DefringeGreenHueLo": "DefringeGreenAmount", "DefringeGreenHueHi": "DefringeGreenAmount",
    ]

    /// The PV2010 settings Lightroom does not read in process 2012 (and back).
    static let process2010Only: Set<String> = ["Exposure", "Brightness", "Contrast", "FillLight", "HighlightRecovery", "Shadows",
                                               "Clarity", "ToneCurve", "ToneCurveRed", "ToneCurveGreen", "ToneCurveBlue"]

    /// `+1.00`, `-15`, `0.5`: a finite number, or nil.
    static func parseNumber(_ text: String) -> Double? {
        guard text.count <= 40, let value = Double(text), value.isFinite else { return nil }
        return value
    }

    static func isIdentity(_ points: [(x: Double, y: Double)]) -> Bool {
        points.first?.x == 0 && points.last?.x == 255 && points.allSatisfy { $0.x == $0.y }
    }

    /// The translation into a photoedit recipe (filters in `registry`), the
    /// settings it applies and those it cannot. A value that cannot be used
    /// (not a number, a curve that is not one) leaves that setting out, listed;
    /// a value beyond Lightroom's range is clamped to it, as Lightroom does.
    /// Version 1 (revisions imported before) refuses such packets, as it did.
    public func translation(registry: FilterRegistry = .standard) throws(XMPProblem) -> LightroomTranslation {
        var t = Translator(settings: self)
        try t.translate()
        let versions = Self.filterVersions(version)
        let json = JSONValue.object([
            "format": .string(Recipe.formatIdentifier), "formatVersion": .number(1),
            "filters": .array(Set(t.nodes.keys).union(t.texts.keys).sorted().map { id in
                var params = (t.nodes[id] ?? [:]).mapValues { JSONValue.number($0) }
                for (k, v) in t.texts[id] ?? [:] { params[k] = .string(v) }
                return .object(["id": .string(id), "version": .number(Double(versions[id] ?? 1)), "params": .object(params)])
            }),
        ])
        do {
            var recipe = try Recipe(json: json, registry: registry)
            var recordedProblem: [String] = []
            if let node = recipe.node(Filters.denoise.id), let recorded = recordedDenoise {
                switch recorded {
                case .success(let values):
                    // The profile recorded at import: the node renders with it, whatever the profile file says now.
                    let merged = node.parameters.values.merging(values) { _, recorded in recorded }
                    recipe.set(RecipeNode(filter: node.filter, version: node.version, parameters: try Filters.denoise.validated(merged)), registry: registry)
                case .failure(let problem):
                    recordedProblem.append("photoedit:denoise (\(problem.description))")
                }
            }
            var unmapped = t.unmapped + unmappedSettings(read: version >= Self.lookTableSince ? t.read.union(["RGBTable"]) : t.read) + recordedProblem
            var applied = t.applied
            var corrections: [LocalCorrection] = []
            switch local {
            case .success(let reading)?:
                corrections = reading.corrections
                try recipe.setRetouchSpots(reading.spots, registry: registry)
                unmapped += reading.unmapped
                // A list counts as applied when nothing of it was left out.
                applied += LightroomLocalCorrections.properties.filter { name in
                    (structures.contains(name) || arrays[name] != nil) && !reading.unmapped.contains { $0.hasPrefix(name + " ") }
                }
            case .failure(let problem)?:
                unmapped += LightroomLocalCorrections.properties.filter { structures.contains($0) || arrays[$0] != nil }.sorted()
                    .map { "\($0) (\(problem.description))" }
            case nil:
                break
            }
            // The global settings that became local corrections come after the packet's own (within the limit).
            let room = max(0, MaskLimits.corrections - corrections.count)
            corrections += t.corrections.prefix(room)
            if t.corrections.count > room { unmapped.append("VignetteAmount (more than \(MaskLimits.corrections) local corrections)") }
            if !corrections.isEmpty || local != nil { try recipe.setLocalCorrections(corrections, registry: registry) }
            if version >= Self.lookTableSince, let name = values["RGBTable"] {
                switch lookTable(name, amount: amount) {
                case .success(let look):
                    try recipe.setLookTable(look, registry: registry)
                    applied.append("RGBTable")
                case .failure(let problem):
                    unmapped.append("RGBTable (\(problem.description))")
                }
            }
            // A profile's look (translation 9): its table at the profile's amount.
            if let look {
                let title = "Look " + look.title
                if let name = look.values["RGBTable"] {
                    if values["RGBTable"] != nil {
                        unmapped.append("\(title) RGBTable (the packet has its own RGBTable: one look table is applied)")
                    } else {
                        switch lookTable(name, amount: look.amount, in: look.values) {
                        case .success(let table):
                            try recipe.setLookTable(table, registry: registry)
                            applied.append("Look")
                        case .failure(let problem):
                            unmapped.append("\(title) (\(problem.description))")
                        }
                    }
                }
                unmapped += lookConflicts.map { "\(title) \($0) (the packet sets its own)" }
            }
            return LightroomTranslation(recipe: recipe, unmapped: unmapped, applied: Array(Set(applied)).sorted())
        } catch {
            // Every value was checked and clamped: a refusal here is a
            // translation bug, reported rather than guessed around.
            throw XMPProblem("the develop settings do not translate (\(error))")
        }
    }

    /// A vignette as a local correction (translation 9): `ev` at the corners
    /// of `frame` (x, y, w, h, fractions of the upright photo), none inside
    /// the ellipse through the frame's shape at `midpoint − feather/2` of the
    /// centre-to-corner distance, fading in to `midpoint + feather/2` — the
    /// `vignette` filter's law with its roundness 0 (the frame's shape).
    static func vignetteCorrection(ev: Double, midpoint: Double, feather: Double, frame: (Double, Double, Double, Double)) -> LocalCorrection {
        let width = max(0.02, feather)
        let inner = max(0, midpoint - width / 2), outer = min(1.4, max(0.02, midpoint + width / 2))
        // The vignette's distance is 1 at the corners: the ellipse of distance d has half-axes d·√2 of the half-frame.
        let (x, y, w, h) = frame
        let radial = RadialGradient(centre: MaskPoint(x: x + w / 2, y: y + h / 2), radiusX: w * outer / 2.squareRoot(),
                                    radiusY: h * outer / 2.squareRoot(), feather: min(1, max(0.001, 1 - inner / outer)), inside: false)
        return LocalCorrection(mask: Mask(.radial(radial)), amounts: [.exposure: JSONValue.canonicalNumber(min(max(ev, -5), 5))])
    }

    /// The look table `crs:RGBTable` names (`crs:Table_<name>`, in `tables`
    /// — a look's parameters — or the packet), at `amount` (within the
    /// table's own range).
    func lookTable(_ name: String, amount: Double, in tables: [String: String] = [:]) -> Result<LookTableContent, PhotoEditError> {
        guard name.count == 32, name.allSatisfy(\.isHexDigit) else {
            return .failure(LightroomRGBTable.fail("its name is not an MD5 fingerprint"))
        }
        let keys = ["Table_" + name, "Table_" + name.uppercased()]
        guard let text = keys.lazy.compactMap({ tables[$0] ?? self.values[$0] }).first else {
            return .failure(LightroomRGBTable.fail("the packet has no crs:Table_\(name)"))
        }
        do {
            let binary = try LightroomRGBTable.base85(text)
            let table = try LightroomRGBTable.decode(bytes: binary)
            // Translation 8 rendered cubes in sRGB only; the rest stays listed there.
            if version < Self.lookSpacesSince && !(table.dimensions == 3 && table.primaries == .sRGB && table.gamma == .sRGB) {
                throw LightroomRGBTable.fail("a \(table.dimensions == 3 ? "cube" : "curve table") in \(table.primaries) primaries, \(table.gamma) gamma: only cubes in sRGB are rendered yet")
            }
            return .success(try LookTableContent(binary: binary, amount: min(amount, table.maxAmount)))
        } catch let error as PhotoEditError {
            return .failure(error)
        } catch {
            return .failure(LightroomRGBTable.fail("\(error)"))
        }
    }

    /// Every setting present, changing the picture (not at its default, not
    /// bookkeeping, not one Lightroom ignores in the packet's process) that
    /// the translation does not read.
    func unmappedSettings(read: Set<String>) -> [String] {
        let process = self.process
        func ignored(_ name: String) -> Bool {
            if read.contains(name) || Self.isBookkeeping(name) { return true }
            guard version >= 2 else { return false }
            // Lightroom reads only its process's sliders: the other's are left over.
            if process == .pv2012 && Self.process2010Only.contains(name) { return true }
            if process == .pv2010 && name.hasSuffix("2012") && name != "Clarity2012" { return true }
            if let master = Self.dependents[name], (values[master].flatMap(Self.parseNumber) ?? 0) == 0 { return true }
            return false
        }
        var out: [String] = []
        for (name, text) in values.sorted(by: { $0.key < $1.key }) where !ignored(name) {
            if let v = Self.parseNumber(text) {
                // Zero is off (a JPEG's noise reduction), or the default.
                if v != 0 && v != Self.defaults[name] { out.append("\(name) \(Self.describe(v))") }
            } else if text.lowercased() == "true" {
                if !name.hasPrefix("Enable") && !name.hasPrefix("Supports") && !name.hasPrefix("Auto") { out.append(name) }
            } else if text.lowercased() != "false" && !text.isEmpty {
                // Text settings (a profile name, a preset's) describe; names only for the others.
                out.append(name)
            }
        }
        for (name, items) in arrays.sorted(by: { $0.key < $1.key }) where !ignored(name) && !items.isEmpty {
            if name.hasPrefix("ToneCurve"), let points = try? curve(name), Self.isIdentity(points) { continue }
            if name.hasPrefix("ToneCurvePV2012") && version < 2 { continue }  // read by version 1's translation
            // Point colours with every entry unset (Lightroom writes -1 for "none").
            if name == "PointColors" && items.allSatisfy({ $0.split(separator: ",").allSatisfy { Double($0.trimmingCharacters(in: .whitespaces)) == -1 } }) { continue }
            if version >= 2 && ["Name", "Group", "ShortName", "SortName", "Description"].contains(name) { continue }
            out.append(name)
        }
        for name in structures.sorted() where !ignored(name) { out.append(name) }
        // The camera profile is bookkeeping while it is Adobe's neutral one; another
        // (Camera Portrait, Adobe Monochrome…) changes the look, which photoedit does not apply.
        // A rendered file has no camera profile (Lightroom offers it none): nothing to list (version 2).
        if let profile = values["CameraProfile"], !Self.neutralProfiles.contains(profile), version < 2 || !rendered {
            let printable = profile.count <= 64 && profile.unicodeScalars.allSatisfy { $0.value >= 0x20 && $0.value != 0x7F }
            out.append(printable ? "CameraProfile \(profile)" : "CameraProfile (not Adobe Standard)")
        }
        return out
    }

    /// Profiles that render as Lightroom's default look for the camera.
    /// `Default Profile` is what Lightroom 7.3 wrote converting older presets
    /// (the camera's default); `Matrix`, Camera Raw's built-in profile before Adobe Standard.
    static let neutralProfiles: Set<String> = ["", "Adobe Standard", "Adobe Color", "Embedded", "Default Profile", "Matrix"]

    static func describe(_ v: Double) -> String { (v > 0 ? "+" : "") + JSONValue.format(v) }
}

/// The work of one translation: the filters' parameters so far, what was
/// applied and what was left out.
struct Translator {
    let settings: LightroomSettings
    var nodes: [String: [String: Double]] = [:]
    var texts: [String: [String: String]] = [:]
    var unmapped: [String] = []
    var applied: [String] = []
    /// Local corrections the global settings become (translation 9: lens
    /// vignetting beside a post-crop vignette, the vignette's highlights).
    var corrections: [LocalCorrection] = []
    /// The settings read (never listed by name for being set).
    var read: Set<String>

    init(settings: LightroomSettings) {
        self.settings = settings
        read = LightroomSettings.read(settings.version)
    }

    var version: Int { settings.version }
    var values: [String: String] { settings.values }

    /// Sets a parameter, clamped to `range`; returns the value set.
    @discardableResult
    mutating func set(_ filter: String, _ parameter: String, _ value: Double, _ range: ClosedRange<Double>) -> Double {
        let set = JSONValue.canonicalNumber(min(max(value, range.lowerBound), range.upperBound))
        nodes[filter, default: [:]][parameter] = set
        return set
    }

    /// A number read from the packet: nil when absent; a value that is not a
    /// finite number is left out and listed; one beyond Lightroom's range is
    /// clamped to it (and listed as clamped). Version 1 refused both.
    mutating func number(_ name: String, _ range: ClosedRange<Double>) throws(XMPProblem) -> Double? {
        guard let text = values[name] else { return nil }
        guard let value = LightroomSettings.parseNumber(text), range.contains(value) else {
            let limits = "\(JSONValue.format(range.lowerBound)) to \(JSONValue.format(range.upperBound))"
            if version == 1 { throw XMPProblem("crs:\(name) is not a number from \(limits)") }
            guard let value = LightroomSettings.parseNumber(text) else {
                note("\(name) (not a number)")
                return nil
            }
            note("\(name) (beyond Lightroom's \(limits): clamped)")
            return scaled(name, min(max(value, range.lowerBound), range.upperBound), range)
        }
        return scaled(name, value, range)
    }

    /// A preset's amount applied to a slider: its distance from neutral
    /// scaled (Lightroom's preset Amount), inside Lightroom's range.
    func scaled(_ name: String, _ value: Double, _ range: ClosedRange<Double>) -> Double {
        let amount = settings.amount
        guard amount != 1, let neutral = LightroomSettings.scalable[name] else { return value }
        return min(max(neutral + (value - neutral) * amount, range.lowerBound), range.upperBound)
    }

    /// A problem with one setting, listed once.
    mutating func note(_ text: String) {
        if !unmapped.contains(text) { unmapped.append(text) }
    }

    /// A `True`/`False` setting (anything else: left out and listed).
    mutating func flag(_ name: String) throws(XMPProblem) -> Bool? {
        guard let text = values[name] else { return nil }
        switch text.lowercased() {
        case "true", "1": return true
        case "false", "0": return false
        default:
            if version == 1 { throw XMPProblem("crs:\(name) is not True or False") }
            note("\(name) (not True or False)")
            return nil
        }
    }

    /// A tone curve, or nil when it is not set (or, listed, not a curve).
    mutating func curve(_ name: String) throws(XMPProblem) -> [(x: Double, y: Double)]? {
        do {
            // A preset's amount moves each point towards the diagonal (0) or away from it.
            let amount = settings.amount
            return try settings.curve(name).map { $0.map { (x: $0.x, y: min(max($0.x + ($0.y - $0.x) * amount, 0), 255)) } }
        } catch {
            if version == 1 { throw error }
            note("\(name) (\(error))")
            return nil
        }
    }

    mutating func translate() throws(XMPProblem) {
        let process = settings.process
        // The sliders of the table (each version reads its own rows; the
        // other process's sliders are left over in the packet, not read).
        for slider in LightroomSettings.sliders where slider.since <= version && version <= slider.until {
            if version >= 2, let p = slider.process, p != process { continue }
            guard let v = try number(slider.setting, slider.range), v != slider.neutral else { continue }
            set(slider.filter, slider.parameter, (v - slider.neutral) * slider.scale + slider.filterNeutral, slider.filterRange)
            applied.append(slider.setting)
        }
        try whiteBalance()
        try crop()
        if version == 1 { try curvesVersion1() } else { try curves(process) }
        try detailAndEffects()
        try colourEffects()
        if version >= LightroomSettings.lensSince { try lensCorrections() }
    }

    /// White balance: a RAW's light in kelvin (the `raw` stage), or a relative
    /// shift (`temperature`, `tint`) — for a rendered file, Lightroom's
    /// incremental sliders, else the kelvin's shift from daylight.
    mutating func whiteBalance() throws(XMPProblem) {
        let temperature = try number("Temperature", 1000...60000), tint = try number("Tint", -150...150)
        let incrementalTemperature = try number("IncrementalTemperature", -100...100)
        let incrementalTint = try number("IncrementalTint", -100...100)
        var kelvin: Double?
        var auto = false
        switch values["WhiteBalance"]?.lowercased() {
        case nil, "as shot", "asshot":
            // As shot is photoedit's default development; a Temperature without
            // WhiteBalance is a custom one.
            if values["WhiteBalance"] == nil { kelvin = temperature }
        case "auto":
            auto = true
        default:
            // Custom and Lightroom's presets (Daylight, Cloudy, Tungsten…) all write their kelvin.
            kelvin = temperature
        }
        let useIncremental = version == 1 || !settings.rendered || incrementalTemperature != nil || incrementalTint != nil
        if !settings.rendered || version == 1 {
            if auto {
                texts["raw", default: [:]]["wb"] = "auto"
                applied.append("WhiteBalance")
            } else if let kelvin {
                texts["raw", default: [:]]["wb"] = "kelvin"
                set("raw", "temperature", kelvin, 2000...25000)
                set("raw", "tint", tint ?? 0, -150...150)
                applied += ["Temperature"] + (tint.map { $0 != 0 ? ["Tint"] : [] } ?? [])
            }
        } else if auto {
            note("WhiteBalance Auto (a RAW's development)")
        } else if let kelvin, !(incrementalTemperature != nil || incrementalTint != nil) {
            // A rendered file: the light's shift from daylight (5500 K, Lightroom's
            // Daylight), in mired, as the relative form (+ warmer).
            set("temperature", "amount", 1e6 / 5500 - 1e6 / kelvin, -100...100)
            if let tint, tint != 0 { set("tint", "amount", tint, -100...100) }
            applied += ["Temperature"] + ((tint ?? 0) != 0 ? ["Tint"] : [])
        }
        guard useIncremental else { return }
        // A RAW reads its kelvin: the relative sliders are a rendered file's (version 2).
        if version >= 2 && !settings.rendered && kelvin != nil { return }
        if let v = incrementalTemperature, v != 0 {
            set("temperature", "amount", v, -100...100)
            applied.append("IncrementalTemperature")
        }
        if let v = incrementalTint, v != 0 {
            set("tint", "amount", v, -100...100)
            applied.append("IncrementalTint")
        }
    }

    /// Crop and straighten: Lightroom's edges are fractions of the frame as
    /// stored (before tiff:Orientation); photoedit crops the upright image.
    mutating func crop() throws(XMPProblem) {
        let edges = [try number("CropLeft", 0...1), try number("CropTop", 0...1), try number("CropRight", 0...1), try number("CropBottom", 0...1)]
        let angle = try number("CropAngle", -45...45)
        guard try flag("HasCrop") == true else { return }
        let (left, top, right, bottom) = (edges[0] ?? 0, edges[1] ?? 0, edges[2] ?? 1, edges[3] ?? 1)
        guard right > left, bottom > top else {
            if version == 1 { throw XMPProblem("crs:CropRight/CropBottom are not beyond CropLeft/CropTop") }
            return note("HasCrop (CropRight/CropBottom are not beyond CropLeft/CropTop)")
        }
        guard let orientation = settings.orientation else { return note("HasCrop (tiff:Orientation is not 1 to 8)") }
        let (x, y, w, h) = LightroomSettings.upright(left: left, top: top, right: right, bottom: bottom, orientation: orientation)
        if x > 0 || y > 0 || w < 1 || h < 1 {
            texts["crop", default: [:]]["mode"] = "rect"
            let cropX = set("crop", "x", x, 0...1)
            let cropY = set("crop", "y", y, 0...1)
            set("crop", "w", min(w, 1 - cropX), 0.001...1)
            set("crop", "h", min(h, 1 - cropY), 0.001...1)
            applied.append("HasCrop")
        }
        if let angle, angle != 0 {
            // A mirrored frame turns the other way.
            set("straighten", "angle", [2, 4, 5, 7].contains(orientation) ? -angle : angle, -45...45)
            applied.append("CropAngle")
        }
    }

    /// Version 1's tone curves: one `curve` node, so the master curve, else
    /// the one channel curve set; any other curve that is set is listed.
    mutating func curvesVersion1() throws(XMPProblem) {
        var curves: [(channel: String, name: String, points: [(x: Double, y: Double)])] = []
        for (channel, name) in [("rgb", "ToneCurvePV2012"), ("red", "ToneCurvePV2012Red"), ("green", "ToneCurvePV2012Green"),
                                ("blue", "ToneCurvePV2012Blue")] {
            if let points = try curve(name), !LightroomSettings.isIdentity(points) { curves.append((channel, name, points)) }
        }
        guard let first = curves.first else { return }
        texts["curve", default: [:]]["channel"] = first.channel
        setCurve(prefix: "", LightroomSettings.resampled(first.points, to: Filters.curveMaxPoints))
        applied.append(first.name)
        unmapped += curves.dropFirst().map { "\($0.name) (one tone curve is mapped: \(first.name))" }
    }

    /// Points on 0…255 as one curve of the `curve` filter (`prefix` "" for the main one).
    mutating func setCurve(prefix: String, _ points: [(x: Double, y: Double)]) {
        set("curve", prefix + "n", Double(points.count), 2...Double(Filters.curveMaxPoints))
        for (i, p) in points.enumerated() {
            set("curve", "\(prefix)x\(i + 1)", p.x / 255, 0...1)
            set("curve", "\(prefix)y\(i + 1)", p.y / 255, 0...1)
        }
    }

    /// Version 2's tone curves: the main curve is the process's point curve
    /// after its parametric curve (and process 2010's Brightness), one
    /// function sampled at 8 points when more than the point curve is set;
    /// each channel curve is the `curve` filter's own curve of that channel.
    mutating func curves(_ process: LightroomSettings.Process) throws(XMPProblem) {
        let pointName = process == .pv2010 ? "ToneCurve" : "ToneCurvePV2012"
        let point = try curve(pointName).flatMap { LightroomSettings.isIdentity($0) ? nil : $0 }
        if point != nil { applied.append(pointName) }
        // The parametric curve: four regions between three splits.
        var regions: [Double] = []
        for name in ["ParametricShadows", "ParametricDarks", "ParametricLights", "ParametricHighlights"] {
            let v = try number(name, -100...100) ?? 0
            if v != 0 { applied.append(name) }
            regions.append(v)
        }
        var splits: [Double] = []
        for (name, neutral) in [("ParametricShadowSplit", 25.0), ("ParametricMidtoneSplit", 50), ("ParametricHighlightSplit", 75)] {
            let v = try number(name, 0...100) ?? neutral
            if v != neutral && regions.contains(where: { $0 != 0 }) { applied.append(name) }
            splits.append(v / 100)
        }
        var brightness = 0.0
        if process == .pv2010, let b = try number("Brightness", -150...150), b != 50 {
            brightness = (b - 50) / 100
            applied.append("Brightness")
        }
        let parametric = regions.contains { $0 != 0 } ? LightroomSettings.parametricCurve(regions: regions, splits: splits) : nil
        if parametric != nil || brightness != 0 {
            // One function, x on 0…1: brightness, then the parametric curve, then the point curve.
            let pointCurve = point.map { ToneCurve($0.map { (x: $0.x / 255, y: $0.y / 255) }) }
            let samples = (0..<Filters.curveMaxPoints).map { i -> (x: Double, y: Double) in
                let x = Double(i) / Double(Filters.curveMaxPoints - 1)
                var y = brightness == 0 ? x : Foundation.pow(x, Foundation.pow(2, -brightness))
                y = parametric?.value(y) ?? y
                y = pointCurve?.value(y) ?? y
                return (x * 255, min(max(y, 0), 1) * 255)
            }
            setCurve(prefix: "", samples)
        } else if let point {
            setCurve(prefix: "", LightroomSettings.resampled(point, to: Filters.curveMaxPoints))
        }
        let channelNames = process == .pv2010 ? ["ToneCurveRed", "ToneCurveGreen", "ToneCurveBlue"]
            : ["ToneCurvePV2012Red", "ToneCurvePV2012Green", "ToneCurvePV2012Blue"]
        for (channel, name) in zip(Filters.curveChannels, channelNames) {
            guard let points = try curve(name), !LightroomSettings.isIdentity(points) else { continue }
            setCurve(prefix: channel + "_", LightroomSettings.resampled(points, to: Filters.curveMaxPoints))
            applied.append(name)
        }
        read.formUnion(channelNames)
    }

    /// The refining settings applied with their master, by name, that are not at their default.
    func refinements(_ settings: [(String, Double?, Double)]) -> [String] {
        settings.compactMap { name, value, neutral in value.map { $0 != neutral ? name : nil } ?? nil }
    }

    /// Detail and effects: sharpening, post-crop vignette, grain.
    mutating func detailAndEffects() throws(XMPProblem) {
        let radius = try number("SharpenRadius", 0.5...3), masking = try number("SharpenEdgeMasking", 0...100)
        let detail = version >= LightroomSettings.detailSince ? try number("SharpenDetail", 0...100) : nil
        if let amount = try number("Sharpness", 0...150), amount != 0 {
            set("sharpen", "amount", amount, 0...500)
            if let radius { set("sharpen", "radius", radius, 0.3...20) }
            if let masking, masking != 0 { set("sharpen", "threshold", masking / 5, 0...255) }
            // Detail (version 7, sharpen version 2): Lightroom's default 25 when the packet has none.
            if version >= LightroomSettings.detailSince { set("sharpen", "detail", detail ?? 25, 0...100) }
            applied += ["Sharpness"] + refinements([("SharpenRadius", radius, 1), ("SharpenEdgeMasking", masking, 0), ("SharpenDetail", detail, 25)])
        }
        if version >= LightroomSettings.detailSince { try defringe() }
        let midpoint = try number("PostCropVignetteMidpoint", 0...100), roundness = try number("PostCropVignetteRoundness", -100...100)
        let feather = try number("PostCropVignetteFeather", 0...100)
        if let amount = try number("PostCropVignetteAmount", -100...100), amount != 0 {
            set("vignette", "amount", amount, -100...100)
            if let midpoint { set("vignette", "midpoint", midpoint, 0...100) }
            if let roundness { set("vignette", "roundness", roundness, -100...100) }
            if let feather { set("vignette", "feather", feather, 0...100) }
            applied += ["PostCropVignetteAmount"]
                + refinements([("PostCropVignetteMidpoint", midpoint, 50), ("PostCropVignetteRoundness", roundness, 0), ("PostCropVignetteFeather", feather, 50)])
        }
        // Lens vignetting (version 2): the same exposure-based vignette, round, when there is no post-crop one.
        let lensMidpoint = version >= 2 ? try number("VignetteMidpoint", 0...100) : nil
        if version >= 2, let amount = try number("VignetteAmount", -100...100), amount != 0 {
            if nodes["vignette"] == nil {
                set("vignette", "amount", amount, -100...100)
                set("vignette", "midpoint", lensMidpoint ?? 50, 0...100)
                set("vignette", "roundness", 100, -100...100)
                applied.append("VignetteAmount")
            } else if version >= LightroomSettings.lookSpacesSince {
                // Beside a post-crop vignette (translation 9): the lens's, on the
                // whole frame before the crop, as a local correction.
                corrections.append(LightroomSettings.vignetteCorrection(ev: 3 * amount / 100, midpoint: (lensMidpoint ?? 50) / 100,
                                                                       feather: 0.5, frame: (0, 0, 1, 1)))
                applied.append("VignetteAmount")
            } else {
                note("VignetteAmount \(LightroomSettings.describe(amount)) (with a post-crop vignette)")
            }
        }
        // The post-crop vignette's Highlights (translation 9; Highlight and Colour
        // Priority styles, a darkening vignette): the vignette's bright areas
        // brightened back by that share of its darkening, a local correction
        // of the vignette's shape in the cropped frame and of the light tones.
        if version >= LightroomSettings.lookSpacesSince, let contrast = try number("PostCropVignetteHighlightContrast", 0...100), contrast != 0,
           let amount = nodes["vignette"]?["amount"], amount < 0,
           (try number("PostCropVignetteStyle", 1...3)).map({ $0 != 3 }) ?? true {
            let crop = nodes["crop"].map { ($0["x"] ?? 0, $0["y"] ?? 0, $0["w"] ?? 1, $0["h"] ?? 1) } ?? (0, 0, 1, 1)
            var correction = LightroomSettings.vignetteCorrection(ev: -3 * amount / 100 * contrast / 100, midpoint: (midpoint ?? 50) / 100,
                                                                  feather: (feather ?? 50) / 100, frame: crop)
            correction.mask.components.append(MaskComponent(.luminance(LuminanceRange(low: 0.7, high: 1, feather: 0.2)), mode: .intersect))
            corrections.append(correction)
            applied.append("PostCropVignetteHighlightContrast")
        }
        if version >= LightroomSettings.lookSpacesSince { read.formUnion(["PostCropVignetteHighlightContrast", "PostCropVignetteStyle"]) }
        if version >= 2 { read.formUnion(["VignetteAmount", "VignetteMidpoint"]) }
        // Noise reduction (version 6): Lightroom's manual noise reduction on
        // `denoise` (the same 0…100 scales; the model from the camera's profile
        // or an estimate). Luminance's own slider is in the table.
        if version >= LightroomSettings.denoiseSince {
            let detail = try number("LuminanceNoiseReductionDetail", 0...100), contrast = try number("LuminanceNoiseReductionContrast", 0...100)
            if let luma = try number("LuminanceSmoothing", 0...100), luma != 0 {
                if let detail { set("denoise", "luma_detail", detail, 0...100) }
                if let contrast { set("denoise", "luma_contrast", contrast, 0...100) }
                applied += refinements([("LuminanceNoiseReductionDetail", detail, 50), ("LuminanceNoiseReductionContrast", contrast, 0)])
            }
            let colourDetail = try number("ColorNoiseReductionDetail", 0...100), smoothness = try number("ColorNoiseReductionSmoothness", 0...100)
            if let colour = try number("ColorNoiseReduction", 0...100), colour != 0 {
                set("denoise", "chroma", colour, 0...100)
                if let colourDetail { set("denoise", "chroma_detail", colourDetail, 0...100) }
                if let smoothness { set("denoise", "chroma_smoothness", smoothness, 0...100) }
                applied += ["ColorNoiseReduction"]
                    + refinements([("ColorNoiseReductionDetail", colourDetail, 50), ("ColorNoiseReductionSmoothness", smoothness, 50)])
            }
        }
        // Colour noise reduction (version 3 to 5, noise version 2): what goes beyond
        // Lightroom's default 25 (photoedit's development had none of its own).
        if version >= 3, version < LightroomSettings.denoiseSince, let colour = try number("ColorNoiseReduction", 0...100), colour != 0, colour != 25 {
            if colour > 25 {
                set("noise", "chroma", (colour - 25) / 75 * 100, 0...100)
                applied.append("ColorNoiseReduction")
            } else {
                note("ColorNoiseReduction \(LightroomSettings.describe(colour)) (less than Lightroom's default 25: photoedit has none to lessen)")
            }
        }
        let size = try number("GrainSize", 0...100)
        let frequency = version >= 3 ? try number("GrainFrequency", 0...100) : nil
        if let amount = try number("GrainAmount", 0...100), amount != 0 {
            set("grain", "amount", amount, 0...100)
            // Lightroom's size 0…100 (default 25) → 1…10 px.
            if let size { set("grain", "size", 1 + size * 0.09, 1...10) }
            // Roughness (version 3, grain version 2): the same scale, 50 its default.
            if let frequency { set("grain", "roughness", frequency, 0...100) }
            applied += ["GrainAmount"] + refinements([("GrainSize", size, 25), ("GrainFrequency", frequency, 50)])
        }
    }

    /// Lens Corrections › Manual › Defringe (version 7): the `defringe`
    /// filter, the same scales (amounts 0…20, hue ranges 0…100).
    mutating func defringe() throws(XMPProblem) {
        for (colour, name, low, high) in [("Purple", "purple", 30.0, 70.0), ("Green", "green", 40.0, 60.0)] {
            guard let amount = try number("Defringe\(colour)Amount", 0...20), amount != 0 else { continue }
            var lo = try number("Defringe\(colour)HueLo", 0...100), hi = try number("Defringe\(colour)HueHi", 0...100)
            if (lo ?? low) > (hi ?? high) {
                note("Defringe\(colour)HueLo (above Defringe\(colour)HueHi: Lightroom's default hues used)")
                (lo, hi) = (nil, nil)
            }
            set("defringe", name, amount, 0...20)
            set("defringe", name + "_lo", lo ?? low, 0...100)
            set("defringe", name + "_hi", hi ?? high, 0...100)
            applied += ["Defringe\(colour)Amount"] + refinements([("Defringe\(colour)HueLo", lo, low), ("Defringe\(colour)HueHi", hi, high)])
        }
    }

    /// Black and white, and split toning (Color Grading's shadows and highlights).
    mutating func colourEffects() throws(XMPProblem) {
        if try flag("ConvertToGrayscale") == true {
            let red = try number("GrayMixerRed", -200...200), green = try number("GrayMixerGreen", -200...200)
            let blue = try number("GrayMixerBlue", -200...200)
            set("mono", "amount", 100, 0...100)
            applied.append("ConvertToGrayscale")
            // The grey mixer's red, green and blue sliders (−100…100) scale
            // the Rec. 709 weights; its other five bands are not mapped.
            if red != nil || green != nil || blue != nil {
                let weights = [(red, 0.2126), (green, 0.7152), (blue, 0.0722)].map { max(0.001, $0.1 * (1 + ($0.0 ?? 0) / 100)) }
                let scale = weights.max()! > 1 ? 1 / weights.max()! : 1
                set("mono", "red", weights[0] * scale, 0...1)
                set("mono", "green", weights[1] * scale, 0...1)
                set("mono", "blue", weights[2] * scale, 0...1)
            }
            for band in ["Orange", "Yellow", "Aqua", "Purple", "Magenta"] {
                guard let v = try number("GrayMixer\(band)", -200...200), v != 0 else { continue }
                if version >= 2, let range = LightroomSettings.bands[band] {
                    // Version 2: the mixer's other bands brighten or darken their
                    // colours before they turn grey (that band's luminance in `hsl`).
                    let parameter = "\(range)_l"
                    set("hsl", parameter, (nodes["hsl"]?[parameter] ?? 0) + v, -100...100)
                    applied.append("GrayMixer\(band)")
                } else {
                    unmapped.append("GrayMixer\(band) \(LightroomSettings.describe(v))")
                }
            }
            for band in ["Red", "Green", "Blue"] where red != nil || green != nil || blue != nil {
                if let v = values["GrayMixer\(band)"].flatMap(LightroomSettings.parseNumber), v != 0 { applied.append("GrayMixer\(band)") }
            }
        }
        // Lightroom 10+ writes Color Grading's shadow and highlight wheels as
        // the split toning they replace, too; either gives them (version 2).
        func either(_ split: String, _ grade: String, _ range: ClosedRange<Double>) throws(XMPProblem) -> Double? {
            let a = try number(split, range)
            if version >= 2, a == nil || a == 0, let b = try number(grade, range), b != 0 { return b }
            return a
        }
        let shadowSat = try either("SplitToningShadowSaturation", "ColorGradeShadowSat", 0...100) ?? 0
        let highSat = try either("SplitToningHighlightSaturation", "ColorGradeHighlightSat", 0...100) ?? 0
        let shadowHue = try either("SplitToningShadowHue", "ColorGradeShadowHue", 0...360) ?? 0
        let highHue = try either("SplitToningHighlightHue", "ColorGradeHighlightHue", 0...360) ?? 0
        let balance = try either("SplitToningBalance", "ColorGradeBalance", -100...100) ?? 0
        if shadowSat != 0 || highSat != 0 {
            set("splittone", "shadow_sat", shadowSat, 0...100)
            set("splittone", "high_sat", highSat, 0...100)
            set("splittone", "shadow_hue", shadowHue, 0...360)
            set("splittone", "high_hue", highHue, 0...360)
            set("splittone", "balance", balance, -100...100)
            applied += ["SplitToningShadowSaturation", "SplitToningHighlightSaturation", "SplitToningShadowHue", "SplitToningHighlightHue",
                        "SplitToningBalance"].filter { (values[$0].flatMap(LightroomSettings.parseNumber) ?? 0) != 0 }
            if !applied.contains(where: { $0.hasPrefix("SplitToning") }) {
                applied += ["ColorGradeShadowSat", "ColorGradeHighlightSat", "ColorGradeShadowHue", "ColorGradeHighlightHue", "ColorGradeBalance"]
                    .filter { (values[$0].flatMap(LightroomSettings.parseNumber) ?? 0) != 0 }
            }
        }
    }
}

extension LightroomSettings {
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

    /// Lightroom's parametric curve as a curve on 0…1 (inferred: Adobe does
    /// not publish it). The splits cut 0…1 into four regions (shadows, darks,
    /// lights, highlights); each slider (−100…100) moves the curve at its
    /// region's middle by up to half the region's width, and the curve is
    /// the monotone cubic through (0, 0), the four moved middles and (1, 1).
    static func parametricCurve(regions: [Double], splits: [Double]) -> ToneCurve {
        let s = [0] + splits.sorted().map { min(max($0, 0), 1) } + [1]
        var points: [(x: Double, y: Double)] = [(0, 0)]
        for i in 0..<4 {
            let width = s[i + 1] - s[i], middle = (s[i] + s[i + 1]) / 2
            guard width > 0 else { continue }
            let y = min(max(middle + regions[i] / 100 * width / 2, points.last!.y), 1)
            points.append((middle, y))
        }
        points.append((1, max(1, points.last!.y)))
        return ToneCurve(points)
    }

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

// MARK: Lens corrections (translation version 3): the `lens` filter

extension LightroomSettings {
    /// The first translation version that maps the lens corrections.
    static let lensSince = 3

    /// The lens settings the translation reads (never listed just for being set).
    static let lensSettings: Set<String> = [
        "LensProfileEnable", "LensProfileName", "LensProfileFilename", "LensProfileDistortionScale", "LensProfileVignettingScale",
        "LensProfileChromaticAberrationScale", "AutoLateralCA", "LensManualDistortionAmount",
    ]

    /// The packet's camera and lens members, by name (`Make`, `Model`, `Lens`, `FocalLength`, `FNumber`).
    static func lensEXIF(_ packet: XMPPacket) -> [String: String] {
        let exif = "http://ns.adobe.com/exif/1.0/", aux = "http://ns.adobe.com/exif/1.0/aux/"
        let members = [("Make", tiff, "Make"), ("Model", tiff, "Model"), ("Lens", aux, "Lens"), ("LensModel", "http://cipa.jp/exif/1.0/", "LensModel"),
                       ("FocalLength", exif, "FocalLength"), ("FNumber", exif, "FNumber")]
        var out: [String: String] = [:]
        for (name, namespace, local) in members {
            if let text = packet.value(namespace, local)?.defaultText?.trimmingCharacters(in: .whitespacesAndNewlines), !text.isEmpty, text.count <= 200 {
                out[name] = text
            }
        }
        return out
    }

    /// Adobe's profile name without its "Adobe (…)" wrapper: "Adobe (Canon EF 24-105mm f/4L IS USM)" → the lens.
    static func lensName(profile: String) -> String {
        var name = profile.trimmingCharacters(in: .whitespaces)
        if name.hasSuffix(".lcp") { name = String(name.dropLast(4)) }
        if name.hasPrefix("Adobe (") && name.hasSuffix(")") && name.count > 8 {
            name = String(name.dropFirst(7).dropLast())
        }
        return name.trimmingCharacters(in: .whitespaces)
    }
}

extension Translator {
    /// Lightroom's Lens Corrections panel → `lens`: the profile (its
    /// distortion and vignetting scales, 0…200) when `LensProfileEnable`,
    /// Remove Chromatic Aberration (`AutoLateralCA`) as the profile's TCA
    /// (`LensProfileChromaticAberrationScale`), and the manual distortion.
    /// The lens is Adobe's profile name, else the packet's `aux:Lens`, looked
    /// up in lensfun's database with the packet's camera, focal length and
    /// aperture; when it finds none (a preset names no lens) the node keeps
    /// no lens, listed as not mapped: applied to a photo by a chain or a
    /// preset, the photo's EXIF names it (`Editing.identifyingLens`).
    mutating func lensCorrections() throws(XMPProblem) {
        read.formUnion(LightroomSettings.lensSettings)
        let profile = try flag("LensProfileEnable") ?? false, lateralCA = try flag("AutoLateralCA") ?? false
        let manual = try number("LensManualDistortionAmount", -100...100) ?? 0
        var lens: [String: ParameterValue] = [:]
        if profile {
            lens["distortion"] = .number(try number("LensProfileDistortionScale", 0...200) ?? 100)
            lens["vignetting"] = .number(try number("LensProfileVignettingScale", 0...200) ?? 100)
        }
        if lateralCA { lens["tca"] = .number(try number("LensProfileChromaticAberrationScale", 0...200) ?? 100) }
        if !lens.isEmpty {
            var id = LensIdentification()
            let exif = settings.lensEXIF
            (id.exifMake, id.exifModel) = (exif["Make"] ?? "", exif["Model"] ?? "")
            let named = [values["LensProfileName"].map(LightroomSettings.lensName(profile:)), values["LensProfileFilename"].map(LightroomSettings.lensName(profile:)),
                         exif["LensModel"], exif["Lens"]].compactMap { $0 }.filter { !$0.isEmpty }
            id.exifLens = named.first ?? ""
            let number = { (text: String?) -> Double? in
                let parts = (text ?? "").split(separator: "/").compactMap { Double($0) }
                let n = parts.count == 2 ? (parts[1] == 0 ? nil : parts[0] / parts[1]) : parts.first
                return n.flatMap { $0.isFinite && $0 > 0 ? $0 : nil }
            }
            (id.focal, id.aperture) = (number(exif["FocalLength"]), number(exif["FNumber"]))
            if (try? id.lookUp()) == nil { id.problem = "lensfun's database could not be loaded" }
            if let problem = id.problem {
                // Remove Chromatic Aberration without a known lens (version 7):
                // measured on the photo by the `ca` filter instead of lensfun's profile.
                let measured = lateralCA && version >= LightroomSettings.detailSince
                if measured {
                    lens["tca"] = nil
                    texts["ca", default: [:]]["mode"] = "auto"
                    applied.append("AutoLateralCA")
                }
                // The node stays without a lens: applied to a photo (a preset),
                // the photo's EXIF names it; rendered as it is, nothing changes.
                for name in ["LensProfileEnable", "AutoLateralCA"] where name == "LensProfileEnable" ? profile : lateralCA && !measured {
                    note("\(name) (\(problem.replacingOccurrences(of: "the photo's EXIF", with: "the packet")))")
                }
            } else {
                lens.merge(id.parameters) { $1 }
                applied += (profile ? ["LensProfileEnable"] : []) + (lateralCA ? ["AutoLateralCA"] : [])
            }
        }
        if manual != 0 {
            lens["manual"] = .number(manual)
            applied.append("LensManualDistortionAmount")
        }
        for (name, value) in lens {
            switch value {
            case .number(let n): nodes["lens", default: [:]][name] = JSONValue.canonicalNumber(n)
            case .text(let t): texts["lens", default: [:]][name] = t
            case .bool: break
            }
        }
    }
}
