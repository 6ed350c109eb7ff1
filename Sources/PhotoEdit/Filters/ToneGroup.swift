extension Filters {
    /// The tone filters (highlights, shadows, whites, blacks, levels, curve), registered in `FilterRegistry.standard`.
    static let toneGroup: [FilterDefinition] = []
}
