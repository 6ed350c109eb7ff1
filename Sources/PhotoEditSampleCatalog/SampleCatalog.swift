// Generated catalogs for benchmarks and for the tests that compare the
// catalog backends: the same photos written straight into SQLite (GRDB) or
// PostgreSQL, as an import would record them (no files). Not a product.
import Foundation
import GRDB
import PhotoEdit
import PhotoEditPostgres

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
    /// Import time, UTC text as GRDB writes dates (`YYYY-MM-DD HH:MM:SS.SSS`).
    package var importDate: String
    package var favorite: Bool
    package var hidden: Bool
    package var trashedDate: String?
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
                ? #"{"make":"\#(makes[Int(rng.next() % 5)])","model":"M\#(rng.next() % 10)","iso":\#(100 << (rng.next() % 6)),"fNumber":2.8}"#
                : nil
            return SamplePhoto(
                id: id, filename: String(format: "IMG_%06d.%@", n, format == "raw" ? "CR3" : "JPG"),
                fileSize: 5_000_000 + Int64(rng.next() % 20_000_000), format: format, uniformTypeIdentifier: uti,
                width: w, height: h,
                creationDate: roll % 7 == 0 ? nil : Self.text(created, separator: "T", milliseconds: false),
                importDate: Self.text(start + Int64(n) * 3000, separator: " ", milliseconds: true),
                favorite: rng.next() % 10 == 0, hidden: rng.next() % 50 == 0,
                trashedDate: rng.next() % 100 == 0 ? Self.text(start + 400_000_000, separator: " ", milliseconds: true) : nil,
                camera: camera, edited: roll < 20, album: n < 50 * 200 ? (n / 200, n % 200) : nil)
        }
    }

    /// Seconds since 1970 as `YYYY-MM-DD<sep>HH:MM:SS[.000]` in UTC.
    static func text(_ seconds: Int64, separator: String, milliseconds: Bool) -> String {
        var t = time_t(seconds)
        var parts = tm()
        gmtime_r(&t, &parts)
        let day = String(format: "%04d-%02d-%02d", parts.tm_year + 1900, parts.tm_mon + 1, parts.tm_mday)
        let time = String(format: "%02d:%02d:%02d", parts.tm_hour, parts.tm_min, parts.tm_sec)
        return day + separator + time + (milliseconds ? ".000" : "")
    }

    // MARK: Writers

    /// Writes the photos into the SQLite catalog at `path` (a library's
    /// `catalog.sqlite`, already migrated), in one transaction.
    package func write(sqlite path: String) throws {
        let queue = try DatabaseQueue(path: path)
        try queue.write { db in
            for p in self {
                try db.execute(sql: """
                    INSERT INTO asset (id, originalFilename, sha256, originalPath, fileSize, format, uniformTypeIdentifier, mediaType,
                        originalPixelWidth, originalPixelHeight, orientation, creationDate, importDate, revision, favorite, hidden,
                        trashedDate, camera)
                    VALUES (?, ?, ?, ?, ?, ?, ?, 'image', ?, ?, 1, ?, ?, ?, ?, ?, ?, ?)
                    """, arguments: [p.id, p.filename, p.id + p.id, "originals/\(p.id.prefix(2))/\(p.id)", p.fileSize, p.format,
                                     p.uniformTypeIdentifier, p.width, p.height, p.creationDate, p.importDate, p.edited ? 1 : 0,
                                     p.favorite, p.hidden, p.trashedDate, p.camera])
                try db.execute(sql: "INSERT INTO revision (assetId, number, createdAt, kind, pixelWidth, pixelHeight) VALUES (?, 0, ?, 'import', ?, ?)",
                               arguments: [p.id, p.importDate, p.width, p.height])
                if p.edited {
                    try db.execute(sql: """
                        INSERT INTO revision (assetId, number, createdAt, kind, formatIdentifier, formatVersion, data, pixelWidth, pixelHeight)
                        VALUES (?, 1, ?, 'edit', 'org.photoedit.recipe', '1', ?, ?, ?)
                        """, arguments: [p.id, p.importDate, Data(Self.recipe.utf8), p.width, p.height])
                }
                if let album = p.album, let albumID = p.albumID {
                    if album.position == 0 {
                        try db.execute(sql: "INSERT INTO album (id, title, createdAt) VALUES (?, ?, ?)",
                                       arguments: [albumID, p.albumTitle, p.importDate])
                    }
                    try db.execute(sql: "INSERT INTO albumAsset (albumId, assetId, position) VALUES (?, ?, ?)",
                                   arguments: [albumID, p.id, album.position])
                }
            }
        }
        try queue.writeWithoutTransaction { db in try db.execute(sql: "ANALYZE") }
    }

    static let recipe = #"{"format":"org.photoedit.recipe","formatVersion":1,"filters":[]}"#

    /// Writes the photos into a PostgreSQL catalog (already migrated), in
    /// batches of `batch` photos, each batch one transaction; then ANALYZE.
    /// `progress` gets the number of photos written after each batch.
    package func write(postgres catalog: PostgresCatalog, batch: Int = 2000,
                       progress: (@Sendable (Int) -> Void)? = nil) async throws {
        var photos: [SamplePhoto] = []
        var written = 0
        func flush() async throws {
            guard !photos.isEmpty else { return }
            try await catalog.execute(Self.statements(photos))
            written += photos.count
            progress?(written)
            photos.removeAll(keepingCapacity: true)
        }
        for p in self {
            photos.append(p)
            if photos.count == batch { try await flush() }
        }
        try await flush()
        try await catalog.execute([SQLFragment(sql: "ANALYZE")])
    }

    /// Multi-row INSERTs of the photos' rows, as the SQLite writer writes them.
    static func statements(_ photos: [SamplePhoto]) -> [SQLFragment] {
        func insert(_ head: String, _ rows: [[SQLValue]]) -> SQLFragment? {
            guard let width = rows.first?.count else { return nil }
            let one = "(" + Array(repeating: "?", count: width).joined(separator: ", ") + ")"
            return SQLFragment(sql: head + " VALUES " + Array(repeating: one, count: rows.count).joined(separator: ", "),
                               arguments: rows.flatMap { $0 })
        }
        func text(_ s: String?) -> SQLValue { s.map(SQLValue.text) ?? .null }
        func time(_ s: String?) -> SQLValue { s.map(SQLValue.timestamp) ?? .null }
        func bool(_ b: Bool) -> SQLValue { .integer(b ? 1 : 0) }
        let assets = photos.map { p -> [SQLValue] in
            [.text(p.id), .text(p.filename), .text(p.id + p.id), .text("originals/\(p.id.prefix(2))/\(p.id)"), .integer(p.fileSize),
             .text(p.format), .text(p.uniformTypeIdentifier), .integer(Int64(p.width)), .integer(Int64(p.height)),
             text(p.creationDate), time(p.importDate), .integer(p.edited ? 1 : 0), bool(p.favorite), bool(p.hidden),
             time(p.trashedDate), text(p.camera)]
        }
        var revisions = photos.map { p -> [SQLValue] in
            [.text(p.id), .integer(0), time(p.importDate), .text("import"), .null, .null, .integer(Int64(p.width)), .integer(Int64(p.height))]
        }
        revisions += photos.filter(\.edited).map { p -> [SQLValue] in
            [.text(p.id), .integer(1), time(p.importDate), .text("edit"), .text("org.photoedit.recipe"), .text(recipe),
             .integer(Int64(p.width)), .integer(Int64(p.height))]
        }
        let albums = photos.compactMap { p -> [SQLValue]? in
            guard p.album?.position == 0 else { return nil }
            return [text(p.albumID), text(p.albumTitle), time(p.importDate)]
        }
        let members = photos.compactMap { p -> [SQLValue]? in
            guard let album = p.album else { return nil }
            return [text(p.albumID), .text(p.id), .integer(Int64(album.position))]
        }
        // Integers 0/1 become booleans, text becomes jsonb and bytea, by casts in the statement.
        return [
            insert("""
                INSERT INTO asset (id, originalFilename, sha256, originalPath, fileSize, format, uniformTypeIdentifier, mediaType,
                    originalPixelWidth, originalPixelHeight, orientation, creationDate, importDate, revision, favorite, hidden,
                    trashedDate, camera)
                SELECT id, name, sha, path, size, format, uti, 'image', w, h, 1, created::text, imported, rev, fav::int::boolean,
                    hid::int::boolean, trashed::timestamp(3), camera::text::jsonb
                FROM (
                """, assets).map { SQLFragment(sql: $0.sql + """
                    ) AS v(id, name, sha, path, size, format, uti, w, h, created, imported, rev, fav, hid, trashed, camera)
                    """, arguments: $0.arguments) },
            insert("""
                INSERT INTO revision (assetId, number, createdAt, kind, formatIdentifier, data, pixelWidth, pixelHeight, formatVersion)
                SELECT a, n, c, k, f::text, convert_to(d::text, 'UTF8'), w, h, CASE WHEN f IS NULL THEN NULL ELSE '1' END FROM (
                """, revisions).map { SQLFragment(sql: $0.sql + ") AS v(a, n, c, k, f, d, w, h)", arguments: $0.arguments) },
            insert("INSERT INTO album (id, title, createdAt)", albums),
            insert("INSERT INTO albumAsset (albumId, assetId, position)", members),
        ].compactMap { $0 }
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
