import Foundation

/// Edits that commit only while the photo is at a given revision: what a
/// service needs for HTTP's `If-Match` (the client says which revision it
/// made its edit from; if another writer moved the photo on meanwhile, the
/// edit is refused with `PhotoEditError.conflict` instead of being merged
/// or overwriting, so no update is ever lost and none is applied blindly).
///
/// The check is atomic: the commit's own transaction verifies the revision
/// (as every content-editing output does), so two writers holding the same
/// revision cannot both succeed.
extension PhotoLibrary {
    /// Merges a chain into the recipe of revision `revision` and commits the
    /// result as revision `revision + 1`, only if the photo is still at
    /// `revision`; throws `PhotoEditError.conflict` otherwise (nothing changes).
    /// The other parameters are those of `apply(steps:to:…)`.
    @discardableResult
    public func apply(steps: [ChainStep], to idOrPrefix: String, ifAt revision: Int, reset: Bool = false,
                      removing: [String] = [], presets: PresetLibrary? = nil, fromRAW: Bool? = nil) throws -> Revision {
        try apply(steps: steps, to: idOrPrefix, expected: revision, reset: reset, removing: removing, presets: presets,
                  fromRAW: fromRAW)
    }

    /// `apply(steps:to:ifAt:…)`, also only if the photo passes `precondition`,
    /// checked on the photo as the edit's first read finds it, in that read
    /// (the server's whole-ETag `If-Match`: no transaction of its own).
    @discardableResult
    package func apply(steps: [ChainStep], to idOrPrefix: String, ifAt revision: Int, reset: Bool = false,
                       removing: [String] = [], presets: PresetLibrary? = nil, fromRAW: Bool? = nil,
                       checking precondition: @escaping @Sendable (Asset) throws -> Void) throws -> Revision {
        try apply(steps: steps, to: idOrPrefix, expected: revision, reset: reset, removing: removing, presets: presets,
                  fromRAW: fromRAW, precondition: precondition)
    }

    /// Replaces the photo's recipe with `recipe` (as `apply(recipe:to:)`),
    /// only if the photo is still at `revision`.
    @discardableResult
    public func apply(recipe: Recipe, to idOrPrefix: String, ifAt revision: Int) throws -> Revision {
        try apply(recipe: recipe, to: idOrPrefix, expected: revision)
    }

    /// Reverts to the original, or makes revision `target` current again (as
    /// `revert(_:to:)`), only if the photo is still at `revision`.
    @discardableResult
    public func revert(_ idOrPrefix: String, to target: Int? = nil, ifAt revision: Int) throws -> Revision {
        try revert(idOrPrefix, to: target, expected: revision)
    }
}
