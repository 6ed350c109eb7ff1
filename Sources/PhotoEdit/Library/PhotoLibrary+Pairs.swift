import Foundation

/// RAW+JPEG pairs (PhotoKit's model): a RAW and a JPEG (or HEIF) of one shot
/// — same folder, same name — are one photo. The JPEG is the `photo`
/// resource, the RAW the `alternatePhoto`; `original` renders the RAW,
/// `unadjusted` the JPEG. Whichever file comes first makes the photo; the
/// other joins it when imported, in the same transaction as any import.
extension PhotoLibrary {
    /// The photo a newly imported file pairs with: same source folder and
    /// name, the other kind (RAW vs JPEG/HEIF), not yet paired, not deleted.
    func pairPartner(of record: AssetRecord, _ db: any CatalogConnection) throws -> AssetRecord? {
        guard let folder = record.sourceFolder, let stem = record.sourceStem else { return nil }
        let incomingRaw = record.format == "raw"
        guard incomingRaw || Self.pairableFormats.contains(record.format) else { return nil }
        let candidates = try AssetRecord.fetchAll(db, """
            SELECT * FROM asset WHERE sourceFolder = ? AND sourceStem = ? AND alternatePath IS NULL AND trashedDate IS NULL
            ORDER BY importDate
            """, [.text(folder), .text(stem)])
        return candidates.first { incomingRaw ? Self.pairableFormats.contains($0.format) : $0.format == "raw" }
    }

    /// Makes `incoming` the other half of `partner`'s photo. A RAW joins as
    /// the alternate; a JPEG becomes the primary file and the RAW moves to
    /// the alternate, and every earlier edit (made on the RAW) records the
    /// RAW as its base so it renders exactly as before.
    func join(_ incoming: AssetRecord, to partner: AssetRecord, _ db: any CatalogConnection) throws {
        let (jpeg, raw) = incoming.format == "raw" ? (partner, incoming) : (incoming, partner)
        let camera = raw.camera ?? jpeg.camera
        try db.execute("""
            UPDATE asset SET originalFilename = ?, sha256 = ?, originalPath = ?, fileSize = ?, format = ?, uniformTypeIdentifier = ?,
                originalPixelWidth = ?, originalPixelHeight = ?, orientation = ?, creationDate = ?, latitude = ?, longitude = ?,
                camera = \(db.dialect.jsonPlaceholder), alternatePath = ?, alternateSha256 = ?, alternateFilename = ?, alternateFileSize = ?,
                alternateFormat = ?, alternateUniformTypeIdentifier = ?
            WHERE id = ?
            """, jpeg.originalFilename, jpeg.sha256, jpeg.originalPath, jpeg.fileSize, jpeg.format, jpeg.uniformTypeIdentifier,
                             jpeg.originalPixelWidth, jpeg.originalPixelHeight, jpeg.orientation,
                             jpeg.creationDate ?? raw.creationDate, jpeg.latitude ?? raw.latitude, jpeg.longitude ?? raw.longitude,
                             camera, raw.originalPath, raw.sha256, raw.originalFilename, raw.fileSize, raw.format,
                             raw.uniformTypeIdentifier, partner.id)
        if incoming.format != "raw" {
            // The photo was the RAW alone: its edits were made on the RAW.
            try db.execute("UPDATE revision SET basePath = ? WHERE assetId = ? AND basePath IS NULL AND data IS NOT NULL",
                           raw.originalPath, partner.id)
            try db.execute("UPDATE revision SET pixelWidth = ?, pixelHeight = ? WHERE assetId = ? AND data IS NULL",
                           jpeg.originalPixelWidth, jpeg.originalPixelHeight, partner.id)
        }
    }
}
