import Foundation

extension Filters {
    /// The parameters of `perspective`, read through these keys.
    enum PerspectiveKeys {
        static let vertical = ParameterKey.number("vertical", -100...100, default: 0, "tilts the picture about its horizontal axis (±100 = ±25°); + widens the top")
        static let horizontal = ParameterKey.number("horizontal", -100...100, default: 0, "turns the picture about its vertical axis (±100 = ±25°); + enlarges the right side")
        static let rotate = ParameterKey.number("rotate", -10...10, default: 0, unit: "°", "turns the picture in its plane, clockwise")
        static let aspect = ParameterKey.number("aspect", -100...100, default: 0, "+ stretches horizontally (×2^(aspect/200)) and squeezes vertically, − the reverse")
        static let scale = ParameterKey.number("scale", 50...150, default: 100, unit: "%", "zooms about the centre")
        static let x = ParameterKey.number("x", -100...100, default: 0, unit: "%", "moves the picture right (+) or left, by a percentage of half the width")
        static let y = ParameterKey.number("y", -100...100, default: 0, unit: "%", "moves the picture down (+) or up, by a percentage of half the height")
    }

    /// Perspective: keystone correction and framing, as Lightroom's Transform
    /// panel — one projective transform (a homography), rendered by libvips
    /// `mapim` (bilinear) from a map of source coordinates.
    ///
    /// In coordinates centred on the image and scaled so the long edge spans
    /// −1…1, the image plane is turned in 3-D in front of a camera of focal
    /// length f = 1.5 (about a 28 mm lens on full frame): `vertical` turns it
    /// about the horizontal axis (±100 = ±25°), `horizontal` about the
    /// vertical axis (±100 = ±25°), and `rotate` in the plane (degrees,
    /// clockwise); H = K·Ry·Rx·Rz·K⁻¹, K = diag(f, f, 1), moved so the centre
    /// stays in the centre. Then, in the
    /// output, `aspect` stretches (width × 2^(aspect/200), height ÷ the same),
    /// `scale` zooms about the centre (percent) and `x`, `y` move the result
    /// by a percentage of half the width / height. The output keeps the
    /// input's size; where no source pixel falls it is black.
    ///
    /// Signs: `vertical` > 0 makes the top of the picture wider than the
    /// bottom (it straightens verticals that converge upwards, as in a
    /// building shot from below); `horizontal` > 0 makes the right side
    /// taller than the left; `x` > 0 moves the picture right, `y` > 0 down.
    /// It runs in the geometry stage after `rotate` and before `straighten`
    /// and `crop`, so a crop frames the corrected picture.
    public static let perspective = FilterDefinition(
        id: "perspective", version: 1, stage: .geometry, order: 12,
        summary: "keystone correction and framing: vertical, horizontal, rotate, aspect, scale, offset (one projective transform)",
        colourSpace: "any (resampled bilinearly in linear RGB)",
        keys: [
            PerspectiveKeys.vertical, PerspectiveKeys.horizontal, PerspectiveKeys.rotate, PerspectiveKeys.aspect, PerspectiveKeys.scale,
            PerspectiveKeys.x, PerspectiveKeys.y,
        ],
        forms: [
            ChainForm(["vertical"], "keystone only, e.g. perspective=+30"),
            ChainForm(["vertical", "horizontal"], "vertical and horizontal, e.g. perspective=+30:-10"),
            ChainForm(["vertical", "horizontal", "rotate"], "with a rotation in degrees, e.g. perspective=+30:0:1.5"),
        ],
        needsRandomAccess: { !Perspective.isIdentity($0) }
    ) { image, p, _ in
        if Perspective.isIdentity(p) { return image }
        let inverse = ColourMath.inverse(Perspective.matrix(p, width: image.width, height: image.height))
        // For each output pixel (x, y, 1): the source position (X/W, Y/W).
        let grid = try Vips.image("xyz", [("width", .number(Double(image.width))), ("height", .number(Double(image.height)))])
            .cast("float")
        let homogeneous = try Vips.image("bandjoin_const", [("in", .image(grid)), ("c", .doubles([1]))])
        let mapped = try homogeneous.call("recomb", [("m", .image(try Image.matrix(inverse)))])
        let index = try mapped.extractBands(0, count: 2).divided(by: mapped.extractBands(2, count: 1))
        return try Vips.image("mapim", [("in", .image(image)), ("index", .image(index)), ("extend", .string("black"))])
    }
}

/// The geometry of `perspective`.
enum Perspective {
    /// The keys `perspective`'s parameters are read through.
    private typealias K = Filters.PerspectiveKeys

    /// The focal length of the assumed camera, in half long edges.
    static let focalLength = 1.5
    /// The tilt of `vertical` / `horizontal` at ±100, in degrees.
    static let maximumTilt = 25.0

    static func isIdentity(_ p: Parameters) -> Bool {
        [K.vertical, K.horizontal, K.rotate, K.aspect, K.x, K.y].allSatisfy { p[$0] == 0 } && p[K.scale] == 100
    }

    /// The forward transform, source pixel → output pixel (homogeneous,
    /// row-major 3×3, pixel centres on integer coordinates).
    static func matrix(_ p: Parameters, width: Int, height: Int) -> [Double] {
        let f = focalLength
        let radians = { (d: Double) in d * .pi / 180 }
        let a = radians(p[K.vertical] / 100 * maximumTilt)
        let b = radians(p[K.horizontal] / 100 * maximumTilt)
        let g = radians(p[K.rotate])
        // Rx turns about the horizontal axis, so that a > 0 brings the top
        // (y < 0, y pointing down) nearer the camera: the top grows.
        let rx: [Double] = [1, 0, 0, 0, cos(a), -sin(a), 0, sin(a), cos(a)]
        // Ry: b > 0 brings the right side (x > 0) nearer.
        let ry: [Double] = [cos(b), 0, sin(b), 0, 1, 0, -sin(b), 0, cos(b)]
        let rz: [Double] = [cos(g), -sin(g), 0, sin(g), cos(g), 0, 0, 0, 1]
        let k: [Double] = [f, 0, 0, 0, f, 0, 0, 0, 1], kInverse: [Double] = [1 / f, 0, 0, 0, 1 / f, 0, 0, 0, 1]
        let m = ColourMath.multiply
        var homography = m(k, m(ry, m(rx, m(rz, kInverse))))
        // Keep the centre of the picture in the centre.
        let centre = ColourMath.apply(homography, [0, 0, 1])
        homography = m([1, 0, -centre[0] / centre[2], 0, 1, -centre[1] / centre[2], 0, 0, 1], homography)
        let stretch = pow(2, p[K.aspect] / 200), zoom = p[K.scale] / 100
        let (w, h) = (Double(width), Double(height))
        let s = max(w, h) / 2
        let affine: [Double] = [zoom * stretch, 0, p[K.x] / 100 * (w / 2) / s,
                                0, zoom / stretch, p[K.y] / 100 * (h / 2) / s,
                                0, 0, 1]
        // Pixels ↔ centred coordinates in half long edges.
        let (cx, cy) = ((w - 1) / 2, (h - 1) / 2)
        let toCentred: [Double] = [1 / s, 0, -cx / s, 0, 1 / s, -cy / s, 0, 0, 1]
        let toPixels: [Double] = [s, 0, cx, 0, s, cy, 0, 0, 1]
        return m(toPixels, m(affine, m(homography, toCentred)))
    }
}
