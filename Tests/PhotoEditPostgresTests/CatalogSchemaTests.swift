// Only with the `Server` trait (Package.swift): these tests need its servers and modules.
#if Server
import Foundation
import GRDB
import PhotoEdit
@testable import PhotoEditPostgres
import PhotoEditTestSupport
import Testing

/// The declared schema (`CatalogSchema`) is what the registered migrations
/// make: the schema built from the declaration (`CatalogSchema.ddl`) has the
/// same tables with the same columns (name, type, nullability, default,
/// order), primary keys, foreign keys, UNIQUE and CHECK constraints, the same
/// indexes (keys, order, collation, uniqueness, condition) and the same
/// triggers (and PostgreSQL's functions) as a fresh, migrated catalog, in
/// SQLite and in PostgreSQL (its job queue too). A migration added without
/// its declaration (or the reverse) fails here.
@Suite struct CatalogSchemaTests {
    /// SQL text compared: quotes, case and spacing aside.
    static func normalized(_ sql: String) -> String {
        var out = sql.replacingOccurrences(of: "\"", with: "").lowercased()
            .split(whereSeparator: \.isWhitespace).joined(separator: " ")
        for mark in ["(", ")", ",", ";"] {
            out = out.replacingOccurrences(of: " " + mark, with: mark).replacingOccurrences(of: mark + " ", with: mark)
        }
        return out
    }

    @Test func theDeclaredSchemaIsWhatSQLiteMigrationsMake() async throws {
        let temp = TemporaryDirectory("photoedit-schema-sqlite")
        let folder = temp.file("library")
        _ = try PhotoLibrary(url: URL(fileURLWithPath: folder))
        let migrated = try DatabaseQueue(path: folder + "/catalog.sqlite")
        let generated = try DatabaseQueue()
        try await generated.write { db in
            for statement in CatalogSchema.ddl(.sqlite) { try db.execute(sql: statement) }
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
                    // Every index (those of keys and UNIQUE columns too): name,
                    // uniqueness, origin, keys (column or expression, order,
                    // collation) and its statement.
                    let indexes = try Row.fetchAll(db, sql: #"SELECT name, "unique", origin, partial FROM pragma_index_list(?) ORDER BY name"#,
                                                   arguments: [name]).map { row in
                        let index: String = row["name"]
                        let keys = try Row.fetchAll(db, sql: #"SELECT name, "desc", coll FROM pragma_index_xinfo(?) WHERE key ORDER BY seqno"#,
                                                    arguments: [index]).map { key in
                            "\((key["name"] as String?) ?? "expression") \(key["desc"] as Int == 1 ? "desc" : "asc") \(key["coll"] as String)"
                        }
                        let sql = try String.fetchOne(db, sql: "SELECT sql FROM sqlite_master WHERE type = 'index' AND name = ?", arguments: [index])
                        return "index \(index) unique=\(row["unique"] as Int) origin=\(row["origin"] as String) partial=\(row["partial"] as Int) "
                            + keys.joined(separator: ", ") + " " + (sql.map(CatalogSchemaTests.normalized) ?? "-")
                    }
                    let triggers = try String.fetchAll(db, sql: "SELECT sql FROM sqlite_master WHERE type = 'trigger' AND tbl_name = ? ORDER BY name",
                                                       arguments: [name]).map { "trigger " + CatalogSchemaTests.normalized($0) }
                    out[name] = columns + keys + indexes + triggers
                }
                return out
            }
        }
        let fromMigrations = try await describe(migrated)
        let fromDeclaration = try await describe(generated)
        #expect(fromMigrations.keys.sorted() == CatalogSchema.tables.map(\.name).sorted(), "every table is declared")
        #expect(fromMigrations.values.map(\.count).reduce(0, +) > 70, "the catalog has its columns")
        let all = fromMigrations.values.joined()
        #expect(all.filter { $0.hasPrefix("index ") && !$0.contains("origin=pk") }.count == 16,
                "the catalog's indexes (15 declared, album's UNIQUE title)")
        #expect(all.filter { $0.hasPrefix("trigger ") }.count == 2)
        for table in CatalogSchema.tables {
            #expect(fromDeclaration[table.name] == fromMigrations[table.name], "\(table.name): declared \(fromDeclaration[table.name] ?? []) migrated \(fromMigrations[table.name] ?? [])")
        }
    }

    @Test func theDeclaredSchemaIsWhatPostgresMigrationsMake() async throws {
        let catalog = try await PostgresCatalog.open(try LocalPostgresServer.shared.get().newDatabase())
        defer { Task { await catalog.close() } }
        // The declared tables in a schema of their own, beside the migrated ones in `public`.
        try await catalog.execute([SQLFragment(sql: "CREATE SCHEMA declared"), SQLFragment(sql: "SET LOCAL search_path TO declared")]
                                  + CatalogSchema.ddl(.postgres).map { SQLFragment(sql: $0) })
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
            WHERE tc.table_schema IN ('public', 'declared') AND tc.constraint_type IN ('PRIMARY KEY', 'FOREIGN KEY', 'UNIQUE')
            ORDER BY tc.table_name, tc.constraint_type, kcu.ordinal_position, kcu.column_name
            """)) { try $0.decode((String, String, String).self) }
        let checks = try await catalog.rows(SQLFragment(sql: """
            SELECT n.nspname::text, c.relname::text, 'check ' || k.conname::text || ' ' || pg_get_constraintdef(k.oid)
            FROM pg_constraint k JOIN pg_class c ON c.oid = k.conrelid JOIN pg_namespace n ON n.oid = c.relnamespace
            WHERE k.contype = 'c' AND n.nspname IN ('public', 'declared') ORDER BY c.relname, k.conname
            """)) { try $0.decode((String, String, String).self) }
        // Indexes and triggers as the server writes them back, schema names left out.
        let indexes = try await catalog.rows(SQLFragment(sql: """
            SELECT schemaname::text, tablename::text, replace(replace(indexdef, 'declared.', ''), 'public.', '')
            FROM pg_indexes WHERE schemaname IN ('public', 'declared') ORDER BY tablename, indexname
            """)) { try $0.decode((String, String, String).self) }
        let triggers = try await catalog.rows(SQLFragment(sql: """
            SELECT n.nspname::text, c.relname::text, replace(replace(pg_get_triggerdef(t.oid), 'declared.', ''), 'public.', '')
            FROM pg_trigger t JOIN pg_class c ON c.oid = t.tgrelid JOIN pg_namespace n ON n.oid = c.relnamespace
            WHERE NOT t.tgisinternal AND n.nspname IN ('public', 'declared') ORDER BY t.tgname
            """)) { try $0.decode((String, String, String).self) }
        let functions = try await catalog.rows(SQLFragment(sql: """
            SELECT n.nspname::text, p.proname::text || '(' || pg_get_function_arguments(p.oid) || ') ' || pg_get_function_result(p.oid) || ' '
                || l.lanname || ': ' || p.prosrc
            FROM pg_proc p JOIN pg_namespace n ON n.oid = p.pronamespace JOIN pg_language l ON l.oid = p.prolang
            WHERE n.nspname IN ('public', 'declared') ORDER BY p.proname
            """)) { try $0.decode((String, String).self) }
        func describe(_ schema: String, _ table: String) -> [String] {
            let name = table.lowercased()
            return columns.filter { $0.0 == schema && $0.1 == name }.map(\.2) + keys.filter { $0.0 == schema && $0.1 == name }.map(\.2)
                + checks.filter { $0.0 == schema && $0.1 == name }.map(\.2)
                + indexes.filter { $0.0 == schema && $0.1 == name }.map { "index " + $0.2 }
                + triggers.filter { $0.0 == schema && $0.1 == name }.map { "trigger " + $0.2 }
        }
        // The functions, their text compared as statements are.
        func functionsOf(_ schema: String) -> [String] {
            functions.filter { $0.0 == schema }.map { Self.normalized($0.1) }
        }
        #expect(functionsOf("declared") == functionsOf("public"), "functions: declared \(functionsOf("declared")) migrated \(functionsOf("public"))")
        #expect(functionsOf("public").count == 6)
        #expect(indexes.filter { $0.0 == "public" && $0.1 != "photoedit_migration" }.count == 31,
                "the catalog's indexes (22 declared, 8 primary keys, album's UNIQUE title)")
        #expect(triggers.filter { $0.0 == "public" }.count == 5)
        #expect(checks.filter { $0.0 == "public" }.count == 2, "the job's state and attempts")
        #expect(columns.filter { $0.0 == "public" }.count > 85, "the catalog has its columns")
        for table in CatalogSchema.tables(.postgres) {
            let declared = describe("declared", table.name), migrated = describe("public", table.name)
            #expect(!declared.isEmpty && declared == migrated, "\(table.name): declared \(declared) migrated \(migrated)")
        }
        // Every table the migrations make is declared (the migrations' own ledger aside).
        let undeclared = Set(columns.filter { $0.0 == "public" }.map(\.1))
            .subtracting(CatalogSchema.tables(.postgres).map { $0.name.lowercased() } + ["photoedit_migration"])
        #expect(undeclared.isEmpty, "tables not declared: \(undeclared.sorted())")
    }

    /// A new migration's column comes from its declaration, in each dialect.
    @Test func aNewColumnIsWrittenFromItsDeclaration() {
        #expect(CatalogSchema.addColumn("rating", to: "asset", .sqlite) == #"ALTER TABLE asset ADD COLUMN "rating" INTEGER NOT NULL DEFAULT 0"#)
        #expect(CatalogSchema.addColumn("favorite", to: "asset", .postgres) == "ALTER TABLE asset ADD COLUMN favorite BOOLEAN NOT NULL DEFAULT FALSE")
        #expect(CatalogSchema.addColumn("camera", to: "asset", .postgres) == "ALTER TABLE asset ADD COLUMN camera jsonb")
        #expect(CatalogSchema.addColumn("nothing", to: "asset", .sqlite) == nil)
        #expect(CatalogSchema.addColumn("state", to: "job", .postgres)
                == "ALTER TABLE job ADD COLUMN state TEXT NOT NULL DEFAULT 'queued' CHECK (state IN ('queued', 'running', 'done', 'failed', 'cancelled'))")
        #expect(CatalogSchema.addColumn("runAfter", to: "job", .postgres)
                == "ALTER TABLE job ADD COLUMN runAfter timestamptz NOT NULL DEFAULT clock_timestamp()")
    }

    /// A new migration's index and trigger come from their declaration, in each dialect.
    @Test func aNewIndexOrTriggerIsWrittenFromItsDeclaration() {
        #expect(CatalogSchema.createIndex("asset_rating", .sqlite) == "CREATE INDEX asset_rating ON asset(rating)")
        #expect(CatalogSchema.createIndex("asset_pixelWidth", .postgres)
                == #"CREATE INDEX asset_pixelWidth ON asset(pixelWidth DESC, (originalFilename COLLATE "C"), (id COLLATE "C"))"#)
        #expect(CatalogSchema.createIndex("asset_sha256", .sqlite) == "CREATE UNIQUE INDEX asset_sha256 ON asset(sha256) WHERE masterId IS NULL")
        #expect(CatalogSchema.createIndex("asset_timeline", .sqlite) == nil, "PostgreSQL's only")
        #expect(CatalogSchema.createTrigger("changeSet_order", .sqlite).isEmpty)
        #expect(CatalogSchema.createTrigger("changeSet_notify", .postgres).last
                == "CREATE TRIGGER changeSet_notify AFTER INSERT ON changeSet FOR EACH ROW EXECUTE FUNCTION changeSet_notify()")
        #expect(CatalogSchema.createTrigger("job_notify", .postgres).last
                == "CREATE TRIGGER job_notify AFTER INSERT ON job FOR EACH STATEMENT EXECUTE FUNCTION job_notify()")
        #expect(CatalogSchema.createTrigger("job_notify", .sqlite).isEmpty && CatalogSchema.createIndex("job_open", .sqlite) == nil)
        #expect(!CatalogSchema.ddl(.sqlite).contains { $0.contains("job") }, "SQLite has no job queue")
    }

    /// Each declared column's SQL type is one its Swift type reads: JSON is
    /// text, a sequence or 64-bit number an integer (the rest follow from the type).
    @Test func everyColumnsTypeFitsItsSwiftType() {
        let columns = CatalogSchema.tables.flatMap(\.columns)
        #expect(columns.count > 70)
        #expect(CatalogSchema.asset.camera.column.type == .json && !CatalogSchema.asset.camera.column.notNull)
        let favorite = CatalogSchema.asset.favorite.column
        #expect(favorite.type == .boolean && favorite.notNull && favorite.defaultValue == .boolean(false))
        #expect(CatalogSchema.asset.fileSize.column.type == .bigInteger && CatalogSchema.revision.data.column.type == .blob)
        #expect(CatalogSchema.table("asset")?.columns.map(\.name).prefix(3) == ["id", "originalFilename", "sha256"], "declaration order")
        #expect(CatalogSchema.job.leaseUntil.column.type == .timestampWithTimeZone && !CatalogSchema.job.leaseUntil.column.notNull)
    }
}
#endif
