import Foundation

extension Editing {
    func autoAdjustment(for idOrPrefix: String) throws -> AutoAdjustment {
        let (_, base, recipe) = try measuredBase(idOrPrefix)
        return try autoAdjustment(base: base, recipe: recipe)
    }

    /// The photo's id, the path of the base its current edit starts from and
    /// its current recipe (empty when it is not photoedit's): what `auto` and
    /// `upright` measure.
    func measuredBase(_ idOrPrefix: String) throws -> (id: String, path: String, recipe: Recipe) {
        let id = try resolve(idOrPrefix)
        let registry = self.registry
        let canHandle: @Sendable (AdjustmentData) -> Bool = { Recipe.canHandle($0) && (try? Recipe(adjustmentData: $0, registry: registry)) != nil }
        let input = try requestContentEditingInput(for: id, options: ContentEditingInputRequestOptions(
            canHandleAdjustmentData: canHandle, displaySize: nil))
        var recipe = Recipe.empty
        if let data = input.adjustmentData, input.canHandleAdjustmentData {
            recipe = try Recipe(adjustmentData: data, registry: registry)
        }
        return (id, input.fullSizeImageURL.path, recipe)
    }

    /// `AutoAdjust.analyse` on the base image at `path`: a JPEG, PNG… is
    /// decoded at about the analysis size (libvips' shrink-on-load); a camera
    /// RAW is developed with `recipe`'s `raw` settings.
    func autoAdjustment(base path: String, recipe: Recipe) throws -> AutoAdjustment {
        let working: Image
        if Renderer.isRaw(path) {
            let raw = recipe.node(Filters.raw.id).map { RawSettings(parameters: $0.parameters) }
            working = try renderer.workingImage(path: path, randomAccess: true, raw: raw)
        } else {
            let side = Double(AutoAdjust.analysisLongEdge)
            let thumbnail = try Vips.image("thumbnail", [
                ("filename", .string(path)), ("width", .number(side)), ("height", .number(side)),
                ("size", .string("down")), ("fail_on", .string("truncated")),
            ])
            working = try renderer.workingImage(upright: thumbnail)
        }
        return try AutoAdjust.analyse(working)
    }
}
