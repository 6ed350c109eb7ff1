// Only with the `Server` trait (Package.swift): these tests need its servers and modules.
#if Server
import Foundation
@testable import PhotoEdit
import PhotoEditTestSupport
import Synchronization
import Testing

/// Nothing blocking runs on Swift's cooperative pool: `photoedit serve` as a
/// process, its pool's threads (one per core: Linux's libdispatch has no
/// knob to make it smaller, so the test sends more blocking requests than
/// the pool has threads) given more slow uploads of large photos (each
/// decoded whole at import) than it has threads, while `GET /health` — which
/// needs a pool thread and nothing else — is asked again and again. A route
/// whose file, SQLite or libvips work ran on the pool would hold every pool
/// thread for the imports' duration, and `/health` would wait for them.
@Suite("cooperative pool (serve process)")
struct CooperativePoolTests {
    typealias Connection = LoopbackConnection

    /// How long `/health` may take while the uploads are imported: 0.15 s
    /// measured here (whole suite beside it too); 3.4–3.6 s when the uploads'
    /// work ran on the pool. Two seconds leaves a loaded CI machine room
    /// and still fails a blocked pool.
    static let healthBound: Duration = .seconds(2)

    @Test("while more large uploads than the pool has threads are imported, GET /health answers within two seconds")
    func healthAnswersDuringUploads() throws {
        let temp = TemporaryDirectory("photoedit-pool")
        let serve = try ServeProcess(library: temp.url.appendingPathComponent("library"), keepErrors: false)
        defer { serve.stop() }
        let port = serve.port

        // Distinct large photos (each its own bytes, so none is a duplicate):
        // the sample upscaled 12× and a little more each time (7200×4800 and up).
        let count = 4 * ProcessInfo.processInfo.activeProcessorCount + 2
        let photos = try (0..<count).map { index -> Data in
            let path = temp.file("large-\(index).jpg")
            let scale = 12 + 0.05 * Double(index)
            try Image.load(path: Paths.sample("coffee.jpg"), sequential: false)
                .resized(hscale: scale, vscale: scale, kernel: "linear")
                .save(to: path, format: "jpeg", options: [("Q", .number(90))])
            return try Data(contentsOf: URL(fileURLWithPath: path))
        }

        let clock = ContinuousClock()
        let started = clock.now
        let statuses = Mutex<[String]>([])
        let uploadsDone = Mutex(0)
        let group = DispatchGroup()
        for (index, photo) in photos.enumerated() {
            group.enter()
            Thread.detachNewThread {
                defer { uploadsDone.withLock { $0 += 1 }; group.leave() }
                guard let connection = Connection(port: port) else { statuses.withLock { $0.append("refused") }; return }
                connection.send(Data(("POST /v1/assets?filename=large-\(index).jpg HTTP/1.1\r\nHost: localhost\r\n"
                                      + "Content-Length: \(photo.count)\r\nConnection: close\r\n\r\n").utf8))
                connection.send(photo)
                let response = connection.receiveAll(limit: 300)
                statuses.withLock { $0.append(String(response.prefix(12))) }
            }
        }

        // /health, one request after another, while the uploads run.
        var probes: [Duration] = []
        while uploadsDone.withLock({ $0 }) < count && clock.now - started < .seconds(300) {
            let asked = clock.now
            let connection = try #require(Connection(port: port))
            connection.send(Data("GET /health HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n".utf8))
            let answer = connection.receiveAll(limit: 60)
            #expect(answer.hasPrefix("HTTP/1.1 200"), "health: \(answer.prefix(100))")
            probes.append(clock.now - asked)
            Thread.sleep(forTimeInterval: 0.02)
        }
        group.wait()
        let uploads = clock.now - started

        #expect(statuses.withLock { $0 }.allSatisfy { $0 == "HTTP/1.1 201" }, "uploads: \(statuses.withLock { $0 })")
        // The uploads took long enough for /health to be asked many times
        // while they were imported: the check below means something.
        #expect(probes.count >= 5, "only \(probes.count) health requests during \(uploads) of uploads")
        let slowest = probes.max() ?? .zero
        print("cooperative pool: \(probes.count) GET /health during \(count) uploads (\(uploads)): slowest \(slowest)")
        #expect(slowest < Self.healthBound,
                "GET /health took \(slowest) (bound \(Self.healthBound)) while \(count) uploads ran for \(uploads): the pool was blocked")
    }
}
#endif
