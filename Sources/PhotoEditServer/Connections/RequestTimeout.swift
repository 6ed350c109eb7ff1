// Only with the `Server` trait (Package.swift): without it the module is empty.
#if Server
import Hummingbird
import Synchronization

/// A request that takes longer than the limit is answered 503 with
/// `Retry-After`; its engine work (on the ``BlockingExecutor``, see
/// `blocking`) finishes in the background and its result is dropped.
///
/// The request runs in a task of its own that the server's one
/// ``RequestDeadlines`` sweep cancels when its time is up; no timer is set
/// per request (a `Task.sleep` each was a Dispatch timer armed and disarmed
/// through Dispatch's manager thread, a wake-up on every render hit's path).
struct TimeoutMiddleware: RouterMiddleware {
    typealias Context = ServerContext
    let limit: Duration
    let deadlines: RequestDeadlines

    init(limit: Duration) {
        self.limit = limit
        deadlines = RequestDeadlines(tick: RequestDeadlines.tick(for: limit))
    }

    func handle(_ request: Request, context: ServerContext, next: (Request, ServerContext) async throws -> Response) async throws -> Response {
        try await withoutActuallyEscaping(next) { next in
            // `work` is awaited on every path below before this closure
            // returns, so `next` does not outlive the call.
            nonisolated(unsafe) let next = next
            let work = Task { try await next(request, context) }
            let ticket = deadlines.add(ContinuousClock.now + limit) { work.cancel() }
            let result = await withTaskCancellationHandler {
                await work.result
            } onCancel: {
                work.cancel()
            }
            if deadlines.remove(ticket) {
                throw Problem(.serviceUnavailable, code: "timeout", "the request took longer than \(limit.components.seconds) s",
                              headers: [.retryAfter: "10"])
            }
            return try result.get()
        }
    }
}

/// The deadlines of the requests under way, and one sweep that cancels
/// those past theirs: it runs every `tick` while any request is under way
/// and stops when none is.
final class RequestDeadlines: Sendable {
    private struct Entry {
        let deadline: ContinuousClock.Instant
        let cancel: @Sendable () -> Void
        var expired = false
    }

    private struct State {
        var next: UInt64 = 0
        var entries: [UInt64: Entry] = [:]
        var sweeping = false
    }

    private let state = Mutex(State())
    private let tick: Duration

    /// How often deadlines of `limit` are looked at: a tenth of a second, or
    /// a quarter of a shorter limit (a request is cut off between its
    /// deadline and a tick later).
    static func tick(for limit: Duration) -> Duration {
        max(.milliseconds(1), min(.milliseconds(100), limit / 4))
    }

    init(tick: Duration) {
        self.tick = tick
    }

    /// Registers a request due by `deadline`; `cancel` is called (once, from
    /// the sweep) if it is still registered then. Returns its ticket.
    func add(_ deadline: ContinuousClock.Instant, cancel: @escaping @Sendable () -> Void) -> UInt64 {
        let (ticket, start) = state.withLock { state -> (UInt64, Bool) in
            state.next &+= 1
            state.entries[state.next] = Entry(deadline: deadline, cancel: cancel)
            defer { state.sweeping = true }
            return (state.next, !state.sweeping)
        }
        if start {
            Task.detached { [self] in await sweep() }
        }
        return ticket
    }

    /// Unregisters a request; whether its deadline passed (it was cancelled).
    func remove(_ ticket: UInt64) -> Bool {
        state.withLock { $0.entries.removeValue(forKey: ticket)?.expired ?? false }
    }

    /// How many requests are registered, and whether the sweep runs (for tests).
    var count: Int { state.withLock { $0.entries.count } }
    var isSweeping: Bool { state.withLock { $0.sweeping } }

    private func sweep() async {
        while true {
            try? await Task.sleep(for: tick)
            let now = ContinuousClock.now
            let due = state.withLock { state -> [@Sendable () -> Void]? in
                guard !state.entries.isEmpty else {
                    state.sweeping = false
                    return nil
                }
                var due: [@Sendable () -> Void] = []
                for (ticket, entry) in state.entries where !entry.expired && entry.deadline <= now {
                    state.entries[ticket]?.expired = true
                    due.append(entry.cancel)
                }
                return due
            }
            guard let due else { return }
            // Outside the lock: cancelling runs the task's cancellation handlers.
            for cancel in due { cancel() }
        }
    }
}
#endif
