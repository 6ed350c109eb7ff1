import Foundation

extension Filters {
    /// The colour filters (vibrance, hsl, mono, split toning, lut), registered in `FilterRegistry.standard`.
    /// They run in the colour stage after `saturation` (order 10), in this order:
    /// vibrance (20), hsl (30), mono (40), splittone (50), lut (90).
    static let colourGroup: [FilterDefinition] = [Filters.vibrance, Filters.hsl, Filters.mono, Filters.splittone, Filters.lut]
}

/// Per-pixel helpers shared by the colour filters. Every one is a point
/// operation: no image-wide statistics.
extension Image {
    /// The hue and chroma of linear RGB on the photo editors' colour wheel:
    /// the RGB values are encoded perceptually (^1/2.2) and projected on the
    /// opponent plane a = R − (G+B)/2, b = √3/2·(G − B), so hue is 0° red,
    /// 60° yellow, 120° green, 180° cyan, 240° blue, 300° magenta (as HSV),
    /// and chroma is 1 for a fully saturated primary at full value.
    /// Returns two 1-band images (hue in degrees 0…360, chroma ≥ 0).
    func colourWheel() throws -> (hue: Image, chroma: Image) {
        let s = 3.0.squareRoot() / 2
        let ab = try signedPower(1 / 2.2).recombine([0, 0, 0, 1, -0.5, -0.5, 0, s, -s])
        let lch = try ab.call("colourspace", [("space", .string("lch")), ("source_space", .string("lab"))])
        return (try lch.extractBands(2, count: 1), try lch.extractBands(1, count: 1))
    }

    /// A soft mask (1 band, 0…1) of a hue range on a 1-band hue image in
    /// degrees: 1 at `centre`, falling linearly to 0 at `centre − left` and
    /// `centre + right` (the neighbouring ranges' centres, so neighbouring
    /// masks add up to 1).
    func colourHueMask(centre: Double, left: Double, right: Double) throws -> Image {
        // Signed hue distance in −180…180.
        let d = try linear(multiply: [1], add: [540 - centre])
            .call("remainder_const", [("c", .doubles([360]))]).linear(multiply: [1], add: [-180])
        let falling = try d.linear(multiply: [-1 / right], add: [1])
        let rising = try d.linear(multiply: [1 / left], add: [1])
        return try falling.minimum(rising).clampedAtZero()
    }
}
