import Foundation

/// Lightroom develop settings written from a photoedit recipe: the inverse
/// of `LightroomSettings.translation()` for every filter that has a `crs:`
/// equivalent, so that reading them back gives the same parameters.
struct LightroomEquivalents {
    /// Simple `crs:` values, in writing order.
    var values: [(name: String, value: String)] = []
    /// Tone curves (`ToneCurvePV2012`, `…Red`…): `x, y` points on 0…255.
    var curves: [(name: String, points: [String])] = []
    /// Structures (`crs:Look`), as XML elements of the description.
    var elements: [String] = []
    /// Filters (or parts of them) that have no `crs:` equivalent, one text each.
    var notExported: [String] = []

    /// The equivalents of `recipe` for a photo of EXIF `orientation` (the
    /// crop is written in the frame as stored, as Lightroom reads it).
    init(recipe: Recipe, orientation: Int) {
        func add(_ name: String, _ value: Double, signed: Bool = true) {
            values.append((name, signed ? LightroomSettings.describe(value) : JSONValue.format(value)))
        }
        func clamped(_ v: Double, _ range: ClosedRange<Double>, _ what: String) -> Double {
            if !range.contains(v) { notExported.append("\(what) \(JSONValue.format(v)) (written as \(JSONValue.format(min(max(v, range.lowerBound), range.upperBound))), Lightroom's limit)") }
            return min(max(v, range.lowerBound), range.upperBound)
        }
        for node in recipe.nodes {
            let p = node.parameters
            switch node.filter {
            case "raw":
                switch p[Filters.RawKeys.wb] {
                case "auto": values.append(("WhiteBalance", "Auto"))
                case "kelvin":
                    values.append(("WhiteBalance", "Custom"))
                    add("Temperature", p[Filters.RawKeys.temperature], signed: false)
                    add("Tint", p[Filters.RawKeys.tint])
                case "custom": notExported.append("raw.wb custom multipliers")
                default: values.append(("WhiteBalance", "As Shot"))
                }
                let k = Filters.RawKeys.self
                let rest = ([k.highlights, k.demosaic] as [any AnyParameterKey] + [k.exposure, k.preserve, k.black, k.white, k.denoise])
                    .filter { !$0.isDefault(in: p) }
                if !rest.isEmpty { notExported.append("raw " + rest.map(\.spec.name).joined(separator: ", ")) }
            case "temperature": add("IncrementalTemperature", p[Filters.TemperatureKeys.amount])
            case "tint": add("IncrementalTint", p[Filters.TintKeys.amount])
            case "exposure": add("Exposure2012", p[Filters.ExposureKeys.ev])
            case "contrast": add("Contrast2012", p[Filters.ContrastKeys.amount])
            case "highlights": add("Highlights2012", p[Filters.HighlightsKeys.amount])
            case "shadows": add("Shadows2012", p[Filters.ShadowsKeys.amount])
            case "whites": add("Whites2012", p[Filters.WhitesKeys.amount])
            case "blacks": add("Blacks2012", p[Filters.BlacksKeys.amount])
            case "vibrance":
                add("Vibrance", p[Filters.VibranceKeys.amount])
                if !p[Filters.VibranceKeys.spareSkin] { notExported.append("vibrance spare_skin=false") }
            case "saturation": add("Saturation", p[Filters.SaturationKeys.amount])
            case "hsl":
                for (band, range) in LightroomSettings.bands.sorted(by: { $0.key < $1.key }) {
                    guard let keys = Filters.HSLKeys.ranges.first(where: { $0.name == range }) else { continue }
                    for (prefix, key) in [("HueAdjustment", keys.hue), ("SaturationAdjustment", keys.saturation), ("LuminanceAdjustment", keys.luminance)] {
                        let v = p[key]
                        if v != 0 { add(prefix + band, v) }
                    }
                }
            case "curve":
                let names = ["rgb": "ToneCurvePV2012", "red": "ToneCurvePV2012Red", "green": "ToneCurvePV2012Green", "blue": "ToneCurvePV2012Blue"]
                // Lightroom (and darktable) read whole 0…255 steps: points off that grid move by at most 0.5 / 255.
                func points(_ keys: Filters.CurveKeys.Points) -> [String] {
                    (0..<Int(p[keys.n])).map {
                        "\(Int((p[keys.x[$0]] * 255).rounded())), \(Int((p[keys.y[$0]] * 255).rounded()))"
                    }
                }
                let main = Filters.curvePoints(p, Filters.CurveKeys.main)
                if let name = names[p[Filters.CurveKeys.channel]] {
                    if !Filters.isIdentityCurve(main) { curves.append((name, points(Filters.CurveKeys.main))) }
                } else if !Filters.isIdentityCurve(main) {
                    notExported.append("curve on the luminance")
                }
                // Version 2's channel curves: Lightroom's own channel curves.
                for (channel, keys) in zip(Filters.curveChannels, Filters.CurveKeys.channels) where p.values[keys.n.name] != nil {
                    guard !Filters.isIdentityCurve(Filters.curvePoints(p, keys)) else { continue }
                    guard let name = names[channel] else {
                        notExported.append("curve.\(channel)")
                        continue
                    }
                    if curves.contains(where: { $0.name == name }) {
                        notExported.append("curve.\(channel) (the main curve is on the \(channel) channel)")
                    } else {
                        curves.append((name, points(keys)))
                    }
                }
            case "crop":
                guard p[Filters.CropKeys.mode] == "rect" else { notExported.append("crop \(p[Filters.CropKeys.mode])"); continue }
                let (x, y, w, h) = (p[Filters.CropKeys.x], p[Filters.CropKeys.y], p[Filters.CropKeys.w], p[Filters.CropKeys.h])
                let stored = LightroomSettings.stored(x: x, y: y, w: w, h: h, orientation: orientation)
                values.append(("HasCrop", "True"))
                add("CropLeft", stored.left, signed: false)
                add("CropTop", stored.top, signed: false)
                add("CropRight", stored.right, signed: false)
                add("CropBottom", stored.bottom, signed: false)
            case "straighten":
                let angle = p[Filters.StraightenKeys.angle]
                add("CropAngle", [2, 4, 5, 7].contains(orientation) ? -angle : angle)
                if recipe.node("crop") == nil { values.append(("HasCrop", "True")) }
            case "sharpen":
                add("Sharpness", clamped(p[Filters.SharpenKeys.amount], 0...150, "sharpen amount"), signed: false)
                add("SharpenRadius", clamped(p[Filters.SharpenKeys.radius], 0.5...3, "sharpen radius"))
                add("SharpenEdgeMasking", clamped(p[Filters.SharpenKeys.threshold] * 5, 0...100, "sharpen threshold×5"), signed: false)
                // Version 2's detail (read back by translation 7); version 1 is detail 100.
                if case .number(let detail)? = p.values[Filters.SharpenKeys.detail.name] { add("SharpenDetail", detail, signed: false) } else { add("SharpenDetail", 100, signed: false) }
            case "vignette":
                add("PostCropVignetteAmount", p[Filters.VignetteKeys.amount])
                add("PostCropVignetteMidpoint", p[Filters.VignetteKeys.midpoint], signed: false)
                add("PostCropVignetteRoundness", p[Filters.VignetteKeys.roundness])
                add("PostCropVignetteFeather", p[Filters.VignetteKeys.feather], signed: false)
            case "grain":
                add("GrainAmount", p[Filters.GrainKeys.amount], signed: false)
                add("GrainSize", clamped((p[Filters.GrainKeys.size] - 1) / 0.09, 0...100, "grain size (as Lightroom's 0…100)"), signed: false)
                add("GrainFrequency", p[Filters.GrainKeys.roughness], signed: false)
                if p[Filters.GrainKeys.seed] != 0 { notExported.append("grain seed") }
            case "calibration":
                let k = Filters.CalibrationKeys.self
                for (primary, hue, saturation) in [("Red", k.redHue, k.redSat), ("Green", k.greenHue, k.greenSat), ("Blue", k.blueHue, k.blueSat)] {
                    add(primary + "Hue", p[hue])
                    add(primary + "Saturation", p[saturation])
                }
                add("ShadowTint", p[Filters.CalibrationKeys.shadowTint])
            case "denoise":
                // Lightroom's manual noise reduction, the same scales (read back by translation 6).
                add("LuminanceSmoothing", p[Filters.DenoiseKeys.luma], signed: false)
                add("LuminanceNoiseReductionDetail", p[Filters.DenoiseKeys.lumaDetail], signed: false)
                add("LuminanceNoiseReductionContrast", p[Filters.DenoiseKeys.lumaContrast], signed: false)
                add("ColorNoiseReduction", p[Filters.DenoiseKeys.chroma], signed: false)
                add("ColorNoiseReductionDetail", p[Filters.DenoiseKeys.chromaDetail], signed: false)
                add("ColorNoiseReductionSmoothness", p[Filters.DenoiseKeys.chromaSmoothness], signed: false)
                if p[Filters.DenoiseKeys.source] == "estimate" { notExported.append("denoise source estimate (Lightroom reads the camera's noise itself)") }
            case "noise" where recipe.node("denoise") != nil:
                notExported.append("noise (with denoise: Lightroom has one noise reduction)")
            case "noise":
                add("LuminanceSmoothing", p[Filters.NoiseKeys.strength], signed: false)
                if p[Filters.NoiseKeys.chroma] > 0 { add("ColorNoiseReduction", 25 + p[Filters.NoiseKeys.chroma] * 0.75, signed: false) }
                if !Filters.NoiseKeys.radius.isDefault(in: p) { notExported.append("noise radius") }
            case "mono":
                guard p[Filters.MonoKeys.amount] == 100 else { notExported.append("mono \(JSONValue.format(p[Filters.MonoKeys.amount])) % (Lightroom's is all or nothing)"); continue }
                values.append(("ConvertToGrayscale", "True"))
                for (name, weight, rec709) in [("GrayMixerRed", p[Filters.MonoKeys.red], 0.2126), ("GrayMixerGreen", p[Filters.MonoKeys.green], 0.7152),
                                               ("GrayMixerBlue", p[Filters.MonoKeys.blue], 0.0722)] {
                    add(name, clamped((weight / rec709 - 1) * 100, -200...200, name))
                }
            case "splittone":
                add("SplitToningShadowHue", p[Filters.SplitToneKeys.shadowHue], signed: false)
                add("SplitToningShadowSaturation", p[Filters.SplitToneKeys.shadowSat], signed: false)
                add("SplitToningHighlightHue", p[Filters.SplitToneKeys.highHue], signed: false)
                add("SplitToningHighlightSaturation", p[Filters.SplitToneKeys.highSat], signed: false)
                add("SplitToningBalance", p[Filters.SplitToneKeys.balance])
            case "clarity":
                add("Clarity2012", p[Filters.ClarityKeys.amount])
                if !Filters.ClarityKeys.radius.isDefault(in: p) { notExported.append("clarity radius") }
            case "texture":
                add("Texture", p[Filters.TextureKeys.amount])
                if !Filters.TextureKeys.radius.isDefault(in: p) { notExported.append("texture radius") }
            case "dehaze": add("Dehaze", p[Filters.DehazeKeys.strength])
            case "perspective":
                // Lightroom's Vertical is ours negated (docs/xmp.md); the rest keep their sign.
                add("PerspectiveVertical", 0 - p[Filters.PerspectiveKeys.vertical])
                add("PerspectiveHorizontal", p[Filters.PerspectiveKeys.horizontal])
                add("PerspectiveRotate", p[Filters.PerspectiveKeys.rotate])
                add("PerspectiveScale", p[Filters.PerspectiveKeys.scale], signed: false)
                add("PerspectiveAspect", p[Filters.PerspectiveKeys.aspect])
                add("PerspectiveX", p[Filters.PerspectiveKeys.x])
                add("PerspectiveY", p[Filters.PerspectiveKeys.y])
            case "ca":
                // Remove Chromatic Aberration (translation 7 reads it back as `ca` auto when no lens is known).
                if p[Filters.ChromaticAberrationKeys.mode] == "auto" {
                    if !values.contains(where: { $0.name == "AutoLateralCA" }) { values.append(("AutoLateralCA", "1")) }
                } else if p[Filters.ChromaticAberrationKeys.red] != 0 || p[Filters.ChromaticAberrationKeys.blue] != 0 {
                    notExported.append("ca red, blue (Lightroom's chromatic aberration correction has no manual scales)")
                }
            case "defringe":
                // Lightroom's Defringe, the same scales (read back by translation 7).
                let k = Filters.DefringeKeys.self
                for (colour, amount, lo, hi) in [("Purple", k.purple, k.purpleLo, k.purpleHi), ("Green", k.green, k.greenLo, k.greenHi)] where p[amount] > 0 {
                    add("Defringe\(colour)Amount", p[amount], signed: false)
                    add("Defringe\(colour)HueLo", p[lo], signed: false)
                    add("Defringe\(colour)HueHi", p[hi], signed: false)
                }
            case "local", "retouch": break  // LightroomLocalCorrections.xmpElements writes them
            case "rgbtable":
                // The table under Adobe's name for it (read back by translation 8); at
                // another amount, as a profile's look with that amount (read back by 9).
                guard case .table(let look)? = p.content else { break }
                values.append(("Table_" + look.table.fingerprint, LightroomRGBTable.text(look.binary)))
                if look.amount == 1 {
                    values.append(("RGBTable", look.table.fingerprint))
                } else {
                    elements.append("<crs:Look><rdf:Description crs:Name=\"\(LightroomEquivalents.lookName)\" crs:Amount=\"\(JSONValue.format(look.amount))\""
                        + " crs:SupportsAmount=\"True\"><crs:Parameters><rdf:Description crs:RGBTable=\"\(look.table.fingerprint)\"/>"
                        + "</crs:Parameters></rdf:Description></crs:Look>")
                }
            case "lens": lens(p)
            default:
                notExported.append(node.filter)
            }
        }
        // Lightroom writes a crop whole, its four edges and its angle; darktable's reader needs every one.
        if values.contains(where: { $0.name == "HasCrop" }) {
            for (name, value) in [("CropLeft", 0.0), ("CropTop", 0), ("CropRight", 1), ("CropBottom", 1), ("CropAngle", 0)]
            where !values.contains(where: { $0.name == name }) {
                add(name, value, signed: name == "CropAngle")
            }
        }
    }
}

extension LightroomEquivalents {
    /// The name of the look `export --xmp` writes for a look table at an amount other than 100 %.
    static let lookName = "photoedit look table"

    /// `lens` as Lightroom's Lens Corrections panel (the inverse of
    /// `Translator.lensCorrections`): the profile with its distortion and
    /// vignetting scales, Remove Chromatic Aberration with the profile's
    /// scale, the manual distortion; the lens named as lensfun names it.
    mutating func lens(_ p: Parameters) {
        let profile = !p[Filters.LensKeys.lens].isEmpty && (p[Filters.LensKeys.distortion] > 0 || p[Filters.LensKeys.vignetting] > 0)
        if profile {
            values.append(("LensProfileEnable", "1"))
            values.append(("LensProfileName", p[Filters.LensKeys.lens]))
            values.append(("LensProfileDistortionScale", JSONValue.format(p[Filters.LensKeys.distortion])))
            values.append(("LensProfileVignettingScale", JSONValue.format(p[Filters.LensKeys.vignetting])))
        }
        if !p[Filters.LensKeys.lens].isEmpty && p[Filters.LensKeys.tca] > 0 && !values.contains(where: { $0.name == "AutoLateralCA" }) {
            values.append(("AutoLateralCA", "1"))
            values.append(("LensProfileChromaticAberrationScale", JSONValue.format(p[Filters.LensKeys.tca])))
        }
        if p[Filters.LensKeys.manual] != 0 { values.append(("LensManualDistortionAmount", LightroomSettings.describe(p[Filters.LensKeys.manual]))) }
    }
}

extension LightroomSettings {
    /// The inverse of `upright`: an upright (x, y, w, h) as the stored frame's edges.
    static func stored(x: Double, y: Double, w: Double, h: Double, orientation: Int) -> (left: Double, top: Double, right: Double, bottom: Double) {
        // Each orientation's map is an involution or the inverse of its partner (6 ↔ 8).
        let inverse = [6: 8, 8: 6][orientation] ?? orientation
        let (l, t, width, height) = upright(left: x, top: y, right: x + w, bottom: y + h, orientation: inverse)
        return (l, t, l + width, t + height)
    }
}

/// An XMP sidecar for a photo, as Lightroom and darktable read them:
/// rating, label, keywords, title and caption, the `crs:` equivalents of
/// the current recipe, and the recipe itself in photoedit's namespace.
public struct XMPSidecar: Sendable {
    /// photoedit's XMP namespace; `photoedit:recipe` holds the recipe's canonical JSON.
    public static let namespace = "http://ns.photoedit.org/xmp/1.0/"
    /// The packet, UTF-8.
    public let data: Data
    /// Parts of the recipe that have no `crs:` equivalent (kept in
    /// `photoedit:recipe` only), one text each.
    public let notExported: [String]

    /// Text for HTML and XML: &, <, >, " escaped; control characters other
    /// than newline and tab dropped (XML 1.0 cannot hold them). The golden reports use it too.
    package static func escaped(_ text: String) -> String {
        var out = ""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            case "\n", "\t": out.unicodeScalars.append(scalar)
            default:
                if scalar.value < 0x20 || (0xFFFE...0xFFFF).contains(scalar.value) { continue }
                out.unicodeScalars.append(scalar)
            }
        }
        return out
    }

    /// A named snapshot as the sidecar carries it: its name, when it was
    /// taken, the revision it names and that revision's recipe (nil: the
    /// original, or an edit photoedit cannot read).
    struct Snapshot {
        var name: String
        var date: Date
        var revision: Int
        var recipe: Recipe?
    }

    /// The snapshots of a sidecar photoedit wrote (`photoedit:snapshots`),
    /// in order: each one's name, date text, revision and recipe (nil when
    /// it names the original or an edit photoedit could not read).
    static func snapshots(in packet: XMPPacket, registry: FilterRegistry = .standard) -> [(name: String, date: String, revision: Int?, recipe: Recipe?)] {
        guard let element = packet.elements[XMPPacket.Name(namespace: namespace, local: "snapshots")],
              let seq = element.children.first(where: { $0.namespace == XMPPacket.rdf && $0.name == "Seq" }) else { return [] }
        return seq.children.filter { $0.namespace == XMPPacket.rdf && $0.name == "li" }.compactMap { li in
            func field(_ name: String) -> String? { li.children.first { $0.namespace == namespace && $0.name == name }?.text }
            guard let name = field("name") else { return nil }
            let recipe = field("recipe").flatMap { try? JSONValue.parse(Data($0.utf8)) }.flatMap { try? Recipe(json: $0, registry: registry) }
            return (name, field("date") ?? "", field("revision").flatMap { Int($0) }, recipe)
        }
    }

    /// The sidecar of a photo with this metadata and (current) recipe;
    /// `unreadFormat` names the format of a current edit photoedit cannot read.
    /// `applied`: the sidecar goes beside the render, whose pixels already
    /// have the edit (see `PhotoLibrary.xmpSidecar(for:applied:)`).
    /// `snapshots` go in `photoedit:snapshots` (docs/xmp.md): Lightroom keeps
    /// its snapshots in its catalog only and darktable none, so they are in
    /// photoedit's namespace, each with its recipe (revision numbers mean
    /// nothing outside the library).
    init(asset: Asset, recipe: Recipe?, unreadFormat: String? = nil, applied: Bool = false, snapshots: [Snapshot] = []) {
        var attributes = ["xmp:Rating=\"\(asset.rating)\""]
        if let label = asset.colorLabel { attributes.append("xmp:Label=\"\(label.xmpLabel)\"") }
        var elements: [String] = []
        if !asset.keywords.isEmpty {
            var flat: [String] = []
            for keyword in asset.keywords { flat += Keyword.levels(keyword) }
            var seen = Set<String>()
            flat = flat.filter { seen.insert(Keyword.folded($0)).inserted }
            elements.append("<dc:subject><rdf:Bag>" + flat.map { "<rdf:li>\(Self.escaped($0))</rdf:li>" }.joined() + "</rdf:Bag></dc:subject>")
            elements.append("<lr:hierarchicalSubject><rdf:Bag>"
                            + asset.keywords.map { "<rdf:li>\(Self.escaped(Keyword.lightroom($0)))</rdf:li>" }.joined() + "</rdf:Bag></lr:hierarchicalSubject>")
        }
        for (name, text) in [("title", asset.title), ("description", asset.caption)] {
            if let text { elements.append("<dc:\(name)><rdf:Alt><rdf:li xml:lang=\"x-default\">\(Self.escaped(text))</rdf:li></rdf:Alt></dc:\(name)>") }
        }
        var notExported = unreadFormat.map { ["the current edit, in format \($0)"] } ?? []
        if let recipe {
            let crs = LightroomEquivalents(recipe: recipe, orientation: asset.orientation)
            notExported = crs.notExported
            // A render is upright; its settings are a record, marked as Lightroom marks its exports'.
            // The frame's size as stored, as Lightroom writes it: darktable places the crop with it.
            let turned = !applied && (5...8).contains(asset.orientation)
            let (w, h) = applied ? (asset.pixelWidth, asset.pixelHeight)
                : turned ? (asset.originalPixelHeight, asset.originalPixelWidth) : (asset.originalPixelWidth, asset.originalPixelHeight)
            attributes += ["tiff:Orientation=\"\(applied ? 1 : asset.orientation)\"", "tiff:ImageWidth=\"\(w)\"", "tiff:ImageLength=\"\(h)\"",
                           "crs:ProcessVersion=\"11.0\"", "crs:HasSettings=\"True\""]
            if applied { attributes.append("crs:AlreadyApplied=\"True\"") }
            attributes += crs.values.map { "crs:\($0.name)=\"\(Self.escaped($0.value))\"" }
            elements += crs.elements
            elements += crs.curves.map { curve in
                "<crs:\(curve.name)><rdf:Seq>" + curve.points.map { "<rdf:li>\($0)</rdf:li>" }.joined() + "</rdf:Seq></crs:\(curve.name)>"
            }
            if !applied {  // masks and spots, in the stored frame (a render's pixels already have them)
                let local = LightroomLocalCorrections.xmpElements(recipe: recipe, orientation: asset.orientation, storedSize: (w, h))
                (elements, notExported) = (elements + local.elements, notExported + local.notExported)
            }
            elements.append("<photoedit:recipe>\(Self.escaped(String(decoding: recipe.json.canonicalData, as: UTF8.self)))</photoedit:recipe>")
        }
        if !snapshots.isEmpty {
            let date = ISO8601DateFormatter()
            elements.append("<photoedit:snapshots><rdf:Seq>" + snapshots.map { s in
                "<rdf:li rdf:parseType=\"Resource\"><photoedit:name>\(Self.escaped(s.name))</photoedit:name>"
                    + "<photoedit:date>\(date.string(from: s.date))</photoedit:date><photoedit:revision>\(s.revision)</photoedit:revision>"
                    + (s.recipe.map { "<photoedit:recipe>\(Self.escaped(String(decoding: $0.json.canonicalData, as: UTF8.self)))</photoedit:recipe>" } ?? "")
                    + "</rdf:li>"
            }.joined() + "</rdf:Seq></photoedit:snapshots>")
        }
        let text = """
            <?xpacket begin="\u{FEFF}" id="W5M0MpCehiHzreSzNTczkc9d"?>
            <x:xmpmeta xmlns:x="adobe:ns:meta/" x:xmptk="photoedit">
             <rdf:RDF xmlns:rdf="\(XMPPacket.rdf)">
              <rdf:Description rdf:about=""
                xmlns:xmp="\(XMPPacket.xmp)" xmlns:dc="\(XMPPacket.dc)" xmlns:lr="\(XMPPacket.lightroom)"
                xmlns:tiff="\(LightroomSettings.tiff)" xmlns:crs="\(LightroomSettings.namespace)" xmlns:photoedit="\(Self.namespace)"
                \(attributes.joined(separator: "\n    "))>
               \(elements.joined(separator: "\n   "))
              </rdf:Description>
             </rdf:RDF>
            </x:xmpmeta>
            <?xpacket end="w"?>

            """
        data = Data(text.utf8)
        self.notExported = notExported
    }
}
