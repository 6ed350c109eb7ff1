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
                switch p.text("wb") {
                case "auto": values.append(("WhiteBalance", "Auto"))
                case "kelvin":
                    values.append(("WhiteBalance", "Custom"))
                    add("Temperature", p.number("temperature"), signed: false)
                    add("Tint", p.number("tint"))
                case "custom": notExported.append("raw.wb custom multipliers")
                default: values.append(("WhiteBalance", "As Shot"))
                }
                let rest = ["highlights", "demosaic", "exposure", "preserve", "black", "white", "denoise"]
                    .filter { p[$0] != Filters.raw.defaults[$0] }
                if !rest.isEmpty { notExported.append("raw " + rest.joined(separator: ", ")) }
            case "temperature": add("IncrementalTemperature", p.number("amount"))
            case "tint": add("IncrementalTint", p.number("amount"))
            case "exposure": add("Exposure2012", p.number("ev"))
            case "contrast": add("Contrast2012", p.number("amount"))
            case "highlights": add("Highlights2012", p.number("amount"))
            case "shadows": add("Shadows2012", p.number("amount"))
            case "whites": add("Whites2012", p.number("amount"))
            case "blacks": add("Blacks2012", p.number("amount"))
            case "vibrance":
                add("Vibrance", p.number("amount"))
                if !p.bool("spare_skin") { notExported.append("vibrance spare_skin=false") }
            case "saturation": add("Saturation", p.number("amount"))
            case "hsl":
                for (band, range) in LightroomSettings.bands.sorted(by: { $0.key < $1.key }) {
                    for (prefix, suffix) in [("HueAdjustment", "h"), ("SaturationAdjustment", "s"), ("LuminanceAdjustment", "l")] {
                        let v = p.number("\(range)_\(suffix)")
                        if v != 0 { add(prefix + band, v) }
                    }
                }
            case "curve":
                let names = ["rgb": "ToneCurvePV2012", "red": "ToneCurvePV2012Red", "green": "ToneCurvePV2012Green", "blue": "ToneCurvePV2012Blue"]
                // Lightroom (and darktable) read whole 0…255 steps: points off that grid move by at most 0.5 / 255.
                func points(_ prefix: String) -> [String] {
                    (1...Int(p.number(prefix + "n"))).map {
                        "\(Int((p.number("\(prefix)x\($0)") * 255).rounded())), \(Int((p.number("\(prefix)y\($0)") * 255).rounded()))"
                    }
                }
                let main = Filters.curvePoints(p, prefix: "")
                if let name = names[p.text("channel")] {
                    if !Filters.isIdentityCurve(main) { curves.append((name, points(""))) }
                } else if !Filters.isIdentityCurve(main) {
                    notExported.append("curve on the luminance")
                }
                // Version 2's channel curves: Lightroom's own channel curves.
                for channel in Filters.curveChannels where p[channel + "_n"] != nil {
                    guard !Filters.isIdentityCurve(Filters.curvePoints(p, prefix: channel + "_")) else { continue }
                    let name = names[channel]!
                    if curves.contains(where: { $0.name == name }) {
                        notExported.append("curve.\(channel) (the main curve is on the \(channel) channel)")
                    } else {
                        curves.append((name, points(channel + "_")))
                    }
                }
            case "crop":
                guard p.text("mode") == "rect" else { notExported.append("crop \(p.text("mode"))"); continue }
                let (x, y, w, h) = (p.number("x"), p.number("y"), p.number("w"), p.number("h"))
                let stored = LightroomSettings.stored(x: x, y: y, w: w, h: h, orientation: orientation)
                values.append(("HasCrop", "True"))
                add("CropLeft", stored.left, signed: false)
                add("CropTop", stored.top, signed: false)
                add("CropRight", stored.right, signed: false)
                add("CropBottom", stored.bottom, signed: false)
            case "straighten":
                let angle = p.number("angle")
                add("CropAngle", [2, 4, 5, 7].contains(orientation) ? -angle : angle)
                if recipe.node("crop") == nil { values.append(("HasCrop", "True")) }
            case "sharpen":
                add("Sharpness", clamped(p.number("amount"), 0...150, "sharpen amount"), signed: false)
                add("SharpenRadius", clamped(p.number("radius"), 0.5...3, "sharpen radius"))
                add("SharpenEdgeMasking", clamped(p.number("threshold") * 5, 0...100, "sharpen threshold×5"), signed: false)
                // Version 2's detail (read back by translation 7); version 1 is detail 100.
                if case .number(let detail)? = p.values["detail"] { add("SharpenDetail", detail, signed: false) } else { add("SharpenDetail", 100, signed: false) }
            case "vignette":
                add("PostCropVignetteAmount", p.number("amount"))
                add("PostCropVignetteMidpoint", p.number("midpoint"), signed: false)
                add("PostCropVignetteRoundness", p.number("roundness"))
                add("PostCropVignetteFeather", p.number("feather"), signed: false)
            case "grain":
                add("GrainAmount", p.number("amount"), signed: false)
                add("GrainSize", clamped((p.number("size") - 1) / 0.09, 0...100, "grain size (as Lightroom's 0…100)"), signed: false)
                add("GrainFrequency", p.number("roughness"), signed: false)
                if p.number("seed") != 0 { notExported.append("grain seed") }
            case "calibration":
                for (primary, name) in [("Red", "red"), ("Green", "green"), ("Blue", "blue")] {
                    add(primary + "Hue", p.number(name + "_hue"))
                    add(primary + "Saturation", p.number(name + "_sat"))
                }
                add("ShadowTint", p.number("shadow_tint"))
            case "denoise":
                // Lightroom's manual noise reduction, the same scales (read back by translation 6).
                add("LuminanceSmoothing", p.number("luma"), signed: false)
                add("LuminanceNoiseReductionDetail", p.number("luma_detail"), signed: false)
                add("LuminanceNoiseReductionContrast", p.number("luma_contrast"), signed: false)
                add("ColorNoiseReduction", p.number("chroma"), signed: false)
                add("ColorNoiseReductionDetail", p.number("chroma_detail"), signed: false)
                add("ColorNoiseReductionSmoothness", p.number("chroma_smoothness"), signed: false)
                if p.text("source") == "estimate" { notExported.append("denoise source estimate (Lightroom reads the camera's noise itself)") }
            case "noise" where recipe.node("denoise") != nil:
                notExported.append("noise (with denoise: Lightroom has one noise reduction)")
            case "noise":
                add("LuminanceSmoothing", p.number("strength"), signed: false)
                if p.number("chroma") > 0 { add("ColorNoiseReduction", 25 + p.number("chroma") * 0.75, signed: false) }
                if p["radius"] != Filters.noise.defaults["radius"] { notExported.append("noise radius") }
            case "mono":
                guard p.number("amount") == 100 else { notExported.append("mono \(JSONValue.format(p.number("amount"))) % (Lightroom's is all or nothing)"); continue }
                values.append(("ConvertToGrayscale", "True"))
                for (name, weight, rec709) in [("GrayMixerRed", p.number("red"), 0.2126), ("GrayMixerGreen", p.number("green"), 0.7152),
                                               ("GrayMixerBlue", p.number("blue"), 0.0722)] {
                    add(name, clamped((weight / rec709 - 1) * 100, -200...200, name))
                }
            case "splittone":
                add("SplitToningShadowHue", p.number("shadow_hue"), signed: false)
                add("SplitToningShadowSaturation", p.number("shadow_sat"), signed: false)
                add("SplitToningHighlightHue", p.number("high_hue"), signed: false)
                add("SplitToningHighlightSaturation", p.number("high_sat"), signed: false)
                add("SplitToningBalance", p.number("balance"))
            case "clarity":
                add("Clarity2012", p.number("amount"))
                if p["radius"] != Filters.clarity.defaults["radius"] { notExported.append("clarity radius") }
            case "texture":
                add("Texture", p.number("amount"))
                if p["radius"] != Filters.texture.defaults["radius"] { notExported.append("texture radius") }
            case "dehaze": add("Dehaze", p.number("strength"))
            case "perspective":
                // Lightroom's Vertical is ours negated (docs/xmp.md); the rest keep their sign.
                add("PerspectiveVertical", 0 - p.number("vertical"))
                add("PerspectiveHorizontal", p.number("horizontal"))
                add("PerspectiveRotate", p.number("rotate"))
                add("PerspectiveScale", p.number("scale"), signed: false)
                add("PerspectiveAspect", p.number("aspect"))
                add("PerspectiveX", p.number("x"))
                add("PerspectiveY", p.number("y"))
            case "ca":
                // Remove Chromatic Aberration (translation 7 reads it back as `ca` auto when no lens is known).
                if p.text("mode") == "auto" {
                    if !values.contains(where: { $0.name == "AutoLateralCA" }) { values.append(("AutoLateralCA", "1")) }
                } else if p.number("red") != 0 || p.number("blue") != 0 {
                    notExported.append("ca red, blue (Lightroom's chromatic aberration correction has no manual scales)")
                }
            case "defringe":
                // Lightroom's Defringe, the same scales (read back by translation 7).
                for (colour, name) in [("Purple", "purple"), ("Green", "green")] where p.number(name) > 0 {
                    add("Defringe\(colour)Amount", p.number(name), signed: false)
                    add("Defringe\(colour)HueLo", p.number(name + "_lo"), signed: false)
                    add("Defringe\(colour)HueHi", p.number(name + "_hi"), signed: false)
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
        let profile = !p.text("lens").isEmpty && (p.number("distortion") > 0 || p.number("vignetting") > 0)
        if profile {
            values.append(("LensProfileEnable", "1"))
            values.append(("LensProfileName", p.text("lens")))
            values.append(("LensProfileDistortionScale", JSONValue.format(p.number("distortion"))))
            values.append(("LensProfileVignettingScale", JSONValue.format(p.number("vignetting"))))
        }
        if !p.text("lens").isEmpty && p.number("tca") > 0 && !values.contains(where: { $0.name == "AutoLateralCA" }) {
            values.append(("AutoLateralCA", "1"))
            values.append(("LensProfileChromaticAberrationScale", JSONValue.format(p.number("tca"))))
        }
        if p.number("manual") != 0 { values.append(("LensManualDistortionAmount", LightroomSettings.describe(p.number("manual")))) }
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
