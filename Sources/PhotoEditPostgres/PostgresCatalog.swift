// Only with the `Server` trait (Package.swift): without it the module is empty.
#if Server
import Foundation
import Logging
import PhotoEdit
import PostgresNIO

/// Where a PostgreSQL catalog is: parsed from a `postgres://` URL
/// (`postgres://USER[:PASSWORD]@HOST[:PORT]/DATABASE`, or
/// `postgres:///DATABASE?host=/run/postgresql` for a Unix socket folder).
/// A password left out of the URL is taken from `$PGPASSWORD`.
public struct PostgresCatalogLocation: Sendable, Hashable, CustomStringConvertible {
    /// A TCP host name or address; nil with a socket.
    public var host: String?
    public var port: Int
    /// The folder of the server's Unix socket (the socket is `.s.PGSQL.<port>` in it).
    public var socketFolder: String?
    public var username: String
    public var password: String?
    public var database: String

    /// A location from its parts.
    public init(host: String? = "127.0.0.1", port: Int = 5432, socketFolder: String? = nil, username: String,
                password: String? = nil, database: String) {
        self.host = host
        self.port = port
        self.socketFolder = socketFolder
        self.username = username
        self.password = password
        self.database = database
    }

    /// Parses a `postgres://` or `postgresql://` URL; throws
    /// `PhotoEditError.library` naming what is wrong (never the password).
    public init(url text: String, environment: [String: String] = ProcessInfo.processInfo.environment) throws {
        func bad(_ why: String) -> PhotoEditError { .library("catalog URL: \(why)") }
        guard text.count <= 2048, let url = URLComponents(string: text) else { throw bad("not a URL") }
        guard url.scheme == "postgres" || url.scheme == "postgresql" else { throw bad("the scheme must be postgres://") }
        let items = Dictionary((url.queryItems ?? []).map { ($0.name, $0.value ?? "") }, uniquingKeysWith: { _, last in last })
        let socket = items["host"].flatMap { $0.hasPrefix("/") ? $0 : nil }
        let host = url.host.flatMap { $0.isEmpty ? nil : $0 }
        guard host != nil || socket != nil else { throw bad("no host (postgres://USER@HOST/DB or ?host=/socket/folder)") }
        let port = url.port ?? Int(items["port"] ?? "") ?? 5432
        guard (1...65535).contains(port) else { throw bad("port \(port) is out of range") }
        let database = String(url.path.drop(while: { $0 == "/" }))
        guard !database.isEmpty, !database.contains("/") else { throw bad("no database name (postgres://USER@HOST/DATABASE)") }
        guard let user = url.user.flatMap({ $0.isEmpty ? nil : $0 }) ?? environment["PGUSER"] else {
            throw bad("no user (postgres://USER@HOST/DATABASE or $PGUSER)")
        }
        self.init(host: socket == nil ? host : nil, port: port, socketFolder: socket, username: user,
                  password: url.password ?? environment["PGPASSWORD"], database: database)
    }

    /// The URL without its password.
    public var description: String {
        if let socketFolder { return "postgres://\(username)@/\(database)?host=\(socketFolder)&port=\(port)" }
        return "postgres://\(username)@\(host ?? "")\(port == 5432 ? "" : ":\(port)")/\(database)"
    }

    var connectionConfiguration: PostgresConnection.Configuration {
        if let socketFolder {
            return .init(unixSocketPath: socketFolder + "/.s.PGSQL.\(port)", username: username, password: password, database: database)
        }
        return .init(host: host ?? "127.0.0.1", port: port, username: username, password: password, database: database, tls: .disable)
    }

    var configuration: PostgresClient.Configuration {
        var c: PostgresClient.Configuration
        if let socketFolder {
            c = .init(unixSocketPath: socketFolder + "/.s.PGSQL.\(port)", username: username, password: password, database: database)
        } else {
            c = .init(host: host ?? "127.0.0.1", port: port, username: username, password: password, database: database, tls: .disable)
        }
        c.options.minimumConnections = 0
        c.options.maximumConnections = 16
        return c
    }
}

/// A catalog on PostgreSQL: the shared catalog of a library that many
/// nodes use at once (the embedded default is SQLite). It holds a pool of
/// connections; `open` migrates the schema (under an advisory lock, so
/// nodes starting together migrate once), `close` ends the pool.
public final class PostgresCatalog: Sendable {
    /// Where it is.
    public let location: PostgresCatalogLocation
    let client: PostgresClient
    private let running: Task<Void, Never>
    let logger: Logger

    private init(_ location: PostgresCatalogLocation) {
        self.location = location
        var logger = Logger(label: "photoedit.catalog.postgres")
        // Errors reach the caller as thrown PhotoEditErrors. At .warning the
        // pool would also log each query that arrives before `run()` has
        // started (it waits for it, which is what we want).
        logger.logLevel = .error
        self.logger = logger
        let client = PostgresClient(configuration: location.configuration, backgroundLogger: logger)
        self.client = client
        running = Task { await client.run() }
    }

    /// Connects and brings the schema up to date. The first connection is
    /// made directly (not through the pool, which retries): a server that
    /// is down, a wrong password or a missing database fail at once, with
    /// the server's message.
    public static func open(_ location: PostgresCatalogLocation) async throws -> PostgresCatalog {
        var logger = Logger(label: "photoedit.catalog.postgres")
        logger.logLevel = .warning
        try await mapErrors(location) {
            let connection = try await PostgresConnection.connect(configuration: location.connectionConfiguration, id: 0, logger: logger)
            do {
                try await connection.withTransaction(logger: logger) { try await migrate($0, location, logger) }
            } catch {
                try? await connection.close()
                throw error
            }
            try await connection.close()
        }
        return PostgresCatalog(location)
    }

    /// Ends the connection pool. The catalog cannot be used afterwards.
    public func close() async {
        running.cancel()
        await running.value
    }

    /// The names of the migrations applied, oldest first.
    public func appliedMigrations() async throws -> [String] {
        try await rows(SQLFragment(sql: "SELECT name FROM photoedit_migration ORDER BY applied, name")) { try $0.decode(String.self) }
    }

    private static func migrate(_ connection: PostgresConnection, _ location: PostgresCatalogLocation, _ logger: Logger) async throws {
        // One node migrates; the others wait here, then find nothing to do.
        try await run(connection, SQLFragment(sql: "SELECT pg_advisory_xact_lock(7368420151)"), logger: logger)
        try await run(connection, SQLFragment(sql: """
            CREATE TABLE IF NOT EXISTS photoedit_migration (name text PRIMARY KEY, applied timestamptz NOT NULL DEFAULT clock_timestamp())
            """), logger: logger)
        var done = Set<String>()
        for try await name in try await connection.query("SELECT name FROM photoedit_migration", logger: logger).decode(String.self) {
            done.insert(name)
        }
        let known = Set(PostgresSchema.migrations.map(\.name))
        if let unknown = done.subtracting(known).sorted().first {
            throw PhotoEditError.library("catalog \(location): migration '\(unknown)' is from a newer photoedit; this one cannot use it")
        }
        for migration in PostgresSchema.migrations where !done.contains(migration.name) {
            for statement in migration.statements {
                try await run(connection, SQLFragment(sql: statement), logger: logger)
            }
            try await run(connection, SQLFragment(sql: "INSERT INTO photoedit_migration (name) VALUES (?)",
                                                  arguments: [.text(migration.name)]), logger: logger)
        }
    }

    /// The ids of the photos `options` selects, in its order: the same
    /// query `PhotoLibrary.fetchAssets` runs on SQLite, in PostgreSQL's dialect.
    public func fetchAssetIdentifiers(_ options: FetchOptions = FetchOptions(), inAlbum album: String? = nil) async throws -> [String] {
        try await rows(try options.sql(album: album, .postgres)) { try $0.decode(String.self) }
    }

    /// How many photos the catalog holds (every state).
    public func photoCount() async throws -> Int {
        try await rows(SQLFragment(sql: "SELECT count(*) FROM asset")) { Int(try $0.decode(Int64.self)) }.first ?? 0
    }

    /// The server's version text (`SHOW server_version`).
    public func serverVersion() async throws -> String {
        try await rows(SQLFragment(sql: "SHOW server_version")) { try $0.decode(String.self) }.first ?? "?"
    }

    // MARK: Running statements

    /// Runs the statements in one transaction.
    package func execute(_ statements: [SQLFragment]) async throws {
        try await transaction { connection in
            for statement in statements { try await Self.run(connection, statement, logger: self.logger) }
        }
    }

    /// Runs `body` in one transaction (committed when it returns, rolled back when it throws).
    func transaction<T: Sendable>(_ body: @Sendable (PostgresConnection) async throws -> T) async throws -> T {
        try await mapErrors {
            try await client.withConnection { connection in
                try await connection.withTransaction(logger: logger) { try await body($0) }
            }
        }
    }

    /// The rows of a query, each decoded by `decode`.
    func rows<T: Sendable>(_ fragment: SQLFragment, _ decode: @Sendable (PostgresRow) throws -> T) async throws -> [T] {
        try await mapErrors {
            var out: [T] = []
            for try await row in try await client.query(try Self.query(fragment), logger: logger) {
                out.append(try decode(row))
            }
            return out
        }
    }

    /// The rows of a query as the engine's rows (cells read as
    /// `PostgresCatalogConnection` reads them), to read by declared field
    /// (`CatalogRow.get(_:)`).
    func catalogRows(_ query: PostgresQuery) async throws -> [CatalogRow] {
        try await mapErrors { try await PostgresCatalogConnection.rows(try await client.query(query, logger: logger)) }
    }

    /// The rows of a statement written in both dialects' text, as the engine's rows.
    func catalogRows(_ fragment: SQLFragment) async throws -> [CatalogRow] {
        try await catalogRows(try Self.query(fragment))
    }

    static func run(_ connection: PostgresConnection, _ fragment: SQLFragment, logger: Logger) async throws {
        _ = try await connection.query(try query(fragment), logger: logger).collect()
    }

    /// A statement written with `?` placeholders (both dialects' text) as
    /// PostgreSQL's `$1…$n`, with its values bound. `?` inside quotes is text.
    static func query(_ fragment: SQLFragment) throws -> PostgresQuery {
        var sql = ""
        var number = 0
        var quote: Character?
        for c in fragment.sql {
            if let q = quote {
                if c == q { quote = nil }
                sql.append(c)
            } else if c == "'" || c == "\"" {
                quote = c
                sql.append(c)
            } else if c == "?" {
                guard number < fragment.arguments.count else { break }
                number += 1
                sql += "$\(number)"
                if case .timestamp = fragment.arguments[number - 1] { sql += "::timestamp" }
            } else {
                sql.append(c)
            }
        }
        guard number == fragment.arguments.count else {
            throw PhotoEditError.library("a catalog statement has \(number) placeholders for \(fragment.arguments.count) values")
        }
        var binds = PostgresBindings(capacity: fragment.arguments.count)
        for value in fragment.arguments {
            switch value {
            case .null: binds.appendNull()
            case .integer(let i): binds.append(i)
            case .real(let d): binds.append(d)
            case .text(let t): binds.append(t)
            case .bool(let b): binds.append(b)
            case .blob(let d): binds.append(ByteBuffer(bytes: d))
            case .timestamp(let t):
                // A bound at year or month precision ("2024", "2024-06") is the period's first day.
                binds.append(t.count == 4 ? t + "-01-01" : t.count == 7 ? t + "-01" : t)
            }
        }
        return PostgresQuery(unsafeSQL: sql, binds: binds)
    }

    /// PostgreSQL's errors as the engine's: the server's message and
    /// SQLSTATE, never a statement's values; a transaction's error is the
    /// error that ended it.
    static func mapErrors<T>(_ location: PostgresCatalogLocation, _ body: () async throws -> T) async throws -> T {
        do {
            return try await body()
        } catch {
            throw engineError(error, location)
        }
    }

    func mapErrors<T>(_ body: () async throws -> T) async throws -> T {
        try await Self.mapErrors(location, body)
    }

    static func engineError(_ error: any Error, _ location: PostgresCatalogLocation) -> any Error {
        switch error {
        case let error as PostgresTransactionError:
            guard let cause = error.closureError ?? error.beginError ?? error.commitError ?? error.rollbackError else { return error }
            return engineError(cause, location)
        case let error as PSQLError:
            if let message = error.serverInfo?[.message] {
                let state = error.serverInfo?[.sqlState].map { " (SQLSTATE \($0))" } ?? ""
                return PhotoEditError.library("catalog \(location): \(message)\(state)")
            }
            let cause = error.underlying.map { ": \($0)" } ?? ""
            return PhotoEditError.library("catalog \(location): \(error.code)\(cause)")
        default:
            return error
        }
    }
}

extension PostgresQuery.StringInterpolation {
    /// A declared column's name, as SQL text (a value interpolated is bound instead).
    mutating func appendInterpolation<Value>(_ field: CatalogSchema.Field<Value>) {
        appendInterpolation(unescaped: field.name)
    }

    /// A declared table's name, as SQL text.
    mutating func appendInterpolation(_ table: some CatalogSchema.TableDeclaration) {
        appendInterpolation(unescaped: table.tableName)
    }

    /// A job state, as a SQL literal (`'queued'`; `CatalogJobState.sqlLiteral`).
    mutating func appendInterpolation(_ state: CatalogJobState) {
        appendInterpolation(unescaped: state.sqlLiteral)
    }

    /// Job states, as a list of SQL literals for `IN (…)`.
    mutating func appendInterpolation(_ states: [CatalogJobState]) {
        appendInterpolation(unescaped: states.map(\.sqlLiteral).joined(separator: ", "))
    }
}
#endif
