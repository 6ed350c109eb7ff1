import Foundation

// The catalog's schema declared once, as it is after the latest migration of
// both stores (SQLite: Catalog.swift v1–v9; PostgreSQL: PostgresSchema.swift
// pg1–pg8): every table's columns (name, Swift type, SQL type, nullability,
// default, key, references, UNIQUE), its indexes and its triggers.
//
// Each column is a typed constant (`CatalogSchema.asset.favorite` is a
// `Field<Bool>`): the rows' decoding (`CatalogRow.get(_:)`), the records'
// column lists and the inserts (`CatalogConnection.insert(into:_:)`) name
// columns through them, so a misspelt column, or a field read as another
// type, fails to compile. A table's column order is the order its fields are
// declared in (read once by reflection).
//
// `ddl(_:)` writes the whole schema in either dialect, and `addColumn`,
// `createIndex` and `createTrigger` a new migration's statements, so a new
// migration is generated from the declaration instead of written twice. The
// registered migrations are history and stay as they are;
// CatalogSchemaTests builds the declared schema in both dialects and checks
// that it is column for column, key for key, index for index and trigger for
// trigger what the migrations make on a fresh catalog.
//
// PostgreSQL's job queue (PostgresSchema pg4: the `job` table, its indexes,
// its per-statement trigger and function) is declared here too, as a table
// only PostgreSQL has (`postgresTables`); PostgresJobs reads and writes it
// through its fields.

/// The catalog's schema, declared once.
package enum CatalogSchema {
    /// A column's type, as each dialect spells it.
    package enum ColumnType: Sendable, Hashable {
        /// Text (SQLite TEXT, PostgreSQL text).
        case text
        /// A 32-bit-range integer (SQLite INTEGER, PostgreSQL integer).
        case integer
        /// A 64-bit integer: file sizes, sequence numbers (SQLite INTEGER, PostgreSQL bigint).
        case bigInteger
        /// A double (SQLite DOUBLE, PostgreSQL double precision).
        case double
        /// A boolean (SQLite BOOLEAN: 0/1, PostgreSQL boolean).
        case boolean
        /// A UTC time to the millisecond (SQLite DATETIME text, PostgreSQL timestamp(3)).
        case datetime
        /// A point in time to the microsecond, compared with the server's
        /// clock (PostgreSQL timestamptz; SQLite DATETIME text).
        case timestampWithTimeZone
        /// Bytes (SQLite BLOB, PostgreSQL bytea).
        case blob
        /// JSON text (SQLite TEXT read with json_extract, PostgreSQL jsonb).
        case json
        /// A number the database gives each new row, never reused (SQLite
        /// INTEGER PRIMARY KEY AUTOINCREMENT, PostgreSQL bigint identity).
        case sequence

        /// The type in `dialect`'s DDL.
        package func sql(_ dialect: SQLDialect) -> String {
            switch (self, dialect) {
            case (.text, _), (.json, .sqlite): "TEXT"
            case (.integer, _), (.bigInteger, .sqlite), (.sequence, .sqlite): "INTEGER"
            case (.bigInteger, .postgres): "bigint"
            case (.double, .sqlite): "DOUBLE"
            case (.double, .postgres): "double precision"
            case (.boolean, _): "BOOLEAN"
            case (.datetime, .sqlite), (.timestampWithTimeZone, .sqlite): "DATETIME"
            case (.datetime, .postgres): "timestamp(3)"
            case (.timestampWithTimeZone, .postgres): "timestamptz"
            case (.blob, .sqlite): "BLOB"
            case (.blob, .postgres): "bytea"
            case (.json, .postgres): "jsonb"
            case (.sequence, .postgres): "bigint GENERATED ALWAYS AS IDENTITY"
            }
        }
    }

    /// One column of a table, untyped (what the DDL needs).
    package struct Column: Sendable, Hashable {
        package let name: String
        package let type: ColumnType
        package let notNull: Bool
        /// The default as both dialects read it: a number, a boolean
        /// (written 0/1 in SQLite, FALSE/TRUE in PostgreSQL), a text or the time of the insert.
        package let defaultValue: Default?
        /// A condition every value meets (a CHECK constraint).
        package let check: Check?
        /// The table whose `id` (or `seq`) it references, its rows deleted with that row.
        package let references: String?
        /// SQLite compares it ignoring ASCII case (COLLATE NOCASE); PostgreSQL
        /// compares `lower()` through an index instead.
        package let noCase: Bool
        /// Two rows never hold the same value (a UNIQUE constraint).
        package let unique: Bool
        /// Only in PostgreSQL (what SQLite has without a column, e.g. a rowid).
        package let postgresOnly: Bool

        package enum Default: Sendable, Hashable {
            case integer(Int), boolean(Bool), text(String)
            /// The time the row is inserted (PostgreSQL: `clock_timestamp()`, not the transaction's start).
            case now

            func sql(_ dialect: SQLDialect) -> String {
                switch self {
                case .integer(let n): String(n)
                case .boolean(let b): b ? dialect.trueLiteral : dialect.falseLiteral
                case .text(let t): CatalogSchema.literal(t)
                case .now: dialect == .postgres ? "clock_timestamp()" : "CURRENT_TIMESTAMP"
                }
            }
        }

        /// A column's CHECK constraint.
        package enum Check: Sendable, Hashable {
            /// One of these texts.
            case oneOf([String])
            /// A number in this range.
            case within(ClosedRange<Int>)

            func sql(_ column: String) -> String {
                switch self {
                case .oneOf(let values): "\(column) IN (" + values.map(CatalogSchema.literal).joined(separator: ", ") + ")"
                case .within(let range): "\(column) BETWEEN \(range.lowerBound) AND \(range.upperBound)"
                }
            }
        }

        /// The column's definition in `dialect`'s CREATE TABLE or ADD COLUMN
        /// (SQLite: quoted, as GRDB writes it; PostgreSQL: unquoted, so folded
        /// to lower case like every statement's names).
        package func definition(_ dialect: SQLDialect, primaryKey: Bool = false) -> String {
            var out = dialect == .sqlite ? "\"\(name)\" " : "\(name) "
            out += type.sql(dialect)
            if primaryKey { out += dialect == .sqlite && type == .sequence ? " PRIMARY KEY AUTOINCREMENT" : " PRIMARY KEY" }
            if notNull && type != .sequence { out += " NOT NULL" }
            if unique { out += " UNIQUE" }
            if let defaultValue { out += " DEFAULT " + defaultValue.sql(dialect) }
            if let check { out += " CHECK (" + check.sql(name) + ")" }
            if noCase && dialect == .sqlite { out += " COLLATE NOCASE" }
            if let references {
                let key = CatalogSchema.table(references)?.primaryKey.first ?? "id"
                out += dialect == .sqlite ? " REFERENCES \"\(references)\"(\"\(key)\") ON DELETE CASCADE"
                                          : " REFERENCES \(references)(\(key)) ON DELETE CASCADE"
            }
            return out
        }
    }

    /// A declared column with the Swift type its values are read and bound
    /// as (`Value`: optional for a nullable column). Interpolated into SQL
    /// text it is its name.
    package struct Field<Value: CatalogColumnValue>: Sendable, CustomStringConvertible, DeclaredColumn {
        package let column: Column
        package var name: String { column.name }
        package var description: String { column.name }

        /// A column of `Value`'s SQL type (`type` for another one: JSON text,
        /// a 64-bit or sequence number read as `Int`); NOT NULL unless
        /// `Value` is optional.
        package init(_ name: String, _ type: ColumnType? = nil, references: String? = nil, noCase: Bool = false,
                     unique: Bool = false, check: Column.Check? = nil, postgresOnly: Bool = false) {
            self.init(name, type, nil, references: references, noCase: noCase, unique: unique, check: check, postgresOnly: postgresOnly)
        }

        fileprivate init(_ name: String, _ type: ColumnType?, _ defaultValue: Column.Default?, references: String? = nil,
                         noCase: Bool = false, unique: Bool = false, check: Column.Check? = nil, postgresOnly: Bool = false) {
            column = Column(name: name, type: type ?? Value.columnType, notNull: !Value.isOptional, defaultValue: defaultValue,
                            check: check, references: references, noCase: noCase, unique: unique, postgresOnly: postgresOnly)
        }

        /// The value bound to this column.
        package func bind(_ value: Value) -> (Column, SQLValue) { (column, value.sqlValue) }
    }

    /// One table's declaration: its name and its fields (`Field` stored
    /// properties, in the table's column order).
    package protocol TableDeclaration: Sendable, CustomStringConvertible {
        var tableName: String { get }
    }

    /// One table: its columns in order, and its primary key.
    package struct Table: Sendable {
        package let name: String
        package let columns: [Column]
        package let primaryKey: [String]
        /// PostgreSQL keys it by a unique index on `lower()` of a NOCASE
        /// column instead (assetKeyword: a keyword once in any case).
        package let primaryKeyInPostgres: Bool

        init(_ table: some TableDeclaration, primaryKey: [any DeclaredColumn], primaryKeyInPostgres: Bool = true) {
            name = table.tableName
            columns = Mirror(reflecting: table).children.compactMap { ($0.value as? any DeclaredColumn)?.column }
            self.primaryKey = primaryKey.map(\.column.name)
            self.primaryKeyInPostgres = primaryKeyInPostgres
        }

        /// The columns `dialect` has.
        package func columns(_ dialect: SQLDialect) -> [Column] {
            dialect == .postgres ? columns : columns.filter { !$0.postgresOnly }
        }

        /// The column named `name`.
        package func column(_ name: String) -> Column? { columns.first { $0.name == name } }

        /// The table's CREATE TABLE in `dialect` (without its indexes).
        package func createTable(_ dialect: SQLDialect) -> String {
            let key = dialect == .postgres && !primaryKeyInPostgres ? [] : primaryKey
            let single = key.count == 1 ? key[0] : nil
            var parts = columns(dialect).map { $0.definition(dialect, primaryKey: $0.name == single) }
            if key.count > 1 {
                parts.append("PRIMARY KEY (" + key.map { dialect == .sqlite ? "\"\($0)\"" : $0 }.joined(separator: ", ") + ")")
            }
            let name = dialect == .sqlite ? "\"\(self.name)\"" : self.name
            return "CREATE TABLE \(name) (\n    " + parts.joined(separator: ",\n    ") + "\n)"
        }
    }

    /// One key of an index: a column or an expression, as each dialect writes it.
    package struct IndexKey: Sendable {
        let sqlite: String
        let postgres: String

        /// The column as it is (both dialects).
        package static func column(_ field: some DeclaredColumn) -> IndexKey { IndexKey(sqlite: field.column.name, postgres: field.column.name) }

        /// Text in byte order, as the queries sort it (SQLDialect.bytewise:
        /// SQLite's BINARY collation, PostgreSQL `COLLATE "C"`).
        package static func bytewise(_ field: some DeclaredColumn) -> IndexKey {
            IndexKey(sqlite: field.column.name, postgres: "(\(SQLDialect.postgres.bytewise(field.column.name)))")
        }

        /// Text compared ignoring case, as SQLDialect.keywordColumn writes it
        /// (SQLite: the NOCASE column; PostgreSQL: `lower()`, in byte order).
        package static func foldedCase(_ field: some DeclaredColumn) -> IndexKey {
            IndexKey(sqlite: field.column.name, postgres: "(lower(\(field.column.name)) COLLATE \"C\")")
        }

        /// An expression only PostgreSQL indexes (in an index `only: .postgres`).
        package static func postgres(_ expression: String) -> IndexKey { IndexKey(sqlite: "", postgres: expression) }

        /// An expression, written for each dialect.
        package static func expression(sqlite: String, postgres: String) -> IndexKey { IndexKey(sqlite: sqlite, postgres: postgres) }

        /// The key in descending order (PostgreSQL: NULLs last when `nullsLast`).
        package func descending(nullsLast: Bool = false) -> IndexKey {
            IndexKey(sqlite: sqlite + " DESC", postgres: postgres + " DESC" + (nullsLast ? " NULLS LAST" : ""))
        }

        func sql(_ dialect: SQLDialect) -> String { dialect == .sqlite ? sqlite : postgres }
    }

    /// An index (or a UNIQUE index) of a table, in one dialect or both.
    package struct Index: Sendable {
        package let name: String
        package let table: String
        package let unique: Bool
        /// The keys in SQLite and in PostgreSQL; nil: the dialect has no such index.
        let sqliteKeys: [IndexKey]?
        let postgresKeys: [IndexKey]?
        /// A partial index's condition (the same text in both dialects).
        let predicate: String?

        /// An index of `table` on `keys`, in both dialects unless `only`
        /// says one; `postgres`: other keys in PostgreSQL.
        init(_ name: String, on table: some TableDeclaration, _ keys: [IndexKey], unique: Bool = false, where predicate: String? = nil,
             only: SQLDialect? = nil, postgres: [IndexKey]? = nil) {
            self.name = name
            self.table = table.tableName
            self.unique = unique
            sqliteKeys = only == .postgres ? nil : keys
            postgresKeys = only == .sqlite ? nil : (postgres ?? keys)
            self.predicate = predicate
        }

        /// Whether `dialect` has this index.
        package func exists(in dialect: SQLDialect) -> Bool { (dialect == .sqlite ? sqliteKeys : postgresKeys) != nil }

        /// Its CREATE INDEX in `dialect`, nil when the dialect has none.
        package func create(_ dialect: SQLDialect) -> String? {
            guard let keys = dialect == .sqlite ? sqliteKeys : postgresKeys else { return nil }
            return "CREATE \(unique ? "UNIQUE " : "")INDEX \(name) ON \(table)(" + keys.map { $0.sql(dialect) }.joined(separator: ", ") + ")"
                + (predicate.map { " WHERE " + $0 } ?? "")
        }
    }

    /// A trigger: a table's event and the statements it runs, in one
    /// dialect or both (PostgreSQL: a trigger function of the same name).
    package struct Trigger: Sendable {
        package let name: String
        /// When it fires: `AFTER INSERT ON revision`.
        let event: String
        /// PostgreSQL runs it once per statement instead of once per row.
        let perStatement: Bool
        /// SQLite's statements between BEGIN and END; nil: none in SQLite.
        let sqlite: String?
        /// The PL/pgSQL statements of its function between BEGIN and END; nil: none in PostgreSQL.
        let postgres: String?

        init(name: String, event: String, perStatement: Bool = false, sqlite: String?, postgres: String?) {
            self.name = name
            self.event = event
            self.perStatement = perStatement
            self.sqlite = sqlite
            self.postgres = postgres
        }

        /// Whether `dialect` has this trigger.
        package func exists(in dialect: SQLDialect) -> Bool { (dialect == .sqlite ? sqlite : postgres) != nil }

        /// Its statements in `dialect` (PostgreSQL: its function, then the
        /// trigger); empty when the dialect has none.
        package func create(_ dialect: SQLDialect) -> [String] {
            switch dialect {
            case .sqlite:
                guard let sqlite else { return [] }
                return ["CREATE TRIGGER \(name) \(event) BEGIN\n\(sqlite);\nEND"]
            case .postgres:
                guard let postgres else { return [] }
                return ["CREATE FUNCTION \(name)() RETURNS trigger LANGUAGE plpgsql AS $$\nBEGIN\n\(postgres)\nEND $$",
                        "CREATE TRIGGER \(name) \(event) FOR EACH \(perStatement ? "STATEMENT" : "ROW") EXECUTE FUNCTION \(name)()"]
            }
        }
    }

    /// A function PostgreSQL's triggers call (`definition`: what follows
    /// its name in CREATE FUNCTION).
    package struct Function: Sendable, CustomStringConvertible {
        package let name: String
        let definition: String

        package var create: String { "CREATE FUNCTION " + name + definition }
        /// Its name, to call it in SQL text.
        package var description: String { name }
    }

    /// A SQL text literal (quotes doubled).
    static func literal(_ text: String) -> String { "'" + text.replacingOccurrences(of: "'", with: "''") + "'" }

    // MARK: Whole schema and migrations

    /// The whole schema in `dialect`, one statement each: tables (each
    /// referencing only tables before it; PostgreSQL's own last), functions,
    /// triggers, indexes.
    package static func ddl(_ dialect: SQLDialect) -> [String] {
        tables(dialect).map { $0.createTable(dialect) }
            + (dialect == .postgres ? functions.map(\.create) : [])
            + triggers.flatMap { $0.create(dialect) }
            + indexes.compactMap { $0.create(dialect) }
    }

    /// A new column of `table` in a migration, in `dialect` (the column
    /// must be declared in `tables`).
    package static func addColumn(_ name: String, to table: String, _ dialect: SQLDialect) -> String? {
        guard let column = self.table(table)?.column(name) else { return nil }
        return "ALTER TABLE \(table) ADD COLUMN " + column.definition(dialect)
    }

    /// A new index of a migration, in `dialect`; nil when it is not declared
    /// or the dialect has none.
    package static func createIndex(_ name: String, _ dialect: SQLDialect) -> String? {
        indexes.first { $0.name == name }?.create(dialect)
    }

    /// A new trigger of a migration (and its function), in `dialect`; empty
    /// when it is not declared or the dialect has none.
    package static func createTrigger(_ name: String, _ dialect: SQLDialect) -> [String] {
        triggers.first { $0.name == name }?.create(dialect) ?? []
    }

    /// The tables `dialect` has: every store's, then (PostgreSQL) its own.
    package static func tables(_ dialect: SQLDialect) -> [Table] {
        dialect == .postgres ? tables + postgresTables : tables
    }

    /// The declared table named `name` (either store's).
    package static func table(_ name: String) -> Table? { tables(.postgres).first { $0.name == name } }

    /// What follows `INSERT INTO`: `table (a, b, …) VALUES (?, ?, …)`, with
    /// `rows` rows of `columns` (a JSON column's value bound as `dialect`
    /// keeps JSON). The catalog's inserts and the generated sample catalogs
    /// write their statements with it.
    package static func valuesClause(_ table: some TableDeclaration, _ columns: [Column], rows: Int = 1,
                                     _ dialect: SQLDialect) -> String {
        let names = columns.map(\.name).joined(separator: ", ")
        let row = "(" + columns.map { $0.type == .json ? dialect.jsonPlaceholder : "?" }.joined(separator: ", ") + ")"
        return "\(table) (\(names)) VALUES " + Array(repeating: row, count: rows).joined(separator: ", ")
    }
}

/// A declared column, whatever its Swift type (`CatalogSchema.Field`).
package protocol DeclaredColumn: Sendable {
    var column: CatalogSchema.Column { get }
}

/// A Swift type a declared column holds: its SQL type, and whether NULL is
/// one of its values.
package protocol CatalogColumnValue: CatalogValue {
    static var columnType: CatalogSchema.ColumnType { get }
    static var isOptional: Bool { get }
}

extension CatalogColumnValue {
    package static var isOptional: Bool { false }
}

extension String: CatalogColumnValue { package static var columnType: CatalogSchema.ColumnType { .text } }
extension Int: CatalogColumnValue { package static var columnType: CatalogSchema.ColumnType { .integer } }
extension Int64: CatalogColumnValue { package static var columnType: CatalogSchema.ColumnType { .bigInteger } }
extension Double: CatalogColumnValue { package static var columnType: CatalogSchema.ColumnType { .double } }
extension Bool: CatalogColumnValue { package static var columnType: CatalogSchema.ColumnType { .boolean } }
extension Date: CatalogColumnValue { package static var columnType: CatalogSchema.ColumnType { .datetime } }
extension Data: CatalogColumnValue { package static var columnType: CatalogSchema.ColumnType { .blob } }
extension Optional: CatalogColumnValue where Wrapped: CatalogColumnValue {
    package static var columnType: CatalogSchema.ColumnType { Wrapped.columnType }
    package static var isOptional: Bool { true }
}

extension CatalogSchema.Field where Value == Int {
    /// A NOT NULL integer column with a default.
    init(_ name: String, _ type: CatalogSchema.ColumnType? = nil, default value: Int) {
        self.init(name, type, .integer(value))
    }
}

extension CatalogSchema.Field where Value == Int64 {
    /// A NOT NULL 64-bit integer column with a default.
    init(_ name: String, default value: Int64) {
        self.init(name, nil, .integer(Int(value)))
    }
}

extension CatalogSchema.Field where Value == Bool {
    /// A NOT NULL boolean column with a default.
    init(_ name: String, default value: Bool) {
        self.init(name, nil, .boolean(value))
    }
}

extension CatalogSchema.Field where Value == String {
    /// A NOT NULL text column with a default.
    init(_ name: String, default value: String, check: CatalogSchema.Column.Check? = nil) {
        self.init(name, nil, .text(value), check: check)
    }
}

extension CatalogSchema.Field where Value == Date {
    /// A NOT NULL time column with a default (`.now`: the time of the insert).
    init(_ name: String, _ type: CatalogSchema.ColumnType? = nil, default value: CatalogSchema.Column.Default) {
        self.init(name, type, value)
    }
}

extension CatalogSchema.TableDeclaration {
    package var description: String { tableName }

    /// One of this table's fields named with its table (`asset.pixelWidth`),
    /// for statements over several tables or in subqueries.
    package func qualified<V: CatalogColumnValue>(_ field: KeyPath<Self, CatalogSchema.Field<V>>) -> String {
        "\(tableName).\(self[keyPath: field].name)"
    }
}

// MARK: The tables

extension CatalogSchema {
    /// Every table both stores have, in an order in which each references
    /// only tables before it.
    package static let tables: [Table] = [
        Table(asset, primaryKey: [asset.id]),
        Table(revision, primaryKey: [revision.assetId, revision.number]),
        Table(album, primaryKey: [album.id]),
        Table(albumAsset, primaryKey: [albumAsset.albumId, albumAsset.assetId]),
        Table(changeSet, primaryKey: [changeSet.seq]),
        Table(changeEntry, primaryKey: [changeEntry.seq, changeEntry.objectType, changeEntry.objectId]),
        Table(assetKeyword, primaryKey: [assetKeyword.assetId, assetKeyword.keyword], primaryKeyInPostgres: false),
        Table(snapshot, primaryKey: [snapshot.assetId, snapshot.name]),
    ]

    /// The tables only PostgreSQL has: the job queue of many nodes.
    package static let postgresTables: [Table] = [
        Table(job, primaryKey: [job.id]),
    ]

    package static let asset = Asset()
    package static let revision = Revision()
    package static let album = Album()
    package static let albumAsset = AlbumAsset()
    package static let changeSet = ChangeSet()
    package static let changeEntry = ChangeEntry()
    package static let assetKeyword = AssetKeyword()
    package static let snapshot = Snapshot()
    package static let job = Job()

    /// The NOTIFY channel of committed change sets (its payload: the change set's number).
    package static let changesChannel = "photoedit_changes"
    /// The NOTIFY channel of enqueued jobs (a wake-up, no payload).
    package static let jobsChannel = "photoedit_jobs"

    /// A photo (a master or a virtual copy).
    package struct Asset: TableDeclaration {
        package let tableName = "asset"
        package let id = Field<String>("id")
        package let originalFilename = Field<String>("originalFilename")
        package let sha256 = Field<String>("sha256")
        package let originalPath = Field<String>("originalPath")
        package let fileSize = Field<Int64>("fileSize")
        package let format = Field<String>("format")
        package let uniformTypeIdentifier = Field<String>("uniformTypeIdentifier")
        package let mediaType = Field<String>("mediaType")
        package let originalPixelWidth = Field<Int>("originalPixelWidth")
        package let originalPixelHeight = Field<Int>("originalPixelHeight")
        package let orientation = Field<Int>("orientation")
        /// The camera's local time as it recorded it (text).
        package let creationDate = Field<String?>("creationDate")
        package let latitude = Field<Double?>("latitude")
        package let longitude = Field<Double?>("longitude")
        package let importDate = Field<Date>("importDate")
        /// The current revision's number.
        package let revision = Field<Int>("revision", default: 0)
        package let favorite = Field<Bool>("favorite", default: false)
        package let hidden = Field<Bool>("hidden", default: false)
        package let trashedDate = Field<Date?>("trashedDate")
        /// CameraInfo as JSON (its keys: CameraInfo.CodingKeys), NULL when unknown.
        package let camera = Field<String?>("camera", .json)
        // The current version's size and whether it has adjustments: kept by triggers.
        package let pixelWidth = Field<Int>("pixelWidth", default: 0)
        package let pixelHeight = Field<Int>("pixelHeight", default: 0)
        package let adjusted = Field<Bool>("adjusted", default: false)
        package let sourceFolder = Field<String?>("sourceFolder")
        package let sourceStem = Field<String?>("sourceStem")
        package let alternatePath = Field<String?>("alternatePath")
        package let alternateSha256 = Field<String?>("alternateSha256")
        package let alternateFilename = Field<String?>("alternateFilename")
        package let alternateFileSize = Field<Int64?>("alternateFileSize")
        package let alternateFormat = Field<String?>("alternateFormat")
        package let alternateUniformTypeIdentifier = Field<String?>("alternateUniformTypeIdentifier")
        /// −1 rejected, 0 unrated, 1–5 stars.
        package let rating = Field<Int>("rating", default: 0)
        package let colorLabel = Field<String?>("colorLabel")
        package let title = Field<String?>("title")
        package let caption = Field<String?>("caption")
        package let metadataPath = Field<String?>("metadataPath")
        package let masterId = Field<String?>("masterId")
        package let copyName = Field<String?>("copyName")
    }

    /// A revision of a photo: an import, an edit, a revert.
    package struct Revision: TableDeclaration {
        package let tableName = "revision"
        package let assetId = Field<String>("assetId", references: "asset")
        package let number = Field<Int>("number")
        package let createdAt = Field<Date>("createdAt")
        package let kind = Field<String>("kind")
        package let formatIdentifier = Field<String?>("formatIdentifier")
        package let formatVersion = Field<String?>("formatVersion")
        package let data = Field<Data?>("data")
        package let renderPath = Field<String?>("renderPath")
        package let pixelWidth = Field<Int>("pixelWidth")
        package let pixelHeight = Field<Int>("pixelHeight")
        package let baseRevision = Field<Int?>("baseRevision")
        package let basePath = Field<String?>("basePath")
        package let sidecarPath = Field<String?>("sidecarPath")
    }

    /// An album (its title unique).
    package struct Album: TableDeclaration {
        package let tableName = "album"
        package let id = Field<String>("id")
        package let title = Field<String>("title", unique: true)
        package let createdAt = Field<Date>("createdAt")
    }

    /// A photo's place in an album.
    package struct AlbumAsset: TableDeclaration {
        package let tableName = "albumAsset"
        package let albumId = Field<String>("albumId", references: "album")
        package let assetId = Field<String>("assetId", references: "asset")
        package let position = Field<Int>("position")
    }

    /// One committed change of the change feed.
    package struct ChangeSet: TableDeclaration {
        package let tableName = "changeSet"
        package let seq = Field<Int>("seq", .sequence)
        package let time = Field<Date>("time")
    }

    /// One object a change set changed.
    package struct ChangeEntry: TableDeclaration {
        package let tableName = "changeEntry"
        package let seq = Field<Int>("seq", .bigInteger, references: "changeSet")
        package let objectType = Field<String>("objectType")
        package let objectId = Field<String>("objectId")
        package let kind = Field<String>("kind")
        package let aspects = Field<String>("aspects")
        /// The object's JSON snapshot before the change (NULL: inserted).
        package let before = Field<String?>("before")
        /// The order a commit wrote its entries in (SQLite reads its rowid; SQLDialect.changeEntryOrder).
        package let entryOrder = Field<Int>("entryOrder", .sequence, postgresOnly: true)
    }

    /// A keyword of a photo (a photo holds a keyword once in any case).
    package struct AssetKeyword: TableDeclaration {
        package let tableName = "assetKeyword"
        package let assetId = Field<String>("assetId", references: "asset")
        package let keyword = Field<String>("keyword", noCase: true)
    }

    /// A named snapshot: a name given to one of a photo's revisions.
    package struct Snapshot: TableDeclaration {
        package let tableName = "snapshot"
        package let assetId = Field<String>("assetId", references: "asset")
        package let name = Field<String>("name")
        package let revision = Field<Int>("revision")
        package let createdAt = Field<Date>("createdAt")
    }

    /// A unit of batch work in PostgreSQL's job queue, claimed by any node
    /// (PostgresJobs). A claim is a lease its worker renews; `attempts`
    /// numbers the claims and fences the worker.
    package struct Job: TableDeclaration {
        /// Where a job is: the public `CatalogJobState`'s cases, in their order.
        package static let states = CatalogJobState.allCases.map(\.rawValue)
        /// The claims a job may be given before it fails.
        package static let attemptsAllowed = 1...100

        package let tableName = "job"
        package let id = Field<Int64>("id", .sequence)
        package let batch = Field<String>("batch")
        package let kind = Field<String>("kind")
        /// A JSON object, as enqueued.
        package let payload = Field<String>("payload", .json)
        package let state = Field<String>("state", default: CatalogJobState.queued.rawValue, check: .oneOf(Job.states))
        /// Claims so far.
        package let attempts = Field<Int>("attempts", default: 0)
        package let maxAttempts = Field<Int>("maxAttempts", check: .within(Job.attemptsAllowed))
        /// The worker of the latest claim.
        package let worker = Field<String?>("worker")
        /// When the running claim's lease runs out.
        package let leaseUntil = Field<Date?>("leaseUntil", .timestampWithTimeZone)
        /// When a queued job may be claimed (after a failure's back-off).
        package let runAfter = Field<Date>("runAfter", .timestampWithTimeZone, default: .now)
        /// Items done, and in all when known.
        package let done = Field<Int64>("done", default: 0)
        package let total = Field<Int64?>("total")
        /// The last failure's message.
        package let error = Field<String?>("error")
        package let created = Field<Date>("created", .timestampWithTimeZone, default: .now)
        package let finished = Field<Date?>("finished", .timestampWithTimeZone)
    }
}

// MARK: Indexes, triggers, functions

extension CatalogSchema {
    /// Every index (UNIQUE ones too) but those of primary keys and UNIQUE columns.
    package static let indexes: [Index] = {
        let a = asset, k = assetKeyword, make = CameraInfo.CodingKeys.make.rawValue
        // Listing pages and the timeline: visible photos.
        let visible = "NOT \(a.hidden) AND \(a.trashedDate) IS NULL"
        return [
            Index("albumAsset_asset", on: albumAsset, [.column(albumAsset.assetId)]),
            Index("album_title", on: album, [.postgres("lower(\(album.title))")], only: .postgres),
            Index("changeEntry_object", on: changeEntry, [.column(changeEntry.objectId), .column(changeEntry.seq)]),
            // Sort keys and frequent filters.
            Index("asset_importDate", on: a, [.column(a.importDate)]),
            Index("asset_creationDate", on: a, [.bytewise(a.creationDate)]),
            Index("asset_originalFilename", on: a, [.bytewise(a.originalFilename)]),
            // PostgreSQL: largest first, then by name: the whole key, because thousands of photos share a width.
            Index("asset_pixelWidth", on: a, [.column(a.pixelWidth)],
                  postgres: [IndexKey.column(a.pixelWidth).descending(), .bytewise(a.originalFilename), .bytewise(a.id)]),
            Index("asset_cameraMake", on: a, [.expression(sqlite: "json_extract(\(a.camera), '$.\(make)') COLLATE NOCASE",
                                                          postgres: "lower(\(a.camera) ->> '\(make)')")]),
            Index("asset_favorite", on: a, [.column(a.importDate)], where: "\(a.favorite)"),
            Index("asset_source", on: a, [.column(a.sourceFolder), .column(a.sourceStem)]),
            Index("asset_rating", on: a, [.column(a.rating)]),
            // A virtual copy shares its master's original: the bytes' hashes are unique among masters only.
            Index("asset_sha256", on: a, [.column(a.sha256)], unique: true, where: "\(a.masterId) IS NULL"),
            Index("asset_alternateSha256", on: a, [.column(a.alternateSha256)], unique: true, where: "\(a.masterId) IS NULL"),
            Index("asset_originalPath", on: a, [.column(a.originalPath)]),
            Index("asset_master", on: a, [.column(a.masterId)], where: "\(a.masterId) IS NOT NULL"),
            // PostgreSQL's sorted pages of a million photos walk an index in
            // the sort order and stop after LIMIT matches (docs/benchmarks.md):
            // listing pages (import order), the timeline (newest capture
            // first), of every visible photo and of the favorites.
            Index("asset_listing", on: a, [.column(a.importDate), .bytewise(a.id)], where: visible, only: .postgres),
            Index("asset_timeline", on: a, [IndexKey.bytewise(a.creationDate).descending(nullsLast: true), .bytewise(a.id)],
                  where: visible, only: .postgres),
            Index("asset_favoriteTimeline", on: a, [IndexKey.bytewise(a.creationDate).descending(nullsLast: true), .bytewise(a.id)],
                  where: "\(a.favorite) AND " + visible, only: .postgres),
            // A keyword once per photo in any case (SQLite: the NOCASE primary key).
            Index("assetKeyword_asset", on: k, [.column(k.assetId), .postgres("lower(\(k.keyword))")],
                  unique: true, only: .postgres),
            Index("assetKeyword_keyword", on: k, [.foldedCase(k.keyword), .column(k.assetId)]),
            // The jobs a claim looks at, and a batch's.
            Index("job_open", on: job, [.column(job.id)],
                  where: "\(job.state) IN (" + CatalogJobState.unfinished.map(\.sqlLiteral).joined(separator: ", ") + ")", only: .postgres),
            Index("job_batch", on: job, [.column(job.batch)], only: .postgres),
        ]
    }()

    /// The triggers: the current version's columns of `asset` kept whoever
    /// writes a revision (both); PostgreSQL's change sets numbered in commit
    /// order and announced, and its enqueued jobs announced.
    package static let triggers: [Trigger] = {
        let a = asset, r = revision, cs = changeSet
        // The current revision of the photo being updated (SQLite).
        let ofCurrent = "FROM \(r) WHERE \(r.assetId) = \(a.qualified(\.id)) AND \(r.number) = \(a.qualified(\.revision))"
        // The current version's columns as its current revision has them (SQLite).
        let current = """
            \(a.pixelWidth) = (SELECT \(r.pixelWidth) \(ofCurrent)),
            \(a.pixelHeight) = (SELECT \(r.pixelHeight) \(ofCurrent)),
            \(a.adjusted) = (SELECT \(r.formatIdentifier) IS NOT NULL \(ofCurrent))
            """
        return [
            Trigger(name: "asset_current_on_revision", event: "AFTER INSERT ON \(r)",
                    sqlite: "UPDATE \(a) SET \(current) WHERE \(a.id) = NEW.\(r.assetId) AND \(a.revision) = NEW.\(r.number)",
                    postgres: """
                        IF EXISTS (SELECT 1 FROM \(a) WHERE \(a.id) = NEW.\(r.assetId) AND \(a.revision) = NEW.\(r.number)) THEN
                            PERFORM \(assetCurrent)(NEW.\(r.assetId));
                        END IF;
                        RETURN NULL;
                        """),
            Trigger(name: "asset_current_on_asset", event: "AFTER UPDATE OF \(a.revision) ON \(a)",
                    sqlite: "UPDATE \(a) SET \(current) WHERE \(a.id) = NEW.\(a.id)",
                    postgres: """
                        PERFORM \(assetCurrent)(NEW.\(a.id));
                        RETURN NULL;
                        """),
            // Change sets are numbered in commit order, so that a reader that
            // has seen change n has seen every change before it: a commit
            // takes the feed's lock when it inserts its change set (its last
            // statement) and holds it until it ends, and numbers it after the
            // latest committed one (PostgresSchema pg4).
            Trigger(name: "changeSet_order", event: "BEFORE INSERT ON \(cs)", sqlite: nil, postgres: """
                PERFORM pg_advisory_xact_lock(7368420152);
                NEW.\(cs.seq) := (SELECT COALESCE(MAX(\(cs.seq)), 0) + 1 FROM \(cs));
                RETURN NEW;
                """),
            // A wake-up only: the change feed stays the truth.
            Trigger(name: "changeSet_notify", event: "AFTER INSERT ON \(cs)", sqlite: nil, postgres: """
                PERFORM pg_notify('\(changesChannel)', NEW.\(cs.seq)::text);
                RETURN NULL;
                """),
            // A wake-up only, once per INSERT however many jobs it adds: the job table stays the truth.
            Trigger(name: "job_notify", event: "AFTER INSERT ON \(job)", perStatement: true, sqlite: nil, postgres: """
                PERFORM pg_notify('\(jobsChannel)', '');
                RETURN NULL;
                """),
        ]
    }()

    /// PostgreSQL's functions its triggers call.
    package static let functions: [Function] = [assetCurrent]

    /// A photo's current-version columns from its current revision (PostgreSQL).
    static let assetCurrent: Function = {
        let a = asset, r = revision
        return Function(name: "asset_current", definition: """
            (asset_id text) RETURNS void LANGUAGE sql AS $$
                UPDATE \(a) SET
                    \(a.pixelWidth) = r.\(r.pixelWidth), \(a.pixelHeight) = r.\(r.pixelHeight), \(a.adjusted) = r.\(r.formatIdentifier) IS NOT NULL
                FROM \(r) r
                WHERE \(a.qualified(\.id)) = asset_id AND r.\(r.assetId) = \(a.qualified(\.id)) AND r.\(r.number) = \(a.qualified(\.revision))
            $$
            """)
    }()
}
