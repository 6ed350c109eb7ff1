import Foundation

/// Committing: the one commit path. A change set's files are staged and
/// moved into place, then one all-or-nothing catalog transaction applies
/// every request (with the change feed's entries); it returns the
/// revisions it wrote. Every service that changes the library commits here.
/// It owns staging from start to end (Committing+Staging.swift): the files
/// a commit stages (originals, editing outputs), publishes and removes.
/// It uses no other service.
struct Committing: LibraryService, FilesUser {
    let catalogPart: CatalogPart
    let filesPart: FilesPart
    let registry: FilterRegistry
    /// Announces the photos a commit creates; when staging was last swept.
    let hooks: CommitHooks
    /// The previews of the files it places and removes.
    let previews: Previews

    /// Applies every request made in `block` in one all-or-nothing commit
    /// (the façade's `performChanges`).
    func performChanges(_ block: (PhotoLibraryChanges) throws -> Void) throws {
        _ = try performChangesWritingRevisions(block)
    }

    /// `performChanges` whose block returns a value, handed back once the
    /// changes are committed.
    func performChanges<T>(returning block: (PhotoLibraryChanges) throws -> T) throws -> T {
        var result: T?
        try performChanges { result = try block($0) }
        return result!
    }

    static func newIdentifier() -> String {
        UUID().uuidString.replacingOccurrences(of: "-", with: "").lowercased()
    }

    /// `performChanges`; returns the revision the commit wrote for each
    /// photo it gave one (edits, reverts): what this commit wrote, never a
    /// revision another writer added since.
    func performChangesWritingRevisions(_ block: (PhotoLibraryChanges) throws -> Void) throws -> [String: Revision] {
        try requireWritable()
        let changes = PhotoLibraryChanges(catalog: catalog)
        defer { changes.close() }
        try block(changes)
        changes.close()
        return try commit(changes.changes, importDate: changes.importDate)
    }

    /// Commits one photo's new revision made in `block`; returns that
    /// revision (as the commit wrote it: no read after it).
    func commitRevision(of id: String, _ block: (PhotoLibraryChanges) throws -> Void) throws -> Revision {
        guard let revision = try performChangesWritingRevisions(block)[id] else {
            throw PhotoEditError.library("the change of \(id) wrote no revision")
        }
        return revision
    }

    /// Commits a content edit of a photo (id already resolved, the output
    /// made from its input); returns the revision it wrote.
    func commitRevision(of id: String, output: ContentEditingOutput) throws -> Revision {
        try commitRevision(of: id) { changes in changes.add(.contentEdit(id, output)) }
    }

    /// A photo about to be created: its rows, and the keywords it arrives with.
    private typealias Creation = (record: AssetRecord, revision: RevisionRecord, keywords: [String])

    /// A prepared content edit: the render is in place, ready to be referenced.
    private struct PreparedEdit {
        var assetID: String
        var expectedRevision: Int
        var data: AdjustmentData?
        var renderPath: String?
        var baseRevision: Int?
        var basePath: String?
        var width: Int
        var height: Int
        var kind: Revision.Kind
    }

    private func commit(_ changes: [PhotoLibraryChanges.Change], importDate: Date? = nil) throws -> [String: Revision] {
        sweepStagingIfDue()
        // An output's staged render leaves tmp/ when `performChanges`
        // returns, whatever the outcome: committed (moved into place), or
        // refused (stale, another photo's change request, no adjustment
        // data, a render that does not decode…). A refused output is not
        // retried as it is: its editor reads a new input and renders again,
        // so nothing is left for the sweep (Committing+Staging.swift) to find.
        defer {
            for case let .contentEdit(_, output) in changes {
                removeStagedRender(of: output)
            }
        }
        let journal = IntentJournal(layout: layout)
        var placedRenders: [String] = []   // renders and sidecars moved into place by this commit (unique names)
        var placedOriginals: [String] = [] // originals moved into place by this commit
        var edits: [Int: PreparedEdit] = [:]
        var creations: [Int: Creation?] = [:]
        var duplicates: [Int: PreparedDuplicate] = [:]
        do {
            // 1. Stage and check files, outside the transaction.
            for (i, change) in changes.enumerated() {
                switch change {
                case let .create(placeholder, source):
                    switch try stageOriginal(source, journal: journal, importDate: importDate) {
                    case .existing(let existing):
                        placeholder.set(existing)
                        creations[i] = .some(nil)
                    case .staged(let staged):
                        if staged.placed { placedOriginals.append(staged.relative) }
                        var record = staged.record
                        record.id = placeholder.localIdentifier
                        var rev = staged.revision
                        rev.assetId = record.id
                        creations[i] = (record, rev, staged.keywords)
                        placeholder.setWarnings(staged.warnings)
                    }
                case let .contentEdit(id, output):
                    guard output.assetIdentifier == id else {
                        throw PhotoEditError.invalidChange("the content editing output was made from photo \(output.assetIdentifier)'s input; it cannot be committed to photo \(id)")
                    }
                    guard let data = output.adjustmentData else {
                        throw PhotoEditError.invalidChange("the content editing output of \(id) has no adjustment data")
                    }
                    if data.formatIdentifier == Recipe.formatIdentifier {
                        // Our own format must be one this build reads whole:
                        // never store a recipe that claims to be ours but is not.
                        _ = try Recipe(adjustmentData: data, registry: registry)
                    }
                    let (relative, w, h) = try placeRender(output.renderedContentURL.path, asset: id,
                                                           revision: output.baseRevision + 1, journal: journal,
                                                           engineRender: output.engineRender, reduction: output.renderedReduction)
                    placedRenders.append(relative)
                    var baseRevision: Int?
                    if case .render(let k) = output.base { baseRevision = k }
                    edits[i] = PreparedEdit(assetID: id, expectedRevision: output.baseRevision, data: data, renderPath: relative,
                                            baseRevision: baseRevision, basePath: output.baseRelativePath, width: w, height: h, kind: output.kind)
                case let .duplicate(placeholder, source, _, fresh):
                    duplicates[i] = try stageDuplicate(of: source, as: placeholder.localIdentifier, fresh: fresh,
                                                       journal: journal, placed: &placedRenders)
                default:
                    break
                }
            }
            // 2. One transaction.
            var purgedFiles: [String] = []
            var written: [String: Revision] = [:]
            // The change feed's entries are written in the same transaction.
            try write { db in
                let recorder = ChangeRecorder()
                var described = Set<String>()   // photos whose metadata record is written again
                for (i, change) in changes.enumerated() {
                    try apply(change, index: i, db: db, edits: edits, creations: creations, duplicates: duplicates,
                              purgedFiles: &purgedFiles, written: &written,
                              recorder: recorder, journal: journal, placed: &placedRenders, described: &described)
                }
                // Their metadata records as the rows are now; the ones they
                // replace go with the purged files, once this commits.
                try placeMetadataRecords(of: described, db, journal: journal, placed: &placedRenders, replaced: &purgedFiles)
                try recorder.record(db)
                // Every file of the change is in place (put, in a blob
                // store), the transaction not yet committed.
                CrashPoint.reach("before-commit")
                // Journal first: the files of purged photos are named in the
                // intent journal before the transaction commits, so a crash
                // after it (before they are removed) leaves a journal whose
                // unreferenced files recovery removes: the purge finishes.
                // A crash before it leaves them referenced: nothing happened.
                try journal.record(contentsOf: purgedFiles)
            }
            let purgedAssets = changes.compactMap { change -> String? in
                if case .purge(let id) = change { return id }
                return nil
            }
            // 3. After the commit: files of purged photos go, then the journal.
            if !purgedFiles.isEmpty { CrashPoint.reach("purge-committed") }
            // A shared store's originals are content addressed: another
            // node may be importing the same bytes right now and have found
            // this one in place. They go through `verify --repair` instead,
            // once unreferenced for the grace period.
            for file in purgedFiles where !(files.isShared && file.hasPrefix("originals/")) { previews.removeFileAndPreview(file) }
            journal.finish()
            for id in purgedAssets { removeCachedImages(of: id) }
            if hooks.announcesCreated {
                let created = creations.sorted { $0.key < $1.key }.compactMap { $0.value?.record.id }
                if !created.isEmpty { hooks.announceCreated(created) }
            }
            return written
        } catch {
            // Renders have unique names: nobody else can use them. An original
            // may be shared with another writer importing the same bytes: it
            // is removed inside a write transaction, and only if no row
            // references it (a writer that committed meanwhile keeps it; one
            // about to commit finds it gone, see `.create` below).
            for file in placedRenders { previews.removeFileAndPreview(file) }
            // In a shared store another node may have found the original in
            // place and be about to commit it: it stays, and
            // `verify --repair` removes it after the grace period if unreferenced.
            if !placedOriginals.isEmpty, !files.isShared {
                try? write { db in
                    for path in placedOriginals
                    where try !db.isOriginalReferenced(path) {
                        previews.removeFileAndPreview(path)
                    }
                }
            }
            journal.finish()
            throw error
        }
    }

    private func apply(_ change: PhotoLibraryChanges.Change, index i: Int, db: any CatalogConnection, edits: [Int: PreparedEdit],
                       creations: [Int: Creation?], duplicates: [Int: PreparedDuplicate],
                       purgedFiles: inout [String], written: inout [String: Revision],
                       recorder: ChangeRecorder, journal: IntentJournal, placed: inout [String],
                       described: inout Set<String>) throws {
        // Every object is handed to the recorder before it changes. Its row
        // is read for update: on PostgreSQL a concurrent commit to the same
        // photo waits for this one, then sees its revision (no lost update).
        func asset(_ id: String) throws -> AssetRecord {
            guard let a = try db.asset(id, locking: true) else { throw PhotoEditError.unknownAsset(id) }
            try recorder.asset(id, db)
            return a
        }
        func album(_ id: String) throws {
            try recorder.album(id, db)
            guard try db.albumExists(id, locking: true) else {
                throw PhotoEditError.unknownAlbum(id)
            }
        }
        func addRevision(_ id: String, expected: Int?, kind: Revision.Kind, data: AdjustmentData?, render: String?,
                         baseRevision: Int?, basePath: String?, size: (Int, Int)) throws {
            var a = try asset(id)
            if let expected, a.revision != expected {
                throw PhotoEditError.conflict(asset: id, expected: expected, actual: a.revision)
            }
            a.revision += 1
            var revision = RevisionRecord(assetId: id, number: a.revision, createdAt: Date(), kind: kind.rawValue,
                                          formatIdentifier: data?.formatIdentifier, formatVersion: data?.formatVersion, data: data?.data,
                                          renderPath: render, pixelWidth: size.0, pixelHeight: size.1,
                                          baseRevision: baseRevision, basePath: basePath)
            // The revision's record on disk, committed with its row.
            let sidecar = try placeSidecar(a, revision, journal: journal)
            placed.append(sidecar)
            revision.sidecarPath = sidecar
            try db.insert(revision)
            try db.setCurrentRevision(a.revision, of: id)
            written[id] = CatalogModels.revision(revision)
        }
        switch change {
        case .create:
            if let created = creations[i] ?? nil {
                if let existing = try db.assetID(holding: created.record.sha256) {
                    if case let .create(placeholder, _) = change { placeholder.set(existing) }
                } else if !(try files.exists(created.record.originalPath)) {
                    // Another writer placed this original, then failed and
                    // removed it before we committed.
                    throw PhotoEditError.library("\(created.record.originalPath) was removed by a failed concurrent import of the same file; import it again")
                } else if let partner = try pairPartner(of: created.record, db) {
                    try recorder.asset(partner.id, db)
                    try join(created.record, to: partner, db)
                    try Self.fillMetadata(of: partner.id, from: created.record, keywords: created.keywords, db)
                    described.insert(partner.id)
                    // The photo's files changed: its sidecars say so.
                    try rewriteSidecars(of: partner.id, db, journal: journal, placed: &placed, replaced: &purgedFiles)
                    if case let .create(placeholder, _) = change { placeholder.set(partner.id, joinedPair: true) }
                } else {
                    try recorder.asset(created.record.id, db)
                    try db.insert(created.record)
                    try Self.changeKeywords(of: created.record.id, add: created.keywords, remove: [], replace: false, db)
                    described.insert(created.record.id)   // metadata the file arrived with
                    var revision = created.revision
                    let sidecar = try placeSidecar(created.record, revision, journal: journal)
                    placed.append(sidecar)
                    revision.sidecarPath = sidecar
                    try db.insert(revision)
                }
            }
        case .contentEdit:
            guard let e = edits[i] else { throw PhotoEditError.library("change \(i + 1) of the commit, a content edit, was not staged") }
            try addRevision(e.assetID, expected: e.expectedRevision, kind: e.kind, data: e.data, render: e.renderPath,
                            baseRevision: e.baseRevision, basePath: e.basePath, size: (e.width, e.height))
        case let .revert(id, expected):
            let a = try asset(id)
            try addRevision(id, expected: expected, kind: .revert, data: nil, render: nil, baseRevision: nil, basePath: nil,
                            size: (a.originalPixelWidth, a.originalPixelHeight))
        case let .favorite(id, value):
            _ = try asset(id)
            try db.set(\.favorite, value, of: id)
            described.insert(id)
        case let .hidden(id, value):
            _ = try asset(id)
            try db.set(\.hidden, value, of: id)
            described.insert(id)
        case let .creationDate(id, value):
            _ = try asset(id)
            try db.set(\.creationDate, value, of: id)
        case let .location(id, value):
            _ = try asset(id)
            if let value, abs(value.latitude) > 90 || abs(value.longitude) > 180 {
                throw PhotoEditError.invalidChange("location \(value.latitude), \(value.longitude) is out of range")
            }
            try db.setLocation(value, of: id)
        case let .rating(id, value):
            _ = try asset(id)
            try db.set(\.rating, try Rating.checked(value), of: id)
            described.insert(id)
        case let .colorLabel(id, value):
            _ = try asset(id)
            try db.set(\.colorLabel, value?.rawValue, of: id)
            described.insert(id)
        case let .keywords(id, add, remove, replace):
            _ = try asset(id)
            try Self.changeKeywords(of: id, add: add, remove: remove, replace: replace, db)
            described.insert(id)
        case let .title(id, value):
            _ = try asset(id)
            try db.set(\.title, try DescriptiveMetadata.checkedText(value, "a title"), of: id)
            described.insert(id)
        case let .caption(id, value):
            _ = try asset(id)
            try db.set(\.caption, try DescriptiveMetadata.checkedText(value, "a caption"), of: id)
            described.insert(id)
        case .delete(let id):
            let a = try asset(id)
            if a.trashedDate == nil {
                try db.set(\.trashedDate, Date(), of: id)
            }
        case .restore(let id):
            _ = try asset(id)
            try db.set(\.trashedDate, Date?.none, of: id)
        case .purge(let id):
            let a = try asset(id)
            guard a.trashedDate != nil else {
                throw PhotoEditError.invalidChange("photo \(id) is not deleted; delete it first, then purge")
            }
            try recorder.albums(ofAsset: id, db)
            // An original (or RAW) a virtual copy shares stays with it.
            let (unshared, copies) = try releaseShared(a, db, recorder: recorder)
            purgedFiles += unshared
            if let record = a.metadataPath { purgedFiles.append(record) }
            purgedFiles += try db.revisionFiles(of: id)
            try db.deleteAsset(id)
            if let heir = copies.first {
                try db.promoteCopy(heir, replacing: id)
                described.formUnion(copies)
            }
        case let .duplicate(placeholder, _, name, _):
            guard let prepared = duplicates[i] else { throw PhotoEditError.library("change \(i + 1) of the commit, a duplicate, was not staged") }
            let source = try asset(prepared.source)
            try applyDuplicate(placeholder, name: name, prepared: prepared, source: source, db, recorder: recorder, journal: journal,
                               placed: &placed, written: &written)
            described.insert(placeholder.localIdentifier)
        case let .snapshot(id, name):
            let a = try asset(id)
            try recorder.asset(id, db, aspects: .snapshots)
            try addSnapshot(named: name, of: a, db)
            described.insert(id)
        case let .removeSnapshot(id, name):
            _ = try asset(id)
            try recorder.asset(id, db, aspects: .snapshots)
            guard try db.deleteSnapshot(named: try DescriptiveMetadata.checkedName(name, "a snapshot name"), of: id) else {
                throw PhotoEditError.invalidChange("photo \(id) has no snapshot called '\(name)'")
            }
            described.insert(id)
        case let .albumCreate(placeholder, title):
            try recorder.album(placeholder.localIdentifier, db)
            let title = try Self.checkedAlbumTitle(title)
            if try db.albumTitleTaken(title) {
                throw PhotoEditError.invalidChange("an album called '\(title)' already exists")
            }
            try db.insertAlbum(placeholder.localIdentifier, title: title, createdAt: Date())
        case let .albumAdd(albumID, ids):
            try album(albumID)
            for id in ids {
                _ = try asset(id)
                try db.appendToAlbum(albumID, id)
            }
        case let .albumRemove(albumID, ids):
            try album(albumID)
            for id in ids {
                try recorder.asset(id, db)
                try db.removeFromAlbum(albumID, id)
            }
            try renumber(albumID, db)
        case let .albumMove(albumID, id, index):
            try album(albumID)
            var order = try db.albumMembers(albumID)
            guard let from = order.firstIndex(of: id) else { throw PhotoEditError.invalidChange("photo \(id) is not in the album") }
            guard index >= 0 && index < order.count else {
                throw PhotoEditError.invalidChange("position \(index) is out of range (0…\(order.count - 1))")
            }
            order.remove(at: from)
            order.insert(id, at: index)
            try db.setAlbumOrder(albumID, order)
        case let .albumRename(albumID, title):
            try album(albumID)
            try recorder.members(ofAlbum: albumID, db)
            let title = try Self.checkedAlbumTitle(title)
            if try db.albumTitleTaken(title, except: albumID) {
                throw PhotoEditError.invalidChange("an album called '\(title)' already exists")
            }
            try db.renameAlbum(albumID, to: title)
        case .albumDelete(let albumID):
            try album(albumID)
            try recorder.members(ofAlbum: albumID, db)
            try db.deleteAlbum(albumID)
        }
    }

    /// The second file of a pair brings its metadata (its sidecar's) to the
    /// photo: what the photo has not set yet (unrated, no label, title or
    /// caption), and its keywords are added.
    static func fillMetadata(of id: String, from record: AssetRecord, keywords: [String], _ db: any CatalogConnection) throws {
        try db.fillDescriptiveFields(of: id, from: record)
        try changeKeywords(of: id, add: keywords, remove: [], replace: false, db)
    }

    /// Adds and removes a photo's keywords (or replaces them all), inside
    /// the change's transaction. Keywords are normalized; more than
    /// `Keyword.maxPerPhoto` fail the change.
    static func changeKeywords(of id: String, add: [String], remove: [String], replace: Bool, _ db: any CatalogConnection) throws {
        let added = Keyword.unique(try add.map(Keyword.normalized))
        let removed = try remove.map(Keyword.normalized)
        if replace { try db.removeAllKeywords(of: id) }
        for keyword in removed { try db.removeKeyword(keyword, of: id) }
        // A keyword the photo has in any case stays as it is.
        for keyword in added { try db.addKeyword(keyword, to: id) }
        let count = try db.keywordCount(of: id)
        guard count <= Keyword.maxPerPhoto else {
            throw PhotoEditError.invalidChange("photo \(id) would have \(count) keywords; at most \(Keyword.maxPerPhoto) are allowed")
        }
    }

    /// Removes a photo's derived images from the cache (display-size inputs, image requests).
    func removeCachedImages(of id: String) {
        let folder = layout.cache + "/display"
        for name in (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? [] where name.hasPrefix(id + "-") {
            unlink(folder + "/" + name)
        }
        try? FileManager.default.removeItem(atPath: layout.cache + "/images/\(id.prefix(2))/\(id)")
    }

    private func renumber(_ albumID: String, _ db: any CatalogConnection) throws {
        try db.setAlbumOrder(albumID, try db.albumMembers(albumID))
    }

    static func checkedAlbumTitle(_ title: String) throws -> String {
        let t = title.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !t.isEmpty, t.count <= 200, !t.contains(where: { $0.isNewline }) else {
            throw PhotoEditError.invalidChange("album title '\(title)' must be 1–200 characters on one line")
        }
        return t
    }

    /// Checks a rendered file (it decodes whole, is a format the engine
    /// accepts, and is upright) and moves it into `renders/` read-only. A
    /// JPEG the engine wrote itself (`engineRender`, its size) is not probed
    /// again. Returns its relative path and pixel size.
    func placeRender(_ path: String, asset: String, revision: Int, journal: IntentJournal,
                     engineRender: (width: Int, height: Int)? = nil, reduction: RenderReduction? = nil) throws -> (String, Int, Int) {
        guard FileIO.exists(path) else {
            throw PhotoEditError.invalidChange("no rendered content: write the render to the output's renderedContentURL before committing")
        }
        let width: Int, height: Int, ext: String
        if let engineRender {
            width = engineRender.width
            height = engineRender.height
            ext = Importer.fileExtension(forLoader: "jpegload", format: "jpeg")
        } else {
            let probe: ProbedImage
            do {
                probe = try Importer.probe(path: path, displayPath: "rendered content")
            } catch let error as PhotoEditError {
                throw PhotoEditError.invalidChange("rendered content is not usable: \(error.description)")
            }
            guard probe.orientation == 1 else {
                throw PhotoEditError.invalidChange("rendered content must be upright (EXIF orientation 1, found \(probe.orientation))")
            }
            width = probe.width
            height = probe.height
            ext = Importer.fileExtension(forLoader: probe.loader, format: probe.format)
        }
        var relative = LibraryLayout.renderPath(asset: asset, revision: revision)
        relative = String(relative.dropLast(3)) + ext
        // The render goes to disk while the journal is written and the
        // preview encoded; it is durable (flushed) before it is in place.
        FileIO.startWriteback(path)
        try journal.record(relative)
        previews.makePreview(ofStaged: path, as: relative, width: width, height: height, raw: false,
                              reduction: reduction.flatMap { $0.width == width && $0.height == height ? $0 : nil })
        try FileIO.flush(path)
        try files.publish(path, as: relative)
        return (relative, width, height)
    }
}
