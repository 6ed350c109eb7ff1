import Foundation

/// A photo's descriptive metadata on disk, beside its revision records:
/// `revisions/<ab>/<id>/metadata-<nonce>.json` (docs/library-layout.md).
/// Its rating, colour label, keywords, title and caption, and whether it is
/// a favorite or hidden: what `verify --rebuild-catalog` puts back when the
/// catalog is lost (Lightroom and darktable keep the same in XMP on disk
/// for the same reason; `export --xmp` writes XMP for other tools).
///
/// Written in the commit that changes any of them (staged, named in the
/// intent journal, moved into place read-only, referenced by
/// `asset.metadataPath`; the one it replaces is removed once the commit is
/// in); a photo with none of them set has none. A small JSON document like
/// the revision records: our keyword syntax, favorite and hidden round-trip
/// exactly, and it is read back with the same bounds.
struct MetadataRecord: LibraryRecord, Equatable, Sendable {
    static let formatName = "photoedit.metadata"
    static let noun = "metadata record"
    /// Larger files are not records this engine wrote (1000 keywords of
    /// 500 characters, two texts of 10 000, escaped, stay well under it).
    static let maxBytes: Int64 = 8 << 20

    var format = MetadataRecord.formatName
    var version = 1
    var asset: String
    /// When it was written: of two records of one photo, the later one wins.
    var date: Date
    var rating: Int
    var colorLabel: String?
    var keywords: [String]
    var title: String?
    var caption: String?
    var favorite: Bool
    var hidden: Bool
    /// For a virtual copy: its master's id and its name (absent for a master).
    var master: String?
    var copyName: String?
    /// The photo's named snapshots, by name (absent when it has none).
    var snapshots: [SnapshotRecord]?

    /// The record of photo `a` with these keywords (sorted as the catalog
    /// lists them) and snapshots.
    init(_ a: AssetRecord, keywords: [String], snapshots: [SnapshotRecord] = [], date: Date = Date()) {
        asset = a.id
        self.date = date
        rating = a.rating
        colorLabel = a.colorLabel
        self.keywords = keywords
        title = a.title
        caption = a.caption
        favorite = a.favorite
        hidden = a.hidden
        master = a.masterId
        copyName = a.copyName
        self.snapshots = snapshots.isEmpty ? nil : snapshots.sorted { $0.name < $1.name }
    }

    /// Holds nothing a photo would not have without a record.
    var isEmpty: Bool {
        rating == 0 && colorLabel == nil && keywords.isEmpty && title == nil && caption == nil && !favorite && !hidden
            && master == nil && snapshots == nil
    }

    /// Whether it says what the catalog says of photo `a` (its date aside).
    func matches(_ a: AssetRecord, keywords: [String], snapshots: [SnapshotRecord]) -> Bool {
        var expected = MetadataRecord(a, keywords: keywords, snapshots: snapshots)
        expected.date = date
        return expected == self
    }

    /// Gives photo `a` this record's metadata.
    func apply(to a: inout AssetRecord) {
        a.rating = rating
        a.colorLabel = colorLabel
        a.title = title
        a.caption = caption
        a.favorite = favorite
        a.hidden = hidden
        a.masterId = master
        a.copyName = copyName
    }

    /// Reads a record, every member checked as a change to the catalog
    /// checks it; the reason (never the file's content) when it is not one
    /// this engine reads.
    static func read(_ path: String) -> Result<MetadataRecord, PhotoEditError> {
        var record: MetadataRecord
        switch decoded(path) {
        case .failure(let error): return .failure(error)
        case .success(let r): record = r
        }
        do {
            guard record.asset.count == 32, record.asset.allSatisfy({ $0.isHexDigit && !$0.isUppercase }), record.date.timeIntervalSince1970.isFinite,
                  record.colorLabel.map({ ColorLabel(rawValue: $0) != nil }) ?? true, record.keywords.count <= Keyword.maxPerPhoto,
                  record.master.map(Self.isIdentifier) ?? true, (record.snapshots?.count ?? 0) <= SnapshotRecord.maxPerPhoto,
                  record.snapshots?.allSatisfy({ $0.revision >= 0 && $0.revision < 1_000_000 && $0.date.timeIntervalSince1970.isFinite }) ?? true
            else {
                throw PhotoEditError.invalidChange("out of range")
            }
            record.rating = try Rating.checked(record.rating)
            record.keywords = Keyword.unique(try record.keywords.map(Keyword.normalized))
            record.title = try DescriptiveMetadata.checkedText(record.title, "a title")
            record.caption = try DescriptiveMetadata.checkedText(record.caption, "a caption")
            record.copyName = try record.copyName.map { try DescriptiveMetadata.checkedName($0, "a copy name") }
            if let list = record.snapshots {
                record.snapshots = try list.map { var s = $0; s.name = try DescriptiveMetadata.checkedName(s.name, "a snapshot name"); return s }
            }
        } catch {
            return .failure(.unreadableFile(path: path, reason: "a metadata record with out-of-range fields"))
        }
        return .success(record)
    }

    /// 32 lower-case hex digits.
    static func isIdentifier(_ id: String) -> Bool {
        id.count == 32 && id.allSatisfy { $0.isHexDigit && !$0.isUppercase }
    }
}

extension LibraryLayout {
    /// Relative path of a new metadata record of photo `asset`, unique like
    /// a revision record's.
    static func metadataRecordPath(asset: String) -> String {
        "revisions/\(asset.prefix(2))/\(asset)/\(metadataRecordPrefix)\(UUID().uuidString.prefix(8).lowercased()).json"
    }

    /// How a metadata record's name begins (a revision record's begins with its number).
    static let metadataRecordPrefix = "metadata-"

    /// Whether `relative` names a metadata record rather than a revision record.
    static func isMetadataRecord(_ relative: String) -> Bool {
        (relative as NSString).lastPathComponent.hasPrefix(metadataRecordPrefix) && relative.hasSuffix(".json")
    }
}

extension FilesUser {
    /// Writes the metadata records of photos `ids` as their rows are now,
    /// at the end of the commit's transaction (photos purged meanwhile are
    /// skipped): each staged, flushed, named in `journal` and moved into
    /// place; the new files go in `placed` (removed if the transaction
    /// rolls back), the ones they replace in `replaced` (removed once it
    /// commits). A photo whose metadata is all unset gets no record. The
    /// journal is flushed once for all of them (a batch of many photos).
    func placeMetadataRecords(of ids: Set<String>, _ db: any CatalogConnection, journal: IntentJournal,
                              placed: inout [String], replaced: inout [String]) throws {
        var staged: [(relative: String, file: String)] = []
        defer { for s in staged { unlink(s.file) } }
        var rows: [(id: String, path: String?, old: String?)] = []
        for id in ids.sorted() {
            guard let a = try db.asset(id) else { continue }   // purged in this commit
            let record = MetadataRecord(a, keywords: try CatalogModels.keywords(of: [id], db)[id] ?? [], snapshots: try db.snapshots(of: id))
            if record.isEmpty && a.metadataPath == nil { continue }
            var path: String?
            if !record.isEmpty {
                let file = layout.temporary(".json")
                let relative = LibraryLayout.metadataRecordPath(asset: id)
                staged.append((relative, file))
                try FileIO.writeFlushed(try record.encoded(), to: file)
                path = relative
            }
            rows.append((id, path, a.metadataPath))
        }
        try journal.record(contentsOf: staged.map(\.relative))
        for s in staged {
            try files.publish(s.file, as: s.relative)
            placed.append(s.relative)
        }
        for row in rows {
            if let old = row.old { replaced.append(old) }
            try db.set(\.metadataPath, row.path, of: row.id)
        }
    }

    /// Checks every photo's metadata record against its row (`verify`);
    /// with `repair`, writes the missing or wrong ones again. Paths of the
    /// records it finds or writes go in `referenced`.
    func verifyMetadataRecords(_ assets: [AssetRecord], repair: Bool, _ report: inout VerificationReport,
                               referenced: inout Set<String>) throws {
        // Keywords a few hundred photos per query (a statement's parameters are bounded).
        var keywords: [String: [String]] = [:]
        for start in stride(from: 0, to: assets.count, by: 500) {
            let ids = assets[start..<min(start + 500, assets.count)].map(\.id)
            keywords.merge(try read { db in try CatalogModels.keywords(of: ids, db) }) { first, _ in first }
        }
        let snapshots = try read { db in try db.allSnapshots() }
        var without = 0
        for listed in assets {
            if let path = listed.metadataPath { referenced.insert(path) }
            guard var problem = metadataRecordProblem(listed, keywords: keywords[listed.id] ?? [], snapshots: snapshots[listed.id] ?? [])
            else { continue }
            // Changed since it was listed (another process's commit)? Its row now, read with its keywords.
            let now = try read { db in
                try db.asset(listed.id).map { ($0, try CatalogModels.keywords(of: [listed.id], db)[listed.id] ?? [], try db.snapshots(of: listed.id)) }
            }
            guard let (a, words, named) = now else { continue }   // purged meanwhile
            if let path = a.metadataPath { referenced.insert(path) }
            guard let current = metadataRecordProblem(a, keywords: words, snapshots: named) else { continue }
            problem = current
            if repair {
                do {
                    let written = try replaceMetadataRecord(a.id)
                    if let written { referenced.insert(written) }
                    report.repaired.append("\(a.id): \(problem); " + (written.map { "written as \($0)" } ?? "none needed"))
                } catch let e as PhotoEditError {
                    report.problems.append("\(a.id): \(problem) (cannot write it: \(e.description))")
                }
            } else if a.metadataPath == nil {
                without += 1   // a photo described by an older photoedit
            } else {
                report.problems.append("\(a.id): \(problem)")
            }
        }
        if without > 0 {
            report.notes.append("\(without) photo(s) rated, labelled, tagged, titled, favorited or hidden by an older photoedit have no metadata "
                                + "record under revisions/: `photoedit verify --repair` writes them, so that `verify --rebuild-catalog` recovers them")
        }
    }

    /// What is wrong with photo `a`'s metadata record, nil when it says what
    /// the row says (or the photo has nothing to record and no record).
    private func metadataRecordProblem(_ a: AssetRecord, keywords: [String], snapshots: [SnapshotRecord]) -> String? {
        guard let path = a.metadataPath else {
            return MetadataRecord(a, keywords: keywords, snapshots: snapshots).isEmpty ? nil : "no metadata record"
        }
        return MetadataRecord.problem(path, at: readablePath(path)) { $0.matches(a, keywords: keywords, snapshots: snapshots) }
    }

    /// Writes photo `id`'s metadata record again from its row, in a commit
    /// of its own; returns its path (nil: the photo has nothing to record).
    func replaceMetadataRecord(_ id: String) throws -> String? {
        let journal = IntentJournal(layout: layout)
        defer { journal.finish() }
        var placed: [String] = []
        var replaced: [String] = []
        do {
            let path: String? = try write { db in
                guard try db.asset(id, locking: true) != nil else { throw PhotoEditError.unknownAsset(id) }
                try placeMetadataRecords(of: [id], db, journal: journal, placed: &placed, replaced: &replaced)
                try journal.record(contentsOf: replaced)
                return try db.asset(id)?.metadataPath
            }
            for old in replaced { files.remove(old) }
            return path
        } catch {
            for file in placed { files.remove(file) }
            throw error
        }
    }

    /// The metadata records under `revisions/` of a library folder being
    /// rebuilt (files a pending journal names left out), the later of two
    /// of one photo kept. Damaged or foreign ones are reported in one line each.
    static func recoverMetadataRecords(_ layout: LibraryLayout, files: [String],
                                       _ report: inout CatalogRebuildReport) -> [String: (path: String, record: MetadataRecord)] {
        var out: [String: (path: String, record: MetadataRecord)] = [:]
        for relative in files where LibraryLayout.isMetadataRecord(relative) {
            switch MetadataRecord.read(layout.absolute(relative)) {
            case .failure(let error):
                report.problems.append("\(relative): \(error.description): left out")
            case .success(let record):
                let parts = relative.split(separator: "/")
                guard parts.count == 4, parts[2] == record.asset else {
                    report.problems.append("\(relative): names photo \(record.asset), not where it is: left out")
                    continue
                }
                if let other = out[record.asset] {
                    let keep = other.record.date >= record.date ? other : (path: relative, record: record)
                    report.notes.append("\(record.asset): two metadata records, kept \(keep.path)")
                    out[record.asset] = keep
                } else {
                    out[record.asset] = (relative, record)
                }
            }
        }
        return out
    }
}
