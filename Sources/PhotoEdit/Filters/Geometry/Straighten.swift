import Foundation

extension Filters {
    /// The parameters of `straighten`, read through these keys.
    enum StraightenKeys {
        static let angle = ParameterKey.number("angle", -45...45, default: 0, unit: "°", "clockwise rotation; negative turns anticlockwise")
    }

    /// Straighten: rotates by any angle (-45…45°, clockwise positive) and
    /// crops to the largest upright rectangle of the original aspect ratio
    /// that lies inside the rotated image, so no corner is empty.
    ///
    /// For a w×h image turned by θ, that rectangle is s·w × s·h with
    /// s = min(w / (w·|cos θ| + h·|sin θ|), h / (w·|sin θ| + h·|cos θ|)),
    /// centred on the image centre. One libvips `affine` pass (bilinear)
    /// renders exactly that rectangle; pixels a half-pixel outside the source
    /// are copied from its edge, never filled with black.
    public static let straighten = FilterDefinition(
        id: "straighten", version: 1, stage: .geometry, order: 15,
        summary: "levels a tilted horizon: rotates by any angle and crops to the largest upright rectangle of the same aspect ratio",
        colourSpace: "any (resampled bilinearly in linear RGB)",
        keys: [StraightenKeys.angle],
        forms: [ChainForm(["angle"], "e.g. straighten=-2.5")],
        needsRandomAccess: { $0[StraightenKeys.angle] != 0 }
    ) { image, p, _ in
        let angle = p[StraightenKeys.angle]
        if angle == 0 { return image }
        let (w, h) = (Double(image.width), Double(image.height))
        let (cw, ch) = Straighten.cropSize(width: image.width, height: image.height, degrees: angle)
        let theta = angle * .pi / 180
        let (c, s) = (Foundation.cos(theta), Foundation.sin(theta))
        // Output (X, Y) = R · (input − input centre) + output centre, with
        // pixel centres on integer coordinates; y points down, so this
        // matrix turns the picture clockwise for θ > 0.
        return try image.call("affine", [
            ("matrix", .doubles([c, -s, s, c])),
            ("oarea", .doubles([0, 0, Double(cw), Double(ch)])),
            ("idx", .number(-(w - 1) / 2)), ("idy", .number(-(h - 1) / 2)),
            ("odx", .number((Double(cw) - 1) / 2)), ("ody", .number((Double(ch) - 1) / 2)),
            ("extend", .string("copy")),
        ])
    }
}

/// The geometry of `straighten`.
enum Straighten {
    /// The scale s of the largest w:h rectangle inside a w×h rectangle turned by `degrees`.
    static func cropScale(width: Int, height: Int, degrees: Double) -> Double {
        let (w, h) = (Double(width), Double(height))
        let theta = abs(degrees) * .pi / 180
        let (c, s) = (Foundation.cos(theta), Foundation.sin(theta))
        return min(w / (w * c + h * s), h / (w * s + h * c))
    }

    /// Size in whole pixels of the straightened, cropped image.
    static func cropSize(width: Int, height: Int, degrees: Double) -> (width: Int, height: Int) {
        let k = cropScale(width: width, height: height, degrees: degrees)
        return (max(1, Int((Double(width) * k).rounded(.down))), max(1, Int((Double(height) * k).rounded(.down))))
    }
}
