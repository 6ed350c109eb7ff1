import Foundation

/// Maintenance: keeping the library whole — recovery after a crashed
/// commit, sweeping staging files, verify (and repair), rebuilding the
/// catalog from the files.
struct Maintenance: LibraryService {
    /// The façade: its previews and darktable setting, spelled `library.…`.
    let library: PhotoLibrary
    var parts: LibraryParts { library.parts }
}
