import Foundation
import Synchronization

/// Everything a derivative depends on. An edit raises the photo's revision,
/// so the entries of earlier revisions are never looked up again (the disk
/// cache's LRU removes them in time).
struct ImageCacheKey: Hashable, Sendable {
    let id: String
    let revision: Int
    let version: ImageVersion
    let width: Int
    let height: Int
    let contentMode: ImageContentMode
    let resizeMode: ImageResizeMode
    let crop: NormalizedRect?
    /// A degraded image (a preview), never served as a final one.
    let degraded: Bool
    /// The encoding asked for (`ImageManager.requestEncodedImage`); nil: a
    /// JPEG at the manager's quality, what `requestImage` hands out.
    private(set) var format: EncodedFormat?

    /// A format and quality an image is encoded in, when not the manager's own JPEG.
    struct EncodedFormat: Hashable, Sendable {
        let encoding: ImageEncoding
        let quality: Int
        /// The photo's metadata embedded under this policy; nil: none written
        /// on purpose (what libvips carries over, as `requestImage`'s images).
        var metadata: ExportMetadataPolicy? = nil
        /// `ExportMetadata.digest(of:)` when the policy writes the library's metadata.
        var descriptive: String? = nil
    }

    /// The same image encoded as `format`.
    func encoded(as format: EncodedFormat?) -> ImageCacheKey {
        var key = self
        key.format = format
        return key
    }

    init(_ subject: ImageSubject, target: ImageSize, contentMode: ImageContentMode, resizeMode: ImageResizeMode,
         crop: NormalizedRect?, degraded: Bool) {
        self.init(id: subject.id, revision: subject.keyRevision, version: subject.version, target: target,
                  contentMode: contentMode, resizeMode: resizeMode, crop: crop, degraded: degraded)
    }

    init(id: String, revision: Int, version: ImageVersion, target: ImageSize, contentMode: ImageContentMode,
         resizeMode: ImageResizeMode, crop: NormalizedRect?, degraded: Bool) {
        self.id = id
        self.revision = revision
        self.version = version
        // The full size ignores the target and the mode.
        let full = resizeMode == .none
        width = full ? 0 : target.width
        height = full ? 0 : target.height
        self.contentMode = full ? .aspectFit : contentMode
        self.resizeMode = resizeMode
        self.crop = crop == .full ? nil : crop
        self.degraded = degraded
    }

    /// The same image at whatever revision is the latest (revision -1), final.
    var anyRevision: ImageCacheKey {
        ImageCacheKey(id: id, revision: -1, version: version, target: ImageSize(width: width, height: height),
                      contentMode: contentMode, resizeMode: resizeMode, crop: crop, degraded: false)
    }

    /// The file's path under `cache/images/`:
    /// `ab/<id>/r<revision>-<version>-<W>x<H>-<mode>-<resize>[-c<x>_<y>_<w>_<h>][-degraded][-<format>-q<Q>[-m<policy>[.<digest>]]].<ext>`.
    var relativePath: String {
        var name = "r\(revision)-\(version.rawValue)-\(width)x\(height)-\(contentMode.rawValue)-\(resizeMode.rawValue)"
        if let c = crop { name += "-c" + [c.x, c.y, c.width, c.height].map { String(format: "%.6f", $0) }.joined(separator: "_") }
        if degraded { name += "-degraded" }
        guard let format else { return "\(id.prefix(2))/\(id)/\(name).jpg" }
        name += "-\(format.encoding.rawValue)-q\(format.quality)"
        if let policy = format.metadata { name += "-m\(policy.rawValue)" + (format.descriptive.map { "." + $0 } ?? "") }
        return "\(id.prefix(2))/\(id)/\(name).\(format.encoding == .jpeg ? "jpg" : format.encoding.rawValue)"
    }
}

/// An encoded image held by the caches.
struct CachedImage: Sendable {
    let width: Int
    let height: Int
    let data: Data

    var rendered: RenderedImage { RenderedImage(width: width, height: height, data: data) }
}

/// Encoded images in memory, bounded in bytes, least recently used dropped first.
final class MemoryImageCache: Sendable {
    private struct State {
        var entries: [ImageCacheKey: (image: CachedImage, tick: UInt64)] = [:]
        var bytes = 0
        var tick: UInt64 = 0
    }
    private let state = Mutex(State())
    let limit: Int

    init(limit: Int) { self.limit = max(0, limit) }

    func get(_ key: ImageCacheKey) -> CachedImage? {
        state.withLock { s in
            guard let entry = s.entries[key] else { return nil }
            s.tick += 1
            s.entries[key] = (entry.image, s.tick)
            return entry.image
        }
    }

    func put(_ key: ImageCacheKey, _ image: CachedImage) {
        guard image.data.count <= limit else { return }
        state.withLock { s in
            s.tick += 1
            if let old = s.entries.updateValue((image, s.tick), forKey: key) { s.bytes -= old.image.data.count }
            s.bytes += image.data.count
            guard s.bytes > limit else { return }
            // Drop the least recently used down to 90 % of the limit, in one pass.
            let target = limit - limit / 10
            for (k, e) in s.entries.sorted(by: { $0.value.tick < $1.value.tick }) where s.bytes > target && k != key {
                s.entries[k] = nil
                s.bytes -= e.image.data.count
            }
        }
    }

    func remove(where predicate: (ImageCacheKey) -> Bool) {
        state.withLock { s in
            for (k, e) in s.entries where predicate(k) {
                s.entries[k] = nil
                s.bytes -= e.image.data.count
            }
        }
    }

    var bytes: Int { state.withLock { $0.bytes } }
    var count: Int { state.withLock { $0.entries.count } }
}

/// Derivatives on disk under `cache/images/`, shared by every process using
/// the library: bounded in bytes, least recently used removed first (a hit
/// sets the file's modification time), written to `tmp/` then renamed into
/// place, and rebuildable at any time — a missing, partial or damaged file is
/// a miss, removed and rebuilt.
final class DiskImageCache: Sendable {
    let folder: String
    let limit: Int
    private let layout: LibraryLayout
    private struct State {
        /// Bytes on disk as last counted plus what this process wrote since; nil until counted.
        var bytes: Int?
        var evicting = false
        var lastStamp: Double = 0
        var evictions = 0
    }
    private let state = Mutex(State())

    init(layout: LibraryLayout, limit: Int) {
        self.layout = layout
        folder = layout.cache + "/images"
        self.limit = max(0, limit)
    }

    func path(_ key: ImageCacheKey) -> String { folder + "/" + key.relativePath }

    func get(_ key: ImageCacheKey) -> CachedImage? {
        let file = path(key)
        guard let data = FileManager.default.contents(atPath: file) else { return nil }
        // A JPEG's size from its frame header; another format's from libvips' header read.
        let size = key.format.map { $0.encoding == .jpeg } ?? true
            ? JPEGHeader.size(of: data) : (try? Image.load(data: data)).map { (width: $0.width, height: $0.height) }
        guard let size else {
            unlink(file)   // partial or damaged: rebuilt by the caller
            return nil
        }
        touch(file)
        return CachedImage(width: size.width, height: size.height, data: data)
    }

    func put(_ key: ImageCacheKey, _ image: CachedImage) {
        guard image.data.count <= limit else { return }
        let file = path(key)
        let staged = layout.temporary(".cache.jpg")
        // Not flushed: a cache file a crash left short is found damaged and made again.
        guard (try? FileIO.writeNew(image.data, to: staged, mode: 0o644, flush: false)) != nil else { return }
        try? FileManager.default.createDirectory(atPath: (file as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        guard rename(staged, file) == 0 else { unlink(staged); return }
        touch(file)
        let over = state.withLock { s -> Bool in
            guard let b = s.bytes else {
                if s.evicting { return false }
                s.evicting = true
                return true
            }
            let total = b + image.data.count
            s.bytes = total
            if total > limit && !s.evicting {
                s.evicting = true
                return true
            }
            return false
        }
        if over { evict() }
    }

    /// Counts the cache and removes the least recently used files until it
    /// holds at most 90 % of the limit. Files of other processes count too;
    /// a file another process reads meanwhile stays readable (unlink), and a
    /// file removed under its feet is a miss.
    func evict() {
        var files: [(path: String, size: Int, time: Double)] = []
        var total = 0
        if let e = FileManager.default.enumerator(atPath: folder) {
            while let relative = e.nextObject() as? String {
                let p = folder + "/" + relative
                var st = stat()
                guard stat(p, &st) == 0, (st.st_mode & S_IFMT) == S_IFREG else { continue }
                let time = Double(st.st_mtim.tv_sec) + Double(st.st_mtim.tv_nsec) / 1e9
                files.append((p, Int(st.st_size), time))
                total += Int(st.st_size)
            }
        }
        var removed = 0
        if total > limit {
            let target = limit - limit / 10
            for f in files.sorted(by: { ($0.time, $0.path) < ($1.time, $1.path) }) where total > target {
                if unlink(f.path) == 0 { removed += 1 }
                total -= f.size
            }
        }
        state.withLock { s in
            s.bytes = total
            s.evicting = false
            s.evictions += removed
        }
    }

    var evictions: Int { state.withLock { $0.evictions } }

    /// Sets the modification time to now, strictly after the last one this
    /// process set, so that the LRU order holds even for files written
    /// within one clock tick.
    private func touch(_ file: String) {
        let stamp = state.withLock { s -> Double in
            s.lastStamp = max(Date().timeIntervalSince1970, s.lastStamp + 0.000_001)
            return s.lastStamp
        }
        let seconds = floor(stamp)
        let t = timespec(tv_sec: Int(seconds), tv_nsec: Int((stamp - seconds) * 1e9))
        var times = [t, t]
        _ = utimensat(AT_FDCWD, file, &times, 0)
    }
}

/// Just enough of JPEG to tell a whole file from a partial one and read its size.
enum JPEGHeader {
    /// The pixel size, or nil unless `data` starts with SOI, has a frame
    /// header and ends with EOI.
    static func size(of data: Data) -> (width: Int, height: Int)? {
        data.withUnsafeBytes { raw in size(of: raw.bindMemory(to: UInt8.self)) }
    }

    private static func size(of bytes: UnsafeBufferPointer<UInt8>) -> (width: Int, height: Int)? {
        let n = bytes.count
        guard n > 4, bytes[0] == 0xFF, bytes[1] == 0xD8, bytes[n - 2] == 0xFF, bytes[n - 1] == 0xD9 else { return nil }
        var i = 2
        while i + 9 < n {
            guard bytes[i] == 0xFF else { return nil }
            let marker = bytes[i + 1]
            if marker == 0xFF { i += 1; continue }
            let length = Int(bytes[i + 2]) << 8 | Int(bytes[i + 3])
            // SOF0…SOF15 except DHT (C4), JPG (C8) and DAC (CC).
            if (0xC0...0xCF).contains(marker) && ![0xC4, 0xC8, 0xCC].contains(marker) {
                let height = Int(bytes[i + 5]) << 8 | Int(bytes[i + 6])
                let width = Int(bytes[i + 7]) << 8 | Int(bytes[i + 8])
                return width > 0 && height > 0 ? (width, height) : nil
            }
            if marker == 0xDA || length < 2 { return nil }
            i += 2 + length
        }
        return nil
    }
}
