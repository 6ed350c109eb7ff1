import Foundation

/// Editing: a photo's next revision — reading an editing input, merging a
/// chain into its recipe, rendering onto its base, staging the output and
/// committing it (returning the revision the commit wrote); reverts.
struct Editing: LibraryService, FilesUser, RenderUser {
    let catalogPart: CatalogPart
    let filesPart: FilesPart
    let renderPart: RenderPart
    let registry: FilterRegistry
    let queries: Queries
    /// Stages its outputs and commits them.
    let committing: Committing
}
