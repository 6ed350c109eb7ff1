import Foundation

// The catalog's tables declared once, as they are after the latest migration
// of both stores (SQLite: Catalog.swift v1–v9; PostgreSQL: PostgresSchema.swift
// pg1–pg8): each column's name, type, nullability and default, each table's
// primary key and foreign keys. `createTable(_:)` writes a table's DDL in
// either dialect and `addColumn(_:to:_:)` a migration's new column, so a new
// migration is generated from the declaration instead of written twice.
// The registered migrations are history and stay as they are;
// CatalogSchemaTests builds the declared tables in both dialects and checks
// that they are column for column, type for type, key for key what the
// migrations make on a fresh catalog.
//
// Not declared here (still written in each store's migrations): indexes,
// triggers, UNIQUE constraints and PostgreSQL's job tables.

/// The catalog's tables, declared once.
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
            case (.datetime, .sqlite): "DATETIME"
            case (.datetime, .postgres): "timestamp(3)"
            case (.blob, .sqlite): "BLOB"
            case (.blob, .postgres): "bytea"
            case (.json, .postgres): "jsonb"
            case (.sequence, .postgres): "bigint GENERATED ALWAYS AS IDENTITY"
            }
        }
    }

    /// One column of a table.
    package struct Column: Sendable, Hashable {
        package let name: String
        package let type: ColumnType
        package let notNull: Bool
        /// The default as both dialects read it: a number, or a boolean
        /// (written 0/1 in SQLite, FALSE/TRUE in PostgreSQL).
        package let defaultValue: Default?
        /// The table whose `id` (or `seq`) it references, its rows deleted with that row.
        package let references: String?
        /// SQLite compares it ignoring ASCII case (COLLATE NOCASE); PostgreSQL
        /// compares `lower()` through an index instead.
        package let noCase: Bool
        /// Only in PostgreSQL (what SQLite has without a column, e.g. a rowid).
        package let postgresOnly: Bool

        package enum Default: Sendable, Hashable {
            case integer(Int), boolean(Bool)

            func sql(_ dialect: SQLDialect) -> String {
                switch self {
                case .integer(let n): String(n)
                case .boolean(let b): b ? dialect.trueLiteral : dialect.falseLiteral
                }
            }
        }

        init(_ name: String, _ type: ColumnType, notNull: Bool = false, default defaultValue: Default? = nil,
             references: String? = nil, noCase: Bool = false, postgresOnly: Bool = false) {
            self.name = name
            self.type = type
            self.notNull = notNull
            self.defaultValue = defaultValue
            self.references = references
            self.noCase = noCase
            self.postgresOnly = postgresOnly
        }

        /// The column's definition in `dialect`'s CREATE TABLE or ADD COLUMN
        /// (SQLite: quoted, as GRDB writes it; PostgreSQL: unquoted, so folded
        /// to lower case like every statement's names).
        package func definition(_ dialect: SQLDialect, primaryKey: Bool = false) -> String {
            var out = dialect == .sqlite ? "\"\(name)\" " : "\(name) "
            out += type.sql(dialect)
            if primaryKey { out += dialect == .sqlite && type == .sequence ? " PRIMARY KEY AUTOINCREMENT" : " PRIMARY KEY" }
            if notNull && type != .sequence { out += " NOT NULL" }
            if let defaultValue { out += " DEFAULT " + defaultValue.sql(dialect) }
            if noCase && dialect == .sqlite { out += " COLLATE NOCASE" }
            if let references {
                let key = CatalogSchema.table(references)?.primaryKey.first ?? "id"
                out += dialect == .sqlite ? " REFERENCES \"\(references)\"(\"\(key)\") ON DELETE CASCADE"
                                          : " REFERENCES \(references)(\(key)) ON DELETE CASCADE"
            }
            return out
        }
    }

    /// One table: its columns in order, and its primary key.
    package struct Table: Sendable {
        package let name: String
        package let columns: [Column]
        package let primaryKey: [String]
        /// PostgreSQL keys it by a unique index on `lower()` of a NOCASE
        /// column instead (assetKeyword: a keyword once in any case).
        package var primaryKeyInPostgres = true

        /// The columns whose text is JSON (PostgreSQL: jsonb).
        package var jsonColumns: Set<String> { Set(columns.filter { $0.type == .json }.map(\.name)) }

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

    /// A new column of `table` in a migration, in `dialect` (the column
    /// must be declared in `tables`).
    package static func addColumn(_ name: String, to table: String, _ dialect: SQLDialect) -> String? {
        guard let column = self.table(table)?.column(name) else { return nil }
        return "ALTER TABLE \(table) ADD COLUMN " + column.definition(dialect)
    }

    /// The declared table named `name`.
    package static func table(_ name: String) -> Table? { tables.first { $0.name == name } }

    /// Every table both stores have, in an order in which each references
    /// only tables before it.
    package static let tables: [Table] = [
        Table(name: "asset", columns: [
            Column("id", .text, notNull: true), Column("originalFilename", .text, notNull: true), Column("sha256", .text, notNull: true),
            Column("originalPath", .text, notNull: true), Column("fileSize", .bigInteger, notNull: true), Column("format", .text, notNull: true),
            Column("uniformTypeIdentifier", .text, notNull: true), Column("mediaType", .text, notNull: true),
            Column("originalPixelWidth", .integer, notNull: true), Column("originalPixelHeight", .integer, notNull: true),
            Column("orientation", .integer, notNull: true), Column("creationDate", .text),
            Column("latitude", .double), Column("longitude", .double), Column("importDate", .datetime, notNull: true),
            Column("revision", .integer, notNull: true, default: .integer(0)),
            Column("favorite", .boolean, notNull: true, default: .boolean(false)),
            Column("hidden", .boolean, notNull: true, default: .boolean(false)),
            Column("trashedDate", .datetime), Column("camera", .json),
            // The current version's size and whether it has adjustments: kept by triggers.
            Column("pixelWidth", .integer, notNull: true, default: .integer(0)),
            Column("pixelHeight", .integer, notNull: true, default: .integer(0)),
            Column("adjusted", .boolean, notNull: true, default: .boolean(false)),
            Column("sourceFolder", .text), Column("sourceStem", .text), Column("alternatePath", .text), Column("alternateSha256", .text),
            Column("alternateFilename", .text), Column("alternateFileSize", .bigInteger), Column("alternateFormat", .text),
            Column("alternateUniformTypeIdentifier", .text),
            Column("rating", .integer, notNull: true, default: .integer(0)), Column("colorLabel", .text),
            Column("title", .text), Column("caption", .text), Column("metadataPath", .text),
            Column("masterId", .text), Column("copyName", .text),
        ], primaryKey: ["id"]),
        Table(name: "revision", columns: [
            Column("assetId", .text, notNull: true, references: "asset"), Column("number", .integer, notNull: true),
            Column("createdAt", .datetime, notNull: true), Column("kind", .text, notNull: true),
            Column("formatIdentifier", .text), Column("formatVersion", .text), Column("data", .blob), Column("renderPath", .text),
            Column("pixelWidth", .integer, notNull: true), Column("pixelHeight", .integer, notNull: true),
            Column("baseRevision", .integer), Column("basePath", .text), Column("sidecarPath", .text),
        ], primaryKey: ["assetId", "number"]),
        Table(name: "album", columns: [
            Column("id", .text, notNull: true), Column("title", .text, notNull: true), Column("createdAt", .datetime, notNull: true),
        ], primaryKey: ["id"]),
        Table(name: "albumAsset", columns: [
            Column("albumId", .text, notNull: true, references: "album"), Column("assetId", .text, notNull: true, references: "asset"),
            Column("position", .integer, notNull: true),
        ], primaryKey: ["albumId", "assetId"]),
        Table(name: "changeSet", columns: [
            Column("seq", .sequence, notNull: true), Column("time", .datetime, notNull: true),
        ], primaryKey: ["seq"]),
        Table(name: "changeEntry", columns: [
            Column("seq", .bigInteger, notNull: true, references: "changeSet"), Column("objectType", .text, notNull: true),
            Column("objectId", .text, notNull: true), Column("kind", .text, notNull: true), Column("aspects", .text, notNull: true),
            Column("before", .text),
            // The order a commit wrote its entries in (SQLite reads its rowid; SQLDialect.changeEntryOrder).
            Column("entryOrder", .sequence, notNull: true, postgresOnly: true),
        ], primaryKey: ["seq", "objectType", "objectId"]),
        Table(name: "assetKeyword", columns: [
            Column("assetId", .text, notNull: true, references: "asset"), Column("keyword", .text, notNull: true, noCase: true),
        ], primaryKey: ["assetId", "keyword"], primaryKeyInPostgres: false),
        Table(name: "snapshot", columns: [
            Column("assetId", .text, notNull: true, references: "asset"), Column("name", .text, notNull: true),
            Column("revision", .integer, notNull: true), Column("createdAt", .datetime, notNull: true),
        ], primaryKey: ["assetId", "name"]),
    ]
}
