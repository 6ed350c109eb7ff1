// Only with the `Server` trait (Package.swift): without it the module is empty.
#if Server
import Foundation

/// A ZIP archive written as a stream, entry by entry, files stored as they
/// are (encoded photos do not deflate): each entry's bytes go out as soon
/// as they are known, so an export of hundreds of photos never sits in
/// memory. ZIP64 records are added when offsets or the entry count outgrow
/// the classic format (archives past 4 GiB or 65 535 files).
struct ZipStream {
    private struct Entry {
        let name: [UInt8]
        let crc: UInt32
        let size: UInt64
        let offset: UInt64
        let time: UInt16
        let date: UInt16
    }

    private var entries: [Entry] = []
    private var names: Set<String> = []
    /// Bytes written so far.
    private(set) var offset: UInt64 = 0

    /// An entry's name: relative, `/`-separated, no `..`, no NUL, at most 255 bytes.
    static func isSafeName(_ name: String) -> Bool {
        let parts = name.split(separator: "/", omittingEmptySubsequences: false)
        return !name.isEmpty && name.utf8.count <= 255 && !name.hasPrefix("/") && !name.contains("\0") && !name.contains("\\")
            && parts.allSatisfy { !$0.isEmpty && $0 != "." && $0 != ".." }
    }

    /// The local header and the bytes of one file (at most 4 GiB − 1).
    mutating func entry(name: String, data: Data, modified: Date = Date()) throws -> [UInt8] {
        guard Self.isSafeName(name), !names.contains(name) else {
            throw PhotoEditZipError("the archive entry name '\(name.prefix(100))' is unsafe or used twice")
        }
        guard data.count < 0xFFFF_FFFF else { throw PhotoEditZipError("\(name) is larger than a ZIP entry holds (4 GiB)") }
        names.insert(name)
        let (time, date) = Self.dos(modified)
        let entry = Entry(name: Array(name.utf8), crc: CRC32.checksum(data), size: UInt64(data.count), offset: offset, time: time, date: date)
        var out: [UInt8] = []
        out.reserveCapacity(30 + entry.name.count + data.count)
        out.le32(0x0403_4b50)
        out.le16(20)                       // version needed: 2.0
        out.le16(0x0800)                   // names are UTF-8
        out.le16(0)                        // stored
        out.le16(time); out.le16(date)
        out.le32(entry.crc)
        out.le32(UInt32(data.count)); out.le32(UInt32(data.count))
        out.le16(UInt16(entry.name.count)); out.le16(0)
        out += entry.name
        out += data
        entries.append(entry)
        offset += UInt64(out.count)
        return out
    }

    /// The central directory and the end records: the archive's last bytes.
    mutating func finish() -> [UInt8] {
        let directoryOffset = offset
        var out: [UInt8] = []
        for e in entries {
            let farOffset = e.offset >= 0xFFFF_FFFF
            out.le32(0x0201_4b50)
            out.le16(0x031E)               // made by: Unix, 3.0
            out.le16(farOffset ? 45 : 20)
            out.le16(0x0800); out.le16(0)
            out.le16(e.time); out.le16(e.date)
            out.le32(e.crc)
            out.le32(UInt32(e.size)); out.le32(UInt32(e.size))
            out.le16(UInt16(e.name.count))
            out.le16(farOffset ? 12 : 0)   // extra: ZIP64 offset
            out.le16(0)                    // comment
            out.le16(0); out.le16(0)       // disk, internal attributes
            out.le32(0o100644 << 16)       // a regular file, rw-r--r--
            out.le32(farOffset ? 0xFFFF_FFFF : UInt32(e.offset))
            out += e.name
            if farOffset {
                out.le16(0x0001); out.le16(8); out.le64(e.offset)
            }
        }
        let directorySize = UInt64(out.count)
        let count = UInt64(entries.count)
        let needs64 = directoryOffset >= 0xFFFF_FFFF || count >= 0xFFFF || directorySize >= 0xFFFF_FFFF
        if needs64 {
            let record = directoryOffset + directorySize
            out.le32(0x0606_4b50); out.le64(44)
            out.le16(0x031E); out.le16(45)
            out.le32(0); out.le32(0)
            out.le64(count); out.le64(count)
            out.le64(directorySize); out.le64(directoryOffset)
            out.le32(0x0706_4b50); out.le32(0); out.le64(record); out.le32(1)
        }
        out.le32(0x0605_4b50)
        out.le16(0); out.le16(0)
        out.le16(needs64 ? 0xFFFF : UInt16(count)); out.le16(needs64 ? 0xFFFF : UInt16(count))
        out.le32(needs64 ? 0xFFFF_FFFF : UInt32(directorySize))
        out.le32(needs64 ? 0xFFFF_FFFF : UInt32(directoryOffset))
        out.le16(0)
        offset += UInt64(out.count)
        return out
    }

    /// MS-DOS time and date (local time, 2-second steps, 1980 on).
    static func dos(_ date: Date) -> (UInt16, UInt16) {
        let c = Calendar(identifier: .gregorian).dateComponents([.year, .month, .day, .hour, .minute, .second], from: date)
        let year = max(1980, min(2107, c.year ?? 1980))
        let time = UInt16((c.hour ?? 0) << 11 | (c.minute ?? 0) << 5 | (c.second ?? 0) / 2)
        let day = UInt16((year - 1980) << 9 | (c.month ?? 1) << 5 | (c.day ?? 1))
        return (time, day)
    }
}

/// A ZIP entry that cannot be written.
struct PhotoEditZipError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

/// CRC-32 (IEEE 802.3, as ZIP and PNG use), table-driven.
enum CRC32 {
    static let table: [UInt32] = (0..<256).map { n in
        var c = UInt32(n)
        for _ in 0..<8 { c = c & 1 != 0 ? 0xEDB8_8320 ^ (c >> 1) : c >> 1 }
        return c
    }

    static func checksum(_ data: Data) -> UInt32 {
        var crc: UInt32 = 0xFFFF_FFFF
        data.withUnsafeBytes { raw in
            for byte in raw { crc = table[Int((crc ^ UInt32(byte)) & 0xFF)] ^ (crc >> 8) }
        }
        return crc ^ 0xFFFF_FFFF
    }
}

private extension Array where Element == UInt8 {
    mutating func le16(_ v: UInt16) { append(UInt8(v & 0xFF)); append(UInt8(v >> 8)) }
    mutating func le32(_ v: UInt32) { for i in 0..<4 { append(UInt8((v >> (8 * UInt32(i))) & 0xFF)) } }
    mutating func le64(_ v: UInt64) { for i in 0..<8 { append(UInt8((v >> (8 * UInt64(i))) & 0xFF)) } }
}
#endif
