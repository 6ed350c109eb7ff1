import Foundation

extension Editing {
    func denoiseIdentification(for idOrPrefix: String) throws -> DenoiseIdentification {
        try DenoiseIdentification.of(path: originalPath(try resolve(idOrPrefix)), renderer: renderer)
    }

    /// `recipe` with a `denoise` node of source `auto` resolved at apply
    /// time: the camera's noise profile for the photo's ISO recorded in it,
    /// or source `estimate` (measured on each render); unchanged otherwise.
    func identifyingNoise(_ recipe: Recipe, id: String) throws -> Recipe {
        guard let node = recipe.node(Filters.denoise.id), node.version == Filters.denoise.version,
              node.parameters.text("source") == "auto" else { return recipe }
        return try denoiseIdentification(for: id).resolving(recipe, registry: registry)
    }
}
