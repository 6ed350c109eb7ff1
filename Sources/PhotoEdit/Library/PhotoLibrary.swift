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
    let layout: LibraryLayout
    /// The catalog: SQLite in the library folder, or a store given at
    /// opening (PostgreSQL), behind the catalog layer (CatalogQueries.swift).
    let catalog: LibraryCatalog
    /// The originals, renders and revision records: the library folder, or
    /// a blob store given at opening (S3). `layout` then holds only the
    /// local parts: staging, the derivative cache, the lock.
    let files: any LibraryFiles
    let lock: LibraryLock?
    let renderer: Renderer
    /// Opened without write access (a read-only folder or file system, or
    /// another user's library): everything reads, nothing changes.
    public let isReadOnly: Bool
    /// The last preview bases decoded (PhotoLibrary+Preview.swift).
    let previewBases = PreviewBases()
    /// When `tmp/` was last swept (see PhotoLibrary+Staging.swift).
    let stagingSweep = Mutex<Date>(.distantPast)
    /// See ``darktable``.
    let darktableSetting = Mutex<DarktableCLI?>(DarktableCLI.located())
    /// Called after each commit that created photos, with their ids, when
    /// their previews are left to others (a distributed library queues them
    /// as `derivatives` jobs); nil: an import makes its previews itself.
    package let afterImport: (@Sendable (PhotoLibrary, [String]) -> Void)?

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
        self.url = url.standardizedFileURL
        self.afterImport = afterImport
        self.registry = registry
        self.renderer = Renderer(registry: registry)
        layout = LibraryLayout(root: self.url)
        let files = files ?? FolderLibraryFiles(layout: layout)
        self.files = files
        let fm = FileManager.default
        if !FileIO.isDirectory(layout.root.path) {
            guard create else { throw PhotoEditError.library("no library at \(layout.root.path)") }
        }
        if store == nil { try Self.refuseMissingCatalog(layout) }
        // Read-only when the folder cannot be written (a read-only mount,
        // another user's library): listing, showing and rendering to files
        // outside the library still work.
        isReadOnly = FileIO.isDirectory(layout.root.path) && access(layout.root.path, W_OK) != 0
            && (store != nil || FileIO.exists(layout.catalog))
        if !isReadOnly {
            do {
                let folders = files is FolderLibraryFiles ? [layout.originals, layout.renders, layout.revisions] : []
                for dir in [layout.root.path] + folders + [layout.cache, layout.tmp] {
                    try fm.createDirectory(atPath: dir, withIntermediateDirectories: true)
                }
            } catch {
                throw PhotoEditError.library("cannot create library at \(layout.root.path): \(error.localizedDescription)")
            }
        }
        lock = try LibraryLock(path: layout.lock, readOnly: isReadOnly)
        let exclusive = !isReadOnly && lock?.tryExclusive() == true
        catalog = LibraryCatalog(try store ?? SQLiteCatalogStore(path: layout.catalog, readOnly: isReadOnly))
        if exclusive { try recover() }
        lock?.shared()
    }

    /// A folder that holds originals but whose catalog is missing or empty
    /// is a damaged library, not a new one: opening it would start an empty
    /// catalog (and `verify --repair` would then remove every render).
    static func refuseMissingCatalog(_ layout: LibraryLayout) throws {
        let catalogSize = FileIO.size(layout.catalog)
        let walSize = FileIO.size(layout.catalog + "-wal") ?? 0
        guard catalogSize == nil || (catalogSize == 0 && walSize == 0) else { return }
        let originals = (try? FileManager.default.subpathsOfDirectory(atPath: layout.originals)) ?? []
        guard originals.contains(where: { !FileIO.isDirectory(layout.originals + "/" + $0) }) else { return }
        throw PhotoEditError.library("\(layout.root.path) holds originals but its catalog is \(catalogSize == nil ? "missing" : "empty"); "
            + "rebuild it from the files with `photoedit verify --rebuild-catalog` (or restore catalog.sqlite from a backup)")
    }

    /// Throws when the library was opened read-only.
    func requireWritable() throws {
        if isReadOnly {
            throw PhotoEditError.library("\(layout.root.path) is read-only (no write access): it can be read, not changed")
        }
    }

    // MARK: Reading

    /// Resolves an id or an unambiguous prefix of one to the full id.
    public func resolve(_ idOrPrefix: String) throws -> String {
        try read { db in try Self.resolve(idOrPrefix, db) }
    }

    /// `resolve` inside a transaction.
    static func resolve(_ idOrPrefix: String, _ db: any CatalogConnection) throws -> String {
        let prefix = idOrPrefix.lowercased()
        guard !prefix.isEmpty, prefix.count <= 32, prefix.allSatisfy({ $0.isHexDigit }) else {
            throw PhotoEditError.malformedIdentifier(idOrPrefix)
        }
        let matches = try db.assetIDs(withPrefix: prefix, limit: 50)
        switch matches.count {
        case 0: throw PhotoEditError.unknownAsset(idOrPrefix)
        case 1: return matches[0]
        default:
            if matches.contains(prefix) { return prefix }
            throw PhotoEditError.ambiguousAsset(prefix: idOrPrefix, candidates: matches)
        }
    }

    /// The row of the photo with this id (or unambiguous prefix), read in
    /// `db`: a whole id needs no prefix search (one statement instead of two;
    /// a server looks a photo up on every request).
    static func assetRecord(_ idOrPrefix: String, _ db: any CatalogConnection, locking: Bool = false) throws -> AssetRecord {
        let whole = idOrPrefix.utf8.count == 32 && idOrPrefix.allSatisfy(\.isHexDigit)
        let id = whole ? idOrPrefix.lowercased() : try resolve(idOrPrefix, db)
        guard let record = try db.asset(id, locking: locking) else { throw PhotoEditError.unknownAsset(idOrPrefix) }
        return record
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

    static func asset(_ r: AssetRecord, _ db: any CatalogConnection) throws -> Asset {
        asset(r, current: try db.revision(r.revision, of: r.id), albums: try db.albumTitles(of: [r.id])[r.id] ?? [],
              keywords: try keywords(of: [r.id], db)[r.id] ?? [])
    }

    /// The keywords of these photos, each photo's sorted as `Asset.keywords` lists them.
    static func keywords(of ids: [String], _ db: any CatalogConnection) throws -> [String: [String]] {
        // Sorted here, not by SQL: the stores' collations differ.
        try db.keywords(of: ids).mapValues { list in list.sorted { (Keyword.folded($0), $0) < (Keyword.folded($1), $1) } }
    }

    /// The photos with these ids, as they are now (missing ids are left
    /// out), in four queries whatever their number.
    static func assets(_ ids: [String], _ db: any CatalogConnection) throws -> [String: Asset] {
        guard !ids.isEmpty else { return [:] }
        let records = try db.assets(ids)
        let current = try db.currentRevisions(of: ids)
        let albums = try db.albumTitles(of: ids)
        let keywords = try Self.keywords(of: ids, db)
        var out: [String: Asset] = [:]
        for r in records { out[r.id] = asset(r, current: current[r.id], albums: albums[r.id] ?? [], keywords: keywords[r.id] ?? []) }
        return out
    }

    private static func asset(_ r: AssetRecord, current: RevisionRecord?, albums: [String], keywords: [String]) -> Asset {
        Asset(id: r.id, originalFilename: r.originalFilename, sha256: r.sha256, fileSize: r.fileSize, format: r.format,
              uniformTypeIdentifier: r.uniformTypeIdentifier, mediaType: r.mediaType,
              pixelWidth: current?.pixelWidth ?? r.originalPixelWidth, pixelHeight: current?.pixelHeight ?? r.originalPixelHeight,
              originalPixelWidth: r.originalPixelWidth, originalPixelHeight: r.originalPixelHeight,
              orientation: r.orientation, creationDate: r.creationDate,
              location: r.latitude.flatMap { lat in r.longitude.map { Location(latitude: lat, longitude: $0) } },
              importDate: r.importDate, revision: r.revision, adjustmentData: current?.adjustmentData,
              isFavorite: r.favorite, isHidden: r.hidden, deletedDate: r.trashedDate, albums: albums,
              camera: r.camera.flatMap { try? JSONDecoder().decode(CameraInfo.self, from: Data($0.utf8)) },
              alternate: r.alternatePath == nil ? nil : AlternateFile(
                  filename: r.alternateFilename ?? "", format: r.alternateFormat ?? "raw",
                  uniformTypeIdentifier: r.alternateUniformTypeIdentifier ?? "public.camera-raw-image",
                  fileSize: r.alternateFileSize ?? 0, sha256: r.alternateSha256 ?? ""),
              rating: r.rating, colorLabel: r.colorLabel.flatMap(ColorLabel.init(rawValue:)), keywords: keywords,
              title: r.title, caption: r.caption)
    }

    static func revision(_ r: RevisionRecord) -> Revision {
        Revision(number: r.number, date: r.createdAt, kind: Revision.Kind(rawValue: r.kind) ?? .edit,
                 adjustmentData: r.adjustmentData, pixelWidth: r.pixelWidth, pixelHeight: r.pixelHeight,
                 hasRender: r.renderPath != nil, baseRevision: r.baseRevision,
                 isBasedOnAlternate: r.basePath != nil && r.baseRevision == nil)
    }

    /// Runs `body` in a read transaction of the catalog.
    func read<T>(_ body: (any CatalogConnection) throws -> T) throws -> T {
        try catalog.read(body)
    }

    /// Runs `body` in one all-or-nothing write transaction of the catalog.
    func write<T>(_ body: (any CatalogConnection) throws -> T) throws -> T {
        try requireWritable()
        return try catalog.write(body)
    }

    /// A local file for `relative` (see `LibraryFiles.localPath`); when a
    /// blob store cannot provide it, the path where a folder library would
    /// have it, which does not exist: the caller reports it missing, as for
    /// a missing file in a folder.
    func readablePath(_ relative: String) -> String {
        (try? files.localPath(relative)) ?? layout.absolute(relative)
    }

    /// The absolute path of a pair's alternate file (the RAW), nil for a single file.
    func alternatePath(_ id: String) throws -> String? {
        try read { db in try db.alternatePath(of: id) }.map(files.localPath)
    }

    func originalPath(_ id: String) throws -> String {
        try files.localPath(try read { db in
            guard let path = try db.originalPath(of: id) else { throw PhotoEditError.unknownAsset(id) }
            return path
        })
    }
}
