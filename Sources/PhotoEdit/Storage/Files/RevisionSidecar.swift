import Foundation

/// A revision's record on disk, beside the catalog: `revisions/<ab>/<id>/<n>-<nonce>.json`
/// (docs/library-layout.md). Everything needed to put the revision back in a
/// catalog rebuilt from the files (`verify --rebuild-catalog`): the photo's
/// id, the revision's number, date, kind, adjustment data, render and base,
/// and the photo's original (and RAW alternate) with its file name.
///
/// Written with the revision, in the same commit (journalled like a render),
/// read-only, referenced by `revision.sidecarPath`; a change that alters a
/// photo's files (a RAW+JPEG join) writes its sidecars again.
struct RevisionSidecar: LibraryRecord, Equatable, Sendable {
    static let formatName = "photoedit.revision"
    static let noun = "revision record"
    /// Larger files are not sidecars this engine wrote.
    static let maxBytes: Int64 = 64 << 20

    struct File: Codable, Equatable, Sendable {
        var path: String
        var sha256: String
        var filename: String
        var fileSize: Int64
    }

    var format = RevisionSidecar.formatName
    var version = 1
    var asset: String
    var revision: Int
    var date: Date
    var kind: String
    var adjustmentData: AdjustmentData?
    var render: String?
    var pixelWidth: Int
    var pixelHeight: Int
    var baseRevision: Int?
    var basePath: String?
    var original: File
    var alternate: File?
    var importDate: Date
    var sourceFolder: String?
    var sourceStem: String?

    init(_ a: AssetRecord, _ r: RevisionRecord) {
        asset = a.id
        revision = r.number
        date = r.createdAt
        kind = r.kind
        adjustmentData = r.adjustmentData
        render = r.renderPath
        pixelWidth = r.pixelWidth
        pixelHeight = r.pixelHeight
        baseRevision = r.baseRevision
        basePath = r.basePath
        original = File(path: a.originalPath, sha256: a.sha256, filename: a.originalFilename, fileSize: a.fileSize)
        if let path = a.alternatePath, let sha = a.alternateSha256 {
            alternate = File(path: path, sha256: sha, filename: a.alternateFilename ?? "", fileSize: a.alternateFileSize ?? 0)
        }
        importDate = a.importDate
        sourceFolder = a.sourceFolder
        sourceStem = a.sourceStem
    }

    /// The revision row it describes (`sidecarPath` set to `path`).
    func record(sidecarPath path: String?) -> RevisionRecord {
        RevisionRecord(assetId: asset, number: revision, createdAt: date, kind: kind,
                       formatIdentifier: adjustmentData?.formatIdentifier, formatVersion: adjustmentData?.formatVersion,
                       data: adjustmentData?.data, renderPath: render, pixelWidth: pixelWidth, pixelHeight: pixelHeight,
                       baseRevision: baseRevision, basePath: basePath, sidecarPath: path)
    }

    /// Whether it describes this revision of this photo as the catalog has it
    /// (dates within the catalog's millisecond precision).
    func matches(_ a: AssetRecord, _ r: RevisionRecord) -> Bool {
        var expected = RevisionSidecar(a, r)
        guard abs(expected.date.timeIntervalSince(date)) < 0.002, abs(expected.importDate.timeIntervalSince(importDate)) < 0.002 else {
            return false
        }
        expected.date = date
        expected.importDate = importDate
        return expected == self
    }

    /// Reads a sidecar; nil with the reason when it is not one this engine reads.
    static func read(_ path: String) -> Result<RevisionSidecar, PhotoEditError> {
        let sidecar: RevisionSidecar
        switch decoded(path) {
        case .failure(let error): return .failure(error)
        case .success(let s): sidecar = s
        }
        guard sidecar.asset.count == 32, sidecar.asset.allSatisfy({ $0.isHexDigit && !$0.isUppercase }), sidecar.revision >= 0,
              sidecar.revision < 1_000_000, sidecar.pixelWidth >= 0, sidecar.pixelHeight >= 0,
              [sidecar.original.path, sidecar.alternate?.path, sidecar.render, sidecar.basePath].allSatisfy({ $0.map(isLibraryPath) ?? true })
        else {
            return .failure(.unreadableFile(path: path, reason: "a revision record with out-of-range fields"))
        }
        return .success(sidecar)
    }

    /// A relative path inside `originals/` or `renders/`, without `..`.
    static func isLibraryPath(_ path: String) -> Bool {
        (path.hasPrefix("originals/") || path.hasPrefix("renders/")) && !path.split(separator: "/").contains("..")
    }
}

extension FilesUser {
    /// Writes the sidecar of revision `r` of photo `a` (staged in `tmp/`,
    /// flushed, named in `journal`, moved into place read-only) and returns
    /// its relative path. Called inside the commit's transaction: if it rolls
    /// back, the caller removes the file; after a crash, recovery does.
    func placeSidecar(_ a: AssetRecord, _ r: RevisionRecord, journal: IntentJournal) throws -> String {
        let relative = LibraryLayout.sidecarPath(asset: a.id, revision: r.number)
        let staged = layout.temporary(".json")
        defer { unlink(staged) }
        try FileIO.writeFlushed(try RevisionSidecar(a, r).encoded(), to: staged)
        try journal.record(relative)
        try files.publish(staged, as: relative)
        return relative
    }

    /// Writes every sidecar of photo `id` again from its rows (after a change
    /// to its files, or to repair them), inside the caller's transaction. The
    /// new files go in `placed`; the ones they replace in `replaced` (removed
    /// once the transaction commits).
    func rewriteSidecars(of id: String, _ db: any CatalogConnection, journal: IntentJournal,
                         placed: inout [String], replaced: inout [String]) throws {
        guard let a = try db.asset(id) else { return }
        for r in try db.revisions(of: id) {
            let path = try placeSidecar(a, r, journal: journal)
            placed.append(path)
            if let old = r.sidecarPath { replaced.append(old) }
            try db.setSidecarPath(path, ofRevision: r.number, of: id)
        }
    }
}
