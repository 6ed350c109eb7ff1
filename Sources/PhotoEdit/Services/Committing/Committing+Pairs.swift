import Foundation

/// RAW+JPEG pairs (PhotoKit's model): a RAW and a JPEG (or HEIF) of one shot
/// — same folder, same name — are one photo. The JPEG is the `photo`
/// resource, the RAW the `alternatePhoto`; `original` renders the RAW,
/// `unadjusted` the JPEG. Whichever file comes first makes the photo; the
/// other joins it when imported, in the same transaction as any import:
/// the commit that creates it (Committing.swift, `.create`).
extension Committing {
    /// The photo a newly imported file pairs with: same source folder and
    /// name, the other kind (RAW vs JPEG/HEIF), not yet paired, not deleted.
    func pairPartner(of record: AssetRecord, _ db: any CatalogConnection) throws -> AssetRecord? {
        guard let folder = record.sourceFolder, let stem = record.sourceStem else { return nil }
        let incomingRaw = record.format == "raw"
        guard incomingRaw || Importer.pairableFormats.contains(record.format) else { return nil }
        let candidates = try db.pairCandidates(folder: folder, stem: stem)
        return candidates.first { incomingRaw ? Importer.pairableFormats.contains($0.format) : $0.format == "raw" }
    }

    /// Makes `incoming` the other half of `partner`'s photo. A RAW joins as
    /// the alternate; a JPEG becomes the primary file and the RAW moves to
    /// the alternate, and every earlier edit (made on the RAW) records the
    /// RAW as its base so it renders exactly as before.
    func join(_ incoming: AssetRecord, to partner: AssetRecord, _ db: any CatalogConnection) throws {
        let (jpeg, raw) = incoming.format == "raw" ? (partner, incoming) : (incoming, partner)
        try db.joinPair(partner.id, raw: raw, jpeg: jpeg)
        if incoming.format != "raw" {
            // The photo was the RAW alone: its edits were made on the RAW.
            try db.rebaseOntoRaw(partner.id, rawPath: raw.originalPath, jpegWidth: jpeg.originalPixelWidth, jpegHeight: jpeg.originalPixelHeight)
        }
    }
}
