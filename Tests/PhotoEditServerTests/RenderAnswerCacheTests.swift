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
            let edited = try await temp.library.apply(chain: "exposure=+1", to: id)
            #expect(edited.number == 1)
            try await client.execute(uri: thumbnail, method: .get) { response in
                #expect(response.status == .ok)
                #expect(Data(response.body.readableBytesView) != first)
            }
        }
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
