import Foundation

/// A virtual copy about to be committed: the source's revision it was made
/// from and, when it copies an edit, the copy's first edit (its render
/// already placed for the copy).
struct PreparedDuplicate {
    var source: String
    var sourceRevision: Int
    var edit: RevisionRecord?
}

extension Committing {
    /// Outside the commit's transaction: reads the source and, unless
    /// `fresh`, copies its current render for the copy (a render is the
    /// photo's own file: the copy's history and renders are its own from
    /// now on). The placed render is appended to `placed`.
    func stageDuplicate(of sourceIDOrPrefix: String, as id: String, fresh: Bool, journal: IntentJournal,
                        placed: inout [String]) throws -> PreparedDuplicate {
        let (a, current) = try read { db -> (AssetRecord, RevisionRecord?) in
            guard let a = try db.asset(try CatalogModels.resolve(sourceIDOrPrefix, db)) else { throw PhotoEditError.unknownAsset(sourceIDOrPrefix) }
            return (a, try db.revision(a.revision, of: a.id))
        }
        var prepared = PreparedDuplicate(source: a.id, sourceRevision: a.revision, edit: nil)
        guard !fresh, let current, current.adjustmentData != nil else { return prepared }
        if let k = current.baseRevision {
            throw PhotoEditError.invalidChange("photo \(a.id)'s current version is an edit on top of another tool's render (revision \(k)), "
                                               + "which a copy cannot share: duplicate it fresh (--fresh), then edit the copy")
        }
        guard let render = current.renderPath, let local = files.existingLocalPath(render) else {
            throw PhotoEditError.library("photo \(a.id)'s current render is missing: `photoedit verify --repair` rebuilds it; then duplicate it")
        }
        let staged = layout.temporary("-duplicate" + "." + ((render as NSString).pathExtension.isEmpty ? "jpg" : (render as NSString).pathExtension))
        defer { unlink(staged) }
        _ = try FileIO.copyHashing(from: local, to: staged)
        let (relative, width, height) = try placeRender(staged, asset: id, revision: 1, journal: journal)
        placed.append(relative)
        var edit = current
        edit.assetId = id
        edit.number = 1
        edit.kind = Revision.Kind.edit.rawValue
        edit.renderPath = relative
        edit.pixelWidth = width
        edit.pixelHeight = height
        edit.sidecarPath = nil
        prepared.edit = edit
        return prepared
    }

    /// Inside the commit's transaction: the copy's row (the source's
    /// original, pair and descriptive metadata; not its albums), its
    /// revision 0 and, when it copies an edit, revision 1.
    func applyDuplicate(_ placeholder: ObjectPlaceholder, name: String?, prepared: PreparedDuplicate, source: AssetRecord,
                        _ db: any CatalogConnection, recorder: ChangeRecorder, journal: IntentJournal,
                        placed: inout [String], written: inout [String: Revision]) throws {
        guard source.revision == prepared.sourceRevision else {
            throw PhotoEditError.conflict(asset: source.id, expected: prepared.sourceRevision, actual: source.revision)
        }
        guard source.trashedDate == nil else {
            throw PhotoEditError.invalidChange("photo \(source.id) is deleted; restore it before making a copy of it")
        }
        let master = source.masterId ?? source.id
        let existing = try db.copies(of: master).count
        var copy = source
        copy.id = placeholder.localIdentifier
        copy.masterId = master
        copy.copyName = try name.map { try DescriptiveMetadata.checkedName($0, "a copy name") } ?? "Copy \(existing + 1)"
        copy.importDate = Date()
        copy.revision = 0
        copy.trashedDate = nil
        copy.metadataPath = nil
        try recorder.asset(copy.id, db)
        try db.insert(copy)
        let keywords = try db.keywords(of: [source.id])[source.id] ?? []
        try Self.changeKeywords(of: copy.id, add: keywords, remove: [], replace: false, db)
        // Revision 0: the shared original as imported (a pair's is its JPEG).
        let imported = try db.revision(0, of: source.id)
        var zero = RevisionRecord(assetId: copy.id, number: 0, createdAt: copy.importDate, kind: Revision.Kind.imported.rawValue,
                                  formatIdentifier: nil, formatVersion: nil, data: nil, renderPath: nil,
                                  pixelWidth: imported?.pixelWidth ?? source.originalPixelWidth,
                                  pixelHeight: imported?.pixelHeight ?? source.originalPixelHeight)
        let zeroSidecar = try placeSidecar(copy, zero, journal: journal)
        zero.sidecarPath = zeroSidecar
        placed.append(zeroSidecar)
        try db.insert(zero)
        if var edit = prepared.edit {
            edit.createdAt = copy.importDate
            let editSidecar = try placeSidecar(copy, edit, journal: journal)
            edit.sidecarPath = editSidecar
            placed.append(editSidecar)
            try db.insert(edit)
            try db.setCurrentRevision(1, of: copy.id)
            written[copy.id] = CatalogModels.revision(edit)
        } else {
            written[copy.id] = CatalogModels.revision(zero)
        }
    }

    /// Inside a purge's transaction, before the photo's row goes: the files
    /// only it uses (an original or RAW another photo shares stays), and
    /// its copies' new master when it is one (the oldest copy). Returns the
    /// photos whose metadata records change (the copies).
    func releaseShared(_ a: AssetRecord, _ db: any CatalogConnection, recorder: ChangeRecorder) throws -> (files: [String], promoted: [String]) {
        var files: [String] = []
        for path in [a.originalPath, a.alternatePath].compactMap({ $0 }) where try db.photosUsing(path) <= 1 {
            files.append(path)
        }
        guard a.masterId == nil else { return (files, []) }
        let copies = try db.copies(of: a.id)
        guard !copies.isEmpty else { return (files, []) }
        for id in copies { try recorder.asset(id, db) }
        return (files, copies)
    }
}
