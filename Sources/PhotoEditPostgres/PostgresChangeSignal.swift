import Foundation
import Logging
import PhotoEdit
import PostgresNIO
import Synchronization

/// The `photoedit_changes` notifications of one PostgreSQL catalog, for
/// every change feed reader of a `PostgresCatalogStore` (a server's event
/// streams, `photoedit watch`): one LISTEN connection per store, made when
/// a reader first waits, remade (at most once a second) when it is lost.
/// A commit's change set sends the NOTIFY (a trigger, PostgresSchema's
/// pg4); PostgreSQL delivers it once the commit is visible, so a woken
/// reader finds the change at once.
///
/// Everything here blocks the readers' own threads (the engine's feed
/// threads), never a task of Swift's cooperative pool: the connection is
/// made with `EventLoopFuture.wait()`, and the notifications arrive on
/// NIO's event loop, which only sets a flag and signals a condition.
final class PostgresChangeListener: Sendable {
    private struct State: ~Copyable {
        var connection: PostgresConnection?
        var connecting = false
        var lastAttempt: ContinuousClock.Instant?
        var readers: [ObjectIdentifier: PostgresChangeSubscription] = [:]
        var closed = false
    }

    static let channel = "photoedit_changes"
    private let location: PostgresCatalogLocation
    private let logger: Logger
    private let state = Mutex(State())
    /// How often a reader looks anyway (a notification lost with a connection is then made up for).
    let poll: Duration

    init(location: PostgresCatalogLocation, poll: Duration, logger: Logger) {
        self.location = location
        self.poll = poll
        self.logger = logger
    }

    deinit {
        close()
    }

    /// A new reader's wake-up; `stop()` ends it.
    func subscribe() -> PostgresChangeSubscription {
        let reader = PostgresChangeSubscription(listener: self)
        state.withLock { $0.readers[ObjectIdentifier(reader)] = reader }
        return reader
    }

    func remove(_ reader: PostgresChangeSubscription) {
        state.withLock { _ = $0.readers.removeValue(forKey: ObjectIdentifier(reader)) }
    }

    /// Whether the LISTEN connection is up.
    var isListening: Bool {
        state.withLock { $0.connection.map { !$0.isClosed } ?? false }
    }

    /// Readers currently subscribed (tests check that a stopped stream lets go).
    var readerCount: Int { state.withLock { $0.readers.count } }

    /// Makes the LISTEN connection when there is none (and the last attempt
    /// was over a second ago). Blocks the calling thread while connecting.
    func connectIfNeeded() {
        let attempt = state.withLock { s -> Bool in
            if s.closed || s.connecting || s.connection.map({ !$0.isClosed }) == true { return false }
            if let last = s.lastAttempt, last.duration(to: .now) < .seconds(1) { return false }
            s.connecting = true
            s.lastAttempt = .now
            s.connection = nil
            return true
        }
        guard attempt else { return }
        var made: PostgresConnection?
        do {
            let connection = try PostgresConnection.connect(on: PostgresConnection.defaultEventLoopGroup.any(),
                                                            configuration: location.connectionConfiguration, id: 0, logger: logger).wait()
            made = connection
            connection.addListener(channel: Self.channel) { [weak self] _, _ in self?.wakeAll() }
            // The handler sends LISTEN before this query; its answer means LISTEN is in force.
            _ = try connection.query("SELECT 1", logger: logger).wait()
            // A lost connection wakes the readers: they look, then poll until it is remade.
            connection.closeFuture.whenComplete { [weak self] _ in self?.wakeAll() }
        } catch {
            if let made { Self.discard(made) }
            made = nil
        }
        let keep = made
        let stale = state.withLock { s -> Bool in
            s.connecting = false
            if s.closed { return true }
            s.connection = keep
            return false
        }
        if let keep {
            if stale { Self.discard(keep); return }
            // Listening now: what was committed before is looked for once.
            wakeAll()
        }
    }

    private func wakeAll() {
        for reader in state.withLock({ Array($0.readers.values) }) { reader.wake() }
    }

    /// Ends the LISTEN connection; readers fall back to polling.
    func close() {
        let connection = state.withLock { s -> PostgresConnection? in
            s.closed = true
            defer { s.connection = nil }
            return s.connection
        }
        if let connection { Self.discard(connection) }
    }

    private static func discard(_ connection: PostgresConnection) {
        connection.close().whenComplete { _ in withExtendedLifetime(connection) {} }
    }
}

/// One change feed reader's wake-up (`CatalogChangeSignal`): `next` returns
/// when a NOTIFY arrived since the last return, when `poll` ran out (the
/// feed table is the truth; a lost notification costs at most that), or at
/// once after `stop()`. While the LISTEN connection is down it looks every
/// 250 ms and tries to reconnect.
final class PostgresChangeSubscription: CatalogChangeSignal, @unchecked Sendable {
    private let condition = NSCondition()
    private var pending = false
    private var stopped = false
    private let listener: PostgresChangeListener

    init(listener: PostgresChangeListener) {
        self.listener = listener
    }

    func next() {
        listener.connectIfNeeded()
        let wait = listener.isListening ? listener.poll : min(listener.poll, .milliseconds(250))
        let deadline = Date(timeIntervalSinceNow: wait.seconds)
        condition.lock()
        while !pending && !stopped {
            if !condition.wait(until: deadline) { break }
        }
        pending = false
        condition.unlock()
    }

    func wake() {
        condition.lock()
        pending = true
        condition.signal()
        condition.unlock()
    }

    func stop() {
        condition.lock()
        stopped = true
        condition.broadcast()
        condition.unlock()
        listener.remove(self)
    }

    var isStopped: Bool {
        condition.lock()
        defer { condition.unlock() }
        return stopped
    }
}
