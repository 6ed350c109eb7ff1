import Foundation

/// An album: an ordered list of photos (PhotoKit's `PHAssetCollection`).
public struct Album: Hashable, Sendable, Codable {
    /// Stable id (32 hex digits).
    public let id: String
    /// The album title (unique).
    public let title: String
    /// When the album was created.
    public let createdAt: Date
    /// Photo ids, in album order.
    public let assetIdentifiers: [String]
}

extension Queries {
    func resolveAlbum(_ titleOrID: String) throws -> String {
        try read { db in try Self.resolveAlbum(titleOrID, db) }
    }

    /// `resolveAlbum` inside a transaction (a change request's).
    static func resolveAlbum(_ titleOrID: String, _ db: any CatalogConnection) throws -> String {
        if let id = try db.albumID(titled: titleOrID) { return id }
        let prefix = titleOrID.lowercased()
        if !prefix.isEmpty, prefix.allSatisfy(\.isHexDigit) {
            let ids = try db.albumIDs(withPrefix: prefix, limit: 2)
            if ids.count == 1 { return ids[0] }
        }
        throw PhotoEditError.unknownAlbum(titleOrID)
    }

    func albums() throws -> [Album] {
        try read { db in
            let ids = try db.albumIDsByTitle()
            let albums = try CatalogModels.albums(ids, db)
            return ids.compactMap { albums[$0] }
        }
    }

    func album(_ titleOrID: String) throws -> Album {
        let id = try resolveAlbum(titleOrID)
        guard let album = try albums().first(where: { $0.id == id }) else { throw PhotoEditError.unknownAlbum(titleOrID) }
        return album
    }
}
