// Only with the `Server` trait (Package.swift): without it the module is empty.
#if Server
import Foundation
import Hummingbird
import PhotoEdit
import Synchronization

/// The current revision (and full size) of photos the render route has read,
/// so a warm hit of a revision-addressed URL (`…/render?rev=N`, immutable)
/// is answered without reading the catalog: the answer is found by the
/// request alone, from memory.
///
/// What is remembered is forgotten when the photo changes:
/// - at once when a write request of this server ends (any method but
///   GET/HEAD/OPTIONS under `/v1`: ``RevisionMemoMiddleware``);
/// - when the library's change feed (``PhotoLibrary/changeSets(since:)``)
///   reports it, for commits by other processes or nodes — within the feed's
///   latency (milliseconds: inotify, or PostgreSQL's LISTEN/NOTIFY).
///
/// So a `rev=N` URL whose photo another process has just edited may still be
/// served for those milliseconds — the very image it names, as a CDN holding
/// the immutable answer would. A read that raced a change is never kept: each
/// entry is stored only if nothing was forgotten since its catalog read began
/// (a generation count). The feed is watched from the first revision-addressed
/// request on; if it ends, the memo stays empty and every request reads the
/// catalog as before.
final class RevisionMemo: Sendable {
    /// What the render route needs of a photo.
    struct Subject: Sendable, Equatable {
        let id: String
        let revision: Int
        let pixelWidth: Int
        let pixelHeight: Int
    }

    private enum Feed { case idle, starting, watching, failed }
    private struct State {
        var known: [String: Subject] = [:]
        var generation: UInt64 = 0
        var feed = Feed.idle
        var watcher: Task<Void, Never>?
    }

    /// Most photos remembered; past it the memo starts again empty.
    static let capacity = 65_536

    private let library: PhotoLibrary
    private let state = Mutex(State())
    private let answered = Atomic<Int>(0)

    /// How many requests were answered from memory (no catalog read).
    var answeredFromMemory: Int { answered.load(ordering: .relaxed) }

    /// Counts an answer made without reading the catalog.
    func countAnswer() { answered.add(1, ordering: .relaxed) }

    init(library: PhotoLibrary) {
        self.library = library
    }

    deinit {
        state.withLock { $0.watcher?.cancel() }
    }

    /// The photo named `id` (as the request names it), when remembered.
    func subject(_ id: String) -> Subject? {
        state.withLock { $0.feed == .watching ? $0.known[id] : nil }
    }

    /// Take this before a catalog read whose result may be remembered.
    var generation: UInt64 { state.withLock { $0.generation } }

    /// Remembers `subject` under `id` if nothing was forgotten since
    /// `generation` was taken (else the read may predate a change whose news
    /// came in between). Starts watching the change feed on first use.
    func remember(_ id: String, _ subject: Subject, readAt generation: UInt64) {
        let start = state.withLock { state -> Bool in
            switch state.feed {
            case .watching:
                guard state.generation == generation else { return false }
                if state.known.count >= Self.capacity { state.known = [:] }
                state.known[id] = subject
                return false
            case .idle:
                state.feed = .starting
                return true
            case .starting, .failed:
                return false
            }
        }
        if start { watch() }
    }

    /// Forgets every photo (a write request of this server ended).
    func forgetAll() {
        state.withLock { state in
            state.generation &+= 1
            state.known = [:]
        }
    }

    /// Forgets the photos named (ids as the catalog names them).
    private func forget(_ ids: [String]) {
        guard !ids.isEmpty else { return }
        state.withLock { state in
            state.generation &+= 1
            let changed = Set(ids)
            state.known = state.known.filter { !changed.contains($0.value.id) }
        }
    }

    private func watch() {
        let library = library
        let task = Task.detached { [weak self] in
            do {
                let changes = try await BlockingExecutor.run { try library.changeSets() }
                // Anything read before the feed's starting point may be older
                // than a change the feed will never report: start afresh.
                self?.state.withLock { state in
                    state.generation &+= 1
                    state.known = [:]
                    if state.feed == .starting { state.feed = .watching }
                }
                for try await change in changes {
                    guard let self else { return }
                    self.forget(change.assetIdentifiers)
                }
            } catch {}
            // The feed ended (an error, or the server is going away): remember nothing more.
            self?.state.withLock { state in
                state.feed = .failed
                state.known = [:]
            }
        }
        state.withLock { $0.watcher = task }
    }
}

extension RevisionMemo.Subject {
    init(_ asset: Asset) {
        self.init(id: asset.id, revision: asset.revision, pixelWidth: asset.pixelWidth, pixelHeight: asset.pixelHeight)
    }
}

/// Forgets the remembered revisions when a write request ends, so this
/// server never answers a revision its own write just replaced.
struct RevisionMemoMiddleware<Context: RequestContext>: RouterMiddleware {
    let memo: RevisionMemo

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        switch request.method {
        case .get, .head, .options:
            return try await next(request, context)
        default:
            defer { memo.forgetAll() }
            return try await next(request, context)
        }
    }
}
#endif
