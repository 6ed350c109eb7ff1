import Foundation

extension Editing {
    @discardableResult
    func apply(chain: String, to idOrPrefix: String, reset: Bool = false, removing: [String] = [],
                      presets: PresetLibrary? = nil, fromRAW: Bool? = nil) throws -> Revision {
        let steps = try Chain.parse(chain)
        return try apply(steps: steps, to: idOrPrefix, reset: reset, removing: removing, presets: presets, fromRAW: fromRAW)
    }

    @discardableResult
    func apply(chain: String, to ids: [String], reset: Bool = false, removing: [String] = [],
                      presets: PresetLibrary? = nil, fromRAW: Bool? = nil, progress: ProgressHandler? = nil) throws -> [Revision] {
        let steps = try Chain.parse(chain)
        let resolved = try ids.map { try resolve($0) }
        return try resolved.enumerated().map { n, id in
            defer { progress?(n + 1, resolved.count) }
            return try apply(steps: steps, to: id, reset: reset, removing: removing, presets: presets, fromRAW: fromRAW)
        }
    }

    @discardableResult
    func apply(steps: [ChainStep], to idOrPrefix: String, reset: Bool = false, removing: [String] = [],
                      presets: PresetLibrary? = nil, fromRAW: Bool? = nil) throws -> Revision {
        try apply(steps: steps, to: idOrPrefix, expected: nil, reset: reset, removing: removing, presets: presets, fromRAW: fromRAW)
    }

    /// `apply(steps:…)`; with `expected`, only while the photo is at that
    /// revision (no merge on a conflict); with `precondition`, only if the
    /// photo passes it (`ContentEditingInputRequestOptions.precondition`).
    func apply(steps: [ChainStep], to idOrPrefix: String, expected: Int?, reset: Bool, removing: [String],
               presets: PresetLibrary?, fromRAW: Bool?, precondition: (@Sendable (Asset) throws -> Void)? = nil) throws -> Revision {
        for name in removing { _ = try registry.require(name) }
        let registry = self.registry
        var fromRAW = fromRAW
        let setsRaw = fromRAW == nil && steps.contains { $0.filter == Filters.raw.id }
        let hasPreset = steps.contains { $0.preset != nil }
        // The photo's row and current revision, read once, only when the chain needs them.
        let photo = setsRaw || hasPreset ? try read { db -> (AssetRecord, RevisionRecord?) in
            let a = try CatalogModels.assetRecord(idOrPrefix, db)
            return (a, try db.revision(a.revision, of: a.id))
        } : nil
        if setsRaw, let (a, latest) = photo, a.alternatePath != nil, let latest, latest.baseRevision == nil, latest.basePath == nil {
            // Setting the RAW development of a pair edited from its JPEG moves the edit to the RAW.
            fromRAW = true
        }
        // A Lightroom preset's white balance develops a RAW, or shifts a rendered file's.
        let isRaw = hasPreset ? photo?.0.format == "raw" : false
        return try edit(idOrPrefix, reset: reset, fromRAW: fromRAW, expected: expected, precondition: precondition) { recipe, input in
            var recipe = recipe
            for name in removing { recipe.remove(name) }
            let applied = try Chain.apply(steps, to: recipe, registry: registry, presets: presets, developsRaw: isRaw || recipe.base == .alternate,
                                          auto: { try self.autoAdjustment(base: input.fullSizeImageURL.path, recipe: $0).applied(to: $0, registry: registry) },
                                          upright: { try self.uprightAdjustment(base: input.fullSizeImageURL.path, recipe: $0, id: input.assetIdentifier, mode: $1.mode)
                                              .applied(to: $0, registry: registry, constrain: $1.constrain) })
            return try self.identifyingNoise(self.identifyingLens(applied, id: input.assetIdentifier), id: input.assetIdentifier)
        }
    }

    @discardableResult
    func copyRecipe(from source: String, to targets: [String], includeGeometry: Bool = false,
                           replace: Bool = false, progress: ProgressHandler? = nil) throws -> [Revision] {
        let registry = self.registry
        return try copyRecipe(from: source, to: targets, replace: replace, progress: progress) { filter in
            includeGeometry || registry.filter(filter)?.stage != .geometry
        }
    }

    /// Copies the source's filters that `copies` selects onto each target,
    /// each as its own commit (merged again on a conflict: no update is
    /// lost); `replace` first drops the target's filters `copies` selects.
    func copyRecipe(from source: String, to targets: [String], replace: Bool, progress: ProgressHandler?,
                    copies: (String) -> Bool) throws -> [Revision] {
        let from = try resolve(source)
        let data = try queries.asset(from).adjustmentData
        guard let data else { throw PhotoEditError.invalidChange("photo \(from) has no adjustments to copy") }
        guard Recipe.canHandle(data) else {
            throw PhotoEditError.invalidChange("photo \(from) was edited in format '\(data.formatIdentifier)', which photoedit cannot copy")
        }
        let registry = self.registry
        let copied = try Recipe(adjustmentData: data, registry: registry).nodes.filter { copies($0.filter) }
        let ids = try targets.map { try resolve($0) }
        return try ids.enumerated().map { n, id in
            defer { progress?(n + 1, ids.count) }
            return try edit(id, reset: false) { current, _ in
                var recipe = current
                if replace {
                    for node in recipe.nodes where copies(node.filter) {
                        recipe.remove(node.filter)
                    }
                }
                for node in copied { recipe.set(node, registry: registry) }
                // The lens correction's amounts carry over; the lens is each photo's own (its EXIF).
                if copied.contains(where: { $0.filter == Filters.lens.id }), let lens = recipe.node(Filters.lens.id), lens.version == Filters.lens.version {
                    var values = lens.parameters.values
                    for name in LensCorrection.identity { values[name] = Filters.lens.defaults[name] }
                    recipe.set(RecipeNode(filter: lens.filter, version: lens.version, parameters: try Filters.lens.validated(values)), registry: registry)
                    recipe = try self.identifyingLens(recipe, id: id)
                }
                return recipe
            }
        }
    }

    /// One edit of a photo through the content-editing API: read an input
    /// (photoedit's own recipes are understood, so the base is the version
    /// before the last edit), transform the recipe, render onto the base,
    /// commit. On a conflict with another writer, read again and redo the
    /// transform on top of the new revision (up to 20 times); the transform
    /// also receives the input (its base image, for `auto`); with
    /// `expected`, the photo must be at that revision, and a conflict is thrown.
    func edit(_ idOrPrefix: String, reset: Bool, fromRAW: Bool? = nil, expected: Int? = nil,
              precondition: (@Sendable (Asset) throws -> Void)? = nil,
              transform: (Recipe, ContentEditingInput) throws -> Recipe) throws -> Revision {
        // The id is resolved by the first input read (one transaction), then used whole.
        var id = idOrPrefix
        let registry = self.registry
        let canHandle: @Sendable (AdjustmentData) -> Bool = { Recipe.canHandle($0) && (try? Recipe(adjustmentData: $0, registry: registry)) != nil }
        var attempt = 0
        while true {
            var options = ContentEditingInputRequestOptions(canHandleAdjustmentData: canHandle, startFromOriginal: reset, displaySize: nil)
            options.precondition = precondition
            // Moving the edit to the other file of a RAW+JPEG pair keeps the
            // filters (except the RAW development, when leaving the RAW).
            var carried: Recipe?
            if let fromRAW {
                let current = try requestContentEditingInput(for: id, options: options)
                id = current.assetIdentifier
                if (current.base == .alternate) != fromRAW {
                    if !reset, let data = current.adjustmentData, current.canHandleAdjustmentData {
                        carried = try Recipe(adjustmentData: data, registry: registry)
                    }
                    options = options.startingFrom(alternate: fromRAW)
                }
            }
            let input = try requestContentEditingInput(for: id, options: options)
            id = input.assetIdentifier
            if let expected, input.revision != expected {
                throw PhotoEditError.conflict(asset: id, expected: expected, actual: input.revision)
            }
            var recipe: Recipe
            if let carried {
                recipe = carried
            } else if let data = input.adjustmentData, input.canHandleAdjustmentData, !reset {
                recipe = try Recipe(adjustmentData: data, registry: registry)
            } else {
                recipe = input.base == .original ? .empty : .emptyOnRender
            }
            recipe = recipe.rebased(input.base.recipeBase, registry: registry)
            if carried != nil && input.base != .alternate { recipe.remove(Filters.raw.id) }
            recipe = try transform(recipe, input)
            do {
                if recipe.isEmpty && recipe.base == .original {
                    return try commitRevert(id, expected: input.revision)
                }
                return try commitRendered(recipe, input: input)
            } catch PhotoEditError.conflict where attempt < 20 && expected == nil {
                // Another writer committed first: merge again on top of its
                // revision, after a short random pause so racers spread out.
                attempt += 1
                usleep(UInt32.random(in: 2_000...20_000) * UInt32(min(attempt, 5)))
            }
        }
    }

    @discardableResult
    func apply(recipe: Recipe, to idOrPrefix: String) throws -> Revision {
        try apply(recipe: recipe, to: idOrPrefix, expected: nil)
    }

    /// `apply(recipe:to:)`; with `expected`, only while the photo is at that revision.
    func apply(recipe: Recipe, to idOrPrefix: String, expected: Int?,
               precondition: (@Sendable (Asset) throws -> Void)? = nil) throws -> Revision {
        let recipe = try recipe.bindingUnrecorded(registry: registry)
        // The id is resolved by the input read (one transaction), then used whole.
        let input: ContentEditingInput
        if recipe.base == .render {
            var options = ContentEditingInputRequestOptions(canHandleAdjustmentData: { Recipe.canHandle($0) }, displaySize: nil)
            options.precondition = precondition
            input = try requestContentEditingInput(for: idOrPrefix, options: options)
            guard case .render = input.base else {
                throw PhotoEditError.invalidAdjustmentData("the recipe has base \"render\", but photo \(input.assetIdentifier) has no other tool's edit to build on; use base \"original\"")
            }
        } else {
            var options = ContentEditingInputRequestOptions(startFromOriginal: true, displaySize: nil)
            options.precondition = precondition
            input = try requestContentEditingInput(for: idOrPrefix, options: recipe.base == .alternate ? options.startingFrom(alternate: true) : options)
        }
        let id = input.assetIdentifier
        if let expected, input.revision != expected {
            throw PhotoEditError.conflict(asset: id, expected: expected, actual: input.revision)
        }
        if recipe.isEmpty && recipe.base == .original { return try commitRevert(id, expected: input.revision) }
        return try commitRendered(recipe, input: input)
    }

    @discardableResult
    func upgrade(_ idOrPrefix: String) throws -> (revision: Revision, upgraded: [(filter: String, from: Int, to: Int)])? {
        let id = try resolve(idOrPrefix)
        let registry = self.registry
        let input = try requestContentEditingInput(for: id, options: ContentEditingInputRequestOptions(
            canHandleAdjustmentData: { Recipe.canHandle($0) }, displaySize: nil))
        guard let data = input.adjustmentData, input.canHandleAdjustmentData else { return nil }
        let before = try Recipe(adjustmentData: data, registry: registry)
        let frozen = before.frozenNodes(registry: registry)
        guard !frozen.isEmpty else { return nil }
        let after = try Recipe(adjustmentData: data, registry: registry, upgrade: true)
        return (try commitRendered(after, input: input), frozen.map { ($0.filter, $0.version, $0.current) })
    }

    func upgrade(_ ids: [String], progress: ProgressHandler? = nil) throws
        -> [(revision: Revision, upgraded: [(filter: String, from: Int, to: Int)])?] {
        let resolved = try ids.map { try resolve($0) }
        return try resolved.enumerated().map { n, id in
            defer { progress?(n + 1, resolved.count) }
            return try upgrade(id)
        }
    }

    /// Renders a recipe onto an input's base (full size, JPEG) and commits it
    /// with the recipe as the photo's next revision, through the same
    /// content-editing output any editor uses. Returns that revision.
    /// `adjustmentData`, when given, is stored instead of the recipe's (the
    /// Lightroom packet the recipe translates).
    func commitRendered(_ recipe: Recipe, input: ContentEditingInput, adjustmentData: AdjustmentData? = nil) throws -> Revision {
        try requireWritable()
        return try committing.commitRevision(of: input.assetIdentifier, staging: ContentEditingOutput(contentEditingInput: input)) { output in
            try render(recipe, onto: input.fullSizeImageURL.path, into: &output)
            output.adjustmentData = adjustmentData ?? recipe.adjustmentData
        }
    }

    @discardableResult
    func revert(_ idOrPrefix: String, to revision: Int? = nil) throws -> Revision {
        try revert(idOrPrefix, to: revision, expected: nil)
    }

    /// `revert(_:to:)`; with `expected`, only while the photo is at that revision.
    func revert(_ idOrPrefix: String, to revision: Int?, expected: Int?) throws -> Revision {
        let photo = try read { db in try CatalogModels.assetRecord(idOrPrefix, db) }
        let (id, latest) = (photo.id, photo.revision)
        if let expected, latest != expected {
            throw PhotoEditError.conflict(asset: id, expected: expected, actual: latest)
        }
        guard let n = revision else {
            return try commitRevert(id, expected: expected)
        }
        guard n >= 0, n <= latest else { throw PhotoEditError.unknownRevision(asset: id, revision: n, latest: latest) }
        guard let old = try read({ db in try db.revision(n, of: id) }) else {
            throw PhotoEditError.unknownRevision(asset: id, revision: n, latest: latest)
        }
        guard let data = old.adjustmentData else { return try commitRevert(id, expected: latest) }
        let base: ContentEditingBase = old.baseRevision.map { .render(revision: $0) } ?? (old.basePath == nil ? .original : .alternate)
        let output = ContentEditingOutput(assetIdentifier: id, baseRevision: latest, base: base, adjustmentData: data,
                                          stagingDirectory: committing.stagingDirectory, baseRelativePath: old.basePath)
        return try committing.commitRevision(of: id, staging: output) { output in
            if Recipe.canHandle(data), let recipe = try? Recipe(adjustmentData: data, registry: registry) {
                let basePath = try old.basePath.map(files.localPath) ?? originalPath(id)
                try render(recipe, onto: basePath, into: &output)
            } else {
                guard let render = old.renderPath.flatMap(files.existingLocalPath) else {
                    throw PhotoEditError.library("revision \(n) of \(id) is in format '\(data.formatIdentifier)' and its render is missing; it cannot be restored")
                }
                _ = try FileIO.copyHashing(from: render, to: output.renderedContentURL.path)
            }
            output.adjustmentData = data
            output.kind = .revert
        }
    }

    private func commitRevert(_ id: String, expected: Int?) throws -> Revision {
        try committing.commitRevision(of: id) { changes in changes.add(.revert(id, expected: expected)) }
    }

    /// Renders `recipe` onto the image at `basePath` into the output's
    /// staging file (full size, JPEG). A render large enough to get a
    /// preview streams into the encoder through a reducing pass, which
    /// averages it down to the preview's size on the way: the commit encodes
    /// that as the preview (no decode of the JPEG just written, ~0.2 s of a
    /// 24 MP edit, and no full-size copy in memory).
    func render(_ recipe: Recipe, onto basePath: String, into output: inout ContentEditingOutput) throws {
        let image = try renderer.render(recipe: recipe, originalPath: basePath)
        let reduce = Previews.wanted(width: image.width, height: image.height, raw: false)
        let preview = Previews.size(width: image.width, height: image.height)
        // (A photo over 60 times the preview's size streams without one.)
        let written = reduce ? (try? image.reducingPass(width: preview.width, height: preview.height)) ?? image : image
        try Renderer.save(written, to: output.renderedContentURL.path, format: .jpeg, quality: Renderer.renderQuality)
        output.engineRender = (image.width, image.height)
        output.renderedReduction = reduce ? written.reduction() : nil
    }

    /// The recipe an edit of this photo starts from.
    func editableRecipe(_ asset: Asset) throws -> Recipe {
        guard let data = asset.adjustmentData else { return .empty }
        return try Recipe(adjustmentData: data, registry: registry)
    }
}

extension ContentEditingOutput {
    init(assetIdentifier: String, baseRevision: Int, base: ContentEditingBase, adjustmentData: AdjustmentData?,
         stagingDirectory: URL, baseRelativePath: String?) {
        self.assetIdentifier = assetIdentifier
        self.baseRevision = baseRevision
        self.base = base
        self.adjustmentData = adjustmentData
        self.baseRelativePath = baseRelativePath
        renderedContentURL = stagingDirectory.appendingPathComponent("\(getpid())-\(UUID().uuidString.lowercased())-render.jpg")
    }
}
