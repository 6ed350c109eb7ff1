import Foundation

/// The lists a structured filter's node holds instead of numeric parameters.
public enum NodeContent: Hashable, Sendable {
    /// `local`: corrections, applied in order.
    case corrections([LocalCorrection])
    /// `retouch`: spots, applied in order.
    case spots([RetouchSpot])
    /// `rgbtable`: a Lightroom look table and its amount.
    case table(LookTableContent)

    /// No corrections or spots: the node is dropped from the recipe.
    public var isEmpty: Bool {
        switch self {
        case .corrections(let c): return c.isEmpty
        case .spots(let s): return s.isEmpty
        case .table: return false
        }
    }
}

/// How a filter that holds lists (`local`, `retouch`) is read from recipe
/// JSON, edited by chain steps and written back as chain text. Its JSON is
/// written by `encode`; every value is checked on the way in.
struct StructuredFilter: Sendable {
    /// The node's `params` object (and the node's version) → its content.
    let decode: @Sendable ([String: JSONValue], Int) throws -> NodeContent
    /// A chain step (`filter.parameter` or nil, the text after `=`) applied to the current content.
    let apply: @Sendable (String?, String, NodeContent?) throws -> NodeContent
    /// The content as the values of `filter=…` steps.
    let format: @Sendable (NodeContent) -> [String]

    /// The canonical `params` object of a content.
    static func encode(_ content: NodeContent) -> [String: JSONValue] {
        switch content {
        case .corrections(let list): return ["corrections": .array(list.map(LocalJSON.encode))]
        case .spots(let list): return ["spots": .array(list.map(LocalJSON.encode))]
        case .table(let look): return ["table": .string(look.base64), "amount": .number(look.percent)]
        }
    }

    /// Runs `body`, turning a mask problem into the filter's `invalidParameter` error.
    static func checked(_ filter: String, _ body: () throws -> NodeContent) throws -> NodeContent {
        do {
            return try body()
        } catch let problem as MaskProblem {
            throw PhotoEditError.invalidParameter(filter: filter, parameter: "", problem: problem.message)
        }
    }
}

/// Recipe JSON of local corrections and spots (docs/recipe-format.md).
enum LocalJSON {
    // MARK: Writing

    static func encode(_ c: LocalCorrection) -> JSONValue {
        .object([
            "enabled": .bool(c.enabled),
            "amounts": .object(Dictionary(uniqueKeysWithValues: c.amounts.map { ($0.key.rawValue, JSONValue.number($0.value)) })),
            "mask": .object([
                "invert": .bool(c.mask.inverted),
                "shapes": .array(c.mask.components.map(encode)),
            ]),
        ])
    }

    static func encode(_ c: MaskComponent) -> JSONValue {
        var o: [String: JSONValue] = ["type": .string(c.shape.kind), "mode": .string(c.mode.rawValue)]
        switch c.shape {
        case .linear(let g):
            o.merge(["x0": .number(g.zero.x), "y0": .number(g.zero.y), "x1": .number(g.full.x), "y1": .number(g.full.y)]) { $1 }
        case .radial(let r):
            o.merge(["x": .number(r.centre.x), "y": .number(r.centre.y), "rx": .number(r.radiusX), "ry": .number(r.radiusY),
                     "angle": .number(r.angle), "roundness": .number(r.roundness), "feather": .number(r.feather),
                     "inside": .bool(r.inside)]) { $1 }
        case .brush(let strokes):
            o["strokes"] = .array(strokes.map { s in
                .object(["radius": .number(s.radius), "feather": .number(s.feather), "flow": .number(s.flow), "erase": .bool(s.erase),
                         "points": .array(s.points.map { .array([.number($0.x), .number($0.y)]) })])
            })
        case .luminance(let r):
            o.merge(["low": .number(r.low), "high": .number(r.high), "feather": .number(r.feather)]) { $1 }
        case .colour(let c):
            o.merge(["hue": .number(c.hue), "width": .number(c.width), "feather": .number(c.feather), "chroma": .number(c.chroma)]) { $1 }
        }
        return .object(o)
    }

    static func encode(_ s: RetouchSpot) -> JSONValue {
        .object(["mode": .string(s.mode.rawValue), "x": .number(s.centre.x), "y": .number(s.centre.y),
                 "rx": .number(s.radiusX), "ry": .number(s.radiusY), "dx": .number(s.offset.x), "dy": .number(s.offset.y),
                 "feather": .number(s.feather), "opacity": .number(s.opacity), "enabled": .bool(s.enabled)])
    }

    // MARK: Reading

    /// An object's fields, refusing keys it does not know.
    struct Fields {
        let object: [String: JSONValue]
        let what: String

        init(_ value: JSONValue, _ what: String, keys: Set<String>) throws {
            guard case .object(let o) = value else { throw MaskProblem.invalid("\(what) must be a JSON object") }
            if let key = o.keys.sorted().first(where: { !keys.contains($0) }) {
                throw MaskProblem.invalid("unknown key '\(key.prefix(40))' in \(what) (known: \(keys.sorted().joined(separator: ", ")))")
            }
            object = o
            self.what = what
        }

        func double(_ key: String, default value: Double? = nil) throws -> Double {
            guard let v = object[key] else {
                guard let value else { throw MaskProblem.invalid("\(what) needs '\(key)'") }
                return value
            }
            guard case .number(let n) = v else { throw MaskProblem.invalid("\(what) '\(key)' must be a number") }
            return n
        }

        func bool(_ key: String, default value: Bool) throws -> Bool {
            guard let v = object[key] else { return value }
            guard case .bool(let b) = v else { throw MaskProblem.invalid("\(what) '\(key)' must be true or false") }
            return b
        }

        func string(_ key: String, default value: String? = nil) throws -> String {
            guard let v = object[key] else {
                guard let value else { throw MaskProblem.invalid("\(what) needs '\(key)'") }
                return value
            }
            guard case .string(let s) = v else { throw MaskProblem.invalid("\(what) '\(key)' must be a string") }
            return s
        }

        func array(_ key: String) throws -> [JSONValue] {
            guard case .array(let a)? = object[key] else { throw MaskProblem.invalid("\(what) needs '\(key)' (an array)") }
            return a
        }
    }

    /// `version`: the node's; a correction that needs a later one (a range shape, a clarity amount in version 1) is refused.
    static func corrections(_ params: [String: JSONValue], version: Int) throws -> [LocalCorrection] {
        let top = try Fields(.object(params), "local's params", keys: ["corrections"])
        let list = try top.array("corrections")
        guard list.count <= MaskLimits.corrections else {
            throw MaskProblem.invalid("at most \(MaskLimits.corrections) corrections (\(list.count) given)")
        }
        let corrections = try list.enumerated().map { i, value in try correction(value, "correction \(i + 1)") }
        if let (i, c) = corrections.enumerated().first(where: { $0.element.minimumVersion > version }) {
            throw MaskProblem.invalid("correction \(i + 1) needs local version \(c.minimumVersion) (range shapes, dehaze, texture, clarity); the node is version \(version)")
        }
        try checkPointTotal(corrections)
        return corrections
    }

    static func checkPointTotal(_ corrections: [LocalCorrection]) throws {
        let points = corrections.reduce(0) { $0 + $1.mask.pointCount }
        guard points <= MaskLimits.pointsPerRecipe else {
            throw MaskProblem.invalid("at most \(MaskLimits.pointsPerRecipe) brush points in a recipe (\(points) given)")
        }
    }

    static func correction(_ value: JSONValue, _ what: String) throws -> LocalCorrection {
        let f = try Fields(value, what, keys: ["enabled", "amounts", "mask"])
        let amountsField = try Fields(f.object["amounts"] ?? .object([:]), "\(what) amounts", keys: Set(LocalAdjustment.allCases.map(\.rawValue)))
        var amounts: [LocalAdjustment: Double] = [:]
        for kind in LocalAdjustment.allCases where amountsField.object[kind.rawValue] != nil {
            amounts[kind] = try amountsField.double(kind.rawValue)
        }
        guard let maskValue = f.object["mask"] else { throw MaskProblem.invalid("\(what) needs 'mask'") }
        let m = try Fields(maskValue, "\(what) mask", keys: ["invert", "shapes"])
        let shapes = try m.array("shapes")
        guard shapes.count <= MaskLimits.componentsPerMask else {
            throw MaskProblem.invalid("\(what): at most \(MaskLimits.componentsPerMask) shapes per mask (\(shapes.count) given)")
        }
        let components = try shapes.enumerated().map { i, s in try component(s, "\(what) shape \(i + 1)") }
        return try LocalCorrection(mask: Mask(components, inverted: m.bool("invert", default: false)), amounts: amounts,
                                   enabled: f.bool("enabled", default: true)).validated(what)
    }

    static func component(_ value: JSONValue, _ what: String) throws -> MaskComponent {
        guard case .object(let o) = value, case .string(let type)? = o["type"] else {
            throw MaskProblem.invalid("\(what) needs a string 'type' (linear, radial, brush, luminance or colour)")
        }
        let common: Set<String> = ["type", "mode"]
        let shape: MaskShape
        let f: Fields
        switch type {
        case "linear":
            f = try Fields(value, what, keys: common.union(["x0", "y0", "x1", "y1"]))
            shape = .linear(LinearGradient(zero: MaskPoint(x: try f.double("x0"), y: try f.double("y0")),
                                           full: MaskPoint(x: try f.double("x1"), y: try f.double("y1"))))
        case "radial":
            f = try Fields(value, what, keys: common.union(["x", "y", "rx", "ry", "angle", "roundness", "feather", "inside"]))
            shape = .radial(RadialGradient(centre: MaskPoint(x: try f.double("x"), y: try f.double("y")),
                                           radiusX: try f.double("rx"), radiusY: try f.double("ry"),
                                           angle: try f.double("angle", default: 0), roundness: try f.double("roundness", default: 0),
                                           feather: try f.double("feather", default: 0.5), inside: try f.bool("inside", default: true)))
        case "brush":
            f = try Fields(value, what, keys: common.union(["strokes"]))
            let list = try f.array("strokes")
            guard list.count <= MaskLimits.strokesPerBrush else {
                throw MaskProblem.invalid("\(what): at most \(MaskLimits.strokesPerBrush) strokes per brush (\(list.count) given)")
            }
            shape = .brush(try list.enumerated().map { i, s in try stroke(s, "\(what) stroke \(i + 1)") })
        case "luminance":
            f = try Fields(value, what, keys: common.union(["low", "high", "feather"]))
            shape = .luminance(LuminanceRange(low: try f.double("low"), high: try f.double("high"), feather: try f.double("feather", default: 0.1)))
        case "colour":
            f = try Fields(value, what, keys: common.union(["hue", "width", "feather", "chroma"]))
            shape = .colour(ColourRange(hue: try f.double("hue"), width: try f.double("width", default: 30),
                                        feather: try f.double("feather", default: 20), chroma: try f.double("chroma", default: 10)))
        default:
            throw MaskProblem.invalid("\(what) type '\(type.prefix(40))' is not linear, radial, brush, luminance or colour")
        }
        let modeName = try f.string("mode", default: "add")
        guard let mode = MaskMode(rawValue: modeName) else {
            throw MaskProblem.invalid("\(what) mode '\(modeName.prefix(40))' is not add, subtract or intersect")
        }
        return MaskComponent(shape, mode: mode)
    }

    static func stroke(_ value: JSONValue, _ what: String) throws -> BrushStroke {
        let f = try Fields(value, what, keys: ["radius", "feather", "flow", "erase", "points"])
        let list = try f.array("points")
        guard list.count <= MaskLimits.pointsPerStroke else {
            throw MaskProblem.invalid("\(what): at most \(MaskLimits.pointsPerStroke) points per stroke (\(list.count) given)")
        }
        let points = try list.map { p -> MaskPoint in
            guard case .array(let xy) = p, xy.count == 2, case .number(let x) = xy[0], case .number(let y) = xy[1] else {
                throw MaskProblem.invalid("\(what): each point is [x, y]")
            }
            return MaskPoint(x: x, y: y)
        }
        return BrushStroke(points: points, radius: try f.double("radius"), feather: try f.double("feather", default: 0.5),
                           flow: try f.double("flow", default: 1), erase: try f.bool("erase", default: false))
    }

    static func spots(_ params: [String: JSONValue]) throws -> [RetouchSpot] {
        let top = try Fields(.object(params), "retouch's params", keys: ["spots"])
        let list = try top.array("spots")
        guard list.count <= MaskLimits.spots else { throw MaskProblem.invalid("at most \(MaskLimits.spots) spots (\(list.count) given)") }
        return try list.enumerated().map { i, value in
            let what = "spot \(i + 1)"
            let f = try Fields(value, what, keys: ["mode", "x", "y", "rx", "ry", "dx", "dy", "feather", "opacity", "enabled"])
            let modeName = try f.string("mode", default: "heal")
            guard let mode = RetouchSpot.Mode(rawValue: modeName) else {
                throw MaskProblem.invalid("\(what) mode '\(modeName.prefix(40))' is not clone or heal")
            }
            return try RetouchSpot(mode: mode, centre: MaskPoint(x: try f.double("x"), y: try f.double("y")),
                                   radiusX: try f.double("rx"), radiusY: try f.double("ry"),
                                   offset: MaskPoint(x: try f.double("dx"), y: try f.double("dy")),
                                   feather: try f.double("feather", default: 0.3), opacity: try f.double("opacity", default: 1),
                                   enabled: try f.bool("enabled", default: true)).validated(what)
        }
    }
}
