import Foundation
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// What wakes a change feed's reader (`PhotoLibrary.changeSets`) when a
/// commit may have added changes: the library folder's inotify for the
/// SQLite catalog (`CatalogWatcher`), the catalog's own notifications for a
/// shared one (PostgreSQL's LISTEN/NOTIFY, in PhotoEditPostgres). The feed
/// table stays the truth: a wake-up only says "look now", and `next`
/// returns after a while even without one (a missed wake-up costs a delay,
/// never a change; an early return costs one more look).
package protocol CatalogChangeSignal: AnyObject, Sendable {
    /// Suspends the reader, holding no thread (its wait is a registration
    /// with ``FeedWaits``), until a commit may have added changes, the
    /// signal's safety poll runs out, or `stop()`.
    func next() async
    /// Makes `next` return at once, now and from now on.
    func stop()
    /// Whether `stop()` was called.
    var isStopped: Bool { get }
}

/// Wakes a waiting reader when the catalog's files change, in this process
/// or another: inotify on the library folder (a commit writes
/// `catalog.sqlite-wal`; a checkpoint writes `catalog.sqlite`), waited for
/// by ``FeedWaits``' one thread. Without inotify, `next` simply times out
/// and the reader polls.
final class CatalogWatcher: CatalogChangeSignal, Sendable {
    private let inotify: Int32
    private let waiter = FeedWaiter()
    private struct State {
        var stopped = false
        /// Until when `next` looks again every 5 ms.
        var burstUntil: UInt64 = 0
    }
    private let state = Mutex(State())

    /// How many watchers of `folder` exist (tests check that cancelling ends
    /// them; counted per folder, since other tests' watchers come and go).
    static func live(watching folder: String) -> Int { counter.value(folder) }
    private static let counter = Counter()
    private let folder: String

    private final class Counter: Sendable {
        private let counts = Mutex<[String: Int]>([:])
        func value(_ folder: String) -> Int { counts.withLock { $0[folder] ?? 0 } }
        func add(_ n: Int, _ folder: String) {
            counts.withLock { counts in
                counts[folder, default: 0] += n
                if counts[folder] == 0 { counts[folder] = nil }
            }
        }
    }

    /// Whether change notifications are available (else the caller must poll often).
    var notifies: Bool { inotify >= 0 }

    init(folder: String) {
        self.folder = folder
        Self.counter.add(1, folder)
        var notify: Int32 = -1
        #if canImport(Glibc)
        notify = inotify_init1(Int32(IN_NONBLOCK | IN_CLOEXEC))
        if notify >= 0 {
            let mask = UInt32(IN_MODIFY | IN_CREATE | IN_MOVED_TO | IN_CLOSE_WRITE)
            if inotify_add_watch(notify, folder, mask) < 0 {
                close(notify)
                notify = -1
            }
        }
        #endif
        inotify = notify
    }

    deinit {
        Self.counter.add(-1, folder)
        if inotify >= 0 { close(inotify) }
    }

    var isStopped: Bool { state.withLock { $0.stopped } }

    /// Makes `next` return at once, now and from now on.
    func stop() {
        state.withLock { $0.stopped = true }
        waiter.wake()
    }

    /// A commit's WAL write wakes us before the commit is visible (fsync,
    /// then the WAL index): look again every 5 ms for a while after a
    /// wake-up, then wait for the next one (with a slow poll as a safety net).
    func next() async {
        guard !isStopped else { return }
        let now = DispatchTime.now().uptimeNanoseconds
        let burstUntil = state.withLock { $0.burstUntil }
        let timeout: Duration = !notifies ? .milliseconds(15) : (now < burstUntil ? .milliseconds(5) : .milliseconds(250))
        guard await waiter.wait(fd: inotify, limit: timeout) else { return }
        // Drain the events: any change is reason enough to look.
        var buffer = [UInt8](repeating: 0, count: 4096)
        while read(inotify, &buffer, buffer.count) > 0 {}
        state.withLock { $0.burstUntil = now + 200_000_000 }
    }
}

extension Feed {
    /// How long the change feed's reads may keep failing before the feed
    /// ends with the error (seconds).
    static let feedRetryLimit: TimeInterval = 30

    /// The façade's `changeSets(since:)`.
    func changeSets(since seq: Int? = nil) throws -> AsyncThrowingStream<ChangeSet, Error> {
        let start = try seq ?? latestChangeSequence()
        let watcher: any CatalogChangeSignal = catalog.changeSignal() ?? CatalogWatcher(folder: layout.root.path)
        let (stream, continuation) = AsyncThrowingStream<ChangeSet, Error>.makeStream()
        // The reader is a task: its reads run on the BlockingExecutor, its
        // waits are registrations with FeedWaits — no thread of its own.
        let reader = Task.detached { [self] in
            var last = start
            // A read that fails (a shared catalog's connection lost) is tried
            // again at the watcher's pace; the feed ends with the error only
            // when reads keep failing for a while (the feed table is the
            // truth: nothing is skipped meanwhile).
            var failingSince: Date?
            while !watcher.isStopped {
                do {
                    let from = last
                    let sets = try await BlockingExecutor.run { try changes(since: from, limit: 100) }
                    failingSince = nil
                    for set in sets {
                        continuation.yield(set)
                        last = set.seq
                    }
                    if sets.count == 100 { continue }
                } catch {
                    let since = failingSince ?? Date()
                    if Date().timeIntervalSince(since) > Self.feedRetryLimit {
                        continuation.finish(throwing: error)
                        return
                    }
                    failingSince = since
                    try? await Task.sleep(for: .milliseconds(100))
                }
                await watcher.next()
            }
            continuation.finish()
        }
        continuation.onTermination = { _ in
            watcher.stop()
            reader.cancel()
        }
        return stream
    }
}
