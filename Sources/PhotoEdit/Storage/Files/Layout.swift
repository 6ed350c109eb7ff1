import Foundation

/// Where things live inside a library folder (docs/library-layout.md).
///
///     LIBRARY/
///       catalog.sqlite          SQLite catalog (WAL)
///       library.lock            advisory lock (crash recovery)
///       originals/ab/<sha256>.<ext>   originals, read-only, content-addressed
///       renders/<id[0..2]>/<id>/<rev>-<nonce>.jpg   full-size render of each edited revision
///       revisions/<id[0..2]>/<id>/<rev>-<nonce>.json  each revision's record (rebuilds the catalog)
///       revisions/<id[0..2]>/<id>/metadata-<nonce>.json  the photo's rating, label, keywords… (MetadataRecord.swift)
///       previews/<file>.jpg     ≤1440-px preview of each large original and render (Storage/Files/Previews.swift)
///       cache/                  rebuildable derivatives (safe to delete)
///       tmp/                    staging for commits (emptied by recovery, swept by long-running processes)
struct LibraryLayout: Sendable {
    let root: URL

    var catalog: String { root.appendingPathComponent("catalog.sqlite").path }
    var lock: String { root.appendingPathComponent("library.lock").path }
    var originals: String { root.appendingPathComponent("originals").path }
    var renders: String { root.appendingPathComponent("renders").path }
    var revisions: String { root.appendingPathComponent("revisions").path }
    var cache: String { root.appendingPathComponent("cache").path }
    var tmp: String { root.appendingPathComponent("tmp").path }

    /// Relative path of an original.
    static func originalPath(sha256: String, extension ext: String) -> String {
        "originals/\(sha256.prefix(2))/\(sha256).\(ext)"
    }

    /// Relative path of a revision's render; the nonce keeps two concurrent
    /// writers of the same revision number from ever sharing a file.
    static func renderPath(asset: String, revision: Int) -> String {
        "renders/\(asset.prefix(2))/\(asset)/\(revision)-\(UUID().uuidString.prefix(8).lowercased()).jpg"
    }

    /// Relative path of a revision's sidecar (its record: what
    /// `verify --rebuild-catalog` reads back), unique like a render's.
    static func sidecarPath(asset: String, revision: Int) -> String {
        "revisions/\(asset.prefix(2))/\(asset)/\(revision)-\(UUID().uuidString.prefix(8).lowercased()).json"
    }

    func absolute(_ relative: String) -> String { root.appendingPathComponent(relative).path }

    /// A fresh staging file name.
    func temporary(_ suffix: String) -> String {
        "\(tmp)/\(getpid())-\(UUID().uuidString.lowercased())\(suffix)"
    }
}
