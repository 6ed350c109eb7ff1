import Foundation
import Synchronization

/// Images of a library's photos at any size, as PhotoKit's `PHImageManager`
/// and `PHCachingImageManager` together: requests with PhotoKit's options,
/// delivered as an `AsyncSequence`; a memory cache over a disk cache of
/// derivatives under the library's `cache/images/`; and background
/// preparation (`startCaching`) that never delays a request.
///
/// Thread-safe: call it from any thread or task. Requests for the same image
/// (same photo, revision, version, size, modes and crop) share one
/// computation. Several processes may share the library's disk cache.
///
/// ```swift
/// let manager = ImageManager(library: library)
/// for await result in try manager.requestImage(for: id, targetSize: ImageSize(side: 256)) {
///     if let image = result.image { show(image, degraded: result.info.isDegraded) }
/// }
/// ```
public final class ImageManager: Sendable {
    /// The library whose photos this manager renders.
    public let library: PhotoLibrary
    /// Cache sizes and prefetch concurrency.
    public let configuration: ImageCacheConfiguration
    let memory: MemoryImageCache
    let disk: DiskImageCache
    /// Called before an image is computed (not served from a cache); tests
    /// use it to hold a computation while other requests join it.
    let beforeCompute: (@Sendable (ImageCacheKey) -> Void)?
    private let state = Mutex(State())
    /// The originals' EXIF blocks for embedded metadata, by original file
    /// (content-addressed, never changed): read once per process, not at
    /// every render (on a blob store each read fetches the original).
    /// Bounded: emptied when it holds `originalExifLimit` entries.
    private let originalExif = Mutex<[String: Data?]>([:])
    private static let originalExifLimit = 20_000

    private struct State {
        var nextRequest = 1
        var requests: [Int: (continuation: AsyncStream<ImageResult>.Continuation, final: FinalResult)] = [:]
        var inFlight: [ImageCacheKey: InFlightWork<(CachedImage, Bool)>] = [:]
        /// Requests being worked on; prefetching starts nothing while above 0.
        var foreground = 0
        /// Images `startCaching` asked for, keyed with revision -1: the latest one.
        var pending: [ImageCacheKey] = []
        var pendingSet: Set<ImageCacheKey> = []
        var prefetching = 0
        var idleWaiters: [CheckedContinuation<Void, Never>] = []
        var allowsCachingHighQualityImages = true
        var statistics = ImageManagerStatistics()
    }

    /// A manager for `library`.
    public convenience init(library: PhotoLibrary, configuration: ImageCacheConfiguration = ImageCacheConfiguration()) {
        self.init(library: library, configuration: configuration, beforeCompute: nil)
    }

    init(library: PhotoLibrary, configuration: ImageCacheConfiguration, beforeCompute: (@Sendable (ImageCacheKey) -> Void)?) {
        self.library = library
        self.configuration = configuration
        memory = MemoryImageCache(limit: configuration.memoryLimit)
        disk = DiskImageCache(layout: library.layout, limit: configuration.diskLimit)
        self.beforeCompute = beforeCompute
    }

    /// When false, `startCaching` prepares what a `.fast` delivery returns
    /// (a RAW's preview rather than its full development), as PhotoKit's
    /// property of the same name. Default true.
    public var allowsCachingHighQualityImages: Bool {
        get { state.withLock { $0.allowsCachingHighQualityImages } }
        set { state.withLock { $0.allowsCachingHighQualityImages = newValue } }
    }

    /// Counters since the manager was made.
    public var statistics: ImageManagerStatistics {
        var s = state.withLock { $0.statistics }
        s.evictions = disk.evictions
        s.memoryCacheBytes = memory.bytes
        return s
    }

    // MARK: Requests

    /// Requests an image of a photo, as PhotoKit's
    /// `requestImage(for:targetSize:contentMode:options:resultHandler:)`.
    ///
    /// Bad options (a crop without `.exact`, a crop outside 0…1, a target
    /// below 1×1) and unknown ids throw at once; failures while rendering
    /// arrive as a result whose `info.error` is set. The request delivers at
    /// most one degraded image, then one final image, error or cancellation.
    ///
    /// - Parameters:
    ///   - targetSize: the size to fit or fill (`ImageSize.maximum`: full size).
    ///   - contentMode: fit inside or fill the target.
    public func requestImage(for idOrPrefix: String, targetSize: ImageSize = .maximum, contentMode: ImageContentMode = .aspectFit,
                             options: ImageRequestOptions = ImageRequestOptions()) throws -> ImageRequest {
        try options.validate(targetSize: targetSize)
        let subject = try library.imageSubject(idOrPrefix, version: options.version)
        let key = ImageCacheKey(subject, target: targetSize, contentMode: contentMode, resizeMode: options.resizeMode,
                                crop: options.normalizedCropRect, degraded: false)
        let (stream, continuation) = AsyncStream.makeStream(of: ImageResult.self)
        let final = FinalResult()
        let id = state.withLock { s -> ImageRequestID in
            defer { s.nextRequest += 1 }
            s.requests[s.nextRequest] = (continuation, final)
            return ImageRequestID(rawValue: s.nextRequest)
        }
        continuation.onTermination = { [weak self] _ in self?.cancelImageRequest(id) }
        let request = ImageRequest(id: id, stream: stream, final: final)
        options.progressHandler?(0, id)
        if let hit = memory.get(key) {
            count { $0.memoryHits += 1 }
            deliver(id, .success((hit, true)), degraded: false, final: true, options: options)
            return request
        }
        // Counted as waiting foreground work from now on, so no prefetch
        // starts before the work thread does.
        state.withLock { $0.foreground += 1 }
        let work: @Sendable () -> Void = { self.run(id, subject: subject, key: key, target: targetSize, options: options) }
        if options.isSynchronous {
            work()
        } else {
            BlockingExecutor.submit(work)
        }
        return request
    }

    /// The final (never degraded) image of a request, encoded once as
    /// `encoding` at `quality` from the pixels the pipeline makes — for a
    /// service that answers many formats and qualities: a 256 px WebP is
    /// one lossy generation of the render, never the re-encode of a cached
    /// JPEG. Cached in memory and on disk like `requestImage`'s images,
    /// keyed by format and quality too, and shared with concurrent requests
    /// for the same answer. Blocking: call it off the cooperative pool.
    /// Bad options and unknown ids throw, as rendering errors do. The flag
    /// says the answer came from a cache.
    ///
    /// - Parameter metadata: the photo's metadata the answer carries, as an
    ///   export's policy (docs/export.md, "Metadata"): the EXIF rebuilt from
    ///   the original's, the library's title, caption, keywords and rating as
    ///   XMP; `.none` writes no EXIF, IPTC or XMP at all. The ICC profile is
    ///   always embedded. nil (the default): nothing is written on purpose.
    public func requestEncodedImage(for idOrPrefix: String, targetSize: ImageSize = .maximum,
                                    contentMode: ImageContentMode = .aspectFit, options: ImageRequestOptions = ImageRequestOptions(),
                                    encoding: ImageEncoding, quality: Int,
                                    metadata: ExportMetadataPolicy? = nil) throws -> (data: Data, isFromCache: Bool) {
        try options.validate(targetSize: targetSize)
        try ImageEncoding.check(quality: quality)
        let subject = try library.imageSubject(idOrPrefix, version: options.version)
        // A JPEG at the manager's own quality is `requestImage`'s image.
        // The library's title, caption… change without a new revision: their digest is in the key.
        let descriptive = try metadata.flatMap { ExportMetadata.usesLibraryMetadata($0) ? ExportMetadata.digest(of: try library.asset(subject.id)) : nil }
        let format = encoding == .jpeg && quality == configuration.quality && metadata == nil ? nil
            : ImageCacheKey.EncodedFormat(encoding: encoding, quality: encoding.hasQuality ? quality : 0, metadata: metadata, descriptive: descriptive)
        let key = ImageCacheKey(subject, target: targetSize, contentMode: contentMode, resizeMode: options.resizeMode,
                                crop: options.normalizedCropRect, degraded: false).encoded(as: format)
        let (image, fromCache) = try obtain(key, subject).get()
        return (image.data, fromCache)
    }

    /// Cancels a request: it delivers a result with `info.isCancelled` and
    /// ends. Work other requests share goes on; a request already finished
    /// is left alone.
    public func cancelImageRequest(_ id: ImageRequestID) {
        guard let (continuation, final) = state.withLock({ $0.requests.removeValue(forKey: id.rawValue) }) else { return }
        let result = ImageResult(image: nil, info: ImageResultInfo(requestID: id, isDegraded: false, isCancelled: true,
                                                                    error: nil, isFromCache: false))
        final.set(result)
        continuation.yield(result)
        continuation.finish()
    }

    /// The request's work, on one of the `BlockingExecutor`'s threads (or the caller's, when
    /// synchronous); the caller counted it in `foreground`.
    private func run(_ id: ImageRequestID, subject: ImageSubject, key: ImageCacheKey, target: ImageSize, options: ImageRequestOptions) {
        defer {
            let idle = state.withLock { s -> Bool in
                s.foreground -= 1
                return s.foreground == 0
            }
            if idle { pump() }
        }
        guard isActive(id) else { return }
        if let hit = disk.get(key) {
            count { $0.diskHits += 1 }
            memory.put(key, hit)
            deliver(id, .success((hit, true)), degraded: false, final: true, options: options)
            return
        }
        let degradedKey = ImageCacheKey(subject, target: target, contentMode: key.contentMode, resizeMode: options.resizeMode,
                                        crop: options.normalizedCropRect, degraded: true)
        // A synchronous request delivers one image: opportunistic acts as high quality.
        let mode = options.isSynchronous && options.deliveryMode == .opportunistic ? .highQuality : options.deliveryMode
        switch mode {
        case .fast where subject.rawPath != nil:
            deliver(id, obtain(degradedKey, subject), degraded: true, final: true, options: options)
        case .opportunistic where ImagePipeline.previewSource(subject, longEdge: 0) != nil:
            let preview = obtain(degradedKey, subject)
            if case .success = preview { deliver(id, preview, degraded: true, final: false, options: options) }
            guard isActive(id) else { return }
            deliver(id, obtain(key, subject), degraded: false, final: true, options: options)
        default:
            deliver(id, obtain(key, subject), degraded: false, final: true, options: options)
        }
    }

    private func isActive(_ id: ImageRequestID) -> Bool {
        state.withLock { $0.requests[id.rawValue] != nil }
    }

    private func count(_ change: (inout ImageManagerStatistics) -> Void) {
        state.withLock { change(&$0.statistics) }
    }

    private func deliver(_ id: ImageRequestID, _ result: Result<(CachedImage, Bool), PhotoEditError>, degraded: Bool, final: Bool,
                         options: ImageRequestOptions) {
        let entry = state.withLock { s in final ? s.requests.removeValue(forKey: id.rawValue) : s.requests[id.rawValue] }
        guard let (continuation, finalResult) = entry else { return }
        let delivered: ImageResult
        switch result {
        case .success(let (image, cached)):
            delivered = ImageResult(image: image.rendered, info: ImageResultInfo(
                requestID: id, isDegraded: degraded, isCancelled: false, error: nil, isFromCache: cached))
        case .failure(let error):
            delivered = ImageResult(image: nil, info: ImageResultInfo(
                requestID: id, isDegraded: degraded, isCancelled: false, error: error, isFromCache: false))
        }
        if final { finalResult.set(delivered) }
        continuation.yield(delivered)
        options.progressHandler?(final ? 1 : 0.5, id)
        if final { continuation.finish() }
    }

    // MARK: Computing, shared between requests

    /// The image for `key`: from memory, else from the disk cache, else
    /// computed on this thread — unless another thread is already computing
    /// it, then this one waits for that result. The flag says it came from a cache.
    func obtain(_ key: ImageCacheKey, _ subject: ImageSubject) -> Result<(CachedImage, Bool), PhotoEditError> {
        if let hit = memory.get(key) {
            count { $0.memoryHits += 1 }
            return .success((hit, true))
        }
        let (work, owner) = state.withLock { s -> (InFlightWork<(CachedImage, Bool)>, Bool) in
            if let w = s.inFlight[key] {
                s.statistics.sharedWork += 1
                return (w, false)
            }
            let w = InFlightWork<(CachedImage, Bool)>()
            s.inFlight[key] = w
            return (w, true)
        }
        // A waiter's result never counts as a cache hit.
        guard owner else { return work.wait().map { ($0.0, false) } }
        let result: Result<(CachedImage, Bool), PhotoEditError>
        do {
            result = .success(try compute(key, subject))
        } catch let error as PhotoEditError {
            result = .failure(error)
        } catch {
            result = .failure(.library("\(error)"))
        }
        if case .success(let (image, _)) = result { memory.put(key, image) }
        state.withLock { _ = $0.inFlight.removeValue(forKey: key) }
        work.finish(result)
        return result
    }

    private func compute(_ key: ImageCacheKey, _ s: ImageSubject) throws -> (CachedImage, Bool) {
        if let hit = disk.get(key) {
            count { $0.diskHits += 1 }
            return (hit, true)
        }
        beforeCompute?(key)
        let (source, geometry, resizeMode) = try source(for: key, s)
        if key.format == nil, case .file(let path) = source, geometry.isFullSize, path == s.renderPath,
           let data = FileManager.default.contents(atPath: path), let size = JPEGHeader.size(of: data) {
            // The stored render is the full-size current version: its own bytes.
            return (CachedImage(width: size.width, height: size.height, data: data), false)
        }
        var image = try ImagePipeline.image(from: source, geometry: geometry, resizeMode: resizeMode)
        let format = key.format ?? ImageCacheKey.EncodedFormat(encoding: .jpeg, quality: configuration.quality)
        var data: Data
        if let policy = format.metadata {
            image = try ExportEncoder.withMetadata(image, try library.exportMetadata(s, exif: exif(of: s)), policy: policy)
            data = try format.encoding.encode(image, quality: format.quality)
            data = ExportContainers.withoutGeneratedExif(data, format: ExportFormat(rawValue: format.encoding.rawValue) ?? .jpeg, policy: policy)
        } else {
            data = try format.encoding.encode(image, quality: format.quality)
        }
        let cached = CachedImage(width: image.width, height: image.height, data: data)
        disk.put(key, cached)
        return (cached, false)
    }

    /// The original's EXIF block (`originalExif`'s memo).
    private func exif(of s: ImageSubject) -> Data? {
        if let known = originalExif.withLock({ $0[s.originalFile] }) { return known }
        let exif = ExportMetadata.originalExif(s)
        originalExif.withLock { memo in
            if memo.count >= Self.originalExifLimit { memo.removeAll() }
            memo[s.originalFile] = .some(exif)
        }
        return exif
    }

    /// Where the pixels of `key` come from (the preview, a stored render,
    /// the original through the recipe…), at which geometry: the one choice
    /// every computation of an image makes.
    private func source(for key: ImageCacheKey, _ s: ImageSubject) throws -> (ImageSource, ImageGeometry, ImageResizeMode) {
        let full = s.fullSize
        let target = key.resizeMode == .none ? ImageSize.maximum : ImageSize(width: key.width, height: key.height)
        var geometry = ImageGeometry(fullWidth: full.width, fullHeight: full.height, target: target, contentMode: key.contentMode,
                                     resizeMode: key.resizeMode, crop: key.crop)
        let source: ImageSource
        var resizeMode = key.resizeMode
        if key.degraded {
            guard let preview = ImagePipeline.previewSource(s, longEdge: max(geometry.width, geometry.height)) else {
                throw PhotoEditError.library("photo \(s.id) has no preview")
            }
            source = preview
            if case .file = preview {
                // A quarter of the final size, decoded with shrink-on-load.
                let quarter = ImageSize(width: max(16, geometry.width / 4), height: max(16, geometry.height / 4))
                geometry = ImageGeometry(fullWidth: full.width, fullHeight: full.height, target: quarter, contentMode: .aspectFit,
                                         resizeMode: .exact, crop: key.crop)
                resizeMode = .exact
            }
            count { $0.degradedRenders += 1 }
        } else if key.resizeMode != .none, let preview = try? library.storedPreview(for: s, covering: geometry) {
            source = .preview(preview)
            count { $0.renders += 1; $0.fromPreviews += 1 }
        } else {
            source = try ImagePipeline.finalSource(s, registry: library.registry, renderer: library.renderer)
            count { $0.renders += 1 }
        }
        return (source, geometry, resizeMode)
    }

    // MARK: Caching ahead (PHCachingImageManager)

    /// Prepares images in the background, so that later requests with the
    /// same size, content mode and options are served from the cache
    /// (PhotoKit's `startCachingImages`). At most
    /// `configuration.prefetchConcurrency` images are prepared at once, and
    /// none is started while a request is being worked on.
    public func startCaching(_ ids: [String], targetSize: ImageSize, contentMode: ImageContentMode = .aspectFit,
                             options: ImageRequestOptions = ImageRequestOptions()) throws {
        try options.validate(targetSize: targetSize)
        let items = try ids.map { try item(library.resolve($0), targetSize, contentMode, options) }
        state.withLock { s in
            for item in items where s.pendingSet.insert(item).inserted { s.pending.append(item) }
        }
        pump()
    }

    /// Stops preparing these images and drops them from memory (PhotoKit's
    /// `stopCachingImages`). Disk entries stay until evicted.
    public func stopCaching(_ ids: [String], targetSize: ImageSize, contentMode: ImageContentMode = .aspectFit,
                            options: ImageRequestOptions = ImageRequestOptions()) {
        let items = ids.compactMap { try? item(library.resolve($0), targetSize, contentMode, options) }
        let dropped = Set(items)
        state.withLock { s in
            s.pending.removeAll { dropped.contains($0) }
            s.pendingSet.subtract(dropped)
        }
        memory.remove { key in dropped.contains(key.anyRevision) }
        resumeIdleWaiters()
    }

    /// Stops all preparation and empties the memory cache (PhotoKit's
    /// `stopCachingImagesForAllAssets`).
    public func stopCachingAll() {
        state.withLock { s in
            s.pending.removeAll()
            s.pendingSet.removeAll()
        }
        memory.remove { _ in true }
        resumeIdleWaiters()
    }

    /// Returns when every image passed to `startCaching` is prepared (or
    /// its preparation stopped).
    public func waitForCaching() async {
        await withCheckedContinuation { (c: CheckedContinuation<Void, Never>) in
            let idle = state.withLock { s -> Bool in
                if s.pending.isEmpty && s.prefetching == 0 { return true }
                s.idleWaiters.append(c)
                return false
            }
            if idle { c.resume() }
        }
    }

    private func item(_ id: String, _ target: ImageSize, _ mode: ImageContentMode, _ options: ImageRequestOptions) -> ImageCacheKey {
        ImageCacheKey(id: id, revision: -1, version: options.version, target: target, contentMode: mode,
                      resizeMode: options.resizeMode, crop: options.normalizedCropRect, degraded: false)
    }

    /// Starts queued preparations while slots are free and no request is being worked on.
    private func pump() {
        let limit = configuration.prefetchConcurrency
        let started = state.withLock { s -> [(ImageCacheKey, Bool)] in
            var out: [(ImageCacheKey, Bool)] = []
            while s.prefetching < limit && s.foreground == 0 && !s.pending.isEmpty {
                let item = s.pending.removeFirst()
                s.pendingSet.remove(item)
                s.prefetching += 1
                out.append((item, s.allowsCachingHighQualityImages))
            }
            return out
        }
        for (item, highQuality) in started {
            BlockingExecutor.submit {
                self.prefetch(item, highQuality: highQuality)
                self.state.withLock { s in
                    s.prefetching -= 1
                    s.statistics.prefetched += 1
                }
                self.pump()
                self.resumeIdleWaiters()
            }
        }
    }

    private func prefetch(_ item: ImageCacheKey, highQuality: Bool) {
        guard let subject = try? library.imageSubject(item.id, version: item.version) else { return }
        let preview = !highQuality && subject.rawPath != nil
        let key = ImageCacheKey(subject, target: ImageSize(width: item.width, height: item.height), contentMode: item.contentMode,
                                resizeMode: item.resizeMode, crop: item.crop, degraded: preview)
        _ = obtain(key, subject)
    }

    private func resumeIdleWaiters() {
        let waiters = state.withLock { s -> [CheckedContinuation<Void, Never>] in
            guard s.pending.isEmpty && s.prefetching == 0 else { return [] }
            defer { s.idleWaiters.removeAll() }
            return s.idleWaiters
        }
        for w in waiters { w.resume() }
    }
}

/// One computation that several threads wait for: the first to ask does
/// it, the others wait for its result.
final class InFlightWork<Value: Sendable>: Sendable {
    private let group = DispatchGroup()   // on purpose: synchronous waiters block until the first finishes; a Mutex cannot wait
    private let result = Mutex<Result<Value, PhotoEditError>?>(nil)

    init() { group.enter() }

    func finish(_ r: Result<Value, PhotoEditError>) {
        result.withLock { $0 = r }
        group.leave()
    }

    func wait() -> Result<Value, PhotoEditError> {
        group.wait()
        // `finish` set it before the group let the waiters go.
        return result.withLock { $0 } ?? .failure(.library("a shared image computation ended without a result"))
    }
}

/// PhotoKit's name for the manager that caches: every `ImageManager` does.
public typealias CachingImageManager = ImageManager
