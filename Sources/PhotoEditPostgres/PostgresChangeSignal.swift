// Only with the `Server` trait (Package.swift): without it the module is empty.
#if Server
import Dispatch
import Logging
import PhotoEdit
import PostgresNIO
import Synchronization

/// The `photoedit_changes` notifications of one PostgreSQL catalog, for
/// every change feed reader of a `PostgresCatalogStore` (a server's event
/// streams, `photoedit watch`): one LISTEN connection of the store's
/// `PostgresClient` pool (`listen(on:)`), held by a task started when a
/// reader first waits and remade (at most once a second) when it is lost.
/// A commit's change set sends the NOTIFY (a trigger, PostgresSchema's
/// pg4); PostgreSQL delivers it once the commit is visible, so a woken
/// reader finds the change at once.
///
/// The listening task is async (it holds no thread while it waits), and so
/// are the readers' waits (`FeedWaiter`: a registration with the engine's
/// `FeedWaits`, woken by a notification or its poll's deadline).
final class PostgresChangeListener: Sendable {
    private struct State {
        var task: Task<Void, Never>?
        var listening = false
        /// How many times LISTEN came into force, and how many times it was lost.
        var listens = 0
        var losses = 0
        var readers: [ObjectIdentifier: PostgresChangeSubscription] = [:]
        var closed = false
    }

    static let channel = CatalogSchema.changesChannel
    private let client: PostgresClient
    private let logger: Logger
    private let state = Mutex(State())
    /// How often a reader looks anyway (a notification lost with a connection is then made up for).
    let poll: Duration

    init(client: PostgresClient, poll: Duration) {
        self.client = client
        self.poll = poll
        var logger = Logger(label: "photoedit.catalog.postgres.listen")
        logger.logLevel = .error
        self.logger = logger
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

    /// Whether the LISTEN is in force.
    var isListening: Bool { state.withLock { $0.listening } }

    /// How many times LISTEN came into force / was lost since the store
    /// opened (monotonic: tests wait on these, not on the brief moment
    /// `isListening` is false between a loss and the reconnection).
    var listenCount: Int { state.withLock { $0.listens } }
    var lossCount: Int { state.withLock { $0.losses } }

    /// Readers currently subscribed (tests check that a stopped stream lets go).
    var readerCount: Int { state.withLock { $0.readers.count } }

    /// Starts the listening task when there is none (never blocks).
    func startIfNeeded() {
        state.withLock { s in
            guard !s.closed, s.task == nil else { return }
            s.task = Task.detached(executorPreference: BridgeExecutor.shared) { [self] in await listen() }
        }
    }

    /// Listens until cancelled: a lost connection wakes the readers (they
    /// look, then poll until it is remade), and is remade a second later.
    private func listen() async {
        while !Task.isCancelled {
            do {
                try await client.withConnection { connection in
                    try await connection.listen(on: Self.channel) { notifications in
                        // LISTEN is in force: what was committed before is looked for once.
                        setListening(true)
                        for try await _ in notifications { wakeAll() }
                    }
                }
            } catch {
                logger.debug("LISTEN \(Self.channel) ended: \(error)")
            }
            setListening(false)
            try? await Task.sleep(for: .seconds(1))
        }
    }

    private func setListening(_ listening: Bool) {
        state.withLock { s in
            if listening { s.listens += 1 } else if s.listening { s.losses += 1 }
            s.listening = listening
        }
        wakeAll()
    }

    private func wakeAll() {
        for reader in state.withLock({ Array($0.readers.values) }) { reader.wake() }
    }

    /// Ends the LISTEN connection; readers fall back to polling.
    func close() {
        let task = state.withLock { s -> Task<Void, Never>? in
            s.closed = true
            defer { s.task = nil }
            return s.task
        }
        task?.cancel()
    }
}

/// One change feed reader's wake-up (`CatalogChangeSignal`): `next` returns
/// when a NOTIFY arrived since the last return, when `poll` ran out (the
/// feed table is the truth; a lost notification costs at most that), or at
/// once after `stop()`. While the LISTEN connection is down it looks every
/// 250 ms. The reader waits holding no thread.
final class PostgresChangeSubscription: CatalogChangeSignal, Sendable {
    private let stopped = Atomic<Bool>(false)
    private let waiter = FeedWaiter()
    private let listener: PostgresChangeListener

    init(listener: PostgresChangeListener) {
        self.listener = listener
    }

    func next() async {
        listener.startIfNeeded()
        guard !isStopped else { return }
        let wait = listener.isListening ? listener.poll : min(listener.poll, .milliseconds(250))
        _ = await waiter.wait(fd: -1, limit: wait)
    }

    func wake() {
        waiter.wake()
    }

    func stop() {
        stopped.store(true, ordering: .sequentiallyConsistent)
        waiter.wake()
        listener.remove(self)
    }

    var isStopped: Bool { stopped.load(ordering: .sequentiallyConsistent) }
}
#endif
