import Foundation
import GRDB
import PhotoEdit
@testable import PhotoEditPostgres
import PhotoEditTestSupport
import Testing

/// The declared tables (`CatalogSchema`) are what the registered migrations
/// make: each table built from the declaration has the same columns (name,
/// type, nullability, default, order), primary key and foreign keys as the
/// same table of a fresh, migrated catalog, in SQLite and in PostgreSQL. A
/// migration added without its declaration (or the reverse) fails here.
@Suite struct CatalogSchemaTests {
    @Test func theDeclaredTablesAreWhatSQLiteMigrationsMake() async throws {
        let temp = TemporaryDirectory("photoedit-schema-sqlite")
        let folder = temp.file("library")
        _ = try PhotoLibrary(url: URL(fileURLWithPath: folder))
        let migrated = try DatabaseQueue(path: folder + "/catalog.sqlite")
        let generated = try DatabaseQueue()
        try await generated.write { db in
            for table in CatalogSchema.tables { try db.execute(sql: table.createTable(.sqlite)) }
        }
        func describe(_ queue: DatabaseQueue) async throws -> [String: [String]] {
            try await queue.read { db in
                let names = try String.fetchAll(db, sql: """
                    SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' AND name NOT LIKE 'grdb_%'
                    """)
                var out: [String: [String]] = [:]
                for name in names {
                    let columns = try Row.fetchAll(db, sql: #"SELECT name, type, "notnull", dflt_value, pk FROM pragma_table_info(?)"#,
                                                   arguments: [name]).map { row in
                        "\(row["name"] as String) \(row["type"] as String) notnull=\(row["notnull"] as Int) default=\((row["dflt_value"] as String?) ?? "-") pk=\(row["pk"] as Int)"
                    }
                    let keys = try Row.fetchAll(db, sql: #"SELECT "from", "table", on_delete FROM pragma_foreign_key_list(?)"#,
                                                arguments: [name]).map { row in
                        "foreign key \(row["from"] as String) -> \(row["table"] as String) on delete \(row["on_delete"] as String)"
                    }.sorted()
                    out[name] = columns + keys
                }
                return out
            }
        }
        let fromMigrations = try await describe(migrated)
        let fromDeclaration = try await describe(generated)
        #expect(fromMigrations.keys.sorted() == CatalogSchema.tables.map(\.name).sorted(), "every table is declared")
        #expect(fromMigrations.values.map(\.count).reduce(0, +) > 70, "the catalog has its columns")
        for table in CatalogSchema.tables {
            #expect(fromDeclaration[table.name] == fromMigrations[table.name], "\(table.name): declared \(fromDeclaration[table.name] ?? []) migrated \(fromMigrations[table.name] ?? [])")
        }
    }

    @Test func theDeclaredTablesAreWhatPostgresMigrationsMake() async throws {
        let catalog = try await PostgresCatalog.open(try PostgresCatalogTests.server().newDatabase())
        defer { Task { await catalog.close() } }
        // The declared tables in a schema of their own, beside the migrated ones in `public`.
        try await catalog.execute([SQLFragment(sql: "CREATE SCHEMA declared"), SQLFragment(sql: "SET LOCAL search_path TO declared")]
                                  + CatalogSchema.tables.map { SQLFragment(sql: $0.createTable(.postgres)) })
        let columns = try await catalog.rows(SQLFragment(sql: """
            SELECT table_schema, table_name, concat_ws(' ', column_name, data_type, 'nullable=' || is_nullable, 'default=' || column_default,
                                                       'identity=' || is_identity, 'precision=' || datetime_precision)
            FROM information_schema.columns WHERE table_schema IN ('public', 'declared') ORDER BY table_name, ordinal_position
            """)) { try $0.decode((String, String, String).self) }
        let keys = try await catalog.rows(SQLFragment(sql: """
            SELECT tc.table_schema, tc.table_name, tc.constraint_type || ' ' || kcu.column_name || ' ' || COALESCE(rc.delete_rule, '')
            FROM information_schema.table_constraints tc
            JOIN information_schema.key_column_usage kcu ON kcu.constraint_schema = tc.constraint_schema AND kcu.constraint_name = tc.constraint_name
            LEFT JOIN information_schema.referential_constraints rc ON rc.constraint_schema = tc.constraint_schema AND rc.constraint_name = tc.constraint_name
            WHERE tc.table_schema IN ('public', 'declared') AND tc.constraint_type IN ('PRIMARY KEY', 'FOREIGN KEY')
            ORDER BY tc.table_name, tc.constraint_type, kcu.ordinal_position, kcu.column_name
            """)) { try $0.decode((String, String, String).self) }
        func describe(_ schema: String, _ table: String) -> [String] {
            let name = table.lowercased()
            return columns.filter { $0.0 == schema && $0.1 == name }.map(\.2) + keys.filter { $0.0 == schema && $0.1 == name }.map(\.2)
        }
        #expect(columns.filter { $0.0 == "public" }.count > 70, "the catalog has its columns")
        for table in CatalogSchema.tables {
            let declared = describe("declared", table.name), migrated = describe("public", table.name)
            #expect(!declared.isEmpty && declared == migrated, "\(table.name): declared \(declared) migrated \(migrated)")
        }
        // Every table of the catalog is declared, but for the jobs' (PostgreSQL only).
        let undeclared = Set(columns.filter { $0.0 == "public" }.map(\.1))
            .subtracting(CatalogSchema.tables.map { $0.name.lowercased() } + ["job", "photoedit_migration"])
        #expect(undeclared.isEmpty, "tables not declared: \(undeclared.sorted())")
    }

    /// A new migration's column comes from its declaration, in each dialect.
    @Test func aNewColumnIsWrittenFromItsDeclaration() {
        #expect(CatalogSchema.addColumn("rating", to: "asset", .sqlite) == #"ALTER TABLE asset ADD COLUMN "rating" INTEGER NOT NULL DEFAULT 0"#)
        #expect(CatalogSchema.addColumn("favorite", to: "asset", .postgres) == "ALTER TABLE asset ADD COLUMN favorite BOOLEAN NOT NULL DEFAULT FALSE")
        #expect(CatalogSchema.addColumn("camera", to: "asset", .postgres) == "ALTER TABLE asset ADD COLUMN camera jsonb")
        #expect(CatalogSchema.addColumn("nothing", to: "asset", .sqlite) == nil)
    }
}
