import Foundation
import Synchronization

/// A photo or album created in `performChanges`: its identifier is chosen
/// before the commit and valid once `performChanges` returns.
public final class ObjectPlaceholder: Sendable {
    private struct State {
        var localIdentifier: String
        var existed = false
        var joinedPair = false
        var warnings: [String] = []
    }
    private let state: Mutex<State>

    init(_ id: String) { state = Mutex(State(localIdentifier: id)) }

    /// The id of the created object (for a photo whose bytes were already in
    /// the library, the existing photo's id).
    public var localIdentifier: String { state.withLock { $0.localIdentifier } }

    /// For a created photo: true when its bytes were already in the library
    /// and `localIdentifier` is that photo's.
    public var existed: Bool { state.withLock { $0.existed } }

    /// For a created photo: true when the file joined an existing photo as
    /// the other half of a RAW+JPEG pair; `localIdentifier` is that photo's.
    public var joinedPair: Bool { state.withLock { $0.joinedPair } }

    /// For a created photo: what the import noticed without refusing the
    /// file, one line each (an XMP sidecar that was not used, and why).
    public var warnings: [String] { state.withLock { $0.warnings } }

    func setWarnings(_ warnings: [String]) {
        state.withLock { $0.warnings = warnings }
    }

    func set(_ id: String, joinedPair: Bool = false) {
        state.withLock {
            $0.localIdentifier = id
            $0.existed = !joinedPair
            $0.joinedPair = joinedPair
        }
    }
}

/// Changes to one photo, as PhotoKit's `PHAssetChangeRequest`. Get one from
/// `PhotoLibraryChanges.changeRequest(for:)` inside `performChanges`.
///
/// A request belongs to its block: once `performChanges` has returned, every
/// throwing method throws `PhotoEditError.invalidChange`, and setting
/// `isFavorite`, `isHidden` or `contentEditingOutput` changes nothing: the
/// property keeps its value and `lateUse` says what was ignored (a setter
/// cannot throw; PhotoKit raises an exception there, which would end the
/// caller's process. Use `setFavorite(_:)` and `setHidden(_:)` to get an
/// error instead).
public final class AssetChangeRequest {
    /// The photo this request changes.
    public let assetIdentifier: String
    fileprivate weak var owner: PhotoLibraryChanges?

    init(assetIdentifier: String, owner: PhotoLibraryChanges, isFavorite: Bool, isHidden: Bool) {
        self.assetIdentifier = assetIdentifier
        self.owner = owner
        self.isFavorite = isFavorite
        self.isHidden = isHidden
    }

    /// A new revision with this output's adjustment data and render. The
    /// output must have been made from an input of this photo.
    public var contentEditingOutput: ContentEditingOutput? {
        didSet {
            if let o = contentEditingOutput, recording, !owner.addFromSetter(.contentEdit(assetIdentifier, o)) {
                ignoreLateSet("contentEditingOutput") { contentEditingOutput = oldValue }
            }
        }
    }

    /// Whether the photo is a favorite: reads the photo's value when the
    /// request was made, then what this block set.
    public var isFavorite: Bool {
        didSet {
            if recording, !owner.addFromSetter(.favorite(assetIdentifier, isFavorite)) { ignoreLateSet("isFavorite") { isFavorite = oldValue } }
        }
    }

    /// Whether the photo is hidden from default listings: reads the photo's
    /// value when the request was made, then what this block set.
    public var isHidden: Bool {
        didSet {
            if recording, !owner.addFromSetter(.hidden(assetIdentifier, isHidden)) { ignoreLateSet("isHidden") { isHidden = oldValue } }
        }
    }

    /// Sets `isFavorite`; throws when the block is over.
    public func setFavorite(_ value: Bool) throws {
        try owner.add(.favorite(assetIdentifier, value))
        withoutRecording { isFavorite = value }
    }

    /// Sets `isHidden`; throws when the block is over.
    public func setHidden(_ value: Bool) throws {
        try owner.add(.hidden(assetIdentifier, value))
        withoutRecording { isHidden = value }
    }

    private var recording = true
    private func withoutRecording(_ body: () -> Void) { recording = false; body(); recording = true }

    /// What was set on this request after its block returned, and ignored
    /// (nil when nothing was): the library did not change.
    public private(set) var lateUse: String?

    private func ignoreLateSet(_ property: String, restore: () -> Void) {
        withoutRecording(restore)
        lateUse = "\(property) was set after its performChanges block returned and was ignored; make changes inside the block"
    }

    /// Sets the capture time, or clears it. It is stored as ISO 8601 text in
    /// `timeZone` (the camera's local time and its offset, like EXIF dates;
    /// UTC by default). Years 1…9999 only.
    public func setCreationDate(_ date: Date?, timeZone: TimeZone = TimeZone(identifier: "UTC")!) throws {
        try owner.add(.creationDate(assetIdentifier, try date.map { try Self.creationText($0, timeZone: timeZone) }))
    }

    static func creationText(_ date: Date, timeZone: TimeZone) throws -> String {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = timeZone
        let t = date.timeIntervalSinceReferenceDate
        let c = calendar.dateComponents([.year, .month, .day, .hour, .minute, .second], from: date)
        guard t.isFinite, let year = c.year, (1...9999).contains(year), calendar.dateComponents([.era], from: date).era == 1 else {
            throw PhotoEditError.invalidChange("creation date \(date) is out of range (years 1…9999)")
        }
        let offset = timeZone.secondsFromGMT(for: date) / 60
        return String(format: "%04d-%02d-%02dT%02d:%02d:%02d%@%02d:%02d", year, c.month!, c.day!, c.hour!, c.minute!, c.second!,
                      offset < 0 ? "-" : "+", abs(offset) / 60, abs(offset) % 60)
    }

    /// Sets the GPS position, or clears it.
    public func setLocation(_ location: Location?) throws { try owner.add(.location(assetIdentifier, location)) }

    /// Sets the rating: 1–5 stars, 0 unrated, −1 rejected (`Rating.rejected`);
    /// another value fails the whole block.
    public func setRating(_ rating: Int) throws { try owner.add(.rating(assetIdentifier, rating)) }

    /// Sets the colour label, or clears it.
    public func setColorLabel(_ label: ColorLabel?) throws { try owner.add(.colorLabel(assetIdentifier, label)) }

    /// Adds keywords (photoedit's syntax, `Trips/Iceland`; see `Keyword`).
    /// A keyword the photo has already (ignoring ASCII case) is left as it is.
    public func addKeywords(_ keywords: [String]) throws { try owner.add(.keywords(assetIdentifier, add: keywords, remove: [], replace: false)) }

    /// Removes keywords (ignoring ASCII case). Only the keyword named goes:
    /// removing `Trips` leaves `Trips/Iceland`.
    public func removeKeywords(_ keywords: [String]) throws { try owner.add(.keywords(assetIdentifier, add: [], remove: keywords, replace: false)) }

    /// Replaces the photo's keywords with these (none: removes them all).
    public func setKeywords(_ keywords: [String]) throws { try owner.add(.keywords(assetIdentifier, add: keywords, remove: [], replace: true)) }

    /// Sets the title, or clears it (nil or empty text). At most 10 000
    /// characters; line breaks and tabs are the only control characters allowed.
    public func setTitle(_ title: String?) throws { try owner.add(.title(assetIdentifier, title)) }

    /// Sets the caption, or clears it (nil or empty text), as `setTitle`.
    public func setCaption(_ caption: String?) throws { try owner.add(.caption(assetIdentifier, caption)) }

    /// Sets every member `metadata` sets (its nil members are left as they are;
    /// its keywords replace the photo's).
    public func apply(_ metadata: DescriptiveMetadata) throws {
        if let rating = metadata.rating { try setRating(rating) }
        if let label = metadata.colorLabel { try setColorLabel(label) }
        if let keywords = metadata.keywords { try setKeywords(keywords) }
        if let title = metadata.title { try setTitle(title) }
        if let caption = metadata.caption { try setCaption(caption) }
    }

    /// A new revision without adjustments (PhotoKit's `revertAssetContentToOriginal`).
    public func revertAssetContentToOriginal() throws { try owner.add(.revert(assetIdentifier, expected: nil)) }

    /// Reverts only if the photo is still at `revision` (else the whole
    /// block fails with a conflict).
    func revertAssetContentToOriginal(ifAt revision: Int) throws { try owner.add(.revert(assetIdentifier, expected: revision)) }

    /// Moves the photo to "recently deleted" (restorable).
    public func delete() throws { try owner.add(.delete(assetIdentifier)) }

    /// Brings a recently deleted photo back.
    public func restore() throws { try owner.add(.restore(assetIdentifier)) }

    /// Removes a recently deleted photo for good, with its files.
    public func purge() throws { try owner.add(.purge(assetIdentifier)) }
}

/// Changes to one album, as PhotoKit's `PHAssetCollectionChangeRequest`.
/// Its methods throw once its `performChanges` block is over.
public final class AlbumChangeRequest {
    /// The album this request changes.
    public let albumIdentifier: String
    fileprivate weak var owner: PhotoLibraryChanges?

    init(albumIdentifier: String, owner: PhotoLibraryChanges) {
        self.albumIdentifier = albumIdentifier
        self.owner = owner
    }

    /// Appends photos (already in the album: left where they are).
    public func addAssets(_ ids: [String]) throws { try owner.add(.albumAdd(albumIdentifier, ids)) }
    /// Removes photos from the album (they stay in the library).
    public func removeAssets(_ ids: [String]) throws { try owner.add(.albumRemove(albumIdentifier, ids)) }
    /// Moves a photo of the album to `index` (0 = first).
    public func moveAsset(_ id: String, to index: Int) throws { try owner.add(.albumMove(albumIdentifier, id, index)) }
    /// Renames the album (titles are unique).
    public func rename(to title: String) throws { try owner.add(.albumRename(albumIdentifier, title)) }
    /// Deletes the album; its photos stay in the library.
    public func delete() throws { try owner.add(.albumDelete(albumIdentifier)) }
}

extension Optional where Wrapped == PhotoLibraryChanges {
    /// Records a change; throws when the request's block is over.
    func add(_ change: PhotoLibraryChanges.Change) throws {
        guard let changes = self, !changes.isClosed else {
            throw PhotoEditError.invalidChange("a change request was used after its performChanges block returned; make changes inside the block")
        }
        changes.add(change)
    }

    /// Records a change from a property setter, which cannot throw: false
    /// when the request's block is over (nothing recorded).
    func addFromSetter(_ change: PhotoLibraryChanges.Change) -> Bool {
        (try? add(change)) != nil
    }
}

/// The block argument of `performChanges`: every request made through it is
/// committed together, or none is.
public final class PhotoLibraryChanges {
    enum Change {
        case create(ObjectPlaceholder, ImportSource)
        case contentEdit(String, ContentEditingOutput)
        case revert(String, expected: Int?)
        case favorite(String, Bool)
        case hidden(String, Bool)
        case creationDate(String, String?)
        case location(String, Location?)
        case rating(String, Int)
        case colorLabel(String, ColorLabel?)
        case keywords(String, add: [String], remove: [String], replace: Bool)
        case title(String, String?)
        case caption(String, String?)
        case delete(String)
        case restore(String)
        case purge(String)
        case albumCreate(ObjectPlaceholder, String)
        case albumAdd(String, [String])
        case albumRemove(String, [String])
        case albumMove(String, String, Int)
        case albumRename(String, String)
        case albumDelete(String)
    }

    let library: PhotoLibrary
    private(set) var changes: [Change] = []
    private var requests: [String: AssetChangeRequest] = [:]

    /// Set when the block has returned: later use of its requests is an error.
    private(set) var isClosed = false

    /// The import time given to the photos this change set creates (nil:
    /// when each is staged). A batch import sets it so photos imported
    /// together list in the order of their files, whichever worker is first.
    var importDate: Date?

    init(library: PhotoLibrary) { self.library = library }

    func add(_ change: Change) { changes.append(change) }

    func close() { isClosed = true }

    /// The change request of a photo (id or unambiguous prefix). It reads
    /// the photo's `isFavorite` and `isHidden` as they are now.
    public func changeRequest(for idOrPrefix: String) throws -> AssetChangeRequest {
        guard !isClosed else {
            throw PhotoEditError.invalidChange("changeRequest(for:) was called after its performChanges block returned")
        }
        if let r = requests[idOrPrefix] { return r }
        // One read: the id resolved and the flags.
        let (id, flags) = try library.read { db in
            let id = try PhotoLibrary.resolve(idOrPrefix, db)
            return (id, try db.flags(of: id))
        }
        if let r = requests[id] { return r }
        guard let flags else { throw PhotoEditError.unknownAsset(idOrPrefix) }
        let r = AssetChangeRequest(assetIdentifier: id, owner: self, isFavorite: flags.favorite, isHidden: flags.hidden)
        requests[id] = r
        return r
    }

    /// Imports the file at `path` as a new photo (PhotoKit's
    /// `creationRequestForAssetFromImage(atFileURL:)`).
    public func createAsset(fromFileAt path: String) -> ObjectPlaceholder {
        createAsset(.file(SystemPath(path)))
    }

    /// Imports `data` as a new photo (PhotoKit's `PHAssetCreationRequest`
    /// with a data resource): staged in `tmp/` within the import size limit,
    /// then checked and committed like a file. `filename` is the photo's
    /// original file name (one path component); nil names it by its hash.
    public func createAsset(from data: Data, filename: String? = nil) -> ObjectPlaceholder {
        createAsset(.data(data, filename: filename))
    }

    func createAsset(_ source: ImportSource) -> ObjectPlaceholder {
        let p = ObjectPlaceholder(PhotoLibrary.newIdentifier())
        add(.create(p, source))
        return p
    }

    /// Creates an album; titles are unique.
    public func createAlbum(title: String) -> ObjectPlaceholder {
        let p = ObjectPlaceholder(PhotoLibrary.newIdentifier())
        add(.albumCreate(p, title))
        return p
    }

    /// The change request of an album, by title, id or unambiguous id prefix.
    /// An album created earlier in the same block can be named by its title.
    public func albumChangeRequest(for titleOrID: String) throws -> AlbumChangeRequest {
        for case let .albumCreate(p, title) in changes where title == titleOrID {
            return AlbumChangeRequest(albumIdentifier: p.localIdentifier, owner: self)
        }
        return AlbumChangeRequest(albumIdentifier: try library.resolveAlbum(titleOrID), owner: self)
    }
}

extension PhotoLibrary {
    static func newIdentifier() -> String {
        UUID().uuidString.replacingOccurrences(of: "-", with: "").lowercased()
    }

    /// Applies every request made in `block` in one all-or-nothing commit
    /// (PhotoKit's `performChanges`): new files are staged and moved into
    /// place first, then one catalog transaction applies everything. If any
    /// request is invalid, or an edit's photo has moved on since its input was
    /// read (`PhotoEditError.conflict`), nothing changes.
    public func performChanges(_ block: (PhotoLibraryChanges) throws -> Void) throws {
        _ = try performChangesWritingRevisions(block)
    }

    /// `performChanges`; returns the revision the commit wrote for each
    /// photo it gave one (edits, reverts): what this commit wrote, never a
    /// revision another writer added since.
    func performChangesWritingRevisions(_ block: (PhotoLibraryChanges) throws -> Void) throws -> [String: Revision] {
        try requireWritable()
        let changes = PhotoLibraryChanges(library: self)
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

    /// `performChanges` whose block returns a value (placeholders, outputs…),
    /// handed back once the changes are committed.
    public func performChanges<T>(returning block: (PhotoLibraryChanges) throws -> T) throws -> T {
        var result: T?
        try performChanges { result = try block($0) }
        return result!
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
        editing.sweepStagingIfDue()
        // An output's staged render leaves tmp/ as soon as the output can
        // never commit: committed (moved into place), or stale (its photo
        // moved on). One refused for a mistake its caller can fix (another
        // photo's change request, no adjustment data) is kept for a retry,
        // and swept once abandoned (PhotoLibrary+Staging.swift).
        var committed = false
        defer {
            for case let .contentEdit(_, output) in changes where committed || editing.isStale(output) {
                editing.removeStagedRender(of: output)
            }
        }
        let journal = IntentJournal(layout: layout)
        var placedRenders: [String] = []   // renders and sidecars moved into place by this commit (unique names)
        var placedOriginals: [String] = [] // originals moved into place by this commit
        var edits: [Int: PreparedEdit] = [:]
        var creations: [Int: Creation?] = [:]
        do {
            // 1. Stage and check files, outside the transaction.
            for (i, change) in changes.enumerated() {
                switch change {
                case let .create(placeholder, source):
                    let staged = try importing.stageOriginal(source, journal: journal, importDate: importDate)
                    if let existing = staged.existingID {
                        placeholder.set(existing)
                        creations[i] = .some(nil)
                    } else {
                        if staged.placed { placedOriginals.append(staged.relative) }
                        var record = staged.record!
                        record.id = placeholder.localIdentifier
                        var rev = staged.revision!
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
                    try apply(change, index: i, db: db, edits: edits, creations: creations, purgedFiles: &purgedFiles, written: &written,
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
            for file in purgedFiles where !(files.isShared && file.hasPrefix("originals/")) { removeFileAndPreview(file) }
            committed = true
            journal.finish()
            for id in purgedAssets { removeCachedImages(of: id) }
            if let afterImport {
                let created = creations.sorted { $0.key < $1.key }.compactMap { $0.value?.record.id }
                if !created.isEmpty { afterImport(self, created) }
            }
            return written
        } catch {
            // Renders have unique names: nobody else can use them. An original
            // may be shared with another writer importing the same bytes: it
            // is removed inside a write transaction, and only if no row
            // references it (a writer that committed meanwhile keeps it; one
            // about to commit finds it gone, see `.create` below).
            for file in placedRenders { removeFileAndPreview(file) }
            // In a shared store another node may have found the original in
            // place and be about to commit it: it stays, and
            // `verify --repair` removes it after the grace period if unreferenced.
            if !placedOriginals.isEmpty, !files.isShared {
                try? write { db in
                    for path in placedOriginals
                    where try !db.isOriginalReferenced(path) {
                        removeFileAndPreview(path)
                    }
                }
            }
            journal.finish()
            throw error
        }
    }

    private func apply(_ change: PhotoLibraryChanges.Change, index i: Int, db: any CatalogConnection, edits: [Int: PreparedEdit],
                       creations: [Int: Creation?], purgedFiles: inout [String], written: inout [String: Revision],
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
            written[id] = PhotoLibrary.revision(revision)
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
                } else if let partner = try importing.pairPartner(of: created.record, db) {
                    try recorder.asset(partner.id, db)
                    try importing.join(created.record, to: partner, db)
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
            let e = edits[i]!
            try addRevision(e.assetID, expected: e.expectedRevision, kind: e.kind, data: e.data, render: e.renderPath,
                            baseRevision: e.baseRevision, basePath: e.basePath, size: (e.width, e.height))
        case let .revert(id, expected):
            let a = try asset(id)
            try addRevision(id, expected: expected, kind: .revert, data: nil, render: nil, baseRevision: nil, basePath: nil,
                            size: (a.originalPixelWidth, a.originalPixelHeight))
        case let .favorite(id, value):
            _ = try asset(id)
            try db.set(.favorite, value, of: id)
            described.insert(id)
        case let .hidden(id, value):
            _ = try asset(id)
            try db.set(.hidden, value, of: id)
            described.insert(id)
        case let .creationDate(id, value):
            _ = try asset(id)
            try db.set(.creationDate, value, of: id)
        case let .location(id, value):
            _ = try asset(id)
            if let value, abs(value.latitude) > 90 || abs(value.longitude) > 180 {
                throw PhotoEditError.invalidChange("location \(value.latitude), \(value.longitude) is out of range")
            }
            try db.setLocation(value, of: id)
        case let .rating(id, value):
            _ = try asset(id)
            try db.set(.rating, try Rating.checked(value), of: id)
            described.insert(id)
        case let .colorLabel(id, value):
            _ = try asset(id)
            try db.set(.colorLabel, value?.rawValue, of: id)
            described.insert(id)
        case let .keywords(id, add, remove, replace):
            _ = try asset(id)
            try Self.changeKeywords(of: id, add: add, remove: remove, replace: replace, db)
            described.insert(id)
        case let .title(id, value):
            _ = try asset(id)
            try db.set(.title, try DescriptiveMetadata.checkedText(value, "a title"), of: id)
            described.insert(id)
        case let .caption(id, value):
            _ = try asset(id)
            try db.set(.caption, try DescriptiveMetadata.checkedText(value, "a caption"), of: id)
            described.insert(id)
        case .delete(let id):
            let a = try asset(id)
            if a.trashedDate == nil {
                try db.set(.trashedDate, Date(), of: id)
            }
        case .restore(let id):
            _ = try asset(id)
            try db.set(.trashedDate, Date?.none, of: id)
        case .purge(let id):
            let a = try asset(id)
            guard a.trashedDate != nil else {
                throw PhotoEditError.invalidChange("photo \(id) is not deleted; delete it first, then purge")
            }
            try recorder.albums(ofAsset: id, db)
            purgedFiles.append(a.originalPath)
            if let alternate = a.alternatePath { purgedFiles.append(alternate) }
            if let record = a.metadataPath { purgedFiles.append(record) }
            purgedFiles += try db.revisionFiles(of: id)
            try db.deleteAsset(id)
        case let .albumCreate(placeholder, title):
            try recorder.album(placeholder.localIdentifier, db)
            let title = try PhotoLibrary.checkedAlbumTitle(title)
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
            let title = try PhotoLibrary.checkedAlbumTitle(title)
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
        makePreview(ofStaged: path, as: relative, width: width, height: height, raw: false,
                    reduction: reduction.flatMap { $0.width == width && $0.height == height ? $0 : nil })
        try FileIO.flush(path)
        try files.publish(path, as: relative)
        return (relative, width, height)
    }
}
