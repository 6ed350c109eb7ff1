import Foundation

/// Importing: files and bytes into the library — finding the files of a
/// batch, pairing RAW+JPEG, copying each original in under its content
/// address with its preview, reading its metadata.
struct Importing: LibraryService, FilesUser {
    let catalogPart: CatalogPart
    let filesPart: FilesPart
    let registry: FilterRegistry
    let darktable: DarktableSetting
    let queries: Queries
    /// Other editors' develop settings become a revision through an edit.
    let editing: Editing
    /// Stages the originals and commits the photos.
    let committing: Committing
}
