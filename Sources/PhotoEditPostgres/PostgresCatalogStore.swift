// Only with the `Server` trait (Package.swift): without it the module is empty.
#if Server
import Foundation
import Logging
import PhotoEdit
import PostgresNIO
import Synchronization

/// The engine's catalog seam (`CatalogStore`) on PostgreSQL: what lets a
/// `PhotoLibrary` keep its catalog in a database many nodes share.
///
/// The connections are postgres-nio's `PostgresClient` pool: the store owns
/// the client and the task that runs it (`client.run()`, from `init` to
/// `close` or the store's end). The engine's catalog calls are synchronous
/// and made on the engine's ``BlockingExecutor`` threads (never on Swift's
/// cooperative pool, never on a NIO event loop); each step of a transaction
/// is one hop to async code through `blockingWait`, whose task runs on its
/// own Dispatch threads (``BridgeExecutor``): leasing a connection and
/// `BEGIN`, each statement, `COMMIT` and giving the connection back. No
/// blocking wait on an `EventLoopFuture`.
///
/// Reads run in a `REPEATABLE READ READ ONLY` transaction (one snapshot, as
/// SQLite's WAL readers); writes in `READ COMMITTED`, where the rows a
/// change is about to change are read `FOR UPDATE` (`SQLDialect.forUpdate`):
/// a concurrent commit to the same photo waits, then sees the new revision
/// and fails with `PhotoEditError.conflict` — no lost update across nodes.
/// (postgres-nio's `withTransaction` sends a plain `BEGIN`; the isolation
/// level is why the store sends its own.)
package final class PostgresCatalogStore: CatalogStore {
    /// Where the catalog is.
    package let location: PostgresCatalogLocation
    package var dialect: SQLDialect { .postgres }
    private let client: PostgresClient
    private let running: Task<Void, Never>
    private let logger: Logger
    /// Transactions at once (each holds one of the pool's connections): more
    /// callers wait for one to end, so a burst of threads never exceeds the
    /// server's `max_connections` because of one node. One more connection
    /// is the change feed's LISTEN.
    private static let concurrentTransactions = 16
    /// The NOTIFYs that wake this store's change feed readers (one LISTEN connection of the pool).
    let changes: PostgresChangeListener
    private let begunInTasks = Atomic<Int>(0)

    /// A store on a catalog already migrated (see `open`). A change feed
    /// reader (`PhotoLibrary.changeSets`) is woken by every node's commits
    /// (LISTEN/NOTIFY) and looks anyway every `changePoll`.
    package init(_ location: PostgresCatalogLocation, changePoll: Duration = .seconds(5)) {
        self.location = location
        var logger = Logger(label: "photoedit.catalog.postgres")
        // Errors reach the caller as thrown PhotoEditErrors.
        logger.logLevel = .error
        self.logger = logger
        var configuration = location.configuration
        configuration.options.maximumConnections = Self.concurrentTransactions + 1
        let client = PostgresClient(configuration: configuration, backgroundLogger: logger)
        self.client = client
        // The pool's work (connecting, leasing) runs on the bridge's threads:
        // a caller blocked on a cooperative thread can never starve it.
        running = Task.detached(executorPreference: BridgeExecutor.shared) { await client.run() }
        changes = PostgresChangeListener(client: client, poll: changePoll)
    }

    /// Connects, brings the schema up to date (`PostgresCatalog.open`) and
    /// returns the store.
    package static func open(_ location: PostgresCatalogLocation, changePoll: Duration = .seconds(5)) async throws -> PostgresCatalogStore {
        let catalog = try await PostgresCatalog.open(location)
        await catalog.close()
        return PostgresCatalogStore(location, changePoll: changePoll)
    }

    deinit {
        close()
    }

    /// Ends the change feed's LISTEN connection (its readers poll) and the
    /// connection pool: a later transaction fails.
    package func close() {
        changes.close()
        running.cancel()
    }

    /// A wake-up for one change feed reader: every node's commits NOTIFY it.
    package func changeSignal() -> (any CatalogChangeSignal)? {
        changes.subscribe()
    }

    /// How many transactions were begun from code running inside a Swift
    /// task (a task's synchronous code: Swift's cooperative pool, unless the
    /// task has its own executor) rather than on a plain thread such as the
    /// ``BlockingExecutor``'s. A testing hook: the server's requests must
    /// leave it unchanged.
    package var transactionsBegunInTasks: Int { begunInTasks.load(ordering: .relaxed) }

    package func read<T>(_ body: (any CatalogConnection) throws -> T) throws -> T {
        try transaction("BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY", body)
    }

    package func write<T>(_ body: (any CatalogConnection) throws -> T) throws -> T {
        try transaction("BEGIN ISOLATION LEVEL READ COMMITTED", body)
    }

    private func transaction<T>(_ begin: String, _ body: (any CatalogConnection) throws -> T) throws -> T {
        if withUnsafeCurrentTask(body: { $0 != nil }) { begunInTasks.add(1, ordering: .relaxed) }
        let (client, logger, location) = (self.client, self.logger, self.location)
        let lease: PostgresLease
        do {
            lease = try blockingWait { try await PostgresLease.take(from: client, begin: begin, logger: logger) }
        } catch {
            throw PostgresCatalog.engineError(error, location)
        }
        let catalog = PostgresCatalogConnection(connection: lease.connection, logger: logger)
        do {
            let result = try body(catalog)
            try blockingWait { try await lease.end("COMMIT", logger: logger) }
            return result
        } catch {
            // A connection whose transaction could not be ended is closed (the pool makes another).
            if (try? blockingWait({ try await lease.end("ROLLBACK", logger: logger) })) == nil { lease.drop() }
            throw PostgresCatalog.engineError(error, location)
        }
    }
}

/// A connection of a `PostgresClient`'s pool, leased for one transaction of
/// synchronous code: `take` leases it (inside `withConnection`, whose task
/// stays suspended — no thread — until the lease ends) and begins the
/// transaction; `end` commits or rolls back and gives it back.
final class PostgresLease: Sendable {
    let connection: PostgresConnection
    private let released: AsyncStream<Void>.Continuation

    private init(_ connection: PostgresConnection, _ released: AsyncStream<Void>.Continuation) {
        self.connection = connection
        self.released = released
    }

    deinit { released.finish() }

    /// How long a lease may take, connecting and `BEGIN` included, before
    /// the transaction fails instead of waiting on: a connection the server
    /// ended can leave a statement written to it unanswered.
    static let leaseLimit: Duration = .seconds(30)

    /// A connection of `client`'s pool in a transaction begun with `begin`.
    /// A connection found closed before or by its `BEGIN` (the server ended
    /// it and the pool had not heard yet: the change feed's tests end the
    /// LISTEN connection, and the pool hands it out again) is given back and
    /// another taken, up to three times.
    static func take(from client: PostgresClient, begin: String, logger: Logger) async throws -> PostgresLease {
        var attempt = 1
        while true {
            do {
                return try await takeOnce(from: client, begin: begin, logger: logger)
            } catch LeaseFailure.closed where attempt < 3 {
                attempt += 1
                try await Task.sleep(for: .milliseconds(50))
            }
        }
    }

    enum LeaseFailure: Error, CustomStringConvertible {
        case closed, timedOut
        var description: String {
            switch self {
            case .closed: "the connection was closed by the server"
            case .timedOut: "no connection in a transaction after \(PostgresLease.leaseLimit)"
            }
        }
    }

    private static func takeOnce(from client: PostgresClient, begin: String, logger: Logger) async throws -> PostgresLease {
        let handed = Mutex<CheckedContinuation<PostgresLease, any Error>?>(nil)
        let give = { @Sendable (result: Result<PostgresLease, any Error>) -> Bool in
            guard let continuation = handed.withLock({ c in defer { c = nil }; return c }) else { return false }
            continuation.resume(with: result)
            return true
        }
        return try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<PostgresLease, any Error>) in
            handed.withLock { $0 = continuation }
            // The limit: a statement written to a connection the server just
            // ended may never be answered, and that task stays suspended
            // (no thread); its caller gets this error instead of waiting on.
            let timer = Task.detached(executorPreference: BridgeExecutor.shared) {
                try? await Task.sleep(for: leaseLimit)
                if !Task.isCancelled { _ = give(.failure(LeaseFailure.timedOut)) }
            }
            Task.detached(executorPreference: BridgeExecutor.shared) {
                do {
                    try await client.withConnection { connection in
                        guard !connection.isClosed else { throw LeaseFailure.closed }
                        do {
                            _ = try await connection.query(PostgresQuery(unsafeSQL: begin), logger: logger).collect()
                        } catch let error as PSQLError where error.code == .serverClosedConnection || error.code == .clientClosedConnection {
                            // Closed before anything was done on it: safe to take another.
                            throw LeaseFailure.closed
                        }
                        let (ended, end) = AsyncStream<Void>.makeStream()
                        let lease = PostgresLease(connection, end)
                        timer.cancel()
                        // Too late (the limit passed): the connection is closed at once.
                        guard give(.success(lease)) else {
                            lease.drop()
                            return
                        }
                        for await _ in ended {}
                    }
                } catch {
                    timer.cancel()
                    _ = give(.failure(error))
                }
            }
        }
    }

    /// Sends `COMMIT` or `ROLLBACK`, then gives the connection back to the
    /// pool; when the statement fails, the lease is kept (see `drop`).
    func end(_ statement: String, logger: Logger) async throws {
        _ = try await connection.query(PostgresQuery(unsafeSQL: statement), logger: logger).collect()
        released.finish()
    }

    /// Closes the connection (its transaction's state is unknown) and gives
    /// it back: the pool makes a new one when it needs one.
    func drop() {
        connection.close().whenComplete { _ in }
        released.finish()
    }
}

/// One connection inside a transaction of `PostgresCatalogStore`.
struct PostgresCatalogConnection: CatalogConnection {
    let connection: PostgresConnection
    let logger: Logger
    var dialect: SQLDialect { .postgres }

    func execute(_ sql: String, _ arguments: [SQLValue]) throws {
        _ = try run(sql, arguments)
    }

    func rows(_ sql: String, _ arguments: [SQLValue]) throws -> [CatalogRow] {
        try run(sql, arguments)
    }

    private func run(_ sql: String, _ arguments: [SQLValue]) throws -> [CatalogRow] {
        // The engine's statements never hold `?` inside a literal: every
        // `?` is a placeholder (PostgresCatalog.query treats a quoted one as text).
        assert(!Self.hasQuotedPlaceholder(sql), "a catalog statement has a ? inside quotes: \(sql)")
        let query = try PostgresCatalog.query(SQLFragment(sql: sql, arguments: arguments))
        let (connection, logger) = (self.connection, self.logger)
        return try blockingWait { try await Self.rows(try await connection.query(query, logger: logger)) }
    }

    /// A result's rows as the engine's rows (their column names read once).
    static func rows(_ result: PostgresRowSequence) async throws -> [CatalogRow] {
        var rows: [CatalogRow] = []
        var columns: CatalogColumns?
        for try await row in result {
            let names = columns ?? CatalogColumns(row.map(\.columnName))
            columns = names
            rows.append(CatalogRow(columns: names, values: try row.map(Self.value)))
        }
        return rows
    }

    static func hasQuotedPlaceholder(_ sql: String) -> Bool {
        var quote: Character?
        for c in sql {
            if let q = quote {
                if c == "?" { return true }
                if c == q { quote = nil }
            } else if c == "'" || c == "\"" {
                quote = c
            }
        }
        return false
    }

    /// A cell as the engine's value: booleans, integers, numbers, text;
    /// timestamps as the catalog's UTC text; bytea as bytes; json(b) as its text.
    static func value(_ cell: PostgresCell) throws -> SQLValue {
        guard var bytes = cell.bytes else { return .null }
        switch cell.dataType {
        case .bool: return .bool(try cell.decode(Bool.self))
        case .int2, .int4, .int8, .oid: return .integer(try cell.decode(Int64.self))
        case .float4, .float8, .numeric: return .real(try cell.decode(Double.self))
        case .bytea: return .blob(Data(bytes.readableBytesView))
        case .timestamp, .timestamptz:
            guard cell.format == .binary, let microseconds = bytes.readInteger(as: Int64.self) else {
                return .timestamp(CatalogTime.text(try cell.decode(Date.self)))
            }
            // Microseconds since 2000-01-01 UTC, exact (no Double on the way).
            let ms = microseconds >= 0 ? microseconds / 1000 : -((-microseconds + 999) / 1000)
            return .timestamp(CatalogTime.text(millisecondsSince1970: ms + 946_684_800_000))
        case .jsonb:
            if cell.format == .binary { bytes.moveReaderIndex(forwardBy: 1) }   // the jsonb version byte
            return .text(String(decoding: bytes.readableBytesView, as: UTF8.self))
        default:
            return .text(String(decoding: bytes.readableBytesView, as: UTF8.self))
        }
    }
}
#endif
