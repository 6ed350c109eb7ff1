// Only with the `Server` trait (Package.swift): without it the module is empty.
#if Server
import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdCore
import Logging
import NIOCore
import PhotoEdit
import ServiceLifecycle
import Synchronization

/// How `photoedit serve` runs: address, tokens and the limits every request
/// is held to.
public struct ServerConfiguration: Sendable {
    /// Address to listen on (default loopback only).
    public var host = "127.0.0.1"
    /// Port (0: any free port, reported by `onServerRunning`).
    public var port = 8080
    /// API tokens (none: no authentication, for a loopback development server).
    public var tokens = TokenStore()
    /// Keys that sign render URLs (fetched without a token); none: signed URLs are refused.
    public var signer = URLSigner(keys: [])
    /// Origins (`https://app.example`) browsers may call the API from, or
    /// `*` for any; empty: no CORS headers.
    public var corsOrigins: [String] = []
    /// Largest upload accepted, in bytes (413 above it).
    public var maxUploadBytes: Int64 = 256 << 20
    /// Largest request body of JSON endpoints, in bytes.
    public var maxJSONBytes = 1 << 20
    /// Largest render asked for, in pixels (width × height; 422 above it).
    public var maxRenderPixels = 64_000_000
    /// Renders run at once (the rest wait in the queue).
    public var renderConcurrency = max(1, ProcessInfo.processInfo.activeProcessorCount)
    /// Renders that may wait; one more is refused with 429 and `Retry-After`.
    public var renderQueueDepth = 32
    /// Bytes of encoded render answers kept in memory, so repeated requests
    /// skip the render queue (0: none).
    public var renderAnswerCacheBytes = 64 << 20
    /// A request taking longer is answered 503 with `Retry-After` (its work is abandoned).
    public var requestTimeout: Duration = .seconds(120)
    /// Change-feed event streams open at once (each watches the library); one more is 503.
    public var maxEventStreams = 64
    /// Event streams one client may hold open (a token, or an address when
    /// there are no tokens); one more is 429. Below `maxEventStreams`, so a
    /// client holding its share leaves room for the others.
    public var maxEventStreamsPerClient = 16
    /// A comment line is sent on an idle event stream this often (keeps proxies from closing it).
    public var eventStreamHeartbeat: Duration = .seconds(15)
    /// Export jobs (`POST /v1/exports`) running at once; one more is 429.
    public var maxRunningExports = 2
    /// Where export jobs write their files (nil: a folder of this process in
    /// the system's temporary directory, removed at shutdown; the folders
    /// of ended processes there are removed at start).
    public var exportFolder: String?
    /// A finished export job and its files are kept this long.
    public var exportRetention: Duration = .seconds(3600)
    /// A connection idle this long is closed.
    public var idleTimeout: Duration = .seconds(75)
    /// A request head (request line and headers) must arrive whole within
    /// this time of a connection opening or of its first byte; else 408 and
    /// the connection is closed (nginx's `client_header_timeout`).
    public var headerTimeout: Duration = .seconds(10)
    /// The library's job table (`GET /v1/jobs/{batch}`), for a library
    /// shared through PostgreSQL; nil: a folder library, whose batch work
    /// runs in the process that asks for it.
    public var jobs: (any BatchJobService)?

    public init() {}
}

/// The request context of every route: Hummingbird's, plus the request id.
public struct ServerContext: RequestContext, RemoteAddressRequestContext {
    public var coreContext: CoreRequestContextStorage
    /// The request's id (`X-Request-Id` when the client sent a sane one, else a new one).
    public var requestID: String

    /// The client's address (the change feed's per-client share when there are no tokens).
    public var remoteAddress: SocketAddress?

    /// The request's connection (its owed `100 Continue` is sent through it: ``ExpectContinue``).
    let channel: any Channel

    public init(source: ApplicationRequestContextSource) {
        coreContext = .init(source: source)
        requestID = ""
        remoteAddress = source.channel.remoteAddress
        channel = source.channel
    }

    /// Upload bodies are streamed; other bodies are collected up to 1 MiB.
    public var maxUploadSize: Int { 1 << 20 }
}

/// The state every route shares: the library, its image manager, the limits.
final class ServerState: Sendable {
    let library: PhotoLibrary
    let images: ImageManager
    let configuration: ServerConfiguration
    let renders: RenderGate
    /// Recent render answers, served before the render queue.
    let renderAnswers: EncodedRenderCache
    /// Photos' current revisions, for revision-addressed render hits without a catalog read.
    let revisions: RevisionMemo
    let metrics = ServerMetrics()
    let shutdown = ShutdownFlag()
    /// Export jobs and their files.
    let exports: ExportJobs
    /// Event streams open now (bounded by `maxEventStreams` and `maxEventStreamsPerClient`).
    let eventStreams: StreamSlots

    init(library: PhotoLibrary, configuration: ServerConfiguration) {
        self.library = library
        self.images = ImageManager(library: library)
        self.configuration = configuration
        self.renders = RenderGate(concurrency: configuration.renderConcurrency, queueDepth: configuration.renderQueueDepth, metrics: metrics)
        self.renderAnswers = EncodedRenderCache(limit: configuration.renderAnswerCacheBytes)
        self.revisions = RevisionMemo(library: library)
        self.exports = ExportJobs(folder: configuration.exportFolder, maxRunning: configuration.maxRunningExports,
                                  retention: Double(configuration.exportRetention.components.seconds))
        self.eventStreams = StreamSlots(total: configuration.maxEventStreams, perClient: configuration.maxEventStreamsPerClient)
    }
}

/// Set once the service is told to stop: new requests are refused (503), the
/// ones running finish.
final class ShutdownFlag: Sendable {
    private struct State {
        var isSet = false
        var nextID = 0
        var waiters: [Int: CheckedContinuation<Void, Never>] = [:]
    }
    private let state = Mutex(State())
    var isSet: Bool { state.withLock { $0.isSet } }

    func set() {
        let waiters = state.withLock { state in
            state.isSet = true
            defer { state.waiters = [:] }
            return state.waiters
        }
        for waiter in waiters.values { waiter.resume() }
    }

    /// Returns once the flag is set or the calling task is cancelled
    /// (long-lived responses such as the event stream end on it, so a
    /// graceful shutdown is not held up by them).
    func wait() async {
        let id = state.withLock { state in
            defer { state.nextID += 1 }
            return state.nextID
        }
        await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                let now = state.withLock { state in
                    if state.isSet || Task.isCancelled { return true }
                    state.waiters[id] = continuation
                    return false
                }
                if now { continuation.resume() }
            }
        } onCancel: {
            state.withLock { $0.waiters.removeValue(forKey: id) }?.resume()
        }
    }
}

/// The HTTP application with the shutdown flag set the moment a graceful
/// shutdown begins. Hummingbird shuts its own services down in reverse
/// order, the HTTP server first, so a service added beside it would hear of
/// the shutdown only after the server had waited for every open response —
/// an event stream waiting on the flag would hold a SIGTERM up for ever.
/// Wrapping the whole application sets the flag first: new requests are
/// refused, event streams end, and the server then drains what is in flight.
struct GracefulApplication<Inner: ApplicationProtocol>: ApplicationProtocol {
    typealias Responder = Inner.Responder
    let inner: Inner
    let flag: ShutdownFlag
    /// Runs once the server has stopped (export files are removed).
    let stopped: @Sendable () -> Void

    var responder: Responder { get async throws { try await inner.responder } }
    var server: HTTPServerBuilder { inner.server }
    var eventLoopGroup: any EventLoopGroup { inner.eventLoopGroup }
    var configuration: ApplicationConfiguration { inner.configuration }
    var logger: Logger { inner.logger }
    var services: [any Service] { inner.services }
    var processesRunBeforeServerStart: [@Sendable () async throws -> Void] { inner.processesRunBeforeServerStart }
    @Sendable func onServerRunning(_ channel: any Channel) async { await inner.onServerRunning(channel) }

    func run() async throws {
        defer { stopped() }
        try await withGracefulShutdownHandler {
            try await inner.run()
        } onGracefulShutdown: {
            flag.set()
        }
    }
}

/// Builds the HTTP service over a library. `run()`/`runService()` it; a
/// SIGTERM finishes the requests in flight, refuses new ones and returns.
public func makeServer(library: PhotoLibrary, configuration: ServerConfiguration, logger: Logger,
                       onServerRunning: @escaping @Sendable (Int) async -> Void = { _ in }) -> some ApplicationProtocol {
    let state = ServerState(library: library, configuration: configuration)
    let router = makeRouter(state: state)
    let application = Application(
        router: router,
        server: .http1(configuration: .init(additionalChannelHandlers: [RequestHeadDeadline(limit: .init(configuration.headerTimeout)), ExpectContinue()],
                                            idleTimeout: .init(configuration.idleTimeout))),
        // A burst of connections waits in the kernel's queue (capped by
        // net.core.somaxconn) instead of having its SYNs dropped at 256, so a
        // loaded server answers 503 with Retry-After rather than time-outs.
        configuration: .init(address: .hostname(configuration.host, port: configuration.port), serverName: "photoedit", backlog: 4096),
        onServerRunning: { channel in await onServerRunning(channel.localAddress?.port ?? configuration.port) },
        logger: logger
    )
    return GracefulApplication(inner: application, flag: state.shutdown, stopped: { state.exports.shutdown() })
}

/// The routes of API v1 (and the health checks, the web editor's files).
func makeRouter(state: ServerState) -> Router<ServerContext> {
    // HEAD is answered as GET without its body (same status and headers,
    // Content-Length included): curl -I, link checkers and caches use it.
    let router = Router(context: ServerContext.self, options: .autoGenerateHeadEndpoints)
    router.add(middleware: RequestIDMiddleware(metrics: state.metrics))
    router.add(middleware: CORSMiddleware(origins: state.configuration.corsOrigins))
    router.add(middleware: ProblemMiddleware())
    router.add(middleware: ShutdownMiddleware(flag: state.shutdown))
    router.add(middleware: TimeoutMiddleware(limit: state.configuration.requestTimeout))
    router.add(middleware: ExpectContinueMiddleware())

    addMetricsRoute(router, state: state)
    addOpenAPIRoute(router)
    router.get("/health") { _, _ in
        jsonResponse(.object(["status": .string("ok")]))
    }
    router.get("/ready") { _, _ -> Response in
        if state.shutdown.isSet {
            throw Problem(.serviceUnavailable, code: "shutting-down", "the server is shutting down",
                          headers: [.retryAfter: "5"])
        }
        let sequence = try await blocking { try state.library.latestChangeSequence() }
        return jsonResponse(.object(["status": .string("ready"), "changeSequence": .number(Double(sequence))]))
    }
    addWebRoutes(router)

    let v1 = router.group("v1").add(middleware: AuthMiddleware(tokens: state.configuration.tokens, signer: state.configuration.signer))
        .add(middleware: RevisionMemoMiddleware<ServerContext>(memo: state.revisions))
    addAssetRoutes(v1, state: state)
    addEditRoutes(v1, state: state)
    addRenderRoutes(v1, state: state)
    addResourceRoutes(v1, state: state)
    addContentEditingRoutes(v1, state: state)
    addAlbumRoutes(v1, state: state)
    addFeedRoutes(v1, state: state)
    addPresetRoutes(v1, state: state)
    addVersionRoutes(v1, state: state)
    addCapabilitiesRoute(v1, state: state)
    addJobRoutes(v1, state: state)
    addExportRoutes(v1, state: state)
    return router
}

/// A JSON response (sorted keys, as the engine's canonical JSON).
func jsonResponse(_ value: JSONValue, status: HTTPResponse.Status = .ok, headers: HTTPFields = [:]) -> Response {
    var headers = headers
    headers[.contentType] = "application/json"
    return Response(status: status, headers: headers, body: .init(byteBuffer: ByteBuffer(string: value.canonicalText)))
}

/// Runs blocking engine work on the engine's ``BlockingExecutor`` (bounded,
/// never on an event loop or Swift's cooperative pool); a cancelled request
/// returns at once with `CancellationError`.
@inline(__always)
func blocking<T: Sendable>(_ work: @escaping @Sendable () throws -> T) async throws -> T {
    try await BlockingExecutor.run(returningOnCancel: true, work)
}

/// Gives each request an id (the client's `X-Request-Id` when it is short
/// and plain, else a new one), echoes it, logs the request with it (one
/// structured entry: `request` with request_id, method, path, route, status
/// and duration_ms as metadata) and counts it in the metrics.
struct RequestIDMiddleware: RouterMiddleware {
    typealias Context = ServerContext
    let metrics: ServerMetrics

    func handle(_ request: Request, context: ServerContext, next: (Request, ServerContext) async throws -> Response) async throws -> Response {
        var context = context
        let given = request.headers[.requestID] ?? ""
        let plain = !given.isEmpty && given.count <= 64 && given.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-" || $0 == "_") }
        context.requestID = plain ? given : UUID.random().uuidString.lowercased()
        context.logger[metadataKey: "request_id"] = .string(context.requestID)
        let started = ContinuousClock.now
        do {
            var response = try await next(request, context)
            response.headers[.requestID] = context.requestID
            log(request, status: response.status, since: started, context: context)
            return response
        } catch let error as HTTPResponseError {
            // Answer the problem here so the request id goes with it.
            var response = try error.response(from: request, context: context)
            response.headers[.requestID] = context.requestID
            log(request, status: response.status, since: started, context: context)
            return response
        }
    }

    private func log(_ request: Request, status: HTTPResponse.Status, since started: ContinuousClock.Instant, context: ServerContext) {
        let elapsed = ContinuousClock.now - started
        let ms = Double(elapsed.components.seconds) * 1000 + Double(elapsed.components.attoseconds) / 1e15
        metrics.request(method: request.method, route: context.endpointPath, status: status.code, duration: elapsed)
        let level: Logger.Level = status.code >= 500 ? .warning : .info
        context.logger.log(level: level, "request", metadata: [
            "method": .string(request.method.rawValue),
            "path": .string(String(request.uri.path.prefix(256))),
            "route": .string(context.endpointPath.flatMap { $0 == "NotFound" ? nil : $0 } ?? "unmatched"),
            "status": .stringConvertible(status.code),
            "duration_ms": .string(String(format: "%.1f", ms)),
        ])
    }
}

/// After SIGTERM: every new request gets 503 with `Retry-After`.
struct ShutdownMiddleware: RouterMiddleware {
    typealias Context = ServerContext
    let flag: ShutdownFlag

    func handle(_ request: Request, context: ServerContext, next: (Request, ServerContext) async throws -> Response) async throws -> Response {
        if flag.isSet && request.uri.path != "/health" {
            throw Problem(.serviceUnavailable, code: "shutting-down", "the server is shutting down", headers: [.retryAfter: "5"])
        }
        return try await next(request, context)
    }
}

extension HTTPField.Name {
    static let requestID = HTTPField.Name("X-Request-Id")!
}

#endif
