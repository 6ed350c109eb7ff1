import Foundation
import GRDB
import Synchronization

/// The embedded catalog: one SQLite file (WAL) through GRDB, migrated by
/// `Catalog.migrator`. GRDB's errors leave it as `PhotoEditError.catalog`
/// with SQLite's result code.
final class SQLiteCatalogStore: CatalogStore {
    let pool: DatabasePool
    var dialect: SQLDialect { .sqlite }

    /// Opens (and migrates, unless `readOnly`) the catalog at `path`.
    init(path: String, readOnly: Bool) throws {
        pool = try Catalog.open(path: path, readOnly: readOnly)
    }

    func read<T>(_ body: (any CatalogConnection) throws -> T) throws -> T {
        do {
            return try pool.read { db in try body(SQLiteCatalogConnection(db: db)) }
        } catch let error as DatabaseError {
            throw PhotoEditError.catalog(error, "catalog")
        }
    }

    func write<T>(_ body: (any CatalogConnection) throws -> T) throws -> T {
        do {
            return try pool.write { db in try body(SQLiteCatalogConnection(db: db)) }
        } catch let error as DatabaseError {
            throw PhotoEditError.catalog(error, "catalog")
        }
    }
}

/// A GRDB connection inside one of the store's transactions (also used on
/// the catalog a rebuild writes, see Maintenance+Rebuild.swift).
struct SQLiteCatalogConnection: CatalogConnection {
    let db: Database
    var dialect: SQLDialect { .sqlite }

    func execute(_ sql: String, _ arguments: [SQLValue]) throws {
        try db.execute(sql: sql, arguments: Self.arguments(arguments))
    }

    func rows(_ sql: String, _ arguments: [SQLValue]) throws -> [CatalogRow] {
        let cursor = try Row.fetchCursor(try statement(sql), arguments: Self.arguments(arguments))
        var out: [CatalogRow] = []
        var columns: CatalogColumns?
        while let row = try cursor.next() {
            let shared = columns ?? CatalogColumns(Array(row.columnNames))
            columns = shared
            out.append(CatalogRow(columns: shared, values: row.databaseValues.map(Self.value)))
        }
        return out
    }

    func texts(_ sql: String, _ arguments: [SQLValue]) throws -> [String] {
        // GRDB reads the column straight from the statement: no row values
        // (a fetch of 100 000 ids stays as fast as before the seam).
        try String?.fetchAll(try statement(sql), arguments: Self.arguments(arguments)).compactMap { $0 }
    }

    /// The compiled statement for `sql`. The engine runs the same few
    /// statements again and again (a photo's lookup is four of them): those
    /// are compiled once per connection and kept. Only the first
    /// `reusableLimit` distinct texts are kept, so queries built from
    /// requests (a new text for each predicate's shape) cannot grow the
    /// cache without bound; past it they are compiled for one use.
    private func statement(_ sql: String) throws -> Statement {
        let reusable = Self.reusable.withLock { known in
            if known.contains(sql) { return true }
            guard known.count < Self.reusableLimit else { return false }
            known.insert(sql)
            return true
        }
        return reusable ? try db.cachedStatement(sql: sql) : try db.makeStatement(sql: sql)
    }

    /// Statement texts compiled once and kept by every connection.
    static let reusableLimit = 512
    private static let reusable = Mutex<Set<String>>([])

    static func arguments(_ values: [SQLValue]) -> StatementArguments {
        StatementArguments(values.map { value -> DatabaseValue in
            switch value {
            case .null: return .null
            case .integer(let i): return i.databaseValue
            case .real(let d): return d.databaseValue
            case .text(let t), .timestamp(let t): return t.databaseValue
            case .bool(let b): return b.databaseValue
            case .blob(let d): return d.databaseValue
            }
        })
    }

    static func value(_ value: DatabaseValue) -> SQLValue {
        switch value.storage {
        case .null: return .null
        case .int64(let i): return .integer(i)
        case .double(let d): return .real(d)
        case .string(let s): return .text(s)
        case .blob(let d): return .blob(d)
        }
    }
}

extension SQLFragment {
    /// Runs the statement (the text both dialects share, `?` placeholders)
    /// on a GRDB connection to a SQLite catalog: the generated sample
    /// catalogs write so.
    package func execute(on db: Database) throws {
        try db.execute(sql: sql, arguments: SQLiteCatalogConnection.arguments(arguments))
    }
}
