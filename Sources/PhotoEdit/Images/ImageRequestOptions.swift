import Foundation
import Synchronization

/// A size in pixels (PhotoKit's `targetSize`).
public struct ImageSize: Hashable, Sendable, CustomStringConvertible {
    /// Width in pixels.
    public var width: Int
    /// Height in pixels.
    public var height: Int

    /// A size of `width`×`height` pixels.
    public init(width: Int, height: Int) {
        self.width = width
        self.height = height
    }

    /// A square of `side`×`side` pixels.
    public init(side: Int) { self.init(width: side, height: side) }

    /// The largest size there is (PhotoKit's `PHImageManagerMaximumSize`):
    /// the version at its full size.
    public static let maximum = ImageSize(width: 1 << 30, height: 1 << 30)

    /// "WxH".
    public var description: String { "\(width)x\(height)" }
}

/// How an image is fitted to the target size, as PhotoKit's `PHImageContentMode`.
public enum ImageContentMode: String, Sendable, CaseIterable {
    /// The whole image fits inside the target (one side equals it, the other is smaller or equal).
    case aspectFit = "fit"
    /// The image covers the target (one side equals it, the other is larger or
    /// equal). Nothing is cut off: as in PhotoKit, the image view crops; use
    /// `normalizedCropRect` to crop in the engine.
    case aspectFill = "fill"
}

/// How exactly the result follows the target size, as PhotoKit's
/// `PHImageRequestOptionsResizeMode`.
public enum ImageResizeMode: String, Sendable, CaseIterable {
    /// No resizing: the version at its full size (the target is ignored).
    case none
    /// At least the size `exact` would give, as cheaply as possible: a JPEG is
    /// decoded at 1/2, 1/4 or 1/8 scale (libvips' shrink-on-load) and not
    /// resampled after that, so the result can be up to about twice the target.
    case fast
    /// Exactly the size the content mode gives for the target.
    case exact
}

/// Which images a request delivers, as PhotoKit's `PHImageRequestOptionsDeliveryMode`.
public enum ImageDeliveryMode: String, Sendable, CaseIterable {
    /// When the final image is not cached, a degraded image first (a cheap
    /// preview: a small shrink-on-load decode, a RAW's embedded JPEG or
    /// half-size development), then the final one.
    case opportunistic
    /// Only the final image, at full quality.
    case highQuality
    /// One image, as fast as possible: the final one when cached or when it is
    /// cheap; a RAW's preview (degraded) otherwise.
    case fast
}

/// A rectangle in normalized coordinates: 0…1 of the image's width and
/// height, origin at the top left of the image as displayed.
public struct NormalizedRect: Hashable, Sendable, CustomStringConvertible {
    /// Left edge, 0…1.
    public var x: Double
    /// Top edge, 0…1.
    public var y: Double
    /// Width, 0…1.
    public var width: Double
    /// Height, 0…1.
    public var height: Double

    /// A rectangle; values are rounded to 6 decimals (the cache key's precision).
    public init(x: Double, y: Double, width: Double, height: Double) {
        func r(_ v: Double) -> Double { (v * 1_000_000).rounded() / 1_000_000 }
        self.x = r(x)
        self.y = r(y)
        self.width = r(width)
        self.height = r(height)
    }

    /// The whole image.
    public static let full = NormalizedRect(x: 0, y: 0, width: 1, height: 1)

    /// Is it inside 0…1 with a positive size?
    var isValid: Bool {
        [x, y, width, height].allSatisfy(\.isFinite) && x >= 0 && y >= 0 && width > 0 && height > 0
            && x + width <= 1.000_001 && y + height <= 1.000_001
    }

    /// "X:Y:W:H".
    public var description: String {
        [x, y, width, height].map { String(format: "%g", $0) }.joined(separator: ":")
    }
}

/// Options of an image request, as PhotoKit's `PHImageRequestOptions`.
public struct ImageRequestOptions: Sendable {
    /// Which version: current (default), unadjusted or original.
    public var version: ImageVersion
    /// Degraded first, final only, or fast (default opportunistic).
    public var deliveryMode: ImageDeliveryMode
    /// How exactly the result follows the target (default fast, as PhotoKit).
    public var resizeMode: ImageResizeMode
    /// A part of the image to return (0…1, top-left origin, in the
    /// coordinates of the version as displayed). Requires `resizeMode == .exact`.
    public var normalizedCropRect: NormalizedRect?
    /// Run the request on the calling thread before `requestImage` returns;
    /// the request then delivers exactly one image (the final one, or for
    /// `.fast` delivery the fast one), as PhotoKit does.
    public var isSynchronous: Bool
    /// Called with 0…1 as the request goes through its stages (started,
    /// degraded image delivered, final image delivered), on the thread doing the work.
    public var progressHandler: (@Sendable (Double, ImageRequestID) -> Void)?

    /// Options with PhotoKit's defaults.
    public init(version: ImageVersion = .current, deliveryMode: ImageDeliveryMode = .opportunistic,
                resizeMode: ImageResizeMode = .fast, normalizedCropRect: NormalizedRect? = nil,
                isSynchronous: Bool = false, progressHandler: (@Sendable (Double, ImageRequestID) -> Void)? = nil) {
        self.version = version
        self.deliveryMode = deliveryMode
        self.resizeMode = resizeMode
        self.normalizedCropRect = normalizedCropRect
        self.isSynchronous = isSynchronous
        self.progressHandler = progressHandler
    }

    /// Refuses options PhotoKit refuses too, with one line naming the problem.
    func validate(targetSize: ImageSize) throws {
        guard targetSize.width >= 1, targetSize.height >= 1 else {
            throw PhotoEditError.invalidOutput("target size \(targetSize) must be at least 1x1")
        }
        if let crop = normalizedCropRect {
            guard crop.isValid else {
                throw PhotoEditError.invalidOutput("crop \(crop) is not inside 0…1 with a positive width and height")
            }
            guard resizeMode == .exact else {
                throw PhotoEditError.invalidOutput("a crop rectangle needs the exact resize mode (got \(resizeMode.rawValue))")
            }
        }
    }
}

/// Identifies one image request; pass it to `ImageManager.cancelImageRequest`.
public struct ImageRequestID: Hashable, Sendable, CustomStringConvertible {
    /// A number unique within the manager.
    public let rawValue: Int
    /// The number.
    public var description: String { String(rawValue) }
}

/// An image delivered by a request: upright, sRGB, 8 bits per channel, with
/// the sRGB ICC profile embedded, held as encoded JPEG bytes (compact enough
/// to cache; decode with `pixels()` or write with `write(to:)`).
public struct RenderedImage: Sendable, Hashable {
    /// Width in pixels.
    public let width: Int
    /// Height in pixels.
    public let height: Int
    /// The encoded image (JPEG).
    public let data: Data
    /// Uniform type of `data`: "public.jpeg".
    public var uniformTypeIdentifier: String { "public.jpeg" }

    /// Writes `data` to `path` (through a temporary name and a rename, so a
    /// reader never sees half a file). The folder must exist.
    public func write(to path: String) throws {
        let folder = (path as NSString).deletingLastPathComponent
        guard folder.isEmpty || FileIO.isDirectory(folder) else {
            throw PhotoEditError.invalidOutput("cannot write \(path): folder \(folder) does not exist")
        }
        let staged = path + ".photoedit-\(UUID().uuidString.prefix(8))"
        defer { unlink(staged) }
        do {
            try FileIO.writeNew(data, to: staged, mode: 0o644, flush: false)
        } catch {
            throw PhotoEditError.invalidOutput("cannot write \(path): \(String(cString: strerror(errno)))")
        }
        guard rename(staged, path) == 0 else {
            throw PhotoEditError.invalidOutput("cannot write \(path): \(String(cString: strerror(errno)))")
        }
    }

    /// The decoded pixels: `width`×`height`×3 bytes, RGB, rows top to bottom.
    public func pixels() throws -> Data {
        try image().pixelBytes()
    }

    /// The decoded libvips image.
    func image() throws -> Image {
        try Image.load(data: data)
    }
}

/// What a request says about a delivered result, as PhotoKit's info dictionary.
public struct ImageResultInfo: Sendable {
    /// The request this result belongs to.
    public let requestID: ImageRequestID
    /// A lower-quality image; a final one follows unless the request is
    /// cancelled, fails, or used `.fast` delivery.
    public let isDegraded: Bool
    /// The request was cancelled; `image` is nil.
    public let isCancelled: Bool
    /// Why there is no image (nil when there is one or it was cancelled).
    public let error: PhotoEditError?
    /// The image came from the memory or disk cache.
    public let isFromCache: Bool
}

/// One result of a request: an image (nil on error or cancellation) and its info.
public struct ImageResult: Sendable {
    /// The image; nil when `info.error` or `info.isCancelled`.
    public let image: RenderedImage?
    /// What the result is.
    public let info: ImageResultInfo
}

/// A running image request: its id and the results it delivers, in order
/// (at most one degraded image, then the final image, an error or a
/// cancellation). Iterate it with `for await result in request`.
public struct ImageRequest: AsyncSequence, Sendable {
    public typealias Element = ImageResult
    /// The id to cancel the request with.
    public let id: ImageRequestID
    let stream: AsyncStream<ImageResult>
    let final: FinalResult

    /// The final result (final image, error or cancellation) once delivered:
    /// always set when `requestImage` returns for a synchronous request, so
    /// synchronous callers need no `await`.
    public var finalResult: ImageResult? { final.value }

    /// An iterator over the results.
    public func makeAsyncIterator() -> AsyncStream<ImageResult>.Iterator { stream.makeAsyncIterator() }
}

/// Sizes and caches of an `ImageManager`.
public struct ImageCacheConfiguration: Sendable {
    /// Bytes of encoded images kept in memory (least recently used dropped first).
    public var memoryLimit: Int
    /// Bytes of derivatives kept under the library's `cache/images/` (least
    /// recently used removed first; shared by every process using the library).
    public var diskLimit: Int
    /// Images prepared at once by `startCaching` (foreground requests always go first).
    public var prefetchConcurrency: Int
    /// JPEG quality of cached derivatives.
    public var quality: Int

    /// Defaults: 64 MB in memory, 1 GB on disk (`$PHOTOEDIT_CACHE_BYTES`
    /// overrides it), half the cores for prefetching, JPEG Q90.
    public init(memoryLimit: Int = 64 << 20, diskLimit: Int? = nil,
                prefetchConcurrency: Int = max(1, ProcessInfo.processInfo.activeProcessorCount / 2), quality: Int = 90) {
        self.memoryLimit = memoryLimit
        self.diskLimit = diskLimit ?? ProcessInfo.processInfo.environment["PHOTOEDIT_CACHE_BYTES"].flatMap { Int($0) } ?? (1 << 30)
        self.prefetchConcurrency = max(1, prefetchConcurrency)
        self.quality = quality
    }
}

/// Counters of an `ImageManager`, for monitoring (and tests).
public struct ImageManagerStatistics: Sendable, Equatable {
    /// Final images computed (not served from a cache).
    public var renders = 0
    /// Of `renders`, those made from the version's stored preview (a
    /// smaller copy made at import or commit) instead of its full-size file.
    public var fromPreviews = 0
    /// Degraded images computed.
    public var degradedRenders = 0
    /// Results served from memory.
    public var memoryHits = 0
    /// Results served from the disk cache.
    public var diskHits = 0
    /// Requests that waited for work another request had already started.
    public var sharedWork = 0
    /// Images prepared by `startCaching`.
    public var prefetched = 0
    /// Disk cache files removed by eviction.
    public var evictions = 0
    /// Bytes the memory cache holds now.
    public var memoryCacheBytes = 0
}

/// Where a request keeps its final result for `ImageRequest.finalResult`.
final class FinalResult: Sendable {
    private let stored = Mutex<ImageResult?>(nil)
    var value: ImageResult? { stored.withLock { $0 } }
    func set(_ r: ImageResult) { stored.withLock { $0 = r } }
}
