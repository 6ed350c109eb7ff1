import Foundation

/// Rendering: pixels out of the library — a version written to a file
/// (Rendering+Render.swift) and the preview of an uncommitted edit
/// (Rendering+Preview.swift). The photo behind an image request
/// (`imageSubject`) is read by `FilesUser`, the stored previews are the
/// `Previews` part's. It writes nothing but previews and derived files.
struct Rendering: LibraryService, FilesUser, RenderUser {
    let catalogPart: CatalogPart
    let filesPart: FilesPart
    let renderPart: RenderPart
    let registry: FilterRegistry
    let queries: Queries
    /// The editing input and the chain's analyses of an uncommitted edit's preview.
    let editing: Editing
}
