import Foundation

extension Editing {
    /// Reads what an editor needs to edit a photo (the façade's
    /// `requestContentEditingInput(for:options:)`): one read transaction, the
    /// id resolved, the row and its current revision (and the options'
    /// precondition checked in it).
    func requestContentEditingInput(for idOrPrefix: String,
                                    options: ContentEditingInputRequestOptions = ContentEditingInputRequestOptions()) throws -> ContentEditingInput {
        try contentEditingInput(from: editingSnapshot(for: idOrPrefix, precondition: options.precondition), options: options)
    }

    /// The row and current revision an editing input is made from, read in
    /// one transaction (the id resolved, `precondition` checked in it).
    func editingSnapshot(for idOrPrefix: String, precondition: (@Sendable (Asset) throws -> Void)?) throws -> EditingSnapshot {
        try read { db -> EditingSnapshot in
            let a = try CatalogModels.assetRecord(idOrPrefix, db)
            guard let r = try db.revision(a.revision, of: a.id) else { throw PhotoEditError.unknownAsset(idOrPrefix) }
            if let precondition { try precondition(CatalogModels.asset(a, db)) }
            return EditingSnapshot(record: a, current: r)
        }
    }

    /// The editing input `options` ask for, made from a snapshot without
    /// reading the catalog again (the options' precondition is the
    /// snapshot's). A commit of its output still checks the photo is at
    /// the snapshot's revision.
    func contentEditingInput(from snapshot: EditingSnapshot, options: ContentEditingInputRequestOptions) throws -> ContentEditingInput {
        let (record, current) = (snapshot.record, snapshot.current)
        let id = record.id
        let data = current.adjustmentData
        let canHandle = data.map { options.canHandleAdjustmentData($0) } ?? false
        var base = ContentEditingBase.original
        var baseRelative: String?
        if let alternate = options.useAlternate {
            // A chosen file of a RAW+JPEG pair, from scratch.
            if alternate, let raw = record.alternatePath {
                base = .alternate
                baseRelative = raw
            } else if alternate && record.format != "raw" {
                throw PhotoEditError.invalidChange("photo \(id) has no RAW to edit from (it is a single \(record.format.uppercased()))")
            } else if !alternate && record.format == "raw" {
                throw PhotoEditError.invalidChange("photo \(id) has no JPEG to edit from (it is a single RAW)")
            }
        } else if options.startFromOriginal || data == nil {
            base = .original
        } else if canHandle {
            if let path = current.basePath {
                base = current.baseRevision.map { .render(revision: $0) } ?? .alternate
                baseRelative = path
            }
        } else {
            guard let path = current.renderPath else {
                throw PhotoEditError.library("photo \(id) revision \(current.number) has adjustments but no render; run photoedit verify --repair")
            }
            base = .render(revision: current.number)
            baseRelative = path
        }
        guard let file = files.existingLocalPath(baseRelative ?? record.originalPath) else {
            throw PhotoEditError.library("\(baseRelative ?? record.originalPath) is missing; run photoedit verify")
        }
        var display: URL?
        if let size = options.displaySize {
            let target = layout.cache + "/display/\(id)-\(current.number)-\(base.cacheKey)-\(size).jpg"
            if !FileIO.exists(target) {
                try FileManager.default.createDirectory(atPath: layout.cache + "/display", withIntermediateDirectories: true)
                let image = Renderer.isRaw(file)
                    ? try RawDecoder.preview(file, minSize: size, target: size)
                    : try Vips.image("thumbnail", [("filename", .string(file)), ("width", .number(Double(size))),
                                                   ("height", .number(Double(size))), ("size", .string("down"))])
                let staged = layout.temporary(".jpg")
                defer { unlink(staged) }
                try Renderer.save(image, to: staged, format: .jpeg, quality: 85)
                _ = rename(staged, target)
            }
            display = URL(fileURLWithPath: target)
        }
        let isOriginal = baseRelative == nil
        let isAlternate = base == .alternate
        return ContentEditingInput(
            assetIdentifier: id, revision: current.number, adjustmentData: data, canHandleAdjustmentData: canHandle,
            base: base, fullSizeImageURL: URL(fileURLWithPath: file),
            fullSizeImageOrientation: isOriginal ? record.orientation : 1, displaySizeImageURL: display,
            uniformTypeIdentifier: isOriginal ? record.uniformTypeIdentifier
                : isAlternate ? (record.alternateUniformTypeIdentifier ?? "public.camera-raw-image") : "public.jpeg",
            mediaType: record.mediaType,
            creationDate: record.creationDate,
            location: record.latitude.flatMap { lat in record.longitude.map { Location(latitude: lat, longitude: $0) } },
            stagingDirectory: committing.stagingDirectory, baseRelativePath: baseRelative)
    }
}

/// A photo's row and current revision as one read found them: what any
/// of its editing inputs is made from (`Editing.editingSnapshot`).
package struct EditingSnapshot: Sendable {
    let record: AssetRecord
    let current: RevisionRecord
}
