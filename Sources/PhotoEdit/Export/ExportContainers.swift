import Foundation

/// Removes the EXIF block libvips 8.14 always writes (it makes a fresh one
/// with the resolution when an image has none: `vips__exif_update`) from
/// an encoded file (JPEG, WebP, AVIF/HEIC), for the `none` metadata policy. Only containers are
/// touched: the pixels' bytes and the ICC profile stay as encoded.
enum ExportContainers {
    /// `data` (encoded as `format`) with the EXIF libvips generated removed
    /// when the policy is `none`; any other policy's bytes as they are.
    static func withoutGeneratedExif(_ data: Data, format: ExportFormat, policy: ExportMetadataPolicy) -> Data {
        guard policy == .none else { return data }
        switch format {
        case .jpeg: return jpegWithoutExif(data)
        case .webp: return webpWithoutExif(data)
        case .avif, .heic: return heifWithoutExif(data)
        default: return data
        }
    }

    /// JPEG: drops every APP1 segment that holds EXIF ("Exif\0\0").
    static func jpegWithoutExif(_ data: Data) -> Data {
        let b = [UInt8](data)
        guard b.count > 4, b[0] == 0xFF, b[1] == 0xD8 else { return data }
        var out: [UInt8] = [0xFF, 0xD8]
        var i = 2
        while i + 4 <= b.count, b[i] == 0xFF {
            let marker = b[i + 1]
            if marker == 0xDA { break }   // start of scan: the rest is image data
            let length = Int(b[i + 2]) << 8 | Int(b[i + 3])
            guard length >= 2, i + 2 + length <= b.count else { return data }
            let payload = b[(i + 4)..<(i + 2 + length)]
            let isExif = marker == 0xE1 && payload.starts(with: Array("Exif\0\0".utf8))
            if !isExif { out += b[i..<(i + 2 + length)] }
            i += 2 + length
        }
        out += b[i...]
        return Data(out)
    }

    /// WebP: drops the EXIF and XMP chunks and clears their flags in VP8X.
    static func webpWithoutExif(_ data: Data) -> Data {
        let b = [UInt8](data)
        guard b.count >= 12, b[0..<4].elementsEqual("RIFF".utf8), b[8..<12].elementsEqual("WEBP".utf8) else { return data }
        var out: [UInt8] = Array(b[0..<12])
        var i = 12
        while i + 8 <= b.count {
            let fourCC = String(decoding: b[i..<(i + 4)], as: UTF8.self)
            let size = Int(b[i + 4]) | Int(b[i + 5]) << 8 | Int(b[i + 6]) << 16 | Int(b[i + 7]) << 24
            let end = i + 8 + size + (size & 1)
            guard size >= 0, end <= b.count || (end == b.count + 1 && size & 1 == 1) else { return data }
            var chunk = Array(b[i..<min(end, b.count)])
            if fourCC == "VP8X", chunk.count > 8 { chunk[8] &= ~UInt8(0x08 | 0x04) }
            if fourCC != "EXIF" && fourCC != "XMP " { out += chunk }
            i = end
        }
        let riff = UInt32(out.count - 8)
        out[4] = UInt8(riff & 0xFF); out[5] = UInt8(riff >> 8 & 0xFF); out[6] = UInt8(riff >> 16 & 0xFF); out[7] = UInt8(riff >> 24)
        return Data(out)
    }

    /// AVIF and HEIC: removes the `Exif` item libvips' heifsave always adds
    /// (it calls `vips__exif_update` unless `strip`, and `strip` drops the
    /// ICC profile too). In the `meta` box: its `infe` entry, its `iloc`
    /// entry and its `cdsc` reference go; its bytes in `mdat` are zeroed; the
    /// file offsets of the other items move by what `meta` lost. A file this
    /// does not understand (or an Exif item with properties) is returned as
    /// it is: the tests read the result with exiftool.
    static func heifWithoutExif(_ data: Data) -> Data {
        var b = [UInt8](data)
        guard let meta = ISOBox.children(of: b, from: 0, to: b.count).first(where: { $0.type == "meta" }), meta.header == 8 else { return data }
        let metaBody = meta.start + meta.header + 4   // a full box: version and flags
        let children = ISOBox.children(of: b, from: metaBody, to: meta.end)
        guard let iinf = children.first(where: { $0.type == "iinf" }), let iloc = children.first(where: { $0.type == "iloc" }),
              var items = ISOBox.ItemInfo(b, iinf), var locations = ISOBox.ItemLocations(b, iloc),
              let exif = items.entries.first(where: { $0.type == "Exif" })?.id,
              children.allSatisfy({ $0.header == 8 }) else { return data }
        if let iprp = children.first(where: { $0.type == "iprp" }),
           let ipma = ISOBox.children(of: b, from: iprp.start + iprp.header, to: iprp.end).first(where: { $0.type == "ipma" }),
           ISOBox.associates(b, ipma, item: exif) { return data }
        // Zero the Exif bytes where they are (file offsets, construction method 0).
        if let entry = locations.entries.first(where: { $0.id == exif }), entry.method == 0, entry.reference == 0 {
            for extent in entry.extents {
                let start = entry.base + extent.offset
                guard start >= 0, extent.length >= 0, start + extent.length <= b.count else { return data }
                for i in start..<(start + extent.length) { b[i] = 0 }
            }
        }
        items.entries.removeAll { $0.id == exif }
        locations.entries.removeAll { $0.id == exif }
        var rebuilt: [UInt8] = []
        for child in children {
            switch child.type {
            case "iinf": rebuilt += items.box(b)
            case "iloc": rebuilt += [0, 0, 0, 0]   // written last: its offsets depend on the new size
            case "iref": rebuilt += ISOBox.referencesWithout(b, child, item: exif)
            default: rebuilt += b[child.start..<child.end]
            }
        }
        // The new iloc has the old one's size less the removed entry; the
        // offsets after `meta` move by what it lost.
        let ilocProbe = locations.box(shift: 0, after: Int.max)
        let delta = (meta.end - meta.start) - (8 + 4 + rebuilt.count - 4 + ilocProbe.count)
        let ilocBox = locations.box(shift: -delta, after: meta.end)
        guard delta >= 0, ilocBox.count == ilocProbe.count else { return data }
        var body: [UInt8] = []
        for child in children {
            switch child.type {
            case "iinf": body += items.box(b)
            case "iloc": body += ilocBox
            case "iref": body += ISOBox.referencesWithout(b, child, item: exif)
            default: body += b[child.start..<child.end]
            }
        }
        let size = 8 + 4 + body.count
        guard size == meta.end - meta.start - delta else { return data }
        var out = Array(b[0..<meta.start])
        out += ISOBox.u32(UInt32(size)) + Array("meta".utf8) + b[(meta.start + 8)..<(meta.start + 12)] + body
        out += b[meta.end...]
        return Data(out)
    }
}

/// ISO base media file format boxes (HEIF: ISO/IEC 23008-12; ISO/IEC
/// 14496-12 for `iinf`, `iloc`, `iref`), read bounds-checked: the few the
/// Exif removal needs.
enum ISOBox {
    struct Box {
        let type: String
        let start: Int
        /// Header bytes (8, or 16 with a 64-bit size).
        let header: Int
        let end: Int
    }

    static func u32(_ v: UInt32) -> [UInt8] { [UInt8(v >> 24), UInt8(v >> 16 & 0xFF), UInt8(v >> 8 & 0xFF), UInt8(v & 0xFF)] }

    static func read(_ b: [UInt8], _ at: Int, _ size: Int) -> Int? {
        guard size >= 0, size <= 8, at >= 0, at + size <= b.count else { return nil }
        var v = 0
        for i in 0..<size { v = v << 8 | Int(b[at + i]) }
        return v
    }

    static func write(_ v: Int, _ size: Int) -> [UInt8] {
        (0..<size).map { UInt8(truncatingIfNeeded: v >> (8 * (size - 1 - $0))) }
    }

    /// The boxes one after another in `from..<to`; stops at one that does not fit.
    static func children(of b: [UInt8], from: Int, to: Int) -> [Box] {
        var out: [Box] = [], at = from
        while at + 8 <= to, let size32 = read(b, at, 4) {
            let type = String(decoding: b[(at + 4)..<(at + 8)], as: UTF8.self)
            var size = size32, header = 8
            if size == 1 {
                guard let large = read(b, at + 8, 8) else { break }
                size = large
                header = 16
            } else if size == 0 {
                size = to - at
            }
            guard size >= header, at + size <= to else { break }
            out.append(Box(type: type, start: at, header: header, end: at + size))
            at += size
        }
        return out
    }

    /// `iinf`: its `infe` entries (id and item type).
    struct ItemInfo {
        struct Entry { let id: Int; let type: String; let box: Box }
        let version: Int
        let header: [UInt8]
        var entries: [Entry]

        init?(_ b: [UInt8], _ iinf: Box) {
            guard let version = ISOBox.read(b, iinf.start + iinf.header, 1) else { return nil }
            self.version = version
            let countSize = version == 0 ? 2 : 4
            let first = iinf.start + iinf.header + 4 + countSize
            header = Array(b[(iinf.start + 8)..<(iinf.start + iinf.header + 4)])
            var entries: [Entry] = []
            for infe in ISOBox.children(of: b, from: first, to: iinf.end) where infe.type == "infe" {
                let body = infe.start + infe.header
                guard let v = ISOBox.read(b, body, 1), v >= 2 else { return nil }
                let idSize = v == 2 ? 2 : 4
                guard let id = ISOBox.read(b, body + 4, idSize), body + 4 + idSize + 2 + 4 <= infe.end else { return nil }
                let typeAt = body + 4 + idSize + 2
                entries.append(Entry(id: id, type: String(decoding: b[typeAt..<(typeAt + 4)], as: UTF8.self), box: infe))
            }
            self.entries = entries
        }

        func box(_ b: [UInt8]) -> [UInt8] {
            var body = header + ISOBox.write(entries.count, version == 0 ? 2 : 4)
            for e in entries { body += b[e.box.start..<e.box.end] }
            return ISOBox.u32(UInt32(8 + body.count)) + Array("iinf".utf8) + body
        }
    }

    /// `iloc`: every item's place (version 0, 1 or 2).
    struct ItemLocations {
        struct Extent { var index: Int; var offset: Int; var length: Int }
        struct Entry { var id: Int; var method: Int; var reference: Int; var base: Int; var extents: [Extent] }
        let versionAndFlags: [UInt8]
        let version: Int
        let offsetSize: Int, lengthSize: Int, baseSize: Int, indexSize: Int
        var entries: [Entry]

        init?(_ b: [UInt8], _ iloc: Box) {
            var at = iloc.start + iloc.header
            guard let version = ISOBox.read(b, at, 1), version <= 2, let sizes = ISOBox.read(b, at + 4, 1),
                  let sizes2 = ISOBox.read(b, at + 5, 1) else { return nil }
            versionAndFlags = Array(b[at..<(at + 4)])
            self.version = version
            offsetSize = sizes >> 4; lengthSize = sizes & 15; baseSize = sizes2 >> 4
            indexSize = version >= 1 ? sizes2 & 15 : 0
            at += 6
            let idSize = version == 2 ? 4 : 2
            guard let count = ISOBox.read(b, at, idSize) else { return nil }
            at += idSize
            var entries: [Entry] = []
            for _ in 0..<count {
                guard let id = ISOBox.read(b, at, idSize) else { return nil }
                at += idSize
                var method = 0
                if version >= 1 {
                    guard let m = ISOBox.read(b, at, 2) else { return nil }
                    method = m & 15
                    at += 2
                }
                guard let reference = ISOBox.read(b, at, 2), let base = ISOBox.read(b, at + 2, baseSize),
                      let extentCount = ISOBox.read(b, at + 2 + baseSize, 2) else { return nil }
                at += 4 + baseSize
                var extents: [Extent] = []
                for _ in 0..<extentCount {
                    guard let index = ISOBox.read(b, at, indexSize), let offset = ISOBox.read(b, at + indexSize, offsetSize),
                          let length = ISOBox.read(b, at + indexSize + offsetSize, lengthSize) else { return nil }
                    at += indexSize + offsetSize + lengthSize
                    extents.append(Extent(index: index, offset: offset, length: length))
                }
                entries.append(Entry(id: id, method: method, reference: reference, base: base, extents: extents))
            }
            guard at <= iloc.end else { return nil }
            self.entries = entries
        }

        /// The box, file offsets at or past `after` moved by `shift`
        /// (through the base offset when there is one, else each extent's).
        func box(shift: Int, after: Int) -> [UInt8] {
            let idSize = version == 2 ? 4 : 2
            var body = versionAndFlags + [UInt8(offsetSize << 4 | lengthSize), UInt8(baseSize << 4 | indexSize)]
            body += ISOBox.write(entries.count, idSize)
            for var e in entries {
                if e.method == 0 && e.reference == 0 && shift != 0 {
                    if baseSize > 0 && e.base >= after {
                        e.base += shift
                    } else {
                        for i in e.extents.indices where e.base + e.extents[i].offset >= after { e.extents[i].offset += shift }
                    }
                }
                body += ISOBox.write(e.id, idSize)
                if version >= 1 { body += ISOBox.write(e.method, 2) }
                body += ISOBox.write(e.reference, 2) + ISOBox.write(e.base, baseSize) + ISOBox.write(e.extents.count, 2)
                for x in e.extents {
                    body += ISOBox.write(x.index, indexSize) + ISOBox.write(x.offset, offsetSize) + ISOBox.write(x.length, lengthSize)
                }
            }
            return ISOBox.u32(UInt32(8 + body.count)) + Array("iloc".utf8) + body
        }
    }

    /// `iref` without the references from `item` (and `item` removed from the others).
    static func referencesWithout(_ b: [UInt8], _ iref: Box, item: Int) -> [UInt8] {
        guard let version = read(b, iref.start + iref.header, 1) else { return Array(b[iref.start..<iref.end]) }
        let idSize = version == 0 ? 2 : 4
        var body = Array(b[(iref.start + 8)..<(iref.start + iref.header + 4)])
        for ref in children(of: b, from: iref.start + iref.header + 4, to: iref.end) {
            let at = ref.start + ref.header
            guard let from = read(b, at, idSize), let count = read(b, at + idSize, 2) else { return Array(b[iref.start..<iref.end]) }
            if from == item { continue }
            let targets = (0..<count).compactMap { read(b, at + idSize + 2 + $0 * idSize, idSize) }.filter { $0 != item }
            if targets.isEmpty { continue }
            var entry = write(from, idSize) + write(targets.count, 2)
            for t in targets { entry += write(t, idSize) }
            body += u32(UInt32(8 + entry.count)) + Array(b[(ref.start + 4)..<(ref.start + 8)]) + entry
        }
        return u32(UInt32(8 + body.count)) + Array("iref".utf8) + body
    }

    /// Whether `ipma` gives `item` any property.
    static func associates(_ b: [UInt8], _ ipma: Box, item: Int) -> Bool {
        var at = ipma.start + ipma.header
        guard let version = read(b, at, 1), let flags = read(b, at + 1, 3), let count = read(b, at + 4, 4) else { return true }
        at += 8
        let idSize = version < 1 ? 2 : 4, propertySize = flags & 1 == 1 ? 2 : 1
        for _ in 0..<count {
            guard let id = read(b, at, idSize), let n = read(b, at + idSize, 1) else { return true }
            if id == item && n > 0 { return true }
            at += idSize + 1 + n * propertySize
        }
        return false
    }
}
