import Foundation

extension Filters {
    /// The detail, effects and geometry filters (sharpen, noise, blur, vignette, grain, straighten, resize), registered in `FilterRegistry.standard`.
    static let detailGroup: [FilterDefinition] = [
        Filters.noise, Filters.straighten, Filters.sharpen, Filters.blur, Filters.vignette, Filters.grain, Filters.resize,
    ]
}

/// Small libvips helpers shared by the detail, effects and geometry filters.
extension Image {
    /// `self op other`, pixel by pixel ("add", "subtract", "multiply", "divide");
    /// a one-band operand is applied to every band of the other.
    func detailBinary(_ op: String, _ other: Image) throws -> Image {
        try Vips.image(op, [("left", .image(self)), ("right", .image(other))])
    }

    /// Rec. 709 luminance of linear RGB, one band.
    func detailLuminance() throws -> Image {
        try linear(multiply: [0.2126 * 3, 0.7152 * 3, 0.0722 * 3], add: [0, 0, 0]).call("bandmean")
    }

    /// Gaussian blur with float precision (sigma in pixels).
    func detailGaussBlur(sigma: Double) throws -> Image {
        try call("gaussblur", [("sigma", .number(sigma)), ("precision", .string("float")), ("min_ampl", .number(0.01))])
    }

    /// Clamps every band to `low…high`.
    func detailClamp(_ low: Double, _ high: Double) throws -> Image {
        let zero = try linear(multiply: [0], add: [0])
        let lowered = try select(lessThan: low, then: zero.linear(multiply: [0], add: [low]), otherwise: self)
        let over = try lowered.linear(multiply: [-1], add: [0])  // -x < -high ⇔ x > high
        return try over.select(lessThan: -high, then: zero.linear(multiply: [0], add: [high]), otherwise: lowered)
    }

    /// Perceptual encoding of a one-band linear image: max(v, 0)^(1/2.2).
    func detailPerceptual() throws -> Image {
        let zero = try linear(multiply: [0], add: [0])
        return try select(lessThan: 0, then: zero, otherwise: self).call("math2_const", [("math2", .string("pow")), ("c", .doubles([1 / 2.2]))])
    }
}
