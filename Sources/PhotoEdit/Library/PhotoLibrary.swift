import Foundation
import Synchronization

/// A photo library: one folder holding the catalog, the originals (never
/// modified), the rendered output of every revision and a rebuildable cache.
///
/// All methods are synchronous and safe to call from many threads and
/// processes at once: every change is staged in `tmp/`, moved into place,
/// then committed in one catalog transaction that checks the photo has not
/// moved on meanwhile.
public final class PhotoLibrary: Sendable {
    /// The library folder.
    public let url: URL
    /// The filters this library renders with.
    public let registry: FilterRegistry
    /// Opened without write access (a read-only folder or file system, or
    /// another user's library): everything reads, nothing changes.
    public let isReadOnly: Bool
    /// The shared parts every service is built from (LibraryParts.swift):
    /// layout, catalog, files, lock, renderer.
    let parts: LibraryParts
    /// Called after each commit that created photos, with their ids, when
    /// their previews are left to others (a distributed library queues them
    /// as `derivatives` jobs); nil: an import makes its previews itself.
    package var afterImport: (@Sendable (PhotoLibrary, [String]) -> Void)? { parts.afterImport }

    /// The default library folder: `$PHOTOEDIT_LIBRARY`, else
    /// `$XDG_DATA_HOME/photoedit`, else `~/.local/share/photoedit`.
    public static func defaultURL(environment: [String: String] = ProcessInfo.processInfo.environment) -> URL {
        if let path = environment["PHOTOEDIT_LIBRARY"], !path.isEmpty { return URL(fileURLWithPath: path) }
        if let xdg = environment["XDG_DATA_HOME"], !xdg.isEmpty { return URL(fileURLWithPath: xdg).appendingPathComponent("photoedit") }
        let home = environment["HOME"] ?? NSHomeDirectory()
        return URL(fileURLWithPath: home).appendingPathComponent(".local/share/photoedit")
    }

    /// Opens the library at `url`, creating it when `create` is true.
    /// When no other process has it open, removes what a crashed commit
    /// left behind (see docs/commit-protocol.md).
    public convenience init(url: URL, create: Bool = true, registry: FilterRegistry = .standard) throws {
        try self.init(url: url, create: create, registry: registry, store: nil)
    }

    /// Opens the library whose files are in the folder at `url` and whose
    /// catalog is `catalog` (a PostgreSQL catalog, say), creating the
    /// folder when `create` is true.
    package convenience init(url: URL, catalog: any CatalogStore, create: Bool = true, registry: FilterRegistry = .standard) throws {
        try self.init(url: url, create: create, registry: registry, store: catalog)
    }

    /// Opens a distributed library: its catalog is `catalog` (PostgreSQL),
    /// its files are in `blobs` (S3, a shared folder); its local parts
    /// (staging, the read-through cache of at most `cacheCapacity` bytes of
    /// blobs, the derivative cache, the lock) are in `workDirectory`, which
    /// is created. Recovery on opening touches only `workDirectory`: files in
    /// the shared store that no row references are left to `verify --repair`.
    /// `afterImport`: see the property; given, imports make no previews.
    package convenience init(workDirectory: URL, catalog: any CatalogStore, blobs: any BlobStore, cacheCapacity: Int64,
                             registry: FilterRegistry = .standard,
                             afterImport: (@Sendable (PhotoLibrary, [String]) -> Void)? = nil) throws {
        let layout = LibraryLayout(root: workDirectory.standardizedFileURL)
        do {
            try FileManager.default.createDirectory(atPath: layout.cache, withIntermediateDirectories: true)
        } catch {
            throw PhotoEditError.library("cannot create the work folder \(layout.root.path): \(error.localizedDescription)")
        }
        let files = try BlobLibraryFiles(store: blobs, cacheFolder: URL(fileURLWithPath: layout.cache + "/blobs"), cacheCapacity: cacheCapacity)
        try self.init(url: workDirectory, create: true, registry: registry, store: catalog, files: files, afterImport: afterImport)
    }

    /// `store`: the catalog; nil: the SQLite catalog in the folder.
    /// `files`: where the files are; nil: the folder.
    private init(url: URL, create: Bool, registry: FilterRegistry, store: (any CatalogStore)?,
                 files: (any LibraryFiles)? = nil, afterImport: (@Sendable (PhotoLibrary, [String]) -> Void)? = nil) throws {
        parts = try LibraryParts(url: url, create: create, registry: registry, store: store, files: files, afterImport: afterImport)
        (self.url, self.registry, isReadOnly) = (parts.url, parts.registry, parts.isReadOnly)
        if parts.exclusive { try recover() }
        parts.lock?.shared()
    }

    // MARK: Reading

    /// Resolves an id or an unambiguous prefix of one to the full id.
    public func resolve(_ idOrPrefix: String) throws -> String {
        try read { db in try Self.resolve(idOrPrefix, db) }
    }

    /// The photo with this id (or unambiguous prefix).
    public func asset(_ idOrPrefix: String) throws -> Asset {
        try read { db in try Self.asset(try Self.assetRecord(idOrPrefix, db), db) }
    }

    /// Photos, oldest import first. Hidden and recently deleted photos are
    /// left out unless asked for (as PhotoKit's fetch options do).
    public func assets(includeHidden: Bool = false, includeDeleted: Bool = false, onlyDeleted: Bool = false) throws -> [Asset] {
        try fetchAssets(FetchOptions(predicate: onlyDeleted ? .has(.deleted) : nil, includeHiddenAssets: includeHidden,
                                     includeRecentlyDeleted: includeDeleted || onlyDeleted)).allObjects()
    }

    /// The revisions of a photo, oldest first.
    public func history(_ idOrPrefix: String) throws -> [Revision] {
        try read { db in try db.revisions(of: try Self.resolve(idOrPrefix, db)).map(Self.revision) }
    }

    /// The recipe of the latest revision (empty when unadjusted). Throws when
    /// its adjustment data is not photoedit's own format, or not one this
    /// build can read: it is never guessed at.
    public func currentRecipe(_ idOrPrefix: String) throws -> Recipe {
        let a = try asset(idOrPrefix)
        guard let data = a.adjustmentData else { return .empty }
        return try Recipe(adjustmentData: data, registry: registry)
    }
}
