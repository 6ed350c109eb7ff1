import Foundation
import Testing
@testable import PhotoEdit

/// Previews (Storage/Files/Previews.swift): made at import and at each
/// edit's commit, used by image requests whose result fits inside them,
/// made again on first use when missing (the same bytes), removed with
/// their file, and checked and repaired by `verify`.
@Suite("Previews of large photos")
struct PreviewTests {
    /// A 3600 × 2400 JPEG (coffee.jpg enlarged 6×): large enough for a preview.
    static func largeJPEG(in folder: URL) throws -> String {
        let path = folder.appendingPathComponent("large.jpg").path
        try Image.load(path: Paths.sample("coffee.jpg"), sequential: false)
            .call("resize", [("scale", .number(6))])
            .save(to: path, format: "jpeg", options: [("Q", .number(90))])
        return path
    }

    static func library() throws -> (TemporaryDirectory, PhotoLibrary, large: String, small: String) {
        let temp = TemporaryDirectory("photoedit-previews")
        let library = try PhotoLibrary(url: temp.url.appendingPathComponent("library"))
        let ids = try library.importItems([try largeJPEG(in: temp.url), Paths.sample("coffee.jpg")])
            .map { try #require($0.id, "\($0.error.map(\.description) ?? "")") }
        return (temp, library, ids[0], ids[1])
    }

    /// The preview file of photo `id`'s current version (relative), whether or not it exists.
    static func previewFile(_ library: PhotoLibrary, _ id: String) throws -> String {
        let s = try library.imageSubject(id, version: .current)
        return Previews.path(of: try #require(s.shownFile))
    }

    static func thumbnail(_ manager: ImageManager, _ id: String, _ size: Int, resizeMode: ImageResizeMode = .fast) throws -> RenderedImage {
        let request = try manager.requestImage(for: id, targetSize: ImageSize(width: size, height: size),
                                               options: ImageRequestOptions(deliveryMode: .highQuality, resizeMode: resizeMode,
                                                                            isSynchronous: true))
        let result = try #require(request.finalResult)
        if let error = result.info.error { throw error }
        return try #require(result.image)
    }

    @Test func importMakesAPreviewOfALargePhotoOnly() throws {
        let (temp, library, large, small) = try Self.library()
        defer { withExtendedLifetime(temp) {} }
        let file = library.layout.absolute(try Self.previewFile(library, large))
        let preview = try Image.load(path: file, sequential: false)
        #expect(preview.width == Previews.longEdge && preview.height == 960, "preview \(preview.width)×\(preview.height)")
        #expect(!FileIO.exists(library.layout.absolute(try Self.previewFile(library, small))), "a 600-pixel photo has no preview")
        #expect(try library.verify().notes.allSatisfy { !$0.contains("preview") })
    }

    @Test func requestsThatFitAreMadeFromThePreviewAndMatchTheOriginal() throws {
        let (temp, library, large, _) = try Self.library()
        defer { withExtendedLifetime(temp) {} }
        let manager = ImageManager(library: library)
        let thumb = try Self.thumbnail(manager, large, 256)
        #expect(thumb.width == 256 && thumb.height == 171)
        #expect(manager.statistics.fromPreviews == 1)
        // The same result made from the original (both before encoding):
        // within a just-noticeable difference.
        let s = try library.imageSubject(large, version: .current)
        let g = ImageGeometry(fullWidth: 3600, fullHeight: 2400, target: ImageSize(width: 256, height: 256),
                              contentMode: .aspectFit, resizeMode: .exact, crop: nil)
        let preview = library.layout.absolute(try Self.previewFile(library, large))
        let fromPreview = try ImagePipeline.image(from: .preview(preview), geometry: g, resizeMode: .exact)
        let fromOriginal = try ImagePipeline.image(from: .file(s.originalPath), geometry: g, resizeMode: .exact)
        let difference = try Pixels.deltaE(try fromPreview.inMemory(), try fromOriginal.inMemory())
        #expect(difference.mean < 1.0 && difference.max < 5, "ΔE mean \(difference.mean) max \(difference.max)")
        // Larger than the preview: from the original.
        let big = try Self.thumbnail(manager, large, 2000, resizeMode: .exact)
        #expect(big.width == 2000)
        #expect(manager.statistics.fromPreviews == 1 && manager.statistics.renders == 2)
    }

    @Test func aMissingPreviewIsMadeAgainWithTheSameBytes() throws {
        let (temp, library, large, _) = try Self.library()
        defer { withExtendedLifetime(temp) {} }
        let file = library.layout.absolute(try Self.previewFile(library, large))
        let before = try Data(contentsOf: URL(fileURLWithPath: file))
        unlink(file)
        let report = try library.verify()
        #expect(report.isClean)
        #expect(report.notes.contains { $0.contains("1 photo(s) have no preview") }, "\(report.notes)")
        let manager = ImageManager(library: library)
        _ = try Self.thumbnail(manager, large, 300)
        #expect(manager.statistics.fromPreviews == 1)
        #expect(try Data(contentsOf: URL(fileURLWithPath: file)) == before, "the preview made again differs")
        // verify --repair makes a missing one.
        unlink(file)
        let repaired = try library.verify(repair: true)
        #expect(repaired.repaired.contains { $0.contains("preview made") }, "\(repaired.repaired)")
        #expect(FileIO.exists(file))
    }

    @Test func anEditCommitsItsRenderWithAPreviewAndRequestsShowTheEdit() throws {
        let (temp, library, large, _) = try Self.library()
        defer { withExtendedLifetime(temp) {} }
        let original = try Self.previewFile(library, large)
        let manager = ImageManager(library: library)
        let before = try Self.thumbnail(manager, large, 256)
        _ = try library.apply(chain: "exposure=+1", to: large)
        let edited = try Self.previewFile(library, large)
        #expect(edited.hasPrefix("previews/renders/"))
        #expect(FileIO.exists(library.layout.absolute(edited)), "the render's preview was made at commit")
        #expect(FileIO.exists(library.layout.absolute(original)), "the original's preview stays (its file does)")
        let after = try Self.thumbnail(manager, large, 256)
        #expect(manager.statistics.fromPreviews == 2)
        let brighter = try after.image().average(), darker = try before.image().average()
        #expect(brighter > darker + 20, "the thumbnail shows the edit: mean \(darker) → \(brighter)")
    }

    /// An edit's render streams into its JPEG through a reducing pass: the
    /// preview is made from the block means it gathered, not from the JPEG
    /// decoded again, and no full-size copy is kept. The preview matches the
    /// render (within a just-noticeable difference) and is not the one
    /// decoding the file gives.
    @Test func anEditsPreviewIsMadeFromItsPixelsNotFromItsJPEG() throws {
        let (temp, library, large, small) = try Self.library()
        defer { withExtendedLifetime(temp) {} }
        let input = try library.requestContentEditingInput(for: large, options: ContentEditingInputRequestOptions(displaySize: nil))
        var output = ContentEditingOutput(contentEditingInput: input)
        defer { unlink(output.renderedContentURL.path) }
        let recipe = try Chain.apply(try Chain.parse("exposure=+1"), to: .empty, registry: library.registry, auto: { $0 })
        try library.editing.render(recipe, onto: input.fullSizeImageURL.path, into: &output)
        let reduction = try #require(output.renderedReduction, "a large render is reduced for the preview while it is written")
        #expect(reduction.width == 3600 && reduction.height == 2400)
        #expect(reduction.image.width == 1440 && reduction.image.height == 960, "the preview's size")
        // The render's pixels, area-averaged by 2.5: the same picture as
        // libvips' Lanczos reduction of them (a little softer).
        let full = try library.renderer.render(recipe: recipe, originalPath: input.fullSizeImageURL.path).inMemory()
        let reduced = try full.resized(hscale: 1 / 2.5, vscale: 1 / 2.5).inMemory()
        let fromLibvips = try Pixels.deltaE(reduction.image, reduced)
        #expect(fromLibvips.mean < 1, "ΔE mean \(fromLibvips.mean) max \(fromLibvips.max)")
        let smallInput = try library.requestContentEditingInput(for: small, options: ContentEditingInputRequestOptions(displaySize: nil))
        var smallOutput = ContentEditingOutput(contentEditingInput: smallInput)
        defer { unlink(smallOutput.renderedContentURL.path) }
        try library.editing.render(.empty, onto: smallInput.fullSizeImageURL.path, into: &smallOutput)
        #expect(smallOutput.renderedReduction == nil, "a render too small for a preview keeps nothing")

        _ = try library.apply(chain: "exposure=+1", to: large)
        let preview = library.layout.absolute(try Self.previewFile(library, large))
        let render = try #require(try library.imageSubject(large, version: .current).shownFile)
        let g = Previews.geometry(width: 3600, height: 2400)
        // Against the reduction (the same recipe on the same file, rendered
        // above), resized the same way: the preview is it.
        let fromPixels = try ImagePipeline.image(from: .image { reduction.image }, geometry: g, resizeMode: .exact).inMemory()
        let stored = try Image.load(path: preview, sequential: false).inMemory()
        #expect(stored.width == Previews.longEdge && stored.height == 960)
        // (A 1440-pixel JPEG at Q90 differs from its pixels by up to ~12 at
        // a few saturated edges; on average, under a just-noticeable difference.)
        let difference = try Pixels.deltaE(stored, fromPixels)
        #expect(difference.mean < 1.0 && difference.max < 15, "ΔE mean \(difference.mean) max \(difference.max)")
        // Against the render's JPEG decoded whole and resized the same way:
        // the same picture on average (the JPEG's own loss apart).
        let decoded = try Image.load(path: library.layout.absolute(render), sequential: false).inMemory()
        let reference = try ImagePipeline.image(from: .image { decoded }, geometry: g, resizeMode: .exact).inMemory()
        let fromJPEG = try Pixels.deltaE(stored, reference)
        #expect(fromJPEG.mean < 1.0, "ΔE mean \(fromJPEG.mean) max \(fromJPEG.max)")
        let remade = temp.url.appendingPathComponent("from-file.jpg").path
        try Renderer.save(reference, to: remade, format: .jpeg, quality: Previews.quality)
        #expect(try Data(contentsOf: URL(fileURLWithPath: preview)) != Data(contentsOf: URL(fileURLWithPath: remade)),
                "the preview is the one the render's JPEG decodes to: it was not made from the pixels")
    }

    /// A reduction by a whole number is libvips' box shrink; any reduction
    /// keeps the image's mean. It is given only when every pixel went
    /// through the pass exactly once: read twice, or in part, it is refused.
    @Test func aReductionIsAnAreaAverageOfEveryPixelOnce() throws {
        let image = try Image.load(path: Paths.sample("coffee.jpg"), sequential: false).colourspace("srgb").cast("uchar").inMemory()
        #expect(image.width == 600 && image.height == 400)
        let whole = try image.reducingPass(width: 200, height: 100)
        _ = try whole.inMemory()
        let shrunk = try image.call("shrink", [("hshrink", .number(3)), ("vshrink", .number(4))]).inMemory()
        let reduced = try #require(whole.reduction()).image
        #expect(reduced.width == 200 && reduced.height == 100)
        let levels = try reduced.cast("int").subtracting(shrunk.cast("int")).call("abs").maximum()
        #expect(levels <= 1, "a 3 × 4 area average is libvips' 3 × 4 shrink, within a level: \(levels)")

        let odd = try image.reducingPass(width: 257, height: 171)
        _ = try odd.inMemory()
        let oddReduced = try #require(odd.reduction()).image
        #expect(oddReduced.width == 257 && oddReduced.height == 171)
        #expect(abs(try oddReduced.average() - image.average()) < 0.5, "the mean is kept")
        _ = try odd.inMemory()
        #expect(odd.reduction() == nil, "read twice")
        let part = try image.reducingPass(width: 200, height: 100)
        _ = try part.extractArea(left: 0, top: 0, width: image.width / 2, height: image.height).inMemory()
        #expect(part.reduction() == nil, "read in part")
        #expect(throws: PhotoEditError.self) { try image.cast("float").reducingPass(width: 200, height: 100) }
        #expect(throws: PhotoEditError.self) { try image.reducingPass(width: 0, height: 100) }
        #expect(throws: PhotoEditError.self) { try image.reducingPass(width: 601, height: 100) }
        #expect(throws: PhotoEditError.self) { try image.reducingPass(width: 9, height: 100) }
    }

    @Test("an editor's previews of one photo decode its base once, and look the same as from a fresh decode")
    func slidersReuseTheDecodedBase() throws {
        let (temp, library, large, _) = try Self.library()
        _ = temp
        let chains = ["exposure=+0.5", "exposure=+0.7,local=radial(0.5 0.5 0.2 0.2) exposure=-1", "contrast=+20"]
        var first: [RenderedImage] = []
        for chain in chains {
            first.append(try library.preview(large, steps: try Chain.parse(chain), longEdge: 600))
        }
        #expect(library.parts.previewBases.count == 1, "one base for one photo at one size")
        #expect(Set(first.map(\.data)).count == 3, "each chain renders its own preview")
        // Another size is another base; the oldest go past the capacity.
        _ = try library.preview(large, steps: [], longEdge: 300)
        #expect(library.parts.previewBases.count == 2)
        // The same previews from a library object that decodes afresh: the same bytes.
        let fresh = try PhotoLibrary(url: library.url, create: false)
        for (chain, kept) in zip(chains, first) {
            let again = try fresh.preview(large, steps: try Chain.parse(chain), longEdge: 600)
            #expect(again.data == kept.data, "\(chain): the kept base renders what a fresh decode renders")
        }
        // An edit whose base is the same original keeps using it.
        try library.apply(chain: "exposure=+0.3", to: large)
        let edited = try library.preview(large, steps: [], longEdge: 600)
        let freshEdited = try fresh.preview(large, steps: [], longEdge: 600)
        #expect(edited.data == freshEdited.data && !first.contains { $0.data == edited.data })
    }

    /// An upload's preview pixels are computed by the background thread
    /// alone (`Image.materializedHere`, no threaded libvips sink): the same
    /// pixels and header as libvips' own sink, and a decoder's failure
    /// anywhere comes back to the caller.
    @Test func aPreviewsPixelsComputedByOneThreadAreLibvipsOwn() throws {
        let temp = TemporaryDirectory("photoedit-previews-here")
        let path = try Self.largeJPEG(in: temp.url)
        let pipeline = { try ImagePipeline.image(from: .file(path), geometry: Previews.geometry(width: 3600, height: 2400), resizeMode: .exact) }
        let here = try pipeline().materializedHere()
        // libvips' threaded sink: saved whole in its own format, read back.
        try pipeline().save(to: temp.file("sink.v"), format: "vips")
        let sink = try Image.load(path: temp.file("sink.v"), sequential: false)
        #expect((here.width, here.height, here.bands) == (sink.width, sink.height, sink.bands))
        #expect((here.width, here.height) != (3600, 2400), "a reduced preview")
        #expect(try here.subtracting(sink).call("abs").maximum() == 0, "the pixels differ from libvips' sink")
        #expect(here.interpretationName == sink.interpretationName)
        #expect(here.blob("icc-profile-data") == sink.blob("icc-profile-data"))

        // Cut short: the decode fails, and the failure is the caller's.
        let jpeg = try Data(contentsOf: URL(fileURLWithPath: path))
        try jpeg.prefix(jpeg.count / 2).write(to: temp.url.appendingPathComponent("cut.jpg"))
        #expect(throws: PhotoEditError.self) {
            _ = try Image.load(path: temp.file("cut.jpg"), sequential: true, strict: true).materializedHere()
        }
    }

    @Test func purgeRemovesPreviewsAndVerifyRemovesStrayOnes() throws {
        let (temp, library, large, _) = try Self.library()
        defer { withExtendedLifetime(temp) {} }
        _ = try library.apply(chain: "exposure=+1", to: large)
        let previews = try library.files.list("previews").map(\.relative)
        #expect(previews.count == 2, "\(previews)")
        // A preview whose file is not in the library (a crash between removing both).
        let stray = library.layout.absolute("previews/renders/zz/none.jpg.jpg")
        try FileManager.default.createDirectory(atPath: (stray as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        try FileIO.copyFile(from: library.layout.absolute(previews[0]), to: stray)
        let report = try library.verify()
        #expect(report.isClean && report.notes.contains { $0.contains("1 preview(s) of files no longer in the library") }, "\(report.notes)")
        #expect(try library.verify(repair: true).repaired.contains { $0.contains("none.jpg.jpg") })
        #expect(!FileIO.exists(stray))
        try library.performChanges { c in
            try c.changeRequest(for: large).delete()
            try c.changeRequest(for: large).purge()
        }
        #expect(try library.files.list("previews").isEmpty, "previews of a purged photo are removed")
    }
}
