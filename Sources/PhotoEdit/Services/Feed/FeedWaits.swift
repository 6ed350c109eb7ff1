import Foundation
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// Where every change-feed reader of the process waits, holding no thread:
/// one thread of its own `poll(2)`s the readers' inotify descriptors and
/// keeps their deadlines, and resumes each waiting reader's continuation
/// when its descriptor is readable, its deadline passes, or it is woken
/// (`FeedWaiter.wake`). A thousand open streams (SSE clients, `photoedit
/// watch`) are a thousand registrations here, not a thousand threads.
package final class FeedWaits: Sendable {
    package static let shared = FeedWaits()

    private struct Registration {
        var fd: Int32
        var deadline: ContinuousClock.Instant
        /// Called once, outside the lock, with the registration's id: true when the descriptor was readable.
        var fire: @Sendable (UInt64, Bool) -> Void
    }

    private struct State {
        var waiting: [UInt64: Registration] = [:]
        var nextID: UInt64 = 1
        var started = false
    }

    private let state = Mutex(State())
    /// Written to when a registration arrives or leaves, so the thread's `poll` looks again.
    private let wakePipe: (read: Int32, write: Int32)

    private init() {
        var fds: [Int32] = [-1, -1]
        if pipe(&fds) == 0 {
            for fd in fds {
                _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
                _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
            }
        }
        wakePipe = (fds[0], fds[1])
    }

    /// How many readers wait now (tests).
    package var waitingCount: Int { state.withLock { $0.waiting.count } }

    /// Calls `fire` once: with true when `fd` (-1 for none) is readable,
    /// with false at `deadline`. Returns the registration's id for `cancel`.
    package func register(fd: Int32, deadline: ContinuousClock.Instant, fire: @escaping @Sendable (UInt64, Bool) -> Void) -> UInt64 {
        let (id, start) = state.withLock { s -> (UInt64, Bool) in
            defer { s.nextID += 1 }
            s.waiting[s.nextID] = Registration(fd: fd, deadline: deadline, fire: fire)
            let start = !s.started
            s.started = true
            return (s.nextID, start)
        }
        if start { startThread() } else { poke() }
        return id
    }

    /// Forgets a registration whose `fire` has not been called; returns whether it was still there.
    @discardableResult
    package func cancel(_ id: UInt64) -> Bool {
        let removed = state.withLock { $0.waiting.removeValue(forKey: id) != nil }
        if removed { poke() }
        return removed
    }

    private func poke() {
        guard wakePipe.write >= 0 else { return }
        var byte: UInt8 = 1
        _ = write(wakePipe.write, &byte, 1)
    }

    private func startThread() {
        let thread = Thread { [self] in
            while true { turn() }
        }
        thread.name = "photoedit.feed-waits"
        thread.start()
    }

    /// One `poll` over every waiting descriptor, up to the nearest deadline
    /// (at most a second, so a lost poke costs at most that), then the
    /// registrations that are due fire.
    private func turn() {
        let (ids, fds, nearest) = state.withLock { s -> ([UInt64], [Int32], ContinuousClock.Instant?) in
            let entries = s.waiting.filter { $0.value.fd >= 0 }
            return (entries.map(\.key), entries.map(\.value.fd), s.waiting.values.map(\.deadline).min())
        }
        var polled = [pollfd(fd: wakePipe.read, events: Int16(POLLIN), revents: 0)]
        polled += fds.map { pollfd(fd: $0, events: Int16(POLLIN), revents: 0) }
        var timeout = 1000
        if let nearest {
            let left = ContinuousClock.now.duration(to: nearest)
            let ms = left.components.seconds * 1000 + left.components.attoseconds / 1_000_000_000_000_000
            timeout = Int(max(0, min(1000, ms + (left > .zero ? 1 : 0))))
        }
        _ = poll(&polled, nfds_t(polled.count), Int32(timeout))
        if polled[0].revents & Int16(POLLIN) != 0 {
            var buffer = [UInt8](repeating: 0, count: 256)
            while read(wakePipe.read, &buffer, buffer.count) > 0 {}
        }
        var readable = Set<UInt64>()
        for (index, id) in ids.enumerated() where polled[index + 1].revents != 0 { readable.insert(id) }
        let now = ContinuousClock.now
        let due = state.withLock { s -> [(id: UInt64, fire: @Sendable (UInt64, Bool) -> Void)] in
            var due: [(id: UInt64, fire: @Sendable (UInt64, Bool) -> Void)] = []
            for (id, registration) in s.waiting where readable.contains(id) || registration.deadline <= now {
                due.append((id, registration.fire))
                s.waiting[id] = nil
            }
            return due
        }
        for entry in due { entry.fire(entry.id, readable.contains(entry.id)) }
    }
}

/// One change-feed reader's waits (`CatalogChangeSignal`'s `next`): at most
/// one at a time, resumed by its descriptor, its deadline, `wake()` (a
/// notification, `stop()`), whichever comes first. A wake with nobody
/// waiting is kept for the next wait.
package final class FeedWaiter: Sendable {
    private struct State {
        var continuation: CheckedContinuation<Bool, Never>?
        var registration: UInt64?
        var pending = false
        /// Which wait is current (a wait's own late steps never touch the next one's state).
        var generation: UInt64 = 0
    }

    private let state = Mutex(State())

    package init() {}

    /// Suspends until `fd` (-1 for none) is readable (true), `limit` passes
    /// (false) or `wake()` is called (false); returns at once after a wake
    /// that found nobody waiting.
    package func wait(fd: Int32, limit: Duration) async -> Bool {
        await withCheckedContinuation { (continuation: CheckedContinuation<Bool, Never>) in
            let (now, generation) = state.withLock { s -> (Bool, UInt64) in
                if s.pending {
                    s.pending = false
                    return (true, s.generation)
                }
                s.generation += 1
                s.continuation = continuation
                return (false, s.generation)
            }
            if now { continuation.resume(returning: false); return }
            let id = FeedWaits.shared.register(fd: fd, deadline: .now + limit) { [self] id, readable in
                fired(id, readable: readable)
            }
            // Woken between the two locks: the registration is left to cancel here.
            let orphan = state.withLock { s -> Bool in
                guard s.continuation != nil, s.generation == generation else { return true }
                s.registration = id
                return false
            }
            if orphan { FeedWaits.shared.cancel(id) }
        }
    }

    /// Ends the current wait (or the next one, at once).
    package func wake() {
        let (continuation, registration) = state.withLock { s -> (CheckedContinuation<Bool, Never>?, UInt64?) in
            guard let continuation = s.continuation else {
                s.pending = true
                return (nil, nil)
            }
            defer { s.continuation = nil; s.registration = nil }
            return (continuation, s.registration)
        }
        if let registration { FeedWaits.shared.cancel(registration) }
        continuation?.resume(returning: false)
    }

    /// The shared thread's call: resumes the wait `id` belongs to (or the
    /// one whose id is not stored yet), never a later one.
    private func fired(_ id: UInt64, readable: Bool) {
        let continuation = state.withLock { s -> CheckedContinuation<Bool, Never>? in
            guard s.continuation != nil, s.registration == nil || s.registration == id else { return nil }
            defer { s.continuation = nil; s.registration = nil }
            return s.continuation
        }
        continuation?.resume(returning: readable)
    }
}
