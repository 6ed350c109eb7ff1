// Only with the `Server` trait (Package.swift): these tests need its servers and modules.
#if Server
import Foundation
import Hummingbird
import HummingbirdTesting
@testable import PhotoEdit
@testable import PhotoEditServer
import Testing

@Suite("Render answers served from memory")
struct RenderAnswerCacheTests {
    @Test("a repeated render is answered while every render slot is busy; a new one is refused 429")
    func repeatsSkipTheQueue() async throws {
        let temp = try TemporaryLibrary()
        let id = try temp.importSample("coffee.jpg")
        var configuration = ServerConfiguration()
        configuration.renderConcurrency = 1
        configuration.renderQueueDepth = 0
        let state = ServerState(library: temp.library, configuration: configuration)
        let application = Application(router: makeRouter(state: state))
        let thumbnail = "/v1/assets/\(id)/render?w=200&format=jpeg"
        try await application.test(.router) { client in
            let first = try await client.execute(uri: thumbnail, method: .get) { response in
                #expect(response.status == .ok)
                return Data(response.body.readableBytesView)
            }
            // Hold the only render slot until the end of the test.
            let (held, release) = AsyncStream.makeStream(of: Void.self)
            let (entered, enteredSignal) = AsyncStream.makeStream(of: Void.self)
            let holder = Task {
                try await state.renders.run {
                    enteredSignal.yield()
                    for await _ in held {}
                }
            }
            for await _ in entered { break }
            for _ in 0..<5 {
                try await client.execute(uri: thumbnail, method: .get) { response in
                    #expect(response.status == .ok)
                    #expect(response.headers[.contentType] == "image/jpeg")
                    #expect(Data(response.body.readableBytesView) == first)
                }
            }
            // Another size needs a render: no slot, no queue.
            try await client.execute(uri: "/v1/assets/\(id)/render?w=201&format=jpeg", method: .get) { response in
                #expect(response.status == .tooManyRequests)
            }
            release.finish()
            try await holder.value
            // An edit makes a new revision: the answer is rendered again, not the old one.
            let edited = try await BlockingExecutor.run { try temp.library.apply(chain: "exposure=+1", to: id) }
            #expect(edited.number == 1)
            try await client.execute(uri: thumbnail, method: .get) { response in
                #expect(response.status == .ok)
                #expect(Data(response.body.readableBytesView) != first)
            }
        }
    }

    @Test("a revision-addressed hit is answered without reading the catalog; a change anywhere retires it")
    func revisionAddressedHitsSkipTheCatalog() async throws {
        let temp = try TemporaryLibrary()
        let id = try temp.importSample("coffee.jpg")
        let state = ServerState(library: temp.library, configuration: ServerConfiguration())
        let application = Application(router: makeRouter(state: state))
        let library = temp.library
        try await application.test(.router) { client in
            func status(_ uri: String) async throws -> HTTPResponse.Status {
                try await client.execute(uri: uri, method: .get) { $0.status }
            }
            let hit = "/v1/assets/\(id)/render?w=64&format=png&rev=0"
            #expect(try await status(hit) == .ok)
            // The memo watches the change feed from the first revision-addressed request on.
            let deadline = Date().addingTimeInterval(30)
            while state.revisions.subject(id) == nil && Date() < deadline {
                #expect(try await status(hit) == .ok)
                try await Task.sleep(for: .milliseconds(20))
            }
            #expect(state.revisions.subject(id)?.revision == 0)

            // Warm hits: each answered from memory, and no catalog transaction
            // but the feed's own safety poll (one read each 250 ms while nothing changes).
            let hits = 40
            let before = library.catalogTransactionCount, answered = state.revisions.answeredFromMemory
            let started = Date()
            for _ in 0..<hits { #expect(try await status(hit) == .ok) }
            let reads = library.catalogTransactionCount - before
            let polls = Int(Date().timeIntervalSince(started) / 0.25) + 2
            #expect(state.revisions.answeredFromMemory - answered == hits, "every warm hit answered from memory")
            #expect(reads <= polls, "\(hits) warm hits made \(reads) catalog transactions (feed polls allowed: \(polls))")

            // An edit through this server: the old revision is gone at once.
            try await client.execute(uri: "/v1/assets/\(id)/edits", method: .post, headers: [.ifMatch: "\"r0\""],
                                     body: ByteBuffer(string: #"{"chain": "exposure=+0.5"}"#)) { #expect($0.status == .ok) }
            #expect(try await status(hit) == .notFound)
            let second = "/v1/assets/\(id)/render?w=64&format=png&rev=1"
            #expect(try await status(second) == .ok)

            // An edit by another library object (as another process would): the
            // change feed retires the memo within its latency.
            let other = try PhotoLibrary(url: temp.url, create: false)
            let waitFeed = Date().addingTimeInterval(30)
            while state.revisions.subject(id)?.revision != 1 && Date() < waitFeed {
                #expect(try await status(second) == .ok)
                try await Task.sleep(for: .milliseconds(20))
            }
            let written = try await BlockingExecutor.run { try other.apply(chain: "exposure=-0.5", to: id) }
            #expect(written.number == 2)
            let retired = Date().addingTimeInterval(30)
            var answer = try await status(second)
            while answer == .ok && Date() < retired {
                try await Task.sleep(for: .milliseconds(20))
                answer = try await status(second)
            }
            #expect(answer == .notFound, "a revision another process replaced is still served")
            #expect(try await status("/v1/assets/\(id)/render?w=64&format=png&rev=2") == .ok)
        }
    }

    @Test("a render in another format is encoded once from the pixels, never from the cached JPEG")
    func encodedOnce() async throws {
        let temp = try TemporaryLibrary()
        let id = try temp.importSample("coffee.jpg")
        _ = try await BlockingExecutor.run { try temp.library.apply(chain: "exposure=+0.3", to: id) }
        let state = ServerState(library: temp.library, configuration: ServerConfiguration())
        let application = Application(router: makeRouter(state: state))
        try await application.test(.router) { client in
            // The JPEG at the manager's quality first: the shared cache now holds it.
            try await client.execute(uri: "/v1/assets/\(id)/render?w=256&format=jpeg&q=\(state.images.configuration.quality)",
                                     method: .get) { #expect($0.status == .ok) }
            let png = try await client.execute(uri: "/v1/assets/\(id)/render?w=256&format=png", method: .get) { response in
                #expect(response.status == .ok)
                return Data(response.body.readableBytesView)
            }
            // Lossless: the answer's pixels are the pipeline's own (made
            // again by a manager without a disk cache)...
            let uncached = ImageManager(library: temp.library, configuration: ImageCacheConfiguration(diskLimit: 0))
            let pipeline = try Image.load(data: try uncached.requestEncodedImage(
                for: id, targetSize: ImageSize(side: 256), options: ImageRequestOptions(resizeMode: .exact), encoding: .png, quality: 100).data)
            let answered = try Image.load(data: png)
            #expect(try Self.largestDifference(answered, pipeline) == 0)
            // ...not the cached JPEG's, decoded (a second lossy generation).
            var viaJPEG: RenderedImage?
            for await result in try state.images.requestImage(for: id, targetSize: ImageSize(side: 256),
                                                               options: ImageRequestOptions(resizeMode: .exact)) {
                viaJPEG = result.image
            }
            #expect(try Self.largestDifference(answered, try #require(viaJPEG).image()) > 0)
            // Kept by format, quality and metadata policy (the server's default,
            // copyright): asked again, it comes from the caches.
            let again = try state.images.requestEncodedImage(for: id, targetSize: ImageSize(side: 256),
                                                             options: ImageRequestOptions(resizeMode: .exact), encoding: .png, quality: 100,
                                                             metadata: .copyright)
            #expect(again.isFromCache && again.data == png)
            let webp = try state.images.requestEncodedImage(for: id, targetSize: ImageSize(side: 256),
                                                            options: ImageRequestOptions(resizeMode: .exact), encoding: .webp, quality: 80)
            #expect(!webp.isFromCache && webp.data.starts(with: Data("RIFF".utf8)))
        }
    }

    /// The largest difference of any band of any pixel.
    static func largestDifference(_ a: Image, _ b: Image) throws -> Double {
        try Vips.image("subtract", [("left", .image(try a.cast("short"))), ("right", .image(try b.cast("short")))]).call("abs").maximum()
    }

    @Test("the cache keeps to its byte limit, least recently used first, and skips answers over an eighth of it")
    func bounded() {
        let cache = EncodedRenderCache(limit: 8_000)
        for i in 0..<10 { cache.put("k\(i)", Data(repeating: UInt8(i), count: 900)) }
        #expect(cache.usage.bytes <= 8_000)
        #expect(cache.get("k0") == nil)
        #expect(cache.get("k9") == Data(repeating: 9, count: 900))
        // k9 just used, k5 not: the next evictions take k5 before k9.
        for i in 10..<14 { cache.put("k\(i)", Data(repeating: UInt8(i), count: 900)) }
        #expect(cache.get("k9") != nil)
        #expect(cache.get("k5") == nil)
        cache.put("big", Data(count: 1_001))
        #expect(cache.get("big") == nil)
        #expect(EncodedRenderCache(limit: 0).usage.entries == 0)
    }
}
#endif
