import Foundation

/// What changed about an object in one committed change.
public struct ChangedAspects: OptionSet, Sendable, Hashable {
    public let rawValue: Int
    public init(rawValue: Int) { self.rawValue = rawValue }

    /// A photo's content: a new revision (edit, revert, upgrade, copied
    /// recipe) or a rebuilt render (PhotoKit's `assetContentChanged`).
    public static let content = ChangedAspects(rawValue: 1 << 0)
    /// A photo was marked or unmarked as a favorite.
    public static let favorite = ChangedAspects(rawValue: 1 << 1)
    /// A photo was hidden or shown.
    public static let hidden = ChangedAspects(rawValue: 1 << 2)
    /// A photo moved to or from "recently deleted".
    public static let deleted = ChangedAspects(rawValue: 1 << 3)
    /// A photo's capture date or location.
    public static let metadata = ChangedAspects(rawValue: 1 << 4)
    /// The albums a photo is in (or their titles).
    public static let albums = ChangedAspects(rawValue: 1 << 5)
    /// An album's title.
    public static let title = ChangedAspects(rawValue: 1 << 6)
    /// An album's photos or their order.
    public static let assets = ChangedAspects(rawValue: 1 << 7)
    /// A photo's rating (stars or rejected).
    public static let rating = ChangedAspects(rawValue: 1 << 8)
    /// A photo's colour label.
    public static let label = ChangedAspects(rawValue: 1 << 9)
    /// A photo's keywords.
    public static let keywords = ChangedAspects(rawValue: 1 << 10)
    /// A photo's title or caption.
    public static let caption = ChangedAspects(rawValue: 1 << 11)
    /// A photo's named snapshots (one taken or removed; the revisions stay).
    public static let snapshots = ChangedAspects(rawValue: 1 << 12)

    static let names: [(ChangedAspects, String)] = [
        (.content, "content"), (.favorite, "favorite"), (.hidden, "hidden"), (.deleted, "deleted"),
        (.metadata, "metadata"), (.albums, "albums"), (.title, "title"), (.assets, "assets"),
        (.rating, "rating"), (.label, "label"), (.keywords, "keywords"), (.caption, "caption"),
        (.snapshots, "snapshots"),
    ]

    /// The names of the aspects (`content`, `favorite`, …), in a fixed order.
    public var names: [String] { Self.names.filter { contains($0.0) }.map(\.1) }

    package init(names text: String) {
        self = []
        for part in text.split(separator: ",") {
            if let (aspect, _) = Self.names.first(where: { $0.1 == part }) { insert(aspect) }
        }
    }
}

/// One object changed by one committed change: a row of the change feed.
public struct ChangeEntry: Sendable, Hashable {
    /// Inserted, updated or deleted (removed for good: purged photos, deleted albums).
    public enum Kind: String, Sendable, Hashable {
        case insert, update, delete
    }

    /// The sequence number of the change (the `ChangeSet`) it belongs to.
    public let seq: Int
    /// When the change was committed.
    public let date: Date
    /// A photo or an album.
    public let objectType: ObjectType
    /// The object's id.
    public let identifier: String
    /// Inserted, updated or deleted.
    public let kind: Kind
    /// What changed (empty for inserts and deletes).
    public let aspects: ChangedAspects

    /// An entry read from a catalog's feed (the PostgreSQL catalog reads its own).
    package init(seq: Int, date: Date, objectType: ObjectType, identifier: String, kind: Kind, aspects: ChangedAspects) {
        self.seq = seq
        self.date = date
        self.objectType = objectType
        self.identifier = identifier
        self.kind = kind
        self.aspects = aspects
    }
}

/// How one object changed (PhotoKit's `PHObjectChangeDetails`).
public struct ObjectChangeDetails<Object: Sendable & Hashable>: Sendable, Hashable {
    /// The object before the change (nil when it was inserted).
    public let objectBeforeChanges: Object?
    /// The object after the change (nil when it was deleted).
    public let objectAfterChanges: Object?
    /// What changed.
    public let aspects: ChangedAspects
    /// A new revision or render: images of the photo must be requested again.
    public var assetContentChanged: Bool { aspects.contains(.content) }
    /// The object was removed for good (a purged photo, a deleted album).
    public var objectWasDeleted: Bool { objectBeforeChanges != nil && objectAfterChanges == nil }
}

/// One committed change (PhotoKit's `PHChange`): its sequence number, and
/// every object it inserted, updated or deleted, with the objects as they
/// were before and after it.
public struct ChangeSet: Sendable {
    /// The change's sequence number: increases with every commit, never reused.
    public let seq: Int
    /// When it was committed.
    public let date: Date
    /// Each changed object, in the order the change touched them.
    public let entries: [ChangeEntry]
    let assetDetails: [String: ObjectChangeDetails<Asset>]
    let albumDetails: [String: ObjectChangeDetails<Album>]

    /// Ids of the photos this change inserted, updated or deleted.
    public var assetIdentifiers: [String] { entries.filter { $0.objectType == .asset }.map(\.identifier) }
    /// Ids of the albums this change inserted, updated or deleted.
    public var albumIdentifiers: [String] { entries.filter { $0.objectType == .album }.map(\.identifier) }

    /// How a photo changed, nil when this change did not touch it.
    public func changeDetails(forAsset identifier: String) -> ObjectChangeDetails<Asset>? { assetDetails[identifier] }
    /// How an album changed, nil when this change did not touch it.
    public func changeDetails(forAlbum identifier: String) -> ObjectChangeDetails<Album>? { albumDetails[identifier] }

    /// How a fetch result changed (PhotoKit's `changeDetails(for:)`): the
    /// fetch is run again and its ids compared with the result's. Nil when
    /// the result is the same and none of its objects changed. The new
    /// result is the library as it is now, so it may also hold changes that
    /// came after this one; applying change sets in order converges.
    public func changeDetails<Object>(for fetchResult: FetchResult<Object>) throws -> FetchResultChangeDetails<Object>? {
        guard !entries.isEmpty else { return nil }
        let updated = Set(entries.filter { $0.objectType == fetchResult.objectType && $0.kind == .update }.map(\.identifier))
        let details = FetchResultChangeDetails(before: fetchResult, after: try fetchResult.refetch(), updated: updated)
        return details.isEmpty ? nil : details
    }
}

// MARK: Recording

/// Collects the objects a commit touches, inside its transaction: the first
/// touch of an object snapshots it as it was; `record` compares each with
/// its state at the end and writes the change set and its entries, in the
/// same transaction (so a rollback leaves neither the change nor its entries).
final class ChangeRecorder {
    private struct Key: Hashable {
        var type: ObjectType
        var id: String
    }

    private enum Snapshot: Equatable {
        case asset(Asset?)
        case album(Album?)
    }

    /// Each object touched, in the order first touched, as it was then.
    private var touched: [(key: Key, before: Snapshot, forced: ChangedAspects)] = []
    /// Where each object is in `touched`.
    private var position: [Key: Int] = [:]

    /// Remembers the photo as it is now (nil: it does not exist yet), the
    /// first time it is touched. `aspects` are recorded even if the row does
    /// not change (a rebuilt render).
    func asset(_ id: String, _ db: any CatalogConnection, aspects: ChangedAspects = []) throws {
        let key = Key(type: .asset, id: id)
        if let i = position[key] {
            touched[i].forced.formUnion(aspects)
        } else {
            let before = Snapshot.asset(try CatalogModels.assetModels([id], db)[id])
            position[key] = touched.count
            touched.append((key, before, aspects))
        }
    }

    /// Remembers the album as it is now, the first time it is touched.
    func album(_ id: String, _ db: any CatalogConnection) throws {
        let key = Key(type: .album, id: id)
        if position[key] == nil {
            let before = Snapshot.album(try CatalogModels.albums([id], db)[id])
            position[key] = touched.count
            touched.append((key, before, []))
        }
    }

    /// Touches every photo of an album (their `albums` change with it).
    func members(ofAlbum id: String, _ db: any CatalogConnection) throws {
        for asset in try db.albumMembers(id) {
            try self.asset(asset, db)
        }
    }

    /// Touches every album a photo is in (their contents change with it).
    func albums(ofAsset id: String, _ db: any CatalogConnection) throws {
        for album in try db.albumIDs(holding: id) {
            try self.album(album, db)
        }
    }

    /// Writes the change set and one entry per object that changed; nothing
    /// when nothing did. Returns the sequence number, nil when nothing was written.
    @discardableResult
    func record(_ db: any CatalogConnection) throws -> Int? {
        var rows: [(Key, ChangeEntry.Kind, ChangedAspects, String?)] = []
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        func json<T: Encodable>(_ value: T?) throws -> String? {
            try value.map { String(decoding: try encoder.encode($0), as: UTF8.self) }
        }
        for (key, before, forced) in touched {
            switch before {
            case .asset(let old):
                let new = try CatalogModels.assetModels([key.id], db)[key.id]
                guard let (kind, aspects) = Self.compare(old, new, forced: forced, aspects: Self.aspects) else { continue }
                rows.append((key, kind, aspects, try json(old)))
            case .album(let old):
                let new = try CatalogModels.albums([key.id], db)[key.id]
                guard let (kind, aspects) = Self.compare(old, new, forced: forced, aspects: Self.aspects) else { continue }
                rows.append((key, kind, aspects, try json(old)))
            }
        }
        guard !rows.isEmpty else { return nil }
        let seq = try db.insertChangeSet(time: Date())
        for (key, kind, aspects, before) in rows {
            try db.insertChangeEntry(seq: seq, objectType: key.type.rawValue, objectId: key.id, kind: kind.rawValue,
                                     aspects: aspects.names.joined(separator: ","), before: before)
        }
        return seq
    }

    private static func compare<T: Equatable>(_ old: T?, _ new: T?, forced: ChangedAspects,
                                              aspects: (T, T) -> ChangedAspects) -> (ChangeEntry.Kind, ChangedAspects)? {
        switch (old, new) {
        case (nil, nil): return nil
        case (nil, .some): return (.insert, [])
        case (.some, nil): return (.delete, [])
        case let (.some(a), .some(b)):
            let changed = aspects(a, b).union(forced)
            return changed.isEmpty && a == b ? nil : (.update, changed)
        }
    }

    static func aspects(_ a: Asset, _ b: Asset) -> ChangedAspects {
        var out: ChangedAspects = []
        // A RAW joining a JPEG as its pair changes the original version.
        if a.revision != b.revision || a.adjustmentData != b.adjustmentData || a.pixelWidth != b.pixelWidth
            || a.pixelHeight != b.pixelHeight || a.alternate != b.alternate { out.insert(.content) }
        if a.isFavorite != b.isFavorite { out.insert(.favorite) }
        if a.isHidden != b.isHidden { out.insert(.hidden) }
        if a.deletedDate != b.deletedDate { out.insert(.deleted) }
        if a.creationDate != b.creationDate || a.location != b.location { out.insert(.metadata) }
        if a.albums != b.albums { out.insert(.albums) }
        if a.rating != b.rating { out.insert(.rating) }
        if a.colorLabel != b.colorLabel { out.insert(.label) }
        if a.keywords != b.keywords { out.insert(.keywords) }
        if a.title != b.title || a.caption != b.caption { out.insert(.caption) }
        return out
    }

    static func aspects(_ a: Album, _ b: Album) -> ChangedAspects {
        var out: ChangedAspects = []
        if a.title != b.title { out.insert(.title) }
        if a.assetIdentifiers != b.assetIdentifiers { out.insert(.assets) }
        return out
    }
}

// MARK: Reading

/// Feed: the change feed read back — the latest sequence number, the
/// entries after one, and change sets with each object before and after
/// (`ChangeWatcher.swift`: the same as an endless stream). The entries are
/// written by the commit (`ChangeRecorder`, in its transaction).
struct Feed: LibraryService, FilesUser {
    let catalogPart: CatalogPart
    let filesPart: FilesPart
}

extension Feed {
    /// The façade's `latestChangeSequence()`.
    func latestChangeSequence() throws -> Int {
        try read { db in try db.latestChangeSequence() }
    }

    /// The façade's `changeEntries(since:limit:)`.
    func changeEntries(since seq: Int, limit: Int? = nil) throws -> [ChangeEntry] {
        try read { db in try Self.entries(since: seq, limit: limit, db).map(\.entry) }
    }

    /// The façade's `changes(since:limit:)`.
    func changes(since seq: Int, limit: Int? = nil) throws -> [ChangeSet] {
        try read { db in
            let rows = try Self.entries(since: seq, limit: limit, db)
            // The object after an entry is the one before the object's next
            // entry, or the object as it is now (read in the same transaction).
            var after: [Int: (asset: Asset?, album: Album?)] = [:]
            var nextBefore: [String: String?] = [:]   // type/id -> `before` of the next entry in `rows`
            for (i, row) in rows.enumerated().reversed() {
                let key = row.entry.objectType.rawValue + "/" + row.entry.identifier
                let text: String??
                if row.entry.kind == .delete {
                    text = .some(nil)
                } else if let next = nextBefore[key] {
                    text = .some(next)
                } else if let later = try db.nextSnapshot(of: row.entry.identifier, objectType: row.entry.objectType.rawValue,
                                                          after: row.entry.seq) {
                    text = .some(later)
                } else {
                    text = nil   // no later change: as it is now
                }
                switch row.entry.objectType {
                case .asset:
                    let object: Asset? = try text.map { try Self.decode($0) } ?? CatalogModels.assetModels([row.entry.identifier], db)[row.entry.identifier]
                    after[i] = (object, nil)
                case .album:
                    let object: Album? = try text.map { try Self.decode($0) } ?? CatalogModels.albums([row.entry.identifier], db)[row.entry.identifier]
                    after[i] = (nil, object)
                }
                nextBefore[key] = .some(row.before)
            }
            var sets: [ChangeSet] = []
            var i = 0
            while i < rows.count {
                let seq = rows[i].entry.seq
                var entries: [ChangeEntry] = []
                var assets: [String: ObjectChangeDetails<Asset>] = [:]
                var albums: [String: ObjectChangeDetails<Album>] = [:]
                while i < rows.count, rows[i].entry.seq == seq {
                    let e = rows[i].entry
                    entries.append(e)
                    switch e.objectType {
                    case .asset:
                        assets[e.identifier] = ObjectChangeDetails(objectBeforeChanges: try Self.decode(rows[i].before),
                                                                   objectAfterChanges: after[i]?.asset, aspects: e.aspects)
                    case .album:
                        albums[e.identifier] = ObjectChangeDetails(objectBeforeChanges: try Self.decode(rows[i].before),
                                                                   objectAfterChanges: after[i]?.album, aspects: e.aspects)
                    }
                    i += 1
                }
                sets.append(ChangeSet(seq: seq, date: entries[0].date, entries: entries, assetDetails: assets, albumDetails: albums))
            }
            return sets
        }
    }

    private static func entries(since seq: Int, limit: Int?, _ db: any CatalogConnection) throws -> [(entry: ChangeEntry, before: String?)] {
        if let limit, limit <= 0 { return [] }
        return try db.changeEntryRows(since: seq, changeSets: limit).map(ChangeFeedQuery.entry)
    }

    private static func decode<T: Decodable>(_ text: String?) throws -> T? {
        guard let text else { return nil }
        do {
            return try JSONDecoder().decode(T.self, from: Data(text.utf8))
        } catch {
            throw PhotoEditError.library("catalog: unreadable snapshot in the change feed: \(error.localizedDescription)")
        }
    }
}
