extension Filters {
    /// The colour filters (vibrance, hsl, mono, split toning, lut), registered in `FilterRegistry.standard`.
    static let colourGroup: [FilterDefinition] = []
}
