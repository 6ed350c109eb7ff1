import Foundation

extension Editing {
    func denoiseIdentification(for idOrPrefix: String) throws -> DenoiseIdentification {
        try DenoiseIdentification.of(path: originalPath(try resolve(idOrPrefix)), renderer: renderer)
    }

    /// `recipe` with a `denoise` node of source `auto` (or `profile` with
    /// none recorded) resolved at apply time: the camera's noise profile for
    /// the photo's ISO recorded in it, or source `estimate` (measured on each
    /// render); unchanged otherwise.
    func identifyingNoise(_ recipe: Recipe, id: String) throws -> Recipe {
        guard DenoiseIdentification.needsResolving(recipe) else { return recipe }
        return try denoiseIdentification(for: id).resolving(recipe, registry: registry)
    }
}
