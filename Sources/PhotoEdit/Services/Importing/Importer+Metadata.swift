import Foundation

/// Ratings, colour labels, keywords, titles and captions read at import:
/// embedded XMP and IPTC, and sidecar files beside the imported file.
extension Importer {
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
