import CZlib
import Foundation
import Testing
@testable import PhotoEdit

/// Writes look tables as Adobe does (`dng_rgb_table::PutStream`,
/// `dng_big_table::EncodeAsBinary` / `EncodeAsString`, as docs/xmp.md
/// describes them), independently of the product's decoder: no corpus
/// packet carries a table, so the tests make their own.
enum AdobeTableEncoder {
    /// The uncompressed stream of a 3-D table whose node (r, g, b) (indices) holds `f`'s RGB (0…65535).
    static func stream(divisions n: Int, primaries: UInt32 = 0, gamma: UInt32 = 1, gamut: UInt32 = 0,
                       amounts: (Double, Double) = (0, 2), dimensions: UInt32 = 3,
                       _ f: (Int, Int, Int) -> (UInt16, UInt16, UInt16)) -> [UInt8] {
        var out: [UInt8] = []
        func u32(_ v: UInt32) { for i in 0..<4 { out.append(UInt8(v >> (8 * UInt32(i)) & 0xFF)) } }
        func u16(_ v: UInt16) { out += [UInt8(v & 0xFF), UInt8(v >> 8)] }
        func f64(_ v: Double) { let bits = v.bitPattern; for i in 0..<8 { out.append(UInt8(bits >> (8 * UInt64(i)) & 0xFF)) } }
        u32(1); u32(1); u32(dimensions); u32(UInt32(n))
        let nop = (0..<n).map { UInt16(truncatingIfNeeded: ($0 * 65535 + n / 2) / (n - 1)) }  // as the SDK's (uint16) cast
        for r in 0..<n { for g in 0..<n { for b in 0..<n {
            let v = f(r, g, b)
            u16(v.0 &- nop[r]); u16(v.1 &- nop[g]); u16(v.2 &- nop[b])
        } } }
        u32(primaries); u32(gamma); u32(gamut); f64(amounts.0); f64(amounts.1)
        return out
    }

    /// The size (32-bit little-endian) and the zlib stream.
    static func binary(_ stream: [UInt8], claimedSize: UInt32? = nil) -> [UInt8] {
        var length = compressBound(uLong(stream.count))
        var compressed = [UInt8](repeating: 0, count: Int(length))
        #expect(compress2(&compressed, &length, stream, uLong(stream.count), Z_DEFAULT_COMPRESSION) == Z_OK)
        let size = claimedSize ?? UInt32(stream.count)
        return (0..<4).map { UInt8(size >> (8 * UInt32($0)) & 0xFF) } + compressed.prefix(Int(length))
    }

    static let alphabet = Array("0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ.-:+=^!/*?`'|()[]{}@%$#")

    /// Adobe's base 85: each 4 bytes (little-endian) as 5 digits, least
    /// significant first; a last group of k bytes as k + 1 digits.
    static func text(_ bytes: [UInt8]) -> String {
        var out = ""
        var i = 0
        while i < bytes.count {
            let k = min(4, bytes.count - i)
            var v: UInt32 = 0
            for j in 0..<k { v |= UInt32(bytes[i + j]) << (8 * UInt32(j)) }
            for _ in 0..<(k == 4 ? 5 : k + 1) { out.append(alphabet[Int(v % 85)]); v /= 85 }
            i += 4
        }
        return out
    }

    static func encode(divisions n: Int, _ f: (Int, Int, Int) -> (UInt16, UInt16, UInt16)) -> String {
        text(binary(stream(divisions: n, f)))
    }

    /// The node value of index i of n (Adobe's identity ramp).
    static func ramp(_ i: Int, _ n: Int) -> UInt16 { UInt16(min(65535, (i * 65535 + n / 2) / (n - 1))) }
}

@Suite("Lightroom look tables (RGBTable)")
struct LightroomRGBTableTests {
    @Test func decodesAnIdentityAndASwapTable() throws {
        let n = 9
        let identity = try LightroomRGBTable.decode(AdobeTableEncoder.encode(divisions: n) { r, g, b in
            (AdobeTableEncoder.ramp(r, n), AdobeTableEncoder.ramp(g, n), AdobeTableEncoder.ramp(b, n))
        })
        #expect(identity.dimensions == 3 && identity.divisions == n && identity.samples.count == n * n * n * 3)
        #expect(identity.primaries == .sRGB && identity.gamma == .sRGB && identity.gamut == .clip)
        #expect(identity.minAmount == 0 && identity.maxAmount == 2)
        let swap = try LightroomRGBTable.decode(AdobeTableEncoder.encode(divisions: n) { r, g, b in
            (AdobeTableEncoder.ramp(b, n), AdobeTableEncoder.ramp(g, n), AdobeTableEncoder.ramp(r, n) / 4 * 3)
        })
        // Node (r, g, b) = (2, 5, 7), red slowest: Adobe's order.
        let k = ((2 * n + 5) * n + 7) * 3
        #expect(swap.samples[k] == AdobeTableEncoder.ramp(7, n) && swap.samples[k + 1] == AdobeTableEncoder.ramp(5, n))
        #expect(swap.samples[k + 2] == AdobeTableEncoder.ramp(2, n) / 4 * 3)
        // As a .cube LUT (red fastest), over the table's own 0…1 RGB.
        let cube = identity.cubeLUT()
        let o = cube.lookup(0.2, 0.6, 0.9, tetrahedral: true)
        #expect(abs(o.0 - 0.2) < 1e-4 && abs(o.1 - 0.6) < 1e-4 && abs(o.2 - 0.9) < 1e-4, "\(o)")
        let s = swap.cubeLUT().lookup(0.25, 0.5, 0.875, tetrahedral: true)
        #expect(abs(s.0 - 0.875) < 1e-3 && abs(s.1 - 0.5) < 1e-3 && abs(s.2 - 0.25 * 0.75) < 1e-3, "\(s)")
        // The fingerprint is the stream's MD5, as Adobe names `Table_<MD5>`.
        #expect(identity.fingerprint.count == 32 && identity.fingerprint != swap.fingerprint)
        #expect(identity.fingerprint.allSatisfy { $0.isHexDigit && !$0.isLowercase })
    }

    @Test func whitespaceInTheTextIsSkipped() throws {
        let text = AdobeTableEncoder.encode(divisions: 2) { r, g, b in (UInt16(r * 65535), UInt16(g * 65535), UInt16(b * 65535)) }
        let wrapped = stride(from: 0, to: text.count, by: 60).map { i in
            String(text.dropFirst(i).prefix(60))
        }.joined(separator: "\n   ")
        #expect(try LightroomRGBTable.decode(wrapped) == LightroomRGBTable.decode(text))
    }

    /// Hostile and damaged tables: one line, naming the table, never its text.
    @Test func malformedTablesAreOneLineErrors() throws {
        let good = AdobeTableEncoder.stream(divisions: 3) { r, g, b in
            (AdobeTableEncoder.ramp(r, 3), AdobeTableEncoder.ramp(g, 3), AdobeTableEncoder.ramp(b, 3))
        }
        func patched(_ offset: Int, _ value: UInt32) -> [UInt8] {
            var s = good
            for i in 0..<4 { s[offset + i] = UInt8(value >> (8 * UInt32(i)) & 0xFF) }
            return s
        }
        let cases: [(String, String)] = [
            ("empty", ""),
            ("not base 85", "~~~~ ;;;; <<<< >>>>"),
            ("too short", "0000"),
            ("not zlib", AdobeTableEncoder.text([0x40, 0, 0, 0] + Array(repeating: 0x55, count: 40))),
            ("a huge claimed size", AdobeTableEncoder.text(AdobeTableEncoder.binary(good, claimedSize: 0xFFFF_FFF0))),
            ("a size smaller than the data", AdobeTableEncoder.text(AdobeTableEncoder.binary(good, claimedSize: 20))),
            ("a size larger than the data", AdobeTableEncoder.text(AdobeTableEncoder.binary(good, claimedSize: UInt32(good.count + 8)))),
            ("a look table, not an RGB table", AdobeTableEncoder.text(AdobeTableEncoder.binary(patched(0, 2)))),
            ("version 2", AdobeTableEncoder.text(AdobeTableEncoder.binary(patched(4, 2)))),
            ("2 dimensions", AdobeTableEncoder.text(AdobeTableEncoder.binary(patched(8, 2)))),
            ("a billion divisions", AdobeTableEncoder.text(AdobeTableEncoder.binary(patched(12, 1_000_000_000)))),
            ("33 divisions", AdobeTableEncoder.text(AdobeTableEncoder.binary(patched(12, 33)))),
            ("1 division", AdobeTableEncoder.text(AdobeTableEncoder.binary(patched(12, 1)))),
            ("cut short", AdobeTableEncoder.text(AdobeTableEncoder.binary(Array(good.dropLast(20))))),
            ("unknown primaries", AdobeTableEncoder.text(AdobeTableEncoder.binary(patched(16 + 27 * 6, 9)))),
            ("unknown gamma", AdobeTableEncoder.text(AdobeTableEncoder.binary(patched(20 + 27 * 6, 9)))),
            ("bad amounts", AdobeTableEncoder.text(AdobeTableEncoder.binary(
                AdobeTableEncoder.stream(divisions: 2, amounts: (0, 0.5)) { _, _, _ in (0, 0, 0) }))),
        ]
        for (what, text) in cases {
            do {
                _ = try LightroomRGBTable.decode(text)
                Issue.record("\(what): decoded")
            } catch let error as PhotoEditError {
                let line = error.description
                #expect(line.contains("RGBTable") && !line.contains("\n"), "\(what): \(line)")
                #expect(text.count < 20 || !line.contains(text.prefix(20)), "\(what) echoes the text: \(line)")
            }
        }
    }
}

/// The translation of `crs:RGBTable`, rendered: the same as the table as a `.cube` LUT.
@Suite("Lightroom look tables rendered")
struct LightroomRGBTableRenderTests {
    static let n = 17

    /// A table that swaps red and blue and lifts green (a look no slider gives).
    static func swapBoost(_ r: Int, _ g: Int, _ b: Int) -> (UInt16, UInt16, UInt16) {
        (AdobeTableEncoder.ramp(b, n), UInt16(min(65535, Int(AdobeTableEncoder.ramp(g, n)) * 5 / 4)), AdobeTableEncoder.ramp(r, n))
    }

    static func identity(_ r: Int, _ g: Int, _ b: Int) -> (UInt16, UInt16, UInt16) {
        (AdobeTableEncoder.ramp(r, n), AdobeTableEncoder.ramp(g, n), AdobeTableEncoder.ramp(b, n))
    }

    /// A packet naming the table (`crs:RGBTable`) and holding it (`crs:Table_<MD5>`).
    static func translate(_ f: (Int, Int, Int) -> (UInt16, UInt16, UInt16), extra: String = "") throws -> LightroomTranslation {
        let text = AdobeTableEncoder.encode(divisions: n, f)
        let id = try LightroomRGBTable.decode(text).fingerprint
        let xml = LightroomSettingsTests.packet(#"crs:ProcessVersion="11.0" crs:RGBTable="\#(id)" crs:Table_\#(id)="\#(text)" "# + extra)
        return try LightroomSettings(packet: XMPPacket(data: Data(xml.utf8)), rendered: true).translation()
    }

    func render(_ recipe: Recipe, _ name: String, in temp: TemporaryDirectory) throws -> Image {
        let image = try Renderer(registry: .standard).render(recipe: recipe, originalPath: Paths.sample("coffee.jpg"))
        try image.save(to: temp.file(name), format: "png")
        return try Pixels.load(temp.file(name))
    }

    @Test func aTranslatedTableRendersAsTheSameCubeLUT() throws {
        let temp = TemporaryDirectory("photoedit-rgbtable")
        let translation = try Self.translate(Self.swapBoost)
        #expect(translation.applied.contains("RGBTable"), "\(translation.unmapped)")
        #expect(!translation.unmapped.contains { $0.hasPrefix("RGBTable") }, "\(translation.unmapped)")
        let look = try #require(translation.recipe.lookTable)
        #expect(look.amount == 1)
        // The recipe carries the table: its JSON reads back to the same recipe, without the packet.
        let reread = try Recipe(json: translation.recipe.json, registry: .standard)
        #expect(reread == translation.recipe)
        // The same table as a .cube file (red fastest), through the lut filter.
        try LutTests.cube(Self.n) { r, g, b in
            let i = { (v: Float) in Int((v * Float(Self.n - 1)).rounded()) }
            let o = Self.swapBoost(i(r), i(g), i(b))
            return (Float(o.0) / 65535, Float(o.1) / 65535, Float(o.2) / 65535)
        }.write(toFile: temp.file("rgbtable-test-swap.cube"), atomically: true, encoding: .utf8)
        LUTFolders.add([temp.path])
        let viaTable = try render(translation.recipe, "table.png", in: temp)
        let viaCube = try render(try Chain.apply(Chain.parse("lut=rgbtable-test-swap.cube"), to: .empty), "cube.png", in: temp)
        let plain = try render(.empty, "plain.png", in: temp)
        let same = try Pixels.deltaE(viaTable, viaCube), changed = try Pixels.deltaE(viaTable, plain)
        print("rgbtable swap/boost vs .cube: ΔE2000 max \(same.max) mean \(same.mean); vs unedited: mean \(changed.mean)")
        #expect(same.max < 1, "the table renders unlike its .cube: \(same)")
        #expect(changed.mean > 5, "the table changed nothing: \(changed)")
        // export --xmp writes the table back under Adobe's name; reading it gives the same table.
        let written = LightroomEquivalents(recipe: translation.recipe, orientation: 1)
        let attributes = written.values.map { "crs:\($0.name)=\"\($0.value)\"" }.joined(separator: " ")
        #expect(written.values.contains { $0.name == "RGBTable" && $0.value == look.table.fingerprint })
        let back = try LightroomSettings(packet: XMPPacket(data: Data(LightroomSettingsTests.packet(#"crs:ProcessVersion="11.0" "# + attributes).utf8)),
                                         rendered: true).translation()
        #expect(back.recipe.lookTable == look)
        // The chain form round-trips (rgbtable=AMOUNT:TABLE).
        let chain = Chain.format(translation.recipe, registry: .standard)
        #expect(try Chain.apply(Chain.parse(chain), to: .empty) == translation.recipe)
    }

    @Test func anIdentityTableChangesNothingAndAPresetAmountScalesIt() throws {
        let temp = TemporaryDirectory("photoedit-rgbtable-identity")
        let identity = try Self.translate(Self.identity)
        let plain = try render(.empty, "plain.png", in: temp)
        let d = try Pixels.deltaE(try render(identity.recipe, "identity.png", in: temp), plain)
        print("rgbtable identity vs unedited: ΔE2000 max \(d.max) mean \(d.mean)")
        #expect(d.max < 1, "\(d)")
        let half = try Self.translate(Self.swapBoost, extra: #"crs:SupportsAmount="True" crs:Amount="0.5""#)
        #expect(half.recipe.lookTable?.amount == 0.5)
    }

    @Test func aMissingOrDamagedTableIsListedAndChangesNothing() throws {
        let text = AdobeTableEncoder.encode(divisions: 3) { _, _, _ in (0, 0, 0) }
        let damaged = String(text.prefix(30)) + "!!!!!" + String(text.dropFirst(35))
        let id = String(repeating: "A", count: 32)
        for extra in ["", #"crs:Table_\#(id)="\#(damaged)""#, #"crs:Table_\#(id)="\#(String(repeating: "z", count: 5000))""#] {
            let xml = LightroomSettingsTests.packet(#"crs:ProcessVersion="11.0" crs:Exposure2012="+0.5" crs:RGBTable="\#(id)" "# + extra)
            let t = try LightroomSettings(packet: XMPPacket(data: Data(xml.utf8)), rendered: true).translation()
            #expect(t.recipe.lookTable == nil)
            #expect(t.recipe.node("exposure") != nil, "the rest still applies")
            let lines = t.unmapped.filter { $0.hasPrefix("RGBTable") }
            #expect(lines.count == 1 && !lines[0].contains("\n") && !lines[0].contains("zzzzz"), "\(t.unmapped)")
        }
        // A recipe holding a table that is not one is refused, one line.
        let json = #"{"format":"org.photoedit.recipe","formatVersion":1,"filters":[{"id":"rgbtable","version":1,"params":{"table":"AAAA","amount":100}}]}"#
        #expect(throws: PhotoEditError.self) { try Recipe(json: JSONValue.parse(Data(json.utf8)), registry: .standard) }
    }
}
