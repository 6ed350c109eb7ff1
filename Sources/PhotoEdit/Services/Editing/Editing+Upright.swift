import Foundation

extension Editing {
    func uprightAdjustment(for idOrPrefix: String, mode: UprightMode) throws -> UprightAdjustment {
        let (id, base, recipe) = try measuredBase(idOrPrefix)
        return try uprightAdjustment(base: base, recipe: recipe, id: id, mode: mode)
    }

    /// `Upright.analyse` on the base image at `path` as the `perspective`
    /// filter sees it: reduced to about the analysis size (a JPEG, PNG… by
    /// libvips' shrink-on-load; a camera RAW developed with `recipe`'s `raw`
    /// settings, then reduced), then `recipe`'s `lens` and the geometry
    /// before `perspective` (`rotate`) applied to it.
    func uprightAdjustment(base path: String, recipe: Recipe, id: String, mode: UprightMode) throws -> UprightAdjustment {
        let recipe = try identifyingLens(recipe, id: id)
        let long = Upright.analysisLongEdge
        var working: Image
        let scale: Double
        if Renderer.isRaw(path) {
            let raw = recipe.node(Filters.raw.id).map { RawSettings(parameters: $0.parameters) }
            let full = try renderer.workingImage(path: path, randomAccess: true, raw: raw)
            scale = min(1, long / Double(max(full.width, full.height)))
            working = scale < 1 ? try full.resized(hscale: scale, vscale: scale) : full
        } else {
            let header = try Image.load(path: path, sequential: true)
            let thumbnail = try Vips.image("thumbnail", [
                ("filename", .string(path)), ("width", .number(long)), ("height", .number(long)),
                ("size", .string("down")), ("fail_on", .string("truncated")),
            ])
            scale = Double(max(thumbnail.width, thumbnail.height)) / Double(max(1, max(header.width, header.height)))
            working = try renderer.workingImage(upright: thumbnail)
        }
        // Computed once: the geometry below reads it in any order.
        working = try working.inMemory()
        let context = RenderContext(scale: scale)
        for node in recipe.nodes {
            let definition = try registry.require(node.filter)
            let before = definition.id == Filters.lens.id
                || (definition.stage == .geometry && definition.order < Filters.perspective.order)
            if before { working = try definition.renderer(for: node.version)(working, node.parameters, context) }
        }
        var found = try Upright.analyse(working, mode: mode)
        found.constrainedScale = found.constrained(in: recipe)
        return found
    }
}
