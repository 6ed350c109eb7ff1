import Foundation

/// Maintenance: keeping the library whole — recovery after a crashed
/// commit, sweeping staging files, verify (and repair), rebuilding the
/// catalog from the files.
struct Maintenance: LibraryService, FilesUser, RenderUser {
    let catalogPart: CatalogPart
    let filesPart: FilesPart
    let renderPart: RenderPart
    let registry: FilterRegistry
    let darktable: DarktableSetting
    /// Previews checked, made and removed by verify and recovery.
    let previews: Previews
    /// What staging leaves behind (verify), keywords as a commit writes them.
    let committing: Committing
}
