extension Filters {
    /// The parameters of `flip`, read through these keys.
    enum FlipKeys {
        static let axis = ParameterKey.choice("axis", ["none", "horizontal", "vertical", "both"], default: "none", "which way to mirror")
    }

    /// Mirror images. Runs after rotate, so "horizontal" is left–right as seen.
    public static let flip = FilterDefinition(
        id: "flip", version: 1, stage: .geometry, order: 20,
        summary: "mirrors the photo left–right (horizontal), top–bottom (vertical) or both",
        colourSpace: "any",
        keys: [FlipKeys.axis],
        forms: [
            ChainForm(["axis"], "mirrors along the named axis"),
            ChainForm([], fixed: ["axis": .text("horizontal")], "flip alone mirrors left–right"),
        ],
        needsRandomAccess: { ["vertical", "both"].contains($0[FlipKeys.axis]) }
    ) { image, p, _ in
        switch p[FlipKeys.axis] {
        case "horizontal": return try image.flip("horizontal")
        case "vertical": return try image.flip("vertical")
        case "both": return try image.flip("horizontal").flip("vertical")
        default: return image
        }
    }
}
