// Only with the `Server` trait (Package.swift): without it the module is empty.
#if Server
import CoreMetrics
import Foundation
import HTTPTypes
import Hummingbird
import NIOCore
import struct Prometheus.PrometheusMetricsFactory
import class Prometheus.PrometheusCollectorRegistry

/// The server's metrics, through swift-metrics into a Prometheus registry of
/// its own (each server its own, so tests and several servers in one
/// process never mix), exported at `GET /metrics` in Prometheus' text format.
///
/// - `photoedit_http_requests_total{method,route,status}`: answers, by the
///   route's template (`/v1/assets/{id}/render`), never the concrete path,
///   so the number of series stays bounded;
/// - `photoedit_http_request_duration_seconds{method,route}`: a histogram;
/// - `photoedit_renders_running`, `photoedit_renders_waiting`: the render
///   queue now; `photoedit_render_queue_rejected_total`: renders refused 429;
/// - `photoedit_render_cache_total{result="hit"|"miss"}`: renders served
///   from the image manager's caches or computed;
/// - `photoedit_image_cache_memory_bytes`, `photoedit_event_streams_open`:
///   read when scraped.
final class ServerMetrics: Sendable {
    let registry = PrometheusCollectorRegistry()
    private let factory: PrometheusMetricsFactory
    private let running: CoreMetrics.Gauge
    private let waiting: CoreMetrics.Gauge
    private let rejected: CoreMetrics.Counter
    private let cacheHits: CoreMetrics.Counter
    private let cacheMisses: CoreMetrics.Counter
    private let memoryBytes: CoreMetrics.Gauge
    private let streams: CoreMetrics.Gauge

    init() {
        var factory = PrometheusMetricsFactory(registry: registry)
        factory.defaultDurationHistogramBuckets = [
            .milliseconds(1), .milliseconds(5), .milliseconds(10), .milliseconds(25), .milliseconds(50), .milliseconds(100),
            .milliseconds(250), .milliseconds(500), .seconds(1), .milliseconds(2500), .seconds(5), .seconds(10), .seconds(30),
        ]
        self.factory = factory
        running = CoreMetrics.Gauge(label: "photoedit_renders_running", factory: factory)
        waiting = CoreMetrics.Gauge(label: "photoedit_renders_waiting", factory: factory)
        rejected = CoreMetrics.Counter(label: "photoedit_render_queue_rejected_total", factory: factory)
        cacheHits = CoreMetrics.Counter(label: "photoedit_render_cache_total", dimensions: [("result", "hit")], factory: factory)
        cacheMisses = CoreMetrics.Counter(label: "photoedit_render_cache_total", dimensions: [("result", "miss")], factory: factory)
        memoryBytes = CoreMetrics.Gauge(label: "photoedit_image_cache_memory_bytes", factory: factory)
        streams = CoreMetrics.Gauge(label: "photoedit_event_streams_open", factory: factory)
        running.record(0)
        waiting.record(0)
    }

    static let methods: Set<String> = ["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"]

    /// One answer: counted by method, route template and status, timed.
    func request(method: HTTPRequest.Method, route: String?, status: Int, duration: Duration) {
        let method = Self.methods.contains(method.rawValue) ? method.rawValue : "OTHER"
        // Hummingbird names an unmatched request's endpoint "NotFound".
        let route = route.flatMap { $0 == "NotFound" ? nil : $0 } ?? "unmatched"
        CoreMetrics.Counter(label: "photoedit_http_requests_total", dimensions: [("method", method), ("route", route), ("status", String(status))],
                factory: factory).increment()
        CoreMetrics.Timer(label: "photoedit_http_request_duration_seconds", dimensions: [("method", method), ("route", route)], factory: factory)
            .recordNanoseconds(duration.components.seconds * 1_000_000_000 + duration.components.attoseconds / 1_000_000_000)
    }

    func renderQueue(running: Int, waiting: Int) {
        self.running.record(running)
        self.waiting.record(waiting)
    }

    func renderRejected() { rejected.increment() }

    func render(fromCache: Bool) { (fromCache ? cacheHits : cacheMisses).increment() }

    /// The text exposition, with the values read at scrape time.
    func exposition(memoryCacheBytes: Int, eventStreams: Int) -> [UInt8] {
        memoryBytes.record(memoryCacheBytes)
        streams.record(eventStreams)
        return registry.emitToBuffer()
    }
}

/// `GET /metrics` (admin scope when the server has tokens).
func addMetricsRoute(_ router: Router<ServerContext>, state: ServerState) {
    let operations = router.group("metrics")
        .add(middleware: AuthMiddleware(tokens: state.configuration.tokens, signer: URLSigner(keys: [])))
    operations.get { _, _ -> Response in
        let bytes = state.metrics.exposition(memoryCacheBytes: state.images.statistics.memoryCacheBytes,
                                             eventStreams: state.eventStreams.open)
        return Response(status: .ok, headers: [.contentType: "text/plain; version=0.0.4; charset=utf-8", .cacheControl: "no-store"],
                        body: .init(byteBuffer: ByteBuffer(bytes: bytes)))
    }
}
#endif
