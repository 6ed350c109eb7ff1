// Only with the `Server` trait (Package.swift): without it the module is empty.
#if Server
import Foundation

/// The catalog's schema on PostgreSQL: the same tables, columns and meaning
/// as the SQLite catalog after its migrations v1–v9 (Sources/PhotoEdit/Catalog/
/// Catalog.swift), in PostgreSQL's types. Like SQLite's, the migrations are
/// named and forward-only: never edit one that is registered, append a new one.
///
/// Differences from SQLite, each chosen so a query means the same on both:
/// - booleans are `boolean` (SQLite: 0/1 integers);
/// - `importDate` and `trashedDate` are `timestamp(3)` in UTC (SQLite: text
///   GRDB writes as `YYYY-MM-DD HH:MM:SS.SSS`); `creationDate` stays text, the
///   camera's local time exactly as recorded;
/// - `camera` is `jsonb` (SQLite: JSON text read with `json_extract`);
/// - identifiers are written unquoted, so PostgreSQL folds them to lower case;
///   statements never quote them, so both spellings name the same column;
/// - text sort keys are indexed `COLLATE "C"` (SQLite's BINARY: byte order),
///   and case-insensitive equality uses `lower()` (SQLite's NOCASE folds
///   ASCII only; `lower()` folds every letter).
enum PostgresSchema {
    struct Migration {
        let name: String
        let sql: String

        /// The statements of `sql`, split at the semicolons that end them
        /// (not those inside quotes, comments or `$$` function bodies): the
        /// extended query protocol takes one statement at a time.
        var statements: [String] {
            var out: [String] = []
            var current = ""
            var inQuote = false, inBody = false, inComment = false
            var previous: Character = " "
            for c in sql {
                if inComment {
                    if c == "\n" { inComment = false }
                    previous = c
                    continue
                }
                if !inQuote && !inBody && c == "-" && previous == "-" {
                    current.removeLast()
                    inComment = true
                    continue
                }
                if c == "'" && !inBody { inQuote.toggle() }
                if c == "$" && previous == "$" && !inQuote { inBody.toggle() }
                if c == ";" && !inQuote && !inBody {
                    let statement = current.trimmingCharacters(in: .whitespacesAndNewlines)
                    if !statement.isEmpty { out.append(statement) }
                    current = ""
                } else {
                    current.append(c)
                }
                previous = c
            }
            let rest = current.trimmingCharacters(in: .whitespacesAndNewlines)
            if !rest.isEmpty { out.append(rest) }
            return out
        }
    }

    static let migrations: [Migration] = [
        Migration(name: "pg1: assets, revisions, albums, change feed, pairs (SQLite v1-v5)", sql: """
            CREATE TABLE asset (
                id text PRIMARY KEY,
                originalFilename text NOT NULL,
                sha256 text NOT NULL UNIQUE,
                originalPath text NOT NULL,
                fileSize bigint NOT NULL,
                format text NOT NULL,
                uniformTypeIdentifier text NOT NULL,
                mediaType text NOT NULL,
                originalPixelWidth integer NOT NULL,
                originalPixelHeight integer NOT NULL,
                orientation integer NOT NULL,
                creationDate text,
                latitude double precision,
                longitude double precision,
                importDate timestamp(3) NOT NULL,
                revision integer NOT NULL DEFAULT 0,
                favorite boolean NOT NULL DEFAULT FALSE,
                hidden boolean NOT NULL DEFAULT FALSE,
                trashedDate timestamp(3),
                camera jsonb,
                pixelWidth integer NOT NULL DEFAULT 0,
                pixelHeight integer NOT NULL DEFAULT 0,
                adjusted boolean NOT NULL DEFAULT FALSE,
                sourceFolder text,
                sourceStem text,
                alternatePath text,
                alternateSha256 text UNIQUE,
                alternateFilename text,
                alternateFileSize bigint,
                alternateFormat text,
                alternateUniformTypeIdentifier text
            );
            CREATE TABLE revision (
                assetId text NOT NULL REFERENCES asset(id) ON DELETE CASCADE,
                number integer NOT NULL,
                createdAt timestamp(3) NOT NULL,
                kind text NOT NULL,
                formatIdentifier text,
                formatVersion text,
                data bytea,
                renderPath text,
                pixelWidth integer NOT NULL,
                pixelHeight integer NOT NULL,
                baseRevision integer,
                basePath text,
                PRIMARY KEY (assetId, number)
            );
            CREATE TABLE album (
                id text PRIMARY KEY,
                title text NOT NULL UNIQUE,
                createdAt timestamp(3) NOT NULL
            );
            CREATE TABLE albumAsset (
                albumId text NOT NULL REFERENCES album(id) ON DELETE CASCADE,
                assetId text NOT NULL REFERENCES asset(id) ON DELETE CASCADE,
                position integer NOT NULL,
                PRIMARY KEY (albumId, assetId)
            );
            CREATE INDEX albumAsset_asset ON albumAsset(assetId);
            CREATE INDEX album_title ON album(lower(title));

            -- The change feed: one changeSet per committed change, one
            -- changeEntry per object it changed, in the change's transaction.
            CREATE TABLE changeSet (
                seq bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
                time timestamp(3) NOT NULL
            );
            CREATE TABLE changeEntry (
                seq bigint NOT NULL REFERENCES changeSet(seq) ON DELETE CASCADE,
                objectType text NOT NULL,
                objectId text NOT NULL,
                kind text NOT NULL,
                aspects text NOT NULL,
                before text,
                PRIMARY KEY (seq, objectType, objectId)
            );
            CREATE INDEX changeEntry_object ON changeEntry(objectId, seq);

            -- The current version's size and whether it has adjustments, on
            -- the asset row, kept by triggers whoever writes the revision.
            CREATE FUNCTION asset_current(asset_id text) RETURNS void LANGUAGE sql AS $$
                UPDATE asset SET
                    pixelWidth = r.pixelWidth, pixelHeight = r.pixelHeight, adjusted = r.formatIdentifier IS NOT NULL
                FROM revision r
                WHERE asset.id = asset_id AND r.assetId = asset.id AND r.number = asset.revision
            $$;
            CREATE FUNCTION asset_current_on_revision() RETURNS trigger LANGUAGE plpgsql AS $$
            BEGIN
                IF EXISTS (SELECT 1 FROM asset WHERE id = NEW.assetId AND revision = NEW.number) THEN
                    PERFORM asset_current(NEW.assetId);
                END IF;
                RETURN NULL;
            END $$;
            CREATE TRIGGER asset_current_on_revision AFTER INSERT ON revision
                FOR EACH ROW EXECUTE FUNCTION asset_current_on_revision();
            CREATE FUNCTION asset_current_on_asset() RETURNS trigger LANGUAGE plpgsql AS $$
            BEGIN
                PERFORM asset_current(NEW.id);
                RETURN NULL;
            END $$;
            CREATE TRIGGER asset_current_on_asset AFTER UPDATE OF revision ON asset
                FOR EACH ROW EXECUTE FUNCTION asset_current_on_asset();

            -- Sort keys and frequent filters. Listing pages (not hidden, not
            -- deleted, import order) walk one partial index.
            CREATE INDEX asset_listing ON asset(importDate, (id COLLATE "C")) WHERE NOT hidden AND trashedDate IS NULL;
            CREATE INDEX asset_importDate ON asset(importDate);
            CREATE INDEX asset_creationDate ON asset((creationDate COLLATE "C"));
            CREATE INDEX asset_originalFilename ON asset((originalFilename COLLATE "C"));
            CREATE INDEX asset_pixelWidth ON asset(pixelWidth);
            CREATE INDEX asset_cameraMake ON asset(lower(camera ->> 'make'));
            CREATE INDEX asset_favorite ON asset(importDate) WHERE favorite;
            CREATE INDEX asset_source ON asset(sourceFolder, sourceStem);
            """),
        Migration(name: "pg2: revision records on disk (SQLite v6)", sql: """
            -- The revision's record beside its blobs, from which a lost
            -- catalog is rebuilt; NULL for revisions committed before.
            ALTER TABLE revision ADD COLUMN sidecarPath text;
            """),
        Migration(name: "pg3: indexes for sorted pages of a million photos", sql: """
            -- A page of a sorted, filtered fetch walks an index in the sort
            -- order and stops after LIMIT matches, instead of sorting every
            -- match (1 000 000 photos: favorite + width + date + camera
            -- sorted by -created,name, 162 ms -> under 1 ms; see
            -- docs/benchmarks.md). The query compiler writes NOT NULL sort keys
            -- without NULLS FIRST/LAST and NOT NULL booleans bare, so that
            -- these serve them.
            -- The timeline (newest capture first), of every visible photo and
            -- of the favorites; the name and id that break ties follow as an
            -- incremental sort.
            CREATE INDEX asset_timeline ON asset((creationDate COLLATE "C") DESC NULLS LAST, (id COLLATE "C"))
                WHERE NOT hidden AND trashedDate IS NULL;
            CREATE INDEX asset_favoriteTimeline ON asset((creationDate COLLATE "C") DESC NULLS LAST, (id COLLATE "C"))
                WHERE favorite AND NOT hidden AND trashedDate IS NULL;
            -- Largest first, then by name: the whole key, because thousands of
            -- photos share a width.
            DROP INDEX asset_pixelWidth;
            CREATE INDEX asset_pixelWidth ON asset(pixelWidth DESC, (originalFilename COLLATE "C"), (id COLLATE "C"));
            """),
        // 7368420152 below is CatalogSchema's changeSet_order lock written out, not shared: a migration is history and keeps its text (CatalogSchemaTests compares the two).
        Migration(name: "pg4: jobs claimed by any node; notifications of changes and jobs", sql: """
            -- Batch work (a preset on 100 000 photos, upgrade, thumbnails of
            -- new imports) cut into jobs that any node claims with FOR UPDATE
            -- SKIP LOCKED. A claim is a lease: a worker renews it while it
            -- works; a job whose lease ran out (its node died) is claimed
            -- again. `attempts` numbers the claims and fences the worker: a
            -- renewal, progress or completion by an older claim changes nothing.
            CREATE TABLE job (
                id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
                batch text NOT NULL,
                kind text NOT NULL,
                payload jsonb NOT NULL,
                state text NOT NULL DEFAULT 'queued' CHECK (state IN ('queued', 'running', 'done', 'failed', 'cancelled')),
                attempts integer NOT NULL DEFAULT 0,
                maxAttempts integer NOT NULL CHECK (maxAttempts BETWEEN 1 AND 100),
                worker text,
                leaseUntil timestamptz,
                runAfter timestamptz NOT NULL DEFAULT clock_timestamp(),
                done bigint NOT NULL DEFAULT 0,
                total bigint,
                error text,
                created timestamptz NOT NULL DEFAULT clock_timestamp(),
                finished timestamptz
            );
            CREATE INDEX job_open ON job(id) WHERE state IN ('queued', 'running');
            CREATE INDEX job_batch ON job(batch);

            -- Wake-ups only: the job table and the change feed stay the truth
            -- (a listener that missed a notification finds the rows when it
            -- next looks).
            CREATE FUNCTION job_notify() RETURNS trigger LANGUAGE plpgsql AS $$
            BEGIN
                PERFORM pg_notify('photoedit_jobs', '');
                RETURN NULL;
            END $$;
            CREATE TRIGGER job_notify AFTER INSERT ON job FOR EACH STATEMENT EXECUTE FUNCTION job_notify();
            -- Change sets are numbered in commit order, so that a reader
            -- that has seen change n has seen every change before it: a
            -- commit takes the feed's lock when it inserts its change set
            -- (its last statement) and holds it until it ends, and numbers it
            -- after the latest committed one. (An identity alone numbers at
            -- insert time: 5 could commit before 4, and a reader at 5 would
            -- skip 4.) Writers use READ COMMITTED, in which the number is
            -- read after the lock.
            CREATE FUNCTION changeSet_order() RETURNS trigger LANGUAGE plpgsql AS $$
            BEGIN
                PERFORM pg_advisory_xact_lock(7368420152);
                NEW.seq := (SELECT COALESCE(MAX(seq), 0) + 1 FROM changeSet);
                RETURN NEW;
            END $$;
            CREATE TRIGGER changeSet_order BEFORE INSERT ON changeSet FOR EACH ROW EXECUTE FUNCTION changeSet_order();
            CREATE FUNCTION changeSet_notify() RETURNS trigger LANGUAGE plpgsql AS $$
            BEGIN
                PERFORM pg_notify('photoedit_changes', NEW.seq::text);
                RETURN NULL;
            END $$;
            CREATE TRIGGER changeSet_notify AFTER INSERT ON changeSet FOR EACH ROW EXECUTE FUNCTION changeSet_notify();
            """),
        Migration(name: "pg5: change entries in the order a commit touched them", sql: """
            -- A change set lists its objects in the order the commit touched
            -- them; SQLite reads that from its rowid, which PostgreSQL has
            -- not (SQLDialect.changeEntryOrder).
            ALTER TABLE changeEntry ADD COLUMN entryOrder bigint GENERATED ALWAYS AS IDENTITY;
            """),
        Migration(name: "pg6: ratings, colour labels, keywords, titles and captions (SQLite v7)", sql: """
            -- -1 rejected, 0 unrated, 1-5 stars; colour label red … purple or NULL.
            ALTER TABLE asset ADD COLUMN rating integer NOT NULL DEFAULT 0;
            ALTER TABLE asset ADD COLUMN colorLabel text;
            ALTER TABLE asset ADD COLUMN title text;
            ALTER TABLE asset ADD COLUMN caption text;
            CREATE INDEX asset_rating ON asset(rating);
            -- One row per keyword of a photo (`Trips/Iceland`), compared
            -- ignoring case as lower() folds it: a photo holds a keyword once.
            CREATE TABLE assetKeyword (
                assetId text NOT NULL REFERENCES asset(id) ON DELETE CASCADE,
                keyword text NOT NULL
            );
            CREATE UNIQUE INDEX assetKeyword_asset ON assetKeyword(assetId, lower(keyword));
            CREATE INDEX assetKeyword_keyword ON assetKeyword((lower(keyword) COLLATE "C"), assetId);
            """),
        Migration(name: "pg7: metadata records on disk (SQLite v8)", sql: """
            -- The photo's metadata record beside its revision records (rating,
            -- label, keywords, title, caption, favorite, hidden); NULL when
            -- none is set.
            ALTER TABLE asset ADD COLUMN metadataPath text;
            """),
        Migration(name: "pg8: virtual copies and snapshots (SQLite v9)", sql: """
            -- A virtual copy shares its master's original: the bytes' hashes
            -- stay unique among masters only.
            ALTER TABLE asset ADD COLUMN masterId text;
            ALTER TABLE asset ADD COLUMN copyName text;
            ALTER TABLE asset DROP CONSTRAINT asset_sha256_key;
            ALTER TABLE asset DROP CONSTRAINT asset_alternatesha256_key;
            CREATE UNIQUE INDEX asset_sha256 ON asset(sha256) WHERE masterId IS NULL;
            CREATE UNIQUE INDEX asset_alternateSha256 ON asset(alternateSha256) WHERE masterId IS NULL;
            CREATE INDEX asset_originalPath ON asset(originalPath);
            CREATE INDEX asset_master ON asset(masterId) WHERE masterId IS NOT NULL;
            CREATE TABLE snapshot (
                assetId text NOT NULL REFERENCES asset(id) ON DELETE CASCADE,
                name text NOT NULL,
                revision integer NOT NULL,
                createdAt timestamp(3) NOT NULL,
                PRIMARY KEY (assetId, name)
            );
            """),
    ]
}
#endif
