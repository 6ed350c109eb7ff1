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
        parts.commitHooks.bind(to: self)
        if parts.exclusive { try maintenance.recover() }
        parts.lock?.shared()
    }

    // MARK: Reading (Queries.swift, Queries+Albums.swift, Queries+Resources.swift, Query/FetchResult.swift)

    /// Resolves an id or an unambiguous prefix of one to the full id.
    public func resolve(_ idOrPrefix: String) throws -> String { try queries.resolve(idOrPrefix) }

    /// The photo with this id (or unambiguous prefix).
    public func asset(_ idOrPrefix: String) throws -> Asset { try queries.asset(idOrPrefix) }

    /// Photos, oldest import first. Hidden and recently deleted photos are
    /// left out unless asked for (as PhotoKit's fetch options do).
    public func assets(includeHidden: Bool = false, includeDeleted: Bool = false, onlyDeleted: Bool = false) throws -> [Asset] { try queries.assets(includeHidden: includeHidden, includeDeleted: includeDeleted, onlyDeleted: onlyDeleted) }

    /// The revisions of a photo, oldest first.
    public func history(_ idOrPrefix: String) throws -> [Revision] { try queries.history(idOrPrefix) }

    /// The recipe of the latest revision (empty when unadjusted). Throws when
    /// its adjustment data is not photoedit's own format, or not one this
    /// build can read: it is never guessed at.
    public func currentRecipe(_ idOrPrefix: String) throws -> Recipe { try queries.currentRecipe(idOrPrefix) }

    /// Photos matching `options` (PhotoKit's `PHAsset.fetchAssets(with:)`).
    /// Throws `PhotoEditError.invalidQuery` for a predicate that cannot run.
    public func fetchAssets(_ options: FetchOptions = FetchOptions()) throws -> FetchResult<Asset> { try queries.fetchAssets(options) }

    /// The photos of an album (title, id or unambiguous id prefix) matching
    /// `options`, in album order unless sort descriptors are given
    /// (PhotoKit's `fetchAssets(in:options:)`).
    public func fetchAssets(in album: String, options: FetchOptions = FetchOptions()) throws -> FetchResult<Asset> { try queries.fetchAssets(in: album, options: options) }

    /// Every album, by title (or newest first with `newestFirst`), optionally
    /// only those whose title contains `titleContains` (ignoring ASCII case).
    public func fetchAlbums(titleContains: String? = nil, newestFirst: Bool = false) throws -> FetchResult<Album> { try queries.fetchAlbums(titleContains: titleContains, newestFirst: newestFirst) }

    /// Resolves an album title, id or unambiguous id prefix to its id.
    public func resolveAlbum(_ titleOrID: String) throws -> String { try queries.resolveAlbum(titleOrID) }

    /// Every album, by title.
    public func albums() throws -> [Album] { try queries.albums() }

    /// One album, by title, id or unambiguous id prefix.
    public func album(_ titleOrID: String) throws -> Album { try queries.album(titleOrID) }

    /// The files behind a photo.
    public func resources(for idOrPrefix: String) throws -> [AssetResource] { try queries.resources(for: idOrPrefix) }

    /// Writes a resource to `path` (streamed in chunks; the file appears whole
    /// or not at all).
    public func writeResource(_ resource: AssetResource, to path: String) throws { try queries.writeResource(resource, to: path) }

    /// The bytes of a resource, streamed (what a server sends without
    /// writing a file first). Throws `unreadableFile` if the file is gone
    /// (`verify` says why).
    public func requestData(for resource: AssetResource) throws -> ResourceData { try queries.requestData(for: resource) }
}

// MARK: Maintenance (Maintenance.swift, Maintenance+Verify.swift, +Rebuild, +Recovery, +Copy)

extension PhotoLibrary {
    /// Checks the whole library: the catalog's integrity, every original
    /// against its hash and decoded whole, every revision's adjustment data, render, base
    /// and record, every photo's metadata record, and files that no catalog row references. With `repair`, rebuilds
    /// missing or damaged renders from adjustment data this engine reads and
    /// removes unreferenced files; in a folder library it never touches an original.
    ///
    /// In a library whose files are in a shared blob store (S3), a crash
    /// leaves at worst blobs no row references (every blob is put before
    /// the catalog transaction that references it). Those younger than
    /// `gracePeriod` may be another node's commit in flight: they are
    /// counted in a note and never removed. Older ones are problems, which
    /// `repair` removes — originals included, since no row ever referenced them.
    ///
    /// - Parameter progress: called after each photo with (done, total).
    public func verify(repair: Bool = false, gracePeriod: TimeInterval = PhotoLibrary.defaultGracePeriod,
                       progress: ProgressHandler? = nil) throws -> VerificationReport { try maintenance.verify(repair: repair, gracePeriod: gracePeriod, progress: progress) }

    /// Copies this library into `target` (a folder library into one shared
    /// through PostgreSQL and a blob store, or back): every photo with its
    /// original (and RAW), every revision — adjustment data, render, revision
    /// record —, flags, dates and albums, under the same ids and paths.
    ///
    /// One photo at a time, all or nothing: its files are put into the
    /// target's store first (put if absent; originals checked against their
    /// SHA-256 on the way), then its rows are committed in one transaction,
    /// so the target never shows half a photo. Safe to run again after an
    /// interruption: a photo already in the target is checked against the
    /// source and left as it is. A target that holds anything else — a
    /// photo or album the source does not have, or a photo that differs from
    /// the source's — is refused before anything is written: copy into an
    /// empty library, or into a previous partial copy of the same source.
    ///
    /// Ends by verifying the whole target against the source (every
    /// original's SHA-256, every revision's adjustment data, render and
    /// record bytes); a difference throws. `progress` is called after each photo.
    public func copy(to target: PhotoLibrary, progress: ProgressHandler? = nil) throws -> LibraryCopyReport { try maintenance.copy(to: target, progress: progress) }

    /// How long an unreferenced blob of a shared store is left alone by
    /// `verify --repair`: longer than any commit takes.
    public static let defaultGracePeriod: TimeInterval = 3600

    /// Rebuilds the catalog of the library at `url` from the files on disk
    /// (`photoedit verify --rebuild-catalog`), when `catalog.sqlite` is lost,
    /// empty or damaged: originals, the revision records under `revisions/`
    /// (each photo's id, file name, import date, and every revision with its
    /// adjustment data, render and base), the renders they name, and each
    /// photo's metadata record (rating, colour label, keywords, title,
    /// caption, favorite, hidden). A damaged, foreign or oversized record is
    /// one line of `problems` and is left out; the rest is recovered.
    ///
    /// Originals no record names become new photos with their metadata read
    /// again from the file. Not recovered (they live only in the catalog):
    /// recently deleted, albums, edited capture dates and locations, and the
    /// change feed's history. See docs/library-layout.md.
    ///
    /// All-or-nothing: the new catalog is built in `tmp/`, then renamed over
    /// the old one, which is kept beside it as `catalog.sqlite.before-rebuild-<time>`.
    /// No other process may have the library open.
    public static func rebuildCatalog(url: URL, registry: FilterRegistry = .standard) throws -> CatalogRebuildReport { try Maintenance.rebuildCatalog(url: url, registry: registry) }
}

// MARK: Importing (Importing.swift, Importing+Import.swift, +Create; Importer, Importer+Metadata)

extension PhotoLibrary {
    /// Imports files and folders (recursively, in name order). Every file
    /// gets a result: its id (and whether the same bytes were already
    /// there), or the reason it was refused. A bad file never stops the rest.
    ///
    /// Files are imported `jobs` at a time (default: the number of cores);
    /// the two files of a RAW+JPEG pair always by the same worker, in order.
    /// Results keep the order of the files.
    ///
    /// - Parameter progress: called after each file with (done, total).
    public func importItems(_ paths: [String], jobs: Int = ProcessInfo.processInfo.activeProcessorCount,
                            progress: ProgressHandler? = nil) throws -> [ImportResult] { try importing.importItems(paths, jobs: jobs, progress: progress) }

    /// `importItems` for paths given as the file system's bytes, which need
    /// not be valid UTF-8 (Linux file names are bytes: a Latin-1 `caf\xE9.jpg`
    /// cannot be named by a `String`). Files found in folders keep their
    /// bytes too. Results, errors and the photo's `originalFilename` show
    /// each byte that is not UTF-8 as `\xHH`.
    public func importItems(fileSystemPaths paths: [[UInt8]], jobs: Int = ProcessInfo.processInfo.activeProcessorCount,
                            progress: ProgressHandler? = nil) throws -> [ImportResult] { try importing.importItems(fileSystemPaths: paths, jobs: jobs, progress: progress) }

    /// Imports `data` as a new photo (for bytes already in the library,
    /// returns the photo that has them: `existed` is true).
    ///
    /// - Parameter filename: the photo's original file name (one path
    ///   component, e.g. `IMG_0042.JPG`); nil names it by its content hash.
    @discardableResult
    public func createAsset(from data: Data, filename: String? = nil) throws -> ObjectPlaceholder { try importing.createAsset(from: data, filename: filename) }

    /// Imports the bytes of an asynchronous sequence (an upload's body, a
    /// `FileHandle`'s `bytes`) as a new photo, streamed to a staging file:
    /// at most 1 MiB is held in memory, and a sequence longer than the size
    /// limit stops being read there.
    @discardableResult
    public func createAsset<Bytes: AsyncSequence>(from bytes: Bytes, filename: String? = nil) async throws -> ObjectPlaceholder
    where Bytes.Element == UInt8 { try await importing.createAsset(from: bytes, filename: filename) }

    /// Imports a sequence of chunks (`Data`, `[UInt8]`, …: what HTTP servers
    /// hand out) as a new photo, streamed to a staging file chunk by chunk.
    @discardableResult
    public func createAsset<Chunks: AsyncSequence>(fromChunks chunks: Chunks, filename: String? = nil) async throws -> ObjectPlaceholder
    where Chunks.Element: DataProtocol { try await importing.createAsset(fromChunks: chunks, filename: filename) }

    /// A file name given with bytes: one path component, printable
    /// (`invalidChange` otherwise). Public so a server can refuse a bad
    /// name as a bad request before it reads the upload.
    public static func checkedFilename(_ name: String?) throws -> String? { try Importer.checkedFilename(name) }
}

// MARK: Editing (Editing.swift, Editing+Edit.swift, +Conditional, +Auto, +Lens)

extension PhotoLibrary {
    /// Applies a chain (e.g. `"crop,exposure=+0.3"`) to a photo: merges it
    /// into the current recipe (or, with `reset`, into an empty one), renders
    /// the full-size output and commits both as the next revision.
    ///
    /// It goes through the same content-editing API other editors use: read a
    /// `ContentEditingInput`, render onto its base, commit a
    /// `ContentEditingOutput` in `performChanges`. If another writer commits to
    /// the photo meanwhile, the chain is merged again on top of that revision
    /// (up to 20 times), so no edit is ever lost. Returns the new revision.
    ///
    /// For a RAW+JPEG pair, `fromRAW` chooses the file the edit starts from
    /// (true: the RAW, false: the JPEG; the filters carry over). When nil,
    /// the current edit's base is kept, and a photo never edited starts from
    /// the JPEG unless the chain sets the `raw` stage.
    @discardableResult
    public func apply(chain: String, to idOrPrefix: String, reset: Bool = false, removing: [String] = [],
                      presets: PresetLibrary? = nil, fromRAW: Bool? = nil) throws -> Revision { try editing.apply(chain: chain, to: idOrPrefix, reset: reset, removing: removing, presets: presets, fromRAW: fromRAW) }

    /// `apply(chain:…)` on several photos, one after the other (each render
    /// already uses every core); stops at the first error, the photos before
    /// it keeping their new revision. `progress` is called after each photo.
    @discardableResult
    public func apply(chain: String, to ids: [String], reset: Bool = false, removing: [String] = [],
                      presets: PresetLibrary? = nil, fromRAW: Bool? = nil, progress: ProgressHandler? = nil) throws -> [Revision] { try editing.apply(chain: chain, to: ids, reset: reset, removing: removing, presets: presets, fromRAW: fromRAW, progress: progress) }

    /// `apply(chain:…)` with parsed steps.
    @discardableResult
    public func apply(steps: [ChainStep], to idOrPrefix: String, reset: Bool = false, removing: [String] = [],
                      presets: PresetLibrary? = nil, fromRAW: Bool? = nil) throws -> Revision { try editing.apply(steps: steps, to: idOrPrefix, reset: reset, removing: removing, presets: presets, fromRAW: fromRAW) }

    /// Copies the recipe of one photo onto others (copy and paste of edits).
    /// Geometry filters (rotate, straighten, flip, crop) are left out unless
    /// `includeGeometry`, and each target then keeps its own. With `replace`,
    /// a target's other filters are dropped; otherwise the copied filters
    /// replace the target's filters of the same kind and the rest stay.
    /// `progress` is called after each target with (done, total).
    @discardableResult
    public func copyRecipe(from source: String, to targets: [String], includeGeometry: Bool = false,
                           replace: Bool = false, progress: ProgressHandler? = nil) throws -> [Revision] { try editing.copyRecipe(from: source, to: targets, includeGeometry: includeGeometry, replace: replace, progress: progress) }

    /// Replaces a photo's recipe with `recipe`, as a new revision. The recipe
    /// must be in photoedit's own format. Its base says what it applies to:
    /// `original` or `alternate` (the RAW of a pair), or `render`: the
    /// render of another tool's edit the photo's current edit builds on (the
    /// current render when the latest edit is another tool's).
    @discardableResult
    public func apply(recipe: Recipe, to idOrPrefix: String) throws -> Revision { try editing.apply(recipe: recipe, to: idOrPrefix) }

    /// Brings every filter of the photo's recipe to its current version (each
    /// migration step in turn) and commits the re-rendered result as a new
    /// revision. Old recipes otherwise keep rendering exactly as they did
    /// (process versions). Returns nil when there was nothing to upgrade.
    @discardableResult
    public func upgrade(_ idOrPrefix: String) throws -> (revision: Revision, upgraded: [(filter: String, from: Int, to: Int)])? { try editing.upgrade(idOrPrefix) }

    /// `upgrade` of several photos, one after the other; an element is nil
    /// for a photo that was up to date. `progress` is called after each photo.
    public func upgrade(_ ids: [String], progress: ProgressHandler? = nil) throws
        -> [(revision: Revision, upgraded: [(filter: String, from: Int, to: Int)])?] { try editing.upgrade(ids, progress: progress) }

    /// Returns the photo to its original as a new revision without
    /// adjustments; with `revision`, makes that revision current again as a
    /// new revision with its adjustment data (and base), its render rebuilt from
    /// the adjustment data when this engine reads the format, else copied.
    /// Nothing is deleted.
    @discardableResult
    public func revert(_ idOrPrefix: String, to revision: Int? = nil) throws -> Revision { try editing.revert(idOrPrefix, to: revision) }

    /// Merges a chain into the recipe of revision `revision` and commits the
    /// result as revision `revision + 1`, only if the photo is still at
    /// `revision`; throws `PhotoEditError.conflict` otherwise (nothing changes).
    /// The other parameters are those of `apply(steps:to:…)`.
    @discardableResult
    public func apply(steps: [ChainStep], to idOrPrefix: String, ifAt revision: Int, reset: Bool = false,
                      removing: [String] = [], presets: PresetLibrary? = nil, fromRAW: Bool? = nil) throws -> Revision { try editing.apply(steps: steps, to: idOrPrefix, ifAt: revision, reset: reset, removing: removing, presets: presets, fromRAW: fromRAW) }

    /// `apply(steps:to:ifAt:…)`, also only if the photo passes `precondition`,
    /// checked on the photo as the edit's first read finds it, in that read
    /// (the server's whole-ETag `If-Match`: no transaction of its own).
    @discardableResult
    package func apply(steps: [ChainStep], to idOrPrefix: String, ifAt revision: Int, reset: Bool = false,
                       removing: [String] = [], presets: PresetLibrary? = nil, fromRAW: Bool? = nil,
                       checking precondition: @escaping @Sendable (Asset) throws -> Void) throws -> Revision { try editing.apply(steps: steps, to: idOrPrefix, ifAt: revision, reset: reset, removing: removing, presets: presets, fromRAW: fromRAW, checking: precondition) }

    /// Replaces the photo's recipe with `recipe` (as `apply(recipe:to:)`),
    /// only if the photo is still at `revision`.
    @discardableResult
    public func apply(recipe: Recipe, to idOrPrefix: String, ifAt revision: Int) throws -> Revision { try editing.apply(recipe: recipe, to: idOrPrefix, ifAt: revision) }

    /// `apply(recipe:to:ifAt:)`, also only if the photo passes
    /// `precondition`, checked in the edit's first read (as the chain's).
    @discardableResult
    package func apply(recipe: Recipe, to idOrPrefix: String, ifAt revision: Int,
                       checking precondition: @escaping @Sendable (Asset) throws -> Void) throws -> Revision { try editing.apply(recipe: recipe, to: idOrPrefix, ifAt: revision, checking: precondition) }

    /// Reverts to the original, or makes revision `target` current again (as
    /// `revert(_:to:)`), only if the photo is still at `revision`.
    @discardableResult
    public func revert(_ idOrPrefix: String, to target: Int? = nil, ifAt revision: Int) throws -> Revision { try editing.revert(idOrPrefix, to: target, ifAt: revision) }

    /// The settings `auto` writes for a photo (what `apply(chain: "auto", …)`
    /// would set), measured on the base its current edit starts from: the
    /// original (a RAW developed with the recipe's `raw` settings), or the
    /// other tool's render an edit builds on. Nothing is written.
    public func autoAdjustment(for idOrPrefix: String) throws -> AutoAdjustment { try editing.autoAdjustment(for: idOrPrefix) }

    /// The camera and lens a photo's EXIF names, and the lensfun profile
    /// they match, or why none does (what `lens` would store; nothing is written).
    public func lensIdentification(for idOrPrefix: String) throws -> LensIdentification { try editing.lensIdentification(for: idOrPrefix) }

    /// The camera and ISO of a photo, the darktable noise profile the
    /// `denoise` filter would record for it (interpolated between ISOs), or
    /// why none, and the noise measured on the photo's flat regions
    /// (full size; a RAW developed neutrally). Nothing is written.
    public func denoiseIdentification(for idOrPrefix: String) throws -> DenoiseIdentification {
        var found = try editing.denoiseIdentification(for: idOrPrefix)
        // A current edit in a format this build cannot read (a darktable history) records none.
        found.recorded = (try? queries.currentRecipe(idOrPrefix)).flatMap(DenoiseIdentification.recorded(in:))
        return found
    }

    /// The `perspective` values `upright` writes for a photo in `mode` (what
    /// `apply(chain: "upright=MODE", …)` would set), or why it finds none:
    /// measured on the base its current edit starts from, after the recipe's
    /// `lens` and `rotate` (as the `perspective` filter sees it). Nothing is written.
    public func uprightAdjustment(for idOrPrefix: String, mode: UprightMode = .auto) throws -> UprightAdjustment {
        try editing.uprightAdjustment(for: idOrPrefix, mode: mode)
    }
}

// MARK: Committing (Committing.swift, +Staging, +Pairs; the change requests in Changes.swift)

extension PhotoLibrary {
    /// Applies every request made in `block` in one all-or-nothing commit
    /// (PhotoKit's `performChanges`): new files are staged and moved into
    /// place first, then one catalog transaction applies everything. If any
    /// request is invalid, or an edit's photo has moved on since its input was
    /// read (`PhotoEditError.conflict`), nothing changes.
    public func performChanges(_ block: (PhotoLibraryChanges) throws -> Void) throws { try committing.performChanges(block) }

    /// `performChanges` whose block returns a value (placeholders, outputs…),
    /// handed back once the changes are committed.
    public func performChanges<T>(returning block: (PhotoLibraryChanges) throws -> T) throws -> T { try committing.performChanges(returning: block) }

    /// Commits an editor's output as its photo's next revision, as
    /// `changeRequest(for:).contentEditingOutput` in `performChanges` does,
    /// in one write transaction (no change request, which reads the photo's
    /// flags first); returns the revision it wrote. Throws a conflict when
    /// the photo is no longer at the output's revision.
    @discardableResult
    package func commit(_ output: ContentEditingOutput) throws -> Revision { try committing.commitRevision(of: output.assetIdentifier, output: output) }
}

// MARK: Editing inputs (Editing+Input.swift; the types in ContentEditing.swift)

extension PhotoLibrary {
    /// Reads what an editor needs to edit a photo. See
    /// `ContentEditingInputRequestOptions.canHandleAdjustmentData` for which
    /// base image it gets.
    public func requestContentEditingInput(for idOrPrefix: String,
                                           options: ContentEditingInputRequestOptions = ContentEditingInputRequestOptions()) throws -> ContentEditingInput { try editing.requestContentEditingInput(for: idOrPrefix, options: options) }

    /// The row and current revision of a photo in one read (`precondition`
    /// checked in it), from which `contentEditingInput(from:options:)` makes
    /// any base's input without another read.
    package func editingSnapshot(for idOrPrefix: String, precondition: (@Sendable (Asset) throws -> Void)? = nil) throws -> EditingSnapshot { try editing.editingSnapshot(for: idOrPrefix, precondition: precondition) }

    /// An editing input made from a snapshot (no catalog read).
    package func contentEditingInput(from snapshot: EditingSnapshot, options: ContentEditingInputRequestOptions) throws -> ContentEditingInput { try editing.contentEditingInput(from: snapshot, options: options) }
}

// MARK: Rendering (Rendering.swift, Rendering+Render.swift, +Preview; Storage/Files/Previews.swift)

extension PhotoLibrary {
    /// Writes a version of a photo to `path`. The format follows
    /// `options.format`, else the file's extension.
    ///
    /// - `current`: the stored full-size render of the latest revision
    ///   (rebuilt from its recipe if the file is missing); the unadjusted
    ///   photo when the latest revision has no adjustments.
    /// - `unadjusted`: the original, upright, colour-managed to sRGB.
    /// - `original`: the original file itself when its format is asked for
    ///   at full size; otherwise its pixels, upright, at full precision. A
    ///   RAW (or the RAW of a RAW+JPEG pair): its neutral development.
    public func render(_ idOrPrefix: String, version: ImageVersion = .current, to path: String, options: RenderOptions = RenderOptions()) throws { try rendering.render(idOrPrefix, version: version, to: path, options: options) }

    /// A preview of an edit that is not committed: `steps` applied on top of
    /// the photo's current recipe (on a fresh recipe with `reset`), rendered
    /// to fit `longEdge` pixels, as a JPEG. What an editor's sliders ask for:
    /// nothing is written to the library.
    ///
    /// Fast: the base is decoded at about the preview's size (libvips'
    /// thumbnail, which shrinks JPEG and WebP while decoding), and filters
    /// whose effect has a size in pixels (blur, sharpen, noise, grain,
    /// resize) follow the preview's scale, so the preview looks like the
    /// full render made small. A camera RAW is developed at full size first.
    /// A preview is never larger than the base. The decoded base is kept for
    /// the next previews of the same photo and size (an editor's slider
    /// asks for many in a row): see `PreviewBases`.
    public func preview(_ idOrPrefix: String, steps: [ChainStep], longEdge: Int, reset: Bool = false,
                        presets: PresetLibrary? = nil, quality: Int = 85) throws -> RenderedImage { try rendering.preview(idOrPrefix, steps: steps, longEdge: longEdge, reset: reset, presets: presets, quality: quality) }

    /// Makes photo `id`'s current version's preview if it is missing;
    /// whether it has one afterwards (or needs none). Idempotent: a preview
    /// is made from its file, the same bytes each time.
    package func ensurePreview(_ id: String) throws -> Bool { try previews.ensurePreview(id) }
}

// MARK: Develop settings of other editors (Importing+Lightroom.swift, Importing+Darktable.swift)

extension PhotoLibrary {
    /// The `darktable-cli` that renders darktable histories (default: the one
    /// ``DarktableCLI/located(environment:)`` finds when the library is
    /// opened). Nil: a history is kept with the photo's unedited render.
    public var darktable: DarktableCLI? {
        get { parts.darktable.current }
        set { parts.darktable.current = newValue }
    }

    /// Reads the develop settings of photos already in the library and
    /// commits each as a new revision (all-or-nothing, rendered as any edit).
    ///
    /// The packet is `sidecar` when given, else the first sidecar beside the
    /// file the photo was imported from (`IMG_1.CR2.xmp`, `IMG_1.xmp`, …, the
    /// RAW's first for a RAW+JPEG pair) that has `crs:` settings, else the
    /// packet embedded in the photo's original. A packet already imported
    /// into the photo's history makes no new revision. Returns nil for a
    /// photo with no develop settings; throws for a packet that cannot be
    /// used (one line, never quoting it).
    public func importDevelopSettings(_ idOrPrefix: String, sidecar: String? = nil) throws -> LightroomImport? { try importing.importDevelopSettings(idOrPrefix, sidecar: sidecar) }

    /// Reads the darktable history of a photo already in the library and
    /// commits it as a new revision: from `sidecar` when given, else from the
    /// first sidecar beside the file the photo was imported from
    /// (`IMG_1.CR2.xmp`, `IMG_1.xmp`; the RAW's first for a RAW+JPEG pair).
    /// A sidecar already in the photo's history makes no new revision.
    /// Returns nil when there is no darktable history; throws for one that
    /// cannot be used (one line, never quoting it) or that darktable fails to render.
    public func importDarktableHistory(_ idOrPrefix: String, sidecar: String? = nil) throws -> DarktableImport? { try importing.importDarktableHistory(idOrPrefix, sidecar: sidecar) }

    /// An XMP sidecar for a photo (`photoedit export --xmp`): its rating,
    /// label, keywords, title and caption, the `crs:` equivalents of its
    /// current recipe (so Lightroom and darktable open it with the edit
    /// approximated), and the recipe itself as `photoedit:recipe`.
    /// `notExported` lists what has no `crs:` equivalent.
    ///
    /// `applied`: the sidecar goes beside the current render (the
    /// `fullSizePhoto` resource), whose pixels already have the edit: it is
    /// marked `crs:AlreadyApplied` with orientation 1, as Lightroom marks the
    /// files it exports, so neither Lightroom nor photoedit applies it again.
    public func xmpSidecar(for idOrPrefix: String, applied: Bool = false) throws -> XMPSidecar { try queries.xmpSidecar(for: idOrPrefix, applied: applied) }
}

// MARK: The change feed (ChangeFeed.swift, ChangeWatcher.swift)

extension PhotoLibrary {
    /// The sequence number of the latest committed change (0: none yet).
    public func latestChangeSequence() throws -> Int { try feed.latestChangeSequence() }

    /// The change feed's rows after `seq`, oldest first: one per changed
    /// object (no snapshots, cheap). At most `limit` change sets.
    public func changeEntries(since seq: Int, limit: Int? = nil) throws -> [ChangeEntry] { try feed.changeEntries(since: seq, limit: limit) }

    /// The changes committed after `seq`, oldest first, at most `limit` of
    /// them, each with its objects before and after (`changeDetails(forAsset:)`).
    public func changes(since seq: Int, limit: Int? = nil) throws -> [ChangeSet] { try feed.changes(since: seq, limit: limit) }

    /// The changes committed after `seq` (nil: from now on), as they happen,
    /// by this process or any other (PhotoKit's change observer). Changes
    /// already committed after `seq` come first. A commit by another process
    /// arrives within milliseconds: the library folder is watched with
    /// inotify (polled every 15 ms where inotify is missing); a shared
    /// catalog (PostgreSQL) wakes the reader when any node commits
    /// (LISTEN/NOTIFY, with a slow poll as a safety net). A read of the feed
    /// that fails (a shared catalog's connection lost) is tried again; the
    /// sequence ends with the error only after 30 s of failures. Cancelling
    /// the consuming task (or dropping the sequence) stops the watcher.
    public func changeSets(since seq: Int? = nil) throws -> AsyncThrowingStream<ChangeSet, Error> { try feed.changeSets(since: seq) }
}

// MARK: Uploaded presets (Presets/LibraryPresets.swift)

extension PhotoLibrary {
    /// The presets this library applies: its uploaded presets first, then
    /// the standard search path (`PresetLibrary.standard`).
    public func presets(environment: [String: String] = ProcessInfo.processInfo.environment) -> PresetLibrary { uploadedPresets.presets(environment: environment) }

    /// Adds the Lightroom preset `data` as `NAME.xmp` (applied as
    /// `preset:NAME.xmp`): checked as `photoedit apply preset:FILE.xmp` reads
    /// it, staged, then moved into place whole. A name any preset of the
    /// search path has already is refused (`PresetUploadError.exists`).
    @discardableResult
    public func addPreset(named requested: String, lightroom data: Data) throws -> Preset { try uploadedPresets.addPreset(named: requested, lightroom: data) }
}
