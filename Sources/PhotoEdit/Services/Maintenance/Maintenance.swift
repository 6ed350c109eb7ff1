import Foundation

/// Maintenance: keeping the library whole — recovery after a crashed
/// commit, sweeping staging files, verify (and repair), rebuilding the
/// catalog from the files.
struct Maintenance: LibraryService {
    let parts: LibraryParts
}
