import Foundation

/// A bounded local read-through cache in front of any ``BlobStore``, so a
/// renderer (libvips, libraw: they take paths) gets a local file for a blob.
///
/// - Files live in `folder`, named by the SHA-256 of the key (plus the key's
///   extension, which libvips uses to pick a loader), and are downloaded whole,
///   through a temporary name, before anyone sees them.
/// - The total size is bounded by `capacity` bytes: least recently used files
///   go first. A file in use inside ``withLocalFile(_:_:)`` is pinned and never
///   evicted; if pinned files alone exceed the bound, the cache holds more
///   until they are released.
/// - Concurrent requests for the same key share one download.
/// - Entries are assumed immutable: the engine's blobs are content-addressed.
///   Call ``invalidate(_:)`` after overwriting a key in place.
/// - The cache's own files left in `folder` are removed when the cache is
///   created (a cache, not storage); other files there are left alone.
public actor BlobFileCache {
    /// The store read through.
    public let store: any BlobStore
    /// The folder holding the cached files.
    public let folder: URL
    /// The bound on the cached bytes.
    public let capacity: Int64

    private struct Entry {
        var url: URL
        var size: Int64
        var lastUse: UInt64
        var pins: Int
    }
    private var entries: [BlobKey: Entry] = [:]
    private var downloads: [BlobKey: Task<Entry, any Error>] = [:]
    private var clock: UInt64 = 0
    private var total: Int64 = 0
    /// Counters for tests and metrics.
    public private(set) var hits = 0
    public private(set) var misses = 0

    /// A cache of at most `capacity` bytes in `folder` (created; a previous cache's files removed).
    public init(store: any BlobStore, folder: URL, capacity: Int64) throws {
        guard capacity > 0 else { throw BlobStoreError.configuration("a cache needs a positive capacity") }
        self.store = store
        self.folder = folder
        self.capacity = capacity
        do {
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        } catch {
            throw BlobStoreError.io(operation: "create", path: folder.path, message: "\((error as NSError).localizedDescription)")
        }
        // Only what a cache wrote is removed (a key's SHA-256 name, or a
        // download's temporary `.name.part-…`): a folder named by mistake keeps its files.
        for name in (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? [] where BlobFileCache.isCacheFile(name) {
            try? FileManager.default.removeItem(at: folder.appendingPathComponent(name))
        }
    }

    static func isCacheFile(_ name: String) -> Bool {
        let base = name.hasPrefix(".") ? String(name.dropFirst()) : name
        let digest = base.utf8.prefix(64)
        guard digest.count == 64, digest.allSatisfy({ (48...57).contains($0) || (97...102).contains($0) }) else { return false }
        return name.hasPrefix(".") ? name.contains(".part-") : true
    }

    /// Runs `body` with a local file holding the blob; the file stays in place
    /// (pinned) until `body` returns.
    public nonisolated func withLocalFile<T: Sendable>(_ key: BlobKey, _ body: @Sendable (URL) async throws -> T) async throws -> T {
        let url = try await acquire(key)
        do {
            let result = try await body(url)
            await release(key)
            return result
        } catch {
            await release(key)
            throw error
        }
    }

    /// The bytes currently cached.
    public var cachedBytes: Int64 { total }

    /// Whether `key` is cached now.
    public func contains(_ key: BlobKey) -> Bool { entries[key] != nil }

    /// Drops `key` from the cache (its file is removed unless pinned).
    public func invalidate(_ key: BlobKey) {
        guard let entry = entries[key], entry.pins == 0 else { return }
        entries[key] = nil
        total -= entry.size
        try? FileManager.default.removeItem(at: entry.url)
    }

    /// Pins the blob's local file, downloading it on a miss.
    public func acquire(_ key: BlobKey) async throws -> URL {
        clock += 1
        if var entry = entries[key] {
            hits += 1
            entry.pins += 1
            entry.lastUse = clock
            entries[key] = entry
            return entry.url
        }
        misses += 1
        let task: Task<Entry, any Error>
        if let running = downloads[key] {
            task = running
        } else {
            let store = self.store
            let url = folder.appendingPathComponent(BlobFileCache.fileName(for: key))
            task = Task {
                let info = try await store.download(key, to: url)
                return Entry(url: url, size: info.size, lastUse: 0, pins: 0)
            }
            downloads[key] = task
        }
        let downloaded: Entry
        do {
            downloaded = try await task.value
        } catch {
            downloads[key] = nil
            throw error
        }
        downloads[key] = nil
        clock += 1
        var entry = entries[key] ?? downloaded
        if entries[key] == nil { total += entry.size }
        entry.pins += 1
        entry.lastUse = clock
        entries[key] = entry
        evict()
        return entry.url
    }

    /// Unpins a file acquired with ``acquire(_:)``.
    public func release(_ key: BlobKey) {
        guard var entry = entries[key] else { return }
        entry.pins = max(0, entry.pins - 1)
        entries[key] = entry
        evict()
    }

    private func evict() {
        guard total > capacity else { return }
        let candidates = entries.filter { $0.value.pins == 0 }.sorted { $0.value.lastUse < $1.value.lastUse }
        for (key, entry) in candidates where total > capacity {
            entries[key] = nil
            total -= entry.size
            try? FileManager.default.removeItem(at: entry.url)
        }
    }

    static func fileName(for key: BlobKey) -> String {
        let last = key.rawValue.split(separator: "/").last.map(String.init) ?? ""
        let ext = (last as NSString).pathExtension
        return SHA256Digest.hex(of: Array(key.rawValue.utf8)) + (ext.isEmpty || ext.count > 10 ? "" : "." + ext)
    }
}
