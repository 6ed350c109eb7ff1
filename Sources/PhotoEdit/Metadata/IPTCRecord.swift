import Foundation

/// The older IPTC-IIM metadata (Photoshop's "File Info", Picasa, newspaper
/// workflows): keywords (2:25), title (2:05 Object Name) and caption
/// (2:120 Caption-Abstract), as libvips hands it over in `iptc-data` — a
/// JPEG's APP13 segment (`Photoshop 3.0`, image resource blocks, the IPTC
/// one 0x0404) or a TIFF's IIM records as they are.
///
/// Hostile input is bounded: at most `maxBytes`, `maxDataSets` records;
/// extended-length records, a record running past the end and a resource
/// block that does are refused.
struct IPTCRecord {
    static let maxBytes = 1 << 20
    static let maxDataSets = 10_000

    private(set) var keywords: [String] = []
    private(set) var title: String?
    private(set) var caption: String?

    init(data input: Data) throws(XMPProblem) {
        guard input.count <= Self.maxBytes else { throw XMPProblem("IPTC data larger than 1 MiB") }
        let bytes = [UInt8](input)
        let iim = Array(try Self.iimBytes(bytes))
        var i = 0
        var count = 0
        var utf8 = false
        var raw: [(record: UInt8, dataSet: UInt8, value: ArraySlice<UInt8>)] = []
        while i < iim.count {
            // Padding after the last record.
            if iim[i] == 0 { break }
            guard iim[i] == 0x1C, i + 5 <= iim.count else { throw XMPProblem("IPTC data is damaged") }
            let record = iim[i + 1], dataSet = iim[i + 2]
            let length = Int(iim[i + 3]) << 8 | Int(iim[i + 4])
            guard length & 0x8000 == 0, i + 5 + length <= iim.count else { throw XMPProblem("IPTC data is damaged") }
            count += 1
            guard count <= Self.maxDataSets else { throw XMPProblem("more than \(Self.maxDataSets) IPTC records") }
            let value = iim[(i + 5)..<(i + 5 + length)]
            // 1:90 Coded Character Set: ESC % G is UTF-8.
            if record == 1 && dataSet == 90 && Array(value) == [0x1B, 0x25, 0x47] { utf8 = true }
            raw.append((record, dataSet, value))
            i += 5 + length
        }
        func text(_ value: ArraySlice<UInt8>) -> String {
            // Without the UTF-8 mark, text that is valid UTF-8 is taken as
            // such (most writers), anything else as Latin-1 (the IIM default).
            if let s = String(validating: value, as: UTF8.self) { return s }
            return utf8 ? String(decoding: value, as: UTF8.self) : String(value.map { Character(Unicode.Scalar($0)) })
        }
        do {
            for r in raw where r.record == 2 {
                switch r.dataSet {
                case 25: keywords.append(try Keyword.normalized(Keyword.join([text(r.value)])))
                case 5: title = try DescriptiveMetadata.checkedText(text(r.value), "title")
                case 120: caption = try DescriptiveMetadata.checkedText(text(r.value), "caption")
                default: break
                }
            }
        } catch {
            throw XMPProblem("an IPTC keyword, title or caption is empty, too long or holds control characters")
        }
        keywords = Keyword.unique(keywords)
        guard keywords.count <= Keyword.maxPerPhoto else { throw XMPProblem("more than \(Keyword.maxPerPhoto) IPTC keywords") }
    }

    /// The IIM records: inside a Photoshop APP13 segment, the data of its
    /// IPTC resource block (0x0404); else the data as it is.
    private static func iimBytes(_ bytes: [UInt8]) throws(XMPProblem) -> ArraySlice<UInt8> {
        let header = Array("Photoshop 3.0\0".utf8)
        guard bytes.starts(with: header) else { return bytes[...] }
        var i = header.count
        func be(_ at: Int, _ n: Int) -> Int { (0..<n).reduce(0) { $0 << 8 | Int(bytes[at + $1]) } }
        while i + 4 <= bytes.count, bytes[i..<(i + 4)].elementsEqual("8BIM".utf8) {
            guard i + 7 <= bytes.count else { throw XMPProblem("IPTC data is damaged") }
            let id = be(i + 4, 2)
            let nameLength = Int(bytes[i + 6])
            // The Pascal name, with its length byte, padded to an even size.
            var at = i + 6 + ((nameLength + 2) & ~1)
            guard at + 4 <= bytes.count else { throw XMPProblem("IPTC data is damaged") }
            let size = be(at, 4)
            at += 4
            guard size <= bytes.count - at else { throw XMPProblem("IPTC data is damaged") }
            if id == 0x0404 { return bytes[at..<(at + size)] }
            i = at + ((size + 1) & ~1)
        }
        return []
    }

    /// The metadata the record sets (nil members where it has none).
    var descriptiveMetadata: DescriptiveMetadata {
        DescriptiveMetadata(keywords: keywords.isEmpty ? nil : keywords, title: title, caption: caption)
    }
}
