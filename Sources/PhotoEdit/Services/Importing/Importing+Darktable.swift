import Foundation

/// What reading a photo's darktable sidecar did.
public struct DarktableImport: Sendable, Hashable {
    /// The sidecar read: `sidecar IMG_1.CR2.xmp`, or the file given.
    public let source: String
    /// The revision holding the history (`org.darktable.history` adjustment data).
    public let revision: Int
    /// False when that revision was already in the photo's history (the same
    /// sidecar, byte for byte, read before): nothing was changed.
    public let isNew: Bool
    /// The history as read (its steps and how many are applied).
    public let history: DarktableHistory
    /// True when darktable (`darktable-cli`) rendered the revision; false when
    /// it was not there (or turned off): the revision's render is then the
    /// photo unedited, the history kept for darktable.
    public let renderedByDarktable: Bool
}

/// darktable histories (`darktable:history` in a sidecar) as foreign
/// adjustment data: kept verbatim (`org.darktable.history`), never read
/// beyond its module names, rendered by darktable itself when it is installed.
/// An edit on top starts from that render, as PhotoKit's model has it for a
/// format an editor cannot handle.
extension Importing {
    /// The façade's `importDarktableHistory(_:sidecar:)`: a photo's darktable
    /// history read and committed as a revision.
    func importDarktableHistory(_ idOrPrefix: String, sidecar: String? = nil) throws -> DarktableImport? {
        let id = try resolve(idOrPrefix)
        let found: DarktableSidecar?
        if let sidecar {
            let path = SystemPath(sidecar)
            do {
                guard let data = try XMPPacket.loadData(path) else { throw PhotoEditError.unreadableFile(path: sidecar, reason: "no such file") }
                found = try DarktableHistory(packet: data).map {
                    DarktableSidecar(data: data, history: $0, source: SystemPath.display(path.lastComponent), ofRaw: nil)
                }
            } catch let problem as XMPProblem {
                throw PhotoEditError.unreadableFile(path: sidecar, reason: problem.description)
            }
        } else {
            let files = try sourceFiles(of: id, idOrPrefix)
            do {
                found = try darktableSidecar(of: files)
            } catch {
                throw PhotoEditError.invalidAdjustmentData("\(error)")
            }
        }
        guard let found else { return nil }
        return try applyDarktableHistory(id, found)
    }

    /// A darktable sidecar found for a photo.
    struct DarktableSidecar {
        let data: Data
        let history: DarktableHistory
        let source: String
        /// The sidecar is the RAW's (true) or the JPEG's (false) of a pair; nil: not known.
        let ofRaw: Bool?
    }

    /// The first sidecar of `files` (in order), if it holds a darktable
    /// history. As for Lightroom's, only the first sidecar found for a file
    /// is read. A sidecar that cannot be read or parsed throws unless `quiet`
    /// (import has already warned about it); a darktable history that is not
    /// one always throws.
    func darktableSidecar(of files: [SystemPath], quiet: Bool = false) throws(XMPProblem) -> DarktableSidecar? {
        for file in files {
            let ofRaw = RawDecoder.extensions.contains((file.display as NSString).pathExtension.lowercased())
            for candidate in Importer.sidecarCandidates(of: file) {
                let name = "sidecar " + SystemPath.display(candidate.lastComponent)
                let data: Data, packet: XMPPacket
                do {
                    guard let read = try XMPPacket.loadData(candidate) else { continue }
                    (data, packet) = (read, try XMPPacket(data: read))
                } catch {
                    if quiet { break }
                    throw XMPProblem("\(name) not used: \(error)")
                }
                do {
                    guard let history = try DarktableHistory(packet: packet) else { break }
                    return DarktableSidecar(data: data, history: history, source: name, ofRaw: ofRaw)
                } catch {
                    throw XMPProblem("\(name): darktable history not kept: \(error)")
                }
            }
        }
        return nil
    }

    /// Commits a darktable sidecar as the photo's next revision (unless the
    /// same bytes are in its history already), rendered by darktable when
    /// ``darktable`` is set, else with the photo's unedited render.
    func applyDarktableHistory(_ id: String, _ sidecar: DarktableSidecar) throws -> DarktableImport {
        let data = DarktableHistory.adjustmentData(packet: sidecar.data, history: sidecar.history)
        let darktable = darktable.current
        if let existing = try queries.history(id).last(where: { $0.adjustmentData == data }) {
            let rendered = try isRenderedByDarktable(id, revision: existing.number)
            // Kept before without darktable: now that it is here, it renders the history as a new revision.
            if rendered || darktable == nil {
                return DarktableImport(source: sidecar.source, revision: existing.number, isNew: false, history: sidecar.history,
                                       renderedByDarktable: rendered)
            }
        }
        try requireWritable()
        let asset = try queries.asset(id)
        var options = ContentEditingInputRequestOptions(startFromOriginal: true, displaySize: nil)
        // darktable edited the file the sidecar belongs to; a pair's RAW when not known.
        if asset.isRawPlusJPEG { options = options.startingFrom(alternate: sidecar.ofRaw ?? true) }
        let input = try editing.requestContentEditingInput(for: id, options: options)
        let revision = try committing.commitRevision(of: id, staging: ContentEditingOutput(contentEditingInput: input)) { output in
            if let darktable {
                try darktable.render(original: input.fullSizeImageURL.path, sidecar: sidecar.data,
                                     to: output.renderedContentURL.path, work: layout.tmp)
            } else {
                let unedited = Recipe(nodes: [], registry: registry).rebased(input.base.recipeBase, registry: registry)
                try editing.render(unedited, onto: input.fullSizeImageURL.path, into: &output)
            }
            output.adjustmentData = data
        }
        return DarktableImport(source: sidecar.source, revision: revision.number, isNew: true, history: sidecar.history,
                               renderedByDarktable: darktable != nil)
    }
}

extension Importing {
    /// Whether darktable made the render of a revision: its exports carry the
    /// history they were made with in their XMP (`darktable:xmp_version`);
    /// photoedit's renders carry none.
    func isRenderedByDarktable(_ id: String, revision: Int) throws -> Bool {
        guard let record = try read({ db in try db.revision(revision, of: id) }),
              let render = record.renderPath.flatMap(files.existingLocalPath),
              let xmp = (try? Image.load(path: render, sequential: true, strict: false))?.blob("xmp-data"),
              let packet = try? XMPPacket(data: xmp) else { return false }
        return packet.value(XMPPacket.darktable, "xmp_version") != nil
    }
}

extension Revision {
    /// For a revision holding a darktable history (`org.darktable.history`):
    /// the history; nil for any other revision.
    public var darktableHistory: DarktableHistory? {
        adjustmentData.flatMap { DarktableHistory(adjustmentData: $0) }
    }

    /// Where an edit not written as a photoedit recipe came from, in a few
    /// words (`from Lightroom; not mapped: Clarity2012 +18`, `darktable
    /// history: 10 steps (…)`, `another editor's edit (com.example.app 2)`);
    /// nil for photoedit's own recipes and the original.
    public var editorNote: String? {
        guard let data = adjustmentData, data.formatIdentifier != Recipe.formatIdentifier else { return nil }
        if let unmapped = lightroomUnmapped { return "from Lightroom" + (unmapped.isEmpty ? "" : "; not mapped: " + unmapped.joined(separator: ", ")) }
        if let history = darktableHistory { return "darktable history: " + history.summary }
        return "another editor's edit (\(data.formatIdentifier) \(data.formatVersion))"
    }
}
