import CLCMS2
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

    /// The uncompressed stream of a 1-D table (three curves) whose division i holds `f(i)`'s RGB (0…65535).
    static func curves(divisions n: Int, primaries: UInt32 = 0, gamma: UInt32 = 1, gamut: UInt32 = 0,
                       _ f: (Int) -> (UInt16, UInt16, UInt16)) -> [UInt8] {
        var out: [UInt8] = []
        func u32(_ v: UInt32) { for i in 0..<4 { out.append(UInt8(v >> (8 * UInt32(i)) & 0xFF)) } }
        func u16(_ v: UInt16) { out += [UInt8(v & 0xFF), UInt8(v >> 8)] }
        func f64(_ v: Double) { let bits = v.bitPattern; for i in 0..<8 { out.append(UInt8(bits >> (8 * UInt64(i)) & 0xFF)) } }
        u32(1); u32(1); u32(1); u32(UInt32(n))
        let nop = (0..<n).map { UInt16(truncatingIfNeeded: ($0 * 65535 + n / 2) / (n - 1)) }
        for i in 0..<n {
            let v = f(i)
            u16(v.0 &- nop[i]); u16(v.1 &- nop[i]); u16(v.2 &- nop[i])
        }
        u32(primaries); u32(gamma); u32(gamut); f64(0); f64(2)
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
        let xml = LightroomPackets.packet(#"crs:ProcessVersion="11.0" crs:RGBTable="\#(id)" crs:Table_\#(id)="\#(text)" "# + extra)
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
        try CubeText.make(Self.n) { r, g, b in
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
        let back = try LightroomSettings(packet: XMPPacket(data: Data(LightroomPackets.packet(#"crs:ProcessVersion="11.0" "# + attributes).utf8)),
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
            let xml = LightroomPackets.packet(#"crs:ProcessVersion="11.0" crs:Exposure2012="+0.5" crs:RGBTable="\#(id)" "# + extra)
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

/// Tables in Adobe's other colour spaces (ProPhoto, Adobe RGB, P3, Rec. 2020;
/// linear, 1.8, 2.2, Rec. 2020 gamma; curves), applied in their own space.
@Suite("Lightroom look tables in every colour space")
struct LightroomRGBTableSpaceTests {
    /// coffee.jpg, 160 px, in the working space (linear float sRGB).
    static func working() throws -> Image {
        try Image.load(path: Paths.sample("coffee.jpg"), sequential: false).thumbnail(width: 160, height: 160).colourspace("scrgb")
    }

    static func content(_ stream: [UInt8], amount: Double = 1) throws -> LookTableContent {
        try LookTableContent(binary: AdobeTableEncoder.binary(stream), amount: amount)
    }

    static let spaces = ["sRGB", "Adobe RGB", "ProPhoto", "P3", "Rec. 2020"]
    static let gammas = ["linear", "sRGB", "1.8", "2.2", "Rec. 2020"]

    /// An identity cube (or curves) in every space, gamma and gamut handling renders the photo unchanged.
    @Test func anIdentityTableInEverySpaceChangesNothing() throws {
        let image = try Self.working()
        var worst = 0.0
        for primaries in 0..<5 { for gamma in 0..<5 { for gamut in 0..<2 {
            let n = 9
            let cube = try Self.content(AdobeTableEncoder.stream(divisions: n, primaries: UInt32(primaries), gamma: UInt32(gamma), gamut: UInt32(gamut)) { r, g, b in
                (AdobeTableEncoder.ramp(r, n), AdobeTableEncoder.ramp(g, n), AdobeTableEncoder.ramp(b, n))
            })
            let curves = try Self.content(AdobeTableEncoder.curves(divisions: 256, primaries: UInt32(primaries), gamma: UInt32(gamma), gamut: UInt32(gamut)) { i in
                let v = AdobeTableEncoder.ramp(i, 256)
                return (v, v, v)
            })
            for (what, look) in [("cube", cube), ("curves", curves)] {
                let d = try Pixels.deltaE(look.apply(to: image), image)
                worst = max(worst, d.max)
                #expect(d.max < 0.5 && d.mean < 0.05, "identity \(what) in \(Self.spaces[primaries]), gamma \(Self.gammas[gamma]), gamut \(gamut): \(d)")
            }
        } } }
        print("rgbtable identity in 5 spaces × 5 gammas × clip/extend, cube and curves: ΔE2000 max \(worst)")
    }

    /// Curves in linear ProPhoto that halve every channel: −1 EV, whatever the primaries.
    @Test func linearProPhotoCurvesThatHalveAreMinusOneStop() throws {
        let image = try Self.working()
        let half = try Self.content(AdobeTableEncoder.curves(divisions: 2, primaries: 2, gamma: 0) { i in
            let v = UInt16(i * 32768)
            return (v, v, v)
        })
        let d = try Pixels.deltaE(half.apply(to: image), image.linear(multiply: [0.5], add: [0]))
        print("rgbtable linear ProPhoto ×0.5 curves vs −1 EV: ΔE2000 max \(d.max) mean \(d.mean)")
        #expect(d.max < 0.5, "\(d)")
        // At amount 0.5, half of that (in the table's encoding, linear here): ×0.75.
        let d2 = try Pixels.deltaE(try LookTableContent(binary: half.binary, amount: 0.5).apply(to: image), image.linear(multiply: [0.75], add: [0]))
        #expect(d2.max < 0.5, "\(d2)")
    }

    /// A Rec. 2020, gamma 2.2 cube that halves the linear light: −1 EV too (its encoding's toe aside).
    @Test func aGammaEncodedRec2020CubeThatHalvesIsMinusOneStop() throws {
        let image = try Self.working()
        let n = 17
        let half = try Self.content(AdobeTableEncoder.stream(divisions: n, primaries: 4, gamma: 3) { r, g, b in
            // Encoded e → (0.5·e^2.2)^(1/2.2) = 0.5^(1/2.2)·e: a straight line in the encoding.
            let k = Foundation.pow(0.5, 1 / 2.2)
            let f = { (i: Int) in UInt16((Double(AdobeTableEncoder.ramp(i, n)) * k).rounded()) }
            return (f(r), f(g), f(b))
        })
        let d = try Pixels.deltaE(half.apply(to: image), image.linear(multiply: [0.5], add: [0]))
        print("rgbtable Rec. 2020 gamma 2.2 cube ×0.5 vs −1 EV: ΔE2000 max \(d.max) mean \(d.mean)")
        #expect(d.max < 1.5 && d.mean < 0.3, "\(d)")
    }

    /// A ProPhoto (gamma 1.8) cube that swaps red and blue equals the same swap
    /// done through lcms2: sRGB → a linear ProPhoto profile, swap, back.
    @Test func aProPhotoSwapEqualsTheSwapThroughLcms2() throws {
        let image = try Self.working()
        let n = 9
        let swap = try Self.content(AdobeTableEncoder.stream(divisions: n, primaries: 2, gamma: 2) { r, g, b in
            (AdobeTableEncoder.ramp(b, n), AdobeTableEncoder.ramp(g, n), AdobeTableEncoder.ramp(r, n))
        })
        let viaTable = try swap.apply(to: image).colourspace("srgb").cast("uchar")
        // The other route: lcms2's sRGB, and ProPhoto (ROMM) primaries with a D50 white and a linear curve.
        let srgb8 = try image.colourspace("srgb").cast("uchar")
        let (width, height) = (srgb8.width, srgb8.height)
        var pixels = try srgb8.pixelBytes().map { Float($0) / 255 }
        var white = cmsCIExyY(x: 0.3457, y: 0.3585, Y: 1)
        var primaries = cmsCIExyYTRIPLE(Red: cmsCIExyY(x: 0.7347, y: 0.2653, Y: 1), Green: cmsCIExyY(x: 0.1596, y: 0.8404, Y: 1),
                                        Blue: cmsCIExyY(x: 0.0366, y: 0.0001, Y: 1))
        let linear = try #require(cmsBuildGamma(nil, 1))
        defer { cmsFreeToneCurve(linear) }
        var curves: [OpaquePointer?] = [linear, linear, linear]
        let proPhoto = try #require(cmsCreateRGBProfile(&white, &primaries, &curves))
        let sRGB = try #require(cmsCreate_sRGBProfile())
        defer { cmsCloseProfile(proPhoto); cmsCloseProfile(sRGB) }
        let float = cmsUInt32Number(1 << 22 | 4 << 16 | 3 << 3 | 4)  // TYPE_RGB_FLT: float, RGB, 3 channels, 4 bytes
        let forward = try #require(cmsCreateTransform(sRGB, float, proPhoto, float, cmsUInt32Number(INTENT_RELATIVE_COLORIMETRIC), 0))
        let back = try #require(cmsCreateTransform(proPhoto, float, sRGB, float, cmsUInt32Number(INTENT_RELATIVE_COLORIMETRIC), 0))
        defer { cmsDeleteTransform(forward); cmsDeleteTransform(back) }
        let count = width * height
        pixels.withUnsafeMutableBufferPointer { p in cmsDoTransform(forward, p.baseAddress, p.baseAddress, cmsUInt32Number(count)) }
        for i in 0..<count { pixels.swapAt(i * 3, i * 3 + 2) }
        pixels.withUnsafeMutableBufferPointer { p in cmsDoTransform(back, p.baseAddress, p.baseAddress, cmsUInt32Number(count)) }
        let viaLcms = try BrushCanvas.floatImage(pixels.map { min(max($0, 0), 1) * 255 }, width: width, height: height, bands: 3)
            .cast("uchar").call("copy", [("interpretation", .string("srgb"))])
        let d = try Pixels.deltaE(viaTable, viaLcms)
        let changed = try Pixels.deltaE(viaTable, srgb8)
        print("rgbtable ProPhoto red↔blue vs lcms2's: ΔE2000 max \(d.max) mean \(d.mean); vs unedited mean \(changed.mean)")
        #expect(d.mean < 0.5 && d.max < 3, "\(d)")
        #expect(changed.mean > 5, "the swap changed nothing: \(changed)")
    }

    /// Gamut handling: light beyond white (+1 EV) through an identity ProPhoto
    /// table is kept with `extend` and clipped to the table's gamut with `clip`.
    @Test func extendKeepsWhatClipCuts() throws {
        let bright = try Self.working().linear(multiply: [2], add: [0])
        let n = 5
        func identity(_ gamut: UInt32) throws -> LookTableContent {
            try Self.content(AdobeTableEncoder.stream(divisions: n, primaries: 2, gamma: 2, gamut: gamut) { r, g, b in
                (AdobeTableEncoder.ramp(r, n), AdobeTableEncoder.ramp(g, n), AdobeTableEncoder.ramp(b, n))
            })
        }
        let extended = try identity(1).apply(to: bright), clipped = try identity(0).apply(to: bright)
        let kept = try Pixels.maxAbsDifference(extended, bright)
        #expect(kept < 0.002, "extend changed the light beyond white by \(kept)")
        // Clipped to ProPhoto's 0…1: no luminance beyond white's (Y = 1), where the input reaches 2.
        let (cut, input) = (try clipped.luminance().maximum(), try bright.luminance().maximum())
        #expect(cut <= 1.001 && input > 1.5, "clip kept light beyond the table's gamut: Y \(cut) (input \(input))")
    }

    /// A packet with a ProPhoto table: applied by translation 9, listed by translation 8 (as it was).
    @Test func translationNineAppliesWhatEightListed() throws {
        let n = 5
        let text = AdobeTableEncoder.text(AdobeTableEncoder.binary(AdobeTableEncoder.stream(divisions: n, primaries: 2, gamma: 2) { r, g, b in
            (AdobeTableEncoder.ramp(b, n), AdobeTableEncoder.ramp(g, n), AdobeTableEncoder.ramp(r, n))
        }))
        let id = try LightroomRGBTable.decode(text).fingerprint
        let xml = LightroomPackets.packet(#"crs:ProcessVersion="11.0" crs:RGBTable="\#(id)" crs:Table_\#(id)="\#(text)""#)
        let packet = try XMPPacket(data: Data(xml.utf8))
        let nine = try LightroomSettings(packet: packet, version: 9, rendered: true).translation()
        #expect(nine.applied.contains("RGBTable") && nine.recipe.lookTable?.table.primaries == .proPhoto, "\(nine.unmapped)")
        let eight = try LightroomSettings(packet: packet, version: 8, rendered: true).translation()
        #expect(eight.recipe.lookTable == nil)
        #expect(eight.unmapped.contains { $0.hasPrefix("RGBTable") && $0.contains("proPhoto") }, "\(eight.unmapped)")
    }
}

/// A profile's look (`crs:Look`): its table at the profile's amount, its other settings beneath the packet's.
@Suite("Lightroom profile looks (crs:Look)")
struct LightroomLookTests {
    static let n = 5
    static let text = AdobeTableEncoder.text(AdobeTableEncoder.binary(AdobeTableEncoder.stream(divisions: n, primaries: 2, gamma: 2) { r, g, b in
        (AdobeTableEncoder.ramp(b, n), AdobeTableEncoder.ramp(g, n), AdobeTableEncoder.ramp(r, n))
    }))

    static func translate(_ attributes: String, look: String, version: Int = LightroomSettings.translationVersion) throws -> LightroomTranslation {
        let xml = LightroomPackets.packet(#"crs:ProcessVersion="11.0" "# + attributes, body: look)
        return try LightroomSettings(packet: XMPPacket(data: Data(xml.utf8)), version: version, rendered: true).translation()
    }

    @Test func aLooksTableAppliesAtTheProfileAmountWithItsSettings() throws {
        let id = try LightroomRGBTable.decode(Self.text).fingerprint
        // A nested description, the table inside the look's parameters.
        let look = #"<crs:Look><rdf:Description crs:Name="Artistic 01" crs:Amount="0.5" crs:SupportsAmount="True"><crs:Parameters>"#
            + #"<rdf:Description crs:Version="15.0" crs:RGBTable="\#(id)" crs:Table_\#(id)="\#(Self.text)" crs:Contrast2012="+20" crs:Saturation="-10"/>"#
            + "</crs:Parameters></rdf:Description></crs:Look>"
        let t = try Self.translate(#"crs:Exposure2012="+0.5" crs:Saturation="+30""#, look: look)
        let table = try #require(t.recipe.lookTable)
        #expect(table.amount == 0.5 && table.table.fingerprint == id)
        #expect(t.applied.contains("Look"), "\(t.applied)")
        // The look's contrast at its amount (+20 × 0.5); the packet's own saturation wins, the look's is listed.
        #expect(LightroomPackets.number(t, "contrast", "amount") == 10)
        #expect(LightroomPackets.number(t, "saturation", "amount") == 30)
        #expect(t.unmapped == ["Look Artistic 01 Saturation (the packet sets its own)"], "\(t.unmapped)")
        // Translation 8 read no look: the packet's own settings only.
        let eight = try Self.translate(#"crs:Exposure2012="+0.5""#, look: look, version: 8)
        #expect(eight.recipe.lookTable == nil && eight.recipe.node("contrast") == nil && eight.unmapped.isEmpty, "\(eight.unmapped)")
    }

    @Test func aResourceLookWithItsTableInThePacket() throws {
        let id = try LightroomRGBTable.decode(Self.text).fingerprint
        let look = #"<crs:Look rdf:parseType="Resource"><crs:Name>Vintage 02</crs:Name><crs:Parameters rdf:parseType="Resource">"#
            + "<crs:RGBTable>\(id)</crs:RGBTable><crs:ToneCurvePV2012><rdf:Seq><rdf:li>0, 20</rdf:li><rdf:li>255, 235</rdf:li></rdf:Seq></crs:ToneCurvePV2012>"
            + "</crs:Parameters></crs:Look>"
        let t = try Self.translate(#"crs:Table_\#(id)="\#(Self.text)""#, look: look)
        #expect(t.recipe.lookTable?.amount == 1 && t.recipe.lookTable?.table.primaries == .proPhoto)
        #expect(t.recipe.node("curve") != nil, "the look's tone curve applies beneath the packet's (none here)")
        #expect(t.unmapped.isEmpty, "\(t.unmapped)")
        // A look whose table is missing: listed, one line, the rest applies.
        let broken = look.replacingOccurrences(of: id, with: String(repeating: "B", count: 32))
        let b = try Self.translate(#"crs:Table_\#(id)="\#(Self.text)""#, look: broken)
        #expect(b.recipe.lookTable == nil && b.unmapped.count == 1 && b.unmapped[0].hasPrefix("Look Vintage 02 ("), "\(b.unmapped)")
    }

    @Test func adobesDefaultLooksAddNothing() throws {
        let look = #"<crs:Look><rdf:Description crs:Name="Adobe Color" crs:Amount="1"><crs:Parameters><rdf:Description crs:LookTable="E1095149FDB39D7A057BAB208837E2E1">"#
            + "<crs:ToneCurvePV2012><rdf:Seq><rdf:li>0, 0</rdf:li><rdf:li>22, 16</rdf:li><rdf:li>255, 255</rdf:li></rdf:Seq></crs:ToneCurvePV2012>"
            + "</rdf:Description></crs:Parameters></rdf:Description></crs:Look>"
        let t = try Self.translate("", look: look)
        #expect(t.isDefault, "\(t.recipe) \(t.unmapped)")
    }

    /// export --xmp writes a table at another amount as a look with that amount; reading it back gives the same table.
    @Test func aTableAtHalfAmountExportsAsALookAndReadsBack() throws {
        var recipe = Recipe.empty
        try recipe.setLookTable(LookTableContent(binary: LightroomRGBTable.base85(Self.text), amount: 0.5))
        let written = LightroomEquivalents(recipe: recipe, orientation: 1)
        #expect(written.notExported.isEmpty, "\(written.notExported)")
        let attributes = written.values.map { "crs:\($0.name)=\"\($0.value)\"" }.joined(separator: " ")
        let xml = LightroomPackets.packet(#"crs:ProcessVersion="11.0" "# + attributes, body: written.elements.joined())
        let back = try LightroomSettings(packet: XMPPacket(data: Data(xml.utf8)), rendered: true).translation()
        #expect(back.recipe.lookTable == recipe.lookTable, "\(back.unmapped)")
    }
}
