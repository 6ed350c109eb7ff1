import Foundation

/// `async` forms of the library's operations, with the same parameters as
/// the synchronous ones. Each runs the synchronous operation on a Dispatch
/// thread (never on the caller's thread or Swift's cooperative pool), so many
/// tasks can call them at once; the catalog and the commit protocol make
/// concurrent calls safe.
extension PhotoLibrary {
    /// `importItems`, off the caller's thread.
    public func importItems(_ paths: [String], jobs: Int = ProcessInfo.processInfo.activeProcessorCount,
                            progress: ProgressHandler? = nil) async throws -> [ImportResult] {
        try await offload { try self.importItems(paths, jobs: jobs, progress: progress) }
    }

    /// `importItems(fileSystemPaths:jobs:progress:)`, off the caller's thread.
    public func importItems(fileSystemPaths paths: [[UInt8]], jobs: Int = ProcessInfo.processInfo.activeProcessorCount,
                            progress: ProgressHandler? = nil) async throws -> [ImportResult] {
        try await offload { try self.importItems(fileSystemPaths: paths, jobs: jobs, progress: progress) }
    }

    /// `rebuildCatalog(url:registry:)`, off the caller's thread.
    public static func rebuildCatalog(url: URL, registry: FilterRegistry = .standard) async throws -> CatalogRebuildReport {
        try await offload { try rebuildCatalog(url: url, registry: registry) }
    }

    /// `apply(chain:to:reset:removing:presets:fromRAW:)`, off the caller's thread.
    @discardableResult
    public func apply(chain: String, to idOrPrefix: String, reset: Bool = false, removing: [String] = [],
                      presets: PresetLibrary? = nil, fromRAW: Bool? = nil) async throws -> Revision {
        try await offload { try self.apply(chain: chain, to: idOrPrefix, reset: reset, removing: removing, presets: presets, fromRAW: fromRAW) }
    }

    /// `apply(chain:to:…)` on several photos, off the caller's thread.
    @discardableResult
    public func apply(chain: String, to ids: [String], reset: Bool = false, removing: [String] = [],
                      presets: PresetLibrary? = nil, fromRAW: Bool? = nil, progress: ProgressHandler? = nil) async throws -> [Revision] {
        try await offload {
            try self.apply(chain: chain, to: ids, reset: reset, removing: removing, presets: presets, fromRAW: fromRAW, progress: progress)
        }
    }

    /// `apply(steps:to:…)`, off the caller's thread.
    @discardableResult
    public func apply(steps: [ChainStep], to idOrPrefix: String, reset: Bool = false, removing: [String] = [],
                      presets: PresetLibrary? = nil, fromRAW: Bool? = nil) async throws -> Revision {
        try await offload { try self.apply(steps: steps, to: idOrPrefix, reset: reset, removing: removing, presets: presets, fromRAW: fromRAW) }
    }

    /// `apply(recipe:to:)`, off the caller's thread.
    @discardableResult
    public func apply(recipe: Recipe, to idOrPrefix: String) async throws -> Revision {
        try await offload { try self.apply(recipe: recipe, to: idOrPrefix) }
    }

    /// `copyRecipe(from:to:…)`, off the caller's thread.
    @discardableResult
    public func copyRecipe(from source: String, to targets: [String], includeGeometry: Bool = false,
                           replace: Bool = false, progress: ProgressHandler? = nil) async throws -> [Revision] {
        try await offload {
            try self.copyRecipe(from: source, to: targets, includeGeometry: includeGeometry, replace: replace, progress: progress)
        }
    }

    /// `upgrade(_:)`, off the caller's thread.
    @discardableResult
    public func upgrade(_ idOrPrefix: String) async throws -> (revision: Revision, upgraded: [(filter: String, from: Int, to: Int)])? {
        try await offload { try self.upgrade(idOrPrefix).map(UpgradeBox.init) }?.value
    }

    /// `upgrade(_:progress:)` of several photos, off the caller's thread.
    public func upgrade(_ ids: [String], progress: ProgressHandler? = nil) async throws
        -> [(revision: Revision, upgraded: [(filter: String, from: Int, to: Int)])?] {
        try await offload { try self.upgrade(ids, progress: progress).map { $0.map(UpgradeBox.init) } }.map { $0?.value }
    }

    /// `revert(_:to:)`, off the caller's thread.
    @discardableResult
    public func revert(_ idOrPrefix: String, to revision: Int? = nil) async throws -> Revision {
        try await offload { try self.revert(idOrPrefix, to: revision) }
    }

    /// `render(_:version:to:options:)`, off the caller's thread.
    public func render(_ idOrPrefix: String, version: ImageVersion = .current, to path: String,
                       options: RenderOptions = RenderOptions()) async throws {
        try await offload { try self.render(idOrPrefix, version: version, to: path, options: options) }
    }

    /// `verify(repair:gracePeriod:progress:)`, off the caller's thread.
    public func verify(repair: Bool = false, gracePeriod: TimeInterval = PhotoLibrary.defaultGracePeriod,
                       progress: ProgressHandler? = nil) async throws -> VerificationReport {
        try await offload { try self.verify(repair: repair, gracePeriod: gracePeriod, progress: progress) }
    }

    /// `resolve(_:)`, off the caller's thread.
    public func resolve(_ idOrPrefix: String) async throws -> String {
        try await offload { try self.resolve(idOrPrefix) }
    }

    /// `asset(_:)`, off the caller's thread.
    public func asset(_ idOrPrefix: String) async throws -> Asset {
        try await offload { try self.asset(idOrPrefix) }
    }

    /// `assets(includeHidden:includeDeleted:onlyDeleted:)`, off the caller's thread.
    public func assets(includeHidden: Bool = false, includeDeleted: Bool = false, onlyDeleted: Bool = false) async throws -> [Asset] {
        try await offload { try self.assets(includeHidden: includeHidden, includeDeleted: includeDeleted, onlyDeleted: onlyDeleted) }
    }

    /// `history(_:)`, off the caller's thread.
    public func history(_ idOrPrefix: String) async throws -> [Revision] {
        try await offload { try self.history(idOrPrefix) }
    }

    /// `currentRecipe(_:)`, off the caller's thread.
    public func currentRecipe(_ idOrPrefix: String) async throws -> Recipe {
        try await offload { try self.currentRecipe(idOrPrefix) }
    }

    /// `fetchAssets(_:)`, off the caller's thread.
    public func fetchAssets(_ options: FetchOptions = FetchOptions()) async throws -> FetchResult<Asset> {
        try await offload { try self.fetchAssets(options) }
    }

    /// `fetchAssets(in:options:)`, off the caller's thread.
    public func fetchAssets(in album: String, options: FetchOptions = FetchOptions()) async throws -> FetchResult<Asset> {
        try await offload { try self.fetchAssets(in: album, options: options) }
    }

    /// `fetchAlbums(titleContains:newestFirst:)`, off the caller's thread.
    public func fetchAlbums(titleContains: String? = nil, newestFirst: Bool = false) async throws -> FetchResult<Album> {
        try await offload { try self.fetchAlbums(titleContains: titleContains, newestFirst: newestFirst) }
    }

    /// `albums()`, off the caller's thread.
    public func albums() async throws -> [Album] {
        try await offload { try self.albums() }
    }

    /// `resolveAlbum(_:)`, off the caller's thread.
    public func resolveAlbum(_ titleOrID: String) async throws -> String {
        try await offload { try self.resolveAlbum(titleOrID) }
    }

    /// `album(_:)`, off the caller's thread.
    public func album(_ titleOrID: String) async throws -> Album {
        try await offload { try self.album(titleOrID) }
    }

    /// `resources(for:)`, off the caller's thread.
    public func resources(for idOrPrefix: String) async throws -> [AssetResource] {
        try await offload { try self.resources(for: idOrPrefix) }
    }

    /// `writeResource(_:to:)`, off the caller's thread.
    public func writeResource(_ resource: AssetResource, to path: String) async throws {
        try await offload { try self.writeResource(resource, to: path) }
    }

    /// `changeEntries(since:limit:)`, off the caller's thread.
    public func changeEntries(since seq: Int, limit: Int? = nil) async throws -> [ChangeEntry] {
        try await offload { try self.changeEntries(since: seq, limit: limit) }
    }

    /// `changes(since:limit:)`, off the caller's thread.
    public func changes(since seq: Int, limit: Int? = nil) async throws -> [ChangeSet] {
        try await offload { try self.changes(since: seq, limit: limit) }
    }

    /// `latestChangeSequence()`, off the caller's thread.
    public func latestChangeSequence() async throws -> Int {
        try await offload { try self.latestChangeSequence() }
    }
}

extension ImageManager {
    /// `requestImageData(for:options:)`, off the caller's thread: a version
    /// that must be rendered first renders on a Dispatch thread.
    public func requestImageData(for idOrPrefix: String, options: ImageRequestOptions = ImageRequestOptions()) async throws -> ImageData {
        try await offload { try self.requestImageData(for: idOrPrefix, options: options) }
    }
}

/// Carries an `upgrade` result (a tuple holding an array of tuples) across
/// threads; every part of it is a value.
struct UpgradeBox: @unchecked Sendable {
    let value: (revision: Revision, upgraded: [(filter: String, from: Int, to: Int)])
    init(_ value: (revision: Revision, upgraded: [(filter: String, from: Int, to: Int)])) { self.value = value }
}
