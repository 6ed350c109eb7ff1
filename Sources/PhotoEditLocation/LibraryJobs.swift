// Batch jobs need the job table of a library shared through PostgreSQL: the `Server` trait.
#if Server
import Foundation
import PhotoEdit
import PhotoEditPostgres

/// An edit a batch applies to many photos: a chain whose presets were
/// expanded when the batch was planned (every node applies the same edit,
/// whatever preset folders it has), with `apply`'s options.
public struct BatchEdit: Codable, Sendable, Equatable {
    /// The chain (no `preset:` step).
    public var chain: String
    /// Start from the original instead of the current recipe.
    public var reset: Bool
    /// Filters removed from the recipe.
    public var remove: [String]
    /// For a RAW+JPEG pair: `raw` or `jpeg`; nil keeps the current edit's base.
    public var base: String?

    public init(chain: String, reset: Bool = false, remove: [String] = [], base: String? = nil) {
        self.chain = chain
        self.reset = reset
        self.remove = remove
        self.base = base
    }

    /// Checks the edit before anything is planned: the chain parses and
    /// applies to an empty recipe, the removed filters exist, the base is
    /// raw or jpeg. Throws the engine's one-line error.
    public func validate(registry: FilterRegistry = .standard) throws {
        let steps = try Chain.parse(chain)
        if let step = steps.first(where: { $0.preset != nil }) {
            throw PhotoEditError.invalidChain(chain: step.description, problem: "a batch's chain has its presets expanded (BatchEdit.expanding)")
        }
        _ = try Chain.apply(steps, to: .empty, registry: registry, auto: { $0 }, upright: { r, _ in r })
        for name in remove { _ = try registry.require(name) }
        if let base, !["raw", "jpeg"].contains(base) {
            throw PhotoEditError.invalidChange("base: raw or jpeg, not \(base.debugDescription.prefix(40))")
        }
    }

    /// The chain with every `preset:NAME` step replaced by the preset's own
    /// chain (recipes written in the grammar), as deep as presets nest (8).
    public static func expanding(_ chain: String, presets: PresetLibrary, depth: Int = 0) throws -> String {
        var parts: [String] = []
        for step in try Chain.parse(chain) {
            guard let name = step.preset else {
                parts.append(step.description)
                continue
            }
            guard depth < 8 else { throw PhotoEditError.invalidChain(chain: step.description, problem: "presets include each other too deeply") }
            let inner = try expanding(try presets.preset(named: name).chain, presets: presets, depth: depth + 1)
            if !inner.isEmpty { parts.append(inner) }
        }
        return parts.joined(separator: ",")
    }
}

/// A photo as a batch planned it: its id and the revision the batch's edit
/// is to be applied to.
public struct PlannedPhoto: Codable, Sendable, Hashable {
    public var id: String
    public var revision: Int
    public init(id: String, revision: Int) {
        self.id = id
        self.revision = revision
    }
}

/// Batch work on a library shared by many nodes, as jobs in its PostgreSQL
/// catalog (`PostgresCatalog.enqueue`, claimed with FOR UPDATE SKIP LOCKED
/// by any node's `CatalogJobWorker`): a chain or preset applied to many
/// photos (`apply`), recipes brought to the current filter versions
/// (`upgrade`). A batch is cut into jobs of a few photos; a job runs at
/// least once, and is idempotent:
///
/// - `apply` carries the revision each photo was at when the batch was
///   planned, and commits only on it (`apply(steps:to:ifAt:)`, the
///   engine's If-Match): a photo already past it — edited by this job's
///   earlier claim that died before it finished, or by someone since — is
///   skipped, never edited twice;
/// - `upgrade` changes nothing in a recipe already current.
///
/// A folder library has no job table: its batch work runs in the process
/// that asked for it (the CLI's `apply`, `upgrade`).
public final class LibraryJobs: Sendable {
    /// The job kinds this runs.
    public enum Kind {
        public static let apply = "apply"
        public static let upgrade = "upgrade"
        /// The derivatives (thumbnails, previews) of new photos: run by
        /// workers given a `derivatives` builder.
        public static let derivatives = "derivatives"
    }

    /// Builds what a node keeps of one photo beside its render (thumbnails,
    /// previews); called on a Dispatch thread, it may block. It must be
    /// idempotent (a job may run twice).
    public typealias DerivativeBuilder = @Sendable (PhotoLibrary, String) throws -> Void

    /// The catalog's job table.
    public let catalog: PostgresCatalog
    /// The library the jobs edit (this node's handle on it).
    public let library: PhotoLibrary
    /// The builder of `derivatives` jobs; nil: this node's workers leave them to others.
    public let derivatives: DerivativeBuilder?

    /// What a node builds of a new photo: its preview (shared through the
    /// blob store), made from its file if it is missing.
    public static let previews: DerivativeBuilder = { library, id in _ = try library.ensurePreview(id) }

    public init(catalog: PostgresCatalog, library: PhotoLibrary, derivatives: DerivativeBuilder? = nil) {
        self.catalog = catalog
        self.library = library
        self.derivatives = derivatives
    }

    /// Opens the job table of a distributed library (the catalog's own
    /// connection pool); `close` ends it.
    public static func open(_ location: DistributedLibraryLocation, library: PhotoLibrary,
                            derivatives: DerivativeBuilder? = nil) async throws -> LibraryJobs {
        LibraryJobs(catalog: try await PostgresCatalog.open(location.catalog), library: library, derivatives: derivatives)
    }

    /// Ends the job table's connections.
    public func close() async {
        await catalog.close()
    }

    /// Photos a job holds.
    public static let defaultPhotosPerJob = 20

    struct ApplyPayload: Codable {
        var edit: BatchEdit
        var photos: [PlannedPhoto]
    }

    /// The photos of an `upgrade` or `derivatives` job.
    struct UpgradePayload: Codable {
        var photos: [String]
    }

    /// Plans `edit` on the photos with these ids (each at its current
    /// revision) and enqueues it as a batch; returns the batch id.
    public func enqueueApply(_ edit: BatchEdit, to ids: [String], photosPerJob: Int = defaultPhotosPerJob) async throws -> String {
        try edit.validate(registry: library.registry)
        let library = self.library
        let planned = try await BlockingExecutor.run { try ids.map { PlannedPhoto(id: $0, revision: try library.asset($0).revision) } }
        let jobs = try chunks(planned, photosPerJob)
        return try await enqueue(kind: Kind.apply, jobs.map { ApplyPayload(edit: edit, photos: $0) }, sizes: jobs.map(\.count))
    }

    /// Enqueues the upgrade of these photos as a batch; returns the batch id.
    public func enqueueUpgrade(_ ids: [String], photosPerJob: Int = defaultPhotosPerJob) async throws -> String {
        let jobs = try chunks(ids, photosPerJob)
        return try await enqueue(kind: Kind.upgrade, jobs.map { UpgradePayload(photos: $0) }, sizes: jobs.map(\.count))
    }

    /// Enqueues the derivatives of these photos (new imports, say) as a
    /// batch for the workers that build them; returns the batch id.
    public func enqueueDerivatives(_ ids: [String], photosPerJob: Int = defaultPhotosPerJob) async throws -> String {
        let jobs = try chunks(ids, photosPerJob)
        return try await enqueue(kind: Kind.derivatives, jobs.map { UpgradePayload(photos: $0) }, sizes: jobs.map(\.count))
    }

    private func chunks<T>(_ items: [T], _ size: Int) throws -> [[T]] {
        guard !items.isEmpty else { throw PhotoEditError.invalidChange("a batch needs at least one photo") }
        guard (1...1000).contains(size) else { throw PhotoEditError.invalidChange("photos per job: 1 to 1000, not \(size)") }
        return stride(from: 0, to: items.count, by: size).map { Array(items[$0..<min($0 + size, items.count)]) }
    }

    /// One job per payload, its total the photos it holds.
    private func enqueue<P: Encodable>(kind: String, _ payloads: [P], sizes: [Int]) async throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        let texts = try payloads.map { String(decoding: try encoder.encode($0), as: UTF8.self) }
        return try await catalog.enqueue(kind: kind, payloads: texts, totals: sizes.map { Int64?(Int64($0)) }).batch
    }

    /// How far a batch is (all zero for an unknown batch).
    public func progress(_ batch: String) async throws -> CatalogBatchProgress {
        try await catalog.batchProgress(batch)
    }

    /// Cancels what of the batch has not run; a job running stops at its
    /// next photo (the photos it edited keep their edit). Returns the jobs cancelled.
    @discardableResult
    public func cancel(_ batch: String) async throws -> Int {
        try await catalog.cancelBatch(batch)
    }

    /// A worker that runs this library's jobs (`run()` until cancelled, or `drain()`).
    public func worker(name: String? = nil, lease: Duration = .seconds(30)) -> CatalogJobWorker {
        var handlers: [String: CatalogJobWorker.Handler] = [
            Kind.apply: { [self] context in try await self.runApply(context) },
            Kind.upgrade: { [self] context in try await self.runEach(context) { library, id in _ = try library.upgrade(id) } },
        ]
        if let derivatives {
            handlers[Kind.derivatives] = { [self] context in try await self.runEach(context, derivatives) }
        }
        return CatalogJobWorker(catalog: catalog, name: name, lease: lease, handlers: handlers)
    }

    /// What an apply job did with one photo.
    enum Outcome: Sendable {
        case applied, skipped, gone
    }

    func runApply(_ context: CatalogJobContext) async throws {
        let payload = try Self.decode(ApplyPayload.self, context.job)
        let steps = try Chain.parse(payload.edit.chain)
        let library = self.library
        let edit = payload.edit
        for (n, photo) in payload.photos.enumerated() {
            try Task.checkCancellation()
            _ = try await BlockingExecutor.run { () -> Outcome in
                let asset: Asset
                do { asset = try library.asset(photo.id) } catch PhotoEditError.unknownAsset { return .gone }
                // Past the planned revision: this job's earlier claim (or someone since) edited it.
                guard asset.revision == photo.revision else { return .skipped }
                do {
                    try library.apply(steps: steps, to: photo.id, ifAt: photo.revision, reset: edit.reset, removing: edit.remove,
                                      fromRAW: edit.base.map { $0 == "raw" })
                    return .applied
                } catch PhotoEditError.conflict {
                    return .skipped
                }
            }
            try await context.progress(done: Int64(n + 1))
            await Self.pausePoint(Self.pauseAfterApplyItem)
        }
    }

    /// Runs `work` on each photo of a job (a photo purged meanwhile is skipped).
    func runEach(_ context: CatalogJobContext, _ work: @escaping @Sendable (PhotoLibrary, String) throws -> Void) async throws {
        let payload = try Self.decode(UpgradePayload.self, context.job)
        let library = self.library
        for (n, id) in payload.photos.enumerated() {
            try Task.checkCancellation()
            try await BlockingExecutor.run {
                do { try work(library, id) } catch PhotoEditError.unknownAsset {}
            }
            try await context.progress(done: Int64(n + 1))
        }
    }

    /// The pause point after each photo of an apply job (see `pausePoint`).
    static let pauseAfterApplyItem = "apply-item"

    /// A test-only pause point: when `PHOTOEDIT_TEST_PAUSE_AT` names `point`,
    /// the worker holds here — its job running, the photo's progress
    /// recorded, the rest not started — until the process is killed. Tests
    /// that must kill a worker in the middle of a job use it instead of
    /// trying to catch the moment (which a loaded machine can miss): what
    /// they see then is where the worker is, every time. Says once on
    /// standard error that it holds, so that nobody mistakes it for a hang.
    static func pausePoint(_ point: String) async {
        guard ProcessInfo.processInfo.environment["PHOTOEDIT_TEST_PAUSE_AT"] == point else { return }
        FileHandle.standardError.write(Data("photoedit: held at test pause point '\(point)' (PHOTOEDIT_TEST_PAUSE_AT) until killed\n".utf8))
        // Never resumed, on purpose: not even cancellation ends the hold, only a kill.
        await withUnsafeContinuation { (_: UnsafeContinuation<Void, Never>) in }
    }

    static func decode<T: Decodable>(_ type: T.Type, _ job: CatalogJob) throws -> T {
        do {
            return try JSONDecoder().decode(T.self, from: Data(job.payload.utf8))
        } catch {
            throw PhotoEditError.library("job \(job.id) (\(job.kind)): its payload is not one this photoedit reads")
        }
    }
}
#endif
