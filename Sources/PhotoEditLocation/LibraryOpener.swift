import Foundation
import Synchronization
import PhotoEdit
#if Server
import PhotoEditPostgres
import PhotoEditS3
#endif

extension LibraryLocation {
    /// The library named by `--library` (or `$PHOTOEDIT_LIBRARY`), else the default folder.
    public static func named(_ text: String?, environment: [String: String] = ProcessInfo.processInfo.environment) throws -> LibraryLocation {
        if let text { return try LibraryLocation(parsing: text, environment: environment) }
        if let text = environment["PHOTOEDIT_LIBRARY"], !text.isEmpty { return try LibraryLocation(parsing: text, environment: environment) }
        return .folder(PhotoLibrary.defaultURL(environment: environment))
    }

    /// Opens the library, creating it when `create` is true (a distributed
    /// library's schema is brought up to date; its bucket must exist).
    /// Call from a thread that may block (a command, the server's startup),
    /// never from a NIO event loop or a task.
    public func open(create: Bool = true, registry: FilterRegistry = .standard,
                     environment: [String: String] = ProcessInfo.processInfo.environment) throws -> PhotoLibrary {
        switch self {
        case let .folder(url):
            return try PhotoLibrary(url: url, create: create, registry: registry)
        #if Server
        case let .distributed(location):
            return try location.open(registry: registry, environment: environment)
        #endif
        }
    }
}

#if Server
extension DistributedLibraryLocation {
    /// Connects to the catalog (migrating its schema) and the blob store,
    /// checks the store answers, and opens the library.
    func open(registry: FilterRegistry, environment: [String: String]) throws -> PhotoLibrary {
        let store = try blobStore(environment: environment)
        let catalogLocation = catalog
        let catalog = try blockingWait { try await PostgresCatalogStore.open(catalogLocation) }
        // One listing: a wrong bucket, endpoint or key fails here, in one line.
        do {
            _ = try blockingWait { try await store.list(prefix: "originals/", after: nil, limit: 1) }
        } catch {
            throw PhotoEditError.library("blobs \(blobs): \(error)")
        }
        // New photos' previews are queued for the nodes' job workers, not made
        // by the import (photoedit serve and `photoedit jobs work` make them).
        return try PhotoLibrary(workDirectory: workDirectory, catalog: catalog, blobs: store, cacheCapacity: cacheCapacity, registry: registry,
                                afterImport: PreviewQueue(catalogLocation).enqueue)
    }

    /// The blob store, its credentials from the environment.
    func blobStore(environment: [String: String]) throws -> any BlobStore {
        do {
            switch blobs {
            case let .folder(url):
                return try FolderBlobStore(root: url)
            case let .s3(bucket, prefix, endpoint, region):
                var environment = environment
                if let endpoint { environment["AWS_ENDPOINT_URL_S3"] = endpoint.absoluteString }
                if let region { environment["AWS_REGION"] = region }
                return try S3BlobStore(configuration: S3Configuration.fromEnvironment(bucket: bucket, keyPrefix: prefix, environment: environment))
            }
        } catch let error as PhotoEditError {
            throw error
        } catch {
            throw PhotoEditError.library("blobs \(blobs): \(error)")
        }
    }
}

/// Queues the previews of a distributed library's new photos as one
/// `derivatives` batch per import commit, on the job table opened at the
/// first import and kept for the process.
final class PreviewQueue: Sendable {
    private let location: PostgresCatalogLocation
    private let jobTable = Mutex<PostgresCatalog?>(nil)

    init(_ location: PostgresCatalogLocation) {
        self.location = location
    }

    /// Called by the library after a commit created `ids` (on the committing
    /// thread, which may block). A queue that cannot be reached costs nothing
    /// but time: the photos are in, and a preview missing when a request
    /// needs it is made then (`verify` notes them, `verify --repair` makes them).
    func enqueue(_ library: PhotoLibrary, _ ids: [String]) {
        let location = self.location
        do {
            let catalog = try jobTable.withLock { opened -> PostgresCatalog in
                if let opened { return opened }
                let made = try blockingWait { try await PostgresCatalog.open(location) }
                opened = made
                return made
            }
            _ = try blockingWait { try await LibraryJobs(catalog: catalog, library: library).enqueueDerivatives(ids) }
        } catch {
            return
        }
    }
}
#endif
