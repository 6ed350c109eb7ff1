import Foundation

extension Filters {
    /// The detail, effects and geometry filters (sharpen, noise, blur, vignette, grain, straighten, resize), registered in `FilterRegistry.standard`.
    static let detailGroup: [FilterDefinition] = [
        Filters.noise, Filters.denoise, Filters.straighten, Filters.sharpen, Filters.blur, Filters.vignette, Filters.grain, Filters.resize,
    ]
}

/// Small libvips helpers shared by the detail, effects and geometry filters.
extension Image {
    /// Gaussian blur with float precision (sigma in pixels).
    func detailGaussBlur(sigma: Double) throws -> Image {
        try call("gaussblur", [("sigma", .number(sigma)), ("precision", .string("float")), ("min_ampl", .number(0.01))])
    }

    /// Perceptual encoding of a one-band linear image: max(v, 0)^(1/2.2).
    func detailPerceptual() throws -> Image {
        let zero = try linear(multiply: [0], add: [0])
        return try select(lessThan: 0, then: zero, otherwise: self).call("math2_const", [("math2", .string("pow")), ("c", .doubles([1 / 2.2]))])
    }
}
