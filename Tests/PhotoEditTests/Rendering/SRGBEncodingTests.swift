import CPhotoEditShim
import Foundation
import Testing
@testable import PhotoEdit

/// The last step of every render, linear float RGB to 8-bit sRGB, goes
/// through a table built from libvips' own curve (photoedit_srgb.c): it
/// must give libvips' bytes for every value a pipeline can produce.
@Suite("scRGB to 8-bit sRGB by table")
struct SRGBEncodingTests {
    /// Linear values to try: every level's threshold (as the table found
    /// it) with 64 floats either side, the ideal sRGB curve's level
    /// boundaries likewise, a dense sweep of the bit patterns from 0 to 2,
    /// and the odd ones (negatives, −0, subnormals, large values,
    /// infinities, NaN).
    static func values() throws -> [Float] {
        var values: [Float] = []
        func around(_ center: Float) {
            var v = center
            for _ in 0..<64 { v = v.nextDown }
            for _ in 0..<129 {
                values.append(v)
                v = v.nextUp
            }
        }
        var thresholds = [Float](repeating: 0, count: 256)
        #expect(pe_srgb8_thresholds(&thresholds) == 0)
        #expect(zip(thresholds, thresholds.dropFirst()).allSatisfy { $0 < $1 } && thresholds[255] <= 1)
        thresholds.dropFirst().forEach(around)
        for k in 1...255 {
            let encoded = (Double(k) - 0.5) / 255
            around(Float(encoded <= 0.04045 ? encoded / 12.92 : pow((encoded + 0.055) / 1.055, 2.4)))
        }
        let top = Float(2).bitPattern
        for bits in stride(from: UInt32(0), to: top, by: 997) { values.append(Float(bitPattern: bits)) }
        values += [0, -0.0, -1e-30, -0.5, -1, Float.leastNonzeroMagnitude, Float.leastNormalMagnitude, 0.999_999,
                   1, 1.000_001, 1.5, 2, 3.5, 1e30, .greatestFiniteMagnitude, .infinity, -.infinity, .nan]
        return values
    }

    /// A 3-band float scRGB image of these values, three to a pixel, and
    /// with each odd value also beside two ordinary ones (libvips 8.14
    /// blackens a pixel with a NaN in any channel, and clips infinities).
    static func image(_ values: [Float]) throws -> Image {
        var samples = values
        for odd: Float in [.nan, .infinity, -.infinity, -1, 2] {
            samples += [odd, 0.5, 0.25, 0.5, odd, 0.25, 0.5, 0.25, odd]
        }
        while samples.count % 3 != 0 { samples.append(0.5) }
        let width = 1024
        let pixels = samples.count / 3
        let height = (pixels + width - 1) / width
        samples += [Float](repeating: 0.125, count: (width * height - pixels) * 3)
        let made = samples.withUnsafeBytes { raw in
            vips_image_new_from_memory_copy(raw.baseAddress, raw.count, Int32(width), Int32(height), 3, VIPS_FORMAT_FLOAT)
        }
        let image = Image(owning: try #require(made))
        return try image.call("copy", [("interpretation", .string("scrgb"))])
    }

    @Test("gives libvips' own bytes for every value, boundaries and odd values included")
    func sameBytesAsLibvips() throws {
        try Vips.ensureStarted()
        let image = try Self.image(try Self.values())
        let table = Image(owning: try #require(pe_scrgb_to_srgb8(image.pointer), "the table was refused: \(Vips.takeError())"))
        let libvips = try image.call("colourspace", [("space", .string("srgb"))]).cast("uchar")
        #expect(table.formatName == "uchar" && table.bands == 3 && table.interpretationName == "srgb")
        let ours = try table.pixelBytes(), theirs = try libvips.pixelBytes()
        #expect(ours.count == theirs.count && ours.count == image.width * image.height * 3)
        let differing = zip(ours, theirs).filter { $0 != $1 }.count
        let samples = try image.pixelBytes().withUnsafeBytes { Array($0.bindMemory(to: Float.self)) }
        let examples = zip(ours, theirs).enumerated().filter { $0.element.0 != $0.element.1 }.prefix(8)
            .map { "\(samples[$0.offset]) (pixel \(samples[$0.offset / 3 * 3..<$0.offset / 3 * 3 + 3])): \($0.element.0) vs \($0.element.1)" }
        #expect(differing == 0, "\(differing) of \(ours.count) samples differ from libvips': \(examples)")
        // And the values are spread over every level, not a few.
        #expect(Set(ours).count == 256)
    }

    @Test("colourspace(\"srgb\") of the working space takes the table; other images go through libvips")
    func outputStep() throws {
        try Vips.ensureStarted()
        let scrgb = try Self.image([0.1, 0.2, 0.3, 0.9, 0.5, 0.01])
        let libvips = { (image: Image) in try image.call("colourspace", [("space", .string("srgb"))]).cast("uchar").pixelBytes() }
        let viaTable = try scrgb.colourspace("srgb")
        #expect(viaTable.formatName == "uchar" && viaTable.interpretationName == "srgb")
        #expect(try viaTable.pixelBytes() == (try libvips(scrgb)))
        #expect(try scrgb.sRGB8().pixelBytes() == (try libvips(scrgb)))
        // Not scRGB (a Lab image): libvips' conversion, not the table's.
        let lab = try scrgb.colourspace("lab")
        #expect(try lab.sRGB8().pixelBytes() == (try libvips(lab)))
        #expect(try lab.colourspace("srgb").pixelBytes() == (try libvips(lab)))
        // Refused input: one band, or 8-bit.
        #expect(pe_scrgb_to_srgb8(try scrgb.extractBands(0, count: 1).pointer) == nil)
        _ = Vips.takeError()
        #expect(pe_scrgb_to_srgb8(viaTable.pointer) == nil)
        _ = Vips.takeError()
    }
}
