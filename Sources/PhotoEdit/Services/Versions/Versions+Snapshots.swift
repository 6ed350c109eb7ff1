import Foundation

/// A named snapshot of a photo: a name given to one of its revisions, as
/// Lightroom's and darktable's snapshots ("Before client"). Going back to
/// it adds a revision, like every revert.
public struct PhotoSnapshot: Hashable, Sendable, Codable {
    /// The name, unique among the photo's snapshots (1–200 characters, one line).
    public let name: String
    /// The revision it names.
    public let revision: Int
    /// When it was taken.
    public let date: Date
}

extension PhotoSnapshot {
    init(_ r: SnapshotRecord) { self.init(name: r.name, revision: r.revision, date: r.date) }
}

extension Committing {
    /// Inside the commit's transaction: names photo `a`'s current revision.
    func addSnapshot(named name: String, of a: AssetRecord, _ db: any CatalogConnection) throws {
        let name = try DescriptiveMetadata.checkedName(name, "a snapshot name")
        let existing = try db.snapshots(of: a.id)
        if existing.contains(where: { $0.name == name }) {
            throw PhotoEditError.invalidChange("photo \(a.id) already has a snapshot called '\(name)'; choose another name")
        }
        guard existing.count < SnapshotRecord.maxPerPhoto else {
            throw PhotoEditError.invalidChange("photo \(a.id) has \(existing.count) snapshots; at most \(SnapshotRecord.maxPerPhoto) are allowed")
        }
        try db.insertSnapshot(SnapshotRecord(name: name, revision: a.revision, date: Date()), of: a.id)
    }
}

extension Versions {
    /// A photo's snapshots, by name.
    func snapshots(of idOrPrefix: String) throws -> [PhotoSnapshot] {
        try read { db in try db.snapshots(of: try CatalogModels.resolve(idOrPrefix, db)).map(PhotoSnapshot.init) }
    }

    /// Names the photo's current revision; returns the snapshot.
    func addSnapshot(_ name: String, of idOrPrefix: String) throws -> PhotoSnapshot {
        let id = try resolve(idOrPrefix)
        try committing.performChanges { changes in try changes.changeRequest(for: id).addSnapshot(named: name) }
        let name = try DescriptiveMetadata.checkedName(name, "a snapshot name")
        guard let snapshot = try snapshots(of: id).first(where: { $0.name == name }) else {
            throw PhotoEditError.library("the snapshot '\(name)' of \(id) was not written")
        }
        return snapshot
    }

    /// Makes the revision a snapshot names current again, as a new revision.
    func restoreSnapshot(_ name: String, of idOrPrefix: String) throws -> Revision {
        let id = try resolve(idOrPrefix)
        let name = try DescriptiveMetadata.checkedName(name, "a snapshot name")
        guard let snapshot = try snapshots(of: id).first(where: { $0.name == name }) else {
            throw PhotoEditError.invalidChange("photo \(id) has no snapshot called '\(name)'")
        }
        return try editing.revert(id, to: snapshot.revision)
    }
}
