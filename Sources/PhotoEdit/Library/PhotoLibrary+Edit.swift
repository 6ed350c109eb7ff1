import Foundation
import GRDB

extension PhotoLibrary {
    /// Applies a chain (e.g. `"crop,exposure=+0.3"`) to a photo: merges it
    /// into the current recipe (or, with `reset`, into an empty one), renders
    /// the full-size output and commits both as the next revision.
    ///
    /// If another writer commits to the same photo meanwhile, the chain is
    /// merged again on top of that revision (up to a few times), so no edit
    /// is ever lost. Returns the new revision.
    @discardableResult
    public func apply(chain: String, to idOrPrefix: String, reset: Bool = false, removing: [String] = []) throws -> Revision {
        let steps = try Chain.parse(chain)
        return try apply(steps: steps, to: idOrPrefix, reset: reset, removing: removing)
    }

    /// `apply(chain:…)` with parsed steps.
    @discardableResult
    public func apply(steps: [ChainStep], to idOrPrefix: String, reset: Bool = false, removing: [String] = []) throws -> Revision {
        for name in removing { _ = try registry.require(name) }
        let id = try resolve(idOrPrefix)
        var attempt = 0
        while true {
            let base = try asset(id)
            var recipe = reset ? Recipe.empty : try editableRecipe(base)
            for name in removing { recipe.remove(name) }
            recipe = try Chain.apply(steps, to: recipe, registry: registry)
            do {
                return try commit(recipe: recipe, to: id, expectedRevision: base.revision, kind: .edit)
            } catch PhotoEditError.conflict where attempt < 4 {
                attempt += 1
            }
        }
    }

    /// Returns the photo to its original as a new revision without
    /// adjustments; with `revision`, makes that revision current again (its
    /// render rebuilt from its adjustment data). Nothing is deleted.
    @discardableResult
    public func revert(_ idOrPrefix: String, to revision: Int? = nil) throws -> Revision {
        let id = try resolve(idOrPrefix)
        let base = try asset(id)
        guard let n = revision else {
            return try commit(recipe: .empty, to: id, expectedRevision: base.revision, kind: .revert)
        }
        guard n >= 0, n <= base.revision else { throw PhotoEditError.unknownRevision(asset: id, revision: n, latest: base.revision) }
        let old = try read { db in try RevisionRecord.fetchOne(db, key: ["assetId": id, "number": n]) }
        guard let old else { throw PhotoEditError.unknownRevision(asset: id, revision: n, latest: base.revision) }
        guard let data = old.adjustmentData else {
            return try commit(recipe: .empty, to: id, expectedRevision: base.revision, kind: .revert)
        }
        let recipe = try Recipe(adjustmentData: data, registry: registry)
        return try commit(recipe: recipe, to: id, expectedRevision: base.revision, kind: .revert)
    }

    /// The recipe an edit of this photo starts from.
    func editableRecipe(_ asset: Asset) throws -> Recipe {
        guard let data = asset.adjustmentData else { return .empty }
        guard Recipe.canHandle(data) else {
            throw PhotoEditError.invalidAdjustmentData(
                "photo \(asset.id) was last edited in format '\(data.formatIdentifier)' version \(data.formatVersion), which this engine cannot edit; use --reset to start from the original")
        }
        return try Recipe(adjustmentData: data, registry: registry)
    }

    /// Renders `recipe` (nothing for an empty one), stages the render, moves
    /// it into place and commits the revision if the photo is still at
    /// `expectedRevision`. On any failure nothing is left behind.
    func commit(recipe: Recipe, to id: String, expectedRevision: Int, kind: Revision.Kind) throws -> Revision {
        let original = try originalPath(id)
        var renderRelative: String?
        var size: (Int, Int)
        if recipe.isEmpty {
            let a = try asset(id)
            size = (a.originalPixelWidth, a.originalPixelHeight)
        } else {
            let image = try renderer.render(recipe: recipe, originalPath: original)
            let staged = layout.temporary(".jpg")
            defer { unlink(staged) }
            try Renderer.save(image, to: staged, format: .jpeg, quality: Renderer.renderQuality)
            try FileIO.flush(staged)
            size = (image.width, image.height)
            let relative = LibraryLayout.renderPath(asset: id, revision: expectedRevision + 1)
            try FileIO.moveIntoPlace(from: staged, to: layout.absolute(relative), readOnly: true)
            renderRelative = relative
        }
        let data = recipe.isEmpty ? nil : recipe.adjustmentData
        do {
            return try db.write { db in
                guard let current = try Int.fetchOne(db, sql: "SELECT revision FROM asset WHERE id = ?", arguments: [id]) else {
                    throw PhotoEditError.unknownAsset(id)
                }
                guard current == expectedRevision else {
                    throw PhotoEditError.conflict(asset: id, expected: expectedRevision, actual: current)
                }
                let record = RevisionRecord(assetId: id, number: current + 1, createdAt: Date(), kind: kind.rawValue,
                                            formatIdentifier: data?.formatIdentifier, formatVersion: data?.formatVersion,
                                            data: data?.data, renderPath: renderRelative, pixelWidth: size.0, pixelHeight: size.1)
                try record.insert(db)
                try db.execute(sql: "UPDATE asset SET revision = ? WHERE id = ?", arguments: [current + 1, id])
                return Self.revision(record)
            }
        } catch {
            if let renderRelative { unlink(layout.absolute(renderRelative)) }
            if let error = error as? DatabaseError { throw PhotoEditError.library("catalog: \(error.message ?? error.description)") }
            throw error
        }
    }
}
