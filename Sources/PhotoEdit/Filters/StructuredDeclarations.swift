import Foundation

/// What an editor needs to build the lists of `local` (corrections through
/// masks) and `retouch` (spots), which have no numeric parameters: the
/// amounts, each shape's values and each spot's values as `ParameterSpec`s
/// (so they serialise as every filter parameter does), the combine modes and
/// the limits. Amount ranges, modes, defaults and limits are read from the
/// engine's own types; the shape and spot ranges declared here are the ones
/// `Mask`/`RetouchSpot` validation checks (it reads them through
/// `range(_:_:)`), so the editor and the engine cannot disagree.
public enum StructuredDeclarations {
    /// The amounts of a local correction, in the order they apply (`LocalAdjustment`).
    public static var amounts: [ParameterSpec] {
        LocalAdjustment.allCases.map { kind in
            .number(kind.rawValue, kind.range, default: 0, unit: unit(kind), kind.summary)
        }
    }

    static func unit(_ kind: LocalAdjustment) -> String {
        switch kind {
        case .exposure: return "EV"
        case .temperature: return "mired"
        case .hue: return "°"
        case .sharpness, .dehaze, .texture, .clarity: return "%"
        default: return ""
        }
    }

    /// Coordinates: fractions of the upright, uncropped photo (shapes may reach outside it).
    static var coordinate: ClosedRange<Double> { MaskLimits.coordinate }

    /// Each shape's values, by shape name (`linear`, `radial`, `brush`, `luminance`, `colour`), in chain order.
    public static var shapes: [(type: String, summary: String, parameters: [ParameterSpec])] { shapeTable }

    private static let shapeTable: [(type: String, summary: String, parameters: [ParameterSpec])] = {
        let radial = RadialGradient(centre: MaskPoint(x: 0.5, y: 0.5), radiusX: 0.25, radiusY: 0.25)
        let stroke = BrushStroke(points: [], radius: 0.05)
        let luminance = LuminanceRange(low: 0.5, high: 1), colour = ColourRange(hue: 250)
        let c = coordinate
        return [
            ("linear", "no effect on the side of (x0, y0), full effect beyond (x1, y1), a ramp between", [
                .number("x0", c, default: 0.5, "where the effect starts: x, a fraction of the width"),
                .number("y0", c, default: 0.3, "where the effect starts: y, a fraction of the height"),
                .number("x1", c, default: 0.5, "where the effect is full: x"),
                .number("y1", c, default: 0, "where the effect is full: y"),
            ]),
            ("radial", "an ellipse: the effect inside (or outside), fading over the feather", [
                .number("x", c, default: radial.centre.x, "centre x, a fraction of the width"),
                .number("y", c, default: radial.centre.y, "centre y, a fraction of the height"),
                .number("rx", 0...4, default: radial.radiusX, "half the width, a fraction of the photo's width (more than 0)"),
                .number("ry", 0...4, default: radial.radiusY, "half the height, a fraction of the photo's height (more than 0)"),
                .number("angle", -360...360, default: radial.angle, unit: "°", "clockwise rotation"),
                .number("roundness", -1...1, default: radial.roundness, "-1 a diamond, 0 an ellipse, 1 nearly a rectangle"),
                .number("feather", 0...1, default: radial.feather, "the part of the radius, from the edge inwards, that fades"),
                .bool("inside", default: radial.inside, "the effect inside the ellipse (false: outside, the chain's 'outside')"),
            ]),
            ("brush", "strokes of dabs along a path (points x/y); erase strokes remove", [
                .number("radius", 0...1, default: stroke.radius, "brush radius, a fraction of the shorter side (more than 0; the chain's r=)"),
                .number("feather", 0...1, default: stroke.feather, "the part of the radius, from the edge inwards, that fades"),
                .number("flow", 0...1, default: stroke.flow, "how much one stroke adds or removes (more than 0)"),
                .bool("erase", default: stroke.erase, "the stroke erases what earlier strokes painted"),
            ]),
            ("luminance", "the pixels in a lightness range (CIE L*/100 as the photo enters the corrections); usually intersected with a shape (local version 2)", [
                .number("low", 0...1, default: luminance.low, "where the full effect starts (0 black … 1 white)"),
                .number("high", 0...1, default: luminance.high, "where the full effect ends (at least low)"),
                .number("feather", 0...1, default: luminance.feather, "the width of the fade beyond each end"),
            ]),
            ("colour", "the pixels in a hue range (CIE LCh(ab)), more with chroma; usually intersected with a shape (local version 2)", [
                .number("hue", -360...360, default: colour.hue, unit: "°", "the hue at the centre (0 red-magenta, 90 yellow, 180 cyan-green, 270 blue)"),
                .number("width", 0...360, default: colour.width, unit: "°", "the hues of full effect around the centre"),
                .number("feather", 0...180, default: colour.feather, unit: "°", "the fade beyond each side"),
                .number("chroma", 0...100, default: colour.chroma, "the chroma C* from which the effect is full (greys have none; 0: greys too)"),
            ]),
        ]
    }()

    /// A spot's values, in the order of `heal(X Y RX RY DX DY …)`.
    public static var spot: [ParameterSpec] { spotTable }

    private static let spotTable: [ParameterSpec] = {
        let s = RetouchSpot(mode: .heal, centre: MaskPoint(x: 0.5, y: 0.5), radiusX: 0.02, radiusY: 0.02, offset: MaskPoint(x: 0.05, y: 0))
        let c = coordinate
        return [
            .number("x", c, default: s.centre.x, "centre x, a fraction of the width"),
            .number("y", c, default: s.centre.y, "centre y, a fraction of the height"),
            .number("rx", 0...0.5, default: s.radiusX, "half the spot's width, a fraction of the photo's width (more than 0)"),
            .number("ry", 0...0.5, default: s.radiusY, "half the spot's height, a fraction of the photo's height (more than 0)"),
            .number("dx", -1...1, default: s.offset.x, "where the source is, across: a fraction of the width (dx, dy not both 0)"),
            .number("dy", -1...1, default: s.offset.y, "where the source is, down: a fraction of the height"),
            .number("feather", 0...1, default: s.feather, "the part of the radius, from the edge inwards, that blends"),
            .number("opacity", 0...1, default: s.opacity, "how much of the source replaces the spot"),
        ]
    }()

    /// The declared ranges of numbers, by shape name (and `spot`), then parameter name.
    private static let ranges: [String: [String: ClosedRange<Double>]] = {
        func numbers(_ list: [ParameterSpec]) -> [String: ClosedRange<Double>] {
            Dictionary(uniqueKeysWithValues: list.compactMap { p in
                if case .number(let range, _) = p.kind { return (p.name, range) }
                return nil
            })
        }
        var out = Dictionary(uniqueKeysWithValues: shapeTable.map { ($0.type, numbers($0.parameters)) })
        out["spot"] = numbers(spotTable)
        return out
    }()

    /// The range validation checks a shape's (or, with `spot`, a spot's)
    /// number against: the one declared above.
    static func range(_ shape: String, _ parameter: String) throws -> ClosedRange<Double> {
        guard let range = ranges[shape]?[parameter] else {
            throw PhotoEditError.library("mask validation asks for '\(shape).\(parameter)', which no declaration has")
        }
        return range
    }
}

extension FilterDefinition {
    /// For a filter that holds lists instead of parameters (`local`,
    /// `retouch`), what an editor needs to build them, as JSON (the HTTP
    /// API's `/v1/filters` adds it as `structure`); nil for every other filter.
    public var structureDescription: JSONValue? {
        switch id {
        case Filters.local.id:
            return .object([
                "kind": .string("corrections"),
                "amounts": .array(StructuredDeclarations.amounts.map(\.jsonDescription)),
                "shapes": .array(StructuredDeclarations.shapes.map { shape in
                    .object(["type": .string(shape.type), "summary": .string(shape.summary),
                             "parameters": .array(shape.parameters.map(\.jsonDescription))])
                }),
                "modes": .array(MaskMode.allCases.map { .string($0.rawValue) }),
                "limits": .object([
                    "corrections": .number(Double(MaskLimits.corrections)),
                    "shapesPerMask": .number(Double(MaskLimits.componentsPerMask)),
                    "strokesPerBrush": .number(Double(MaskLimits.strokesPerBrush)),
                    "pointsPerStroke": .number(Double(MaskLimits.pointsPerStroke)),
                    "pointsPerRecipe": .number(Double(MaskLimits.pointsPerRecipe)),
                ]),
            ])
        case Filters.retouch.id:
            return .object([
                "kind": .string("spots"),
                "modes": .array(RetouchSpot.Mode.allCases.map { .string($0.rawValue) }),
                "parameters": .array(StructuredDeclarations.spot.map(\.jsonDescription)),
                "limits": .object(["spots": .number(Double(MaskLimits.spots))]),
            ])
        default:
            return nil
        }
    }
}
