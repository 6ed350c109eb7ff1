import Foundation
import GRDB
import GRDBSQLite
import CPhotoEditShim

/// The SQLite catalog (GRDB, WAL). Schema changes are named, forward-only
/// migrations; never edit a registered migration, add a new one.
enum Catalog {
    static func open(path: String, readOnly: Bool = false) throws -> DatabasePool {
        var config = Configuration()
        config.readonly = readOnly
        config.busyMode = .timeout(30)
        config.foreignKeysEnabled = true
        config.label = "photoedit.catalog"
        config.prepareDatabase { db in
            // The catalog is catalog.sqlite and its WAL together: closing a
            // connection never checkpoints (the writer's commits do, every
            // 1000 pages, as SQLite's auto-checkpoint) and the WAL file stays.
            // A checkpoint at close cost every command, even a read-only one,
            // two fsyncs (~25 ms each after writing a big render on ext4, whose
            // journal commit then waits for that file's data), because the
            // next process recovers a kept WAL with none of its frames marked
            // as copied and copies them all again when it closes. A missing
            // or empty WAL file would make GRDB write (it creates and drops a
            // table so that readers can open), so it is kept, never emptied.
            guard pe_sqlite_no_checkpoint_on_close(db.sqliteConnection) == SQLITE_OK else {
                throw DatabaseError(resultCode: .SQLITE_ERROR, message: "cannot turn off the checkpoint at close")
            }
            var persist: Int32 = 1
            _ = sqlite3_file_control(db.sqliteConnection, "main", SQLITE_FCNTL_PERSIST_WAL, &persist)
        }
        do {
            let pool = try DatabasePool(path: path, configuration: config)
            if readOnly {
                // Nothing can be migrated without write access.
                guard try pool.read({ try migrator.hasCompletedMigrations($0) }) else {
                    throw PhotoEditError.library("catalog \(path) is from an older version and read-only: open it once with write access to update it")
                }
            } else {
                try migrator.migrate(pool)
            }
            return pool
        } catch let error as DatabaseError {
            throw PhotoEditError.catalog(error, "catalog \(path)")
        }
    }

    /// Writes a new catalog file at `path` (migrated, then filled by `fill`
    /// in one transaction, then in WAL mode): a rebuilt catalog.
    static func build(at path: String, _ fill: (any CatalogConnection) throws -> Void) throws {
        do {
            let queue = try DatabaseQueue(path: path)
            try migrator.migrate(queue)
            try queue.write { db in try fill(SQLiteCatalogConnection(db: db)) }
            _ = try queue.inDatabase { db in try String.fetchOne(db, sql: "PRAGMA journal_mode = WAL") }
            try queue.close()
        } catch let error as DatabaseError {
            throw PhotoEditError.catalog(error, "cannot build the new catalog")
        }
    }

    static var migrator: DatabaseMigrator {
        var m = DatabaseMigrator()
        m.registerMigration("v1: assets and revisions") { db in
            try db.create(table: "asset") { t in
                t.primaryKey("id", .text)
                t.column("originalFilename", .text).notNull()
                t.column("sha256", .text).notNull().unique()
                t.column("originalPath", .text).notNull()
                t.column("fileSize", .integer).notNull()
                t.column("format", .text).notNull()
                t.column("uniformTypeIdentifier", .text).notNull()
                t.column("mediaType", .text).notNull()
                t.column("originalPixelWidth", .integer).notNull()
                t.column("originalPixelHeight", .integer).notNull()
                t.column("orientation", .integer).notNull()
                t.column("creationDate", .text)
                t.column("latitude", .double)
                t.column("longitude", .double)
                t.column("importDate", .datetime).notNull()
                t.column("revision", .integer).notNull().defaults(to: 0)
            }
            try db.create(table: "revision") { t in
                t.column("assetId", .text).notNull().references("asset", onDelete: .cascade)
                t.column("number", .integer).notNull()
                t.column("createdAt", .datetime).notNull()
                t.column("kind", .text).notNull()
                t.column("formatIdentifier", .text)
                t.column("formatVersion", .text)
                t.column("data", .blob)
                t.column("renderPath", .text)
                t.column("pixelWidth", .integer).notNull()
                t.column("pixelHeight", .integer).notNull()
                t.primaryKey(["assetId", "number"])
            }
        }
        m.registerMigration("v2: favorites, hidden, recently deleted, albums, edit bases") { db in
            try db.alter(table: "asset") { t in
                t.add(column: "favorite", .boolean).notNull().defaults(to: false)
                t.add(column: "hidden", .boolean).notNull().defaults(to: false)
                t.add(column: "trashedDate", .datetime)
            }
            try db.alter(table: "revision") { t in
                // The image the adjustments were applied to: NULL = the original;
                // else the render of revision `baseRevision` (a foreign edit).
                t.add(column: "baseRevision", .integer)
                t.add(column: "basePath", .text)
            }
            try db.create(table: "album") { t in
                t.primaryKey("id", .text)
                t.column("title", .text).notNull().unique()
                t.column("createdAt", .datetime).notNull()
            }
            try db.create(table: "albumAsset") { t in
                t.column("albumId", .text).notNull().references("album", onDelete: .cascade)
                t.column("assetId", .text).notNull().references("asset", onDelete: .cascade)
                t.column("position", .integer).notNull()
                t.primaryKey(["albumId", "assetId"])
            }
            try db.create(index: "albumAsset_asset", on: "albumAsset", columns: ["assetId"])
        }
        m.registerMigration("v3: camera metadata") { db in
            try db.alter(table: "asset") { t in
                t.add(column: "camera", .text)   // CameraInfo as JSON, NULL when unknown
            }
        }
        m.registerMigration("v4: change feed and query indexes") { db in
            // The change feed: one changeSet row per committed change (its
            // sequence number), one changeEntry row per object it changed,
            // written in the same transaction as the change itself.
            try db.create(table: "changeSet") { t in
                t.autoIncrementedPrimaryKey("seq")   // AUTOINCREMENT: never reused
                t.column("time", .datetime).notNull()
            }
            try db.create(table: "changeEntry") { t in
                t.column("seq", .integer).notNull().references("changeSet", onDelete: .cascade)
                t.column("objectType", .text).notNull()   // asset, album
                t.column("objectId", .text).notNull()
                t.column("kind", .text).notNull()         // insert, update, delete
                t.column("aspects", .text).notNull()      // what changed: content,favorite,…
                t.column("before", .text)                 // JSON snapshot before the change (NULL: inserted)
                t.primaryKey(["seq", "objectType", "objectId"])
            }
            try db.create(index: "changeEntry_object", on: "changeEntry", columns: ["objectId", "seq"])

            // The current version's pixel size and whether it has adjustments,
            // on the asset row so queries can filter and sort on them without
            // a join. Kept by triggers, whoever writes the revision.
            try db.alter(table: "asset") { t in
                t.add(column: "pixelWidth", .integer).notNull().defaults(to: 0)
                t.add(column: "pixelHeight", .integer).notNull().defaults(to: 0)
                t.add(column: "adjusted", .boolean).notNull().defaults(to: false)
            }
            try db.execute(sql: "UPDATE asset SET \(currentVersionColumns);" + currentVersionTriggers)
            // Sort keys and frequent filters.
            try db.create(index: "asset_importDate", on: "asset", columns: ["importDate"])
            try db.create(index: "asset_creationDate", on: "asset", columns: ["creationDate"])
            try db.create(index: "asset_originalFilename", on: "asset", columns: ["originalFilename"])
            try db.create(index: "asset_pixelWidth", on: "asset", columns: ["pixelWidth"])
            try db.execute(sql: """
                CREATE INDEX asset_cameraMake ON asset(json_extract(camera, '$.make') COLLATE NOCASE);
                CREATE INDEX asset_favorite ON asset(importDate) WHERE favorite;
                """)
        }
        m.registerMigration("v5: RAW+JPEG pairs") { db in
            try db.alter(table: "asset") { t in
                // Where the file was imported from (folder and name without
                // extension): a RAW and a JPEG of one shot share both.
                t.add(column: "sourceFolder", .text)
                t.add(column: "sourceStem", .text)
                // The other file of a RAW+JPEG pair (PhotoKit's alternatePhoto:
                // the RAW); NULL for a single file.
                t.add(column: "alternatePath", .text)
                t.add(column: "alternateSha256", .text)
                t.add(column: "alternateFilename", .text)
                t.add(column: "alternateFileSize", .integer)
                t.add(column: "alternateFormat", .text)
                t.add(column: "alternateUniformTypeIdentifier", .text)
            }
            try db.create(index: "asset_alternateSha256", on: "asset", columns: ["alternateSha256"], unique: true)
            try db.create(index: "asset_source", on: "asset", columns: ["sourceFolder", "sourceStem"])
        }
        m.registerMigration("v6: revision sidecars") { db in
            try db.alter(table: "revision") { t in
                // The revision's record on disk (revisions/…json), from
                // which `verify --rebuild-catalog` rebuilds a lost catalog;
                // NULL for revisions committed by older versions.
                t.add(column: "sidecarPath", .text)
            }
        }
        m.registerMigration("v7: ratings, colour labels, keywords, titles and captions") { db in
            try db.alter(table: "asset") { t in
                // -1 rejected, 0 unrated, 1-5 stars (xmp:Rating).
                t.add(column: "rating", .integer).notNull().defaults(to: 0)
                // red, yellow, green, blue, purple; NULL: none.
                t.add(column: "colorLabel", .text)
                t.add(column: "title", .text)
                t.add(column: "caption", .text)
            }
            // One row per keyword of a photo, in photoedit's syntax
            // (`Trips/Iceland`). Keywords compare ignoring ASCII case (the
            // column's collation), so a photo holds a keyword once in any case.
            try db.execute(sql: """
                CREATE TABLE assetKeyword (
                    assetId TEXT NOT NULL REFERENCES asset(id) ON DELETE CASCADE,
                    keyword TEXT NOT NULL COLLATE NOCASE,
                    PRIMARY KEY (assetId, keyword)
                );
                CREATE INDEX assetKeyword_keyword ON assetKeyword(keyword, assetId);
                CREATE INDEX asset_rating ON asset(rating);
                """)
        }
        m.registerMigration("v8: metadata records") { db in
            try db.alter(table: "asset") { t in
                // The photo's metadata record on disk (revisions/…/metadata-…json):
                // rating, label, keywords, title, caption, favorite, hidden, from
                // which `verify --rebuild-catalog` gives them back; NULL when
                // none is set (or set by an older version).
                t.add(column: "metadataPath", .text)
            }
        }
        m.registerMigration("v9: virtual copies and snapshots") { db in
            // A virtual copy is a photo of its own sharing its master's
            // original (content addressed: the same file, never copied).
            // `sha256` (and a pair's `alternateSha256`) stay unique among
            // masters only, which SQLite can change only by rebuilding the
            // table (its 12-step recipe: new table, copy, drop, rename);
            // foreign keys are off while a migration runs, and the triggers
            // that name `asset` are made again after it.
            try db.execute(sql: """
                DROP TRIGGER asset_current_on_revision;
                DROP TRIGGER asset_current_on_asset;
                CREATE TABLE asset_v9 (
                    "id" TEXT PRIMARY KEY NOT NULL, "originalFilename" TEXT NOT NULL, "sha256" TEXT NOT NULL,
                    "originalPath" TEXT NOT NULL, "fileSize" INTEGER NOT NULL, "format" TEXT NOT NULL,
                    "uniformTypeIdentifier" TEXT NOT NULL, "mediaType" TEXT NOT NULL, "originalPixelWidth" INTEGER NOT NULL,
                    "originalPixelHeight" INTEGER NOT NULL, "orientation" INTEGER NOT NULL, "creationDate" TEXT,
                    "latitude" DOUBLE, "longitude" DOUBLE, "importDate" DATETIME NOT NULL,
                    "revision" INTEGER NOT NULL DEFAULT 0, "favorite" BOOLEAN NOT NULL DEFAULT 0,
                    "hidden" BOOLEAN NOT NULL DEFAULT 0, "trashedDate" DATETIME, "camera" TEXT,
                    "pixelWidth" INTEGER NOT NULL DEFAULT 0, "pixelHeight" INTEGER NOT NULL DEFAULT 0,
                    "adjusted" BOOLEAN NOT NULL DEFAULT 0, "sourceFolder" TEXT, "sourceStem" TEXT, "alternatePath" TEXT,
                    "alternateSha256" TEXT, "alternateFilename" TEXT, "alternateFileSize" INTEGER, "alternateFormat" TEXT,
                    "alternateUniformTypeIdentifier" TEXT, "rating" INTEGER NOT NULL DEFAULT 0, "colorLabel" TEXT,
                    "title" TEXT, "caption" TEXT, "metadataPath" TEXT,
                    "masterId" TEXT,
                    "copyName" TEXT
                );
                INSERT INTO asset_v9 SELECT *, NULL, NULL FROM asset;
                DROP TABLE asset;
                ALTER TABLE asset_v9 RENAME TO asset;
                CREATE INDEX asset_importDate ON asset(importDate);
                CREATE INDEX asset_creationDate ON asset(creationDate);
                CREATE INDEX asset_originalFilename ON asset(originalFilename);
                CREATE INDEX asset_pixelWidth ON asset(pixelWidth);
                CREATE INDEX asset_cameraMake ON asset(json_extract(camera, '$.make') COLLATE NOCASE);
                CREATE INDEX asset_favorite ON asset(importDate) WHERE favorite;
                CREATE INDEX asset_source ON asset(sourceFolder, sourceStem);
                CREATE INDEX asset_rating ON asset(rating);
                CREATE UNIQUE INDEX asset_sha256 ON asset(sha256) WHERE masterId IS NULL;
                CREATE UNIQUE INDEX asset_alternateSha256 ON asset(alternateSha256) WHERE masterId IS NULL;
                CREATE INDEX asset_originalPath ON asset(originalPath);
                CREATE INDEX asset_master ON asset(masterId) WHERE masterId IS NOT NULL;
                """ + currentVersionTriggers + """
                CREATE TABLE snapshot (
                    assetId TEXT NOT NULL REFERENCES asset(id) ON DELETE CASCADE,
                    name TEXT NOT NULL,
                    revision INTEGER NOT NULL,
                    createdAt DATETIME NOT NULL,
                    PRIMARY KEY (assetId, name)
                );
                """)
        }
        return m
    }

    /// The current version's columns of `asset` as its current revision has
    /// them (v4's triggers keep them; v9 makes the triggers again).
    static let currentVersionColumns = """
        pixelWidth = (SELECT pixelWidth FROM revision WHERE assetId = asset.id AND number = asset.revision),
        pixelHeight = (SELECT pixelHeight FROM revision WHERE assetId = asset.id AND number = asset.revision),
        adjusted = (SELECT formatIdentifier IS NOT NULL FROM revision WHERE assetId = asset.id AND number = asset.revision)
        """

    /// The triggers that keep `currentVersionColumns`, whoever writes a revision.
    static let currentVersionTriggers = """

        CREATE TRIGGER asset_current_on_revision AFTER INSERT ON revision BEGIN
            UPDATE asset SET \(currentVersionColumns) WHERE id = NEW.assetId AND revision = NEW.number;
        END;
        CREATE TRIGGER asset_current_on_asset AFTER UPDATE OF revision ON asset BEGIN
            UPDATE asset SET \(currentVersionColumns) WHERE id = NEW.id;
        END;

        """
}

extension PhotoEditError {
    /// A GRDB error as a typed catalog failure (SQLite's result code kept).
    static func catalog(_ error: DatabaseError, _ context: String) -> PhotoEditError {
        .catalog(CatalogFailure(resultCode: error.extendedResultCode.rawValue,
                                message: error.message ?? error.description, context: context))
    }
}
