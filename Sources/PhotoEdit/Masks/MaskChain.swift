import Foundation

/// The chain grammar's values of `local=…` and `retouch=…` (docs/chain-grammar.md):
///
///     local=radial(0.5 0.4 0.2 0.3 angle=30 feather=0.5 outside) -linear(0.5 1 0.5 0.7) exposure=+0.5 contrast=+10
///     local=brush(r=0.05 0.1/0.2 0.3/0.25 | erase r=0.02 0.2/0.22) invert saturation=-50 off
///     local=linear(0.5 0.6 0.5 0.2) &luminance(0.5 1 feather=0.2) &colour(250 60) exposure=-0.7 dehaze=+30
///     retouch=heal(0.3 0.4 0.02 0.03 0.05 0) clone(0.6 0.6 0.01 0.01 -0.04 0.02 feather=0.5 opacity=0.8)
///
/// A value has no commas or colons; items are separated by spaces.
enum MaskChain {
    /// Items separated by spaces outside parentheses: `radial(…)`, `exposure=+1`, `invert`.
    static func items(_ text: String) throws -> [String] {
        var out: [String] = []
        var current = ""
        var depth = 0
        for ch in text {
            if ch == "(" { depth += 1 }
            if ch == ")" {
                depth -= 1
                guard depth >= 0 else { throw MaskProblem.invalid("')' without '(' in '\(text.prefix(80))'") }
            }
            if ch.isWhitespace && depth == 0 {
                if !current.isEmpty { out.append(current) }
                current = ""
            } else {
                current.append(ch)
            }
        }
        guard depth == 0 else { throw MaskProblem.invalid("'(' without ')' in '\(text.prefix(80))'") }
        if !current.isEmpty { out.append(current) }
        return out
    }

    /// `name(args)` → (name, args split at spaces), or nil when `item` has no parentheses.
    static func call(_ item: String) throws -> (name: String, args: [String])? {
        guard let open = item.firstIndex(of: "(") else { return nil }
        guard item.hasSuffix(")"), item.firstIndex(of: ")") == item.index(before: item.endIndex) else {
            throw MaskProblem.invalid("'\(item.prefix(80))' is not name(values)")
        }
        let name = String(item[..<open])
        let inner = item[item.index(after: open)..<item.index(before: item.endIndex)]
        return (name, inner.split(whereSeparator: \.isWhitespace).map(String.init))
    }

    static func number(_ text: String, _ what: String) throws -> Double {
        guard let v = Double(text), v.isFinite else { throw MaskProblem.invalid("\(what) '\(text.prefix(40))' is not a number") }
        return v
    }

    /// Options `key=value` and flags among `args`; the rest are positional.
    static func split(_ args: [String], options: Set<String>, flags: Set<String>, _ what: String)
        throws -> (positional: [String], options: [String: Double], flags: Set<String>) {
        var positional: [String] = [], opts: [String: Double] = [:], set: Set<String> = []
        for arg in args {
            if let eq = arg.firstIndex(of: "=") {
                let key = String(arg[..<eq])
                guard options.contains(key) else {
                    throw MaskProblem.invalid("\(what): unknown option '\(key.prefix(40))' (known: \(options.sorted().joined(separator: ", ")))")
                }
                opts[key] = try number(String(arg[arg.index(after: eq)...]), "\(what) \(key)")
            } else if arg.first?.isLetter == true {
                guard flags.contains(arg) else {
                    throw MaskProblem.invalid("\(what): unknown word '\(arg.prefix(40))'\(flags.isEmpty ? "" : " (known: \(flags.sorted().joined(separator: ", ")))")")
                }
                set.insert(arg)
            } else {
                positional.append(arg)
            }
        }
        return (positional, opts, set)
    }

    // MARK: local

    /// One correction from the value of a `local=…` step.
    static func correction(_ text: String) throws -> LocalCorrection {
        var components: [MaskComponent] = []
        var amounts: [LocalAdjustment: Double] = [:]
        var inverted = false, enabled = true
        for item in try items(text.lowercased()) {
            if item == "invert" { inverted = true; continue }
            if item == "off" { enabled = false; continue }
            if let eq = item.firstIndex(of: "="), !item.contains("(") {
                let name = String(item[..<eq])
                guard let kind = LocalAdjustment(rawValue: name) else {
                    throw MaskProblem.invalid("'\(name.prefix(40))' is not a local adjustment (known: \(LocalAdjustment.allCases.map(\.rawValue).joined(separator: ", ")))")
                }
                amounts[kind] = try number(String(item[item.index(after: eq)...]), name)
                continue
            }
            var body = Substring(item), mode = MaskMode.add
            switch body.first {
            case "+": body = body.dropFirst()
            case "-": mode = .subtract; body = body.dropFirst()
            case "&": mode = .intersect; body = body.dropFirst()
            default: break
            }
            guard let shapeCall = try call(String(body)) else {
                throw MaskProblem.invalid("'\(item.prefix(80))' is not a shape (linear(…), radial(…), brush(…), luminance(…), colour(…)), an amount (exposure=+1), invert or off")
            }
            components.append(MaskComponent(try shape(shapeCall.name, shapeCall.args), mode: mode))
        }
        guard !components.isEmpty else { throw MaskProblem.invalid("a local correction needs a shape: linear(…), radial(…), brush(…), luminance(…) or colour(…)") }
        return try LocalCorrection(mask: Mask(components, inverted: inverted), amounts: amounts, enabled: enabled).validated("correction")
    }

    static func shape(_ name: String, _ args: [String]) throws -> MaskShape {
        switch name {
        case "linear":
            let (p, _, _) = try split(args, options: [], flags: [], "linear")
            guard p.count == 4 else { throw MaskProblem.invalid("linear takes X0 Y0 X1 Y1 (from no effect to full effect), \(p.count) given") }
            let v = try p.map { try number($0, "linear") }
            return .linear(LinearGradient(zero: MaskPoint(x: v[0], y: v[1]), full: MaskPoint(x: v[2], y: v[3])))
        case "radial":
            let (p, o, f) = try split(args, options: ["angle", "roundness", "feather"], flags: ["outside"], "radial")
            guard p.count == 4 else { throw MaskProblem.invalid("radial takes X Y RX RY [angle=…] [roundness=…] [feather=…] [outside], \(p.count) numbers given") }
            let v = try p.map { try number($0, "radial") }
            return .radial(RadialGradient(centre: MaskPoint(x: v[0], y: v[1]), radiusX: v[2], radiusY: v[3], angle: o["angle"] ?? 0,
                                          roundness: o["roundness"] ?? 0, feather: o["feather"] ?? 0.5, inside: !f.contains("outside")))
        case "brush":
            var strokes: [BrushStroke] = []
            var current: [String] = []
            for arg in args + ["|"] {
                guard arg == "|" else { current.append(arg); continue }
                let (p, o, f) = try split(current, options: ["r", "feather", "flow"], flags: ["erase"], "brush stroke \(strokes.count + 1)")
                guard let r = o["r"] else { throw MaskProblem.invalid("brush stroke \(strokes.count + 1) needs its radius r=…") }
                let points = try p.map { text -> MaskPoint in
                    let xy = text.split(separator: "/")
                    guard xy.count == 2 else { throw MaskProblem.invalid("a brush point is X/Y, not '\(text.prefix(40))'") }
                    return MaskPoint(x: try number(String(xy[0]), "brush point"), y: try number(String(xy[1]), "brush point"))
                }
                strokes.append(BrushStroke(points: points, radius: r, feather: o["feather"] ?? 0.5, flow: o["flow"] ?? 1, erase: f.contains("erase")))
                current = []
            }
            return .brush(strokes)
        case "luminance":
            let (p, o, _) = try split(args, options: ["feather"], flags: [], "luminance")
            guard p.count == 2 else { throw MaskProblem.invalid("luminance takes LOW HIGH [feather=…] (lightness 0…1), \(p.count) numbers given") }
            let v = try p.map { try number($0, "luminance") }
            return .luminance(LuminanceRange(low: v[0], high: v[1], feather: o["feather"] ?? 0.1))
        case "colour":
            let (p, o, _) = try split(args, options: ["feather", "chroma"], flags: [], "colour")
            guard (1...2).contains(p.count) else { throw MaskProblem.invalid("colour takes HUE [WIDTH] [feather=…] [chroma=…] (degrees), \(p.count) numbers given") }
            let v = try p.map { try number($0, "colour") }
            return .colour(ColourRange(hue: v[0], width: v.count > 1 ? v[1] : 30, feather: o["feather"] ?? 20, chroma: o["chroma"] ?? 10))
        default:
            throw MaskProblem.invalid("'\(name.prefix(40))' is not a shape (linear, radial, brush, luminance, colour)")
        }
    }

    /// A `local=…` or `local.NAME=…` step applied to the corrections.
    static func applyLocal(_ parameter: String?, _ text: String, to list: [LocalCorrection]) throws -> [LocalCorrection] {
        var list = list
        switch parameter {
        case nil, "add":
            list.append(try correction(text))
            guard list.count <= MaskLimits.corrections else { throw MaskProblem.invalid("at most \(MaskLimits.corrections) corrections") }
            try LocalJSON.checkPointTotal(list)
        case let name? where ["remove", "off", "on"].contains(name):
            try switchOrRemove(&list, "local.\(name)", text, \.enabled)
        case let name?:
            throw MaskProblem.invalid("local.\(name.prefix(40)) is unknown (write local=…, local.add=…, local.remove=N, local.off=N or local.on=N)")
        }
        return list
    }

    /// `filter.remove=N`, `filter.off=N`, `filter.on=N` (`step` names which) on item N, counted from 1.
    static func switchOrRemove<Item>(_ list: inout [Item], _ step: String, _ text: String, _ enabled: WritableKeyPath<Item, Bool>) throws {
        guard let n = Int(text), n >= 1, n <= list.count else {
            throw MaskProblem.invalid("\(step)=\(text.prefix(40)): there \(list.count == 1 ? "is 1" : "are \(list.count)") (numbered from 1)")
        }
        if step.hasSuffix(".remove") { list.remove(at: n - 1) } else { list[n - 1][keyPath: enabled] = step.hasSuffix(".on") }
    }

    /// A correction as the value of a `local=…` step.
    static func format(_ c: LocalCorrection) -> String {
        var items = c.mask.components.enumerated().map { i, component -> String in
            let prefix = i == 0 ? "" : component.mode == .add ? "+" : component.mode == .subtract ? "-" : "&"
            return prefix + format(component.shape)
        }
        if c.mask.inverted { items.append("invert") }
        for (kind, v) in c.amounts.sorted(by: { $0.key < $1.key }) {
            items.append(kind.rawValue + "=" + (v > 0 && kind.range.lowerBound < 0 ? "+" : "") + JSONValue.format(v))
        }
        if !c.enabled { items.append("off") }
        return items.joined(separator: " ")
    }

    static func format(_ shape: MaskShape) -> String {
        let f = JSONValue.format
        switch shape {
        case .linear(let g):
            return "linear(\(f(g.zero.x)) \(f(g.zero.y)) \(f(g.full.x)) \(f(g.full.y)))"
        case .radial(let r):
            var args = [f(r.centre.x), f(r.centre.y), f(r.radiusX), f(r.radiusY)]
            if r.angle != 0 { args.append("angle=" + f(r.angle)) }
            if r.roundness != 0 { args.append("roundness=" + f(r.roundness)) }
            if r.feather != 0.5 { args.append("feather=" + f(r.feather)) }
            if !r.inside { args.append("outside") }
            return "radial(" + args.joined(separator: " ") + ")"
        case .brush(let strokes):
            return "brush(" + strokes.map { s in
                var args: [String] = []
                if s.erase { args.append("erase") }
                args.append("r=" + f(s.radius))
                if s.feather != 0.5 { args.append("feather=" + f(s.feather)) }
                if s.flow != 1 { args.append("flow=" + f(s.flow)) }
                args += s.points.map { f($0.x) + "/" + f($0.y) }
                return args.joined(separator: " ")
            }.joined(separator: " | ") + ")"
        case .luminance(let r):
            return "luminance(\(f(r.low)) \(f(r.high))" + (r.feather != 0.1 ? " feather=" + f(r.feather) : "") + ")"
        case .colour(let c):
            var args = [f(c.hue)]
            if c.width != 30 { args.append(f(c.width)) }
            if c.feather != 20 { args.append("feather=" + f(c.feather)) }
            if c.chroma != 10 { args.append("chroma=" + f(c.chroma)) }
            return "colour(" + args.joined(separator: " ") + ")"
        }
    }

    // MARK: retouch

    /// A `retouch=…` or `retouch.NAME=…` step applied to the spots.
    static func applySpots(_ parameter: String?, _ text: String, to list: [RetouchSpot]) throws -> [RetouchSpot] {
        var list = list
        switch parameter {
        case nil, "add":
            for item in try items(text.lowercased()) {
                guard let spotCall = try call(item), let mode = RetouchSpot.Mode(rawValue: spotCall.name) else {
                    throw MaskProblem.invalid("'\(item.prefix(80))' is not a spot: heal(X Y RX RY DX DY …) or clone(…)")
                }
                let name = spotCall.name
                let (p, o, f) = try split(spotCall.args, options: ["feather", "opacity"], flags: ["off"], name)
                guard p.count == 6 else { throw MaskProblem.invalid("\(name) takes X Y RX RY DX DY [feather=…] [opacity=…] [off], \(p.count) numbers given") }
                let v = try p.map { try number($0, name) }
                list.append(try RetouchSpot(mode: mode, centre: MaskPoint(x: v[0], y: v[1]), radiusX: v[2], radiusY: v[3],
                                            offset: MaskPoint(x: v[4], y: v[5]), feather: o["feather"] ?? 0.3,
                                            opacity: o["opacity"] ?? 1, enabled: !f.contains("off")).validated("spot \(list.count + 1)"))
            }
            guard list.count <= MaskLimits.spots else { throw MaskProblem.invalid("at most \(MaskLimits.spots) spots") }
        case let name? where ["remove", "off", "on"].contains(name):
            try switchOrRemove(&list, "retouch.\(name)", text, \.enabled)
        case let name?:
            throw MaskProblem.invalid("retouch.\(name.prefix(40)) is unknown (write retouch=…, retouch.add=…, retouch.remove=N, retouch.off=N or retouch.on=N)")
        }
        return list
    }

    /// A spot as an item of a `retouch=…` step.
    static func format(_ s: RetouchSpot) -> String {
        let f = JSONValue.format
        var args = [f(s.centre.x), f(s.centre.y), f(s.radiusX), f(s.radiusY), f(s.offset.x), f(s.offset.y)]
        if s.feather != 0.3 { args.append("feather=" + f(s.feather)) }
        if s.opacity != 1 { args.append("opacity=" + f(s.opacity)) }
        if !s.enabled { args.append("off") }
        return s.mode.rawValue + "(" + args.joined(separator: " ") + ")"
    }
}

// MARK: Library API

extension Recipe {
    /// The recipe's local corrections, in order (empty: none).
    public var localCorrections: [LocalCorrection] {
        if case .corrections(let c)? = node(Filters.local.id)?.parameters.content { return c }
        return []
    }

    /// The recipe's healing and cloning spots, in order (empty: none).
    public var retouchSpots: [RetouchSpot] {
        if case .spots(let s)? = node(Filters.retouch.id)?.parameters.content { return s }
        return []
    }

    /// Replaces the local corrections (validated: out-of-range values throw
    /// `invalidParameter`, nothing is clamped); an empty list removes them.
    public mutating func setLocalCorrections(_ corrections: [LocalCorrection], registry: FilterRegistry = .standard) throws {
        let content = try StructuredFilter.checked("local") {
            guard corrections.count <= MaskLimits.corrections else { throw MaskProblem.invalid("at most \(MaskLimits.corrections) corrections") }
            let list = try corrections.enumerated().map { i, c in try c.validated("correction \(i + 1)") }
            try LocalJSON.checkPointTotal(list)
            return .corrections(list)
        }
        try setStructured(Filters.local.id, content, registry: registry)
    }

    /// Replaces the healing and cloning spots (validated); an empty list removes them.
    public mutating func setRetouchSpots(_ spots: [RetouchSpot], registry: FilterRegistry = .standard) throws {
        let content = try StructuredFilter.checked("retouch") {
            guard spots.count <= MaskLimits.spots else { throw MaskProblem.invalid("at most \(MaskLimits.spots) spots") }
            return .spots(try spots.enumerated().map { i, s in try s.validated("spot \(i + 1)") })
        }
        try setStructured(Filters.retouch.id, content, registry: registry)
    }

    /// The recipe's Lightroom look table (`rgbtable`), if any.
    public var lookTable: LookTableContent? {
        if case .table(let t)? = node(Filters.rgbtable.id)?.parameters.content { return t }
        return nil
    }

    /// Sets (nil: removes) the Lightroom look table.
    public mutating func setLookTable(_ table: LookTableContent?, registry: FilterRegistry = .standard) throws {
        guard let table else {
            _ = remove(Filters.rgbtable.id)
            return
        }
        try setStructured(Filters.rgbtable.id, .table(table), registry: registry)
    }

    private mutating func setStructured(_ id: String, _ content: NodeContent, registry: FilterRegistry) throws {
        let definition = try registry.require(id)
        if content.isEmpty {
            remove(id)
        } else {
            set(RecipeNode(filter: id, version: definition.version, parameters: Parameters(values: [:], content: content)), registry: registry)
        }
    }
}
