import Foundation

// The catalog's rows as the engine reads and writes them, each table's
// columns declared once (`columns`): read from a CatalogRow, inserted
// through `CatalogConnection.insert` (CatalogQueries.swift), so both stores
// use them the same way.

struct AssetRecord: Codable, Sendable {
    var id: String
    var originalFilename: String
    var sha256: String
    var originalPath: String
    var fileSize: Int64
    var format: String
    var uniformTypeIdentifier: String
    var mediaType: String
    var originalPixelWidth: Int
    var originalPixelHeight: Int
    var orientation: Int
    var creationDate: String?
    var latitude: Double?
    var longitude: Double?
    var importDate: Date
    var revision: Int
    var favorite: Bool = false
    var hidden: Bool = false
    var trashedDate: Date?
    var camera: String?
    var sourceFolder: String?
    var sourceStem: String?
    var alternatePath: String?
    var alternateSha256: String?
    var alternateFilename: String?
    var alternateFileSize: Int64?
    var alternateFormat: String?
    var alternateUniformTypeIdentifier: String?
    /// −1 rejected, 0 unrated, 1–5 stars.
    var rating: Int = 0
    /// A `ColorLabel`'s raw value, nil for none.
    var colorLabel: String?
    var title: String?
    var caption: String?
    /// The photo's metadata record under `revisions/` (MetadataRecord.swift):
    /// rating, label, keywords, title, caption, favorite and hidden, for a
    /// rebuilt catalog; nil when it has none of them set (v8).
    var metadataPath: String? = nil
    /// For a virtual copy, the photo whose original it shares (its master);
    /// nil for a master (v9).
    var masterId: String? = nil
    /// A virtual copy's name ("B&W", "Copy 1"); nil for a master (v9).
    var copyName: String? = nil
}

struct RevisionRecord: Codable, Sendable {
    var assetId: String
    var number: Int
    var createdAt: Date
    var kind: String
    var formatIdentifier: String?
    var formatVersion: String?
    var data: Data?
    var renderPath: String?
    var pixelWidth: Int
    var pixelHeight: Int
    var baseRevision: Int?
    var basePath: String?
    var sidecarPath: String? = nil

    var adjustmentData: AdjustmentData? {
        guard let formatIdentifier, let formatVersion, let data else { return nil }
        return AdjustmentData(formatIdentifier: formatIdentifier, formatVersion: formatVersion, data: data)
    }
}

/// One column of a catalog table, declared once: its name, and how a
/// record's field is written to it and read back from a row. A table's
/// column list drives its decoding (`init(row:)`) and its inserts, and a
/// test checks it against both stores' schemas (SQLite's migrations,
/// Catalog.swift; PostgreSQL's, PostgresSchema.swift), so a column added to
/// a record and not to a schema (or the reverse) fails there.
struct CatalogColumn<Record>: Sendable {
    let name: String
    let value: @Sendable (Record) -> SQLValue
    let read: @Sendable (inout Record, CatalogRow) throws -> Void

    init<V: CatalogValue>(_ name: String, _ field: WritableKeyPath<Record, V> & Sendable) {
        self.name = name
        value = { $0[keyPath: field].sqlValue }
        read = { record, row in record[keyPath: field] = try row.get(name) }
    }
}

/// A record read from and written to one catalog table through its column list.
protocol CatalogTableRecord: Sendable {
    /// Every column of the table, in its order.
    static var columns: [CatalogColumn<Self>] { get }
    /// A record whose every field `columns` then sets.
    static var blank: Self { get }
}

extension CatalogTableRecord {
    /// Reads a row of `SELECT * FROM table` (or `table.*`).
    init(row: CatalogRow) throws {
        var record = Self.blank
        for column in Self.columns { try column.read(&record, row) }
        self = record
    }

    /// The names of the table's columns, in order.
    static var columnNames: [String] { columns.map(\.name) }
}

extension AssetRecord: CatalogTableRecord {
    static let columns: [CatalogColumn<AssetRecord>] = [
        .init("id", \.id), .init("originalFilename", \.originalFilename), .init("sha256", \.sha256),
        .init("originalPath", \.originalPath), .init("fileSize", \.fileSize), .init("format", \.format),
        .init("uniformTypeIdentifier", \.uniformTypeIdentifier), .init("mediaType", \.mediaType),
        .init("originalPixelWidth", \.originalPixelWidth), .init("originalPixelHeight", \.originalPixelHeight),
        .init("orientation", \.orientation), .init("creationDate", \.creationDate), .init("latitude", \.latitude),
        .init("longitude", \.longitude), .init("importDate", \.importDate), .init("revision", \.revision),
        .init("favorite", \.favorite), .init("hidden", \.hidden), .init("trashedDate", \.trashedDate),
        .init("camera", \.camera), .init("sourceFolder", \.sourceFolder), .init("sourceStem", \.sourceStem),
        .init("alternatePath", \.alternatePath), .init("alternateSha256", \.alternateSha256),
        .init("alternateFilename", \.alternateFilename), .init("alternateFileSize", \.alternateFileSize),
        .init("alternateFormat", \.alternateFormat), .init("alternateUniformTypeIdentifier", \.alternateUniformTypeIdentifier),
        .init("rating", \.rating), .init("colorLabel", \.colorLabel), .init("title", \.title), .init("caption", \.caption),
        .init("metadataPath", \.metadataPath), .init("masterId", \.masterId), .init("copyName", \.copyName),
    ]

    /// The columns the schema keeps itself (triggers: the current version's
    /// size, whether it has adjustments), for queries; never written or read
    /// into a record.
    static let derivedColumns = ["pixelWidth", "pixelHeight", "adjusted"]

    /// The columns whose text is JSON (PostgreSQL: jsonb), as declared.
    static let jsonColumns: Set<String> = CatalogSchema.table("asset")?.jsonColumns ?? []

    static var blank: AssetRecord {
        AssetRecord(id: "", originalFilename: "", sha256: "", originalPath: "", fileSize: 0, format: "", uniformTypeIdentifier: "",
                    mediaType: "", originalPixelWidth: 0, originalPixelHeight: 0, orientation: 1, importDate: Date(timeIntervalSince1970: 0),
                    revision: 0)
    }
}

extension RevisionRecord: CatalogTableRecord {
    static let columns: [CatalogColumn<RevisionRecord>] = [
        .init("assetId", \.assetId), .init("number", \.number), .init("createdAt", \.createdAt), .init("kind", \.kind),
        .init("formatIdentifier", \.formatIdentifier), .init("formatVersion", \.formatVersion), .init("data", \.data),
        .init("renderPath", \.renderPath), .init("pixelWidth", \.pixelWidth), .init("pixelHeight", \.pixelHeight),
        .init("baseRevision", \.baseRevision), .init("basePath", \.basePath), .init("sidecarPath", \.sidecarPath),
    ]

    static var blank: RevisionRecord {
        RevisionRecord(assetId: "", number: 0, createdAt: Date(timeIntervalSince1970: 0), kind: "", pixelWidth: 0, pixelHeight: 0)
    }
}

extension CatalogConnection {
    /// Inserts one row; `json` names the columns whose text is JSON.
    func insert(into table: String, _ columns: [(String, SQLValue)], json: Set<String> = []) throws {
        let names = columns.map(\.0).joined(separator: ", ")
        let marks = columns.map { json.contains($0.0) ? dialect.jsonPlaceholder : "?" }.joined(separator: ", ")
        try execute("INSERT INTO \(table) (\(names)) VALUES (\(marks))", columns.map(\.1))
    }
}
