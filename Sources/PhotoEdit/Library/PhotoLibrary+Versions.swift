import Foundation

// The façade's versions of one photo (Services/Versions): virtual copies,
// named snapshots, presets saved from an edit, selective sync.

extension PhotoLibrary {
    /// Makes a virtual copy of a photo (Lightroom's "Create Virtual Copy",
    /// darktable's duplicate): a new photo sharing the original's bytes (no
    /// second copy of the file), starting from the source's current recipe
    /// (its render copied), or from the original when `fresh`. It gets the
    /// source's rating, label, keywords, title, caption and favorite flag;
    /// from then on its history, metadata, albums and renders are its own.
    /// A copy of a copy is a copy of the same master. `name` defaults to
    /// "Copy N". Returns the copy.
    public func duplicate(_ idOrPrefix: String, name: String? = nil, fresh: Bool = false) throws -> Asset {
        let placeholder = try committing.performChanges(returning: { changes in
            try changes.changeRequest(for: idOrPrefix).duplicate(name: name, fresh: fresh)
        })
        return try asset(placeholder.localIdentifier)
    }

    /// The versions of a photo's original: its master first, then its
    /// virtual copies, oldest first (deleted ones included). A photo with
    /// no copies is alone in the list.
    public func versions(of idOrPrefix: String) throws -> [Asset] {
        try read { db in
            let a = try CatalogModels.assetRecord(idOrPrefix, db)
            let master = a.masterId ?? a.id
            let ids = [master] + (try db.copies(of: master))
            let models = try CatalogModels.assetModels(ids, db)
            return ids.compactMap { models[$0] }
        }
    }

    /// How many virtual copies (not in the recently deleted) each of the
    /// photos `ids` has, for a grid that stacks copies under their master:
    /// a photo without copies (or a copy) is left out. At most 1000 ids.
    public func copyCounts(of ids: [String]) throws -> [String: Int] {
        guard ids.count <= 1000 else { throw PhotoEditError.invalidChange("at most 1000 photos at a time (\(ids.count) given)") }
        return try read { db in try db.copyCounts(of: ids) }
    }

    /// A copy's or snapshot's name as the library takes it: trimmed, 1–200
    /// characters on one line without control characters; else
    /// `invalidChange` naming `what` ("a snapshot name").
    public static func checkedVersionName(_ name: String, _ what: String) throws -> String {
        try DescriptiveMetadata.checkedName(name, what)
    }

    /// A photo's named snapshots, by name.
    public func snapshots(of idOrPrefix: String) throws -> [PhotoSnapshot] { try versions.snapshots(of: idOrPrefix) }

    /// Names the photo's current revision (`photoedit snapshot ID NAME`).
    /// A name the photo has already fails with `invalidChange`.
    @discardableResult
    public func addSnapshot(_ name: String, of idOrPrefix: String) throws -> PhotoSnapshot { try versions.addSnapshot(name, of: idOrPrefix) }

    /// Goes back to a snapshot: its revision becomes current again, as a
    /// new revision (like every revert). Returns that revision.
    @discardableResult
    public func restoreSnapshot(_ name: String, of idOrPrefix: String) throws -> Revision {
        try versions.restoreSnapshot(name, of: idOrPrefix)
    }
}

extension PhotoLibrary {
    /// Syncs the settings of `groups` from one photo onto others (`photoedit
    /// copy-recipe SRC DST… --only GROUPS`); see `RecipeGroup` for the
    /// groups and `RecipeGroup.defaultSync` for Lightroom's default checklist.
    /// A target that is the source fails before anything changes.
    @discardableResult
    public func syncRecipe(from source: String, to targets: [String], groups: Set<RecipeGroup> = RecipeGroup.defaultSync,
                           progress: ProgressHandler? = nil) throws -> [Revision] {
        try versions.sync(from: source, to: targets, groups: groups, progress: progress)
    }
}

extension AssetChangeRequest {
    /// Makes a virtual copy of this photo in the same commit (see
    /// `PhotoLibrary.duplicate(_:name:fresh:)`); its id is the placeholder's.
    public func duplicate(name: String? = nil, fresh: Bool = false) throws -> ObjectPlaceholder {
        let placeholder = ObjectPlaceholder(Committing.newIdentifier())
        try record(.duplicate(placeholder, source: assetIdentifier, name: name, fresh: fresh))
        return placeholder
    }

    /// Names the photo's current revision (as it is when the commit applies).
    public func addSnapshot(named name: String) throws { try record(.snapshot(assetIdentifier, name: name)) }

    /// Removes one of the photo's snapshots (its revision stays).
    public func removeSnapshot(named name: String) throws { try record(.removeSnapshot(assetIdentifier, name: name)) }
}

extension PhotoLibrary {
    /// Saves the `groups` of a photo's current recipe as the library's preset
    /// `name` (Lightroom's New Preset with its checklist), every setting
    /// scaled by `amount` (0…2, Lightroom's Amount; 1: as it is). It is a
    /// Lightroom preset (`presets/NAME.xmp`, never replaced: an existing
    /// name fails), listed by `presets()` and applied like any other.
    /// Returns it and the filters a Lightroom preset cannot hold (left out).
    public func savePreset(named name: String, from idOrPrefix: String, groups: Set<RecipeGroup> = RecipeGroup.defaultSync,
                           amount: Double = 1) throws -> (preset: Preset, notExported: [String]) {
        try versions.savePreset(named: name, from: idOrPrefix, groups: groups, amount: amount)
    }
}
