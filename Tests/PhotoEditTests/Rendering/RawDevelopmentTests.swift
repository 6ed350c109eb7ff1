import Foundation
import Testing
@testable import PhotoEdit
import PhotoEditGolden

/// The `raw` development stage, previews, rotated and LinearRaw DNGs, and
/// RAW+JPEG pairs.
@Suite("RAW development and pairs")
struct RawDevelopmentTests {
    private static let dng = Paths.rawFixture("coffee.dng")
    private static let jpeg = Paths.rawFixture("coffee.jpg")

    static func develop(_ path: String, _ chain: String, into folder: TemporaryDirectory, name: String) throws -> String {
        let recipe = try Chain.apply(Chain.parse(chain), to: .empty)
        let image = try Renderer(registry: .standard).render(recipe: recipe, originalPath: path)
        let out = folder.file(name + ".png")
        try image.save(to: out, format: "png")
        return out
    }

    // MARK: The raw stage

    @Test func rawStageGrammarFormsAndRoundTrip() throws {
        func node(_ chain: String) throws -> Parameters {
            try #require(try Chain.apply(Chain.parse(chain), to: .empty).node("raw")).parameters
        }
        let kelvin = try node("raw.wb=5200:+10")
        #expect(kelvin["wb"] == .text("kelvin") && kelvin["temperature"] == .number(5200) && kelvin["tint"] == .number(10))
        #expect(try node("raw.wb=3200")["temperature"] == .number(3200))
        #expect(try node("raw.temperature=4000")["wb"] == .text("kelvin"))
        let custom = try node("raw.wb=4:2:3")
        #expect(custom["wb"] == .text("custom") && custom["red"] == .number(2) && custom["green"] == .number(1) && custom["blue"] == .number(1.5))
        #expect(try node("raw.red=2")["wb"] == .text("custom"))
        #expect(try node("raw.wb=auto")["wb"] == .text("auto"))
        #expect(try node("raw.demosaic=DCB,raw.highlights=rebuild")["demosaic"] == .text("dcb"))
        for chain in ["raw.wb=5200:+10,exposure=+0.5", "raw.wb=2:1:1.4", "raw.wb=auto,raw.denoise=200", "raw.black=300,raw.white=3800",
                      "raw.exposure=+1,raw.preserve=0.5,raw.highlights=blend", "raw", "raw.wb=3200,raw.demosaic=dcb",
                      "raw.temperature=6000,raw.wb=auto"] {
            let recipe = try Chain.apply(Chain.parse(chain), to: .empty)
            let text = Chain.format(recipe)
            #expect(try Chain.apply(Chain.parse(text), to: .empty) == recipe, "\(chain) → \(text)")
            #expect(try Recipe(adjustmentData: recipe.adjustmentData) == recipe)
        }
        // Written back with the named form when it fits.
        #expect(Chain.format(try Chain.apply(Chain.parse("raw.temperature=4000,raw.tint=-5,raw.demosaic=dcb"), to: .empty))
                == "raw.wb=4000:-5,raw.demosaic=dcb")
        #expect(Chain.format(try Chain.apply(Chain.parse("raw.wb=3200"), to: .empty)) == "raw.wb=3200")
        // A word that is no white balance names the choices and the forms.
        let sunny = try #require(throws: PhotoEditError.self) { try Chain.apply(Chain.parse("raw.wb=sunny"), to: .empty) }
        #expect(sunny.description.contains("raw.wb: 'sunny' is not as-shot|auto|kelvin|custom"), "\(sunny)")
        for bad in ["raw.wb=sunny", "raw.wb=1:2:3:4", "raw.demosaic=magic", "raw.black=500,raw.white=400", "raw.exposure=+4",
                    "raw.temperature=900", "raw.wb.x=1"] {
            #expect(throws: PhotoEditError.self, "\(bad)") { try Chain.apply(Chain.parse(bad), to: .empty) }
        }
    }

    @Test func kelvinWhiteBalanceFollowsTheCameraMatrix() throws {
        let temp = TemporaryDirectory("photoedit-raw-wb")
        let neutral = try Self.develop(Self.dng, "raw", into: temp, name: "neutral")
        // The test DNG's "as shot" white is D65, which is 6504 K with tint +10 here.
        let d65 = try Self.develop(Self.dng, "raw.wb=6504:+10", into: temp, name: "d65")
        let (max, mean) = try Pixels.deltaE(neutral, d65)
        // (The max is where a channel clips at a slightly different level.)
        #expect(mean < 0.3, "D65 as kelvin vs as shot: max \(max) mean \(mean)")
        // A tungsten light assumed: the correction cools the photo.
        let tungsten = try Pixels.bandMeans(Pixels.load(Self.develop(Self.dng, "raw.wb=3200", into: temp, name: "tungsten")))
        let base = try Pixels.bandMeans(Pixels.load(neutral))
        #expect(tungsten[2] - tungsten[0] > base[2] - base[0] + 20, "blue-red \(tungsten) vs \(base)")
        // Custom multipliers equal to the camera's as-shot ones (1/0.5, 1, 1/0.7) give the same image.
        let asShot = try Self.develop(Self.dng, "raw.wb=2:1:1.428571", into: temp, name: "asshot")
        #expect(try Pixels.deltaE(neutral, asShot).mean < 0.2)
    }

    @Test func everyDevelopmentParameterChangesTheImageAndMatchesDcrawEmu() throws {
        let temp = TemporaryDirectory("photoedit-raw-params")
        let neutral = try Self.develop(Self.dng, "raw", into: temp, name: "neutral")
        for (i, chain) in ["raw.demosaic=linear", "raw.demosaic=vng", "raw.demosaic=ppg", "raw.demosaic=dcb", "raw.demosaic=dht",
                           "raw.demosaic=aahd", "raw.highlights=blend,raw.exposure=+1", "raw.wb=auto", "raw.black=600",
                           "raw.white=3000", "raw.denoise=800", "raw.exposure=+1"].enumerated() {
            let out = try Self.develop(Self.dng, chain, into: temp, name: "p\(i)")
            #expect(try Pixels.deltaE(neutral, out).max > 1, "\(chain) renders like the neutral development")
        }
        // The stage's settings mean what libraw's own tool means by them.
        let dcraw = "/usr/bin/dcraw_emu"
        guard FileManager.default.isExecutableFile(atPath: dcraw) else {
            Issue.record("dcraw_emu (Debian's libraw-bin) is missing: scripts/install-deps installs it")
            return
        }
        let cases: [(String, [String])] = [
            ("raw.demosaic=vng,raw.highlights=blend", ["-q", "1", "-H", "2", "-w"]),
            ("raw.wb=2.4:1:1.2", ["-q", "3", "-r", "2.4", "1", "1.2", "1"]),
            ("raw.black=400,raw.white=3600,raw.demosaic=ppg", ["-q", "2", "-w", "-k", "400", "-S", "3600"]),
        ]
        for (i, (chain, flags)) in cases.enumerated() {
            let copy = temp.file("d\(i).dng")
            try FileManager.default.copyItem(atPath: Self.dng, toPath: copy)
            let p = Process()
            p.executableURL = URL(fileURLWithPath: dcraw)
            p.arguments = ["-T", "-4", "-o", "1", "-g", "1", "1", "-W", "-c", "0"] + flags + [copy]
            try p.run(); p.waitUntilExit()
            #expect(p.terminationStatus == 0)
            let theirs = try Pixels.load(copy + ".tiff").linear(multiply: [1 / 65535.0, 1 / 65535.0, 1 / 65535.0], add: [0, 0, 0])
                .call("copy", [("interpretation", .string("scrgb"))]).colourspace("srgb")
            try theirs.save(to: temp.file("theirs\(i).png"), format: "png")
            let ours = try Self.develop(copy, chain, into: temp, name: "ours\(i)")
            let (max, mean) = try Pixels.deltaE(ours, temp.file("theirs\(i).png"))
            #expect(max <= GoldenTolerance.standard.maxDeltaE && mean <= GoldenTolerance.standard.meanDeltaE, "\(chain): max \(max) mean \(mean)")
        }
    }

    @Test func rawStageOnAJPEGIsRefusedAndChangesNothing() throws {
        let lib = CLILibrary()
        let id = try lib.importSample("coffee.jpg")
        let before = try lib.snapshot(filesFirst: true)
        let r = try lib.run(["apply", "raw.wb=auto", id])
        #expect(r.status != 0 && r.stderrLines.count == 1 && r.stderr.contains("RAW"), "\(r)")
        #expect(try lib.snapshot(filesFirst: true) == before)
    }

    @Test func aDamagedRawHeaderIsRefusedWithLibrawsReason() throws {
        let temp = TemporaryDirectory("photoedit-raw-damaged")
        var bytes = try Data(contentsOf: URL(fileURLWithPath: Self.dng))
        bytes.replaceSubrange(4..<8, with: [0, 0xff, 0xff, 0x0f])  // the first IFD's offset, past the end
        try bytes.write(to: URL(fileURLWithPath: temp.file("IMG_0001.DNG")))
        let lib = CLILibrary()
        _ = try lib.importSample("coffee.jpg")
        let before = try lib.snapshot(filesFirst: true)
        let r = try lib.run(["import", temp.file("IMG_0001.DNG")])
        #expect(r.status != 0 && r.stderrLines.count == 1, "\(r)")
        #expect(r.stderr.contains("damaged or unsupported camera RAW (libraw: "), "\(r.stderr)")
        #expect(try lib.snapshot(filesFirst: true) == before)
    }

    // MARK: Orientation, LinearRaw, previews

    @Test func rotatedRawDevelopsUprightAndItsPreviewToo() throws {
        let rotated = Paths.rawFixture("rotated.dng")
        let info = try #require(RawDecoder.identify(rotated))
        #expect(info.orientation == 6 && info.width == 300 && info.height == 200)
        let temp = TemporaryDirectory("photoedit-raw-rotated")
        let upright = try Self.develop(Self.dng, "raw", into: temp, name: "upright")
        let turned = try Self.develop(rotated, "raw", into: temp, name: "turned")
        let image = try Pixels.load(turned)
        #expect(image.width == 300 && image.height == 200)
        // Same scene, same way up (the sensor's colour pattern falls
        // differently on the turned scene, so demosaic differs a little);
        // the wrong way up differs by far more.
        #expect(try Pixels.deltaE(upright, turned).mean < 5)
        try Pixels.load(turned).rotate(quarterTurns: 2).save(to: temp.file("wrong.png"), format: "png")
        #expect(try Pixels.deltaE(upright, temp.file("wrong.png")).mean > 10)
        // The embedded JPEG preview (stored turned, like the sensor data) comes out upright.
        let preview = try #require(try RawDecoder.embeddedPreview(rotated, minSize: 200, target: 0))
        #expect(preview.width == 256 && preview.height == 171)
        try preview.save(to: temp.file("preview.png"), format: "png")
        let reference = try Image.load(path: Self.jpeg, sequential: false).thumbnail(width: 256, height: 256)
        try reference.save(to: temp.file("reference.png"), format: "png")
        #expect(try Pixels.deltaE(temp.file("preview.png"), temp.file("reference.png")).mean < 3)
    }

    @Test func previewsUseTheEmbeddedJPEGOrAHalfSizeDevelopment() throws {
        // Too small an embedded preview, or none: libraw's half-size development.
        #expect(try RawDecoder.embeddedPreview(Paths.rawFixture("rotated.dng"), minSize: 1024) == nil)
        let half = try RawDecoder.preview(Self.dng, minSize: 64)
        #expect(half.width == 150 && half.height == 100)
        let fitted = try RawDecoder.preview(Paths.rawFixture("rotated.dng"), minSize: 64, target: 128)
        #expect(fitted.width == 128 && (85...86).contains(fitted.height))
        #expect(throws: PhotoEditError.self) { try RawDecoder.preview(Paths.rawFixture("truncated.dng"), minSize: 64) }
    }

    @Test func linearRawDNGDevelops() throws {
        let linear = Paths.rawFixture("linear.dng")
        let info = try #require(RawDecoder.identify(linear))
        #expect(info.model == "Synthetic LinearRaw" && info.width == 150 && info.height == 100)
        let temp = TemporaryDirectory("photoedit-raw-linear")
        let developed = try Self.develop(linear, "raw", into: temp, name: "linear")
        let reference = try Image.load(path: Self.jpeg, sequential: false).thumbnail(width: 150, height: 150)
        try reference.save(to: temp.file("reference.png"), format: "png")
        let (_, mean) = try Pixels.deltaE(developed, temp.file("reference.png"))
        #expect(mean < 5, "LinearRaw vs the photo it was made from: mean ΔE \(mean)")
    }

    // MARK: RAW+JPEG pairs

    /// A folder holding a RAW and a JPEG of one shot (plus an unrelated JPEG).
    @Test func rawAndJPEGOfOneShotImportAsOnePhoto() throws {
        let folder = try Paths.rawJPEGPairFolder()
        let lib = CLILibrary()
        let r = try lib.succeed(["import", folder.url.path])
        let ids = r.stdout.split(separator: "\n").map { String($0.split(separator: "\t")[0]) }
        #expect(ids.count == 3 && Set(ids).count == 2, "\(r.stdout)")
        #expect(r.stderr.contains("RAW+JPEG pair"))
        let id = ids[0]
        let show = try lib.show(id)
        #expect(show["format"] == .string("jpeg") && show["originalFilename"] == .string("IMG_0042.JPG"))
        guard case .object(let alternate)? = show["alternate"] else { Issue.record("no alternate: \(show)"); return }
        #expect(alternate["format"] == .string("raw") && alternate["filename"] == .string("IMG_0042.DNG"))
        guard case .object(let camera)? = show["camera"] else { Issue.record("no camera metadata"); return }
        #expect(camera["model"] == .string("Synthetic CFA"))
        // Importing either file again finds the pair.
        let again = try lib.succeed(["import", folder.file("IMG_0042.DNG")])
        #expect(again.stdout.hasPrefix(id) && again.stderr.contains("already in the library"))
        // Resources: the JPEG is `photo`, the RAW `alternatePhoto`, byte for byte.
        let out = TemporaryDirectory("photoedit-pair-out")
        try lib.succeed(["export", id, "--resource", "alternatePhoto", "-o", out.file("raw.dng")])
        #expect(try Hashing.sha256(out.file("raw.dng")) == Hashing.sha256(Self.dng))
        try lib.succeed(["export", id, "--resource", "photo", "-o", out.file("photo.jpg")])
        #expect(try Hashing.sha256(out.file("photo.jpg")) == Hashing.sha256(Self.jpeg))
        // `original` is the RAW developed; `unadjusted` the camera JPEG.
        try lib.succeed(["render", id, "--version", "original", "-o", out.file("original.png")])
        try lib.succeed(["render", id, "--version", "unadjusted", "-o", out.file("unadjusted.png")])
        let developed = try Self.develop(Self.dng, "raw", into: out, name: "developed")
        #expect(try Pixels.maxAbsDifference(Pixels.load(out.file("original.png")), Pixels.load(developed)) == 0)
        try Image.load(path: Self.jpeg, sequential: false).save(to: out.file("jpeg.png"), format: "png")
        #expect(try Pixels.deltaE(out.file("unadjusted.png"), out.file("jpeg.png")).max < 1)
        try lib.succeed(["verify"])
    }

    @Test func editsStartFromEitherFileAndSayWhich() throws {
        let folder = try Paths.rawJPEGPairFolder()
        let lib = CLILibrary()
        let id = try lib.importFiles([folder.file("IMG_0042.JPG"), folder.file("IMG_0042.DNG")])[0]
        func base() throws -> String? {
            guard case .object(let data)? = try lib.show(id)["adjustmentData"], case .string(let text)? = data["data"],
                  case .object(let recipe) = try JSONValue.parse(Data(text.utf8)), case .string(let b)? = recipe["base"] else { return nil }
            return b
        }
        try lib.succeed(["apply", "exposure=+0.5", id])
        #expect(try base() == "original")  // the JPEG, PhotoKit's default
        // Setting the RAW development moves the edit to the RAW; the filters carry over.
        try lib.succeed(["apply", "raw.wb=4500", id])
        #expect(try base() == "alternate")
        let chain = try lib.show(id)["chain"]
        #expect(chain == .string("raw.wb=4500,exposure=+0.5"), "\(String(describing: chain))")
        let history = try lib.history(id)
        #expect(history.last?["base"] == .string("alternate"))
        let out = TemporaryDirectory("photoedit-pair-edit")
        try lib.succeed(["render", id, "-o", out.file("raw.png")])
        // Back to the JPEG: the RAW development goes, the rest stays.
        try lib.succeed(["apply", "--base", "jpeg", "contrast=+10", id])
        #expect(try base() == "original" && lib.show(id)["chain"] == .string("exposure=+0.5,contrast=+10"))
        try lib.succeed(["render", id, "-o", out.file("jpeg.png")])
        #expect(try Pixels.deltaE(out.file("raw.png"), out.file("jpeg.png")).mean > 2)
        // Reverting to the revision made on the RAW renders it again, on the RAW.
        try lib.succeed(["revert", id, "--to", String(history.count - 1)])
        #expect(try base() == "alternate")
        try lib.succeed(["render", id, "-o", out.file("again.png")])
        #expect(try Pixels.deltaE(out.file("raw.png"), out.file("again.png")).max < 1.5)
        // --base raw on a single JPEG: one line, nothing changed.
        let single = try lib.importFiles([folder.file("IMG_0043.JPG")])[0]
        let before = try lib.snapshot(filesFirst: true)
        let r = try lib.run(["apply", "--base", "raw", "exposure=+1", single])
        #expect(r.status != 0 && r.stderrLines.count == 1 && r.stderr.contains("no RAW"), "\(r)")
        #expect(try lib.snapshot(filesFirst: true) == before)
        try lib.succeed(["verify"])
    }

    @Test func theSecondFileJoinsLaterAndEarlierEditsRenderTheSame() throws {
        let folder = try Paths.rawJPEGPairFolder()
        let lib = CLILibrary()
        let id = try lib.importFiles([folder.file("IMG_0042.DNG")])[0]
        try lib.succeed(["apply", "raw.wb=5000,exposure=+0.3", id])
        let out = TemporaryDirectory("photoedit-pair-join")
        try lib.succeed(["render", id, "-o", out.file("before.png")])
        let joined = try lib.succeed(["import", folder.file("IMG_0042.JPG")])
        #expect(joined.stdout.hasPrefix(id) && joined.stderr.contains("joined"), "\(joined)")
        #expect(try lib.run(["list"]).stdout.split(separator: "\n").count == 1)
        let show = try lib.show(id)
        #expect(show["format"] == .string("jpeg"))
        try lib.succeed(["render", id, "-o", out.file("after.png")])
        #expect(try Pixels.maxAbsDifference(Pixels.load(out.file("before.png")), Pixels.load(out.file("after.png"))) == 0)
        // The next edit stays on the RAW.
        try lib.succeed(["apply", "contrast=+10", id])
        #expect(try lib.history(id).last?["base"] == .string("alternate"))
        try lib.succeed(["verify"])
        // Purging the photo removes both files.
        try lib.succeed(["delete", id])
        try lib.succeed(["purge", id])
        let originals = try Hashing.tree(lib.path + "/originals")
        #expect(originals.isEmpty, "\(originals)")
    }
}
