import Foundation
import Logging
import PhotoEdit
import PostgresNIO
import Synchronization

/// The engine's catalog seam (`CatalogStore`) on PostgreSQL: what lets a
/// `PhotoLibrary` keep its catalog in a database many nodes share.
///
/// The engine is synchronous and never runs on a NIO event loop, so a
/// transaction blocks its caller: it takes one connection of the store's
/// own small pool, sends `BEGIN`, the body's statements and `COMMIT` on it
/// and waits for each (`EventLoopFuture.wait()`, which runs on NIO's
/// threads, never on Swift's cooperative pool). Reads run in a
/// `REPEATABLE READ READ ONLY` transaction (one snapshot, as SQLite's WAL
/// readers); writes in `READ COMMITTED`, where the rows a change is about
/// to change are read `FOR UPDATE` (`SQLDialect.forUpdate`): a concurrent
/// commit to the same photo waits, then sees the new revision and fails
/// with `PhotoEditError.conflict` — no lost update across nodes.
package final class PostgresCatalogStore: CatalogStore {
    /// Where the catalog is.
    package let location: PostgresCatalogLocation
    package var dialect: SQLDialect { .postgres }
    private let idle = Mutex<[PostgresConnection]>([])
    private let opened = Atomic<Int>(0)
    private let logger: Logger
    /// Connections kept open between transactions.
    private static let keptOpen = 8
    /// Transactions at once (each holds a connection): more callers wait
    /// for one to end, so a burst of threads never exceeds the server's
    /// `max_connections` because of one node.
    private static let concurrentTransactions = 16
    private let slots = DispatchSemaphore(value: PostgresCatalogStore.concurrentTransactions)
    /// The NOTIFYs that wake this store's change feed readers (one LISTEN connection).
    let changes: PostgresChangeListener

    /// A store on a catalog already migrated (see `open`). A change feed
    /// reader (`PhotoLibrary.changeSets`) is woken by every node's commits
    /// (LISTEN/NOTIFY) and looks anyway every `changePoll`.
    package init(_ location: PostgresCatalogLocation, changePoll: Duration = .seconds(5)) {
        self.location = location
        var logger = Logger(label: "photoedit.catalog.postgres")
        logger.logLevel = .error
        self.logger = logger
        changes = PostgresChangeListener(location: location, poll: changePoll, logger: logger)
    }

    /// Connects, brings the schema up to date (`PostgresCatalog.open`) and
    /// returns the store.
    package static func open(_ location: PostgresCatalogLocation, changePoll: Duration = .seconds(5)) async throws -> PostgresCatalogStore {
        let catalog = try await PostgresCatalog.open(location)
        await catalog.close()
        return PostgresCatalogStore(location, changePoll: changePoll)
    }

    deinit {
        for connection in idle.withLock({ $0 }) { Self.discard(connection) }
    }

    /// Closes the connections kept open (a later transaction opens new
    /// ones) and the change feed's LISTEN connection (its readers poll).
    package func close() {
        let connections = idle.withLock { all in defer { all = [] }; return all }
        for connection in connections { try? connection.close().wait() }
        changes.close()
    }

    /// A wake-up for one change feed reader: every node's commits NOTIFY it.
    package func changeSignal() -> (any CatalogChangeSignal)? {
        changes.subscribe()
    }

    package func read<T>(_ body: (any CatalogConnection) throws -> T) throws -> T {
        try transaction("BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY", body)
    }

    package func write<T>(_ body: (any CatalogConnection) throws -> T) throws -> T {
        try transaction("BEGIN ISOLATION LEVEL READ COMMITTED", body)
    }

    private func transaction<T>(_ begin: String, _ body: (any CatalogConnection) throws -> T) throws -> T {
        slots.wait()
        defer { slots.signal() }
        let connection = try take()
        let catalog = PostgresCatalogConnection(connection: connection, logger: logger)
        do {
            try catalog.execute(begin, [])
            let result = try body(catalog)
            try catalog.execute("COMMIT", [])
            give(connection)
            return result
        } catch {
            // A connection whose transaction could not be ended is dropped.
            if (try? catalog.execute("ROLLBACK", [])) != nil { give(connection) } else { Self.discard(connection) }
            throw PostgresCatalog.engineError(error, location)
        }
    }

    private func take() throws -> PostgresConnection {
        while let connection = idle.withLock({ $0.popLast() }) {
            if !connection.isClosed { return connection }
        }
        let id = opened.wrappingAdd(1, ordering: .relaxed).newValue
        do {
            return try PostgresConnection.connect(on: PostgresConnection.defaultEventLoopGroup.any(),
                                                  configuration: location.connectionConfiguration, id: id, logger: logger).wait()
        } catch {
            throw PostgresCatalog.engineError(error, location)
        }
    }

    private func give(_ connection: PostgresConnection) {
        let kept = idle.withLock { all -> Bool in
            guard all.count < Self.keptOpen else { return false }
            all.append(connection)
            return true
        }
        if !kept { Self.discard(connection) }
    }

    /// Closes a connection without waiting; it is kept alive until it is
    /// closed (postgres-nio requires a connection closed before it goes).
    private static func discard(_ connection: PostgresConnection) {
        connection.close().whenComplete { _ in withExtendedLifetime(connection) {} }
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
        let result = try run(sql, arguments)
        guard let first = result.rows.first else { return [] }
        let columns = CatalogColumns(first.map(\.columnName))
        return try result.rows.map { row in CatalogRow(columns: columns, values: try row.map(Self.value)) }
    }

    private func run(_ sql: String, _ arguments: [SQLValue]) throws -> PostgresQueryResult {
        // The engine's statements never hold `?` inside a literal: every
        // `?` is a placeholder (PostgresCatalog.query treats a quoted one as text).
        assert(!Self.hasQuotedPlaceholder(sql), "a catalog statement has a ? inside quotes: \(sql)")
        return try connection.query(try PostgresCatalog.query(SQLFragment(sql: sql, arguments: arguments)), logger: logger).wait()
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
