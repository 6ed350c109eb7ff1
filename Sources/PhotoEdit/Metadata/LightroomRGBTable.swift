import CZlib
import Crypto
import Foundation

/// A look table of a Lightroom profile or preset (`crs:RGBTable` names it,
/// `crs:Table_<MD5>` holds it), decoded from the text Adobe writes.
///
/// The layout is the one of Adobe's public DNG SDK (`dng_big_table.cpp`,
/// docs/xmp.md): a base-85 variant whose bytes are the uncompressed size
/// (32-bit little-endian) and a zlib stream; the stream (little-endian) holds
/// the kind (`1`), the version (`1`), the dimensions (1 or 3), the divisions,
/// each node's three 16-bit deltas from the identity ramp, then the table's
/// primaries, gamma, gamut handling and the amount slider's range. Every size
/// is checked before it is used: a packet can claim anything.
public struct LightroomRGBTable: Sendable, Equatable {
    /// The RGB primaries the table's input and output are expressed in.
    public enum Primaries: UInt32, Sendable, CaseIterable {
        case sRGB = 0, adobeRGB, proPhoto, displayP3, rec2020
    }

    /// The transfer curve the table's input and output are encoded with.
    public enum Gamma: UInt32, Sendable, CaseIterable {
        case linear = 0, sRGB, g18, g22, rec2020
    }

    /// What happens to colours the table moves outside its primaries' gamut.
    public enum Gamut: UInt32, Sendable, CaseIterable {
        case clip = 0, extend
    }

    /// 1 (three curves) or 3 (a cube).
    public let dimensions: Int
    /// Nodes per axis: 2…4096 for curves, 2…32 for a cube.
    public let divisions: Int
    /// The nodes' RGB values (0…65535): for a cube, red slowest and blue
    /// fastest (Adobe's order), three values a node; for curves, one RGB a division.
    public let samples: [UInt16]
    public let primaries: Primaries
    public let gamma: Gamma
    public let gamut: Gamut
    /// The amount slider's range (Lightroom's profile amount: 0…`minAmount`…1…`maxAmount`).
    public let minAmount: Double
    public let maxAmount: Double
    /// The MD5 of the decoded stream, 32 uppercase hexadecimal digits: the
    /// `<id>` of `crs:Table_<id>` Adobe writes for it.
    public let fingerprint: String

    /// The largest encoded text read (a 32³ table is ~200 KB of text).
    public static let maxTextLength = 4 << 20
    /// The largest decoded stream (a 32³ table is 196 636 bytes; 4096 curve nodes 24 620).
    public static let maxStreamSize = 1 << 20
    static let divisions1D = 2...4096
    static let divisions3D = 2...32

    /// Decodes the text of a `crs:Table_<id>` property. Errors are one line
    /// (`PhotoEditError.invalidAdjustmentData`) and never echo the text.
    public static func decode(_ text: String) throws -> LightroomRGBTable {
        try decode(bytes: base85(text))
    }

    static func fail(_ problem: String) -> PhotoEditError {
        .invalidAdjustmentData("Lightroom look table (RGBTable): \(problem)")
    }

    /// Adobe's base-85 variant: 5 characters a little-endian 32-bit word,
    /// least significant digit first; characters outside the alphabet are
    /// skipped; a last group of 2…4 characters gives 1…3 bytes.
    static func base85(_ text: String) throws -> [UInt8] {
        let utf8 = text.utf8
        guard utf8.count <= maxTextLength else { throw fail("longer than \(maxTextLength >> 20) MB of text") }
        var out: [UInt8] = []
        out.reserveCapacity(utf8.count / 5 * 4 + 4)
        var phase = 0
        var value: UInt64 = 0
        var scale: UInt64 = 1
        for byte in utf8 {
            guard let digit = decodeTable[Int(byte)] else { continue }
            value += UInt64(digit) * scale
            scale *= 85
            phase += 1
            if phase == 5 {
                guard value <= UInt64(UInt32.max) else { throw fail("not Adobe's base-85 text (a group exceeds 32 bits)") }
                out += [UInt8(value & 0xFF), UInt8(value >> 8 & 0xFF), UInt8(value >> 16 & 0xFF), UInt8(value >> 24 & 0xFF)]
                phase = 0; value = 0; scale = 1
            }
        }
        if phase > 1 { for i in 0..<(phase - 1) { out.append(UInt8(value >> (8 * UInt64(i)) & 0xFF)) } }
        return out
    }

    /// The base-85 alphabet's digit of each byte (nil: skipped).
    static let decodeTable: [UInt8?] = {
        var table = [UInt8?](repeating: nil, count: 256)
        for (i, c) in alphabet.utf8.enumerated() { table[Int(c)] = UInt8(i) }
        return table
    }()

    /// Adobe's text of a binary form (the inverse of `base85`): 4 bytes as 5
    /// digits, least significant first; a last group of k bytes as k + 1.
    static func text(_ bytes: [UInt8]) -> String {
        let digits = Array(alphabet.utf8)
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count / 4 * 5 + 5)
        for start in stride(from: 0, to: bytes.count, by: 4) {
            let k = min(4, bytes.count - start)
            var value: UInt32 = 0
            for j in 0..<k { value |= UInt32(bytes[start + j]) << (8 * UInt32(j)) }
            for _ in 0..<(k == 4 ? 5 : k + 1) { out.append(digits[Int(value % 85)]); value /= 85 }
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// Adobe's base-85 alphabet (digit 0 first).
    static let alphabet = "0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ.-:+=^!/*?`'|()[]{}@%$#"

    /// Decodes the binary form: the uncompressed size, then the zlib stream.
    public static func decode(bytes: [UInt8]) throws -> LightroomRGBTable {
        guard bytes.count >= 5 else { throw fail("too short to hold a table") }
        let size = Int(bytes[0]) | Int(bytes[1]) << 8 | Int(bytes[2]) << 16 | Int(bytes[3]) << 24
        guard size >= 16, size <= maxStreamSize else {
            throw fail("claims \(size) bytes uncompressed (16 to \(maxStreamSize) expected)")
        }
        var stream = [UInt8](repeating: 0, count: size)
        var length = uLongf(size)
        let status = bytes.withUnsafeBufferPointer { source in
            stream.withUnsafeMutableBufferPointer { target in
                uncompress(target.baseAddress, &length, source.baseAddress! + 4, uLong(source.count - 4))
            }
        }
        guard status == Z_OK else {
            throw fail(status == Z_BUF_ERROR ? "the compressed data is larger than its stated size" : "the compressed data is damaged (zlib \(status))")
        }
        guard Int(length) == size else { throw fail("\(length) bytes uncompressed, \(size) stated") }
        return try parse(stream: stream)
    }

    /// Reads the uncompressed stream (`dng_rgb_table::GetStream`).
    static func parse(stream: [UInt8]) throws -> LightroomRGBTable {
        var reader = Reader(bytes: stream)
        guard try reader.uint32() == 1 else { throw fail("not an RGB table (its kind is not 1)") }
        let version = try reader.uint32()
        guard version == 1 else { throw fail("version \(version) is not known (1 expected)") }
        let dimensions = try reader.uint32(), divisions = try reader.uint32()
        let nodes: Int
        switch dimensions {
        case 1:
            guard divisions1D.contains(Int(divisions)) else { throw fail("\(divisions) curve divisions (2 to 4096 expected)") }
            nodes = Int(divisions)
        case 3:
            guard divisions3D.contains(Int(divisions)) else { throw fail("\(divisions) divisions (2 to 32 expected)") }
            nodes = Int(divisions * divisions * divisions)
        default:
            throw fail("\(dimensions) dimensions (1 or 3 expected)")
        }
        let n = Int(divisions)
        // Adobe's ramp, cast to 16 bits as the SDK does (at 2 divisions its top is 65536 → 0).
        let identity = (0..<n).map { UInt16(truncatingIfNeeded: ($0 * 0xFFFF + n / 2) / (n - 1)) }
        // Every node's deltas, then primaries, gamma, gamut (3 × 4) and the amounts (2 × 8).
        guard reader.remaining >= nodes * 6 + 28 else {
            throw fail("\(stream.count) bytes, too few for \(nodes) nodes")
        }
        var samples = [UInt16](repeating: 0, count: nodes * 3)
        var k = 0
        if dimensions == 1 {
            for i in 0..<n { for _ in 0..<3 { samples[k] = try reader.uint16() &+ identity[i]; k += 1 } }
        } else {
            for r in 0..<n { for g in 0..<n { for b in 0..<n {
                samples[k] = try reader.uint16() &+ identity[r]
                samples[k + 1] = try reader.uint16() &+ identity[g]
                samples[k + 2] = try reader.uint16() &+ identity[b]
                k += 3
            } } }
        }
        let p = try reader.uint32(), gm = try reader.uint32(), gt = try reader.uint32()
        guard let primaries = Primaries(rawValue: p) else { throw fail("unknown primaries \(p)") }
        guard let gamma = Gamma(rawValue: gm) else { throw fail("unknown gamma \(gm)") }
        guard let gamut = Gamut(rawValue: gt) else { throw fail("unknown gamut handling \(gt)") }
        let minAmount = try reader.double(), maxAmount = try reader.double()
        guard minAmount.isFinite, maxAmount.isFinite, (0...1).contains(minAmount), maxAmount >= 1, maxAmount <= 100 else {
            throw fail("its amount range is not 0…1 to 1…100")
        }
        let digest = Insecure.MD5.hash(data: stream).map { String(format: "%02X", $0) }.joined()
        return LightroomRGBTable(dimensions: Int(dimensions), divisions: n, samples: samples, primaries: primaries,
                                 gamma: gamma, gamut: gamut, minAmount: minAmount, maxAmount: maxAmount, fingerprint: digest)
    }

    /// A little-endian reader that never reads past the end.
    struct Reader {
        let bytes: [UInt8]
        var at = 0
        var remaining: Int { bytes.count - at }

        mutating func take(_ count: Int) throws -> ArraySlice<UInt8> {
            guard remaining >= count else { throw LightroomRGBTable.fail("the stream ends early") }
            defer { at += count }
            return bytes[at..<(at + count)]
        }
        mutating func uint16() throws -> UInt16 {
            try take(2).reversed().reduce(0) { $0 << 8 | UInt16($1) }
        }
        mutating func uint32() throws -> UInt32 {
            try take(4).reversed().reduce(0) { $0 << 8 | UInt32($1) }
        }
        mutating func double() throws -> Double {
            Double(bitPattern: try take(8).reversed().reduce(0) { $0 << 8 | UInt64($1) })
        }
    }

    /// A cube table as a `.cube` LUT over its own (encoded) RGB, 0…1, red
    /// fastest (curves are applied as curves: `LookTableTransform`).
    func cubeLUT() -> CubeLUT {
        precondition(dimensions == 3, "a curve table has no cube")
        let scale = Float(1) / 65535
        let n = divisions
        var table = [Float](repeating: 0, count: n * n * n * 3)
        for r in 0..<n { for g in 0..<n { for b in 0..<n {
            let source = ((r * n + g) * n + b) * 3, target = ((b * n + g) * n + r) * 3
            for c in 0..<3 { table[target + c] = Float(samples[source + c]) * scale }
        } } }
        return CubeLUT(size: n, table: table, domainMin: [0, 0, 0], domainMax: [1, 1, 1])
    }
}
