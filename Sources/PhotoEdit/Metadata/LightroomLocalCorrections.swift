import Foundation

/// Lightroom / Camera Raw local corrections and spots read from an XMP
/// packet: the masks of `crs:GradientBasedCorrections`,
/// `crs:CircularGradientBasedCorrections`, `crs:PaintBasedCorrections` and
/// Lightroom 11+ `crs:MaskGroupBasedCorrections` as `LocalCorrection`s, and
/// `crs:RetouchAreas` (or the older `crs:RetouchInfo`) as `RetouchSpot`s;
/// and the inverse, for `export --xmp`. docs/xmp.md ("Masks and spots")
/// gives every scale and says which are inferred.
///
/// Lightroom stores positions in the frame of the image as stored (before
/// `tiff:Orientation`), normalised per axis; photoedit's masks are drawn on
/// the upright photo, so every point, radius and angle is turned through the
/// orientation.
public enum LightroomLocalCorrections {
    /// What a packet's local corrections translate to.
    public struct Reading: Sendable, Hashable {
        /// The corrections photoedit can rebuild, in Lightroom's order.
        public var corrections: [LocalCorrection] = []
        /// The healing and cloning spots.
        public var spots: [RetouchSpot] = []
        /// What is set and not rebuilt, one text each (`MaskGroupBasedCorrections 2: Mask/Image (AI mask: subject)`).
        public var unmapped: [String] = []
    }

    /// The `crs:` properties read here (never listed as unmapped structures by the caller).
    public static let properties: Set<String> = [
        "GradientBasedCorrections", "CircularGradientBasedCorrections", "PaintBasedCorrections", "MaskGroupBasedCorrections",
        "RetouchAreas", "RetouchInfo",
    ]

    /// Lightroom's amounts and photoedit's: the local adjustment and the
    /// factor from Lightroom's stored value (exposure is stored as EV/4, the
    /// other sliders as slider/100).
    static let amountScales: [(name: String, kind: LocalAdjustment, scale: Double)] = [
        ("LocalExposure2012", .exposure, 4), ("LocalContrast2012", .contrast, 100), ("LocalHighlights2012", .highlights, 100),
        ("LocalShadows2012", .shadows, 100), ("LocalWhites2012", .whites, 100), ("LocalBlacks2012", .blacks, 100),
        ("LocalTemperature", .temperature, 100), ("LocalTint", .tint, 100), ("LocalSaturation", .saturation, 100),
        ("LocalSharpness", .sharpness, 100), ("LocalLuminanceNoise", .noise, 100), ("LocalHue", .hue, 180),
        ("LocalClarity2012", .clarity, 100), ("LocalDehaze", .dehaze, 100), ("LocalTexture", .texture, 100),
    ]

    /// Process 2010's amounts (Lightroom 3), read when the 2012 one of the
    /// same adjustment is not set; never written. Scales as their 2012
    /// successors' (inferred: the 2010 sliders had the same ranges).
    static let amountScales2010: [(name: String, kind: LocalAdjustment, scale: Double)] = [
        ("LocalExposure", .exposure, 4), ("LocalContrast", .contrast, 100), ("LocalClarity", .clarity, 100),
    ]

    /// The amounts translation version 3 added (local clarity, dehaze and
    /// texture; process 2010's): before it they were listed, and revisions
    /// translated then keep rendering without them.
    static let amountsSince3: Set<String> = ["LocalClarity2012", "LocalDehaze", "LocalTexture", "LocalExposure", "LocalContrast", "LocalClarity"]

    /// The local colour swatch's hue (`LocalToningHue`, 0…360 °, Lightroom's
    /// picker: 0 red, 60 yellow, 240 blue, 300 magenta) onto the two axes of
    /// a colour shift: temperature towards yellow (60 °; its opposite, blue),
    /// tint towards magenta (330 °; green opposite) — inferred, Adobe
    /// publishes no model of its colour overlay.
    static let toningAxes: [(LocalAdjustment, Double)] = [(.temperature, 60), (.tint, 330)]
    /// The shift of a saturation of 1 (the swatch's most) along its hue, in the local temperature/tint units.
    static let toningScale = 100.0

    /// Amounts Lightroom sets that photoedit's local corrections have no equivalent of.
    static let unmappedAmounts = [
        "LocalToningHue", "LocalToningSaturation", "LocalMoire", "LocalDefringe", "LocalGrain", "LocalBrightness",
    ]

    /// Reads the local corrections and spots of `packet`, whose positions are
    /// in the frame stored before EXIF `orientation` (1…8). `storedSize`, the
    /// image's pixel size as stored, converts brush and spot radii (Lightroom
    /// measures them on the long side); without it the packet's
    /// `tiff:ImageWidth`/`ImageLength` are used, else 3:2.
    /// Throws for a value that is not a finite number where one is required
    /// (a packet is used whole or not at all); a mask it cannot rebuild is
    /// left out and named in `unmapped`. `translation` is the Lightroom
    /// translation version (``LightroomSettings/translationVersion``) the
    /// revision was made with: range masks and the amounts of
    /// ``amountsSince3`` are read from version 3 on, so an older revision
    /// renders as it did.
    static func read(_ packet: XMPPacket, orientation: Int, storedSize: (width: Int, height: Int)? = nil,
                     translation: Int = LightroomSettings.translationVersion) throws(XMPProblem) -> Reading {
        var out = Reading()
        var frame = Frame(orientation: orientation, size: storedSize ?? packetSize(packet))
        frame.translation = translation
        for list in ["GradientBasedCorrections", "CircularGradientBasedCorrections", "PaintBasedCorrections", "MaskGroupBasedCorrections"] {
            guard let element = packet.elements[XMPPacket.Name(namespace: LightroomSettings.namespace, local: list)] else { continue }
            for (i, item) in items(element).enumerated() {
                let what = "\(list) \(i + 1)"
                let fields = record(item)
                switch try correction(fields, what, frame: frame) {
                case .success(let c):
                    guard out.corrections.count < MaskLimits.corrections else {
                        out.unmapped.append("\(what) (more than \(MaskLimits.corrections) corrections)")
                        continue
                    }
                    out.corrections.append(c.correction)
                    out.unmapped += c.unmapped.map { "\(what): \($0)" }
                case .failure(let reason): out.unmapped.append("\(what): \(reason.text)")
                }
            }
        }
        if let element = packet.elements[XMPPacket.Name(namespace: LightroomSettings.namespace, local: "RetouchAreas")] {
            for (i, item) in items(element).enumerated() {
                switch try retouchArea(record(item), frame: frame) {
                case .success(let s) where out.spots.count < MaskLimits.spots: out.spots.append(s)
                case .success: out.unmapped.append("RetouchAreas \(i + 1) (more than \(MaskLimits.spots) spots)")
                case .failure(let reason): out.unmapped.append("RetouchAreas \(i + 1): \(reason.text)")
                }
            }
        } else if let element = packet.elements[XMPPacket.Name(namespace: LightroomSettings.namespace, local: "RetouchInfo")] {
            for (i, item) in items(element).enumerated() {
                switch try retouchInfo(item.text, frame: frame) {
                case .success(let s) where out.spots.count < MaskLimits.spots: out.spots.append(s)
                case .success: out.unmapped.append("RetouchInfo \(i + 1) (more than \(MaskLimits.spots) spots)")
                case .failure(let reason): out.unmapped.append("RetouchInfo \(i + 1): \(reason.text)")
                }
            }
        }
        return out
    }

    /// Reads a packet's bytes (`read(_:orientation:storedSize:)`).
    public static func read(packet data: Data, orientation: Int, storedSize: (width: Int, height: Int)? = nil) throws(XMPProblem) -> Reading {
        guard data.count <= LightroomSettings.maxPacketBytes else {
            throw XMPProblem("larger than \(LightroomSettings.maxPacketBytes >> 20) MiB, the most kept as develop settings")
        }
        return try read(XMPPacket(data: data), orientation: orientation, storedSize: storedSize)
    }

    static func packetSize(_ packet: XMPPacket) -> (width: Int, height: Int)? {
        guard let w = packet.value(LightroomSettings.tiff, "ImageWidth")?.defaultText.flatMap({ Int($0.trimmingCharacters(in: .whitespaces)) }),
              let h = packet.value(LightroomSettings.tiff, "ImageLength")?.defaultText.flatMap({ Int($0.trimmingCharacters(in: .whitespaces)) }),
              (1...1_000_000).contains(w), (1...1_000_000).contains(h) else { return nil }
        return (w, h)
    }

    /// Why a mask or spot is not rebuilt.
    struct Skip: Error {
        let text: String
        init(_ text: String) { self.text = text }
    }

    // MARK: The packet's nested values

    /// A structure's fields: simple values as text, nested lists and structures as elements.
    struct Record {
        var text: [String: String] = [:]
        var nested: [String: TreeBuilder.Node] = [:]

        /// A finite number, nil when absent; throws when set and not a number.
        func number(_ name: String, _ what: String) throws(XMPProblem) -> Double? {
            guard let t = text[name] else { return nil }
            guard let v = LightroomSettings.parseNumber(t.trimmingCharacters(in: .whitespacesAndNewlines)) else {
                throw XMPProblem("\(what): crs:\(name) is not a finite number")
            }
            return v
        }

        func flag(_ name: String) -> Bool? {
            switch text[name]?.trimmingCharacters(in: .whitespaces).lowercased() {
            case "true", "1": return true
            case "false", "0": return false
            default: return nil
            }
        }
    }

    /// The `rdf:li` items of a list property (`rdf:Seq`, `Bag`, `Alt`).
    static func items(_ node: TreeBuilder.Node) -> [TreeBuilder.Node] {
        guard let container = node.children.first(where: { $0.namespace == XMPPacket.rdf && ["Seq", "Bag", "Alt"].contains($0.name) }) else { return [] }
        return container.children.filter { $0.namespace == XMPPacket.rdf && $0.name == "li" }
    }

    /// The `crs:` fields of a structure in any of XMP's shapes: attributes of
    /// the item, of an `rdf:Description` inside it, and property elements
    /// (`rdf:parseType="Resource"`). The tree is already bounded in depth
    /// and size by the packet's limits.
    static func record(_ node: TreeBuilder.Node) -> Record {
        var out = Record()
        var holders = [node]
        holders += node.children.filter { $0.namespace == XMPPacket.rdf && $0.name == "Description" }
        for holder in holders {
            for a in holder.attributes where a.namespace == LightroomSettings.namespace && out.text[a.name] == nil {
                out.text[a.name] = a.value
            }
            for child in holder.children where child.namespace == LightroomSettings.namespace {
                if child.children.isEmpty && !child.attributes.contains(where: { $0.namespace == LightroomSettings.namespace }) {
                    if out.text[child.name] == nil { out.text[child.name] = child.text }
                } else if out.nested[child.name] == nil {
                    out.nested[child.name] = child
                }
            }
        }
        return out
    }

    /// The structures of a nested list field (`CorrectionMasks`, `Masks`), or
    /// a single nested structure as a list of one.
    static func records(_ node: TreeBuilder.Node?) -> [Record] {
        guard let node else { return [] }
        let list = items(node)
        return list.isEmpty ? [record(node)] : list.map(record)
    }

    // MARK: Frames

    /// The stored frame and its orientation.
    struct Frame {
        let orientation: Int
        /// Stored width and height in pixels (3:2 when unknown).
        let width: Double
        let height: Double
        /// The Lightroom translation version read with (what is read depends on it).
        var translation = LightroomSettings.translationVersion

        init(orientation: Int, size: (width: Int, height: Int)?) {
            self.orientation = (1...8).contains(orientation) ? orientation : 1
            width = Double(size?.width ?? 3)
            height = Double(size?.height ?? 2)
        }

        /// The axes swap (orientations 5…8).
        var turned: Bool { orientation >= 5 }
        /// The orientation mirrors (angles turn the other way).
        var mirrored: Bool { [2, 4, 5, 7].contains(orientation) }

        /// A stored point in the upright frame.
        func upright(_ x: Double, _ y: Double) -> MaskPoint {
            let (u, v, _, _) = LightroomSettings.upright(left: x, top: y, right: x, bottom: y, orientation: orientation)
            return MaskPoint(x: u, y: v)
        }

        /// An upright point in the stored frame.
        func stored(_ p: MaskPoint) -> (x: Double, y: Double) {
            let s = LightroomSettings.stored(x: p.x, y: p.y, w: 0, h: 0, orientation: orientation)
            return (s.left, s.top)
        }

        /// Pixels of the long side over pixels of the upright width and height.
        var longOverUpright: (x: Double, y: Double) {
            let long = max(width, height)
            return turned ? (long / height, long / width) : (long / width, long / height)
        }
    }

    // MARK: Corrections

    /// A correction read (and what of it is approximated), or why it is not rebuilt.
    static func correction(_ fields: Record, _ what: String, frame: Frame) throws(XMPProblem) -> Result<(correction: LocalCorrection, unmapped: [String]), Skip> {
        let scale = try fields.number("CorrectionAmount", what) ?? 1
        guard (0...2).contains(scale) else { throw XMPProblem("\(what): crs:CorrectionAmount is not a number from 0 to 2") }
        var amounts: [LocalAdjustment: Double] = [:]
        var notes: [String] = []
        // Process 2010's amounts count where the 2012 one of the same adjustment is not set.
        let since3 = frame.translation >= 3
        for (name, kind, factor) in amountScales + amountScales2010 where amounts[kind] == nil && (since3 || !amountsSince3.contains(name)) {
            guard let v = try fields.number(name, what), v != 0 else { continue }
            guard (-10...10).contains(v) else { throw XMPProblem("\(what): crs:\(name) is not a number from -10 to 10") }
            let value = JSONValue.canonicalNumber(v * factor * scale)
            guard kind.range.contains(value) else {
                notes.append("\(name) \(LightroomSettings.describe(v)) (outside photoedit's \(kind.rawValue) range)")
                continue
            }
            amounts[kind] = value
        }
        // The colour swatch (translation 9): its hue and saturation as the local
        // temperature (yellow–blue) and tint (magenta–green) it moves towards; a
        // hue without saturation changes nothing.
        var unmapped = unmappedAmounts + (since3 ? [] : amountsSince3.sorted())
        if frame.translation >= LightroomSettings.lookSpacesSince {
            unmapped.removeAll { $0 == "LocalToningHue" || $0 == "LocalToningSaturation" }
            if let saturation = try fields.number("LocalToningSaturation", what), saturation != 0 {
                guard (0...1).contains(saturation) else { throw XMPProblem("\(what): crs:LocalToningSaturation is not a number from 0 to 1") }
                let hue = try fields.number("LocalToningHue", what) ?? 0
                for (kind, direction) in Self.toningAxes {
                    let shift = saturation * scale * Self.toningScale * Foundation.cos((hue - direction) * .pi / 180)
                    amounts[kind] = JSONValue.canonicalNumber(min(max((amounts[kind] ?? 0) + shift, kind.range.lowerBound), kind.range.upperBound))
                }
            }
        }
        for name in unmapped {
            if let v = try fields.number(name, what), v != 0 { notes.append("\(name) \(LightroomSettings.describe(v))") }
        }
        var components: [MaskComponent] = []
        var inverted = false
        let masks = records(fields.nested["CorrectionMasks"])
        guard !masks.isEmpty else { return .failure(Skip("no mask")) }
        for (i, mask) in masks.enumerated() {
            switch try component(mask, "\(what) mask \(i + 1)", frame: frame, first: components.isEmpty) {
            case .failure(let skip): return .failure(skip)
            case .success(let c):
                guard let c else { continue }
                // A paint component after a paint component of the same mode: one brush, strokes in order.
                if case .brush(let more) = c.component.shape, let last = components.last, case .brush(let strokes) = last.shape,
                   last.mode == c.component.mode {
                    components[components.count - 1].shape = .brush(strokes + more)
                } else {
                    components.append(c.component)
                }
                inverted = inverted || c.invertAll
            }
        }
        guard !components.isEmpty else { return .failure(Skip("no mask")) }
        // Lightroom 7–10: a range mask of the whole correction, intersected with its shapes.
        if since3, let rangeNode = fields.nested["CorrectionRangeMask"] {
            switch try legacyRange(record(rangeNode), "\(what) CorrectionRangeMask") {
            case .failure(let skip): return .failure(skip)
            case .success(let range?): components.append(MaskComponent(range, mode: .intersect))
            case .success(nil): break
            }
        }
        if inverted && components.count > 1 { return .failure(Skip("an inverted brush combined with other masks")) }
        guard components.count <= MaskLimits.componentsPerMask else { return .failure(Skip("more than \(MaskLimits.componentsPerMask) mask components")) }
        let correction = LocalCorrection(mask: Mask(components, inverted: inverted), amounts: amounts,
                                         enabled: fields.flag("CorrectionActive") ?? true)
        do {
            let checked = try correction.validated("mask")
            guard checked.mask.pointCount <= MaskLimits.pointsPerRecipe else { return .failure(Skip("more than \(MaskLimits.pointsPerRecipe) brush points")) }
            return .success((checked, notes))
        } catch let problem as MaskProblem {
            return .failure(Skip(problem.message))
        } catch {
            return .failure(Skip("not valid"))
        }
    }

    /// One mask component: the shape, how it combines (`MaskBlendMode` 0
    /// add, 1 subtract: Lightroom writes "intersect with B" as "subtract
    /// the inverse of B", which is read literally: m × B), and
    /// whether it inverts the whole mask (an inverted first component that
    /// cannot turn itself inside out). Nil: a component with no effect (inactive).
    static func component(_ m: Record, _ what: String, frame: Frame, first: Bool) throws(XMPProblem)
        -> Result<(component: MaskComponent, invertAll: Bool)?, Skip> {
        if m.flag("MaskActive") == false { return .success(nil) }
        let kind = m.text["What"]?.trimmingCharacters(in: .whitespaces) ?? ""
        let invertedFlag = m.flag("MaskInverted") ?? false
        var mode = MaskMode.add
        var invert = invertedFlag
        switch m.text["MaskBlendMode"]?.trimmingCharacters(in: .whitespaces) ?? "0" {
        case "0": break
        case "1": mode = .subtract
        case let other: return .failure(Skip("MaskBlendMode \(other.prefix(8)) is not add, subtract or intersect"))
        }
        func number(_ name: String) throws(XMPProblem) -> Double? { try m.number(name, what) }
        func required(_ name: String) throws(XMPProblem) -> Double {
            guard let v = try number(name) else { throw XMPProblem("\(what): \(kind) has no crs:\(name)") }
            return v
        }
        let shape: MaskShape
        switch kind {
        case "Mask/Gradient":
            var zero = frame.upright(try required("ZeroX"), try required("ZeroY"))
            var full = frame.upright(try required("FullX"), try required("FullY"))
            // 1 − smoothstep(t) is smoothstep(1 − t): an inverted ramp runs the other way.
            if invert { (zero, full) = (full, zero); invert = false }
            shape = .linear(LinearGradient(zero: zero, full: full))
        case "Mask/CircularGradient":
            let (top, left, bottom, right) = (try required("Top"), try required("Left"), try required("Bottom"), try required("Right"))
            guard right > left, bottom > top else { throw XMPProblem("\(what): Mask/CircularGradient's Right/Bottom are not beyond Left/Top") }
            let angle = try number("Angle") ?? 0
            guard (-360...360).contains(angle) else { throw XMPProblem("\(what): crs:Angle is not a number from -360 to 360") }
            let (rx, ry) = ((right - left) / 2, (bottom - top) / 2)
            // Flipped (true: the effect inside) is the shape's polarity; Lightroom 11+
            // writes MaskInverted as its mirror (!Flipped), so it is not applied again.
            let inside = m.flag("Flipped") ?? !invertedFlag
            invert = false
            shape = .radial(RadialGradient(
                centre: frame.upright((left + right) / 2, (top + bottom) / 2),
                radiusX: frame.turned ? ry : rx, radiusY: frame.turned ? rx : ry,
                angle: frame.mirrored ? -angle : angle,
                roundness: min(max((try number("Roundness") ?? 0) / 100, -1), 1),
                feather: min(max((try number("Feather") ?? 50) / 100, 0), 1),
                inside: inside))
        case "Mask/Paint":
            // MaskValue 0 is an eraser among added strokes; a subtracted component writes it too (and is no eraser).
            guard let strokes = try paint(m, what, frame: frame, eraser: mode == .add) else { return .success(nil) }
            shape = .brush(strokes)
        case "Mask/Aggregate", "Mask/Group":
            // A brush drawn in several strokes: its parts in `Masks`.
            var strokes: [BrushStroke] = []
            for part in records(m.nested["Masks"]) {
                guard part.text["What"]?.trimmingCharacters(in: .whitespaces) == "Mask/Paint" else {
                    return .failure(Skip("\(kind) holding \(part.text["What"]?.prefix(40) ?? "?")"))
                }
                if let s = try paint(part, what, frame: frame, eraser: true) { strokes += s }
                guard strokes.count <= MaskLimits.strokesPerBrush else { return .failure(Skip("more than \(MaskLimits.strokesPerBrush) brush strokes")) }
            }
            guard !strokes.isEmpty else { return .success(nil) }
            shape = .brush(strokes)
        case "Mask/Image":
            let sub = m.text["MaskSubType"].map { $0.trimmingCharacters(in: .whitespaces) }
            let names = ["0": "object, background, people part or landscape class", "1": "subject", "2": "sky", "3": "people"]
            return .failure(Skip("Mask/Image (AI mask: \(sub.flatMap { names[$0] } ?? "unknown kind"); computed by Lightroom, not rebuilt)"))
        case "Mask/RangeMask":
            guard frame.translation >= 3 else { return .failure(Skip("Mask/RangeMask (colour, luminance or depth range)")) }
            // Lightroom 11+: the range in a CorrectionRangeMask child (or on the component itself).
            let range = m.nested["CorrectionRangeMask"].map(record) ?? m
            switch try rangeShape(range, what) {
            case .failure(let skip): return .failure(skip)
            case .success(let r):
                shape = r.shape
                if r.inverted { invert.toggle() }
            }
        default:
            let printable = kind.count <= 40 && kind.unicodeScalars.allSatisfy { $0.value >= 0x20 && $0.value < 0x7F }
            return .failure(Skip("\(printable ? kind : "a mask kind") is not rebuilt"))
        }
        // An inversion the shape could not take (a brush): subtracting an
        // inverted brush is intersecting with it; an inverted first component
        // inverts the whole mask (as far as the components after it allow).
        var invertAll = false
        if invert {
            if mode == .subtract { mode = .intersect } else if first { invertAll = true } else {
                return .failure(Skip("an inverted brush added to other masks"))
            }
        }
        return .success((MaskComponent(shape, mode: mode), invertAll))
    }

    /// A Lightroom 11+ range (`CorrectionRangeMask`): `Type` 2 is a
    /// luminance range, `LumRange` "a b c d" a trapezoid on lightness 0…1
    /// (0 below a, rising to 1 at b, 1 to c, 0 at d), read as low b, high c
    /// and the mean of its two ramps as the feather (a ramp against 0 or 1
    /// does not count); `Invert` inverts it. Colour (1) and depth (3) ranges
    /// are not rebuilt: their sample model is not published.
    static func rangeShape(_ r: Record, _ what: String) throws(XMPProblem) -> Result<(shape: MaskShape, inverted: Bool), Skip> {
        guard let type = r.text["Type"]?.trimmingCharacters(in: .whitespaces) ?? (r.text["LumRange"] != nil ? "2" : nil) else {
            return .failure(Skip("Mask/RangeMask (no range type)"))
        }
        switch type {
        case "2":
            if r.text["LumRange"] == nil, r.text["LumMin"] != nil || r.text["LumMax"] != nil {
                guard case .success(let shape?) = try legacyRange(r, what) else { return .failure(Skip("Mask/RangeMask (luminance range without values)")) }
                return .success((shape, r.flag("Invert") ?? false))
            }
            guard r.text["LumRange"] != nil else { return .failure(Skip("Mask/RangeMask (a luminance range without LumRange)")) }
            let values = (r.text["LumRange"] ?? "").split(whereSeparator: \.isWhitespace).compactMap { LightroomSettings.parseNumber(String($0)) }
            guard values.count == 4, values.allSatisfy({ (0...1).contains($0) }), values[0] <= values[1], values[1] <= values[2], values[2] <= values[3] else {
                throw XMPProblem("\(what): crs:LumRange is not four rising numbers from 0 to 1")
            }
            let (a, b, c, d) = (values[0], values[1], values[2], values[3])
            var ramps: [Double] = []
            if b > 0 { ramps.append(b - a) }
            if c < 1 { ramps.append(d - c) }
            let feather = ramps.isEmpty ? 0.1 : ramps.reduce(0, +) / Double(ramps.count)
            return .success((.luminance(LuminanceRange(low: b, high: c, feather: JSONValue.canonicalNumber(feather))), r.flag("Invert") ?? false))
        case "1": return .failure(Skip("Mask/RangeMask (colour range: Lightroom's colour samples are not rebuilt)"))
        case "3": return .failure(Skip("Mask/RangeMask (depth range: needs Lightroom's depth map)"))
        default: return .failure(Skip("Mask/RangeMask (range type \(type.prefix(8)))"))
        }
    }

    /// A Lightroom 7–10 range mask of a whole correction: `Type` 0 none, 2
    /// luminance from `LumMin` to `LumMax` with smoothness `LumFeather`
    /// (0…1; read as a feather of 0.2 × smoothness: inferred), 1 colour and 3
    /// depth not rebuilt (the correction is left out).
    static func legacyRange(_ r: Record, _ what: String) throws(XMPProblem) -> Result<MaskShape?, Skip> {
        let type = r.text["Type"]?.trimmingCharacters(in: .whitespaces) ?? "0"
        switch type {
        case "0": return .success(nil)
        case "2":
            let low = try r.number("LumMin", what) ?? 0, high = try r.number("LumMax", what) ?? 1
            let smooth = try r.number("LumFeather", what) ?? 0.5
            guard (0...1).contains(low), (0...1).contains(high), low <= high, (0...1).contains(smooth) else {
                throw XMPProblem("\(what): crs:LumMin, LumMax or LumFeather is not from 0 to 1 (min ≤ max)")
            }
            // An inverted range of a whole correction is not one trapezoid.
            if r.flag("Invert") == true { return .failure(Skip("an inverted luminance range")) }
            return .success(.luminance(LuminanceRange(low: low, high: high, feather: JSONValue.canonicalNumber(0.2 * smooth))))
        case "1": return .failure(Skip("a colour range mask (Lightroom's colour samples are not rebuilt)"))
        case "3": return .failure(Skip("a depth range mask (needs Lightroom's depth map)"))
        default: return .failure(Skip("range mask type \(type.prefix(8))"))
        }
    }

    /// A `Mask/Paint`'s dabs as strokes: `d x y` a dab (`M x y` starts a new
    /// stroke), radius on the stored width, `Flow` 0…1, `CenterWeight` the
    /// hard core (feather = 1 − CenterWeight), `MaskValue` 0 an eraser.
    /// Dabs nearer than a quarter radius to the last one kept add nothing
    /// and are dropped (a 100 000-dab stroke stays a polyline).
    static func paint(_ m: Record, _ what: String, frame: Frame, eraser: Bool) throws(XMPProblem) -> [BrushStroke]? {
        guard let r = try m.number("Radius", what), r > 0, r <= 1 else { throw XMPProblem("\(what): Mask/Paint's crs:Radius is not a number from 0 to 1") }
        let flow = min(max(try m.number("Flow", what) ?? 1, 0.001), 1)
        let feather = 1 - min(max(try m.number("CenterWeight", what) ?? 0, 0), 1)
        let value = try m.number("MaskValue", what) ?? 1
        let erase = eraser && value == 0
        // Radius × stored width in pixels, as a fraction of the shorter side.
        let radius = min(r * frame.width / min(frame.width, frame.height), 1)
        let minStep = radius * min(frame.width, frame.height) * 0.25
        var strokes: [[MaskPoint]] = []
        var lastKept: (x: Double, y: Double)?
        for item in m.nested["Dabs"].map(items) ?? [] {
            let parts = item.text.split(whereSeparator: { $0 == " " || $0 == "\n" || $0 == "\t" || $0 == "," })
            guard parts.count == 3, ["d", "M"].contains(parts[0]), let x = LightroomSettings.parseNumber(String(parts[1])),
                  let y = LightroomSettings.parseNumber(String(parts[2])), (-1...2).contains(x), (-1...2).contains(y) else {
                throw XMPProblem("\(what): a dab of Mask/Paint is not \"d X Y\" with X and Y from -1 to 2")
            }
            let px = (x: x * frame.width, y: y * frame.height)
            if parts[0] == "M" || strokes.isEmpty { strokes.append([]); lastKept = nil }
            if let l = lastKept, hypot(px.x - l.x, px.y - l.y) < minStep { continue }
            strokes[strokes.count - 1].append(frame.upright(x, y))
            lastKept = px
        }
        guard !strokes.isEmpty else { return nil }
        // A stroke longer than photoedit takes is cut into several (drawn end to end, the same line).
        var out: [BrushStroke] = []
        for points in strokes where !points.isEmpty {
            var from = 0
            while true {
                let end = min(points.count, from + MaskLimits.pointsPerStroke)
                out.append(BrushStroke(points: Array(points[from..<end]), radius: radius, feather: feather, flow: flow, erase: erase))
                if end == points.count { break }
                from = end - 1
            }
        }
        return out
    }

    // MARK: Spots

    /// A `RetouchAreas` item: `SpotType` heal or clone, the source's centre
    /// (`SourceX`, `OffsetY`), a `Mask/Ellipse` (`X`, `Y`, radii `SizeX`,
    /// `SizeY` on the long side), `Feather`, `Opacity`.
    static func retouchArea(_ area: Record, frame: Frame) throws(XMPProblem) -> Result<RetouchSpot, Skip> {
        let what = "RetouchAreas"
        let type = area.text["SpotType"]?.trimmingCharacters(in: .whitespaces).lowercased() ?? "heal"
        guard let mode = RetouchSpot.Mode(rawValue: type) else {
            return .failure(Skip("spot type \(type.prefix(20)) (content-aware fill is not rebuilt)"))
        }
        guard let mask = records(area.nested["Masks"]).first else { return .failure(Skip("no spot shape")) }
        let shape = mask.text["What"]?.trimmingCharacters(in: .whitespaces) ?? ""
        guard shape == "Mask/Ellipse" || shape == "Mask/Circle" else {
            return .failure(Skip("\(shape == "Mask/Paint" ? "a brushed spot" : "a spot shape") is not rebuilt"))
        }
        guard let x = try mask.number("X", what), let y = try mask.number("Y", what), let sx = try mask.number("SizeX", what),
              let sourceX = try area.number("SourceX", what), let sourceY = try area.number("OffsetY", what) else {
            throw XMPProblem("RetouchAreas: a spot has no X, Y, SizeX, SourceX or OffsetY")
        }
        let sy = try mask.number("SizeY", what) ?? sx
        var feather = try area.number("Feather", what) ?? 0
        if feather > 1 { feather /= 100 }
        return spot(mode: mode, centre: (x, y), source: (sourceX, sourceY), size: (sx, sy), feather: feather,
                    opacity: try area.number("Opacity", what) ?? 1, frame: frame)
    }

    /// A `RetouchInfo` item (Lightroom 3–6): `centerX = 0.4, centerY = 0.6,
    /// radius = 0.01, sourceState = …, sourceX = 0.45, sourceY = 0.6`, and a
    /// `spotType` (heal when absent), the form darktable's importer reads.
    static func retouchInfo(_ text: String, frame: Frame) throws(XMPProblem) -> Result<RetouchSpot, Skip> {
        guard text.count <= 1000 else { throw XMPProblem("RetouchInfo: an item is longer than 1000 characters") }
        var fields: [String: String] = [:]
        for part in text.split(separator: ",") {
            let kv = part.split(separator: "=", maxSplits: 1).map { $0.trimmingCharacters(in: .whitespacesAndNewlines) }
            if kv.count == 2 { fields[kv[0]] = kv[1] }
        }
        func number(_ name: String) throws(XMPProblem) -> Double {
            guard let t = fields[name], let v = LightroomSettings.parseNumber(t) else { throw XMPProblem("RetouchInfo: an item's \(name) is not a finite number") }
            return v
        }
        let type = fields["spotType"]?.lowercased() ?? "heal"
        guard let mode = RetouchSpot.Mode(rawValue: type) else { return .failure(Skip("spot type \(type.prefix(20)) is not rebuilt")) }
        let r = try number("radius")
        return spot(mode: mode, centre: (try number("centerX"), try number("centerY")), source: (try number("sourceX"), try number("sourceY")),
                    size: (r, r), feather: 0, opacity: fields["opacity"].flatMap(LightroomSettings.parseNumber) ?? 1, frame: frame)
    }

    static func spot(mode: RetouchSpot.Mode, centre: (Double, Double), source: (Double, Double), size: (Double, Double),
                     feather: Double, opacity: Double, frame: Frame) -> Result<RetouchSpot, Skip> {
        let c = frame.upright(centre.0, centre.1), s = frame.upright(source.0, source.1)
        let k = frame.longOverUpright
        let (rx, ry) = frame.turned ? (size.1, size.0) : (size.0, size.1)
        let spot = RetouchSpot(mode: mode, centre: c, radiusX: rx * k.x, radiusY: ry * k.y,
                               offset: MaskPoint(x: s.x - c.x, y: s.y - c.y),
                               feather: min(max(feather, 0), 1), opacity: min(max(opacity, 0), 1))
        do {
            return .success(try spot.validated("spot"))
        } catch let problem as MaskProblem {
            return .failure(Skip(problem.message))
        } catch {
            return .failure(Skip("not valid"))
        }
    }
}

// MARK: Writing

extension LightroomLocalCorrections {
    /// The `crs:MaskGroupBasedCorrections` and `crs:RetouchAreas` elements
    /// (Lightroom 11+'s shape) of `recipe`'s local corrections and spots, for
    /// a photo of EXIF `orientation` and stored pixel size `storedSize`; and
    /// what is not written (or written approximately), one text each.
    static func xmpElements(recipe: Recipe, orientation: Int, storedSize: (width: Int, height: Int)) -> (elements: [String], notExported: [String]) {
        let frame = Frame(orientation: orientation, size: storedSize.width > 0 && storedSize.height > 0 ? storedSize : nil)
        var elements: [String] = [], notExported: [String] = []
        func n(_ v: Double) -> String { JSONValue.format(JSONValue.canonicalNumber(v)) }
        // Sizes rescaled between the long side and the upright axes: 9 decimals, so they read back to photoedit's 6.
        func size(_ v: Double) -> String {
            var t = String(format: "%.9f", v)
            while t.hasSuffix("0") { t.removeLast() }
            return t.hasSuffix(".") ? String(t.dropLast()) : t
        }
        func attributes(_ pairs: [(String, String)]) -> String { pairs.map { "crs:\($0.0)=\"\($0.1)\"" }.joined(separator: " ") }

        var items: [String] = []
        for (index, correction) in recipe.localCorrections.enumerated() {
            let what = "local correction \(index + 1)"
            if correction.mask.components.contains(where: { if case .colour = $0.shape { return true } else { return false } }) {
                notExported.append("\(what) (a colour range mask: Lightroom's colour samples cannot be written)")
                continue
            }
            var fields: [(String, String)] = [("What", "Correction"), ("CorrectionAmount", "1"), ("CorrectionActive", correction.enabled ? "true" : "false"),
                                              ("CorrectionName", "photoedit \(index + 1)")]
            for (name, kind, scale) in amountScales {
                guard let v = correction.amounts[kind], v != 0 else { continue }
                let stored = v / scale
                if !(-1...1).contains(stored) { notExported.append("\(what) \(kind.rawValue) \(n(v)) (written as Lightroom's limit)") }
                fields.append((name, n(min(max(stored, -1), 1))))
            }
            let single = correction.mask.components.count == 1
            if correction.mask.inverted && !single { notExported.append("\(what): the inversion of a mask of several shapes") }
            var masks: [String] = []
            for component in correction.mask.components {
                var mode = component.mode
                var invert = correction.mask.inverted && single
                if mode == .intersect {
                    // Lightroom's intersect: subtract the inverse (the product, where photoedit's is the minimum).
                    notExported.append("\(what): intersect written as Lightroom's (subtract the inverse)")
                    mode = .subtract
                    invert.toggle()
                }
                var common: [(String, String)] = [("MaskActive", "true"), ("MaskBlendMode", mode == .add ? "0" : "1")]
                switch component.shape {
                case .linear(let g):
                    var (zero, full) = (frame.stored(g.zero), frame.stored(g.full))
                    if invert { (zero, full) = (full, zero) }
                    common += [("MaskInverted", "false"), ("MaskValue", "1")]
                    masks.append("<rdf:li \(attributes([("What", "Mask/Gradient")] + common + [("ZeroX", n(zero.x)), ("ZeroY", n(zero.y)), ("FullX", n(full.x)), ("FullY", n(full.y))]))/>")
                case .radial(let r):
                    let c = frame.stored(r.centre)
                    let (rx, ry) = frame.turned ? (r.radiusY, r.radiusX) : (r.radiusX, r.radiusY)
                    let inside = invert ? !r.inside : r.inside
                    common += [("MaskInverted", inside ? "false" : "true"), ("MaskValue", "1")]
                    masks.append("<rdf:li \(attributes([("What", "Mask/CircularGradient")] + common + [("Top", n(c.y - ry)), ("Left", n(c.x - rx)), ("Bottom", n(c.y + ry)), ("Right", n(c.x + rx)), ("Angle", n(frame.mirrored ? -r.angle : r.angle)), ("Midpoint", "50"), ("Roundness", n(r.roundness * 100)), ("Feather", n(r.feather * 100)), ("Flipped", inside ? "true" : "false"), ("Version", "2")]))/>")
                case .luminance(let r):
                    let lumRange = [max(0, r.low - r.feather), r.low, r.high, min(1, r.high + r.feather)].map(n).joined(separator: " ")
                    common += [("MaskInverted", invert ? "true" : "false"), ("MaskValue", "1")]
                    let range = [("Version", "4"), ("Type", "2"), ("Invert", "false"), ("SampleType", "2"), ("LumRange", lumRange)]
                    masks.append("<rdf:li><rdf:Description \(attributes([("What", "Mask/RangeMask")] + common))><crs:CorrectionRangeMask \(attributes(range))/></rdf:Description></rdf:li>")
                case .colour:
                    break  // not reached: a correction with a colour range is not written (above)
                case .brush(let strokes):
                    let toStored = min(frame.width, frame.height) / frame.width
                    for stroke in strokes {
                        let dabs = stroke.points.map { p -> String in
                            let s = frame.stored(p)
                            return "<rdf:li>d \(n(s.x)) \(n(s.y))</rdf:li>"
                        }.joined()
                        let fields = [("What", "Mask/Paint")] + common + [("MaskInverted", invert ? "true" : "false"), ("MaskValue", stroke.erase ? "0" : "1"),
                                      ("Radius", size(stroke.radius * toStored)), ("Flow", n(stroke.flow)), ("CenterWeight", n(1 - stroke.feather))]
                        masks.append("<rdf:li><rdf:Description \(attributes(fields))><crs:Dabs><rdf:Seq>\(dabs)</rdf:Seq></crs:Dabs></rdf:Description></rdf:li>")
                    }
                }
            }
            items.append("<rdf:li><rdf:Description \(attributes(fields))><crs:CorrectionMasks><rdf:Seq>\(masks.joined())</rdf:Seq></crs:CorrectionMasks></rdf:Description></rdf:li>")
        }
        if !items.isEmpty { elements.append("<crs:MaskGroupBasedCorrections><rdf:Seq>\(items.joined())</rdf:Seq></crs:MaskGroupBasedCorrections>") }

        var spots: [String] = []
        let k = frame.longOverUpright
        for (index, spot) in recipe.retouchSpots.enumerated() {
            if !spot.enabled { notExported.append("spot \(index + 1) (switched off)"); continue }
            let c = frame.stored(spot.centre)
            let source = frame.stored(MaskPoint(x: spot.centre.x + spot.offset.x, y: spot.centre.y + spot.offset.y))
            let (sx, sy) = (spot.radiusX / k.x, spot.radiusY / k.y)
            let (sizeX, sizeY) = frame.turned ? (sy, sx) : (sx, sy)
            let area = [("SpotType", spot.mode.rawValue), ("SourceState", "sourceSetExplicitly"), ("Method", "gaussian"), ("SourceX", n(source.x)),
                        ("OffsetY", n(source.y)), ("Opacity", n(spot.opacity)), ("Feather", n(spot.feather)), ("Seed", "0")]
            let mask = [("What", "Mask/Ellipse"), ("MaskValue", "1"), ("X", n(c.x)), ("Y", n(c.y)), ("SizeX", size(sizeX)), ("SizeY", size(sizeY)), ("Alpha", "0")]
            spots.append("<rdf:li><rdf:Description \(attributes(area))><crs:Masks><rdf:Seq><rdf:li \(attributes(mask))/></rdf:Seq></crs:Masks></rdf:Description></rdf:li>")
        }
        if !spots.isEmpty { elements.append("<crs:RetouchAreas><rdf:Seq>\(spots.joined())</rdf:Seq></crs:RetouchAreas>") }
        return (elements, notExported)
    }
}
