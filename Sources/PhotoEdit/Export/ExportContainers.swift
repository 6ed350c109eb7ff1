import Foundation

/// Removes the EXIF block libvips 8.14 always writes (it makes a fresh one
/// with the resolution when an image has none: `vips__exif_update`) from
/// an encoded file, for the `none` metadata policy. Only containers are
/// touched: the pixels' bytes and the ICC profile stay as encoded.
enum ExportContainers {
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
}
