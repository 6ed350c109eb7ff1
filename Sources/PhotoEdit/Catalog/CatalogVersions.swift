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

extension SnapshotRecord {
    /// A row holding `snapshot`'s name, revision and createdAt.
    init(row: CatalogRow) throws {
        let s = CatalogSchema.snapshot
        self.init(name: try row.get(s.name), revision: try row.get(s.revision), date: try row.get(s.createdAt))
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
        let a = CatalogSchema.asset
        var out: [String: Int] = [:]
        let sql = """
            SELECT \(a.masterId), COUNT(*) FROM \(a) WHERE \(a.trashedDate) IS NULL AND \(a.masterId) IN (\(placeholders(ids.count)))
            GROUP BY \(a.masterId)
            """
        for row in try rows(sql, ids.map(\.sqlValue)) {
            if let master = try row.get(a.masterId) { out[master] = try row.get(1) }
        }
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
        let s = CatalogSchema.snapshot
        return try rows("SELECT \(s.name), \(s.revision), \(s.createdAt) FROM \(s) WHERE \(s.assetId) = ? ORDER BY \(dialect.bytewise(s.name.name))",
                        id).map(SnapshotRecord.init(row:))
    }

    /// Every photo's snapshots, by photo id.
    func allSnapshots() throws -> [String: [SnapshotRecord]] {
        let s = CatalogSchema.snapshot
        var out: [String: [SnapshotRecord]] = [:]
        for row in try rows("SELECT \(s.assetId), \(s.name), \(s.revision), \(s.createdAt) FROM \(s) ORDER BY \(dialect.bytewise(s.name.name))") {
            out[try row.get(s.assetId), default: []].append(try SnapshotRecord(row: row))
        }
        return out
    }

    /// Adds a snapshot (the caller checked its name is free).
    func insertSnapshot(_ snapshot: SnapshotRecord, of id: String) throws {
        let s = CatalogSchema.snapshot
        try insert(into: s, [s.assetId.bind(id), s.name.bind(snapshot.name), s.revision.bind(snapshot.revision), s.createdAt.bind(snapshot.date)])
    }

    /// Removes a snapshot; false when the photo has none of that name.
    func deleteSnapshot(named name: String, of id: String) throws -> Bool {
        guard try int("SELECT 1 FROM snapshot WHERE assetId = ? AND name = ?", id, name) != nil else { return false }
        try execute("DELETE FROM snapshot WHERE assetId = ? AND name = ?", id, name)
        return true
    }
}
