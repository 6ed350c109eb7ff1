// Only with the `Server` trait (Package.swift): without it the module is empty.
#if Server
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
    v1.get("changes/stream") { request, context -> Response in
        var since = try integer(request.formQuery(), "since", in: 0...Int(Int64.max >> 1))
        if let last = request.headers[.lastEventID] {
            guard let n = Int(last.trimmingCharacters(in: .whitespaces)), n >= 0 else {
                throw Problem(.badRequest, code: "invalid-last-event-id", "Last-Event-ID must be a sequence number")
            }
            since = n
        }
        let client = streamClient(request, context: context, tokens: state.configuration.tokens)
        let slots = state.eventStreams
        do throws(StreamSlots.Refusal) {
            try slots.admit(client)
        } catch .full {
            throw Problem(.serviceUnavailable, code: "too-many-streams", "\(slots.total) event streams are open; try again later",
                          headers: [.retryAfter: "30"])
        } catch .clientFull {
            throw Problem(.tooManyRequests, code: "too-many-client-streams",
                          "this client has \(slots.perClient) event streams open, its most; close one first",
                          headers: [.retryAfter: "30"])
        }
        let stream: AsyncThrowingStream<ChangeSet, any Error>
        do {
            let from = since
            stream = try await blocking { try library.changeSets(since: from) }
        } catch {
            slots.release(client)
            throw error
        }
        let heartbeat = state.configuration.eventStreamHeartbeat
        let shutdown = state.shutdown
        let exportProgress = state.exports.progress.listen()
        let body = ResponseBody { writer in
            // The slot is given back as soon as the stream ends, and it ends
            // as soon as the client's connection closes (a reset, a close):
            // the request's inbound side ending is heard at once, not at the
            // next write to a dead socket.
            defer { slots.release(client) }
            let (events, queue) = AsyncStream.makeStream(of: StreamEvent.self)
            try await request.body.consumeWithInboundCloseHandler { _ in
                // Tell the client how long to wait before reconnecting.
                try await writer.write(ByteBuffer(string: "retry: 2000\n\n"))
                try await withThrowingTaskGroup(of: Void.self) { group in
                    group.addTask {
                        for try await set in stream { queue.yield(.change(set)) }
                        queue.yield(.end)
                    }
                    group.addTask {
                        // Export jobs' progress (`event: export`, no id: not a change set).
                        for await job in exportProgress { queue.yield(.export(job)) }
                    }
                    group.addTask {
                        while !Task.isCancelled {
                            try await Task.sleep(for: heartbeat)
                            queue.yield(.heartbeat)
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
                        queue.yield(.end)
                    }
                    loop: for await event in events {
                        switch event {
                        case let .change(set):
                            let data = changeSetJSON(set).canonicalText
                            try await writer.write(ByteBuffer(string: "id: \(set.seq)\nevent: change\ndata: \(data)\n\n"))
                        case let .export(job):
                            let data = exportProgressJSON(job).canonicalText
                            try await writer.write(ByteBuffer(string: "event: export\ndata: \(data)\n\n"))
                        case .heartbeat:
                            try await writer.write(ByteBuffer(string: ": keep-alive\n\n"))
                        case .end, .closed:
                            break loop
                        }
                    }
                    group.cancelAll()
                }
            } onInboundClosed: {
                queue.yield(.closed)
            }
            try await writer.finish(nil)
        }
        return Response(status: .ok, headers: [.contentType: "text/event-stream", .cacheControl: "no-store"], body: body)
    }
}

/// What an event stream sends next.
enum StreamEvent: Sendable {
    case change(ChangeSet)
    /// An export job's progress.
    case export(ExportJobs.Job)
    case heartbeat
    /// The feed or the server is ending the stream.
    case end
    /// The client's connection closed.
    case closed
}

/// Who an event stream counts against: the token's name when the server has
/// tokens, else the client's IP address.
func streamClient(_ request: Request, context: ServerContext, tokens: TokenStore) -> String {
    if !tokens.isEmpty, let header = request.headers[.authorization], header.lowercased().hasPrefix("bearer "),
       let (_, name) = tokens.lookup(String(header.dropFirst(7)).trimmingCharacters(in: .whitespaces)) {
        return "token:" + name
    }
    return "address:" + (context.remoteAddress?.ipAddress ?? "unknown")
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


/// An export job's progress as a stream event: id, state, total, completed, failed.
func exportProgressJSON(_ job: ExportJobs.Job) -> JSONValue {
    .object(["id": .string(job.id), "state": .string(job.state.rawValue), "total": .number(Double(job.total)),
             "completed": .number(Double(job.completed)), "failed": .number(Double(job.failures.count))])
}
#endif
