import Foundation

extension Editing {
    func lensIdentification(for idOrPrefix: String) throws -> LensIdentification {
        try LensIdentification.of(path: originalPath(try resolve(idOrPrefix)))
    }

    /// `recipe` with its `lens` node completed from the photo's EXIF when it
    /// names no lens (or no focal length) yet; unchanged otherwise.
    func identifyingLens(_ recipe: Recipe, id: String) throws -> Recipe {
        guard let node = recipe.node(Filters.lens.id), node.version == Filters.lens.version,
              node.parameters[Filters.LensKeys.lens].isEmpty || node.parameters[Filters.LensKeys.focal] == 0 else { return recipe }
        return try lensIdentification(for: id).applied(to: recipe, registry: registry)
    }
}
