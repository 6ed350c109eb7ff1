import CPhotoEditShim
import Foundation
import Synchronization

/// A point in normalised photo coordinates: `x` across the width and `y`
/// down the height of the upright, uncropped photo (0…1 inside it; shapes
/// may reach outside, -1…2).
public struct MaskPoint: Hashable, Sendable {
    public var x: Double
    public var y: Double

    public init(x: Double, y: Double) {
        self.x = x
        self.y = y
    }
}

/// A linear gradient: no effect on the `zero` side of the line through
/// `zero`, full effect beyond the line through `full`, a smooth ramp between
/// (Lightroom's graduated filter, darktable's gradient).
public struct LinearGradient: Hashable, Sendable {
    /// Where the effect starts (0 %).
    public var zero: MaskPoint
    /// Where the effect is complete (100 %).
    public var full: MaskPoint

    public init(zero: MaskPoint, full: MaskPoint) {
        self.zero = zero
        self.full = full
    }
}

/// An elliptical gradient (Lightroom's radial filter, darktable's ellipse).
public struct RadialGradient: Hashable, Sendable {
    /// The centre.
    public var centre: MaskPoint
    /// Half the ellipse's width, as a fraction of the photo's width.
    public var radiusX: Double
    /// Half the ellipse's height, as a fraction of the photo's height.
    public var radiusY: Double
    /// Clockwise rotation of the ellipse in degrees, in pixel space.
    public var angle: Double = 0
    /// -1 (a diamond) … 0 (an ellipse) … 1 (nearly a rectangle).
    public var roundness: Double = 0
    /// The part of the radius, from the edge inwards, over which the effect fades (0 hard … 1 from the centre).
    public var feather: Double = 0.5
    /// The effect inside the ellipse (true) or outside it (false).
    public var inside: Bool = true

    public init(centre: MaskPoint, radiusX: Double, radiusY: Double, angle: Double = 0, roundness: Double = 0,
                feather: Double = 0.5, inside: Bool = true) {
        self.centre = centre
        self.radiusX = radiusX
        self.radiusY = radiusY
        self.angle = angle
        self.roundness = roundness
        self.feather = feather
        self.inside = inside
    }
}

/// One brush stroke: dabs along a polyline.
public struct BrushStroke: Hashable, Sendable {
    /// The stroke's path (one point: a single dab).
    public var points: [MaskPoint]
    /// The brush radius, as a fraction of the photo's shorter side.
    public var radius: Double
    /// The part of the radius, from the edge inwards, that fades (0 hard … 1 soft).
    public var feather: Double = 0.5
    /// How much one stroke adds (or, erasing, removes), 0…1.
    public var flow: Double = 1
    /// Erases what earlier strokes of the brush painted.
    public var erase: Bool = false

    public init(points: [MaskPoint], radius: Double, feather: Double = 0.5, flow: Double = 1, erase: Bool = false) {
        self.points = points
        self.radius = radius
        self.feather = feather
        self.flow = flow
        self.erase = erase
    }
}

/// A luminance range (Lightroom's luminance range mask, darktable's
/// parametric mask on L): full effect where the lightness is from `low` to
/// `high`, fading to none over `feather` beyond each end. Lightness is CIE
/// L*/100 of the photo as it enters the local corrections (0 black, 1 white).
public struct LuminanceRange: Hashable, Sendable {
    /// Where the full effect starts (L*/100, 0…1).
    public var low: Double
    /// Where the full effect ends (L*/100, 0…1, at least `low`).
    public var high: Double
    /// The width of the fade beyond each end (L*/100, 0 hard … 1).
    public var feather: Double = 0.1

    public init(low: Double, high: Double, feather: Double = 0.1) {
        self.low = low
        self.high = high
        self.feather = feather
    }
}

/// A colour range (Lightroom's colour range mask, darktable's parametric
/// mask on hue and chroma): full effect on hues within `width`/2 of `hue`,
/// fading to none over `feather` degrees beyond; greys have no hue, so the
/// effect grows with chroma, full from C* = `chroma`. Hue and chroma are CIE
/// LCh(ab) of the photo as it enters the local corrections.
public struct ColourRange: Hashable, Sendable {
    /// The hue at the centre of the range, CIE h(ab) in degrees (0 red/magenta, 90 yellow, 180 green-cyan, 270 blue).
    public var hue: Double
    /// The width of full effect, degrees (0…360).
    public var width: Double = 30
    /// The fade beyond each side, degrees (0 hard … 180).
    public var feather: Double = 20
    /// The chroma C*(ab) from which the effect is full (0: greys too).
    public var chroma: Double = 10

    public init(hue: Double, width: Double = 30, feather: Double = 20, chroma: Double = 10) {
        self.hue = hue
        self.width = width
        self.feather = feather
        self.chroma = chroma
    }
}

/// The shapes a mask is made of.
public enum MaskShape: Hashable, Sendable {
    case linear(LinearGradient)
    case radial(RadialGradient)
    /// Strokes painted in order (erase strokes remove).
    case brush([BrushStroke])
    /// The pixels in a lightness range (`local` version 2); usually intersected with a shape (`&luminance(…)`).
    case luminance(LuminanceRange)
    /// The pixels in a colour range (`local` version 2); usually intersected with a shape (`&colour(…)`).
    case colour(ColourRange)

    /// The shape's name in recipes and chains.
    public var kind: String {
        switch self {
        case .linear: return "linear"
        case .radial: return "radial"
        case .brush: return "brush"
        case .luminance: return "luminance"
        case .colour: return "colour"
        }
    }

    /// A range refines by the photo's pixels (luminance, colour); the others are drawn.
    public var isRange: Bool {
        switch self {
        case .luminance, .colour: return true
        default: return false
        }
    }
}

/// How a shape combines with the shapes before it.
public enum MaskMode: String, Hashable, Sendable, CaseIterable {
    /// Union: the larger of the two (darktable's union).
    case add
    /// The shape is taken away: m × (1 − shape).
    case subtract
    /// The smaller of the two.
    case intersect
}

/// One shape of a mask and how it combines with the ones before it (the
/// first shape's mode is `add`).
public struct MaskComponent: Hashable, Sendable {
    public var shape: MaskShape
    public var mode: MaskMode

    public init(_ shape: MaskShape, mode: MaskMode = .add) {
        self.shape = shape
        self.mode = mode
    }
}

/// A mask: shapes combined in order, optionally inverted. Rendered as a
/// one-band float image (0…1) the size of the image it applies to.
public struct Mask: Hashable, Sendable {
    public var components: [MaskComponent]
    /// Inverts the combined mask (1 − m).
    public var inverted: Bool

    public init(_ components: [MaskComponent], inverted: Bool = false) {
        self.components = components
        self.inverted = inverted
    }

    /// A mask of one shape.
    public init(_ shape: MaskShape, inverted: Bool = false) {
        self.init([MaskComponent(shape)], inverted: inverted)
    }
}

/// Bounds on what a recipe may hold (hostile input).
enum MaskLimits {
    static let corrections = 64
    static let componentsPerMask = 32
    static let strokesPerBrush = 1000
    static let pointsPerStroke = 10_000
    static let pointsPerRecipe = 200_000
    static let spots = 256
    /// Coordinates may reach this far outside the photo.
    static let coordinate = -1.0...2.0
    /// The longest side masks are built at before being resized to the image, in pixels.
    static let maskCanvas = 2048
    /// The brush canvas's longest side, in pixels.
    static let brushCanvas = 1024
    /// Canvas pixels the strokes of one brush may visit (each pixel once per
    /// segment near it), counted before painting: 300 full 1024² canvases.
    static let brushWork = 300 * 1024 * 1024
}

// MARK: Validation

extension Mask {
    /// Checks every value; numbers come back canonical (6 decimals).
    func validated(_ what: String) throws -> Mask {
        guard !components.isEmpty else { throw MaskProblem.invalid("\(what): a mask needs at least one shape") }
        guard components.count <= MaskLimits.componentsPerMask else {
            throw MaskProblem.invalid("\(what): at most \(MaskLimits.componentsPerMask) shapes per mask (\(components.count) given)")
        }
        var out = self
        out.components = try components.enumerated().map { i, c in
            MaskComponent(try c.shape.validated("\(what) shape \(i + 1)"), mode: i == 0 ? .add : c.mode)
        }
        return out
    }

    /// Points of every brush stroke.
    var pointCount: Int {
        components.reduce(0) { total, c in
            if case .brush(let strokes) = c.shape { return total + strokes.reduce(0) { $0 + $1.points.count } }
            return total
        }
    }
}

/// A problem with a mask or spot value, turned into `invalidParameter` by the caller.
enum MaskProblem: Error {
    case invalid(String)

    var message: String {
        switch self { case .invalid(let m): return m }
    }
}

/// `value` checked against `range` and made canonical.
func checkedNumber(_ value: Double, _ range: ClosedRange<Double>, _ what: String, open lower: Bool = false) throws -> Double {
    let v = JSONValue.canonicalNumber(value)
    guard v.isFinite, range.contains(v), !(lower && v == range.lowerBound) else {
        let bound = lower ? "more than \(JSONValue.format(range.lowerBound)) and at most \(JSONValue.format(range.upperBound))"
            : "\(JSONValue.format(range.lowerBound))…\(JSONValue.format(range.upperBound))"
        throw MaskProblem.invalid("\(what) \(value.isFinite ? JSONValue.format(value) : "\(value)") is out of range (expected \(bound))")
    }
    return v
}

extension MaskPoint {
    func validated(_ what: String) throws -> MaskPoint {
        MaskPoint(x: try checkedNumber(x, MaskLimits.coordinate, "\(what) x"), y: try checkedNumber(y, MaskLimits.coordinate, "\(what) y"))
    }
}

/// The range of a shape's number: its declaration's (`StructuredDeclarations`).
func declared(_ shape: String, _ parameter: String) throws -> ClosedRange<Double> {
    try StructuredDeclarations.range(shape, parameter)
}

extension MaskShape {
    func validated(_ what: String) throws -> MaskShape {
        switch self {
        case .linear(let g):
            let out = LinearGradient(zero: try g.zero.validated("\(what) start"), full: try g.full.validated("\(what) end"))
            guard out.zero != out.full else { throw MaskProblem.invalid("\(what): a linear gradient's start and end must differ") }
            return .linear(out)
        case .radial(let r):
            var angle = try checkedNumber(r.angle, declared("radial", "angle"), "\(what) angle")
            // One form for equal ellipses: the angle in (-90, 90] … (an ellipse turned half a turn is itself).
            angle = angle.truncatingRemainder(dividingBy: 180)
            if angle > 90 { angle -= 180 } else if angle <= -90 { angle += 180 }
            return .radial(RadialGradient(
                centre: try r.centre.validated("\(what) centre"),
                radiusX: try checkedNumber(r.radiusX, declared("radial", "rx"), "\(what) radius x", open: true),
                radiusY: try checkedNumber(r.radiusY, declared("radial", "ry"), "\(what) radius y", open: true),
                angle: JSONValue.canonicalNumber(angle),
                roundness: try checkedNumber(r.roundness, declared("radial", "roundness"), "\(what) roundness"),
                feather: try checkedNumber(r.feather, declared("radial", "feather"), "\(what) feather"),
                inside: r.inside))
        case .brush(let strokes):
            guard !strokes.isEmpty else { throw MaskProblem.invalid("\(what): a brush needs at least one stroke") }
            guard strokes.count <= MaskLimits.strokesPerBrush else {
                throw MaskProblem.invalid("\(what): at most \(MaskLimits.strokesPerBrush) strokes per brush (\(strokes.count) given)")
            }
            return .brush(try strokes.enumerated().map { i, s in
                let name = "\(what) stroke \(i + 1)"
                guard !s.points.isEmpty else { throw MaskProblem.invalid("\(name): a stroke needs at least one point") }
                guard s.points.count <= MaskLimits.pointsPerStroke else {
                    throw MaskProblem.invalid("\(name): at most \(MaskLimits.pointsPerStroke) points per stroke (\(s.points.count) given)")
                }
                return BrushStroke(points: try s.points.map { try $0.validated("\(name) point") },
                                   radius: try checkedNumber(s.radius, declared("brush", "radius"), "\(name) radius", open: true),
                                   feather: try checkedNumber(s.feather, declared("brush", "feather"), "\(name) feather"),
                                   flow: try checkedNumber(s.flow, declared("brush", "flow"), "\(name) flow", open: true),
                                   erase: s.erase)
            })
        case .luminance(let r):
            let out = LuminanceRange(low: try checkedNumber(r.low, declared("luminance", "low"), "\(what) low"), high: try checkedNumber(r.high, declared("luminance", "high"), "\(what) high"),
                                     feather: try checkedNumber(r.feather, declared("luminance", "feather"), "\(what) feather"))
            guard out.low <= out.high else { throw MaskProblem.invalid("\(what): a luminance range's low must not be above its high") }
            return .luminance(out)
        case .colour(let c):
            var hue = try checkedNumber(c.hue, declared("colour", "hue"), "\(what) hue").truncatingRemainder(dividingBy: 360)
            if hue < 0 { hue += 360 }
            return .colour(ColourRange(hue: JSONValue.canonicalNumber(hue), width: try checkedNumber(c.width, declared("colour", "width"), "\(what) width"),
                                       feather: try checkedNumber(c.feather, declared("colour", "feather"), "\(what) feather"),
                                       chroma: try checkedNumber(c.chroma, declared("colour", "chroma"), "\(what) chroma")))
        }
    }
}

// MARK: Rendering

extension Mask {
    /// Does any shape refine by the photo's pixels?
    var hasRange: Bool { components.contains { $0.shape.isRange } }

    /// The mask as a one-band float image (0…1) of `width`×`height`: the
    /// size of the upright, uncropped image the correction applies to. Built
    /// from libvips operations (gradients are computed per pixel, lazily;
    /// brushes are painted on a canvas of at most 1024 px and resized), so
    /// a preview and a full-size render see the same mask. Range shapes
    /// read `ranges` (the photo as it enters the local corrections) at full size.
    ///
    /// `perPixel` (previews): gradients and radials are evaluated in one C
    /// pass each (`pe_mask_shape`) instead of a dozen libvips operations,
    /// the same function to float rounding but not the same bits, so a
    /// full-size render (whose pixels the filter's version fixes) keeps the
    /// libvips graph.
    func render(width: Int, height: Int, ranges: RangeSource? = nil, perPixel: Bool = false) throws -> Image {
        // Masks are smooth: built at most `maskCanvas` pixels on the long
        // side and resized, a 24 MP render pays for a 3 MP mask (and a hard
        // edge is softened over a few of its pixels, invisibly). From the
        // first range shape on, the mask is combined at full size.
        let k = Double(max(width, height)) / Double(MaskLimits.maskCanvas)
        let (cw, ch) = k > 1 ? (max(1, Int((Double(width) / k).rounded())), max(1, Int((Double(height) / k).rounded()))) : (width, height)
        var mask: Image?
        var full = cw == width && ch == height
        func upsized(_ m: Image) throws -> Image {
            m.width == width && m.height == height ? m : try MaskMath.resized(m, width: width, height: height)
        }
        for component in components {
            var shape: Image
            if component.shape.isRange {
                guard let ranges else { throw PhotoEditError.invalidParameter(filter: "local", parameter: "", problem: "a range mask needs the photo") }
                shape = try component.shape.render(ranges)
                if !full { mask = try mask.map(upsized); full = true }
            } else {
                shape = try component.shape.render(width: cw, height: ch, perPixel: perPixel)
                if full { shape = try upsized(shape) }
            }
            guard let m = mask else { mask = shape; continue }
            switch component.mode {
            case .add: mask = try m.maximum(shape)
            case .subtract: mask = try m.multiplied(by: shape.linear(multiply: [-1], add: [1]))
            case .intersect: mask = try m.minimum(shape)
            }
        }
        guard var out = mask else { throw PhotoEditError.invalidParameter(filter: "local", parameter: "", problem: "a mask needs at least one shape") }
        if inverted { out = try out.linear(multiply: [-1], add: [1]) }
        return try upsized(out)
    }
}

// MARK: Where a mask can be non-zero

/// A rectangle in normalised photo coordinates (x0 ≤ x1, y0 ≤ y1; empty when not).
struct MaskBox: Equatable {
    var x0, y0, x1, y1: Double

    static let whole = MaskBox(x0: -.infinity, y0: -.infinity, x1: .infinity, y1: .infinity)
    static let empty = MaskBox(x0: 0, y0: 0, x1: 0, y1: 0)

    var isEmpty: Bool { !(x0 < x1 && y0 < y1) }

    func union(_ o: MaskBox) -> MaskBox {
        if isEmpty { return o }
        if o.isEmpty { return self }
        return MaskBox(x0: min(x0, o.x0), y0: min(y0, o.y0), x1: max(x1, o.x1), y1: max(y1, o.y1))
    }

    func intersection(_ o: MaskBox) -> MaskBox {
        let b = MaskBox(x0: max(x0, o.x0), y0: max(y0, o.y0), x1: min(x1, o.x1), y1: min(y1, o.y1))
        return b.isEmpty ? .empty : b
    }
}

extension Mask {
    /// The pixels of a `width`×`height` image outside which the mask is
    /// exactly 0, with a margin for the canvases' resampling: (left, top,
    /// width, height), an empty rectangle when the mask is 0 everywhere, or
    /// nil when it may be non-zero almost anywhere (inverted, a radial's
    /// outside, a range shape, or a box over most of the image).
    func support(width: Int, height: Int) -> (left: Int, top: Int, width: Int, height: Int)? {
        guard !inverted else { return nil }
        var box = MaskBox.empty
        for (i, c) in components.enumerated() {
            let b = c.shape.support(width: Double(width), height: Double(height))
            if i == 0 { box = b; continue }
            switch c.mode {
            case .add: box = box.union(b)
            case .subtract: break
            case .intersect: box = box.intersection(b)
            }
        }
        if box.isEmpty { return (0, 0, 0, 0) }
        // A canvas pixel spreads over its neighbours when resized (twice for a brush): a margin of two brush-canvas pixels.
        let margin = 2 * Double((max(width, height) + MaskLimits.brushCanvas - 1) / MaskLimits.brushCanvas) + 2
        // Clamped to the photo first (a box may be unbounded: a radial's outside added).
        let left = max(0, Int((max(box.x0, 0) * Double(width) - margin).rounded(.down)))
        let top = max(0, Int((max(box.y0, 0) * Double(height) - margin).rounded(.down)))
        let right = min(width, Int((min(box.x1, 1) * Double(width) + margin).rounded(.up)))
        let bottom = min(height, Int((min(box.y1, 1) * Double(height) + margin).rounded(.up)))
        guard left < right, top < bottom else { return (0, 0, 0, 0) }
        guard Double((right - left) * (bottom - top)) < 0.6 * Double(width * height) else { return nil }
        return (left, top, right - left, bottom - top)
    }
}

extension MaskShape {
    /// A box (normalised) outside which the shape is 0 on a `width`×`height` image.
    func support(width w: Double, height h: Double) -> MaskBox {
        switch self {
        case .linear(let g):
            // t > 0: the unit square clipped by the half-plane (p − zero)·d > 0, in pixels.
            let (dx, dy) = ((g.full.x - g.zero.x) * w, (g.full.y - g.zero.y) * h)
            func side(_ p: (Double, Double)) -> Double { (p.0 - g.zero.x) * w * dx + (p.1 - g.zero.y) * h * dy }
            let square = [(0.0, 0.0), (1.0, 0.0), (1.0, 1.0), (0.0, 1.0)]
            var kept: [(Double, Double)] = []
            for (i, p) in square.enumerated() {
                let q = square[(i + 1) % 4]
                let (sp, sq) = (side(p), side(q))
                if sp > 0 { kept.append(p) }
                if (sp > 0) != (sq > 0), sp != sq {
                    let t = sp / (sp - sq)
                    kept.append((p.0 + t * (q.0 - p.0), p.1 + t * (q.1 - p.1)))
                }
            }
            guard !kept.isEmpty else { return .empty }
            return MaskBox(x0: kept.map(\.0).min()!, y0: kept.map(\.1).min()!, x1: kept.map(\.0).max()!, y1: kept.map(\.1).max()!)
        case .radial(let r):
            guard r.inside else { return .whole }
            // The superellipse lies in its rectangle of half-axes a, b (pixels), turned by the angle.
            let (a, b) = (r.radiusX * w, r.radiusY * h)
            let theta = r.angle * .pi / 180
            let (c, s) = (abs(cos(theta)), abs(sin(theta)))
            let (ex, ey) = ((a * c + b * s) / w, (a * s + b * c) / h)
            return MaskBox(x0: r.centre.x - ex, y0: r.centre.y - ey, x1: r.centre.x + ex, y1: r.centre.y + ey)
        case .brush(let strokes):
            let short = min(w, h)
            return strokes.filter { !$0.erase }.reduce(MaskBox.empty) { box, stroke in
                let (rx, ry) = (stroke.radius * short / w, stroke.radius * short / h)
                let xs = stroke.points.map(\.x), ys = stroke.points.map(\.y)
                return box.union(MaskBox(x0: xs.min()! - rx, y0: ys.min()! - ry, x1: xs.max()! + rx, y1: ys.max()! + ry))
            }
        case .luminance, .colour:
            return .whole
        }
    }
}

/// What range shapes measure: CIE L*, C* and h of the photo as it enters the
/// local corrections, computed once (lazily) and shared by every correction.
/// `perPixel` (previews): L* in one C pass (`pe_range_lightness`) instead of
/// libvips' colourspace chain, the same values to float rounding (LCh stays
/// libvips': a C pass in double was measured slower than its tables).
final class RangeSource: Sendable {
    private let image: Image
    private let perPixel: Bool
    /// The lazily built images (libvips graphs: building them computes no pixel).
    private struct Made {
        var lightness: Image?
        var lch: Image?
    }
    private let made = Mutex(Made())

    init(_ image: Image, perPixel: Bool = false) {
        self.image = image
        self.perPixel = perPixel
    }

    /// L*/100, one band.
    func lightness() throws -> Image {
        try made.withLock { made in
            if let lightness = made.lightness { return lightness }
            let lightness: Image
            if perPixel, made.lch == nil {
                let input = image.formatName == "float" ? image : try image.cast("float")
                guard let out = pe_range_lightness(input.pointer) else { throw Vips.error("range mask") }
                lightness = Image(owning: out)
            } else {
                let l = try made.lch.map { try $0.extractBands(0, count: 1) }
                    ?? image.call("colourspace", [("space", .string("lab")), ("source_space", .string("scrgb"))]).extractBands(0, count: 1)
                lightness = try l.linear(multiply: [0.01], add: [0])
            }
            made.lightness = lightness
            return lightness
        }
    }

    /// CIE LCh(ab), three bands.
    func lch() throws -> Image {
        try made.withLock { made in
            if let lch = made.lch { return lch }
            let lch = try image.call("colourspace", [("space", .string("lch")), ("source_space", .string("scrgb"))])
            made.lch = lch
            return lch
        }
    }
}

extension MaskShape {
    /// The shape on a `width`×`height` image; `perPixel`: gradients and
    /// radials in one C pass (see `Mask.render`).
    func render(width: Int, height: Int, perPixel: Bool = false) throws -> Image {
        let w = Double(width), h = Double(height)
        switch self {
        case .linear(let g):
            // t = ((p − zero) · d) / |d|², d = full − zero, in pixels.
            let (x0, y0) = (g.zero.x * w, g.zero.y * h)
            let (dx, dy) = (g.full.x * w - x0, g.full.y * h - y0)
            let length2 = dx * dx + dy * dy
            if perPixel {
                return try MaskMath.evaluated(width: width, height: height, kind: 0,
                                              [dx / length2, dy / length2, -(x0 * dx + y0 * dy) / length2])
            }
            let t = try MaskMath.plane(width: width, height: height, a: dx / length2, b: dy / length2,
                                       c: -(x0 * dx + y0 * dy) / length2)
            return try MaskMath.smoothstep(t.clamped01())
        case .radial(let r):
            let (cx, cy) = (r.centre.x * w, r.centre.y * h)
            let (a, b) = (max(r.radiusX * w, 1e-6), max(r.radiusY * h, 1e-6))
            let theta = r.angle * .pi / 180
            let (c, s) = (cos(theta), sin(theta))
            if perPixel {
                return try MaskMath.evaluated(width: width, height: height, kind: 1, [
                    c / a, s / a, -(cx * c + cy * s) / a, -s / b, c / b, (cx * s - cy * c) / b,
                    MaskMath.exponent(roundness: r.roundness), max(r.feather, 1e-3), r.inside ? 1 : 0,
                ])
            }
            // u along the ellipse's first axis, v along the second, in radii.
            let u = try MaskMath.plane(width: width, height: height, a: c / a, b: s / a, c: -(cx * c + cy * s) / a)
            let v = try MaskMath.plane(width: width, height: height, a: -s / b, b: c / b, c: (cx * s - cy * c) / b)
            let rho: Image
            let n = MaskMath.exponent(roundness: r.roundness)
            if n == 2 {
                rho = try MaskMath.power(u.multiplied(by: u).adding(v.multiplied(by: v)), 0.5)
            } else {
                rho = try MaskMath.power(MaskMath.power(u.call("abs"), n).adding(MaskMath.power(v.call("abs"), n)), 1 / n)
            }
            // 1 inside 1 − feather, fading to 0 at the edge.
            let f = max(r.feather, 1e-3)
            var m = try MaskMath.smoothstep(rho.linear(multiply: [-1 / f], add: [1 / f]).clamped01())
            if !r.inside { m = try m.linear(multiply: [-1], add: [1]) }
            return m
        case .brush(let strokes):
            return try BrushCanvas.render(strokes, width: width, height: height)
        case .luminance, .colour:
            throw PhotoEditError.invalidParameter(filter: "local", parameter: "", problem: "a range mask needs the photo")
        }
    }

    /// A range shape on the photo (full size).
    func render(_ source: RangeSource) throws -> Image {
        switch self {
        case .luminance(let r):
            // A trapezoid on L: 0 below low − feather, 1 from low to high, 0 beyond high + feather.
            let l = try source.lightness()
            let f = max(r.feather, 1e-3)
            let rising = try l.linear(multiply: [1 / f], add: [1 - r.low / f])
            let falling = try l.linear(multiply: [-1 / f], add: [1 + r.high / f])
            return try MaskMath.smoothstep(rising.minimum(falling).clamped01())
        case .colour(let c):
            let lch = try source.lch()
            // Hue distance from the centre, 0…180.
            let d = try lch.extractBands(2, count: 1).linear(multiply: [1], add: [540 - c.hue])
                .call("remainder_const", [("c", .doubles([360]))]).linear(multiply: [1], add: [-180]).call("abs")
            let f = max(c.feather, 1e-3)
            var m = try MaskMath.smoothstep(d.linear(multiply: [-1 / f], add: [(c.width / 2 + f) / f]).clamped01())
            if c.chroma > 0 {
                m = try m.multiplied(by: MaskMath.smoothstep(lch.extractBands(1, count: 1).linear(multiply: [1 / c.chroma], add: [0]).clamped01()))
            }
            return m
        default:
            throw PhotoEditError.invalidParameter(filter: "local", parameter: "", problem: "\(kind) is not a range")
        }
    }
}

/// libvips building blocks of the masks.
enum MaskMath {
    /// a·x + b·y + c at each pixel centre (x, y in pixels), one float band.
    static func plane(width: Int, height: Int, a: Double, b: Double, c: Double) throws -> Image {
        let xy = try Vips.image("xyz", [("width", .number(Double(width))), ("height", .number(Double(height)))]).cast("float")
        // Pixel centres: (x + ½, y + ½).
        let x = try xy.extractBands(0, count: 1).linear(multiply: [a], add: [c + 0.5 * (a + b)])
        let y = try xy.extractBands(1, count: 1).linear(multiply: [b], add: [0])
        return try x.adding(y)
    }

    /// A linear (kind 0) or radial (kind 1) mask evaluated per pixel in one
    /// C pass, `pe_mask_shape`'s parameters.
    static func evaluated(width: Int, height: Int, kind: Int32, _ parameters: [Double]) throws -> Image {
        try Vips.ensureStarted()
        let made = parameters.withUnsafeBufferPointer { pe_mask_shape(Int32(width), Int32(height), kind, $0.baseAddress) }
        guard let made else { throw Vips.error("mask") }
        return Image(owning: made)
    }

    /// x^p per pixel (x ≥ 0).
    static func power(_ image: Image, _ p: Double) throws -> Image {
        try image.call("math2_const", [("math2", .string("pow")), ("c", .doubles([p]))])
    }

    /// A one-band mask resized (bilinear) to exactly `width`×`height`.
    static func resized(_ image: Image, width: Int, height: Int) throws -> Image {
        var out = try image.call("resize", [("scale", .number(Double(width) / Double(image.width))),
                                            ("vscale", .number(Double(height) / Double(image.height))), ("kernel", .string("linear"))])
        out = try out.extractArea(left: 0, top: 0, width: min(width, out.width), height: min(height, out.height))
        if out.width < width || out.height < height {
            out = try out.call("embed", [("x", .number(0)), ("y", .number(0)), ("width", .number(Double(width))),
                                         ("height", .number(Double(height))), ("extend", .string("copy"))])
        }
        return out
    }

    /// 3t² − 2t³ for t in 0…1: a ramp with soft ends.
    static func smoothstep(_ t: Image) throws -> Image {
        try t.multiplied(by: t).multiplied(by: t.linear(multiply: [-2], add: [3]))
    }

    /// The superellipse exponent of a roundness: 2 (ellipse) at 0, 1 (diamond) at -1, 8 at 1.
    static func exponent(roundness r: Double) -> Double {
        r >= 0 ? pow(2, 1 + 2 * r) : pow(2, 1 + r)
    }
}

extension Image {
    /// max(self, other) per band, as (a + b + |a − b|) / 2.
    func maximum(_ other: Image) throws -> Image {
        try adding(other).adding(try subtracting(other).call("abs")).linear(multiply: [0.5], add: [0])
    }
}
