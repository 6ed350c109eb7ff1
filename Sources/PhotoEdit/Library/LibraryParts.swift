import Foundation
import Synchronization

/// The parts a library is built from: the folder's layout, the catalog, the
/// files (folder or blob store), the lock, the renderer, and the few pieces
/// of state a service keeps across calls. Opening them (folders, read-only
/// check, lock, catalog) happens here; `PhotoLibrary` then runs recovery and
/// takes its shared lock. Only the façade holds the whole: each service is
/// given the per-concern parts it uses (`catalogPart`, `filesPart`,
/// `renderPart`, the registry, `commitHooks`, `darktable`;
/// LibraryServices.swift), as GRDB's `AppDatabase` is given to a screen.
final class LibraryParts: Sendable {
    /// The library folder (or a distributed library's work folder).
    let url: URL
    /// The filters this library renders with.
    let registry: FilterRegistry
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
    let isReadOnly: Bool
    /// This process had the library to itself when it opened it (recovery may run).
    let exclusive: Bool
    /// See `PhotoLibrary.afterImport`.
    let afterImport: (@Sendable (PhotoLibrary, [String]) -> Void)?
    /// What a commit announces and when staging was last swept (Committing's).
    let commitHooks: CommitHooks
    /// The last preview bases decoded (Rendering+Preview.swift).
    let previewBases = PreviewBases()
    /// See `PhotoLibrary.darktable` (Importing's and Maintenance's).
    let darktable = DarktableSetting()

    /// `store`: the catalog; nil: the SQLite catalog in the folder.
    /// `files`: where the files are; nil: the folder.
    init(url: URL, create: Bool, registry: FilterRegistry, store: (any CatalogStore)?,
         files: (any LibraryFiles)?, afterImport: (@Sendable (PhotoLibrary, [String]) -> Void)?) throws {
        self.url = url.standardizedFileURL
        self.afterImport = afterImport
        commitHooks = CommitHooks(afterImport: afterImport)
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
        exclusive = !isReadOnly && lock?.tryExclusive() == true
        catalog = LibraryCatalog(try store ?? SQLiteCatalogStore(path: layout.catalog, readOnly: isReadOnly))
    }

    /// The catalog, for the parts that read or write it.
    var catalogPart: CatalogPart { CatalogPart(catalog: catalog, isReadOnly: isReadOnly, root: layout.root) }
    /// The files, for the parts that read or write them.
    var filesPart: FilesPart { FilesPart(layout: layout, files: files) }
    /// The renderer, for the parts that render.
    var renderPart: RenderPart { RenderPart(renderer: renderer, previewBases: previewBases) }

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
}

/// The catalog as the parts that use it hold it (`AppDatabase`-style): its
/// transactions, and whether the library may be changed.
struct CatalogPart: Sendable {
    let catalog: LibraryCatalog
    /// Opened without write access: `write` throws.
    let isReadOnly: Bool
    /// The library folder (named in the read-only error).
    let root: URL
}

/// The library's files as the parts that use them hold them: the folder's
/// layout (staging, cache; all of it for a folder library) and the files.
struct FilesPart: Sendable {
    let layout: LibraryLayout
    let files: any LibraryFiles

    /// `FilesUser.readablePath`.
    func readablePath(_ relative: String) -> String {
        (try? files.localPath(relative)) ?? layout.absolute(relative)
    }
}

/// The renderer as the parts that render hold it, with the last preview bases decoded.
struct RenderPart: Sendable {
    let renderer: Renderer
    let previewBases: PreviewBases
}

/// What a commit announces (`PhotoLibrary.afterImport`, bound to the
/// façade) and when it last swept staging: Committing's state across calls.
final class CommitHooks: Sendable {
    /// Whether the library announces the photos a commit creates.
    let announcesCreated: Bool
    private let afterImport: (@Sendable (PhotoLibrary, [String]) -> Void)?
    /// `afterImport` bound to the façade that opened the library (set by
    /// its `init`, holding it weakly): the commit announces the photos it
    /// created through it without knowing the façade.
    private let createdHook = Mutex<(@Sendable ([String]) -> Void)?>(nil)
    /// When `tmp/` was last swept (Committing+Staging.swift).
    let stagingSweep = Mutex<Date>(.distantPast)

    init(afterImport: (@Sendable (PhotoLibrary, [String]) -> Void)?) {
        self.afterImport = afterImport
        announcesCreated = afterImport != nil
    }

    /// Binds `afterImport` to the façade.
    func bind(to library: PhotoLibrary) {
        guard let afterImport else { return }
        createdHook.withLock { $0 = { [weak library] ids in if let library { afterImport(library, ids) } } }
    }

    /// Calls `afterImport` with the photos a commit created.
    func announceCreated(_ ids: [String]) {
        createdHook.withLock { $0 }?(ids)
    }
}

/// The darktable-cli a library uses (`PhotoLibrary.darktable`).
final class DarktableSetting: Sendable {
    private let value = Mutex<DarktableCLI?>(DarktableCLI.located())

    var current: DarktableCLI? {
        get { value.withLock { $0 } }
        set { value.withLock { $0 = newValue } }
    }
}

/// A part that reads or writes the catalog — a service, the façade, a lower
/// part services share (`Previews`): catalog transactions and id
/// resolution. The rows become models through `CatalogModels`. It reaches
/// no service: services are wired in one place (LibraryServices.swift).
protocol CatalogUser {
    var catalogPart: CatalogPart { get }
}

/// A part that reads or writes the library's files too.
protocol FilesUser: CatalogUser {
    var filesPart: FilesPart { get }
}

/// A part that renders.
protocol RenderUser {
    var renderPart: RenderPart { get }
}

/// A library service (Queries, Committing, Editing, Importing, Rendering,
/// Maintenance, Feed, Versions, Exporting, UploadedPresets): a small value
/// with one job, holding only the parts it uses (`CatalogUser`,
/// `FilesUser`, `RenderUser`, the filter registry, …) and the services it
/// uses, each a stored property passed in at `init` (declared: the services
/// form a graph without cycles, which `ServiceDependencyTests` reads from
/// these declarations). A service never builds another one.
protocol LibraryService {}

extension CatalogUser {
    var catalog: LibraryCatalog { catalogPart.catalog }
    var isReadOnly: Bool { catalogPart.isReadOnly }

    /// Throws when the library was opened read-only.
    func requireWritable() throws {
        if isReadOnly {
            throw PhotoEditError.library("\(catalogPart.root.path) is read-only (no write access): it can be read, not changed")
        }
    }

    /// `resolve` of the façade: an id or an unambiguous prefix of one to the full id.
    func resolve(_ idOrPrefix: String) throws -> String {
        try read { db in try CatalogModels.resolve(idOrPrefix, db) }
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
}

/// The catalog's rows as the library's models, read in a transaction: id
/// resolution, photos, albums, revisions. A lower part every part that
/// reads the catalog shares (services, the façade, the change recorder);
/// it reaches no service.
enum CatalogModels {

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

    /// The photo of a row, with its current revision, albums and keywords.
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
    static func assetModels(_ ids: [String], _ db: any CatalogConnection) throws -> [String: Asset] {
        guard !ids.isEmpty else { return [:] }
        let records = try db.assets(ids)
        let current = try db.currentRevisions(of: ids)
        let albums = try db.albumTitles(of: ids)
        let keywords = try Self.keywords(of: ids, db)
        var out: [String: Asset] = [:]
        for r in records { out[r.id] = asset(r, current: current[r.id], albums: albums[r.id] ?? [], keywords: keywords[r.id] ?? []) }
        return out
    }

    /// The albums with these ids, as they are now (missing ids are left out).
    static func albums(_ ids: [String], _ db: any CatalogConnection) throws -> [String: Album] {
        var out: [String: Album] = [:]
        for id in ids {
            guard let album = try db.album(id) else { continue }
            out[id] = Album(id: id, title: album.title, createdAt: album.createdAt, assetIdentifiers: try db.albumMembers(id))
        }
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
              title: r.title, caption: r.caption, masterIdentifier: r.masterId, copyName: r.copyName)
    }

    static func revision(_ r: RevisionRecord) -> Revision {
        Revision(number: r.number, date: r.createdAt, kind: Revision.Kind(rawValue: r.kind) ?? .edit,
                 adjustmentData: r.adjustmentData, pixelWidth: r.pixelWidth, pixelHeight: r.pixelHeight,
                 hasRender: r.renderPath != nil, baseRevision: r.baseRevision,
                 isBasedOnAlternate: r.basePath != nil && r.baseRevision == nil)
    }

}

extension FilesUser {
    var layout: LibraryLayout { filesPart.layout }
    var files: any LibraryFiles { filesPart.files }

    /// The photo behind `idOrPrefix`, for the version asked: what an image
    /// request, an export and the stored previews are made from.
    func imageSubject(_ idOrPrefix: String, version: ImageVersion) throws -> ImageSubject {
        let full = idOrPrefix.count == 32 && idOrPrefix.allSatisfy { $0.isHexDigit && !$0.isUppercase }
        let id = full ? idOrPrefix : try resolve(idOrPrefix)
        let (asset, revision) = try read { db -> (AssetRecord, RevisionRecord?) in
            guard let a = try db.asset(id) else { throw PhotoEditError.unknownAsset(idOrPrefix) }
            return (a, try db.revision(a.revision, of: id))
        }
        return ImageSubject(id: id, revision: asset.revision, version: version, format: asset.format,
                            originalFile: asset.originalPath,
                            originalWidth: asset.originalPixelWidth, originalHeight: asset.originalPixelHeight,
                            adjustmentData: revision?.adjustmentData, renderFile: revision?.renderPath,
                            baseFile: revision?.basePath,
                            currentWidth: revision?.pixelWidth ?? asset.originalPixelWidth,
                            currentHeight: revision?.pixelHeight ?? asset.originalPixelHeight,
                            alternateFile: asset.alternatePath, localize: { [filesPart] in filesPart.readablePath($0) })
    }

    /// A local file for `relative` (see `LibraryFiles.localPath`); when a
    /// blob store cannot provide it, the path where a folder library would
    /// have it, which does not exist: the caller reports it missing, as for
    /// a missing file in a folder.
    func readablePath(_ relative: String) -> String {
        filesPart.readablePath(relative)
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

extension RenderUser {
    var renderer: Renderer { renderPart.renderer }
}

/// The façade reads the parts the same way its services do; it builds its
/// services (LibraryServices.swift) and no service holds it.
extension PhotoLibrary: FilesUser, RenderUser {
    var catalogPart: CatalogPart { parts.catalogPart }
    var filesPart: FilesPart { parts.filesPart }
    var renderPart: RenderPart { parts.renderPart }
}
