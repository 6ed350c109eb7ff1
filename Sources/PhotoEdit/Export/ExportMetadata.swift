import Foundation

/// The metadata an exported file carries, built from the original's EXIF
/// and the library's descriptive metadata under a policy. The EXIF is
/// rebuilt tag by tag from an allow-list (`ExifRewriter`), never passed
/// through with fields removed: what a policy does not name is not written.
/// The original's own XMP and IPTC blocks are never copied (they may hold
/// people, regions and locations); the XMP written is made here.
public struct ExportMetadata: Sendable {
    /// The original's EXIF block (libvips' `exif-data`: "Exif\0\0" + TIFF), if any.
    public var exif: Data?
    /// The library's title, caption, keywords and rating.
    public var descriptive: DescriptiveMetadata

    public init(exif: Data?, descriptive: DescriptiveMetadata) {
        self.exif = exif
        self.descriptive = descriptive
    }

    /// Whether a policy writes the library's title, caption, keywords and
    /// rating (which change without a new revision): caches of exported
    /// bytes key those policies by `digest(of:)` too.
    package static func usesLibraryMetadata(_ policy: ExportMetadataPolicy) -> Bool {
        policy == .all || policy == .noLocation
    }

    /// A short digest of a photo's title, caption, keywords and rating.
    package static func digest(of asset: Asset) -> String {
        let text = "\(asset.rating)\u{1}\(asset.keywords.joined(separator: "\u{2}"))\u{1}\(asset.title ?? "")\u{1}\(asset.caption ?? "")"
        return String(SHA256Digest.hex(of: Array(text.utf8)).prefix(12))
    }

    /// The EXIF block written under `policy` (nil: none).
    func exifBlock(_ policy: ExportMetadataPolicy) -> Data? {
        guard policy != .none, let exif else { return nil }
        return ExifRewriter.rewrite(exif, policy: policy)
    }

    /// The XMP packet written under `policy` (nil: none).
    func xmpPacket(_ policy: ExportMetadataPolicy) -> Data? {
        guard policy != .none else { return nil }
        let ifd0 = exif.flatMap { ExifRewriter.asciiFields($0, tags: [ExifRewriter.copyrightTag, ExifRewriter.artistTag]) } ?? [:]
        let rights = ifd0[ExifRewriter.copyrightTag], creator = ifd0[ExifRewriter.artistTag]
        let d = policy == .copyright ? DescriptiveMetadata() : descriptive
        if rights == nil && creator == nil && d.isEmpty { return nil }
        func esc(_ s: String) -> String {
            s.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
                .replacingOccurrences(of: ">", with: "&gt;").replacingOccurrences(of: "\"", with: "&quot;")
        }
        func alt(_ s: String) -> String { "<rdf:Alt><rdf:li xml:lang=\"x-default\">\(esc(s))</rdf:li></rdf:Alt>" }
        var body = ""
        if let t = d.title, !t.isEmpty { body += "<dc:title>\(alt(t))</dc:title>" }
        if let c = d.caption, !c.isEmpty { body += "<dc:description>\(alt(c))</dc:description>" }
        if let k = d.keywords, !k.isEmpty {
            body += "<dc:subject><rdf:Bag>" + k.map { "<rdf:li>\(esc(Keyword.levels($0).last ?? $0))</rdf:li>" }.joined() + "</rdf:Bag></dc:subject>"
            body += "<lr:hierarchicalSubject><rdf:Bag>" + k.map { "<rdf:li>\(esc(Keyword.lightroom($0)))</rdf:li>" }.joined() + "</rdf:Bag></lr:hierarchicalSubject>"
        }
        if let r = rights { body += "<dc:rights>\(alt(r))</dc:rights>" }
        if let a = creator { body += "<dc:creator><rdf:Seq><rdf:li>\(esc(a))</rdf:li></rdf:Seq></dc:creator>" }
        var attributes = ""
        if let rating = d.rating { attributes += " xmp:Rating=\"\(rating)\"" }
        let packet = """
        <?xpacket begin="\u{FEFF}" id="W5M0MpCehiHzreSzNTczkc9d"?><x:xmpmeta xmlns:x="adobe:ns:meta/">\
        <rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#"><rdf:Description rdf:about="" \
        xmlns:dc="http://purl.org/dc/elements/1.1/" xmlns:xmp="http://ns.adobe.com/xap/1.0/" \
        xmlns:lr="http://ns.adobe.com/lightroom/1.0/"\(attributes)>\(body)</rdf:Description></rdf:RDF></x:xmpmeta><?xpacket end="w"?>
        """
        return Data(packet.utf8)
    }
}

extension ExportMetadata {
    /// The original's EXIF block, if it has one. libvips has no RAW loader;
    /// a RAW's EXIF is read from its TIFF structure when it has one.
    static func originalExif(_ subject: ImageSubject) -> Data? {
        let exif = (try? Image.load(path: subject.originalPath, sequential: true, failOnTruncated: false))?.blob("exif-data")
        _ = Vips.takeError()
        return exif
    }
}

/// Rebuilds an EXIF block (TIFF structure) keeping only the tags a policy
/// allows. The byte order of the original is kept; values are copied as
/// bytes. Hostile input: every offset and count is bounds-checked, and a
/// block that does not parse gives no EXIF at all.
enum ExifRewriter {
    static let copyrightTag: UInt16 = 0x8298
    static let artistTag: UInt16 = 0x013B
    static let orientationTag: UInt16 = 0x0112
    static let exifPointer: UInt16 = 0x8769
    static let gpsPointer: UInt16 = 0x8825

    /// IFD0 tags never copied: the image structure (libvips writes its own),
    /// pointers rebuilt here, DNG serials, XMP/IPTC/ICC embedded in EXIF.
    static let ifd0Structure: Set<UInt16> = [0x0100, 0x0101, 0x0102, 0x0103, 0x0106, 0x0111, 0x0115, 0x0116, 0x0117,
                                             0x011C, 0x0201, 0x0202, 0x014A, 0x02BC, 0x83BB, 0x8773, 0xA005, exifPointer, gpsPointer]
    /// Exif IFD tags never copied: the maker note (its offsets break when
    /// moved, and it holds serial numbers), the interoperability pointer,
    /// the pixel dimensions (libvips writes the output's).
    static let exifStructure: Set<UInt16> = [0x927C, 0xA005, 0xA002, 0xA003]
    /// Tags that identify a person, a place in the picture or a device:
    /// dropped by `no-location` (with the whole GPS IFD).
    static let identifying: Set<UInt16> = [
        0xA430,  // CameraOwnerName
        0xA431,  // BodySerialNumber
        0xA435,  // LensSerialNumber
        0xA420,  // ImageUniqueID
        0xC62F,  // CameraSerialNumber (DNG)
        0x9214,  // SubjectArea (a region)
        0xA214,  // SubjectLocation (a region)
        0x9C9F, 0x9C9D,  // XPSubject, XPAuthor (Windows)
    ]

    struct Entry {
        let tag: UInt16, type: UInt16, count: UInt32
        let value: [UInt8]
    }

    static let typeSizes: [UInt16: Int] = [1: 1, 2: 1, 3: 2, 4: 4, 5: 8, 6: 1, 7: 1, 8: 2, 9: 4, 10: 8, 11: 4, 12: 8, 13: 4]

    struct Reader {
        let b: [UInt8]
        let base: Int   // where the TIFF header starts
        let little: Bool

        func u16(_ o: Int) -> UInt16? {
            guard o >= 0, o + 2 <= b.count else { return nil }
            return little ? UInt16(b[o]) | UInt16(b[o + 1]) << 8 : UInt16(b[o]) << 8 | UInt16(b[o + 1])
        }
        func u32(_ o: Int) -> UInt32? {
            guard o >= 0, o + 4 <= b.count else { return nil }
            let v = (0..<4).map { UInt32(b[o + $0]) }
            return little ? v[0] | v[1] << 8 | v[2] << 16 | v[3] << 24 : v[0] << 24 | v[1] << 16 | v[2] << 8 | v[3]
        }

        /// The entries of the IFD at `offset` (relative to the TIFF header).
        func ifd(_ offset: UInt32) -> [Entry]? {
            let start = base + Int(offset)
            guard let n = u16(start), n <= 1000 else { return nil }
            var entries: [Entry] = []
            for i in 0..<Int(n) {
                let e = start + 2 + i * 12
                guard let tag = u16(e), let type = u16(e + 2), let count = u32(e + 4) else { return nil }
                guard let size = typeSizes[type], count <= 1 << 20 else { continue }
                let length = size * Int(count)
                let at: Int
                if length <= 4 { at = e + 8 } else {
                    guard let off = u32(e + 8) else { return nil }
                    at = base + Int(off)
                }
                guard at >= base, at + length <= b.count else { continue }
                entries.append(Entry(tag: tag, type: type, count: count, value: Array(b[at..<at + length])))
            }
            return entries
        }
    }

    static func reader(_ data: Data) -> (Reader, UInt32)? {
        let b = [UInt8](data)
        var base = 0
        if b.count >= 6, b[0...5].elementsEqual("Exif\0\0".utf8) { base = 6 }
        guard b.count >= base + 8 else { return nil }
        let little: Bool
        switch (b[base], b[base + 1]) {
        case (0x49, 0x49): little = true
        case (0x4D, 0x4D): little = false
        default: return nil
        }
        let r = Reader(b: b, base: base, little: little)
        guard r.u16(base + 2) == 42, let first = r.u32(base + 4) else { return nil }
        return (r, first)
    }

    /// ASCII values of IFD0 `tags` (trimmed, non-empty).
    static func asciiFields(_ data: Data, tags: Set<UInt16>) -> [UInt16: String]? {
        guard let (r, first) = reader(data), let ifd0 = r.ifd(first) else { return nil }
        var out: [UInt16: String] = [:]
        for e in ifd0 where tags.contains(e.tag) && e.type == 2 {
            let text = String(decoding: e.value.prefix { $0 != 0 }, as: UTF8.self).trimmingCharacters(in: .whitespaces)
            if !text.isEmpty { out[e.tag] = text }
        }
        return out
    }

    /// The block rebuilt under `policy` (nil when nothing is left or it does not parse).
    static func rewrite(_ data: Data, policy: ExportMetadataPolicy) -> Data? {
        guard policy != .none, let (r, first) = reader(data), var ifd0 = r.ifd(first) else { return nil }
        let pointer = { (entries: [Entry], tag: UInt16) -> UInt32? in
            guard let e = entries.first(where: { $0.tag == tag && $0.value.count == 4 }) else { return nil }
            return r.u32FromBytes(e.value)
        }
        var exifIFD = pointer(ifd0, exifPointer).flatMap { r.ifd($0) } ?? []
        var gpsIFD = pointer(ifd0, gpsPointer).flatMap { r.ifd($0) } ?? []
        ifd0.removeAll { ifd0Structure.contains($0.tag) || $0.tag == orientationTag }
        exifIFD.removeAll { exifStructure.contains($0.tag) }
        switch policy {
        case .copyright:
            ifd0.removeAll { $0.tag != copyrightTag && $0.tag != artistTag }
            exifIFD = []
            gpsIFD = []
        case .noLocation:
            ifd0.removeAll { identifying.contains($0.tag) }
            exifIFD.removeAll { identifying.contains($0.tag) }
            gpsIFD = []
        case .all, .none:
            break
        }
        // Orientation 1: the pixels are upright.
        ifd0.append(Entry(tag: orientationTag, type: 3, count: 1, value: r.little ? [1, 0] : [0, 1]))
        return write(little: r.little, ifd0: ifd0, exif: exifIFD, gps: gpsIFD)
    }

    /// A TIFF structure: IFD0, then the Exif IFD and GPS IFD it points to.
    static func write(little: Bool, ifd0: [Entry], exif: [Entry], gps: [Entry]) -> Data {
        var out: [UInt8] = Array("Exif\0\0".utf8)
        let base = out.count
        func u16(_ v: UInt16) -> [UInt8] { little ? [UInt8(v & 0xFF), UInt8(v >> 8)] : [UInt8(v >> 8), UInt8(v & 0xFF)] }
        func u32(_ v: UInt32) -> [UInt8] {
            let b = [UInt8(v & 0xFF), UInt8(v >> 8 & 0xFF), UInt8(v >> 16 & 0xFF), UInt8(v >> 24)]
            return little ? b : b.reversed()
        }
        out += little ? [0x49, 0x49] : [0x4D, 0x4D]
        out += u16(42) + u32(8)
        // Sizes: an IFD is 2 + 12n + 4 bytes, then its values longer than 4 bytes.
        func dataSize(_ entries: [Entry]) -> Int { entries.reduce(0) { $0 + ($1.value.count > 4 ? ($1.value.count + 1) & ~1 : 0) } }
        var ifd0 = ifd0
        let hasExif = !exif.isEmpty, hasGPS = !gps.isEmpty
        let placeholder = Entry(tag: 0, type: 4, count: 1, value: [0, 0, 0, 0])
        if hasExif { ifd0.append(Entry(tag: exifPointer, type: 4, count: 1, value: placeholder.value)) }
        if hasGPS { ifd0.append(Entry(tag: gpsPointer, type: 4, count: 1, value: placeholder.value)) }
        let ifd0Size = 2 + 12 * ifd0.count + 4 + dataSize(ifd0)
        let exifOffset = 8 + ifd0Size
        let exifSize = hasExif ? 2 + 12 * exif.count + 4 + dataSize(exif) : 0
        let gpsOffset = exifOffset + exifSize
        ifd0 = ifd0.map { e in
            if e.tag == exifPointer { return Entry(tag: e.tag, type: 4, count: 1, value: u32(UInt32(exifOffset))) }
            if e.tag == gpsPointer { return Entry(tag: e.tag, type: 4, count: 1, value: u32(UInt32(gpsOffset))) }
            return e
        }
        func append(_ entries: [Entry]) {
            let sorted = entries.sorted { $0.tag < $1.tag }
            let start = out.count - base
            var dataOffset = start + 2 + 12 * sorted.count + 4
            var values: [UInt8] = []
            out += u16(UInt16(sorted.count))
            for e in sorted {
                out += u16(e.tag) + u16(e.type) + u32(e.count)
                if e.value.count <= 4 {
                    out += e.value + [UInt8](repeating: 0, count: 4 - e.value.count)
                } else {
                    out += u32(UInt32(dataOffset))
                    var v = e.value
                    if v.count % 2 == 1 { v.append(0) }
                    values += v
                    dataOffset += v.count
                }
            }
            out += u32(0) + values
        }
        append(ifd0)
        if hasExif { append(exif) }
        if hasGPS { append(gps) }
        return Data(out)
    }
}

extension ExifRewriter.Reader {
    func u32FromBytes(_ v: [UInt8]) -> UInt32 {
        let w = v.map(UInt32.init)
        return little ? w[0] | w[1] << 8 | w[2] << 16 | w[3] << 24 : w[0] << 24 | w[1] << 16 | w[2] << 8 | w[3]
    }
}
