// Only with the `Server` trait (Package.swift): without it the module is empty.
#if Server
import HTTPTypes
import Hummingbird

/// Bounds the renders running at once and those waiting. A render past the
/// queue is refused at once with 429 and `Retry-After` (the client backs
/// off) rather than piling up memory; a waiting render whose request is
/// cancelled leaves the queue.
actor RenderGate {
    private let concurrency: Int
    private let queueDepth: Int
    private var running = 0
    private var waiting: [(id: Int, continuation: CheckedContinuation<Void, any Error>)] = []
    private var nextID = 0
    private let metrics: ServerMetrics?

    init(concurrency: Int, queueDepth: Int, metrics: ServerMetrics? = nil) {
        self.concurrency = max(1, concurrency)
        self.queueDepth = max(0, queueDepth)
        self.metrics = metrics
    }

    private func report() { metrics?.renderQueue(running: running, waiting: waiting.count) }

    /// Runs `work` when a slot is free.
    func run<T: Sendable>(_ work: @Sendable () async throws -> T) async throws -> T {
        try await acquire()
        defer { release() }
        return try await work()
    }

    /// Renders running and waiting now.
    var load: (running: Int, waiting: Int) { (running, waiting.count) }

    private func acquire() async throws {
        if running < concurrency {
            running += 1
            report()
            return
        }
        guard waiting.count < queueDepth else {
            metrics?.renderRejected()
            throw Problem(.tooManyRequests, code: "render-queue-full",
                          "\(running) renders are running and \(waiting.count) waiting; try again shortly",
                          headers: [.retryAfter: "2"])
        }
        let id = nextID
        nextID += 1
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                if Task.isCancelled { continuation.resume(throwing: CancellationError()); return }
                waiting.append((id, continuation))
                report()
            }
        } onCancel: {
            Task { await self.cancel(id) }
        }
    }

    private func cancel(_ id: Int) {
        guard let index = waiting.firstIndex(where: { $0.id == id }) else { return }
        waiting.remove(at: index).continuation.resume(throwing: CancellationError())
        report()
    }

    private func release() {
        if waiting.isEmpty {
            running -= 1
        } else {
            // The slot passes straight to the first waiter.
            waiting.removeFirst().continuation.resume()
        }
        report()
    }
}
#endif
