import Foundation
import Testing
@testable import PhotoEdit

/// Camera RAW through libraw: recognised by content, developed into the
/// working space with documented settings, same pixels as libraw's own
/// `dcraw_emu` with matching settings.
@Suite("RAW")
struct RawTests {
    private static let dng = Paths.rawFixture("coffee.dng")
    private static let truncated = Paths.rawFixture("truncated.dng")

    @Test func libRawRecognisesRawByContentOnly() throws {
        let info = try #require(RawDecoder.identify(Self.dng))
        #expect(info.make == "PhotoEdit" && info.model == "Synthetic CFA" && info.isDNG)
        #expect(info.width == 300 && info.height == 200)
        #expect(RawDecoder.identify(Paths.sample("coffee.jpg")) == nil)
        #expect(RawDecoder.identify(Paths.sample("coffee.tif")) == nil)
        // A RAW under another name is still a RAW.
        let temp = TemporaryDirectory("photoedit-raw-name")
        try FileManager.default.copyItem(atPath: Self.dng, toPath: temp.file("renamed.jpg"))
        #expect(RawDecoder.identify(temp.file("renamed.jpg")) != nil)
    }

    @Test func importRecordsRawMetadataAndRendersEveryVersion() throws {
        let lib = CLILibrary()
        let id = try lib.importFiles([Self.dng]).first!
        let show = try lib.show(id)
        #expect(show["format"] == .string("raw") && show["uniformTypeIdentifier"] == .string("com.adobe.raw-image"))
        #expect(show["pixelWidth"] == .number(300) && show["pixelHeight"] == .number(200))
        guard case .object(let camera)? = show["camera"] else { Issue.record("no camera metadata: \(show)"); return }
        #expect(camera["make"] == .string("PhotoEdit") && camera["model"] == .string("Synthetic CFA"))
        let out = TemporaryDirectory("photoedit-raw-out")
        try lib.succeed(["render", id, "--version", "original", "-o", out.file("original.png")])
        try lib.succeed(["render", id, "--version", "unadjusted", "-o", out.file("unadjusted.png")])
        #expect(try Pixels.maxAbsDifference(Pixels.load(out.file("original.png")), Pixels.load(out.file("unadjusted.png"))) == 0)
        try lib.succeed(["apply", "exposure=+1,crop=16:9", id])
        try lib.succeed(["render", id, "-o", out.file("current.png")])
        let current = try Pixels.load(out.file("current.png"))
        #expect(current.width == 300 && current.height == 169)
        #expect(try current.average() > Pixels.load(out.file("original.png")).average() * 1.2)
        // The original file itself is exported byte for byte.
        try lib.succeed(["export", id, "--resource", "photo", "-o", out.file("exported.dng")])
        #expect(try Hashing.sha256(out.file("exported.dng")) == Hashing.sha256(Self.dng))
    }

    @Test func neutralDevelopmentMatchesDcrawEmuWithTheSameSettings() throws {
        let dcraw = "/usr/bin/dcraw_emu"
        guard FileManager.default.isExecutableFile(atPath: dcraw) else {
            Issue.record("dcraw_emu (Debian's libraw-bin) is missing: scripts/install-deps installs it")
            return
        }
        let temp = TemporaryDirectory("photoedit-dcraw")
        let copy = temp.file("coffee.dng")
        try FileManager.default.copyItem(atPath: Self.dng, toPath: copy)
        // 16-bit linear sRGB-primaries output, as shot WB, AHD, no auto-bright, no maximum adjustment.
        let p = Process()
        p.executableURL = URL(fileURLWithPath: dcraw)
        p.arguments = ["-T", "-4", "-o", "1", "-g", "1", "1", "-W", "-w", "-q", "3", "-c", "0", copy]
        try p.run(); p.waitUntilExit()
        #expect(p.terminationStatus == 0)
        let theirs = try Pixels.load(copy + ".tiff").linear(multiply: [1 / 65535.0, 1 / 65535.0, 1 / 65535.0], add: [0, 0, 0])
            .call("copy", [("interpretation", .string("scrgb"))]).colourspace("srgb")
        try theirs.save(to: temp.file("dcraw.png"), format: "png")
        let ours = try Renderer(registry: .standard).render(recipe: .empty, originalPath: copy)
        try ours.save(to: temp.file("ours.png"), format: "png")
        let (max, mean) = try Pixels.deltaE(temp.file("ours.png"), temp.file("dcraw.png"))
        print(String(format: "neutral development vs dcraw_emu: max ΔE00 %.3f, mean %.3f", max, mean))
        // The same libraw call with the same settings: the same pixels (the
        // renderer's 8-bit sRGB fast path included).
        #expect(max == 0 && mean == 0, "neutral development differs from dcraw_emu: max ΔE00 \(max), mean \(mean)")
    }

    /// The neutral development to 8-bit sRGB (the original and unadjusted
    /// versions of a RAW) skips the float working copy; its pixels are the
    /// float path's exactly, upright for every flip, with the sRGB profile.
    @Test func neutralSRGBFastPathEqualsTheFloatPath() throws {
        let renderer = Renderer(registry: .standard)
        for name in ["coffee.dng", "rotated.dng", "linear.dng"] {
            let path = Paths.root.appendingPathComponent("Tests/Fixtures/raw/\(name)").path
            let fast = try RawDecoder.developSRGB(path)
            let float = try renderer.outputImage(try RawDecoder.develop(path))
            #expect(fast.width == float.width && fast.height == float.height && fast.bands == 3, "\(name)")
            #expect(fast.formatName == "uchar" && fast.int("orientation") == 1, "\(name)")
            #expect(try Pixels.maxAbsDifference(fast, float) == 0, "\(name): the fast path's pixels differ from the float path's")
            #expect(fast.blob("icc-profile-data").map(ICCProfile.isSRGB) == true)
            // The renderer takes it for an empty recipe with the default output only.
            let rendered = try renderer.render(recipe: .empty, originalPath: path)
            #expect(try Pixels.maxAbsDifference(rendered, float) == 0)
        }
        // Every 16-bit value maps as the float path maps it.
        let table = try RawDecoder.sRGBTable()
        #expect(table.width == 65536 && table.height == 1 && table.bands == 1)
        let values = try table.pixelBytes()
        #expect(values.first == 0 && values.last == 255)
        #expect(zip(values, values.dropFirst()).allSatisfy { $0 <= $1 }, "the table only rises")
    }

    @Test func truncatedRawIsRefusedAndChangesNothing() throws {
        let lib = CLILibrary()
        _ = try lib.importSample("coffee.jpg")
        let before = try lib.snapshot(filesFirst: true)
        let r = try lib.run(["import", Self.truncated])
        #expect(r.status != 0 && r.stderrLines.count == 1, "\(r)")
        #expect(r.stderr.contains("libraw"), "\(r.stderr)")
        #expect(try lib.snapshot(filesFirst: true) == before)
    }
}
