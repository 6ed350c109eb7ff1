// Only with the `Server` trait (Package.swift): these tests need its servers and modules.
#if Server
import Foundation
import GRDB
import PhotoEdit
@testable import PhotoEditPostgres
import PhotoEditSampleCatalog
import PhotoEditTestSupport
import Testing

/// The catalog on a real PostgreSQL server (started by the tests on
/// loopback): locations, migrations, and queries that answer exactly what
/// the SQLite catalog answers on the same photos.
@Suite("PostgreSQL catalog", .serialized)
struct PostgresCatalogTests {
    static func server() throws -> LocalPostgresServer { try LocalPostgresServer.shared.get() }

    @Test func locationsFromURLs() throws {
        let a = try PostgresCatalogLocation(url: "postgres://ann:secret@db.example:6543/photos", environment: [:])
        #expect(a.host == "db.example" && a.port == 6543 && a.username == "ann" && a.password == "secret" && a.database == "photos")
        #expect(a.description == "postgres://ann@db.example:6543/photos", "the password is never shown")
        let b = try PostgresCatalogLocation(url: "postgresql:///photos?host=/run/postgresql", environment: ["PGUSER": "bob", "PGPASSWORD": "pw"])
        #expect(b.host == nil && b.socketFolder == "/run/postgresql" && b.username == "bob" && b.password == "pw" && b.port == 5432)
        for bad in ["http://x/y", "postgres://user@host", "postgres://user@host/a/b", "postgres://user@host:0/db", "postgres:///db",
                    "postgres://host/db", String(repeating: "x", count: 5000)] {
            #expect(throws: PhotoEditError.self, "\(bad.prefix(40))") { try PostgresCatalogLocation(url: bad, environment: [:]) }
        }
        do {
            _ = try PostgresCatalogLocation(url: "postgres://u:hunter2@h:70000/db", environment: [:])
            Issue.record("port 70000 accepted")
        } catch {
            #expect(!"\(error)".contains("hunter2"), "an error never shows the password: \(error)")
        }
    }

    @Test func openMigratesOnceEvenWhenNodesStartTogether() async throws {
        let location = try Self.server().newDatabase()
        // Three nodes open the new catalog at the same moment.
        let names = try await withThrowingTaskGroup(of: [String].self) { group in
            for _ in 0..<3 {
                group.addTask {
                    let catalog = try await PostgresCatalog.open(location)
                    defer { Task { await catalog.close() } }
                    return try await catalog.appliedMigrations()
                }
            }
            return try await group.reduce(into: []) { $0.append($1) }
        }
        #expect(names.count == 3 && Set(names).count == 1)
        #expect(names[0] == PostgresSchema.migrations.map(\.name))
        let again = try await PostgresCatalog.open(location)
        #expect(try await again.appliedMigrations() == names[0])
        await again.close()
    }

    @Test func aNewerCatalogIsRefused() async throws {
        let location = try Self.server().newDatabase()
        let catalog = try await PostgresCatalog.open(location)
        try await catalog.execute([SQLFragment(sql: "INSERT INTO photoedit_migration (name) VALUES ('pg99: from the future')")])
        await catalog.close()
        await #expect(throws: PhotoEditError.self) { _ = try await PostgresCatalog.open(location) }
    }

    @Test func theErrorNamesTheServerAndItsMessage() async throws {
        let server = try Self.server()
        let missing = PostgresCatalogLocation(host: "127.0.0.1", port: server.port, username: server.user, database: "no_such_database")
        do {
            _ = try await PostgresCatalog.open(missing)
            Issue.record("opened a database that does not exist")
        } catch let error as PhotoEditError {
            #expect("\(error)".contains("no_such_database") && "\(error)".contains("3D000"), "\(error)")
        }
    }

    /// The same generated photos in a SQLite library and a PostgreSQL
    /// catalog: every query gives the same ids in the same order.
    @Test func queriesAnswerWhatSQLiteAnswers() async throws {
        let photos = SampleCatalog(photos: 3000)
        let temp = TemporaryDirectory("photoedit-pg-compare")
        let folder = temp.file("library")
        _ = try PhotoLibrary(url: URL(fileURLWithPath: folder))
        try photos.write(sqlite: folder + "/catalog.sqlite")
        let library = try PhotoLibrary(url: URL(fileURLWithPath: folder))
        let catalog = try await PostgresCatalog.open(try Self.server().newDatabase())
        try await photos.write(postgres: catalog, batch: 700)

        let queries: [(String, String)] = [
            ("", ""), ("favorite", "-created,name"), ("not favorite and width>=3000", "width,-imported"),
            (#"camera.make="canon" and iso>=400"#, "-iso,name"), ("camera.make~ik", "camera.make,id"), ("raw or format=heif", "-size"),
            ("created>=2020 and created<2021-06", "created"), ("created=2019-03", "-name"), ("not created", "name"),
            ("imported>=2015-01-20 and imported<2015-02", "-imported"), ("imported=2015-01-02T10:00", ""),
            (#"album="trip 3""#, "name"), (#"album~"Trip 1""#, "-created"), (#"album!="Trip 0" and edited"#, "created"),
            ("album and not edited", ""), ("megapixels>20 and aperture<=2.8", "-megapixels,name"),
            ("name<IMG_000100.JPG", "-name"), ("name~_0012", ""), ("pair or location", ""), ("revision=1", "name"),
            ("(favorite or edited) and not (raw or hidden)", "-width,created"), ("id~ab", "id"),
        ]
        var compared = 0
        for (query, sort) in queries {
            for (hidden, deleted, limit) in [(false, false, 0), (true, true, 0), (false, false, 25)] {
                let options = FetchOptions(predicate: query.isEmpty ? nil : try AssetPredicate(parsing: query),
                                           sortDescriptors: sort.isEmpty ? [] : try AssetSortDescriptor.parseList(sort),
                                           fetchLimit: limit, includeHiddenAssets: hidden, includeRecentlyDeleted: deleted)
                let sqlite = try await BlockingExecutor.run { try library.fetchAssets(options) }.identifiers
                let postgres = try await catalog.fetchAssetIdentifiers(options)
                #expect(sqlite == postgres, "\(query) sort \(sort) hidden \(hidden) limit \(limit): SQLite \(sqlite.count), PostgreSQL \(postgres.count)")
                compared += sqlite.count
            }
        }
        #expect(compared > 20_000, "the queries select photos (\(compared) compared)")
        // In an album, album order.
        let albums = try await BlockingExecutor.run { try library.fetchAlbums() }
        let album = try #require(albums.allObjects().first { $0.title == "Trip 7" })
        #expect(try await BlockingExecutor.run { try library.fetchAssets(in: album.id) }.identifiers == (try await catalog.fetchAssetIdentifiers(inAlbum: album.id)))
        await catalog.close()
    }

    /// Every table and column of a new SQLite catalog exists in PostgreSQL:
    /// a migration added to `Catalog` without its `PostgresSchema` twin fails here.
    @Test func theSchemaHasEverySQLiteColumn() async throws {
        let temp = TemporaryDirectory("photoedit-pg-schema")
        let folder = temp.file("library")
        _ = try PhotoLibrary(url: URL(fileURLWithPath: folder))
        let queue = try DatabaseQueue(path: folder + "/catalog.sqlite")
        let sqlite = try await queue.read { db in
            try Row.fetchAll(db, sql: """
                SELECT m.name AS t, p.name AS c FROM sqlite_master m JOIN pragma_table_info(m.name) p
                WHERE m.type = 'table' AND m.name NOT LIKE 'sqlite_%' AND m.name NOT LIKE 'grdb_%'
                """).map { "\(($0["t"] as String).lowercased()).\(($0["c"] as String).lowercased())" }
        }
        let catalog = try await PostgresCatalog.open(try Self.server().newDatabase())
        let postgres = try await catalog.rows(SQLFragment(sql: """
            SELECT table_name || '.' || column_name FROM information_schema.columns WHERE table_schema = 'public'
            """)) { try $0.decode(String.self) }
        await catalog.close()
        #expect(sqlite.count > 40, "the SQLite catalog has its tables (\(sqlite.count) columns)")
        let missing = Set(sqlite).subtracting(postgres).sorted()
        #expect(missing.isEmpty, "columns of the SQLite catalog missing in PostgreSQL: \(missing)")
    }

    @Test func valuesAreBoundNeverWritten() async throws {
        let catalog = try await PostgresCatalog.open(try Self.server().newDatabase())
        defer { Task { await catalog.close() } }
        let hostile = #"x' OR 1=1; DROP TABLE asset; --"#
        let options = FetchOptions(predicate: try AssetPredicate(parsing: "name=\"\(hostile)\" or camera.make~\"?\" or album=\"'?'\""))
        let sql = try options.sql(album: nil, .postgres)
        #expect(!sql.sql.contains("DROP") && sql.arguments.count == 3)
        #expect(try await catalog.fetchAssetIdentifiers(options) == [])
        #expect(try await catalog.appliedMigrations().count == PostgresSchema.migrations.count, "the tables are all there")
    }
}
#endif
