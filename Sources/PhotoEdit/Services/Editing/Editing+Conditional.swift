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
extension Editing {
    @discardableResult
    func apply(steps: [ChainStep], to idOrPrefix: String, ifAt revision: Int, reset: Bool = false,
                      removing: [String] = [], presets: PresetLibrary? = nil, fromRAW: Bool? = nil) throws -> Revision {
        try apply(steps: steps, to: idOrPrefix, expected: revision, reset: reset, removing: removing, presets: presets,
                  fromRAW: fromRAW)
    }

    @discardableResult
    func apply(steps: [ChainStep], to idOrPrefix: String, ifAt revision: Int, reset: Bool = false,
                       removing: [String] = [], presets: PresetLibrary? = nil, fromRAW: Bool? = nil,
                       checking precondition: @escaping @Sendable (Asset) throws -> Void) throws -> Revision {
        try apply(steps: steps, to: idOrPrefix, expected: revision, reset: reset, removing: removing, presets: presets,
                  fromRAW: fromRAW, precondition: precondition)
    }

    @discardableResult
    func apply(recipe: Recipe, to idOrPrefix: String, ifAt revision: Int,
               checking precondition: (@Sendable (Asset) throws -> Void)? = nil) throws -> Revision {
        try apply(recipe: recipe, to: idOrPrefix, expected: revision, precondition: precondition)
    }

    @discardableResult
    func revert(_ idOrPrefix: String, to target: Int? = nil, ifAt revision: Int) throws -> Revision {
        try revert(idOrPrefix, to: target, expected: revision)
    }
}
