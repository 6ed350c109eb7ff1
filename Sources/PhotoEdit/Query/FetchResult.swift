import Foundation
import Synchronization

/// What a fetch returns and in which order (PhotoKit's `PHFetchOptions`).
public struct FetchOptions: Sendable, Hashable {
    /// Which photos (nil: all of them).
    public var predicate: AssetPredicate?
    /// Sort keys, most significant first; ties are broken by id. Empty: oldest
    /// import first, or album order in `fetchAssets(in:)`.
    public var sortDescriptors: [AssetSortDescriptor]
    /// At most this many photos (0: no limit), as `fetchLimit`.
    public var fetchLimit: Int
    /// Include hidden photos (`includeHiddenAssets`).
    public var includeHiddenAssets: Bool
    /// Include recently deleted photos (by default they are left out).
    public var includeRecentlyDeleted: Bool

    /// Options: every argument is optional.
    public init(predicate: AssetPredicate? = nil, sortDescriptors: [AssetSortDescriptor] = [], fetchLimit: Int = 0,
                includeHiddenAssets: Bool = false, includeRecentlyDeleted: Bool = false) {
        self.predicate = predicate
        self.sortDescriptors = sortDescriptors
        self.fetchLimit = fetchLimit
        self.includeHiddenAssets = includeHiddenAssets
        self.includeRecentlyDeleted = includeRecentlyDeleted
    }
}

/// The kind of object a fetch result or a change entry is about.
public enum ObjectType: String, Sendable, Hashable, Codable {
    case asset, album
}

/// The result of a fetch (PhotoKit's `PHFetchResult`): the ids of the matching
/// objects in order, taken when the fetch ran, and the objects themselves,
/// loaded on demand in pages and kept. Cheap to make on a large library: only
/// ids are read up front. A fetch result never changes; a `ChangeSet` gives
/// the next one (`changeDetails(for:)`).
public final class FetchResult<Object: Sendable>: Sendable {
    /// The ids of the objects, in order.
    public let identifiers: [String]
    /// Assets or albums.
    public let objectType: ObjectType
    let load: @Sendable ([String]) throws -> [String: Object]
    let refetch: @Sendable () throws -> FetchResult<Object>
    static var pageSize: Int { 100 }

    /// Loaded pages and the id → position index, filled on demand.
    private struct Cache {
        var pages: [Int: [Object]] = [:]
        var positions: [String: Int]?
    }
    private let cache = Mutex(Cache())

    init(identifiers: [String], objectType: ObjectType, load: @escaping @Sendable ([String]) throws -> [String: Object],
         refetch: @escaping @Sendable () throws -> FetchResult<Object>) {
        self.identifiers = identifiers
        self.objectType = objectType
        self.load = load
        self.refetch = refetch
    }

    /// How many objects matched.
    public var count: Int { identifiers.count }
    /// True when nothing matched.
    public var isEmpty: Bool { identifiers.isEmpty }

    /// The object at `index` (0 ≤ index < count), as it is now. Throws when it
    /// was removed from the library since the fetch (`unknownAsset`/`unknownAlbum`).
    public func object(at index: Int) throws -> Object {
        guard identifiers.indices.contains(index) else {
            throw PhotoEditError.invalidQuery("index \(index) is out of range (0..<\(count))")
        }
        let page = index / Self.pageSize
        return try self.page(page)[index - page * Self.pageSize]
    }

    /// The objects in `range`, in order.
    public func objects(in range: Range<Int>) throws -> [Object] {
        guard range.lowerBound >= 0, range.upperBound <= count else {
            throw PhotoEditError.invalidQuery("range \(range) is out of range (0..<\(count))")
        }
        var out: [Object] = []
        out.reserveCapacity(range.count)
        var i = range.lowerBound
        while i < range.upperBound {
            let page = i / Self.pageSize
            let objects = try self.page(page)
            let end = Swift.min(range.upperBound, (page + 1) * Self.pageSize)
            out += objects[(i - page * Self.pageSize)..<(end - page * Self.pageSize)]
            i = end
        }
        return out
    }

    /// Every object, in order (loads them all).
    public func allObjects() throws -> [Object] { try objects(in: 0..<count) }

    /// The first object, nil when empty.
    public func firstObject() throws -> Object? { isEmpty ? nil : try object(at: 0) }
    /// The last object, nil when empty.
    public func lastObject() throws -> Object? { isEmpty ? nil : try object(at: count - 1) }

    /// The position of the object with this id, nil when it is not in the result.
    public func index(of identifier: String) -> Int? {
        cache.withLock { cache in
            if let positions = cache.positions { return positions[identifier] }
            var p: [String: Int] = [:]
            p.reserveCapacity(identifiers.count)
            for (i, id) in identifiers.enumerated() where p[id] == nil { p[id] = i }
            cache.positions = p
            return p[identifier]
        }
    }

    /// Whether the object with this id is in the result.
    public func contains(_ identifier: String) -> Bool { index(of: identifier) != nil }

    private func page(_ n: Int) throws -> [Object] {
        if let cached = cache.withLock({ $0.pages[n] }) { return cached }
        let ids = Array(identifiers[(n * Self.pageSize)..<Swift.min(identifiers.count, (n + 1) * Self.pageSize)])
        let loaded = try load(ids)
        let objects = try ids.map { id -> Object in
            guard let object = loaded[id] else {
                throw objectType == .asset ? PhotoEditError.unknownAsset(id) : PhotoEditError.unknownAlbum(id)
            }
            return object
        }
        cache.withLock { $0.pages[n] = objects }
        return objects
    }
}

/// A fetch result is a random-access collection of its objects, loaded in
/// pages as they are read (`for asset in result`, `result.map(\.id)`,
/// `result[i]`), as PhotoKit's `PHFetchResult` is.
///
/// Why the subscript can fail, and stops the process when it does: a
/// collection's subscript cannot throw, and a fetch result reads only ids
/// up front (a fetch over a million photos reads no photo), so an object is
/// read when its page is first read — after the fetch. An object purged in
/// between (by this process or another writer), or a page the catalog
/// cannot read (an I/O error), has nothing the subscript could return, and
/// returning an object that is not the library's would be worse than
/// stopping. Reading every object at fetch time would make the failure
/// impossible at the cost of the lazy fetch; it was not chosen. The
/// throwing calls are the API for code that must survive it: `object(at:)`,
/// `objects(in:)`, `allObjects()`. The package's own server routes and
/// commands use only those (and `identifiers`), never the subscript.
extension FetchResult: RandomAccessCollection {
    public var startIndex: Int { 0 }
    public var endIndex: Int { identifiers.count }

    /// The object at `position`, as `object(at:)` but not throwing: a
    /// precondition failure when it cannot be read (see above).
    public subscript(position: Int) -> Object {
        precondition(identifiers.indices.contains(position), "FetchResult index \(position) is out of range (0..<\(count))")
        do { return try object(at: position) } catch { preconditionFailure("FetchResult[\(position)]: \(error)") }
    }
}

extension Queries {
    func fetchAssets(_ options: FetchOptions = FetchOptions()) throws -> FetchResult<Asset> {
        try fetchAssets(album: nil, options)
    }

    func fetchAssets(in album: String, options: FetchOptions = FetchOptions()) throws -> FetchResult<Asset> {
        try fetchAssets(album: try resolveAlbum(album), options)
    }

    func fetchAlbums(titleContains: String? = nil, newestFirst: Bool = false) throws -> FetchResult<Album> {
        let ids = try read { db in try db.albumIDs(titleContains: titleContains, newestFirst: newestFirst) }
        return FetchResult(identifiers: ids, objectType: .album, load: { [self] ids in try read { db in try CatalogModels.albums(ids, db) } },
                           refetch: { [self] in try fetchAlbums(titleContains: titleContains, newestFirst: newestFirst) })
    }

    private func fetchAssets(album: String?, _ options: FetchOptions) throws -> FetchResult<Asset> {
        let ids = try read { db in try db.assetIDs(options, album: album) }
        return FetchResult(identifiers: ids, objectType: .asset, load: { [self] ids in try read { db in try CatalogModels.assetModels(ids, db) } },
                           refetch: { [self] in try fetchAssets(album: album, options) })
    }
}
