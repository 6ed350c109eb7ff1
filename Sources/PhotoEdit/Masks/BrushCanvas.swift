import CVips
import Foundation

/// Paints brush strokes into a one-band float mask.
///
/// The strokes are painted on a canvas whose longest side is at most
/// `MaskLimits.brushCanvas` pixels (the image's own size when it is smaller),
/// then resized to the image: the mask is the same function of photo
/// coordinates in a 256 px preview and in a 24 MP render, and costs a
/// bounded amount of memory whatever the render's size.
///
/// A stroke covers the pixels within its radius of its path (the distance to
/// the nearest segment), fully inside radius × (1 − feather) and with a
/// smooth fall-off to the edge. Strokes are applied in order: painting adds
/// flow × coverage of what is still unpainted, erasing removes flow ×
/// coverage of what is there.
enum BrushCanvas {
    static func render(_ strokes: [BrushStroke], width: Int, height: Int) throws -> Image {
        let longest = max(width, height)
        let k = max(1, Int((Double(longest) / Double(MaskLimits.brushCanvas)).rounded(.up)))
        let cw = (width + k - 1) / k, ch = (height + k - 1) / k
        var mask = [Float](repeating: 0, count: cw * ch)
        var stroke = [Float](repeating: 0, count: cw * ch)
        let scaleX = Double(width) / Double(k), scaleY = Double(height) / Double(k)
        let shortSide = Double(min(width, height)) / Double(k)
        typealias Point = (x: Double, y: Double)
        // Each stroke: its radius on the canvas, its points, its box (cleared again after use).
        let prepared = strokes.map { s -> (stroke: BrushStroke, radius: Double, points: [Point], box: (Int, Int, Int, Int)) in
            let radius = max(s.radius * shortSide, 0.75)
            let points = s.points.map { (x: $0.x * scaleX, y: $0.y * scaleY) }
            let xs = points.map { $0.x }, ys = points.map { $0.y }
            return (s, radius, points, (max(0, Int((xs.min()! - radius).rounded(.down))), min(cw - 1, Int((xs.max()! + radius).rounded(.up))),
                                        max(0, Int((ys.min()! - radius).rounded(.down))), min(ch - 1, Int((ys.max()! + radius).rounded(.up)))))
        }
        func segments(_ points: [Point]) -> [(Point, Point)] {
            points.count == 1 ? [(points[0], points[0])] : Array(zip(points, points.dropFirst()))
        }
        // The pixels painting will visit, counted first: a hostile recipe is refused, not painted for minutes.
        var work = 0
        for item in prepared {
            for (p, q) in segments(item.points) {
                spans(p, q, radius: item.radius, box: item.box) { _, x0, x1 in work += x1 - x0 + 1 }
            }
        }
        guard work <= MaskLimits.brushWork else {
            throw PhotoEditError.invalidParameter(filter: "local", parameter: "",
                                                  problem: "the brush strokes would paint \(work) canvas pixels (at most \(MaskLimits.brushWork)); use fewer or smaller strokes")
        }
        for (s, radius, points, box) in prepared {
            let inner = radius * (1 - s.feather)
            let (minX, maxX, minY, maxY) = box
            guard minX <= maxX, minY <= maxY else { continue }
            for (p, q) in segments(points) {
                let (dx, dy) = (q.x - p.x, q.y - p.y)
                let length2 = dx * dx + dy * dy
                spans(p, q, radius: radius, box: box) { y, x0, x1 in
                    let py = Double(y) + 0.5
                    for x in x0...x1 {
                        let px = Double(x) + 0.5
                        var t = length2 > 0 ? ((px - p.x) * dx + (py - p.y) * dy) / length2 : 0
                        t = min(1, max(0, t))
                        let (ex, ey) = (px - p.x - t * dx, py - p.y - t * dy)
                        let d = (ex * ex + ey * ey).squareRoot()
                        guard d < radius else { continue }
                        var c = 1.0
                        if d > inner {
                            let u = (radius - d) / (radius - inner)
                            c = u * u * (3 - 2 * u)
                        }
                        let i = y * cw + x
                        if Float(c) > stroke[i] { stroke[i] = Float(c) }
                    }
                }
            }
            let flow = Float(s.flow)
            for y in minY...maxY {
                for x in minX...maxX {
                    let i = y * cw + x
                    let c = stroke[i] * flow
                    guard c > 0 else { continue }
                    mask[i] = s.erase ? mask[i] * (1 - c) : mask[i] + c * (1 - mask[i])
                    stroke[i] = 0
                }
            }
        }
        let image = try floatImage(mask, width: cw, height: ch, bands: 1)
        return k > 1 ? try MaskMath.resized(image, width: width, height: height) : image
    }

    /// Calls `body(y, x0, x1)` for each canvas row's run of pixels that may
    /// lie within `radius` of the segment p→q, inside `box` (minX, maxX, minY, maxY).
    static func spans(_ p: (x: Double, y: Double), _ q: (x: Double, y: Double), radius: Double, box: (Int, Int, Int, Int),
                      _ body: (Int, Int, Int) -> Void) {
        let (minX, maxX, minY, maxY) = box
        let y0 = max(minY, Int((min(p.y, q.y) - radius).rounded(.down)))
        let y1 = min(maxY, Int((max(p.y, q.y) + radius).rounded(.up)))
        guard y0 <= y1 else { return }
        let (dx, dy) = (q.x - p.x, q.y - p.y)
        for y in y0...y1 {
            let py = Double(y) + 0.5
            // The part of the segment within `radius` of this row, widened by `radius`.
            var (t0, t1) = (0.0, 1.0)
            if abs(dy) > 1e-12 {
                let (a, b) = ((py - radius - p.y) / dy, (py + radius - p.y) / dy)
                (t0, t1) = (max(0, min(a, b)), min(1, max(a, b)))
                if t0 > t1 { continue }
            } else if abs(py - p.y) > radius {
                continue
            }
            let (xa, xb) = (p.x + t0 * dx, p.x + t1 * dx)
            let x0 = max(minX, Int((min(xa, xb) - radius).rounded(.down)))
            let x1 = min(maxX, Int((max(xa, xb) + radius).rounded(.up)))
            if x0 <= x1 { body(y, x0, x1) }
        }
    }

    /// libvips' float band format (`VIPS_FORMAT_FLOAT`, 6), by value: the
    /// release build (whole-module) did not find the enum constant here.
    static let floatFormat = VipsBandFormat(rawValue: 6)

    /// A float image holding `pixels` (rows top to bottom, bands interleaved).
    static func floatImage(_ pixels: [Float], width: Int, height: Int, bands: Int) throws -> Image {
        precondition(pixels.count == width * height * bands)
        try Vips.ensureStarted()
        let made = pixels.withUnsafeBytes {
            vips_image_new_from_memory_copy($0.baseAddress, $0.count, Int32(width), Int32(height), Int32(bands), Self.floatFormat)
        }
        guard let made else { throw Vips.error("new_from_memory_copy") }
        return Image(owning: made)
    }
}

extension Image {
    /// Every pixel as floats (rows top to bottom, bands interleaved).
    func floatPixels() throws -> [Float] {
        let data = try cast("float").pixelBytes()
        return data.withUnsafeBytes { Array($0.bindMemory(to: Float.self)) }
    }
}
