import Foundation

/// Versions: many versions of one photo — virtual copies (a photo of its
/// own sharing its master's original), named snapshots of a photo's
/// revisions, presets saved from an edit and selective sync of a recipe's
/// groups onto other photos. Every change goes through Committing.
struct Versions: LibraryService, FilesUser {
    let catalogPart: CatalogPart
    let filesPart: FilesPart
    let registry: FilterRegistry
    let queries: Queries
    /// Reverts to a snapshot, copies recipes (sync).
    let editing: Editing
    let committing: Committing
    /// Presets saved from an edit.
    let uploadedPresets: UploadedPresets
}
