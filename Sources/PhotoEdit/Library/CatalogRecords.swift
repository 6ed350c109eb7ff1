import Foundation

// The catalog's rows as the engine reads and writes them: read from a
// CatalogRow, inserted through `CatalogConnection.insert`, so both stores
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

extension AssetRecord {
    /// Reads `SELECT * FROM asset` (or `asset.*`).
    init(row: CatalogRow) throws {
        id = try row.get("id")
        originalFilename = try row.get("originalFilename")
        sha256 = try row.get("sha256")
        originalPath = try row.get("originalPath")
        fileSize = try row.get("fileSize")
        format = try row.get("format")
        uniformTypeIdentifier = try row.get("uniformTypeIdentifier")
        mediaType = try row.get("mediaType")
        originalPixelWidth = try row.get("originalPixelWidth")
        originalPixelHeight = try row.get("originalPixelHeight")
        orientation = try row.get("orientation")
        creationDate = try row.get("creationDate")
        latitude = try row.get("latitude")
        longitude = try row.get("longitude")
        importDate = try row.get("importDate")
        revision = try row.get("revision")
        favorite = try row.get("favorite")
        hidden = try row.get("hidden")
        trashedDate = try row.get("trashedDate")
        camera = try row.get("camera")
        sourceFolder = try row.get("sourceFolder")
        sourceStem = try row.get("sourceStem")
        alternatePath = try row.get("alternatePath")
        alternateSha256 = try row.get("alternateSha256")
        alternateFilename = try row.get("alternateFilename")
        alternateFileSize = try row.get("alternateFileSize")
        alternateFormat = try row.get("alternateFormat")
        alternateUniformTypeIdentifier = try row.get("alternateUniformTypeIdentifier")
        rating = try row.get("rating")
        colorLabel = try row.get("colorLabel")
        title = try row.get("title")
        caption = try row.get("caption")
        metadataPath = try row.get("metadataPath")
    }

    /// The photo with this id, nil when there is none. `locking`: the row is
    /// about to change in this transaction (see `SQLDialect.forUpdate`).
    static func fetch(_ id: String, _ db: any CatalogConnection, locking: Bool = false) throws -> AssetRecord? {
        try db.row("SELECT * FROM asset WHERE id = ?" + (locking ? db.dialect.forUpdate : ""), id).map(AssetRecord.init(row:))
    }

    static func fetchAll(_ db: any CatalogConnection, _ sql: String, _ arguments: [SQLValue] = []) throws -> [AssetRecord] {
        try db.rows(sql, arguments).map(AssetRecord.init(row:))
    }

    func insert(_ db: any CatalogConnection) throws {
        try db.insert(into: "asset", [
            ("id", id.sqlValue), ("originalFilename", originalFilename.sqlValue), ("sha256", sha256.sqlValue),
            ("originalPath", originalPath.sqlValue), ("fileSize", fileSize.sqlValue), ("format", format.sqlValue),
            ("uniformTypeIdentifier", uniformTypeIdentifier.sqlValue), ("mediaType", mediaType.sqlValue),
            ("originalPixelWidth", originalPixelWidth.sqlValue), ("originalPixelHeight", originalPixelHeight.sqlValue),
            ("orientation", orientation.sqlValue), ("creationDate", creationDate.sqlValue), ("latitude", latitude.sqlValue),
            ("longitude", longitude.sqlValue), ("importDate", importDate.sqlValue), ("revision", revision.sqlValue),
            ("favorite", favorite.sqlValue), ("hidden", hidden.sqlValue), ("trashedDate", trashedDate.sqlValue),
            ("camera", camera.sqlValue), ("sourceFolder", sourceFolder.sqlValue), ("sourceStem", sourceStem.sqlValue),
            ("alternatePath", alternatePath.sqlValue), ("alternateSha256", alternateSha256.sqlValue),
            ("alternateFilename", alternateFilename.sqlValue), ("alternateFileSize", alternateFileSize.sqlValue),
            ("alternateFormat", alternateFormat.sqlValue), ("alternateUniformTypeIdentifier", alternateUniformTypeIdentifier.sqlValue),
            ("rating", rating.sqlValue), ("colorLabel", colorLabel.sqlValue), ("title", title.sqlValue), ("caption", caption.sqlValue),
            ("metadataPath", metadataPath.sqlValue),
        ], json: ["camera"])
    }
}

extension RevisionRecord {
    /// Reads `SELECT * FROM revision` (or `revision.*`).
    init(row: CatalogRow) throws {
        assetId = try row.get("assetId")
        number = try row.get("number")
        createdAt = try row.get("createdAt")
        kind = try row.get("kind")
        formatIdentifier = try row.get("formatIdentifier")
        formatVersion = try row.get("formatVersion")
        data = try row.get("data")
        renderPath = try row.get("renderPath")
        pixelWidth = try row.get("pixelWidth")
        pixelHeight = try row.get("pixelHeight")
        baseRevision = try row.get("baseRevision")
        basePath = try row.get("basePath")
        sidecarPath = try row.get("sidecarPath")
    }

    /// Revision `number` of photo `assetId`, nil when there is none.
    static func fetch(_ assetId: String, _ number: Int, _ db: any CatalogConnection) throws -> RevisionRecord? {
        try db.row("SELECT * FROM revision WHERE assetId = ? AND number = ?", assetId, number).map(RevisionRecord.init(row:))
    }

    static func fetchAll(_ db: any CatalogConnection, _ sql: String, _ arguments: [SQLValue] = []) throws -> [RevisionRecord] {
        try db.rows(sql, arguments).map(RevisionRecord.init(row:))
    }

    func insert(_ db: any CatalogConnection) throws {
        try db.insert(into: "revision", [
            ("assetId", assetId.sqlValue), ("number", number.sqlValue), ("createdAt", createdAt.sqlValue), ("kind", kind.sqlValue),
            ("formatIdentifier", formatIdentifier.sqlValue), ("formatVersion", formatVersion.sqlValue), ("data", data.sqlValue),
            ("renderPath", renderPath.sqlValue), ("pixelWidth", pixelWidth.sqlValue), ("pixelHeight", pixelHeight.sqlValue),
            ("baseRevision", baseRevision.sqlValue), ("basePath", basePath.sqlValue), ("sidecarPath", sidecarPath.sqlValue),
        ])
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
