import Foundation
import Synchronization

// The catalog layer's typed calls: every statement the engine runs on its
// catalog is written here (or in the rows' declarations, CatalogRecords.swift,
// and the query builder, Query/), once, in `?`-placeholder SQL both stores
// speak; where the dialects differ a `SQLDialect` helper writes the
// difference. The rest of the engine reads and writes the catalog only
// through these calls, inside a transaction of `LibraryCatalog`.

/// A library's catalog: its store (SQLite or PostgreSQL) behind the
/// transactions the engine runs on it, each counted (a test checks how many
/// one edit makes).
final class LibraryCatalog: Sendable {
    /// The store the transactions run on.
    let store: any CatalogStore
    private let transactions = Atomic<Int>(0)

    init(_ store: any CatalogStore) { self.store = store }

    /// The SQL the store speaks.
    var dialect: SQLDialect { store.dialect }

    /// See `CatalogStore.changeSignal`.
    func changeSignal() -> (any CatalogChangeSignal)? { store.changeSignal() }

    /// Runs `body` in a read transaction (a consistent snapshot).
    func read<T>(_ body: (any CatalogConnection) throws -> T) throws -> T {
        transactions.add(1, ordering: .relaxed)
        return try store.read(body)
    }

    /// Runs `body` in one all-or-nothing write transaction.
    func write<T>(_ body: (any CatalogConnection) throws -> T) throws -> T {
        transactions.add(1, ordering: .relaxed)
        return try store.write(body)
    }

    /// How many transactions (read or write) have been started on this
    /// library's catalog since it was opened.
    var transactionCount: Int { transactions.load(ordering: .relaxed) }
}

extension PhotoLibrary {
    /// How many catalog transactions this library object has run since it
    /// was opened (a testing hook: an edit's cost in round trips).
    package var catalogTransactionCount: Int { catalog.transactionCount }
}

extension PhotoLibrary {
    /// Where the declared schema (CatalogSchema.swift), the records' column
    /// lists (CatalogRecords.swift) and the store's schema disagree, one line
    /// each (empty when they agree): a column declared that the store's
    /// table lacks, or the reverse; a column of a record's table the record
    /// neither holds nor declares as derived.
    package func catalogSchemaMismatches() throws -> [String] {
        try read { db in
            var out: [String] = []
            func compare(_ table: String, _ declared: [String], _ schema: [String], _ what: String) {
                // PostgreSQL folds unquoted names to lower case.
                let schema = Set(schema.map { $0.lowercased() }), names = Set(declared.map { $0.lowercased() })
                out += names.subtracting(schema).sorted().map { "\(table).\($0) is declared but not in \(what)" }
                out += schema.subtracting(names).sorted().map { "\(table).\($0) is in \(what) but not declared" }
            }
            for table in CatalogSchema.tables(db.dialect) {
                compare(table.name, table.columns(db.dialect).map(\.name), try db.schemaColumns(of: table.name), "the store's schema")
            }
            func columns(_ table: some CatalogSchema.TableDeclaration) -> [String] {
                CatalogSchema.table(table.tableName)?.columns(db.dialect).map(\.name) ?? []
            }
            compare("asset", columns(CatalogSchema.asset), AssetRecord.columnNames + AssetRecord.derivedColumns, "AssetRecord")
            compare("revision", columns(CatalogSchema.revision), RevisionRecord.columnNames, "RevisionRecord")
            return out
        }
    }
}

extension CatalogConnection {
    /// The columns of a table as the store's schema has them.
    func schemaColumns(of table: String) throws -> [String] {
        switch dialect {
        case .sqlite:
            return try texts("SELECT name FROM pragma_table_info(?)", table)
        case .postgres:
            return try texts("""
                SELECT column_name FROM information_schema.columns WHERE table_schema = current_schema() AND table_name = ?
                ORDER BY ordinal_position
                """, table.lowercased())
        }
    }
}

// MARK: Photos

extension CatalogConnection {
    /// The ids that start with `prefix` (lower-case hex), in order, at most `limit`.
    func assetIDs(withPrefix prefix: String, limit: Int) throws -> [String] {
        try texts("SELECT id FROM asset WHERE id >= ? AND id < ? ORDER BY id LIMIT ?", prefix, prefix + "g", limit)
    }

    /// The photo with this id, nil when there is none. `locking`: the row is
    /// about to change in this transaction (see `SQLDialect.forUpdate`).
    func asset(_ id: String, locking: Bool = false) throws -> AssetRecord? {
        try row("SELECT * FROM asset WHERE id = ?" + (locking ? dialect.forUpdate : ""), id).map(AssetRecord.init(row:))
    }

    /// The photos with these ids (missing ids left out), in no order.
    func assets(_ ids: [String]) throws -> [AssetRecord] {
        guard !ids.isEmpty else { return [] }
        return try rows("SELECT * FROM asset WHERE id IN (\(placeholders(ids.count)))", ids.map(\.sqlValue)).map(AssetRecord.init(row:))
    }

    /// Every photo's row, in no order.
    func allAssets() throws -> [AssetRecord] {
        try rows("SELECT * FROM asset").map(AssetRecord.init(row:))
    }

    /// Every photo's id, oldest import first (ties in byte order of the ids).
    func assetIDsInImportOrder() throws -> [String] {
        try texts("SELECT id FROM asset ORDER BY importDate, \(dialect.bytewise("id"))")
    }

    /// A photo's current revision number, nil when there is no such photo.
    func currentRevisionNumber(of id: String) throws -> Int? {
        try int("SELECT revision FROM asset WHERE id = ?", id)
    }

    /// A photo's favorite and hidden flags, nil when there is no such photo.
    func flags(of id: String) throws -> (favorite: Bool, hidden: Bool)? {
        let a = CatalogSchema.asset
        return try row("SELECT \(a.favorite), \(a.hidden) FROM \(a) WHERE \(a.id) = ?", id).map { (try $0.get(a.favorite), try $0.get(a.hidden)) }
    }

    /// A photo's original file (relative), nil when there is no such photo.
    func originalPath(of id: String) throws -> String? {
        try value(String.self, "SELECT originalPath FROM asset WHERE id = ?", id)
    }

    /// A pair's alternate file (relative), nil for a single file or no such photo.
    func alternatePath(of id: String) throws -> String? {
        try value(String.self, "SELECT alternatePath FROM asset WHERE id = ?", id)
    }

    /// The photo whose original or alternate file has these bytes (the
    /// master, never one of its virtual copies).
    func assetID(holding sha256: String) throws -> String? {
        try value(String.self, """
            SELECT id FROM asset WHERE sha256 = ? AND masterId IS NULL
            UNION SELECT id FROM asset WHERE alternateSha256 = ? AND masterId IS NULL
            """, sha256, sha256)
    }

    /// Whether a photo's original or alternate file is `path`.
    func isOriginalReferenced(_ path: String) throws -> Bool {
        try int("SELECT 1 FROM asset WHERE originalPath = ? OR alternatePath = ?", path, path) != nil
    }

    /// The single photos (no alternate, not deleted, without virtual
    /// copies: they share the file) imported from this folder under this
    /// name, oldest import first: a new file's pair candidates.
    func pairCandidates(folder: String, stem: String) throws -> [AssetRecord] {
        try rows("""
            SELECT * FROM asset WHERE sourceFolder = ? AND sourceStem = ? AND alternatePath IS NULL AND trashedDate IS NULL
                AND masterId IS NULL AND NOT EXISTS (SELECT 1 FROM asset AS copy WHERE copy.masterId = asset.id)
            ORDER BY importDate
            """, folder, stem).map(AssetRecord.init(row:))
    }

    /// Makes revision `number` the photo's current one.
    func setCurrentRevision(_ number: Int, of id: String) throws {
        try execute("UPDATE asset SET revision = ? WHERE id = ?", number, id)
    }

    /// Sets one of a photo's simple descriptive fields (the caller checked the value).
    func set<V: CatalogColumnValue>(_ field: KeyPath<CatalogSchema.Asset, CatalogSchema.Field<V>>, _ value: V, of id: String) throws {
        let a = CatalogSchema.asset
        try execute("UPDATE \(a) SET \(a[keyPath: field]) = ? WHERE \(a.id) = ?", value, id)
    }

    /// Sets (or clears) a photo's location.
    func setLocation(_ location: Location?, of id: String) throws {
        try execute("UPDATE asset SET latitude = ?, longitude = ? WHERE id = ?", location?.latitude, location?.longitude, id)
    }

    /// What a pair's second file brings: the rating, label, title and caption
    /// the photo has not set yet.
    func fillDescriptiveFields(of id: String, from record: AssetRecord) throws {
        try execute("""
            UPDATE asset SET rating = CASE WHEN rating = 0 THEN ? ELSE rating END, colorLabel = COALESCE(colorLabel, ?),
                title = COALESCE(title, ?), caption = COALESCE(caption, ?)
            WHERE id = ?
            """, record.rating, record.colorLabel, record.title, record.caption, id)
    }

    /// Makes photo `id` the pair of `raw` and `jpeg`: the JPEG is the
    /// original, the RAW the alternate; capture time, place and camera are
    /// the JPEG's, else the RAW's.
    func joinPair(_ id: String, raw: AssetRecord, jpeg: AssetRecord) throws {
        let values: [any CatalogValue] = [
            jpeg.originalFilename, jpeg.sha256, jpeg.originalPath, jpeg.fileSize, jpeg.format, jpeg.uniformTypeIdentifier,
            jpeg.originalPixelWidth, jpeg.originalPixelHeight, jpeg.orientation,
            jpeg.creationDate ?? raw.creationDate, jpeg.latitude ?? raw.latitude, jpeg.longitude ?? raw.longitude,
            raw.camera ?? jpeg.camera, raw.originalPath, raw.sha256, raw.originalFilename, raw.fileSize, raw.format,
            raw.uniformTypeIdentifier, id,
        ]
        try execute("""
            UPDATE asset SET originalFilename = ?, sha256 = ?, originalPath = ?, fileSize = ?, format = ?, uniformTypeIdentifier = ?,
                originalPixelWidth = ?, originalPixelHeight = ?, orientation = ?, creationDate = ?, latitude = ?, longitude = ?,
                camera = \(dialect.jsonPlaceholder), alternatePath = ?, alternateSha256 = ?, alternateFilename = ?, alternateFileSize = ?,
                alternateFormat = ?, alternateUniformTypeIdentifier = ?
            WHERE id = ?
            """, values.map(\.sqlValue))
    }

    /// A photo that was a RAW alone and now has its JPEG: its edits were made
    /// on the RAW (their base is `rawPath`), its unadjusted revisions are the JPEG's size.
    func rebaseOntoRaw(_ id: String, rawPath: String, jpegWidth: Int, jpegHeight: Int) throws {
        try execute("UPDATE revision SET basePath = ? WHERE assetId = ? AND basePath IS NULL AND data IS NOT NULL", rawPath, id)
        try execute("UPDATE revision SET pixelWidth = ?, pixelHeight = ? WHERE assetId = ? AND data IS NULL", jpegWidth, jpegHeight, id)
    }

    /// Sets every photo's current-version columns (pixel size, adjusted)
    /// from its current revision: fires the triggers that keep them.
    func refreshCurrentVersionColumns() throws {
        try execute("UPDATE asset SET revision = revision")
    }

    /// `refreshCurrentVersionColumns` for one photo.
    func refreshCurrentVersionColumns(of id: String) throws {
        try execute("UPDATE asset SET revision = revision WHERE id = ?", id)
    }

    /// SQLite's integrity check, `["ok"]` when sound (a PostgreSQL server
    /// checks its own pages: always `["ok"]`).
    func integrityCheck() throws -> [String] {
        dialect == .sqlite ? try texts("PRAGMA integrity_check") : ["ok"]
    }

    /// How many rows break a foreign key (SQLite's check; a PostgreSQL server
    /// enforces them on every change: 0).
    func foreignKeyViolations() throws -> Int {
        dialect == .sqlite ? try rows("PRAGMA foreign_key_check").count : 0
    }

    /// Removes a photo's row (its revisions, keywords and album places go with it).
    func deleteAsset(_ id: String) throws {
        try execute("DELETE FROM asset WHERE id = ?", id)
    }

    /// Every file a row names: originals, alternates, renders, bases,
    /// revision and metadata records.
    func referencedFiles() throws -> Set<String> {
        Set(try texts("""
            SELECT originalPath FROM asset
            UNION SELECT alternatePath FROM asset WHERE alternatePath IS NOT NULL
            UNION SELECT renderPath FROM revision WHERE renderPath IS NOT NULL
            UNION SELECT basePath FROM revision WHERE basePath IS NOT NULL
            UNION SELECT sidecarPath FROM revision WHERE sidecarPath IS NOT NULL
            UNION SELECT metadataPath FROM asset WHERE metadataPath IS NOT NULL
            """))
    }
}

extension CatalogConnection {
    /// The ids of the photos a fetch selects (of `album`, an album id, or
    /// of the whole library), in its order: `FetchOptions.sql`
    /// (CatalogPredicates.swift) in this connection's dialect.
    func assetIDs(_ options: FetchOptions, album: String?) throws -> [String] {
        let query = try options.sql(album: album, dialect)
        return try texts(query.sql, query.arguments)
    }
}

// MARK: Revisions

extension CatalogConnection {
    /// Revision `number` of photo `id`, nil when there is none.
    func revision(_ number: Int, of id: String) throws -> RevisionRecord? {
        try row("SELECT * FROM revision WHERE assetId = ? AND number = ?", id, number).map(RevisionRecord.init(row:))
    }

    /// The current revision of each of these photos, by photo id.
    func currentRevisions(of ids: [String]) throws -> [String: RevisionRecord] {
        guard !ids.isEmpty else { return [:] }
        var out: [String: RevisionRecord] = [:]
        for r in try rows("""
            SELECT revision.* FROM asset JOIN revision ON revision.assetId = asset.id AND revision.number = asset.revision
            WHERE asset.id IN (\(placeholders(ids.count)))
            """, ids.map(\.sqlValue)).map(RevisionRecord.init(row:)) { out[r.assetId] = r }
        return out
    }

    /// Every revision of a photo, oldest first.
    func revisions(of id: String) throws -> [RevisionRecord] {
        try rows("SELECT * FROM revision WHERE assetId = ? ORDER BY number", id).map(RevisionRecord.init(row:))
    }

    /// Every revision of every photo, by photo, oldest first.
    func allRevisions() throws -> [RevisionRecord] {
        try rows("SELECT * FROM revision ORDER BY assetId, number").map(RevisionRecord.init(row:))
    }

    /// The revisions that have no record on disk (committed by older versions), by photo and number.
    func revisionsWithoutRecord() throws -> [(String, Int)] {
        let r = CatalogSchema.revision
        return try rows("SELECT \(r.assetId), \(r.number) FROM \(r) WHERE \(r.sidecarPath) IS NULL").map { (try $0.get(r.assetId), try $0.get(r.number)) }
    }

    /// The renders and revision records of a photo's revisions.
    func revisionFiles(of id: String) throws -> [String] {
        try texts("""
            SELECT renderPath FROM revision WHERE assetId = ? AND renderPath IS NOT NULL
            UNION ALL SELECT sidecarPath FROM revision WHERE assetId = ? AND sidecarPath IS NOT NULL
            """, id, id)
    }

    /// Sets where a revision's render is.
    func setRenderPath(_ path: String, ofRevision number: Int, of id: String) throws {
        try execute("UPDATE revision SET renderPath = ? WHERE assetId = ? AND number = ?", path, id, number)
    }

    /// Sets where a revision's record on disk is.
    func setSidecarPath(_ path: String?, ofRevision number: Int, of id: String) throws {
        try execute("UPDATE revision SET sidecarPath = ? WHERE assetId = ? AND number = ?", path, id, number)
    }

}

// MARK: Keywords

extension CatalogConnection {
    /// The keywords of these photos, by photo id, in no order.
    func keywords(of ids: [String]) throws -> [String: [String]] {
        guard !ids.isEmpty else { return [:] }
        let k = CatalogSchema.assetKeyword
        var out: [String: [String]] = [:]
        for row in try rows("SELECT \(k.assetId), \(k.keyword) FROM \(k) WHERE \(k.assetId) IN (\(placeholders(ids.count)))", ids.map(\.sqlValue)) {
            out[try row.get(k.assetId), default: []].append(try row.get(k.keyword))
        }
        return out
    }

    /// Every keyword and how many photos hold it (as the store groups them).
    func keywordCounts() throws -> [(keyword: String, count: Int)] {
        let k = CatalogSchema.assetKeyword
        return try rows("SELECT \(k.keyword), COUNT(*) FROM \(k) GROUP BY \(k.keyword)").map { (try $0.get(k.keyword), try $0.get(1)) }
    }

    /// Removes every keyword of a photo.
    func removeAllKeywords(of id: String) throws {
        try execute("DELETE FROM assetKeyword WHERE assetId = ?", id)
    }

    /// Removes a keyword of a photo (in any case).
    func removeKeyword(_ keyword: String, of id: String) throws {
        try execute("DELETE FROM assetKeyword WHERE assetId = ? AND \(dialect.keywordEquals)", id, keyword)
    }

    /// Adds a keyword to a photo; one it holds in any case stays as it is.
    func addKeyword(_ keyword: String, to id: String) throws {
        let k = CatalogSchema.assetKeyword
        try insert(into: k, [k.assetId.bind(id), k.keyword.bind(keyword)], ignoringDuplicates: true)
    }

    /// How many keywords a photo holds.
    func keywordCount(of id: String) throws -> Int {
        try int("SELECT COUNT(*) FROM assetKeyword WHERE assetId = ?", id) ?? 0
    }
}

// MARK: Albums

extension CatalogConnection {
    /// The titles of the albums holding each of these photos, by photo id,
    /// each list in byte order of the titles.
    func albumTitles(of ids: [String]) throws -> [String: [String]] {
        guard !ids.isEmpty else { return [:] }
        let (al, m) = (CatalogSchema.album, CatalogSchema.albumAsset)
        var out: [String: [String]] = [:]
        for row in try rows("""
            SELECT \(m).\(m.assetId), \(al).\(al.title) FROM \(m) JOIN \(al) ON \(al).\(al.id) = \(m).\(m.albumId)
            WHERE \(m).\(m.assetId) IN (\(placeholders(ids.count))) ORDER BY \(dialect.bytewise("\(al).\(al.title)"))
            """, ids.map(\.sqlValue)) { out[try row.get(m.assetId), default: []].append(try row.get(al.title)) }
        return out
    }

    /// The album with this exact title.
    func albumID(titled title: String) throws -> String? {
        try value(String.self, "SELECT id FROM album WHERE title = ?", title)
    }

    /// The album ids that start with `prefix` (lower-case hex), at most `limit`.
    func albumIDs(withPrefix prefix: String, limit: Int) throws -> [String] {
        try texts("SELECT id FROM album WHERE id >= ? AND id < ? LIMIT ?", prefix, prefix + "g", limit)
    }

    /// Every album's id, in byte order of the titles.
    func albumIDsByTitle() throws -> [String] {
        try texts("SELECT id FROM album ORDER BY \(dialect.bytewise("title"))")
    }

    /// An album's title and creation time, nil when there is none.
    func album(_ id: String) throws -> (title: String, createdAt: Date)? {
        let al = CatalogSchema.album
        return try row("SELECT \(al.title), \(al.createdAt) FROM \(al) WHERE \(al.id) = ?", id).map { (try $0.get(al.title), try $0.get(al.createdAt)) }
    }

    /// The albums whose title contains `titleContains` (ignoring ASCII case;
    /// nil: every album), by title, or newest first.
    func albumIDs(titleContains: String?, newestFirst: Bool) throws -> [String] {
        var sql = "SELECT id FROM album"
        var arguments: [SQLValue] = []
        if let titleContains {
            sql += " WHERE " + dialect.containsText("lower(title)", "lower(?)")
            arguments.append(.text(titleContains))
        }
        sql += newestFirst ? " ORDER BY createdAt DESC, \(dialect.bytewise("id"))" : " ORDER BY \(dialect.bytewise("title")), \(dialect.bytewise("id"))"
        return try texts(sql, arguments)
    }

    /// Every album, in byte order of the ids.
    func allAlbums() throws -> [(id: String, title: String, createdAt: Date)] {
        let al = CatalogSchema.album
        return try rows("SELECT \(al.id), \(al.title), \(al.createdAt) FROM \(al) ORDER BY \(dialect.bytewise(al.id.name))").map {
            (try $0.get(al.id), try $0.get(al.title), try $0.get(al.createdAt))
        }
    }

    /// Makes an album's photos exactly `members`, in this order.
    func replaceAlbumMembers(_ albumID: String, with members: [String]) throws {
        try execute("DELETE FROM albumAsset WHERE albumId = ?", albumID)
        for (position, id) in members.enumerated() {
            let m = CatalogSchema.albumAsset
            try insert(into: m, [m.albumId.bind(albumID), m.assetId.bind(id), m.position.bind(position)])
        }
    }

    /// The albums a photo is in.
    func albumIDs(holding id: String) throws -> [String] {
        try texts("SELECT albumId FROM albumAsset WHERE assetId = ?", id)
    }

    /// Whether the album exists; `locking`: its row is about to change.
    func albumExists(_ id: String, locking: Bool = false) throws -> Bool {
        try int("SELECT 1 FROM album WHERE id = ?" + (locking ? dialect.forUpdate : ""), id) != nil
    }

    /// Whether an album other than `except` has this title.
    func albumTitleTaken(_ title: String, except: String? = nil) throws -> Bool {
        if let except { return try int("SELECT 1 FROM album WHERE title = ? AND id != ?", title, except) != nil }
        return try int("SELECT 1 FROM album WHERE title = ?", title) != nil
    }

    /// Adds an album's row.
    func insertAlbum(_ id: String, title: String, createdAt: Date) throws {
        let al = CatalogSchema.album
        try insert(into: al, [al.id.bind(id), al.title.bind(title), al.createdAt.bind(createdAt)])
    }

    /// Renames an album.
    func renameAlbum(_ id: String, to title: String) throws {
        try execute("UPDATE album SET title = ? WHERE id = ?", title, id)
    }

    /// Removes an album's row (its places go with it; its photos stay).
    func deleteAlbum(_ id: String) throws {
        try execute("DELETE FROM album WHERE id = ?", id)
    }

    /// The photos of an album, in its order.
    func albumMembers(_ albumID: String) throws -> [String] {
        try texts("SELECT assetId FROM albumAsset WHERE albumId = ? ORDER BY position", albumID)
    }

    /// Adds a photo at the end of an album (nothing when it is in it already).
    func appendToAlbum(_ albumID: String, _ id: String) throws {
        let m = CatalogSchema.albumAsset
        let next = try int("SELECT COALESCE(MAX(\(m.position)), -1) + 1 FROM \(m) WHERE \(m.albumId) = ?", albumID) ?? 0
        try insert(into: m, [m.albumId.bind(albumID), m.assetId.bind(id), m.position.bind(next)], ignoringDuplicates: true)
    }

    /// Takes a photo out of an album.
    func removeFromAlbum(_ albumID: String, _ id: String) throws {
        try execute("DELETE FROM albumAsset WHERE albumId = ? AND assetId = ?", albumID, id)
    }

    /// Gives an album's photos the positions 0, 1, … in this order.
    func setAlbumOrder(_ albumID: String, _ order: [String]) throws {
        for (n, asset) in order.enumerated() {
            try execute("UPDATE albumAsset SET position = ? WHERE albumId = ? AND assetId = ?", n, albumID, asset)
        }
    }
}

// MARK: The change feed

extension CatalogConnection {
    /// Adds a change set; returns its sequence number.
    func insertChangeSet(time: Date) throws -> Int {
        let c = CatalogSchema.changeSet
        guard let seq = try int("INSERT INTO \(c) (\(c.time)) VALUES (?) RETURNING \(c.seq)", time) else {
            throw PhotoEditError.library("catalog: a new change set has no sequence number")
        }
        return seq
    }

    /// Adds one entry of change set `seq`.
    func insertChangeEntry(seq: Int, objectType: String, objectId: String, kind: String, aspects: String, before: String?) throws {
        let e = CatalogSchema.changeEntry
        try insert(into: e, [e.seq.bind(seq), e.objectType.bind(objectType), e.objectId.bind(objectId), e.kind.bind(kind),
                             e.aspects.bind(aspects), e.before.bind(before)])
    }

    /// The sequence number of the latest change set (0: none yet).
    func latestChangeSequence() throws -> Int {
        let query = ChangeFeedQuery.latestSequence
        return try value(Int.self, query.sql, query.arguments) ?? 0
    }

    /// The snapshot (`before`) of the object's first entry after `seq`: nil
    /// when it has no later entry; `.some(nil)` when that entry inserted it.
    func nextSnapshot(of objectId: String, objectType: String, after seq: Int) throws -> String?? {
        let e = CatalogSchema.changeEntry
        return try row("SELECT \(e.before) FROM \(e) WHERE \(e.objectId) = ? AND \(e.objectType) = ? AND \(e.seq) > ? ORDER BY \(e.seq) LIMIT 1",
                       objectId, objectType, seq).map { try $0.get(e.before) }
    }

    /// The entries of the change sets after `seq` (at most `changeSets` of
    /// them; nil: all), in order: see `ChangeFeedQuery.entries`.
    func changeEntryRows(since seq: Int, changeSets: Int?) throws -> [CatalogRow] {
        let query = ChangeFeedQuery.entries(since: seq, changeSets: changeSets, dialect)
        return try rows(query.sql, query.arguments)
    }
}

/// The change feed's reads, one text for both stores (the SQLite and the
/// PostgreSQL catalog store, and `PostgresCatalog`'s own reads across nodes).
package enum ChangeFeedQuery {
    /// The sequence number of the latest change set (0: none yet); one integer column.
    package static let latestSequence = SQLFragment(sql: "SELECT COALESCE(MAX(seq), 0) FROM changeSet")

    /// The entries of the change sets after `seq` (at most `changeSets` of
    /// them; nil: all), in order: change sets by number, a set's entries in
    /// the order its commit wrote them. Columns seq, time, objectType,
    /// objectId, kind, aspects, before; read each row with `entry(_:)`.
    package static func entries(since seq: Int, changeSets: Int?, _ dialect: SQLDialect) -> SQLFragment {
        // No limit: the largest one (SQLite reads -1 as none, PostgreSQL refuses it).
        let (e, c) = (CatalogSchema.changeEntry, CatalogSchema.changeSet)
        return SQLFragment(sql: """
            SELECT \(e).\(e.seq), \(c).\(c.time), \(e.objectType), \(e.objectId), \(e.kind), \(e.aspects), \(e.before)
            FROM \(e) JOIN \(c) ON \(c).\(c.seq) = \(e).\(e.seq)
            WHERE \(e).\(e.seq) > ? AND \(e).\(e.seq) <= (
                SELECT COALESCE(MAX(\(c.seq)), 0) FROM (SELECT \(c.seq) FROM \(c) WHERE \(c.seq) > ? ORDER BY \(c.seq) LIMIT ?) AS page)
            ORDER BY \(e).\(e.seq), \(dialect.changeEntryOrder)
            """, arguments: [.integer(Int64(seq)), .integer(Int64(seq)), .integer(changeSets.map(Int64.init) ?? Int64.max)])
    }

    /// One row of `entries` as the feed's entry and its `before` snapshot
    /// (JSON; nil when the entry inserted the object).
    package static func entry(_ row: CatalogRow) throws -> (entry: ChangeEntry, before: String?) {
        let (e, c) = (CatalogSchema.changeEntry, CatalogSchema.changeSet)
        let typeText = try row.get(e.objectType), kindText = try row.get(e.kind)
        guard let type = ObjectType(rawValue: typeText), let kind = ChangeEntry.Kind(rawValue: kindText) else {
            throw PhotoEditError.library("catalog: change feed entry \(try row.get(e.seq)) has an unknown kind \(typeText)/\(kindText)")
        }
        return (ChangeEntry(seq: try row.get(e.seq), date: try row.get(c.time), objectType: type, identifier: try row.get(e.objectId),
                            kind: kind, aspects: ChangedAspects(names: try row.get(e.aspects))), try row.get(e.before))
    }
}
