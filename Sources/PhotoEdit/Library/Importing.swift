import Foundation

/// Importing: files and bytes into the library — finding the files of a
/// batch, pairing RAW+JPEG, copying each original in under its content
/// address with its preview, reading its metadata.
struct Importing: LibraryService {
    /// The façade: its commit path (`performChanges`), previews and
    /// develop settings read at import, spelled `library.…`.
    let library: PhotoLibrary
    var parts: LibraryParts { library.parts }
}
