import Foundation

/// Queries: reading the library — photos, revisions, albums, resources
/// and metadata; nothing it does writes.
struct Queries: LibraryService {
    let parts: LibraryParts
}
