import Foundation

// The catalog's rows as the engine reads and writes them, each record's
// columns listed through the declared fields (CatalogSchema.swift): read
// from a CatalogRow, inserted through `CatalogConnection.insert`, so both
// stores use them the same way.

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

/// One column of a record's table: its declared field (CatalogSchema.swift),
/// and how the record's field is written to it and read back from a row.
/// The field and the key path have the same Swift type, so a column read
/// as another type, or a misspelt column, fails to compile; a record's
/// column list drives its decoding (`init(row:)`) and its inserts, and a
/// test checks that it covers its declared table.
struct CatalogColumn<Record>: Sendable {
    let column: CatalogSchema.Column
    let value: @Sendable (Record) -> SQLValue
    let read: @Sendable (inout Record, CatalogRow) throws -> Void

    var name: String { column.name }

    init<V: CatalogColumnValue>(_ field: CatalogSchema.Field<V>, _ keyPath: WritableKeyPath<Record, V> & Sendable) {
        column = field.column
        value = { $0[keyPath: keyPath].sqlValue }
        read = { record, row in record[keyPath: keyPath] = try row.get(field) }
    }
}

/// A record read from and written to one catalog table through its column list.
protocol CatalogTableRecord: Sendable {
    /// The table's declaration.
    associatedtype Table: CatalogSchema.TableDeclaration
    static var table: Table { get }
    /// Every column of the table the record holds, in the table's order.
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

    /// The record's row, for `CatalogConnection.insert(into:_:)`.
    func values() -> [(CatalogSchema.Column, SQLValue)] { Self.columns.map { ($0.column, $0.value(self)) } }
}

extension AssetRecord: CatalogTableRecord {
    static var table: CatalogSchema.Asset { CatalogSchema.asset }

    static let columns: [CatalogColumn<AssetRecord>] = {
        let a = CatalogSchema.asset
        return [
            .init(a.id, \.id), .init(a.originalFilename, \.originalFilename), .init(a.sha256, \.sha256),
            .init(a.originalPath, \.originalPath), .init(a.fileSize, \.fileSize), .init(a.format, \.format),
            .init(a.uniformTypeIdentifier, \.uniformTypeIdentifier), .init(a.mediaType, \.mediaType),
            .init(a.originalPixelWidth, \.originalPixelWidth), .init(a.originalPixelHeight, \.originalPixelHeight),
            .init(a.orientation, \.orientation), .init(a.creationDate, \.creationDate), .init(a.latitude, \.latitude),
            .init(a.longitude, \.longitude), .init(a.importDate, \.importDate), .init(a.revision, \.revision),
            .init(a.favorite, \.favorite), .init(a.hidden, \.hidden), .init(a.trashedDate, \.trashedDate),
            .init(a.camera, \.camera), .init(a.sourceFolder, \.sourceFolder), .init(a.sourceStem, \.sourceStem),
            .init(a.alternatePath, \.alternatePath), .init(a.alternateSha256, \.alternateSha256),
            .init(a.alternateFilename, \.alternateFilename), .init(a.alternateFileSize, \.alternateFileSize),
            .init(a.alternateFormat, \.alternateFormat), .init(a.alternateUniformTypeIdentifier, \.alternateUniformTypeIdentifier),
            .init(a.rating, \.rating), .init(a.colorLabel, \.colorLabel), .init(a.title, \.title), .init(a.caption, \.caption),
            .init(a.metadataPath, \.metadataPath), .init(a.masterId, \.masterId), .init(a.copyName, \.copyName),
        ]
    }()

    /// The columns the schema keeps itself (triggers: the current version's
    /// size, whether it has adjustments), for queries; never written or read
    /// into a record.
    static let derivedColumns = [CatalogSchema.asset.pixelWidth.name, CatalogSchema.asset.pixelHeight.name, CatalogSchema.asset.adjusted.name]

    static var blank: AssetRecord {
        AssetRecord(id: "", originalFilename: "", sha256: "", originalPath: "", fileSize: 0, format: "", uniformTypeIdentifier: "",
                    mediaType: "", originalPixelWidth: 0, originalPixelHeight: 0, orientation: 1, importDate: Date(timeIntervalSince1970: 0),
                    revision: 0)
    }
}

extension RevisionRecord: CatalogTableRecord {
    static var table: CatalogSchema.Revision { CatalogSchema.revision }

    static let columns: [CatalogColumn<RevisionRecord>] = {
        let r = CatalogSchema.revision
        return [
            .init(r.assetId, \.assetId), .init(r.number, \.number), .init(r.createdAt, \.createdAt), .init(r.kind, \.kind),
            .init(r.formatIdentifier, \.formatIdentifier), .init(r.formatVersion, \.formatVersion), .init(r.data, \.data),
            .init(r.renderPath, \.renderPath), .init(r.pixelWidth, \.pixelWidth), .init(r.pixelHeight, \.pixelHeight),
            .init(r.baseRevision, \.baseRevision), .init(r.basePath, \.basePath), .init(r.sidecarPath, \.sidecarPath),
        ]
    }()

    static var blank: RevisionRecord {
        RevisionRecord(assetId: "", number: 0, createdAt: Date(timeIntervalSince1970: 0), kind: "", pixelWidth: 0, pixelHeight: 0)
    }
}

extension CatalogRow {
    /// The value of a declared column, as its Swift type (throws for a
    /// column the query did not select, or a value of another kind).
    package func get<V: CatalogColumnValue>(_ field: CatalogSchema.Field<V>) throws -> V { try get(field.name) }
}

extension CatalogConnection {
    /// Inserts one row of `table` (JSON columns bound as the dialect keeps JSON).
    func insert(into table: some CatalogSchema.TableDeclaration, _ values: [(CatalogSchema.Column, SQLValue)],
                ignoringDuplicates: Bool = false) throws {
        let rest = CatalogSchema.valuesClause(table, values.map(\.0), dialect)
        try execute(ignoringDuplicates ? dialect.insertIgnoringDuplicates(rest) : "INSERT INTO " + rest, values.map(\.1))
    }

    /// Inserts a record's row.
    func insert<R: CatalogTableRecord>(_ record: R) throws {
        try insert(into: R.table, record.values())
    }
}
