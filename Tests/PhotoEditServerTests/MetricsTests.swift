// Only with the `Server` trait (Package.swift): these tests need its servers and modules.
#if Server
import Foundation
import Hummingbird
import HummingbirdTesting
import Logging
@testable import PhotoEdit
@testable import PhotoEditServer
import Testing

/// Log entries kept in memory (a real swift-log handler, for the test to read).
final class RecordingLogHandler: LogHandler, @unchecked Sendable {
    struct Entry {
        let level: Logger.Level
        let message: String
        let metadata: Logger.Metadata
    }

    final class Store: @unchecked Sendable {
        private let lock = NSLock()
        private var stored: [Entry] = []
        func append(_ entry: Entry) { lock.withLock { stored.append(entry) } }
        var entries: [Entry] { lock.withLock { stored } }
    }

    let store: Store
    var metadata: Logger.Metadata = [:]
    var logLevel: Logger.Level = .info

    init(store: Store) { self.store = store }

    subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    func log(event: LogEvent) {
        store.append(Entry(level: event.level, message: event.message.description,
                           metadata: metadata.merging(event.metadata ?? [:]) { $1 }))
    }
}

@Suite("HTTP API v1: metrics and request logs")
struct MetricsTests {
    static func line(_ text: String, _ prefix: String) -> String? {
        text.split(separator: "\n").first { $0.hasPrefix(prefix) }.map(String.init)
    }

    @Test("/metrics counts requests by route template and status, times them, and counts render cache hits and misses")
    func metrics() async throws {
        let temp = try TemporaryLibrary()
        let id = try temp.importSample("coffee.jpg")
        try await server(temp).test(.router) { client in
            for _ in 0..<3 { try await client.execute(uri: "/v1/assets/\(id)", method: .get) { #expect($0.status == .ok) } }
            try await client.execute(uri: "/v1/assets/0123456789abcdef", method: .get) { #expect($0.status == .notFound) }
            try await client.execute(uri: "/v1/no-such-route", method: .get) { #expect($0.status == .notFound) }
            // The same render twice: computed, then from the cache.
            for _ in 0..<2 { try await client.execute(uri: "/v1/assets/\(id)/render?w=50&format=png", method: .get) { #expect($0.status == .ok) } }
            try await client.execute(uri: "/metrics", method: .get) { response in
                #expect(response.status == .ok)
                #expect(response.headers[.contentType]?.hasPrefix("text/plain; version=0.0.4") == true)
                let text = String(buffer: response.body)
                #expect(Self.line(text, #"photoedit_http_requests_total{method="GET",route="/v1/assets/{id}",status="200"}"#)?.hasSuffix(" 3") == true,
                        "\(text)")
                #expect(Self.line(text, #"photoedit_http_requests_total{method="GET",route="/v1/assets/{id}",status="404"}"#)?.hasSuffix(" 1") == true)
                #expect(Self.line(text, #"photoedit_http_requests_total{method="GET",route="unmatched",status="404"}"#)?.hasSuffix(" 1") == true)
                // Concrete ids never become labels.
                #expect(!text.contains(id))
                #expect(Self.line(text, #"photoedit_http_request_duration_seconds_count{method="GET",route="/v1/assets/{id}/render"}"#)?.hasSuffix(" 2") == true)
                #expect(text.contains(#"photoedit_http_request_duration_seconds_bucket{method="GET",route="/v1/assets/{id}/render",le="+Inf"} 2"#))
                #expect(Self.line(text, #"photoedit_render_cache_total{result="miss"}"#)?.hasSuffix(" 1") == true)
                #expect(Self.line(text, #"photoedit_render_cache_total{result="hit"}"#)?.hasSuffix(" 1") == true)
                #expect(Self.line(text, "photoedit_renders_running ") == "photoedit_renders_running 0.0")
                #expect(Self.line(text, "photoedit_renders_waiting ") == "photoedit_renders_waiting 0.0")
                #expect(Self.line(text, "photoedit_image_cache_memory_bytes ").map { !$0.hasSuffix(" 0.0") } == true)
            }
        }
    }

    @Test("the render queue's refusals are counted")
    func rejectedRenders() async throws {
        let temp = try TemporaryLibrary()
        let id = try temp.importSample("coffee.jpg")
        try await server(temp) { $0.renderConcurrency = 1; $0.renderQueueDepth = 0 }.test(.router) { client in
            let statuses = try await withThrowingTaskGroup(of: HTTPResponse.Status.self) { group in
                for w in 0..<6 {
                    group.addTask { try await client.execute(uri: "/v1/assets/\(id)/preview?w=\(400 + w)", method: .get) { $0.status } }
                }
                return try await group.reduce(into: []) { $0.append($1) }
            }
            let refused = statuses.filter { $0 == .tooManyRequests }.count
            try await client.execute(uri: "/metrics", method: .get) { response in
                let text = String(buffer: response.body)
                #expect(Self.line(text, "photoedit_render_queue_rejected_total ") == "photoedit_render_queue_rejected_total \(refused)")
                #expect(Self.line(text, #"photoedit_http_requests_total{method="GET",route="/v1/assets/{id}/preview",status="429"}"#)
                    .map { $0.hasSuffix(" \(refused)") } ?? (refused == 0))
            }
        }
    }

    @Test("with tokens, /metrics needs the admin scope")
    func metricsNeedAdmin() async throws {
        let temp = try TemporaryLibrary()
        let read = TokenStore.newToken(), admin = TokenStore.newToken()
        let tokens = try TokenStore(text: TokenStore.entry(for: read, scope: .read, name: "r") + "\n" + TokenStore.entry(for: admin, scope: .admin, name: "a"),
                                    source: "test")
        try await server(temp) { $0.tokens = tokens }.test(.router) { client in
            try await client.execute(uri: "/metrics", method: .get) { #expect($0.status == .unauthorized) }
            try await client.execute(uri: "/metrics", method: .get, headers: [.authorization: "Bearer \(read)"]) { #expect($0.status == .forbidden) }
            try await client.execute(uri: "/metrics", method: .get, headers: [.authorization: "Bearer \(admin)"]) { #expect($0.status == .ok) }
        }
    }

    @Test("every request is logged once, structured, with the request id it echoes (the client's when sane, else a new one)")
    func requestLogs() async throws {
        let temp = try TemporaryLibrary()
        let id = try temp.importSample("coffee.jpg")
        let store = RecordingLogHandler.Store()
        var logger = Logger(label: "test") { _ in RecordingLogHandler(store: store) }
        logger.logLevel = .info
        var configuration = ServerConfiguration()
        configuration.port = 0
        let generated = try await makeServer(library: temp.library, configuration: configuration, logger: logger).test(.router) { client -> String in
            try await client.execute(uri: "/v1/assets/\(id)", method: .get, headers: [.requestID: "client-id-1"]) { response in
                #expect(response.headers[.requestID] == "client-id-1")
            }
            var generated = ""
            try await client.execute(uri: "/v1/assets/\(id)/history", method: .get, headers: [.requestID: "bad id\u{7f}"]) { response in
                generated = response.headers[.requestID] ?? ""
            }
            #expect(UUID(uuidString: generated) != nil)
            try await client.execute(uri: "/v1/assets/ffff0000ffff0000", method: .get) { response in
                #expect(response.status == .notFound)
                #expect(response.headers[.requestID]?.isEmpty == false)
            }
            return generated
        }
        let requests = store.entries.filter { $0.message == "request" }
        #expect(requests.count == 3)
        let first = try #require(requests.first { $0.metadata["request_id"] == "client-id-1" })
        #expect(first.metadata["route"] == "/v1/assets/{id}")
        #expect(first.metadata["status"]?.description == "200")
        #expect(first.metadata["method"] == "GET")
        #expect(first.metadata["duration_ms"] != nil)
        #expect(requests.contains { $0.metadata["request_id"]?.description == generated && $0.metadata["route"] == "/v1/assets/{id}/history" })
        #expect(requests.contains { $0.metadata["status"]?.description == "404" })
    }
}
#endif
