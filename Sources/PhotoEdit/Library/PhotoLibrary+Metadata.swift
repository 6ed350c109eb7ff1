import Foundation

/// Ratings, colour labels, keywords, titles and captions: read from XMP at
/// import (embedded, and sidecar files beside the imported file), stored in
/// the catalog, changed through `performChanges` (each change is a change
/// feed entry), queried with `rating>=4`, `keyword="Trips/Iceland"`, ….
extension PhotoLibrary {
    /// Rates photos: 1–5 stars, 0 unrated, −1 rejected (`Rating.rejected`).
    /// All photos change in one commit, or none (an unknown id or a rating
    /// out of range changes nothing).
    public func setRating(_ rating: Int, of ids: [String]) throws {
        try changeEach(ids) { try $0.setRating(rating) }
    }

    /// Sets the colour label of photos (nil: removes it), in one commit.
    public func setColorLabel(_ label: ColorLabel?, of ids: [String]) throws {
        try changeEach(ids) { try $0.setColorLabel(label) }
    }

    /// Adds keywords (photoedit's syntax: `Trips/Iceland`, see `Keyword`)
    /// to photos, in one commit. Keywords a photo has already stay as they are.
    public func addKeywords(_ keywords: [String], to ids: [String]) throws {
        try changeEach(ids) { try $0.addKeywords(keywords) }
    }

    /// Removes keywords from photos (ignoring ASCII case; only the keyword
    /// named, not those below it), in one commit.
    public func removeKeywords(_ keywords: [String], from ids: [String]) throws {
        try changeEach(ids) { try $0.removeKeywords(keywords) }
    }

    /// Sets the title of photos (nil or empty: removes it), in one commit.
    public func setTitle(_ title: String?, of ids: [String]) throws {
        try changeEach(ids) { try $0.setTitle(title) }
    }

    /// Sets the caption of photos (nil or empty: removes it), in one commit.
    public func setCaption(_ caption: String?, of ids: [String]) throws {
        try changeEach(ids) { try $0.setCaption(caption) }
    }

    /// Every keyword in the library with the number of photos that have it
    /// (recently deleted ones included), sorted ignoring ASCII case.
    public func keywordCounts() throws -> [(keyword: String, count: Int)] { try queries.keywordCounts() }

    /// Resolves every id first, then changes each photo in one commit.
    private func changeEach(_ ids: [String], _ change: (AssetChangeRequest) throws -> Void) throws {
        let resolved = try ids.map { try resolve($0) }
        try performChanges { changes in
            for id in resolved { try change(try changes.changeRequest(for: id)) }
        }
    }

    /// The sidecars looked for beside an imported file, in order: darktable's
    /// `IMG_1.CR2.xmp`, then Lightroom's `IMG_1.xmp` (each also as `.XMP`).
    static func sidecarCandidates(of path: SystemPath) -> [SystemPath] {
        let name = path.lastComponent
        let folder = path.parent
        var stems = [Array(name)]
        if let dot = name.lastIndex(of: UInt8(ascii: ".")), dot > name.startIndex { stems.append(Array(name[..<dot])) }
        return stems.flatMap { stem in
            [".xmp", ".XMP"].map { folder.appending(ArraySlice(stem + Array($0.utf8))) }
        }
    }

    /// The descriptive metadata a file arrives with: its embedded IPTC-IIM
    /// (keywords, title, caption), over it its embedded XMP, and over both
    /// every member the first sidecar found sets (the sidecar wins, as in
    /// Lightroom). A packet that cannot be used whole is not used at all,
    /// and gives one warning (never quoting its content).
    static func importedMetadata(embedded: Data?, iptc: Data?, source: SystemPath?) -> (DescriptiveMetadata, [String]) {
        var metadata = DescriptiveMetadata()
        var warnings: [String] = []
        if let iptc {
            do {
                metadata = try IPTCRecord(data: iptc).descriptiveMetadata
            } catch {
                warnings.append("embedded IPTC not used: \(error)")
            }
        }
        if let embedded {
            do {
                metadata = metadata.overridden(by: try XMPPacket(data: embedded).descriptiveMetadata())
            } catch {
                warnings.append("embedded XMP not used: \(error)")
            }
        }
        for candidate in source.map(sidecarCandidates) ?? [] {
            let sidecar: XMPPacket?
            do {
                sidecar = try XMPPacket.load(candidate)
            } catch {
                warnings.append("sidecar \(SystemPath.display(candidate.lastComponent)) not used: \(error)")
                break
            }
            guard let sidecar else { continue }
            do {
                metadata = metadata.overridden(by: try sidecar.descriptiveMetadata())
            } catch {
                warnings.append("sidecar \(SystemPath.display(candidate.lastComponent)) not used: \(error)")
            }
            break
        }
        return (metadata, warnings)
    }
}

extension PhotoLibrary.StagedOriginal {
    /// Gives the photo about to be created this metadata.
    mutating func describe(_ metadata: DescriptiveMetadata) {
        record?.rating = metadata.rating ?? 0
        record?.colorLabel = metadata.colorLabel?.rawValue
        record?.title = metadata.title
        record?.caption = metadata.caption
        keywords = metadata.keywords ?? []
    }
}
