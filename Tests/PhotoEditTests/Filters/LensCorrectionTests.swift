import Foundation
import Testing
@testable import PhotoEdit

/// The `lens` filter on lensfun: its render against an independent
/// reference (lensfunpy from PyPI, driving the same database, remapped with
/// numpy), the accuracy of its coarse maps, and finding lenses from EXIF.
@Suite("LensCorrection")
struct LensCorrectionTests {
    let registry = FilterRegistry.standard

    /// The venv scripts/install-deps fills (lensfunpy and numpy).
    static let python = (ProcessInfo.processInfo.environment["PHOTOEDIT_VENV"]
        ?? ((ProcessInfo.processInfo.environment["XDG_CACHE_HOME"] ?? NSHomeDirectory() + "/.cache") + "/photoedit/venv")) + "/bin/python"

    static let lensfunpyMissing: String? = {
        guard FileManager.default.isExecutableFile(atPath: python) else { return "no Python venv at \(python)" }
        let p = Process()
        p.executableURL = URL(fileURLWithPath: python)
        p.arguments = ["-c", "import lensfunpy, numpy"]
        p.standardError = FileHandle.nullDevice
        guard (try? p.run()) != nil else { return "cannot run \(python)" }
        p.waitUntilExit()
        return p.terminationStatus == 0 ? nil : "lensfunpy is not installed in \(python)'s venv"
    }()

    struct Case: Sendable, CustomStringConvertible {
        let maker: String, camera: String, lens: String, focal: Double, aperture: Double, flags: String
        var description: String { "\(lens) at \(focal) mm f/\(aperture) [\(flags)]" }
        var chain: String {
            "lens.camera=\(camera),lens.lens=\(lens),lens.focal=\(focal),lens.aperture=\(aperture),"
                + "lens.distortion=\(flags.contains("d") ? 100 : 0),lens.tca=\(flags.contains("t") ? 100 : 0),lens.vignetting=\(flags.contains("v") ? 100 : 0)"
        }
    }

    static let cases = [
        Case(maker: "Canon", camera: "Canon EOS 5D Mark II", lens: "Canon EF 24-105mm f/4L IS USM", focal: 24, aperture: 4, flags: "dtv"),
        Case(maker: "Canon", camera: "Canon EOS 5D Mark II", lens: "Canon EF 24-105mm f/4L IS USM", focal: 105, aperture: 8, flags: "d"),
        Case(maker: "Sony", camera: "ILCE-6000", lens: "E 18-55mm f/3.5-5.6 OSS", focal: 18, aperture: 3.5, flags: "dtv"),
        Case(maker: "Sony", camera: "ILCE-6000", lens: "E 18-55mm f/3.5-5.6 OSS", focal: 18, aperture: 5.6, flags: "t"),
        Case(maker: "Nikon", camera: "Nikon D700", lens: "Nikon AF-S Zoom-Nikkor 24-70mm f/2.8G ED", focal: 24, aperture: 2.8, flags: "v"),
    ]

    func node(_ chain: String) throws -> RecipeNode {
        try #require(try Chain.apply(Chain.parse(chain), to: .empty, registry: registry).node("lens"))
    }

    /// Without and with `autoscale` (lensfunpy then scales by lensfun's own
    /// automatic scale, which the filter does not use: it finds its own).
    @Test("each correction matches lensfunpy's on the same database: ΔE00 mean < 1",
          .enabled(if: lensfunpyMissing == nil, "\(lensfunpyMissing ?? ""): scripts/install-deps installs it"),
          arguments: cases, [false, true])
    func matchesLensfunpy(_ c: Case, autoscale: Bool) throws {
        let working = try Renderer(registry: registry).workingImage(path: Paths.sample("coffee.jpg"), randomAccess: true)
        let (w, h) = (working.width, working.height)
        let folder = TemporaryDirectory()
        let input = folder.file("in.f32"), output = folder.file("out.f32")
        try working.cast("float").pixelBytes().write(to: URL(fileURLWithPath: input))
        let n = try node(c.chain + ",lens.autoscale=\(autoscale)")
        #expect(n.parameters.text("lens") == c.lens && n.parameters.text("camera") == c.camera)
        #expect(n.parameters.bool("autoscale") == autoscale)
        let ours = try Filters.lens.render(working, n.parameters, RenderContext())
        #expect(ours !== working)

        let p = Process()
        p.executableURL = URL(fileURLWithPath: Self.python)
        p.arguments = [Paths.root.appendingPathComponent("Tests/lens/lensfunpy_reference.py").path, input, output, "\(w)", "\(h)",
                       c.maker, c.camera, c.lens, "\(c.focal)", "\(c.aperture)", "1000", c.flags] + (autoscale ? ["autoscale"] : [])
        let errors = Pipe()
        p.standardError = errors
        p.standardOutput = FileHandle.nullDevice
        try p.run()
        let message = String(decoding: try FileIO.readToEnd(errors.fileHandleForReading.fileDescriptor, what: "the tool's messages"), as: UTF8.self)
        p.waitUntilExit()
        try #require(p.terminationStatus == 0, "\(message)")
        let data = try Data(contentsOf: URL(fileURLWithPath: output))
        let floats = data.withUnsafeBytes { Array($0.bindMemory(to: Float.self)) }
        let reference = try BrushCanvas.floatImage(floats, width: w, height: h, bands: 3).call("copy", [("interpretation", .string("scrgb"))])

        let srgb = { (i: Image) in try i.call("copy", [("interpretation", .string("scrgb"))]).colourspace("srgb").cast("uchar") }
        let (maxE, meanE) = try Pixels.deltaE(srgb(ours), srgb(reference))
        // And the correction does something: far from the uncorrected image.
        let (_, meanBefore) = try Pixels.deltaE(srgb(working), srgb(reference))
        print("lens vs lensfunpy, \(c)\(autoscale ? " autoscale" : ""): ΔE00 mean \(meanE), max \(maxE); uncorrected mean \(meanBefore)")
        #expect(meanE < 1, "ΔE00 mean \(meanE) (max \(maxE))")
        #expect(meanBefore > 4 * meanE, "uncorrected ΔE00 mean \(meanBefore)")
    }

    /// The maps are computed on a grid and interpolated: on a 24 MP frame
    /// the positions stay within a small fraction of a pixel of lensfun's own.
    @Test func coarseMapsStaySubPixel() throws {
        let db = try LensDatabase.shared()
        let n = try node(Self.cases[0].chain)
        let setting = try #require(LensCorrection.setting(n.parameters, db: db))
        let (w, h) = (6000, 4000)
        let step = LensCorrection.gridStep(long: w)
        #expect(step > 8)
        let nx = (w - 1 + step - 1) / step + 1, ny = (h - 1 + step - 1) / step + 1
        var grid = [Float](), fine = [Float]()
        for j in 0..<ny { for i in 0..<nx { grid += [Float(i * step), Float(j * step)] } }
        // Check at every 37th pixel (between grid points), not on the grid.
        let probe = 37
        let (px, py) = (w / probe, h / probe)   // as libvips subsample counts
        for j in 0..<py { for i in 0..<px { fine += [Float(i * probe), Float(j * probe)] } }
        let coarse = try #require(try db.distortion(setting, width: w, height: h, at: grid))
        let exact = try #require(try db.distortion(setting, width: w, height: h, at: fine))
        let upsampled = try LensCorrection.upsampled(BrushCanvas.floatImage(coarse, width: nx, height: ny, bands: 2), step: step, width: w, height: h)
        let sampled = try Vips.image("subsample", [("input", .image(upsampled)), ("xfac", .number(Double(probe))), ("yfac", .number(Double(probe)))]).floatPixels()
        try #require(sampled.count == exact.count)
        var worst: Float = 0
        for k in exact.indices { worst = max(worst, abs(sampled[k] - exact[k])) }
        // The distortion itself is tens of pixels at the corners.
        var largest: Float = 0
        for k in fine.indices { largest = max(largest, abs(exact[k] - fine[k])) }
        print("lens map on a \(step)-px grid, 6000×4000: worst error \(worst) px; correction up to \(largest) px")
        #expect(largest > 20)
        #expect(worst < 0.05)
        // Vignetting's gain likewise (relative).
        let gains = try #require(try db.vignetting(setting, width: w, height: h, at: grid))
        let exactGains = try #require(try db.vignetting(setting, width: w, height: h, at: fine))
        let gainMap = try LensCorrection.upsampled(BrushCanvas.floatImage(gains, width: nx, height: ny, bands: 1), step: step, width: w, height: h)
        let sampledGains = try Vips.image("subsample", [("input", .image(gainMap)), ("xfac", .number(Double(probe))), ("yfac", .number(Double(probe)))]).floatPixels()
        var worstGain: Float = 0
        for k in exactGains.indices { worstGain = max(worstGain, abs(sampledGains[k] / exactGains[k] - 1)) }
        #expect(worstGain < 1e-3, "relative gain error \(worstGain)")
    }

    @Test func neutralAndUnknownLensesLeaveTheImageAlone() throws {
        let image = try FilterBench().flat(60, 40, 0.5)
        #expect(try Filters.lens.render(image, Filters.lens.defaults, RenderContext()) === image)
        // Amounts on, but no lens found: nothing to correct.
        let none = try node("lens")
        #expect(none.parameters.text("lens").isEmpty)
        #expect(try Filters.lens.render(image, none.parameters, RenderContext()) === image)
        #expect(!Filters.lens.needsRandomAccess(none.parameters))
    }

    /// `autoscale` (version 2, on by default): a pincushion correction
    /// (manual −) leaves black corners without it and none with it; the
    /// scale is the smallest that fills (a little less leaves a corner
    /// empty); a correction that pushes picture out of every edge (manual +)
    /// scales below 1, showing what it pushed out.
    @Test func autoscaleFillsTheFrame() throws {
        let image = try FilterBench().flat(300, 200, 0.5)
        // The EF 24-105mm's pincushion at 105 mm: its correction pulls the picture in.
        let pincushion = "lens.camera=Canon EOS 5D Mark II,lens.lens=Canon EF 24-105mm f/4L IS USM,lens.focal=105,lens.distortion=100"
        // Its barrel at 24 mm: lensfun's model keeps the circle of the half
        // short side in place, the correction pushes the rest out: nothing to
        // fill, and the top and bottom edges' middles stay put (scale 1).
        let barrel = pincushion.replacingOccurrences(of: "focal=105", with: "focal=24")
        #expect(try node(pincushion).parameters.bool("autoscale"))
        func darkestCorner(_ chain: String) throws -> Double {
            let out = try Filters.lens.render(image, node(chain).parameters, RenderContext())
            #expect(out.width == 300 && out.height == 200)
            var darkest = Double.infinity
            for (x, y) in [(0, 0), (299, 0), (0, 199), (299, 199)] {
                let pixel: [Float] = try out.extractArea(left: x, top: y, width: 1, height: 1).floatPixels()
                darkest = min(darkest, Double(pixel.min() ?? 0))
            }
            return darkest
        }
        #expect(try darkestCorner(pincushion + ",lens.autoscale=false") < 0.3)
        #expect(try darkestCorner(pincushion) > 0.49)
        #expect(try darkestCorner(barrel) > 0.49 && darkestCorner(barrel + ",lens.autoscale=false") > 0.49)
        // Manual − (a pincushion correction) empties the corners too.
        #expect(try darkestCorner("lens.manual=-60") > 0.49)
        #expect(try darkestCorner("lens.manual=-60,lens.autoscale=false") < 0.3)

        let db = try LensDatabase.shared()
        let setting = try #require(LensCorrection.setting(node(pincushion).parameters, db: db))
        let wide = try #require(LensCorrection.setting(node(barrel).parameters, db: db))
        func geometry(_ d: Double, manual: Double = 0) -> LensCorrection.Geometry {
            LensCorrection.Geometry(setting: setting, db: db, distortion: d, tca: 0, manual: manual, width: 6000, height: 4000)
        }
        let scale = try geometry(1).fillScale()
        let wideScale = try LensCorrection.Geometry(setting: wide, db: db, distortion: 1, tca: 0, manual: 0, width: 6000, height: 4000).fillScale()
        print("lens autoscale, Canon EF 24-105mm: \(scale) at 105 mm, \(wideScale) at 24 mm")
        #expect(scale > 1.003 && scale < 1.2, "\(scale)")
        #expect(abs(wideScale - 1) < 0.001, "\(wideScale)")
        #expect(try geometry(1).fills(scale, border: geometry(1).border()))
        #expect(try !geometry(1).fills(scale - 0.002, border: geometry(1).border()))
        // Twice the correction needs more; manual + less than 1.
        #expect(try geometry(2).fillScale() > scale)
        #expect(try geometry(0, manual: 60).fillScale() < 1)
        #expect(try geometry(0, manual: -60).fillScale() > 1)
        #expect(try geometry(0).fillScale() == 1)
    }

    /// A recipe of version 1 (no `autoscale`) reads as version 2 with it off: the same render.
    @Test func versionOneRecipesKeepTheirFrame() throws {
        let json = try JSONValue.parse(Data(#"{"format":"org.photoedit.recipe","formatVersion":1,"filters":[{"id":"lens","version":1,"params":{"distortion":100,"camera":"Canon EOS 5D Mark II","lens":"Canon EF 24-105mm f/4L IS USM","focal":24}}]}"#.utf8))
        let recipe = try Recipe(json: json, registry: registry)
        let n = try #require(recipe.node("lens"))
        #expect(n.version == 2)
        #expect(n.parameters.values["autoscale"] == .bool(false))
    }

    @Test func manualNamesAreCheckedAndPutInTheDatabasesSpelling() throws {
        let n = try node("lens.lens=canon ef 24-105mm f/4l is usm,lens.focal=50,lens.distortion=100")
        #expect(n.parameters.text("lens") == "Canon EF 24-105mm f/4L IS USM")
        #expect(n.parameters.text("database").hasPrefix("v1-"))
        #expect(throws: PhotoEditError.self) { try node("lens.lens=No Such Lens 3000mm f/0.5 XYZ,lens.distortion=100") }
        #expect(throws: PhotoEditError.self) { try node("lens.database=v1-1") }
    }

    @Test func lensNamesFromEXIFAreSanitizedAsDarktableDoes() {
        #expect(LensIdentification.sanitized("Canon EF 28-70mm f/2.8L or Sigma Lens") == "Canon EF 28-70mm f/2.8L")
        #expect(LensIdentification.sanitized("EF24-105mm f/4L IS USM (some remark)") == "EF24-105mm f/4L IS USM")
        #expect(LensIdentification.sanitized("----") == nil)
        #expect(LensIdentification.sanitized("(65535)") == nil)
        #expect(LensIdentification.sanitized("") == nil)
    }

    /// A copy of a sample with the EXIF `tags` (exiftool).
    func photo(_ folder: TemporaryDirectory, _ tags: [String]) throws -> String {
        let path = folder.file("photo.jpg")
        try FileManager.default.copyItem(atPath: Paths.sample("coffee.jpg"), toPath: path)
        let p = Process()
        p.executableURL = URL(fileURLWithPath: "/usr/bin/exiftool")
        p.arguments = ["-q", "-overwrite_original"] + tags + [path]
        try p.run()
        p.waitUntilExit()
        try #require(p.terminationStatus == 0)
        return path
    }

    @Test func findsTheCameraAndLensInEXIF() throws {
        let folder = TemporaryDirectory()
        let path = try photo(folder, ["-Make=Canon", "-Model=Canon EOS 5D Mark II", "-LensModel=EF24-105mm f/4L IS USM or Sigma Lens",
                                      "-FocalLength=40", "-FNumber=5.6"])
        let found = try LensIdentification.of(path: path)
        #expect(found.camera == "Canon EOS 5D Mark II")
        #expect(found.lens == "Canon EF 24-105mm f/4L IS USM")
        #expect(found.focal == 40 && found.aperture == 5.6 && found.cropFactor == 1)
        #expect(found.corrections == ["distortion", "tca", "vignetting"])
        #expect(found.problem == nil, "\(found.problem ?? "")")
        // Applied to a recipe's bare `lens`: every value stored.
        let recipe = try found.applied(to: Chain.apply(Chain.parse("lens"), to: .empty, registry: registry))
        let p = try #require(recipe.node("lens")).parameters
        #expect(p.text("lens") == "Canon EF 24-105mm f/4L IS USM" && p.number("focal") == 40 && p.number("aperture") == 5.6)
        #expect(p.text("database") == found.database && !found.database.isEmpty)
    }

    @Test func aCompactsFixedLensNeedsNoLensName() throws {
        let folder = TemporaryDirectory()
        let path = try photo(folder, ["-Make=Canon", "-Model=Canon PowerShot G12", "-FocalLength=6.1", "-FNumber=2.8"])
        let found = try LensIdentification.of(path: path)
        #expect(found.camera == "Canon PowerShot G12")
        #expect(found.lens != nil, "\(found.summary)")
        #expect(found.problem == nil)
    }

    /// Through the CLI: `apply lens` stores what EXIF names; a photo without
    /// a lens gets a one-line note, exit 0, and renders unchanged; `lens ID`
    /// and `lenses --search` answer.
    @Test func theCommandsStoreReportAndList() throws {
        let lib = CLILibrary()
        let folder = TemporaryDirectory()
        let tagged = try photo(folder, ["-Make=Canon", "-Model=Canon EOS 5D Mark II", "-LensModel=EF24-105mm f/4L IS USM", "-FocalLength=24", "-FNumber=4"])
        let ids = try lib.importFiles([tagged, Paths.sample("chart.png")])
        try #require(ids.count == 2)
        let found = try lib.succeed(["lens", ids[0]])
        #expect(found.stdout.contains("lens      Canon EF 24-105mm f/4L IS USM") && found.stdout.contains("profile   distortion, tca, vignetting"), "\(found)")
        let applied = try lib.succeed(["apply", "lens", ids[0]])
        #expect(applied.stderr.isEmpty, "\(applied)")
        let chain = try lib.show(ids[0])["chain"]?.string ?? ""
        #expect(chain.contains("lens.lens=Canon EF 24-105mm f/4L IS USM") && chain.contains("lens.focal=24") && chain.contains("lens.camera=Canon EOS 5D Mark II"), "\(chain)")
        let none = try lib.succeed(["apply", "lens,exposure=+0.5", ids[1]])
        #expect(none.stderrLines.count == 1 && none.stderr.contains("lens leaves the photo unchanged: the photo's EXIF names no camera and no lens"), "\(none)")
        let why = try lib.succeed(["lens", ids[1]])
        #expect(why.stdout.contains("no lens correction: the photo's EXIF names no camera and no lens"))
        let listed = try lib.succeed(["lenses", "--search", "24-105mm f/4L"])
        #expect(listed.stdoutLines.contains { $0.hasPrefix("lens\tCanon\tCanon EF 24-105mm f/4L IS USM\t24-105 mm") }, "\(listed)")
        let nothing = try lib.succeed(["lenses", "--search", "no such lens anywhere"])
        #expect(nothing.stdout.isEmpty && nothing.stderr.contains("nothing in lensfun's database"))
        #expect(try lib.run(["lenses", "--lenses-only", "--cameras-only"]).status != 0)
    }

    /// A RAW: libraw reads the camera and lens; `apply lens` stores them,
    /// and the editor's preview (the same identification) corrects.
    @Test func aRawIsIdentifiedThroughLibrawAndCorrected() throws {
        let folder = TemporaryDirectory()
        let path = folder.file("photo.dng")
        try FileManager.default.copyItem(atPath: Paths.root.appendingPathComponent("Tests/Fixtures/raw/coffee.dng").path, toPath: path)
        let p = Process()
        p.executableURL = URL(fileURLWithPath: "/usr/bin/exiftool")
        p.arguments = ["-q", "-q", "-overwrite_original", "-Make=Canon", "-Model=Canon EOS 5D Mark II", "-UniqueCameraModel=Canon EOS 5D Mark II",
                       "-LensModel=EF24-105mm f/4L IS USM", "-FocalLength=50", "-FNumber=8", path]
        try p.run()
        p.waitUntilExit()
        try #require(p.terminationStatus == 0)
        let found = try LensIdentification.of(path: path)
        #expect(found.lens == "Canon EF 24-105mm f/4L IS USM" && found.focal == 50 && found.aperture == 8, "\(found.summary)")
        let library = try PhotoLibrary(url: folder.url.appendingPathComponent("library"))
        let id = try #require(try library.importItems([path], jobs: 1).first?.id)
        let revision = try library.apply(chain: "lens", to: id)
        let recipe = try Recipe(adjustmentData: #require(revision.adjustmentData), registry: registry)
        let stored = try #require(recipe.node("lens")).parameters
        #expect(stored.text("lens") == "Canon EF 24-105mm f/4L IS USM" && stored.number("focal") == 50 && stored.number("aperture") == 8)
        let corrected = try library.preview(id, steps: Chain.parse("lens"), longEdge: 160, reset: true)
        let plain = try library.preview(id, steps: Chain.parse("exposure=0"), longEdge: 160, reset: true)
        let (_, mean) = try Pixels.deltaE(Image.load(data: corrected.data), Image.load(data: plain.data))
        #expect(mean > 1, "the preview corrects: ΔE00 mean \(mean)")
    }

    /// Copying a recipe carries the amounts; each photo keeps its own lens.
    @Test func copyingARecipeLooksEachPhotosLensUp() throws {
        let folder = TemporaryDirectory()
        let canon = try photo(folder, ["-Make=Canon", "-Model=Canon EOS 5D Mark II", "-LensModel=EF24-105mm f/4L IS USM", "-FocalLength=24", "-FNumber=4"])
        let other = TemporaryDirectory()
        let nikon = try photo(other, ["-Make=NIKON CORPORATION", "-Model=NIKON D700", "-LensModel=AF-S Zoom-Nikkor 24-70mm f/2.8G ED", "-FocalLength=35", "-FNumber=2.8"])
        let library = try PhotoLibrary(url: folder.url.appendingPathComponent("library"))
        let ids = try library.importItems([canon, nikon], jobs: 1).compactMap(\.id)
        try #require(ids.count == 2)
        try library.apply(chain: "lens=100:0:50", to: ids[0])
        let revisions = try library.copyRecipe(from: ids[0], to: [ids[1]])
        let recipe = try Recipe(adjustmentData: #require(revisions.first?.adjustmentData), registry: registry)
        let p = try #require(recipe.node("lens")).parameters
        #expect(p.text("lens") == "Nikon AF-S Zoom-Nikkor 24-70mm f/2.8G ED" && p.number("focal") == 35, "\(p.values)")
        #expect(p.number("distortion") == 100 && p.number("tca") == 0 && p.number("vignetting") == 50)
    }

    @Test func anUnknownLensSaysWhy() throws {
        let folder = TemporaryDirectory()
        let noLens = try LensIdentification.of(path: try photo(folder, ["-Make=Canon", "-Model=Canon EOS 5D Mark II", "-FocalLength=50"]))
        #expect(noLens.lens == nil)
        #expect(noLens.summary.contains("names no lens"), "\(noLens.summary)")
        let plain = try LensIdentification.of(path: Paths.sample("chart.png"))
        #expect(plain.lens == nil && plain.summary.contains("no camera and no lens"), "\(plain.summary)")
        // A recipe's bare `lens` stays unfilled: the filter leaves the photo alone.
        let recipe = try plain.applied(to: Chain.apply(Chain.parse("lens"), to: .empty, registry: registry))
        #expect(try #require(recipe.node("lens")).parameters.text("lens").isEmpty)
    }
}

/// Lightroom's Lens Corrections panel read into `lens` and written back.
@Suite("LensCorrection Lightroom")
struct LensLightroomTests {
    static func packet(_ attributes: String) -> String {
        """
        <x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">
         <rdf:Description rdf:about="" xmlns:crs="http://ns.adobe.com/camera-raw-settings/1.0/"
          xmlns:tiff="http://ns.adobe.com/tiff/1.0/" xmlns:exif="http://ns.adobe.com/exif/1.0/" xmlns:aux="http://ns.adobe.com/exif/1.0/aux/"
          tiff:Make="Canon" tiff:Model="Canon EOS 5D Mark II" exif:FocalLength="24/1" exif:FNumber="4/1" \(attributes)/>
        </rdf:RDF></x:xmpmeta>
        """
    }

    static let settings = #"crs:ProcessVersion="11.0" crs:LensProfileEnable="1" crs:LensProfileName="Adobe (Canon EF 24-105mm f/4L IS USM)" "#
        + #"crs:LensProfileVignettingScale="50" crs:AutoLateralCA="1" crs:LensManualDistortionAmount="+10""#

    @Test func theProfileScalesChromaticAberrationAndManualDistortionAreMapped() throws {
        let t = try LightroomSettings(packet: Data(Self.packet(Self.settings).utf8)).translation()
        let p = try #require(t.recipe.node("lens")).parameters
        #expect(p.text("lens") == "Canon EF 24-105mm f/4L IS USM" && p.text("camera") == "Canon EOS 5D Mark II")
        #expect(p.number("focal") == 24 && p.number("aperture") == 4)
        #expect(p.number("distortion") == 100 && p.number("vignetting") == 50 && p.number("tca") == 100 && p.number("manual") == 10)
        #expect(Set(t.applied).isSuperset(of: ["LensProfileEnable", "AutoLateralCA", "LensManualDistortionAmount"]), "\(t.applied)")
        #expect(!t.unmapped.contains { $0.hasPrefix("Lens") || $0.hasPrefix("AutoLateralCA") }, "\(t.unmapped)")
    }

    @Test func aPacketWithoutALensKeepsTheNodeForThePhotosEXIF() throws {
        let preset = """
        <x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">
         <rdf:Description rdf:about="" xmlns:crs="http://ns.adobe.com/camera-raw-settings/1.0/" crs:ProcessVersion="11.0" crs:LensProfileEnable="1"/>
        </rdf:RDF></x:xmpmeta>
        """
        let t = try LightroomSettings(packet: Data(preset.utf8)).translation()
        let p = try #require(t.recipe.node("lens")).parameters
        #expect(p.text("lens").isEmpty && p.number("distortion") == 100)
        #expect(t.unmapped.contains { $0.hasPrefix("LensProfileEnable (") }, "\(t.unmapped)")
    }

    @Test func translationVersion2KeepsListingThemAsNotMapped() throws {
        let s = try LightroomSettings(packet: XMPPacket(data: Data(Self.packet(Self.settings).utf8)), version: 2)
        let t = try s.translation()
        #expect(t.recipe.node("lens") == nil)
        #expect(t.unmapped.contains { $0.hasPrefix("LensProfileEnable") } && t.unmapped.contains { $0.hasPrefix("AutoLateralCA") }, "\(t.unmapped)")
    }

    /// Translation version 4 fills the frame (lens version 2, autoscale on),
    /// as Lightroom's profile correction; a packet read by version 3 keeps
    /// lens version 1 (its empty corners): it renders as it did.
    @Test func translationVersion4FillsTheFrameAndVersion3KeepsItsReading() throws {
        let packet = try XMPPacket(data: Data(Self.packet(Self.settings).utf8))
        let v4 = try #require(try LightroomSettings(packet: packet, version: 4).translation().recipe.node("lens"))
        #expect(v4.version == 2 && v4.parameters.bool("autoscale"))
        let v3 = try #require(try LightroomSettings(packet: packet, version: 3).translation().recipe.node("lens"))
        // Read as lens version 1, migrated on load to version 2 with autoscale off (the same render).
        #expect(!v3.parameters.bool("autoscale"))
        #expect(v3.parameters.number("distortion") == v4.parameters.number("distortion") && v3.parameters.text("lens") == v4.parameters.text("lens"))
    }

    /// Translation version 5 reads Clarity2012 and Dehaze as clarity and
    /// dehaze version 3; a packet read by version 4 keeps version 2 of both
    /// (and every other filter's version): it renders as it did.
    @Test func translationVersion5TakesClarityAndDehazeThreeAndVersion4KeepsTwo() throws {
        let packet = try XMPPacket(data: Data(Self.packet(#"crs:ProcessVersion="11.0" crs:Clarity2012="+30" crs:Dehaze="+25" crs:Texture="-20""#).utf8))
        let v5 = try LightroomSettings(packet: packet, version: 5).translation().recipe
        let v4 = try LightroomSettings(packet: packet, version: 4).translation().recipe
        #expect(v5.node("clarity")?.version == 3 && v5.node("dehaze")?.version == 3 && v5.node("texture")?.version == 3)
        #expect(v4.node("clarity")?.version == 2 && v4.node("dehaze")?.version == 2 && v4.node("texture")?.version == 3)
        #expect(v5.nodes.map(\.parameters) == v4.nodes.map(\.parameters))
        #expect(LightroomSettings.filterVersions(4).filter { $0.key != "clarity" && $0.key != "dehaze" } ==
                LightroomSettings.filterVersions(5).filter { $0.key != "clarity" && $0.key != "dehaze" })
    }

    @Test func exportWritesThemBackAndTheyReadTheSame() throws {
        let t = try LightroomSettings(packet: Data(Self.packet(Self.settings).utf8)).translation()
        let written = LightroomEquivalents(recipe: t.recipe, orientation: 1)
        let names = Dictionary(uniqueKeysWithValues: written.values.map { ($0.name, $0.value) })
        #expect(names["LensProfileEnable"] == "1" && names["LensProfileName"] == "Canon EF 24-105mm f/4L IS USM")
        #expect(names["LensProfileVignettingScale"] == "50" && names["AutoLateralCA"] == "1" && names["LensManualDistortionAmount"] == "+10")
        #expect(!written.notExported.contains("lens"))
        let attributes = #"crs:ProcessVersion="11.0" "# + written.values.map { "crs:\($0.name)=\"\(XMPSidecar.escaped($0.value))\"" }.joined(separator: " ")
        let back = try LightroomSettings(packet: Data(Self.packet(attributes).utf8)).translation()
        #expect(back.recipe.node("lens") == t.recipe.node("lens"))
    }
}
