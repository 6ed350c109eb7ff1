import Foundation

/// What reading a photo's Lightroom develop settings did.
public struct LightroomImport: Sendable, Hashable {
    /// Where the packet came from: `sidecar IMG_1.xmp`, `embedded XMP`, or the file given.
    public let source: String
    /// The revision holding the settings (`com.adobe.crs` adjustment data).
    public let revision: Int
    /// False when that revision was already in the photo's history (the
    /// same packet, byte for byte, imported before): nothing was changed.
    public let isNew: Bool
    /// The settings set in the packet that photoedit does not map (see
    /// `LightroomTranslation.unmapped`); empty for a photoedit recipe.
    public let unmapped: [String]
    /// The packet was a sidecar photoedit wrote: its `photoedit:recipe` was
    /// applied as it is (an ordinary photoedit revision), not the translation
    /// of its `crs:` settings.
    public var isPhotoeditRecipe = false
}

/// Lightroom / Camera Raw develop settings (`crs:`) as adjustment data
/// photoedit can handle: a revision whose adjustment data is the packet,
/// verbatim (`com.adobe.crs`), rendered from its translation.
extension Importing {
    /// The façade's `importDevelopSettings(_:sidecar:)`: a photo's develop
    /// settings read and committed as a revision.
    func importDevelopSettings(_ idOrPrefix: String, sidecar: String? = nil) throws -> LightroomImport? {
        let id = try resolve(idOrPrefix)
        let packet: (data: Data, source: String)?
        if let sidecar {
            let path = SystemPath(sidecar)
            do {
                guard let data = try XMPPacket.loadData(path) else { throw PhotoEditError.unreadableFile(path: sidecar, reason: "no such file") }
                // A sidecar without crs: settings to apply (darktable's, metadata only, or an export's) is not used as Lightroom's.
                packet = try !LightroomSettings(packet: XMPPacket(data: data)).isToApply ? nil : (data, SystemPath.display(path.lastComponent))
            } catch let problem as XMPProblem {
                throw PhotoEditError.unreadableFile(path: sidecar, reason: problem.description)
            }
        } else {
            let files = try sourceFiles(of: id, idOrPrefix)
            var found: (Data, String)?
            do {
                found = try developPacket(sidecarsOf: files, embeddedIn: [try originalPath(id)], quiet: false)
            } catch let problem as XMPProblem {
                throw PhotoEditError.invalidAdjustmentData("\(problem)")
            }
            packet = found.map { ($0.0, $0.1) }
        }
        guard let packet else { return nil }
        do {
            return try applyDevelopSettings(id, packet: packet.data, source: packet.source)
        } catch let problem as XMPProblem {
            throw PhotoEditError.invalidAdjustmentData("\(packet.source): Lightroom develop settings not used: \(problem)")
        }
    }

    /// The files a photo was imported from (a RAW+JPEG pair's RAW first),
    /// where its sidecars are looked for; empty when the library does not know
    /// (an upload). `idOrPrefix` is what the caller named, for the error.
    func sourceFiles(of id: String, _ idOrPrefix: String) throws -> [SystemPath] {
        guard let record = try read({ db in try db.asset(id) }) else { throw PhotoEditError.unknownAsset(idOrPrefix) }
        guard let folder = record.sourceFolder else { return [] }
        return [record.alternateFilename, record.originalFilename].compactMap { $0 }.map {
            SystemPath(folder).appending(ArraySlice(Array($0.utf8)))
        }
    }

    /// The packet with develop settings for a photo: the first sidecar of
    /// `files` that has `crs:` settings, else the first packet embedded in
    /// one of `originals` that has some (each file read once: libvips' header,
    /// a DNG's by its TIFF loader); nil when none has. Settings marked
    /// `crs:AlreadyApplied` (a file Lightroom exported) are passed over. A sidecar that cannot
    /// be read or parsed throws unless `quiet` (import has already warned
    /// about it), and is then passed over.
    func developPacket(sidecarsOf files: [SystemPath], embeddedIn originals: [String], quiet: Bool) throws(XMPProblem) -> (Data, String)? {
        for file in files {
            for candidate in Importer.sidecarCandidates(of: file) {
                let name = "sidecar " + SystemPath.display(candidate.lastComponent)
                do {
                    guard let data = try XMPPacket.loadData(candidate) else { continue }
                    if try LightroomSettings(packet: XMPPacket(data: data)).isToApply { return (data, name) }
                } catch {
                    if !quiet { throw XMPProblem("\(name) not used: \(error)") }
                }
                break
            }
        }
        for original in originals {
            guard let embedded = Renderer.isRaw(original) ? Importer.rawXMP(original)
                      : (try? Image.load(path: original, sequential: true, strict: false))?.blob("xmp-data"),
                  let packet = try? XMPPacket(data: embedded), let settings = try? LightroomSettings(packet: packet), settings.isToApply
            else { continue }
            return (embedded, "embedded XMP")
        }
        return nil
    }

    /// Translates a packet and commits it as the photo's next revision,
    /// unless the same packet is already in its history.
    func applyDevelopSettings(_ id: String, packet: Data, source: String) throws -> LightroomImport {
        let asset = try queries.asset(id)
        // Lightroom develops a RAW (a pair's RAW too); on a rendered file it
        // reads white balance in its relative form.
        let hasRaw = asset.format == "raw" || asset.isRawPlusJPEG
        var settings = try LightroomSettings(packet: packet, rendered: !hasRaw)
        // The crs: settings are checked even when photoedit's own recipe is used.
        var translation = try settings.translation(registry: registry)
        let ours = settings.photoeditRecipe(registry: registry)
        // Noise reduction on a RAW: the camera's noise profile recorded with the packet (LightroomDenoise.swift).
        var stored = packet
        if ours == nil, hasRaw, settings.recordedDenoise == nil, let node = translation.recipe.node(Filters.denoise.id),
           node.parameters[Filters.DenoiseKeys.source] == "auto",
           let values = LightroomSettings.cameraDenoise(rawPath: asset.format == "raw" ? try originalPath(id) : try alternatePath(id) ?? originalPath(id)),
           let recorded = LightroomSettings.recordingDenoise(packet, values) {
            stored = recorded
            settings = try LightroomSettings(packet: stored, rendered: !hasRaw)
            translation = try settings.translation(registry: registry)
        }
        var recipe = translation.recipe, unmapped = translation.unmapped
        var data = LightroomSettings.adjustmentData(packet: stored, rendered: !hasRaw)
        if let ours {
            // A sidecar photoedit wrote: its own recipe, whole, over the approximation.
            (recipe, unmapped, data) = (ours, [], ours.adjustmentData)
        }
        // The same packet imported before (by any translation version) is that revision.
        if let existing = try queries.history(id).last(where: {
            $0.adjustmentData.map { $0.formatIdentifier == data.formatIdentifier && ($0.data == data.data || $0.data == packet) } == true
        }) {
            return LightroomImport(source: source, revision: existing.number, isNew: false, unmapped: unmapped, isPhotoeditRecipe: ours != nil)
        }
        if recipe.node(Filters.raw.id) != nil && !hasRaw {
            throw XMPProblem("the raw stage is a RAW development, and photo \(id) has no RAW (\(asset.format.uppercased()))")
        }
        var options = ContentEditingInputRequestOptions(startFromOriginal: true, displaySize: nil)
        // Lightroom develops a pair's RAW; photoedit's recipe says which file it edits.
        if asset.isRawPlusJPEG { options = options.startingFrom(alternate: ours.map { $0.base == .alternate } ?? true) }
        let input = try editing.requestContentEditingInput(for: id, options: options)
        let revision = try editing.commitRendered(recipe.rebased(input.base.recipeBase, registry: registry), input: input,
                                          adjustmentData: ours == nil ? data : nil)
        return LightroomImport(source: source, revision: revision.number, isNew: true, unmapped: unmapped, isPhotoeditRecipe: ours != nil)
    }

    /// After an import: the develop settings of a new photo's files (a
    /// RAW+JPEG pair's together, the RAW's sidecar first), as a revision.
    /// Problems become warnings of the file's result; a bad sidecar was
    /// already warned about by the metadata import.
    func importDevelopSettings(of files: [SystemPath], results: inout [ImportResult]) {
        guard let k = results.lastIndex(where: { $0.id != nil && !$0.duplicate }), let id = results[k].id else { return }
        let isRaw = { (f: SystemPath) in RawDecoder.extensions.contains((f.display as NSString).pathExtension.lowercased()) }
        let ordered = files.filter(isRaw) + files.filter { !isRaw($0) }
        // The embedded packet is read from the file imported (the same bytes
        // as the original, without fetching it back from a blob store): the
        // RAW's first (a DNG Lightroom wrote into), then the JPEG's; a name
        // that is not UTF-8 cannot be handed to libvips, so skipped.
        let embedded = ordered.filter { SystemPath($0.display).bytes == $0.bytes }.map(\.display)
        do {
            guard let (packet, source) = try developPacket(sidecarsOf: ordered, embeddedIn: embedded, quiet: true) else {
                return importDarktableHistory(of: ordered, id: id, result: &results[k])
            }
            do {
                results[k].lightroom = try applyDevelopSettings(id, packet: packet, source: source)
            } catch {
                results[k].warnings.append("\(source): Lightroom develop settings not used: \(error)")
            }
        } catch {
            results[k].warnings.append("Lightroom develop settings not used: \(error)")
        }
    }

    /// After an import without Lightroom settings: a darktable history in the
    /// first sidecar of `files` becomes a revision. Only sidecars: the
    /// history embedded in a file darktable exported says how that file was
    /// made from its RAW, and is already in its pixels.
    private func importDarktableHistory(of files: [SystemPath], id: String, result: inout ImportResult) {
        do {
            guard let sidecar = try darktableSidecar(of: files, quiet: true) else { return }
            do {
                result.darktable = try applyDarktableHistory(id, sidecar)
            } catch {
                result.warnings.append("\(sidecar.source): darktable history not kept: \(error)")
            }
        } catch {
            result.warnings.append("\(error)")
        }
    }
}

extension Revision {
    /// For a revision made from Lightroom develop settings (`com.adobe.crs`):
    /// the settings its translation does not map (empty when all are);
    /// nil for any other revision.
    public var lightroomUnmapped: [String]? {
        guard let data = adjustmentData, LightroomSettings.canHandle(data),
              let settings = try? LightroomSettings(adjustmentData: data),
              let translation = try? settings.translation() else { return nil }
        return translation.unmapped
    }
}
