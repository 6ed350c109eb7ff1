// Generated catalogs for benchmarks and for the tests that compare the
// catalog backends: the same photos written straight into SQLite (GRDB) or
// PostgreSQL, as an import would record them (no files). Not a product.
// PostgreSQL's writer exists only with the Server trait (Package.swift).
import Foundation
import GRDB
import PhotoEdit
#if Server
import PhotoEditPostgres
#endif

/// One generated photo: the catalog rows an import (and perhaps an edit and
/// an album) would have written.
package struct SamplePhoto: Sendable {
    package var id: String
    package var filename: String
    package var fileSize: Int64
    package var format: String
    package var uniformTypeIdentifier: String
    package var width: Int
    package var height: Int
    /// The camera's local time, as text (nil for about one photo in seven).
    package var creationDate: String?
    /// Import time (whole seconds).
    package var importDate: Date
    package var favorite: Bool
    package var hidden: Bool
    package var trashedDate: Date?
    /// CameraInfo JSON (60 % of photos).
    package var camera: String?
    /// Revision 1 is an edit (20 %).
    package var edited: Bool
    /// Album number (0…49) and position, for the first 10 000 photos.
    package var album: (number: Int, position: Int)?

    package var albumID: String? { album.map { String(format: "%032x", $0.number + 1) } }
    package var albumTitle: String? { album.map { "Trip \($0.number)" } }
}

/// The generator: deterministic (the same photos on every run and backend):
/// sizes, dates over ten years, 10 % favorites, 2 % hidden, 1 % recently
/// deleted, camera metadata on 60 %, 50 albums of 200 photos, 20 % edited.
package struct SampleCatalog: Sequence, Sendable {
    package let count: Int

    package init(photos: Int) { count = photos }

    package func makeIterator() -> AnyIterator<SamplePhoto> {
        var rng = SplitMix(seed: 42)
        var n = 0
        let makes = ["Canon", "Nikon", "Sony", "Fujifilm", "Leica"]
        let sizes = [(6000, 4000), (4000, 3000), (8192, 5464), (3024, 4032), (1920, 1080), (2000, 3000)]
        let formats = [("jpeg", "public.jpeg"), ("jpeg", "public.jpeg"), ("jpeg", "public.jpeg"), ("heif", "public.heic"),
                       ("raw", "public.camera-raw-image")]
        let start: Int64 = 1_420_070_400   // 2015-01-01
        let limit = count
        return AnyIterator {
            guard n < limit else { return nil }
            defer { n += 1 }
            let id = String(format: "%016llx%016llx", rng.next(), rng.next())
            let (w, h) = sizes[Int(rng.next() % UInt64(sizes.count))]
            let (format, uti) = formats[Int(rng.next() % UInt64(formats.count))]
            let created = start + Int64(rng.next() % (10 * 365 * 86_400))
            let roll = rng.next() % 100
            let camera: String? = roll < 60
                ? Self.cameraJSON([(.make, "\"\(makes[Int(rng.next() % 5)])\""), (.model, "\"M\(rng.next() % 10)\""),
                                   (.iso, "\(100 << (rng.next() % 6))"), (.fNumber, "2.8")])
                : nil
            return SamplePhoto(
                id: id, filename: String(format: "IMG_%06d.%@", n, format == "raw" ? "CR3" : "JPG"),
                fileSize: 5_000_000 + Int64(rng.next() % 20_000_000), format: format, uniformTypeIdentifier: uti,
                width: w, height: h,
                creationDate: roll % 7 == 0 ? nil : Self.text(created),
                importDate: Date(timeIntervalSince1970: TimeInterval(start + Int64(n) * 3000)),
                favorite: rng.next() % 10 == 0, hidden: rng.next() % 50 == 0,
                trashedDate: rng.next() % 100 == 0 ? Date(timeIntervalSince1970: TimeInterval(start + 400_000_000)) : nil,
                camera: camera, edited: roll < 20, album: n < 50 * 200 ? (n / 200, n % 200) : nil)
        }
    }

    /// A camera's JSON as the catalog keeps it, keyed as CameraInfo encodes
    /// itself (`values`: JSON text, in order).
    static func cameraJSON(_ values: [(CameraInfo.CodingKeys, String)]) -> String {
        "{" + values.map { "\"\($0.0.rawValue)\":\($0.1)" }.joined(separator: ",") + "}"
    }

    /// Seconds since 1970 as `YYYY-MM-DDTHH:MM:SS` in UTC (a camera's local time as text).
    static func text(_ seconds: Int64) -> String {
        var t = time_t(seconds)
        var parts = tm()
        gmtime_r(&t, &parts)
        let day = String(format: "%04d-%02d-%02d", parts.tm_year + 1900, parts.tm_mon + 1, parts.tm_mday)
        let time = String(format: "%02d:%02d:%02d", parts.tm_hour, parts.tm_min, parts.tm_sec)
        return day + "T" + time
    }

    // MARK: Writers

    /// Writes the photos into the SQLite catalog at `path` (a library's
    /// `catalog.sqlite`, already migrated), in one transaction; then ANALYZE.
    package func write(sqlite path: String) throws {
        let queue = try DatabaseQueue(path: path)
        try queue.write { db in
            for photos in batches(of: 1000) {
                for statement in Self.statements(photos, .sqlite) { try statement.execute(on: db) }
            }
        }
        try queue.writeWithoutTransaction { db in try db.execute(sql: "ANALYZE") }
    }

    #if Server
    /// Writes the photos into a PostgreSQL catalog (already migrated), in
    /// batches of `batch` photos, each batch one transaction; then ANALYZE.
    /// `progress` gets the number of photos written after each batch.
    package func write(postgres catalog: PostgresCatalog, batch: Int = 2000,
                       progress: (@Sendable (Int) -> Void)? = nil) async throws {
        var written = 0
        for photos in batches(of: batch) {
            try await catalog.execute(Self.statements(photos, .postgres))
            written += photos.count
            progress?(written)
        }
        try await catalog.execute([SQLFragment(sql: "ANALYZE")])
    }
    #endif

    /// The photos, `size` at a time.
    func batches(of size: Int) -> some Sequence<[SamplePhoto]> {
        sequence(state: makeIterator()) { photos in
            var batch: [SamplePhoto] = []
            while batch.count < size, let p = photos.next() { batch.append(p) }
            return batch.isEmpty ? nil : batch
        }
    }

    static let recipe = Data(#"{"format":"org.photoedit.recipe","formatVersion":1,"filters":[]}"#.utf8)

    /// The most values one statement binds (SQLite allows 32 766, PostgreSQL 65 535).
    static let maxValues = 30_000

    /// Multi-row INSERTs of the photos' rows in `dialect`: their assets, revisions,
    /// albums and album members, each value bound through its column's declared
    /// field (`CatalogSchema`), so a misspelt column or a value of another type
    /// does not compile.
    static func statements(_ photos: [SamplePhoto], _ dialect: SQLDialect) -> [SQLFragment] {
        func insert(_ table: some CatalogSchema.TableDeclaration, _ rows: [InsertRow]) -> [SQLFragment] {
            guard let columns = rows.first?.map(\.0) else { return [] }
            let perStatement = Swift.max(1, maxValues / columns.count)
            return stride(from: 0, to: rows.count, by: perStatement).map { start in
                let chunk = rows[start..<Swift.min(rows.count, start + perStatement)]
                return SQLFragment(sql: "INSERT INTO " + CatalogSchema.valuesClause(table, columns, rows: chunk.count, dialect),
                                   arguments: chunk.flatMap { $0.map(\.1) })
            }
        }
        return insert(CatalogSchema.asset, photos.map(\.assetRow))
            + insert(CatalogSchema.revision, photos.flatMap(\.revisionRows))
            + insert(CatalogSchema.album, photos.compactMap(\.albumRow))
            + insert(CatalogSchema.albumAsset, photos.compactMap(\.memberRow))
    }
}

/// A row to insert: each column with its value, bound through the column's field.
typealias InsertRow = [(CatalogSchema.Column, SQLValue)]

extension SamplePhoto {
    /// The photo's `asset` row, as an import records it.
    var assetRow: InsertRow {
        let a = CatalogSchema.asset
        return [a.id.bind(id), a.originalFilename.bind(filename), a.sha256.bind(id + id), a.originalPath.bind("originals/\(id.prefix(2))/\(id)"),
                a.fileSize.bind(fileSize), a.format.bind(format), a.uniformTypeIdentifier.bind(uniformTypeIdentifier), a.mediaType.bind("image"),
                a.originalPixelWidth.bind(width), a.originalPixelHeight.bind(height), a.orientation.bind(1),
                a.creationDate.bind(creationDate), a.importDate.bind(importDate), a.revision.bind(edited ? 1 : 0),
                a.favorite.bind(favorite), a.hidden.bind(hidden), a.trashedDate.bind(trashedDate), a.camera.bind(camera)]
    }

    /// Its import revision, and its edit (revision 1) if it has one.
    var revisionRows: [InsertRow] {
        let r = CatalogSchema.revision
        func revision(_ number: Int, _ kind: String, recipe: Data?) -> InsertRow {
            [r.assetId.bind(id), r.number.bind(number), r.createdAt.bind(importDate), r.kind.bind(kind),
             r.formatIdentifier.bind(recipe == nil ? nil : "org.photoedit.recipe"), r.formatVersion.bind(recipe == nil ? nil : "1"),
             r.data.bind(recipe), r.pixelWidth.bind(width), r.pixelHeight.bind(height)]
        }
        return [revision(0, "import", recipe: nil)] + (edited ? [revision(1, "edit", recipe: SampleCatalog.recipe)] : [])
    }

    /// Its album's row, for the album's first photo.
    var albumRow: InsertRow? {
        guard album?.position == 0, let albumID, let albumTitle else { return nil }
        let a = CatalogSchema.album
        return [a.id.bind(albumID), a.title.bind(albumTitle), a.createdAt.bind(importDate)]
    }

    /// Its place in its album.
    var memberRow: InsertRow? {
        guard let album, let albumID else { return nil }
        let m = CatalogSchema.albumAsset
        return [m.albumId.bind(albumID), m.assetId.bind(id), m.position.bind(album.position)]
    }
}

/// SplitMix64: a small seeded generator, the same numbers on every platform.
struct SplitMix {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
