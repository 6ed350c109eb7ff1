import Foundation
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// Where a library's files live: the originals, the renders and the
/// revision records, each named by its path relative to the library
/// (`originals/ab/<sha256>.jpg`, `renders/…`, `revisions/…`, as the catalog
/// stores them). Synchronous, like the engine.
///
/// Two implementations: ``FolderLibraryFiles`` (the library folder: today's
/// layout, byte for byte) and ``BlobLibraryFiles`` (any ``BlobStore``:
/// S3, a shared folder), where the relative path is the blob key.
/// Staging (`tmp/`), the derivative cache and the lock are always local
/// (`LibraryLayout`), whatever the store.
package protocol LibraryFiles: Sendable {
    /// Where the files are, for messages (never a credential).
    var location: String { get }
    /// Whether other nodes write the same files at the same time (a blob
    /// store): then a file this process cannot prove its own is never
    /// removed at once — an unreferenced blob goes only through
    /// `verify --repair`, after a grace period.
    var isShared: Bool { get }
    /// A local file holding `relative` for a reader that takes paths
    /// (libvips, libraw): the file itself in a folder, a read-through cache
    /// file for a blob store. A folder returns the path whether or not the
    /// file exists; a blob store throws when the blob is missing.
    func localPath(_ relative: String) throws -> String
    /// Whether `relative` exists.
    func exists(_ relative: String) throws -> Bool
    /// The size of `relative` in bytes, nil when it is missing or unreadable.
    func size(_ relative: String) -> Int64?
    /// Makes the flushed file at `staged` the file `relative`: renamed into
    /// place read-only (folder), or put if absent (blob store: a key that
    /// exists keeps its bytes; the engine's names are content addresses or
    /// unique). `staged` is gone afterwards.
    func publish(_ staged: String, as relative: String) throws
    /// Removes `relative`; a missing file is not an error.
    func remove(_ relative: String)
    /// Every file under `folder` (`originals`, `renders`, `revisions`).
    func list(_ folder: String) throws -> [LibraryFileInfo]
    /// The bytes of `relative` as the store holds them now, never from a
    /// node's cache: for small files another node may remove and write
    /// again under the same name (export presets). nil when it is missing;
    /// a file larger than `limit` bytes throws.
    func currentContents(_ relative: String, limit: Int) throws -> Data?
}

extension LibraryFiles {
    /// A local file holding `relative`, or nil when it is missing (or the
    /// store cannot be read: the caller reports the file as missing).
    package func existingLocalPath(_ relative: String) -> String? {
        guard let path = try? localPath(relative), FileIO.exists(path) else { return nil }
        return path
    }
}

/// A file `LibraryFiles.list` found.
package struct LibraryFileInfo: Sendable, Equatable {
    /// Its path relative to the library.
    package var relative: String
    /// When it was written, when the store says (a blob store does).
    package var modified: Date?
}

/// The files of a library folder, where they have always been.
package struct FolderLibraryFiles: LibraryFiles {
    let layout: LibraryLayout

    package var location: String { layout.root.path }
    package var isShared: Bool { false }

    package func localPath(_ relative: String) -> String { layout.absolute(relative) }

    package func exists(_ relative: String) -> Bool { FileIO.exists(layout.absolute(relative)) }

    package func size(_ relative: String) -> Int64? { FileIO.size(layout.absolute(relative)) }

    package func publish(_ staged: String, as relative: String) throws {
        try FileIO.moveIntoPlace(from: staged, to: layout.absolute(relative), readOnly: true)
    }

    package func remove(_ relative: String) { unlink(layout.absolute(relative)) }

    package func currentContents(_ relative: String, limit: Int) throws -> Data? {
        let path = layout.absolute(relative)
        guard let size = FileIO.size(path) else { return nil }
        guard size <= Int64(limit) else { throw PhotoEditError.library("\(relative) is \(size) bytes, more than \(limit)") }
        return FileManager.default.contents(atPath: path)
    }

    package func list(_ folder: String) -> [LibraryFileInfo] {
        let base = layout.absolute(folder)
        return Importer.filesInFolder(base).map { LibraryFileInfo(relative: folder + "/" + String($0.dropFirst(base.count + 1))) }
    }
}

/// A library's files in a ``BlobStore``, read through a bounded local cache
/// (``BlobFileCache``) for the renderers. The relative path is the key.
///
/// The engine is synchronous; the store is async. Each call runs the store's
/// work in a detached task and blocks the calling thread until it ends. The
/// callers are the CLI's threads and the server's `blocking` pool (Dispatch),
/// never a NIO event loop nor a task of Swift's cooperative pool, which
/// stay free to run the store's own work.
package final class BlobLibraryFiles: LibraryFiles {
    /// The store.
    package let store: any BlobStore
    /// The read-through cache of blobs as local files.
    package let cache: BlobFileCache

    /// Files in `store`, cached as files in `cacheFolder` up to `cacheCapacity` bytes.
    package init(store: any BlobStore, cacheFolder: URL, cacheCapacity: Int64) throws {
        self.store = store
        do {
            cache = try BlobFileCache(store: store, folder: cacheFolder, capacity: cacheCapacity)
        } catch {
            throw Self.engineError(error, store: store)
        }
    }

    package var location: String { store.location }
    package var isShared: Bool { true }

    package func localPath(_ relative: String) throws -> String {
        let key = try key(relative)
        // A folder's blobs are files already.
        if let folder = store as? FolderBlobStore { return folder.path(of: key) }
        let cache = self.cache
        return try run {
            let url = try await cache.acquire(key)
            // Unpinned at once: the file stays until the cache needs the
            // room, which a cache many times a photo's size makes late
            // enough for the reader that asked (an open file outlives its
            // removal on Linux).
            await cache.release(key)
            return url.path
        }
    }

    package func exists(_ relative: String) throws -> Bool {
        let key = try key(relative)
        let store = self.store
        return try run { try await store.head(key) != nil }
    }

    package func size(_ relative: String) -> Int64? {
        guard let key = try? key(relative) else { return nil }
        let store = self.store
        return (try? run { try await store.head(key) })??.size
    }

    package func publish(_ staged: String, as relative: String) throws {
        let key = try key(relative)
        let store = self.store
        let url = URL(fileURLWithPath: staged)
        _ = try run { try await store.put(key, from: .file(url), ifAbsent: true) }
        unlink(staged)
    }

    package func remove(_ relative: String) {
        guard let key = try? key(relative) else { return }
        let store = self.store
        let cache = self.cache
        _ = try? run {
            try await store.delete(key)
            await cache.invalidate(key)
        }
    }

    package func currentContents(_ relative: String, limit: Int) throws -> Data? {
        let key = try key(relative)
        let store = self.store
        return try run { () -> Data? in
            do {
                return try await store.data(for: key, limit: Int64(limit))
            } catch BlobStoreError.notFound {
                return nil
            }
        }
    }

    package func list(_ folder: String) throws -> [LibraryFileInfo] {
        let store = self.store
        return try run { try await store.listAll(prefix: folder + "/") }
            .map { LibraryFileInfo(relative: $0.key.rawValue, modified: $0.lastModified) }
    }

    private func key(_ relative: String) throws -> BlobKey {
        do { return try BlobKey(relative) } catch { throw Self.engineError(error, store: store) }
    }

    private func run<T: Sendable>(_ work: @escaping @Sendable () async throws -> T) throws -> T {
        do { return try blockingWait(work) } catch { throw Self.engineError(error, store: store) }
    }

    /// A store's error as the engine's: it names the store (bucket and
    /// prefix, or folder), never a credential.
    static func engineError(_ error: any Error, store: any BlobStore) -> PhotoEditError {
        if let error = error as? PhotoEditError { return error }
        return .library("\(store.location): \(error)")
    }
}

/// Runs async work to its end on a detached task, blocking the calling
/// thread: the bridge from the synchronous engine to async stores (S3,
/// PostgreSQL). The task runs on its own executor (``BridgeExecutor``), not
/// on Swift's cooperative pool, so a synchronous engine call made from a
/// task — which holds one of the pool's few threads while it waits — can
/// never starve the work it waits for. Never call it on a NIO event loop
/// (the work's I/O may need that loop).
package func blockingWait<T: Sendable>(_ work: @escaping @Sendable () async throws -> T) throws -> T {
    let outcome = BlockingOutcome<T>()
    // A semaphore on purpose: this is the sync-to-async bridge, the caller's thread must block.
    let done = DispatchSemaphore(value: 0)
    Task.detached(executorPreference: BridgeExecutor.shared) {
        do { outcome.set(.success(try await work())) } catch { outcome.set(.failure(error)) }
        done.signal()
    }
    done.wait()
    return try outcome.get()
}

/// The executor of ``blockingWait``'s tasks: threads of its own
/// (``WorkerThreads``), outside Swift's cooperative pool and outside
/// Dispatch's shared root queue, which on Linux are the same few threads.
/// Those tasks only wait on I/O (NIO futures, sockets), so a thread is busy
/// with one only between two suspensions. The async work such a bridge waits
/// for runs here too (PostgreSQL's connection pool and its leases), so that
/// it never needs a thread a blocked caller may hold: when it shared the
/// root queue with the ``BlockingExecutor``'s callers, a burst of catalog
/// calls blocked every thread of it and each bridge task waited for the
/// once-a-second monitor to add one.
package final class BridgeExecutor: TaskExecutor {
    package static let shared = BridgeExecutor()
    private let threads = WorkerThreads(name: "photoedit.bridge", count: max(4, ProcessInfo.processInfo.activeProcessorCount))

    package func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        let executor = asUnownedTaskExecutor()
        threads.submit { job.runSynchronously(on: executor) }
    }
}

/// The result of a blocked-on task.
private final class BlockingOutcome<T: Sendable>: Sendable {
    private let result = Mutex<Result<T, any Error>?>(nil)

    func set(_ value: Result<T, any Error>) { result.withLock { $0 = value } }

    func get() throws -> T {
        guard let value = result.withLock({ $0 }) else { throw PhotoEditError.library("a blob store call ended without a result") }
        return try value.get()
    }
}
