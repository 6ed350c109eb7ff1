import Foundation

// The catalog's statements for the versions of a photo (Services/Versions):
// virtual copies (`asset.masterId`, `asset.copyName`, v9) and named
// snapshots (table `snapshot`, v9), in `?`-placeholder SQL both stores speak.

/// A named snapshot of a photo: a name given to one of its revisions
/// (Lightroom's and darktable's snapshots). Kept in the catalog and in the
/// photo's metadata record, so a rebuilt catalog has it back.
struct SnapshotRecord: Codable, Sendable {
    /// At most this many snapshots per photo.
    static let maxPerPhoto = 1000

    var name: String
    var revision: Int
    var date: Date
}

extension SnapshotRecord: Equatable {
    /// Equal names and revisions, dates within the catalog's millisecond precision.
    static func == (a: SnapshotRecord, b: SnapshotRecord) -> Bool {
        a.name == b.name && a.revision == b.revision && abs(a.date.timeIntervalSince(b.date)) < 0.002
    }
}

extension CatalogConnection {
    /// The virtual copies of master `id`, oldest first (ties in byte order of the ids).
    func copies(of id: String) throws -> [String] {
        try texts("SELECT id FROM asset WHERE masterId = ? ORDER BY importDate, \(dialect.bytewise("id"))", id)
    }

    /// How many virtual copies (not in the recently deleted) each of the
    /// masters `ids` has; a photo without one is left out.
    func copyCounts(of ids: [String]) throws -> [String: Int] {
        guard !ids.isEmpty else { return [:] }
        var out: [String: Int] = [:]
        let sql = "SELECT masterId, COUNT(*) AS n FROM asset WHERE trashedDate IS NULL AND masterId IN (\(placeholders(ids.count))) GROUP BY masterId"
        for row in try rows(sql, ids.map(\.sqlValue)) { out[try row.text("masterId")] = try row.int("n") }
        return out
    }

    /// How many photos (masters and copies) use the file at `path` as their
    /// original or alternate.
    func photosUsing(_ path: String) throws -> Int {
        try int("SELECT COUNT(*) FROM asset WHERE originalPath = ? OR alternatePath = ?", path, path) ?? 0
    }

    /// Makes copy `heir` the master of the other copies of `master` (the
    /// master is leaving the library): it and they keep the shared original.
    func promoteCopy(_ heir: String, replacing master: String) throws {
        try execute("UPDATE asset SET masterId = NULL, copyName = NULL WHERE id = ?", heir)
        try execute("UPDATE asset SET masterId = ? WHERE masterId = ?", heir, master)
    }

    /// A photo's snapshots, by name.
    func snapshots(of id: String) throws -> [SnapshotRecord] {
        try rows("SELECT name, revision, createdAt FROM snapshot WHERE assetId = ? ORDER BY \(dialect.bytewise("name"))", id).map {
            SnapshotRecord(name: try $0.text("name"), revision: try $0.int("revision"), date: try $0.date("createdAt"))
        }
    }

    /// Every photo's snapshots, by photo id.
    func allSnapshots() throws -> [String: [SnapshotRecord]] {
        var out: [String: [SnapshotRecord]] = [:]
        for row in try rows("SELECT assetId, name, revision, createdAt FROM snapshot ORDER BY \(dialect.bytewise("name"))") {
            out[try row.text("assetId"), default: []].append(
                SnapshotRecord(name: try row.text("name"), revision: try row.int("revision"), date: try row.date("createdAt")))
        }
        return out
    }

    /// Adds a snapshot (the caller checked its name is free).
    func insertSnapshot(_ snapshot: SnapshotRecord, of id: String) throws {
        try execute("INSERT INTO snapshot (assetId, name, revision, createdAt) VALUES (?, ?, ?, ?)",
                    id, snapshot.name, snapshot.revision, snapshot.date)
    }

    /// Removes a snapshot; false when the photo has none of that name.
    func deleteSnapshot(named name: String, of id: String) throws -> Bool {
        guard try int("SELECT 1 FROM snapshot WHERE assetId = ? AND name = ?", id, name) != nil else { return false }
        try execute("DELETE FROM snapshot WHERE assetId = ? AND name = ?", id, name)
        return true
    }
}
