import Foundation

/// A healing or cloning spot: an ellipse of the photo replaced by the same
/// ellipse `offset` away (Lightroom's spot removal, darktable's retouch).
public struct RetouchSpot: Hashable, Sendable {
    /// How the source replaces the destination.
    public enum Mode: String, Hashable, Sendable, CaseIterable {
        /// The source's pixels, as they are.
        case clone
        /// The source's texture, its tone and colour blended into the
        /// destination's surroundings: the difference destination − source
        /// on the spot's edge is spread smoothly over the spot (Laplace's
        /// equation, as darktable's heal), then added to the source.
        case heal
    }

    public var mode: Mode
    /// The spot's centre (normalised photo coordinates).
    public var centre: MaskPoint
    /// Half the spot's width, as a fraction of the photo's width.
    public var radiusX: Double
    /// Half the spot's height, as a fraction of the photo's height.
    public var radiusY: Double
    /// Where the source is, relative to the spot: fractions of width and height.
    public var offset: MaskPoint
    /// The part of the radius, from the edge inwards, over which the spot blends into the photo.
    public var feather: Double = 0.3
    /// How much of the source replaces the spot, 0…1.
    public var opacity: Double = 1
    /// A switched-off spot stays in the recipe and changes nothing.
    public var enabled: Bool = true

    public init(mode: Mode, centre: MaskPoint, radiusX: Double, radiusY: Double, offset: MaskPoint,
                feather: Double = 0.3, opacity: Double = 1, enabled: Bool = true) {
        self.mode = mode
        self.centre = centre
        self.radiusX = radiusX
        self.radiusY = radiusY
        self.offset = offset
        self.feather = feather
        self.opacity = opacity
        self.enabled = enabled
    }

    func validated(_ what: String) throws -> RetouchSpot {
        let out = RetouchSpot(
            mode: mode, centre: try centre.validated("\(what) centre"),
            radiusX: try checkedNumber(radiusX, declared("spot", "rx"), "\(what) radius x", open: true),
            radiusY: try checkedNumber(radiusY, declared("spot", "ry"), "\(what) radius y", open: true),
            offset: MaskPoint(x: try checkedNumber(offset.x, declared("spot", "dx"), "\(what) offset x"), y: try checkedNumber(offset.y, declared("spot", "dy"), "\(what) offset y")),
            feather: try checkedNumber(feather, declared("spot", "feather"), "\(what) feather"),
            opacity: try checkedNumber(opacity, declared("spot", "opacity"), "\(what) opacity"),
            enabled: enabled)
        guard out.offset != MaskPoint(x: 0, y: 0) else { throw MaskProblem.invalid("\(what): the source offset must not be 0,0") }
        return out
    }
}

extension RetouchSpot {
    /// The spot applied to `image` (linear float RGB): the destination box
    /// and the source box are read, the patch computed in Swift (a spot is
    /// small) and inserted back.
    func render(_ image: Image) throws -> Image {
        guard enabled, opacity > 0 else { return image }
        let (w, h) = (Double(image.width), Double(image.height))
        let (cx, cy) = (centre.x * w, centre.y * h)
        let (a, b) = (max(radiusX * w, 0.5), max(radiusY * h, 0.5))
        // The box around the ellipse, one pixel of margin, inside the image.
        let left = max(0, Int((cx - a).rounded(.down)) - 1), right = min(image.width, Int((cx + a).rounded(.up)) + 1)
        let top = max(0, Int((cy - b).rounded(.down)) - 1), bottom = min(image.height, Int((cy + b).rounded(.up)) + 1)
        let (bw, bh) = (right - left, bottom - top)
        guard bw >= 1, bh >= 1 else { return image }
        // The source box: the same box `offset` away, kept inside the image.
        let sl = min(max(0, left + Int((offset.x * w).rounded())), image.width - bw)
        let st = min(max(0, top + Int((offset.y * h).rounded())), image.height - bh)
        let destination = try image.extractArea(left: left, top: top, width: bw, height: bh).floatPixels()
        let source = try image.extractArea(left: sl, top: st, width: bw, height: bh).floatPixels()
        // ρ: distance from the centre in radii, per box pixel.
        var rho = [Double](repeating: 0, count: bw * bh)
        for y in 0..<bh {
            for x in 0..<bw {
                let u = (Double(left + x) + 0.5 - cx) / a, v = (Double(top + y) + 0.5 - cy) / b
                rho[y * bw + x] = (u * u + v * v).squareRoot()
            }
        }
        var patch = source
        if mode == .heal {
            // Inside the ellipse the difference is unknown and solved for;
            // outside it (the box's margin) it is destination − source.
            let unknown = rho.enumerated().map { i, r in
                let (x, y) = (i % bw, i / bw)
                return r < 1 && x > 0 && y > 0 && x < bw - 1 && y < bh - 1
            }
            for band in 0..<3 {
                var d = [Float](repeating: 0, count: bw * bh)
                for i in 0..<(bw * bh) { d[i] = unknown[i] ? 0 : destination[i * 3 + band] - source[i * 3 + band] }
                Laplace.solve(&d, unknown: unknown, width: bw, height: bh)
                for i in 0..<(bw * bh) { patch[i * 3 + band] = source[i * 3 + band] + d[i] }
            }
        }
        // Blend: full inside 1 − feather, fading to nothing at the edge.
        var out = destination
        let f = max(feather, 1e-3)
        for i in 0..<(bw * bh) {
            let t = min(1, max(0, (1 - rho[i]) / f))
            let alpha = Float(opacity * t * t * (3 - 2 * t))
            guard alpha > 0 else { continue }
            for band in 0..<3 {
                out[i * 3 + band] = destination[i * 3 + band] + alpha * (patch[i * 3 + band] - destination[i * 3 + band])
            }
        }
        let sub = try BrushCanvas.floatImage(out, width: bw, height: bh, bands: 3)
        return try Vips.image("insert", [("main", .image(image)), ("sub", .image(sub)),
                                         ("x", .number(Double(left))), ("y", .number(Double(top)))])
    }
}

/// Laplace's equation on a small grid: the unknown cells become the
/// harmonic interpolation of the known ones around them (each the mean of
/// its four neighbours). Solved coarse to fine: the problem halved until it
/// is small, solved there, and the solution refined by successive
/// over-relaxation at each finer level.
enum Laplace {
    static func solve(_ u: inout [Float], unknown: [Bool], width: Int, height: Int) {
        guard unknown.contains(true) else { return }
        if min(width, height) > 8 {
            // Restrict: a coarse cell is known when any of its children is
            // (the mean of the known ones).
            let (cw, ch) = ((width + 1) / 2, (height + 1) / 2)
            var coarse = [Float](repeating: 0, count: cw * ch)
            var coarseUnknown = [Bool](repeating: true, count: cw * ch)
            for y in 0..<ch {
                for x in 0..<cw {
                    var sum: Float = 0, n: Float = 0
                    for (dx, dy) in [(0, 0), (1, 0), (0, 1), (1, 1)] {
                        let (fx, fy) = (2 * x + dx, 2 * y + dy)
                        guard fx < width, fy < height, !unknown[fy * width + fx] else { continue }
                        sum += u[fy * width + fx]
                        n += 1
                    }
                    if n > 0 {
                        coarse[y * cw + x] = sum / n
                        coarseUnknown[y * cw + x] = false
                    }
                }
            }
            solve(&coarse, unknown: coarseUnknown, width: cw, height: ch)
            for y in 0..<height {
                for x in 0..<width where unknown[y * width + x] {
                    u[y * width + x] = coarse[(y / 2) * cw + x / 2]
                }
            }
        } else {
            let known = zip(u, unknown).filter { !$0.1 }.map { $0.0 }
            let mean = known.isEmpty ? 0 : known.reduce(0, +) / Float(known.count)
            for i in 0..<u.count where unknown[i] { u[i] = mean }
        }
        relax(&u, unknown: unknown, width: width, height: height, sweeps: 40)
    }

    /// Gauss–Seidel with over-relaxation; cells at the border average the
    /// neighbours they have.
    static func relax(_ u: inout [Float], unknown: [Bool], width: Int, height: Int, sweeps: Int) {
        let omega: Float = 1.7
        for _ in 0..<sweeps {
            for y in 0..<height {
                for x in 0..<width where unknown[y * width + x] {
                    let i = y * width + x
                    var sum: Float = 0, n: Float = 0
                    if x > 0 { sum += u[i - 1]; n += 1 }
                    if x < width - 1 { sum += u[i + 1]; n += 1 }
                    if y > 0 { sum += u[i - width]; n += 1 }
                    if y < height - 1 { sum += u[i + width]; n += 1 }
                    u[i] += omega * (sum / n - u[i])
                }
            }
        }
    }
}

extension Filters {
    /// Images up to this many pixels are copied to memory before spots are applied (48 MB of float RGB).
    static let retouchInMemoryPixels = 4_000_000

    /// Healing and cloning spots (`RetouchSpot`). Runs first, on the
    /// upright, uncropped photo (before white balance and every other
    /// filter), as darktable's retouch and Lightroom's spot removal.
    public static let retouch: FilterDefinition = {
        var d = FilterDefinition(
            id: "retouch", version: 1, stage: .whiteBalance, order: 0,
            summary: "healing and cloning spots: an ellipse replaced by another part of the photo",
            colourSpace: "linear RGB",
            parameters: [],
            forms: [ChainForm([], "e.g. retouch=heal(0.3 0.4 0.02 0.03 0.05 0) (docs/chain-grammar.md)")],
            needsRandomAccess: { p in
                if case .spots(let s)? = p.content { return !s.isEmpty }
                return false
            }
        ) { image, p, _ in
            guard case .spots(let spots)? = p.content, spots.contains(where: { $0.enabled && $0.opacity > 0 }) else { return image }
            // Spots read the image out of order. A full render opens its
            // file for random access (needsRandomAccess); a preview-sized
            // image (a thumbnail, decoded sequentially) is computed once
            // into memory instead.
            var out = image.width * image.height <= Self.retouchInMemoryPixels ? try image.inMemory() : image
            for spot in spots { out = try spot.render(out) }
            return out
        }
        d.structure = StructuredFilter(
            decode: { params, _ in
                try StructuredFilter.checked("retouch") { .spots(try LocalJSON.spots(params)) }
            },
            apply: { parameter, text, current in
                try StructuredFilter.checked("retouch") {
                    var list: [RetouchSpot] = []
                    if case .spots(let s)? = current { list = s }
                    return .spots(try MaskChain.applySpots(parameter, text, to: list))
                }
            },
            format: { content in
                guard case .spots(let list) = content else { return [] }
                return list.isEmpty ? [] : [list.map(MaskChain.format).joined(separator: " ")]
            })
        return d
    }()
}
