import Foundation

/// Importing: files and bytes into the library — finding the files of a
/// batch, pairing RAW+JPEG, copying each original in under its content
/// address with its preview, reading its metadata.
struct Importing: LibraryService {
    let parts: LibraryParts
}
