// Only with the `Server` trait (Package.swift): these tests need its servers and modules.
#if Server
import Foundation
import PhotoEdit
import PhotoEditS3
import PhotoEditTestSupport
import Testing

/// The blob stores every test of this suite runs against.
enum StoreKind: String, CaseIterable, CustomTestStringConvertible, Sendable {
    case folder
    case s3

    var testDescription: String { rawValue == "s3" ? "S3BlobStore on SeaweedFS" : "FolderBlobStore" }

    /// A fresh, empty store (its own folder, or its own key prefix in the
    /// shared bucket) and the folder to keep alive while it is used.
    func make() async throws -> (any BlobStore, TemporaryDirectory?) {
        switch self {
        case .folder:
            let folder = TemporaryDirectory("photoedit-blobs")
            return (try FolderBlobStore(root: folder.url), folder)
        case .s3:
            return (try await SeaweedFS.shared.value.store(), nil)
        }
    }
}

/// Pseudo-random bytes (deterministic per seed) that no store could compress away.
func noise(_ count: Int, seed: UInt64) -> Data {
    var state = seed &* 0x9E37_79B9_7F4A_7C15 | 1
    var data = Data(count: count)
    data.withUnsafeMutableBytes { raw in
        let bytes = raw.bindMemory(to: UInt8.self)
        for i in 0..<count {
            state ^= state << 13; state ^= state >> 7; state ^= state << 17
            bytes[i] = UInt8(truncatingIfNeeded: state)
        }
    }
    return data
}

func temporaryFile(_ data: Data) throws -> URL {
    let url = FileManager.default.temporaryDirectory.appendingPathComponent("photoedit-src-\(UUID().uuidString)")
    try data.write(to: url)
    return url
}

func stream(_ data: Data, chunk: Int) -> AsyncThrowingStream<Data, any Error> {
    AsyncThrowingStream { continuation in
        var offset = 0
        while offset < data.count {
            continuation.yield(data.subdata(in: offset..<min(data.count, offset + chunk)))
            offset += chunk
        }
        continuation.finish()
    }
}

@Suite("One blob-store contract, every store")
struct BlobStoreContractTests {
    @Test("put, head, get and list agree on a small blob", arguments: StoreKind.allCases)
    func roundTrip(kind: StoreKind) async throws {
        let (store, storeFolder) = try await kind.make()
        defer { withExtendedLifetime(storeFolder) {} }
        let key = try BlobKey("renders/ab/photo-1.jpg")
        let bytes = noise(300_000, seed: 1)
        let outcome = try await store.put(key, from: .data(bytes), ifAbsent: false)
        guard case let .created(info) = outcome else { Issue.record("not created: \(outcome)"); return }
        #expect(info.size == 300_000)
        #expect(try await store.head(key)?.size == 300_000)
        let content = try await store.get(key)
        #expect(content.info.size == 300_000)
        var read = Data()
        var chunks = 0
        for try await chunk in content.chunks { read.append(chunk); chunks += 1 }
        #expect(read == bytes)
        #expect(chunks >= 1)
        #expect(try await store.listAll(prefix: "").map(\.key) == [key])
    }

    @Test("a large file and a stream are stored whole (multipart on S3)", arguments: StoreKind.allCases)
    func largeStreamed(kind: StoreKind) async throws {
        let (store, storeFolder) = try await kind.make()
        defer { withExtendedLifetime(storeFolder) {} }
        let bytes = noise(11 * 1_048_576 + 12_345, seed: 2)
        let file = try temporaryFile(bytes)
        defer { try? FileManager.default.removeItem(at: file) }
        let fromFile = try BlobKey("originals/big.jpg")
        let fromStream = try BlobKey("originals/big-stream.jpg")
        _ = try await store.put(fromFile, from: .file(file), ifAbsent: false)
        _ = try await store.put(fromStream, from: .stream(stream(bytes, chunk: 700_001)), ifAbsent: false)
        for key in [fromFile, fromStream] {
            #expect(try await store.head(key)?.size == Int64(bytes.count))
            #expect(try await store.data(for: key) == bytes, "\(key) differs")
        }
        let copy = FileManager.default.temporaryDirectory.appendingPathComponent("photoedit-dl-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: copy) }
        try await store.download(fromStream, to: copy)
        #expect(try Data(contentsOf: copy) == bytes)
    }

    @Test("a conditional put never replaces an existing blob", arguments: StoreKind.allCases)
    func conditionalPut(kind: StoreKind) async throws {
        let (store, storeFolder) = try await kind.make()
        defer { withExtendedLifetime(storeFolder) {} }
        let key = try BlobKey("adjustments/p1/r1.json")
        let first = Data("{\"v\":1}".utf8)
        let second = Data("{\"v\":2, \"other\": true}".utf8)
        #expect(try await store.put(key, from: .data(first), ifAbsent: true) != .existed)
        #expect(try await store.put(key, from: .data(second), ifAbsent: true) == .existed)
        #expect(try await store.data(for: key) == first)
        // An unconditional put replaces it.
        _ = try await store.put(key, from: .data(second), ifAbsent: false)
        #expect(try await store.data(for: key) == second)
    }

    @Test("of racing conditional puts exactly one creates the blob", arguments: StoreKind.allCases)
    func racingConditionalPuts(kind: StoreKind) async throws {
        let (store, storeFolder) = try await kind.make()
        defer { withExtendedLifetime(storeFolder) {} }
        let key = try BlobKey("race/one")
        let bodies = (0..<8).map { noise(50_000, seed: 100 + UInt64($0)) }
        let outcomes = try await withThrowingTaskGroup(of: (Int, BlobPutOutcome).self) { group in
            for (index, body) in bodies.enumerated() {
                group.addTask { (index, try await store.put(key, from: .data(body), ifAbsent: true)) }
            }
            return try await group.reduce(into: [(Int, BlobPutOutcome)]()) { $0.append($1) }
        }
        let winners = outcomes.filter { $0.1 != .existed }.map(\.0)
        #expect(winners.count == 1, "winners: \(winners)")
        if let winner = winners.first {
            #expect(try await store.data(for: key) == bodies[winner])
        }
    }

    @Test("a large conditional put onto an existing key writes nothing", arguments: StoreKind.allCases)
    func largeConditionalPut(kind: StoreKind) async throws {
        let (store, storeFolder) = try await kind.make()
        defer { withExtendedLifetime(storeFolder) {} }
        let key = try BlobKey("originals/kept.cr2")
        let original = noise(1000, seed: 3)
        _ = try await store.put(key, from: .data(original), ifAbsent: true)
        let large = noise(6 * 1_048_576, seed: 4)
        #expect(try await store.put(key, from: .stream(stream(large, chunk: 1 << 20)), ifAbsent: true) == .existed)
        #expect(try await store.data(for: key) == original)
    }

    @Test("content-addressed puts name content by its SHA-256 and store it once", arguments: StoreKind.allCases)
    func contentAddressed(kind: StoreKind) async throws {
        let (store, storeFolder) = try await kind.make()
        defer { withExtendedLifetime(storeFolder) {} }
        let bytes = Data("hello".utf8)
        let (key, outcome) = try await store.putContentAddressed(namespace: "originals", from: .data(bytes), fileExtension: "JPG")
        #expect(key.rawValue == "originals/sha256/2c/2cf24dba5fb0a30e26e83b2ac5b9e29e1b161e5c1fa7425e73043362938b9824.jpg")
        #expect(outcome != .existed)
        let again = try await store.putContentAddressed(namespace: "originals", from: .stream(stream(bytes, chunk: 2)), fileExtension: "jpg")
        #expect(again.key == key)
        #expect(again.outcome == .existed)
    }

    @Test("missing keys: get throws notFound, head is nil, delete succeeds", arguments: StoreKind.allCases)
    func missing(kind: StoreKind) async throws {
        let (store, storeFolder) = try await kind.make()
        defer { withExtendedLifetime(storeFolder) {} }
        let key = try BlobKey("nothing/here")
        await #expect(throws: BlobStoreError.notFound(key: "nothing/here")) { _ = try await store.get(key) }
        #expect(try await store.head(key) == nil)
        try await store.delete(key)
        _ = try await store.put(key, from: .data(Data([1, 2, 3])), ifAbsent: false)
        try await store.delete(key)
        #expect(try await store.head(key) == nil)
        #expect(try await store.listAll(prefix: "nothing").isEmpty)
    }

    @Test("list is by string prefix, ascending, paged strictly after a key", arguments: StoreKind.allCases)
    func listing(kind: StoreKind) async throws {
        let (store, storeFolder) = try await kind.make()
        defer { withExtendedLifetime(storeFolder) {} }
        let names = ["a/b/1", "a/b/2", "a/bc/3", "a/bd", "a/c/4", "b/5", "a/b/sub/6", "a-b"]
        for name in names { _ = try await store.put(try BlobKey(name), from: .data(Data(name.utf8)), ifAbsent: true) }
        let underAB = ["a/b/1", "a/b/2", "a/b/sub/6", "a/bc/3", "a/bd"]
        var seen: [String] = []
        var after: BlobKey?
        while true {
            let page = try await store.list(prefix: "a/b", after: after, limit: 2)
            #expect(page.count <= 2)
            seen += page.map(\.key.rawValue)
            guard page.count == 2 else { break }
            after = page.last!.key
        }
        #expect(seen == underAB)
        #expect(try await store.listAll(prefix: "").map(\.key.rawValue) == names.sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) })
        #expect(try await store.list(prefix: "a/b/", after: nil, limit: 10).first?.size == 5)
        #expect(try await store.listAll(prefix: "zzz").isEmpty)
        await #expect(throws: BlobStoreError.self) { _ = try await store.list(prefix: "", after: nil, limit: 0) }
    }

    @Test("the read-through cache gives local files, bounded by bytes, least recently used first", arguments: StoreKind.allCases)
    func readThroughCache(kind: StoreKind) async throws {
        let (store, storeFolder) = try await kind.make()
        defer { withExtendedLifetime(storeFolder) {} }
        let keys = try (0..<3).map { try BlobKey("renders/r\($0).jpg") }
        let blobs = (0..<3).map { noise(400_000, seed: 10 + UInt64($0)) }
        for (key, blob) in zip(keys, blobs) { _ = try await store.put(key, from: .data(blob), ifAbsent: false) }
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("photoedit-cache-\(UUID().uuidString.prefix(8))")
        defer { try? FileManager.default.removeItem(at: folder) }
        let cache = try BlobFileCache(store: store, folder: folder, capacity: 1_000_000)
        for (key, blob) in zip(keys, blobs).prefix(2) {
            let ok = try await cache.withLocalFile(key) { url in
                url.pathExtension == "jpg" && (try? Data(contentsOf: url)) == blob
            }
            #expect(ok)
        }
        // Touch r0 so r1 is the least recently used, then r2 pushes past 1 MB.
        _ = try await cache.withLocalFile(keys[0]) { _ in true }
        let pinned = try await cache.withLocalFile(keys[2]) { url in
            FileManager.default.fileExists(atPath: url.path)
        }
        #expect(pinned)
        #expect(await cache.contains(keys[0]))
        #expect(!(await cache.contains(keys[1])))
        #expect(await cache.contains(keys[2]))
        #expect(await cache.cachedBytes <= 1_000_000)
        #expect(await cache.hits == 1)
        #expect(await cache.misses == 3)
        // A missing blob is the store's typed error, and caches nothing.
        await #expect(throws: BlobStoreError.self) {
            _ = try await cache.withLocalFile(try BlobKey("renders/none.jpg")) { _ in true }
        }
    }
}

@Suite("Blob keys")
struct BlobKeyTests {
    @Test("keys that could leave the store or confuse it are refused",
          arguments: ["", "/a", "a/", "a//b", "../x", "a/../b", ".partial/x", "a/.hidden", "a b", "a\nb", "é", "a\\b",
                      String(repeating: "a", count: 1025), String(repeating: "a", count: 256) + "/b"])
    func refused(text: String) {
        #expect(throws: BlobStoreError.self) { _ = try BlobKey(text) }
    }

    @Test("ordinary keys are accepted")
    func accepted() throws {
        for text in ["a", "originals/sha256/ab/abc.jpg", "x=1+2_3-4.tif", String(repeating: "a/", count: 300) + "z"] {
            #expect(try BlobKey(text).rawValue == text)
        }
        #expect(throws: BlobStoreError.self) { _ = try BlobKey.contentAddressed(namespace: "o", sha256: "XYZ") }
    }

    @Test("an error shows at most 80 characters of a hostile key, control characters escaped")
    func errorExcerpt() {
        do {
            _ = try BlobKey(String(repeating: "\u{1}x", count: 500))
            Issue.record("accepted")
        } catch {
            let text = "\(error)"
            #expect(!text.contains("\u{1}"))
            #expect(text.count < 400)
        }
    }
}

@Suite("FolderBlobStore specifics")
struct FolderBlobStoreTests {
    @Test("an interrupted put leaves no blob, only a partial file that is cleaned up")
    func interruptedPut() async throws {
        let folder = TemporaryDirectory("photoedit-blobs")
        defer { withExtendedLifetime(folder) {} }
        let root = folder.url
        let store = try FolderBlobStore(root: root)
        // A stream that fails half way: the put fails and nothing appears.
        let failing = AsyncThrowingStream<Data, any Error> { continuation in
            continuation.yield(Data(repeating: 7, count: 1000))
            continuation.finish(throwing: CancellationError())
        }
        let key = try BlobKey("originals/x.jpg")
        await #expect(throws: BlobStoreError.self) { _ = try await store.put(key, from: .stream(failing), ifAbsent: true) }
        #expect(try await store.head(key) == nil)
        #expect(try FileManager.default.contentsOfDirectory(atPath: root.path + "/.partial").isEmpty)
        // What a kill -9 between write and rename leaves: never listed, removed when stale.
        try Data([1]).write(to: root.appendingPathComponent(".partial/crashed"))
        #expect(try await store.listAll(prefix: "").isEmpty)
        #expect(try store.removeStalePartials(olderThan: -1) == 1)
    }

    @Test("a read-through cache clears only its own leftovers from its folder")
    func cacheKeepsForeignFiles() async throws {
        let storeFolder = TemporaryDirectory("photoedit-blobs")
        defer { withExtendedLifetime(storeFolder) {} }
        let store = try FolderBlobStore(root: storeFolder.url)
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("photoedit-cache-\(UUID().uuidString.prefix(8))")
        defer { try? FileManager.default.removeItem(at: folder) }
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let leftover = String(repeating: "ab", count: 32) + ".jpg"
        try Data([1]).write(to: folder.appendingPathComponent(leftover))
        try Data([2]).write(to: folder.appendingPathComponent(".\(leftover).part-1234abcd"))
        try Data([3]).write(to: folder.appendingPathComponent("notes.txt"))
        _ = try BlobFileCache(store: store, folder: folder, capacity: 1000)
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path) == ["notes.txt"])
    }

    @Test("a reader keeps the version it opened while the key is replaced")
    func readerIsolation() async throws {
        let storeFolder = TemporaryDirectory("photoedit-blobs")
        defer { withExtendedLifetime(storeFolder) {} }
        let store = try FolderBlobStore(root: storeFolder.url)
        let key = try BlobKey("k")
        let old = noise(3 << 20, seed: 5)
        _ = try await store.put(key, from: .data(old), ifAbsent: false)
        let content = try await store.get(key)
        _ = try await store.put(key, from: .data(Data("new".utf8)), ifAbsent: false)
        var read = Data()
        for try await chunk in content.chunks { read.append(chunk) }
        #expect(read == old)
    }
}

@Suite("S3BlobStore specifics")
struct S3BlobStoreTests {
    @Test("a wrong secret is refused with S3's error code")
    func wrongSecret() async throws {
        let store = try await SeaweedFS.shared.value.store(secret: "not-the-secret")
        do {
            _ = try await store.head(try BlobKey("x"))
            _ = try await store.put(try BlobKey("x"), from: .data(Data([1])), ifAbsent: false)
            Issue.record("accepted a wrong signature")
        } catch let BlobStoreError.service(status, code, _, _) {
            #expect(status == 403)
            #expect(["SignatureDoesNotMatch", "AccessDenied", "HTTP403"].contains(code), "code \(code)")
        }
    }

    @Test("a missing bucket is NoSuchBucket")
    func missingBucket() async throws {
        let store = try await SeaweedFS.shared.value.store(bucket: "no-such-bucket-\(UUID().uuidString.prefix(8).lowercased())")
        do {
            _ = try await store.list(prefix: "", after: nil, limit: 10)
            Issue.record("listed a missing bucket")
        } catch let BlobStoreError.service(status, code, _, _) {
            #expect(status == 404)
            #expect(code == "NoSuchBucket")
        }
    }

    @Test("configuration comes from the standard AWS variables")
    func environment() throws {
        let config = try S3Configuration.fromEnvironment(bucket: "b", environment: [
            "AWS_ACCESS_KEY_ID": "AK", "AWS_SECRET_ACCESS_KEY": "SK", "AWS_REGION": "eu-west-3",
            "AWS_ENDPOINT_URL_S3": "http://127.0.0.1:8333",
        ])
        #expect(config.region == "eu-west-3")
        #expect(config.endpoint.absoluteString == "http://127.0.0.1:8333")
        #expect(config.credentials == S3Credentials(accessKeyID: "AK", secretAccessKey: "SK"))
        #expect(throws: BlobStoreError.self) { _ = try S3Configuration.fromEnvironment(bucket: "b", environment: [:]) }
        #expect(throws: BlobStoreError.self) {
            _ = try S3Configuration.fromEnvironment(bucket: "b", environment: ["AWS_ACCESS_KEY_ID": "a", "AWS_SECRET_ACCESS_KEY": "b", "AWS_ENDPOINT_URL": "file:///etc"])
        }
        #expect(throws: BlobStoreError.self) { _ = try S3BlobStore(configuration: S3Configuration(endpoint: config.endpoint, bucket: "Bad_Bucket", credentials: config.credentials)) }
    }
}
#endif
