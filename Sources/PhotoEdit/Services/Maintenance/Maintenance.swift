import Foundation

/// Maintenance: keeping the library whole — recovery after a crashed
/// commit, sweeping staging files, verify (and repair), rebuilding the
/// catalog from the files.
struct Maintenance: LibraryService {
    let parts: LibraryParts
    /// Previews checked, made and removed by verify and recovery.
    let previews: Previews
    /// What staging leaves behind (verify), keywords as a commit writes them.
    let committing: Committing
}
