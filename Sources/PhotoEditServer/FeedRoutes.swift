import Foundation
import HTTPTypes
import Hummingbird
import PhotoEdit
import ServiceLifecycle

/// The filter declarations and the change feed (a page of it, or a
/// server-sent event stream resumable with `Last-Event-ID`).
func addFeedRoutes(_ v1: RouterGroup<ServerContext>, state: ServerState) {
    let library = state.library

    // GET /v1/filters: every filter's declaration, in pipeline order; the
    // filters that hold lists (local, retouch) add their `structure`.
    v1.get("filters") { _, _ -> Response in
        jsonResponse(.object(["filters": .array(library.registry.filters.map(\.jsonDescription))]))
    }

    // GET /v1/changes?since=N&limit=M: the change sets after N (oldest first,
    // at most M, default 100), one entry per changed object, and the latest sequence number.
    v1.get("changes") { request, _ -> Response in
        let query = request.formQuery()
        let since = try integer(query, "since", in: 0...Int(Int64.max >> 1)) ?? 0
        let limit = try integer(query, "limit", in: 1...1000) ?? 100
        let (entries, latest) = try await blocking {
            (try library.changeEntries(since: since, limit: limit), try library.latestChangeSequence())
        }
        let next = entries.last?.seq ?? since
        return jsonResponse(.object([
            "changes": .array(entries.map(changeJSON)),
            "next": .number(Double(next)),
            "latest": .number(Double(latest)),
            "more": .bool(next < latest),
        ]))
    }

    // GET /v1/changes/stream?since=N (or Last-Event-ID: N): the change sets
    // after N, then each one as it is committed, as server-sent events
    // (`id:` the sequence number, `event: change`, `data:` the set as JSON).
    // Without either, only changes from now on.
    v1.get("changes/stream") { request, _ -> Response in
        var since = try integer(request.formQuery(), "since", in: 0...Int(Int64.max >> 1))
        if let last = request.headers[.lastEventID] {
            guard let n = Int(last.trimmingCharacters(in: .whitespaces)), n >= 0 else {
                throw Problem(.badRequest, code: "invalid-last-event-id", "Last-Event-ID must be a sequence number")
            }
            since = n
        }
        let limit = state.configuration.maxEventStreams
        let admitted = state.eventStreams.withLock { open in
            guard open < limit else { return false }
            open += 1
            return true
        }
        guard admitted else {
            throw Problem(.serviceUnavailable, code: "too-many-streams", "\(limit) event streams are open; try again later",
                          headers: [.retryAfter: "30"])
        }
        let stream: AsyncThrowingStream<ChangeSet, any Error>
        do {
            let from = since
            stream = try await blocking { try library.changeSets(since: from) }
        } catch {
            state.eventStreams.withLock { $0 -= 1 }
            throw error
        }
        let heartbeat = state.configuration.eventStreamHeartbeat
        let shutdown = state.shutdown
        let body = ResponseBody { writer in
            defer { state.eventStreams.withLock { $0 -= 1 } }
            // Tell the client how long to wait before reconnecting.
            try await writer.write(ByteBuffer(string: "retry: 2000\n\n"))
            try await withThrowingTaskGroup(of: Void.self) { group in
                let events = EventQueue()
                group.addTask {
                    for try await set in stream { await events.push(.change(set)) }
                    await events.push(.end)
                }
                group.addTask {
                    while !Task.isCancelled {
                        try await Task.sleep(for: heartbeat)
                        await events.push(.heartbeat)
                    }
                }
                group.addTask {
                    // Either signal ends the stream: the flag (set first under
                    // `photoedit serve`) or the HTTP server's own graceful
                    // shutdown, which this connection's task inherits.
                    await withTaskGroup(of: Void.self) { signals in
                        signals.addTask { await shutdown.wait() }
                        signals.addTask { try? await gracefulShutdown() }
                        await signals.next()
                        signals.cancelAll()
                    }
                    await events.push(.end)
                }
                loop: while true {
                    switch await events.pop() {
                    case let .change(set):
                        let data = changeSetJSON(set).canonicalText
                        try await writer.write(ByteBuffer(string: "id: \(set.seq)\nevent: change\ndata: \(data)\n\n"))
                    case .heartbeat:
                        try await writer.write(ByteBuffer(string: ": keep-alive\n\n"))
                    case .end:
                        break loop
                    }
                }
                group.cancelAll()
            }
            try await writer.finish(nil)
        }
        return Response(status: .ok, headers: [.contentType: "text/event-stream", .cacheControl: "no-store"], body: body)
    }
}

/// What an event stream sends next.
enum StreamEvent: Sendable {
    case change(ChangeSet)
    case heartbeat
    case end
}

/// Events from several producers, in arrival order, to one writer.
actor EventQueue {
    private var items: [StreamEvent] = []
    private var waiter: CheckedContinuation<StreamEvent, Never>?

    func push(_ event: StreamEvent) {
        if let waiter {
            self.waiter = nil
            waiter.resume(returning: event)
        } else {
            items.append(event)
        }
    }

    func pop() async -> StreamEvent {
        if !items.isEmpty { return items.removeFirst() }
        return await withCheckedContinuation { waiter = $0 }
    }
}

/// A change-feed entry as JSON.
func changeJSON(_ e: ChangeEntry) -> JSONValue {
    .object([
        "seq": .number(Double(e.seq)), "time": .string(ISO8601DateFormatter().string(from: e.date)),
        "kind": .string(e.kind.rawValue), "type": .string(e.objectType.rawValue), "id": .string(e.identifier),
        "changes": .array(e.aspects.names.map { .string($0) }),
    ])
}

/// A change set (one commit) as JSON: its sequence number, time and entries.
func changeSetJSON(_ set: ChangeSet) -> JSONValue {
    .object([
        "seq": .number(Double(set.seq)), "time": .string(ISO8601DateFormatter().string(from: set.date)),
        "entries": .array(set.entries.map(changeJSON)),
    ])
}

extension HTTPField.Name {
    static let lastEventID = HTTPField.Name("Last-Event-ID")!
}

