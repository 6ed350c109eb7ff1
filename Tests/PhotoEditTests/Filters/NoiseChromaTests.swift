import Foundation
import Testing
@testable import PhotoEdit

/// Noise version 2's colour noise reduction (`chroma`), and Lightroom's
/// `ColorNoiseReduction` read into it.
@Suite("Colour noise reduction")
struct NoiseChromaTests {
    let detail = FilterBench()

    /// Grey `level` with independent noise on each channel (colour noise).
    func colourNoise(_ width: Int, _ height: Int, level: Double, amount: Double) throws -> Image {
        let noise = try Vips.image("gaussnoise", [("width", .number(Double(width))), ("height", .number(Double(height))), ("mean", .number(0)),
                                                  ("sigma", .number(amount)), ("seed", .number(11))])
        let two = try Vips.image("gaussnoise", [("width", .number(Double(width))), ("height", .number(Double(height))), ("mean", .number(0)),
                                                ("sigma", .number(amount)), ("seed", .number(12))])
        let three = try Vips.image("gaussnoise", [("width", .number(Double(width))), ("height", .number(Double(height))), ("mean", .number(0)),
                                                  ("sigma", .number(amount)), ("seed", .number(13))])
        return try detail.flat(width, height, level).adding(noise.joined(with: two).joined(with: three))
    }

    /// The colour part of an image: RGB − Y.
    func colour(_ image: Image) throws -> Image {
        let y = try image.luminance()
        return try image.subtracting(y.joined(with: y).joined(with: y))
    }

    @Test func versionOneMigratesToChromaZero() throws {
        let json = #"{"format":"org.photoedit.recipe","formatVersion":1,"filters":[{"id":"noise","version":1,"params":{"strength":40,"radius":2}}]}"#
        let node = try #require(try Recipe(json: JSONValue.parse(Data(json.utf8))).node("noise"))
        #expect(node.version == 2 && node.parameters.number("chroma") == 0)
        let image = try detail.working("astronaut.jpg")
        #expect(try Pixels.maxAbsDifference(detail.run("noise=40:2", on: image), detail.run("noise=40:2:0", on: image)) == 0)
    }

    /// Chroma smooths the colour and keeps the luminance exactly.
    @Test func chromaSmoothsColourNotLuminance() throws {
        let image = try colourNoise(200, 150, level: 0.2, amount: 0.03)
        let out = try detail.run("noise=0:1.5:60", on: image)
        let before = try detail.deviation(colour(image)), after = try detail.deviation(colour(out))
        #expect(after < before * 0.5, "colour noise \(before) → \(after)")
        #expect(try Pixels.maxAbsDifference(out.luminance(), image.luminance()) < 1e-5, "luminance kept")
        let more = try detail.deviation(colour(detail.run("noise=0:1.5:100", on: image)))
        #expect(more < after, "more chroma smooths more: \(after) → \(more)")
    }

    /// Lightroom's Color slider, as translations 3 to 5 read it: what goes
    /// beyond its default 25 (translation 6 reads it onto `denoise`: DenoiseTests).
    @Test func lightroomColorNoiseReduction() throws {
        func translate(_ value: String) throws -> LightroomTranslation {
            let packet = LightroomPackets.packet(#"crs:ProcessVersion="11.0" crs:ColorNoiseReduction="\#(value)""#)
            return try LightroomSettings(packet: XMPPacket(data: Data(packet.utf8)), version: 5).translation()
        }
        let fifty = try translate("50")
        #expect(abs(try #require(LightroomPackets.number(fifty, "noise", "chroma")) - 100.0 / 3) < 1e-6)
        #expect(fifty.applied == ["ColorNoiseReduction"] && fifty.unmapped.isEmpty && fifty.recipe.node("noise")?.version == 2)
        #expect(LightroomPackets.number(fifty, "noise", "strength") == 0, "no luminance smoothing")
        for neutral in ["25", "0"] {
            let t = try translate(neutral)
            #expect(t.recipe.node("noise") == nil && t.unmapped.isEmpty && t.applied.isEmpty, "\(neutral): \(t.unmapped)")
        }
        let less = try translate("9")
        #expect(less.recipe.node("noise") == nil && less.unmapped == ["ColorNoiseReduction +9 (less than Lightroom's default 25: photoedit has none to lessen)"])
    }
}
