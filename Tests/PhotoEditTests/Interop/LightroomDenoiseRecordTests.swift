import Foundation
import Testing
@testable import PhotoEdit

/// A Lightroom import's noise reduction records the camera profile it uses
/// with the packet (`photoedit:denoise`, translation 9; LightroomDenoise.swift).
@Suite("Lightroom noise reduction's recorded profile")
struct LightroomDenoiseRecordTests {
    /// rotated.dng names make "PhotoEdit", model "Synthetic CFA", ISO 200: a database that has that camera.
    static func database(_ dir: TemporaryDirectory) throws -> NoiseProfileDatabase {
        let path = dir.file("profiles.json")
        try Data(#"""
        {"noiseprofiles": [{"maker": "PhotoEdit", "models": [{"model": "Synthetic CFA", "profiles": [
          {"name": "synthetic iso 100", "iso": 100, "a": [1e-5, 2e-5, 3e-5], "b": [1e-7, 2e-7, 3e-7]},
          {"name": "synthetic iso 400", "iso": 400, "a": [3e-5, 4e-5, 5e-5], "b": [3e-7, 4e-7, 5e-7]}]}]}]}
        """#.utf8).write(to: URL(fileURLWithPath: path))
        return NoiseProfileDatabase(path: path)
    }

    static let packet = LightroomPackets.packet(#"crs:ProcessVersion="11.0" crs:LuminanceSmoothing="20" crs:ColorNoiseReduction="25""#)

    @Test func theProfileIsRecordedWithThePacketAndReadBack() throws {
        let dir = TemporaryDirectory("photoedit-lr-denoise")
        // (libraw reads no ISO from the test RAWs: the camera's make, model and ISO given.)
        let values = try #require(LightroomSettings.cameraDenoise(make: "PhotoEdit", model: "Synthetic CFA", iso: 200, database: Self.database(dir)))
        #expect(values["profile"] == .text("synthetic iso 100–400 at 200") && values["iso"] == .number(200))
        guard case .number(let ar)? = values["a_r"] else { Issue.record("no a_r"); return }
        #expect(abs(ar - (1e-5 + (3e-5 - 1e-5) / 3)) < 1e-12, "interpolated at ISO 200: \(ar)")
        let recorded = try #require(LightroomSettings.recordingDenoise(Data(Self.packet.utf8), values))
        let text = String(decoding: recorded, as: UTF8.self)
        // Every byte of the packet kept; one property added before </rdf:RDF>.
        #expect(text.replacingOccurrences(of: #"<rdf:Description rdf:about="" xmlns:photoedit="\#(XMPSidecar.namespace)""#, with: "").count < text.count)
        #expect(text.hasPrefix(String(Self.packet[..<Self.packet.range(of: "</rdf:RDF>")!.lowerBound])))
        let t = try LightroomSettings(packet: recorded, rendered: false).translation()
        let node = try #require(t.recipe.node("denoise"))
        #expect(node.parameters.text("source") == "profile" && node.parameters.text("profile") == "synthetic iso 100–400 at 200")
        #expect(node.parameters.number("a_r") == (try Filters.denoise.validated(values)).number("a_r"), "the filter's own rounding of the recorded value")
        #expect(node.parameters.number("luma") == 20 && node.parameters.number("chroma") == 25)
        #expect(t.unmapped.isEmpty, "\(t.unmapped)")
        #expect(DenoiseIdentification.recorded(in: t.recipe) == "synthetic iso 100–400 at 200")
        // Without it, the node finds its model on the photo (source auto); translation 8 read none.
        let plain = try LightroomSettings(packet: Data(Self.packet.utf8), rendered: false).translation()
        #expect(plain.recipe.node("denoise")?.parameters.text("source") == "auto")
        let eight = try LightroomSettings(packet: XMPPacket(data: recorded), version: 8, rendered: false).translation()
        #expect(eight.recipe.node("denoise")?.parameters.text("source") == "auto")
    }

    /// A RAW's sidecar whose packet carries a record (as an import writes it):
    /// the revision renders with that profile, and the library names it.
    @Test func anImportedRecordIsTheProfileTheLibraryNames() throws {
        let dir = TemporaryDirectory("photoedit-lr-denoise-import")
        let values = try #require(LightroomSettings.cameraDenoise(make: "PhotoEdit", model: "Synthetic CFA", iso: 200, database: Self.database(dir)))
        let packet = try #require(LightroomSettings.recordingDenoise(Data(Self.packet.utf8), values))
        let raw = dir.file("noisy.dng")
        try FileManager.default.copyItem(atPath: Paths.root.appendingPathComponent("Tests/Fixtures/raw/coffee.dng").path, toPath: raw)
        try packet.write(to: URL(fileURLWithPath: dir.file("noisy.xmp")))
        let library = try PhotoLibrary(url: dir.url.appendingPathComponent("library"))
        let result = try #require(try library.importItems([raw]).first)
        let id = try #require(result.id)
        #expect(result.lightroom?.isNew == true && result.warnings.isEmpty, "\(result.warnings)")
        let node = try #require(try library.currentRecipe(id).node("denoise"))
        #expect(node.parameters.text("source") == "profile" && node.parameters.text("profile") == "synthetic iso 100–400 at 200")
        #expect(try library.denoiseIdentification(for: id).recorded == "synthetic iso 100–400 at 200")
        // The stored packet is the sidecar's bytes, the record with them.
        #expect(try library.asset(id).adjustmentData?.data == packet)
    }

    @Test func aDamagedRecordIsListedAndChangesNothing() throws {
        for bad in [#"{"profile":"x"}"#, "not json", #"{"profile":"x","iso":1,"a_r":5,"a_g":0,"a_b":0,"b_r":0,"b_g":0,"b_b":0}"#] {
            let text = Self.packet.replacingOccurrences(of: "</rdf:RDF>", with:
                #"<rdf:Description rdf:about="" xmlns:photoedit="\#(XMPSidecar.namespace)" photoedit:denoise="\#(XMPSidecar.escaped(bad))"/></rdf:RDF>"#)
            let t = try LightroomSettings(packet: Data(text.utf8), rendered: false).translation()
            #expect(t.recipe.node("denoise")?.parameters.text("source") == "auto")
            #expect(t.unmapped.count == 1 && t.unmapped[0].hasPrefix("photoedit:denoise (") && !t.unmapped[0].contains(bad), "\(t.unmapped)")
        }
        // A RAW that names no ISO, or a camera without a profile: nothing to record.
        let dir = TemporaryDirectory("photoedit-lr-denoise-none")
        #expect(LightroomSettings.cameraDenoise(rawPath: Paths.root.appendingPathComponent("Tests/Fixtures/raw/coffee.dng").path,
                                                database: try Self.database(dir)) == nil)
    }
}
