// Only with the `Server` trait (Package.swift): these tests need its servers and modules.
#if Server
import Foundation
@testable import PhotoEdit
import PhotoEditPostgres
import PhotoEditS3
import PhotoEditTestSupport
import Testing

/// The two kinds of library the distributed tests run on: a folder with its
/// SQLite catalog, and a catalog on PostgreSQL with its files in SeaweedFS's S3.
enum LibraryKind: String, CaseIterable, CustomTestStringConvertible, Sendable {
    case folder, distributed
    var testDescription: String { self == .folder ? "folder + SQLite" : "PostgreSQL + SeaweedFS S3" }
}

/// A fresh library of `kind` (the distributed one on the shared PostgreSQL and SeaweedFS).
final class LibraryFixture: Sendable {
    let kind: LibraryKind
    private let scratch: TemporaryDirectory
    var temp: URL { scratch.url }
    let library: PhotoLibrary
    /// The distributed library's files and catalog (nil for a folder).
    let store: S3BlobStore?
    let catalog: PostgresCatalogLocation?

    init(_ kind: LibraryKind) async throws {
        self.kind = kind
        scratch = TemporaryDirectory("photoedit-dist-\(kind.rawValue)")
        let temp = scratch.url
        switch kind {
        case .folder:
            (store, catalog) = (nil, nil)
            library = try PhotoLibrary(url: temp.appendingPathComponent("library"))
        case .distributed:
            let location = try LocalPostgresServer.shared.get().newDatabase()
            let store = try await SeaweedFS.shared.value.store()
            (self.store, catalog) = (store, location)
            library = try PhotoLibrary(workDirectory: temp.appendingPathComponent("work"), catalog: try await PostgresCatalogStore.open(location),
                                       blobs: store, cacheCapacity: 64 << 20)
        }
    }

    /// The library as `photoedit --library` names it (credentials in `environment`).
    var libraryArgument: String {
        get async throws {
            guard let catalog, let store else { return temp.appendingPathComponent("library").path }
            let server = try await SeaweedFS.shared.value
            let host = catalog.socketFolder.map { "@/\(catalog.database)?host=\($0)&port=\(catalog.port)&" }
                ?? "@\(catalog.host ?? "127.0.0.1"):\(catalog.port)/\(catalog.database)?"
            return "postgres://\(catalog.username)\(host)blobs=s3://\(store.configuration.bucket)/\(store.configuration.keyPrefix)"
                + "&endpoint=\(server.endpoint.absoluteString)&work=\(temp.appendingPathComponent("cli-work").path)"
        }
    }

    /// The environment a child `photoedit` needs for this library.
    var environment: [String: String] {
        guard let catalog else { return [:] }
        var environment = ["AWS_ACCESS_KEY_ID": SeaweedFS.accessKey, "AWS_SECRET_ACCESS_KEY": SeaweedFS.secretKey]
        if let password = catalog.password { environment["PGPASSWORD"] = password }
        return environment
    }

    /// The keys of the library's files: in the blob store, or the folder's.
    func fileKeys(_ folder: String) async throws -> Set<String> {
        if let store { return Set(try await store.listAll(prefix: folder + "/").map(\.key.rawValue)) }
        return Set(try await BlockingExecutor.run { try self.library.files.list(folder).map(\.relative) })
    }
}

/// Distinct photos to import.
enum DistinctPhotos {
    /// `count` distinct JPEGs (coffee.jpg, each with its own comment segment).
    static func jpegs(_ count: Int, in folder: URL) throws -> [String] {
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let jpeg = try Data(contentsOf: URL(fileURLWithPath: Paths.sample("coffee.jpg")))
        return try (0..<count).map { n in
            let note = Array("photo \(n)".utf8)
            var data = Data(jpeg.prefix(2))   // SOI
            data += [0xFF, 0xFE, UInt8((note.count + 2) >> 8), UInt8((note.count + 2) & 0xFF)] + note   // COM
            data += jpeg.dropFirst(2)
            let path = folder.appendingPathComponent("p\(n).jpg").path
            try data.write(to: URL(fileURLWithPath: path))
            return path
        }
    }
}

/// A long-running `photoedit` child, its stdout read line by line.
final class PhotoEditChild: @unchecked Sendable {
    let process: Process
    private let output = Pipe()
    private let lines = NSCondition()
    private var seen: [String] = []
    private var ended = false

    init(_ arguments: [String], _ environment: [String: String]) throws {
        process = try PhotoEditBinary.process(arguments, environment: environment)
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        try Lifeline.run(process)   // stopped with the test process, however it ends
        let handle = output.fileHandleForReading
        Thread.detachNewThread { [self] in
            var buffer = Data()
            while true {
                let chunk = (try? FileIO.readSome(handle.fileDescriptor, what: "serve's output")) ?? Data()
                lines.lock()
                if chunk.isEmpty { ended = true; lines.broadcast(); lines.unlock(); return }
                buffer += chunk
                while let newline = buffer.firstIndex(of: 0x0A) {
                    seen.append(String(decoding: buffer[..<newline], as: UTF8.self))
                    buffer = Data(buffer[(newline + 1)...])
                }
                lines.broadcast()
                lines.unlock()
            }
        }
    }

    /// The first line holding `text` (within 60 s), nil if the child ended first.
    func waitForLine(containing text: String) throws -> String? {
        let deadline = Date(timeIntervalSinceNow: 60)
        lines.lock()
        defer { lines.unlock() }
        while true {
            if let line = seen.first(where: { $0.contains(text) }) { return line }
            if ended || !lines.wait(until: deadline) { return nil }
        }
    }

    /// SIGKILL, then waits for the end.
    func kill() {
        if process.isRunning { Foundation.kill(process.processIdentifier, SIGKILL) }
        process.waitUntilExit()
    }

    /// The environment that holds a `jobs work` or `serve` child's worker
    /// after the first photo of an apply job, until it is killed (the test pause
    /// point of `LibraryJobs`): a worker in the middle of a job, every time.
    static let pauseAfterApplyItem = ["PHOTOEDIT_TEST_PAUSE_AT": "apply-item"]

    /// Asks `look` every 50 ms until it answers true, the child ends
    /// (false) or 180 s pass (false). For states the child holds once
    /// reached (a pause point, a request whose body is held back), so
    /// that no answer depends on how fast the machine is.
    func waitWhileRunning(until look: () async throws -> Bool) async throws -> Bool {
        let deadline = ContinuousClock.now + .seconds(180)
        while ContinuousClock.now < deadline && process.isRunning {
            if try await look() { return true }
            try await Task.sleep(for: .milliseconds(50))
        }
        return false
    }
}
#endif
