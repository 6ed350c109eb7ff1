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
    /// output must have been made from an input of this photo. When the
    /// block returns, committed or refused, the output's render file is
    /// gone: to retry, make a new output and render again.
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
    public func setCreationDate(_ date: Date?, timeZone: TimeZone = .gmt) throws {
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

    /// Removes a recently deleted photo for good, with its files (an
    /// original another photo still uses, a virtual copy's, stays).
    public func purge() throws { try owner.add(.purge(assetIdentifier)) }

    /// Records a change of this photo made by another file's request
    /// (PhotoLibrary+Versions.swift); throws when the block is over.
    func record(_ change: PhotoLibraryChanges.Change) throws { try owner.add(change) }
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
        case duplicate(ObjectPlaceholder, source: String, name: String?, fresh: Bool)
        case snapshot(String, name: String)
        case removeSnapshot(String, name: String)
        case albumCreate(ObjectPlaceholder, String)
        case albumAdd(String, [String])
        case albumRemove(String, [String])
        case albumMove(String, String, Int)
        case albumRename(String, String)
        case albumDelete(String)
    }

    /// The library's catalog (a change request reads the photo's flags).
    let catalog: LibraryCatalog
    private(set) var changes: [Change] = []
    private var requests: [String: AssetChangeRequest] = [:]

    /// Set when the block has returned: later use of its requests is an error.
    private(set) var isClosed = false

    /// The import time given to the photos this change set creates (nil:
    /// when each is staged). A batch import sets it so photos imported
    /// together list in the order of their files, whichever worker is first.
    var importDate: Date?

    init(catalog: LibraryCatalog) { self.catalog = catalog }

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
        let (id, flags) = try catalog.read { db in
            let id = try CatalogModels.resolve(idOrPrefix, db)
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
        let p = ObjectPlaceholder(Committing.newIdentifier())
        add(.create(p, source))
        return p
    }

    /// Creates an album; titles are unique.
    public func createAlbum(title: String) -> ObjectPlaceholder {
        let p = ObjectPlaceholder(Committing.newIdentifier())
        add(.albumCreate(p, title))
        return p
    }

    /// The change request of an album, by title, id or unambiguous id prefix.
    /// An album created earlier in the same block can be named by its title.
    public func albumChangeRequest(for titleOrID: String) throws -> AlbumChangeRequest {
        for case let .albumCreate(p, title) in changes where title == titleOrID {
            return AlbumChangeRequest(albumIdentifier: p.localIdentifier, owner: self)
        }
        return AlbumChangeRequest(albumIdentifier: try catalog.read { db in try Queries.resolveAlbum(titleOrID, db) }, owner: self)
    }
}

