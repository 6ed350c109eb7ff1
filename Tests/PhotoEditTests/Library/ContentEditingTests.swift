import Foundation
import Testing
@testable import PhotoEdit

/// The content-editing API (PhotoKit's PHContentEditingInput/Output):
/// inputs, base images, foreign formats edited on top of, refused outputs,
/// optimistic concurrency.
@Suite("Content editing: input, output, foreign formats, conflicts")
struct ContentEditingTests {
    static let understandsOurs = ContentEditingInputRequestOptions(canHandleAdjustmentData: { Recipe.canHandle($0) })

    @Test func inputOfAnUneditedRotatedPhoto() throws {
        let temp = TemporaryDirectory("photoedit-ce")
        let library = try PhotoLibrary(url: temp.url.appendingPathComponent("library"))
        let id = try #require(try library.importItems([Paths.sample("rotated-exif.jpg")]).first?.id)

        let input = try library.requestContentEditingInput(for: id, options: Self.understandsOurs)
        #expect(input.assetIdentifier == id)
        #expect(input.revision == 0)
        #expect(input.base == .original)
        #expect(input.adjustmentData == nil)
        #expect(input.canHandleAdjustmentData == false, "nothing to handle on an unedited photo")
        #expect(input.fullSizeImageOrientation == 6)
        #expect(input.uniformTypeIdentifier == "public.jpeg")
        #expect(input.mediaType == "image")
        #expect(input.creationDate?.hasPrefix("2021-06-15T14:30:00") == true, "\(String(describing: input.creationDate))")
        let location = try #require(input.location)
        #expect(abs(location.latitude - 48.8584) < 1e-4 && abs(location.longitude - 2.2945) < 1e-4, "\(location)")
        // The base is the original file inside the library, byte for byte.
        #expect(input.fullSizeImageURL.path.hasPrefix(library.url.path + "/originals/"), "\(input.fullSizeImageURL.path)")
        #expect(try Hashing.sha256(input.fullSizeImageURL.path) == (try Hashing.sha256(Paths.sample("rotated-exif.jpg"))))

        // The display-size image exists, is upright and fits 2048.
        let display = try #require(input.displaySizeImageURL)
        #expect(FileManager.default.fileExists(atPath: display.path))
        let image = try Pixels.load(display.path)
        #expect(max(image.width, image.height) <= 2048)
        #expect(image.width == 600 && image.height == 400, "display image is upright: \(image.width)×\(image.height)")
        #expect((image.int("orientation") ?? 1) == 1)

        // A smaller display size is honoured; none asked, none made.
        let small = try library.requestContentEditingInput(for: id, options: ContentEditingInputRequestOptions(displaySize: 100))
        let smallImage = try Pixels.load(try #require(small.displaySizeImageURL).path)
        #expect(smallImage.width == 100 && smallImage.height == 67, "\(smallImage.width)×\(smallImage.height)")
        let none = try library.requestContentEditingInput(for: id, options: ContentEditingInputRequestOptions(displaySize: nil))
        #expect(none.displaySizeImageURL == nil)
    }

    @Test func baseDependsOnWhetherTheEditorCanHandleTheAdjustmentData() throws {
        let temp = TemporaryDirectory("photoedit-ce")
        let library = try PhotoLibrary(url: temp.url.appendingPathComponent("library"))
        let id = try #require(try library.importItems([Paths.sample("rotated-exif.jpg")]).first?.id)
        try library.apply(chain: "exposure=+0.5", to: id)
        let ours = try #require(try library.history(id).last?.adjustmentData)

        // Understood: the version before the last edit (the original), with our recipe.
        let handled = try library.requestContentEditingInput(for: id, options: Self.understandsOurs)
        #expect(handled.revision == 1)
        #expect(handled.canHandleAdjustmentData)
        #expect(handled.base == .original)
        #expect(handled.adjustmentData == ours)
        #expect(handled.fullSizeImageOrientation == 6)
        #expect(try Hashing.sha256(handled.fullSizeImageURL.path) == (try Hashing.sha256(Paths.sample("rotated-exif.jpg"))))

        // Not understood: the current render, upright.
        let notHandled = try library.requestContentEditingInput(for: id)
        #expect(notHandled.revision == 1)
        #expect(!notHandled.canHandleAdjustmentData)
        #expect(notHandled.base == .render(revision: 1))
        #expect(notHandled.adjustmentData == ours, "the adjustment data is given either way")
        #expect(notHandled.fullSizeImageOrientation == 1)
        #expect(notHandled.uniformTypeIdentifier == "public.jpeg")
        let current = temp.file("current.jpg")
        try library.render(id, version: .current, to: current)
        #expect(try Hashing.sha256(notHandled.fullSizeImageURL.path) == (try Hashing.sha256(current)), "the base is the stored current render")
        let display = try Pixels.load(try #require(notHandled.displaySizeImageURL).path)
        #expect(display.width == 600 && display.height == 400)

        // startFromOriginal wins over everything.
        let fresh = try library.requestContentEditingInput(for: id, options: ContentEditingInputRequestOptions(startFromOriginal: true))
        #expect(fresh.base == .original)
    }

    /// Another tool's edit: stored opaque, its render served, edited on top of, reverted.
    @Test func foreignEditIsServedEditedOnTopOfAndReverted() throws {
        let lib = CLILibrary()
        let id = try lib.importSample("coffee.jpg")
        let library = try PhotoLibrary(url: URL(fileURLWithPath: lib.path))
        let foreignCopy = lib.temp.file("foreign.jpg")
        let input = try ForeignEditor.commitGrey(library, id, keepCopyAt: foreignCopy)
        #expect(input.base == .original && input.revision == 0)

        // The foreign revision.
        let foreign = try #require(try library.history(id).last)
        #expect(foreign.number == 1 && foreign.kind == .edit && foreign.hasRender)
        #expect(foreign.baseRevision == nil)
        #expect(foreign.adjustmentData?.formatIdentifier == ForeignEditor.formatIdentifier)
        #expect(foreign.adjustmentData?.data == Data(ForeignEditor.recipeText.utf8), "stored as it is")
        #expect(try Colour.maxChroma(foreignCopy) < 4, "the foreign render is grey")
        #expect(try Colour.maxChroma(Paths.sample("coffee.jpg")) > 40, "the original is not")

        // render --version current serves the foreign render.
        try lib.succeed(["render", id, "-o", lib.temp.file("served.jpg")])
        #expect(try Hashing.sha256(lib.temp.file("served.jpg")) == (try Hashing.sha256(foreignCopy)))
        try lib.succeed(["render", id, "-o", lib.temp.file("served.png")])
        #expect(try Pixels.maxAbsDifference(Pixels.load(lib.temp.file("served.png")), Pixels.load(foreignCopy)) == 0)

        // history and show name the foreign format and never read it.
        let text = try lib.succeed(["history", id]).stdoutLines
        #expect(text.count == 2)
        #expect(text.last?.contains("com.example.painter 1") == true && text.last?.contains("(foreign)") == true, "\(text)")
        let shown = try lib.show(id)
        #expect(shown["chain"]?.isNull == true)
        let data = try #require(shown["adjustmentData"]?.object)
        #expect(data["formatIdentifier"]?.string == "com.example.painter")
        #expect(data["formatVersion"]?.string == "1")
        #expect(data["data"]?.string == ForeignEditor.recipeText)
        #expect(data["dataEncoding"]?.string == "utf8")
        #expect(try lib.history(id).last?["adjustmentData"]?.object?["formatIdentifier"]?.string == "com.example.painter")

        // The painter, reading again and understanding its own data, gets the version before its edit.
        let again = try library.requestContentEditingInput(for: id, options: ContentEditingInputRequestOptions(
            canHandleAdjustmentData: { $0.formatIdentifier == ForeignEditor.formatIdentifier }))
        #expect(again.base == .original && again.canHandleAdjustmentData)

        // photoedit apply edits on top of the foreign render.
        let applied = try lib.succeed(["apply", "exposure=+1", id])
        #expect(applied.stdoutLines == ["\(id)\t2"])
        let onTop = try #require(try library.history(id).last)
        #expect(onTop.number == 2)
        #expect(onTop.baseRevision == 1, "the base is the foreign revision")
        let recipe = try Recipe(adjustmentData: try #require(onTop.adjustmentData))
        #expect(recipe.base == .render)
        let json = try JSONValue.parse(try #require(onTop.adjustmentData?.data))
        #expect(json.object?["base"]?.string == "render")
        #expect(try lib.show(id)["chain"]?.string == "exposure=+1")
        try lib.succeed(["render", id, "-o", lib.temp.file("bright.png")])
        let foreignMean = try Colour.mean(foreignCopy), brightMean = try Colour.mean(lib.temp.file("bright.png"))
        #expect(brightMean > foreignMean + 15, "brighter than the foreign render: \(brightMean) vs \(foreignMean)")
        #expect(try Colour.maxChroma(lib.temp.file("bright.png")) < 6, "still grey: built on the foreign render, not the original")

        // The adjustment base resource is the foreign render.
        try lib.succeed(["export", id, "--resource", "adjustmentBasePhoto", "-o", lib.temp.file("base.jpg")])
        #expect(try Hashing.sha256(lib.temp.file("base.jpg")) == (try Hashing.sha256(foreignCopy)))

        // A further apply keeps that base and merges the recipe.
        try lib.succeed(["apply", "contrast=+20", id])
        let further = try #require(try library.history(id).last)
        #expect(further.number == 3 && further.baseRevision == 1)
        #expect(try Recipe(adjustmentData: try #require(further.adjustmentData)).base == .render)
        #expect(try lib.show(id)["chain"]?.string == "exposure=+1,contrast=+20")
        try lib.succeed(["render", id, "-o", lib.temp.file("further.png")])
        #expect(try Colour.maxChroma(lib.temp.file("further.png")) < 6, "still grey")
        let handled = try library.requestContentEditingInput(for: id, options: Self.understandsOurs)
        #expect(handled.base == .render(revision: 1), "the version before our edits is the foreign render")
        #expect(try Hashing.sha256(handled.fullSizeImageURL.path) == (try Hashing.sha256(foreignCopy)))

        // revert --to 2 rebuilds on the foreign base, not on the original.
        try lib.succeed(["revert", "--to", "2", id])
        let checkout = try #require(try library.history(id).last)
        #expect(checkout.number == 4 && checkout.baseRevision == 1 && checkout.kind == .revert)
        try lib.succeed(["render", id, "-o", lib.temp.file("checkout.png")])
        let (maxDE, _) = try Pixels.deltaE(lib.temp.file("checkout.png"), lib.temp.file("bright.png"))
        #expect(maxDE < 1, "revision 2 rebuilt the same: max ΔE \(maxDE)")

        // verify --repair rebuilds a damaged render of an edit on the foreign base, on that base.
        let damaged = try #require(try library.history(id).last?.number)
        let renderFiles = try Hashing.tree(lib.path).keys.filter { $0.hasPrefix("renders/") && $0.contains("/\(damaged)-") }
        #expect(renderFiles.count == 1, "\(renderFiles)")
        for file in renderFiles {
            chmod(lib.path + "/" + file, 0o644)
            try Data("garbage".utf8).write(to: URL(fileURLWithPath: lib.path + "/" + file))
        }
        let repair = try lib.run(["verify", "--repair"])
        #expect(repair.status == 0 && repair.stdout.contains("repaired: \(id) revision \(damaged)"), "\(repair)")
        try lib.succeed(["render", id, "-o", lib.temp.file("repaired.png")])
        let (maxRepaired, _) = try Pixels.deltaE(lib.temp.file("repaired.png"), lib.temp.file("bright.png"))
        #expect(maxRepaired < 1, "rebuilt on the foreign render: max ΔE \(maxRepaired)")
        #expect(try Colour.maxChroma(lib.temp.file("repaired.png")) < 6, "still grey after the repair")

        // revert --to the foreign revision restores its render as it was.
        try lib.succeed(["revert", "--to", "1", id])
        #expect(try library.history(id).last?.adjustmentData?.formatIdentifier == ForeignEditor.formatIdentifier)
        try lib.succeed(["render", id, "-o", lib.temp.file("foreign-again.jpg")])
        #expect(try Hashing.sha256(lib.temp.file("foreign-again.jpg")) == (try Hashing.sha256(foreignCopy)))

        // revert goes back to the original.
        try lib.succeed(["revert", id])
        #expect(try lib.show(id)["adjustmentData"]?.isNull == true)
        try lib.succeed(["render", id, "-o", lib.temp.file("reverted.png")])
        try lib.succeed(["render", id, "-o", lib.temp.file("unadjusted.png"), "--version", "unadjusted"])
        let (maxReverted, _) = try Pixels.deltaE(lib.temp.file("reverted.png"), lib.temp.file("unadjusted.png"))
        #expect(maxReverted < 0.5)
        #expect(try Colour.maxChroma(lib.temp.file("reverted.png")) > 40, "colour again")
        #expect(try lib.history(id).count == 7, "nothing lost")
        let verify = try lib.run(["verify"])
        #expect(verify.status == 0, "\(verify)")
    }

    /// Adjustment data that is not UTF-8 is kept byte for byte and shown as base64.
    @Test func binaryForeignAdjustmentDataIsKeptAsItIs() throws {
        let lib = CLILibrary()
        let id = try lib.importSample("chelsea.jpg")
        let library = try PhotoLibrary(url: URL(fileURLWithPath: lib.path))
        let bytes = Data([0xFF, 0x00, 0xFE, 0x80, 0x7B, 0x22])
        try ForeignEditor.commitGrey(library, id, keepCopyAt: lib.temp.file("f.jpg"), data: bytes)
        #expect(try library.asset(id).adjustmentData?.data == bytes)
        let data = try #require(try lib.show(id)["adjustmentData"]?.object)
        #expect(data["dataEncoding"]?.string == "base64")
        #expect(data["data"]?.string == bytes.base64EncodedString())
        try lib.succeed(["export", id, "--resource", "adjustmentData", "-o", lib.temp.file("adj.json")])
        let exported = try JSONValue.parse(Data(contentsOf: URL(fileURLWithPath: lib.temp.file("adj.json"))))
        #expect(exported.object?["data"]?.string == bytes.base64EncodedString())
        #expect(exported.object?["dataEncoding"]?.string == "base64")
        #expect(try lib.run(["verify"]).status == 0)
    }

    /// Writes a correct, upright JPEG render of `input` at its render URL.
    static func writeValidRender(_ library: PhotoLibrary, _ id: String, to path: String) throws {
        try library.render(id, version: .unadjusted, to: path, options: RenderOptions(format: .jpeg))
    }

    /// Adjustment data that claims to be ours must decode whole with this build.
    @Test(arguments: [
        ("2", #"{"base":"original","filters":[],"format":"org.photoedit.recipe","formatVersion":2}"#, "newer than this engine reads"),
        ("99", #"{"base":"original","filters":[],"format":"org.photoedit.recipe","formatVersion":1}"#, "newer than this engine reads"),
        ("1", #"{"base":"original","filters":[{"id":"glow","params":{},"version":1}],"format":"org.photoedit.recipe","formatVersion":1}"#, "unknown filter 'glow'"),
        ("1", #"{"base":"original","filters":[{"id":"exposure","params":{"ev":1},"version":7}],"format":"org.photoedit.recipe","formatVersion":1}"#, "version 7 is newer"),
        ("1", #"{"base":"original","filters":[{"id":"exposure","params":{"ev":99},"version":1}],"format":"org.photoedit.recipe","formatVersion":1}"#, "out of range"),
        ("1", #"{"base":"original","#, "JSON"),
        ("one", #"{"base":"original","filters":[],"format":"org.photoedit.recipe","formatVersion":1}"#, "format version 'one'"),
    ])
    func ourOwnFormatIsValidatedOnCommit(version: String, text: String, message: String) throws {
        let temp = TemporaryDirectory("photoedit-ce")
        let library = try PhotoLibrary(url: temp.url.appendingPathComponent("library"))
        let id = try #require(try library.importItems([Paths.sample("coffee.jpg")]).first?.id)
        try library.apply(chain: "exposure=+0.3", to: id)
        let input = try library.requestContentEditingInput(for: id, options: Self.understandsOurs)
        var output = ContentEditingOutput(contentEditingInput: input)
        try Self.writeValidRender(library, id, to: output.renderedContentURL.path)
        output.adjustmentData = AdjustmentData(formatIdentifier: Recipe.formatIdentifier, formatVersion: version, data: Data(text.utf8))
        let before = try APISnapshot.take(library, includeStaging: false)
        let error = expectPhotoEditError("formatVersion \(version)", {
            try library.performChanges { try $0.changeRequest(for: id).contentEditingOutput = output }
        }, matches: { e in
            switch e {
            case .invalidAdjustmentData, .unknownFilter, .invalidParameter: return true
            default: return false
            }
        })
        #expect(error?.description.contains(message) == true, "\(String(describing: error))")
        let after = try APISnapshot.take(library, includeStaging: false)
        #expect(after == before, "\(before.difference(after))")
        #expect(try library.history(id).count == 2)
        #expect(try library.verify().isClean)
    }

    enum BadRender: String, CaseIterable, Sendable {
        case missing, text, truncated, orientation6, imagemagickText, pixelBomb, empty
    }

    /// The rendered file is checked before anything is committed.
    @Test(arguments: BadRender.allCases)
    func badRenderedContentIsRefused(_ bad: BadRender) throws {
        let temp = TemporaryDirectory("photoedit-ce")
        let library = try PhotoLibrary(url: temp.url.appendingPathComponent("library"))
        let id = try #require(try library.importItems([Paths.sample("coffee.jpg")]).first?.id)
        let input = try library.requestContentEditingInput(for: id)
        var output = ContentEditingOutput(contentEditingInput: input)
        let path = output.renderedContentURL.path
        switch bad {
        case .missing: break
        case .text: try Data(contentsOf: URL(fileURLWithPath: Paths.bad("text.jpg"))).write(to: output.renderedContentURL)
        case .empty: try Data().write(to: output.renderedContentURL)
        case .truncated:
            try Self.writeValidRender(library, id, to: temp.file("whole.jpg"))
            let whole = try Data(contentsOf: URL(fileURLWithPath: temp.file("whole.jpg")))
            try whole.prefix(whole.count / 2).write(to: output.renderedContentURL)
        case .orientation6: try FileManager.default.copyItem(atPath: Paths.sample("rotated-exif.jpg"), toPath: path)
        case .imagemagickText: try FileManager.default.copyItem(atPath: Paths.bad("imagemagick-pixels.txt"), toPath: path)
        case .pixelBomb: try FileManager.default.copyItem(atPath: Paths.bad("huge-header.png"), toPath: path)
        }
        output.adjustmentData = AdjustmentData(formatIdentifier: ForeignEditor.formatIdentifier, formatVersion: "1", data: Data("x".utf8))
        let before = try APISnapshot.take(library, includeStaging: false)
        let error = expectPhotoEditError("\(bad)", {
            try library.performChanges { try $0.changeRequest(for: id).contentEditingOutput = output }
        }, matches: { if case .invalidChange = $0 { return true } else { return false } })
        let after = try APISnapshot.take(library, includeStaging: false)
        #expect(after == before, "\(bad): \(before.difference(after))")
        let expected: [BadRender: String] = [.missing: "no rendered content", .orientation6: "orientation", .pixelBomb: "above the limit",
                                             .text: "not usable", .truncated: "not usable", .empty: "not usable",
                                             .imagemagickText: "not usable"]
        #expect(error?.description.contains(expected[bad]!) == true, "\(bad): \(String(describing: error))")
        #expect(try library.history(id).count == 1)
    }

    /// The truncated-render check holds every time, not most times
    /// (`Tests/Fixtures/bad/truncated.jpg` as the rendered content, 100 tries).
    @Test func truncatedRenderedContentIsRefusedEveryTime() throws {
        let temp = TemporaryDirectory("photoedit-ce")
        let library = try PhotoLibrary(url: temp.url.appendingPathComponent("library"))
        let id = try #require(try library.importItems([Paths.sample("coffee.jpg")]).first?.id)
        let fixture = try Data(contentsOf: URL(fileURLWithPath: Paths.bad("truncated.jpg")))
        var accepted = 0
        for _ in 0..<100 {
            let input = try library.requestContentEditingInput(for: id, options: ContentEditingInputRequestOptions(displaySize: nil))
            var output = ContentEditingOutput(contentEditingInput: input)
            try fixture.write(to: output.renderedContentURL)
            output.adjustmentData = AdjustmentData(formatIdentifier: ForeignEditor.formatIdentifier, formatVersion: "1", data: Data("t".utf8))
            do {
                try library.performChanges { try $0.changeRequest(for: id).contentEditingOutput = output }
                accepted += 1
            } catch PhotoEditError.invalidChange {
                unlink(output.renderedContentURL.path)
            }
        }
        #expect(accepted == 0, "Tests/Fixtures/bad/truncated.jpg was committed as rendered content \(accepted) times out of 100")
        #expect(try library.history(id).count == 1 + accepted)
        if accepted > 0 {
            let report = try library.verify()
            #expect(report.problems.count == accepted, "verify does see the damaged renders: \(report.problems.count)")
        }
    }

    /// A render in another accepted format (PNG) is stored as it is, with its own extension.
    @Test func pngRenderedContentIsAccepted() throws {
        let temp = TemporaryDirectory("photoedit-ce")
        let library = try PhotoLibrary(url: temp.url.appendingPathComponent("library"))
        let id = try #require(try library.importItems([Paths.sample("coffee.jpg")]).first?.id)
        let input = try library.requestContentEditingInput(for: id)
        var output = ContentEditingOutput(contentEditingInput: input)
        try library.render(id, version: .unadjusted, to: output.renderedContentURL.path, options: RenderOptions(format: .png))
        output.adjustmentData = AdjustmentData(formatIdentifier: ForeignEditor.formatIdentifier, formatVersion: "1", data: Data("png".utf8))
        try library.performChanges { try $0.changeRequest(for: id).contentEditingOutput = output }
        let renders = try Hashing.tree(library.url.path).keys.filter { $0.hasPrefix("renders/") }
        #expect(renders.count == 1 && renders.first?.hasSuffix(".png") == true, "\(renders)")
        try library.render(id, to: temp.file("out.png"))
        try library.render(id, version: .unadjusted, to: temp.file("unadj.png"))
        #expect(try Pixels.maxAbsDifference(Pixels.load(temp.file("out.png")), Pixels.load(temp.file("unadj.png"))) == 0)
        #expect(try library.verify().isClean)
    }

    @Test func outputWithoutAdjustmentDataIsRefused() throws {
        let temp = TemporaryDirectory("photoedit-ce")
        let library = try PhotoLibrary(url: temp.url.appendingPathComponent("library"))
        let id = try #require(try library.importItems([Paths.sample("coffee.jpg")]).first?.id)
        let output = ContentEditingOutput(contentEditingInput: try library.requestContentEditingInput(for: id))
        try Self.writeValidRender(library, id, to: output.renderedContentURL.path)
        let before = try APISnapshot.take(library, includeStaging: false)
        expectPhotoEditError("no adjustment data", {
            try library.performChanges { try $0.changeRequest(for: id).contentEditingOutput = output }
        }, matches: { if case .invalidChange = $0 { return true } else { return false } })
        #expect(try APISnapshot.take(library, includeStaging: false) == before)
    }

    /// Optimistic concurrency: an output made from revision N cannot land once the photo is at N+1.
    @Test func staleOutputIsAConflictAndChangesNothing() throws {
        let temp = TemporaryDirectory("photoedit-ce")
        let library = try PhotoLibrary(url: temp.url.appendingPathComponent("library"))
        let id = try #require(try library.importItems([Paths.sample("coffee.jpg")]).first?.id)
        try library.apply(chain: "exposure=+0.3", to: id)                       // revision 1
        let input = try library.requestContentEditingInput(for: id)              // read at 1
        var output = ContentEditingOutput(contentEditingInput: input)
        try ForeignEditor.writeGrey(of: input, to: output.renderedContentURL.path)
        output.adjustmentData = AdjustmentData(formatIdentifier: ForeignEditor.formatIdentifier, formatVersion: "1", data: Data("late".utf8))
        #expect(output.baseRevision == 1)

        try library.apply(chain: "contrast=+10", to: id)                        // revision 2, meanwhile
        let before = try APISnapshot.take(library, includeStaging: false)
        let error = expectPhotoEditError("stale output", {
            try library.performChanges { try $0.changeRequest(for: id).contentEditingOutput = output }
        }, matches: { $0 == .conflict(asset: id, expected: 1, actual: 2) })
        #expect(error?.description.contains("conflict") == true)
        let after = try APISnapshot.take(library, includeStaging: false)
        #expect(after == before, "\(before.difference(after))")
        #expect(try library.history(id).map(\.number) == [0, 1, 2])
        #expect(try library.currentRecipe(id).node("contrast") != nil, "the other edit is the current one")
        #expect(try library.verify().isClean)

        // Read again and it commits.
        let fresh = try library.requestContentEditingInput(for: id)
        var retry = ContentEditingOutput(contentEditingInput: fresh)
        try ForeignEditor.writeGrey(of: fresh, to: retry.renderedContentURL.path)
        retry.adjustmentData = output.adjustmentData
        try library.performChanges { try $0.changeRequest(for: id).contentEditingOutput = retry }
        #expect(try library.history(id).last?.number == 3)
        #expect(try library.history(id).last?.baseRevision == 2, "built on the current render, which it did not understand")
    }

    /// The same output committed twice: the second is stale.
    @Test func anOutputCommitsOnlyOnce() throws {
        let temp = TemporaryDirectory("photoedit-ce")
        let library = try PhotoLibrary(url: temp.url.appendingPathComponent("library"))
        let id = try #require(try library.importItems([Paths.sample("coffee.jpg")]).first?.id)
        let input = try library.requestContentEditingInput(for: id)
        var first = ContentEditingOutput(contentEditingInput: input)
        var second = ContentEditingOutput(contentEditingInput: input)
        for o in [first, second] { try ForeignEditor.writeGrey(of: input, to: o.renderedContentURL.path) }
        first.adjustmentData = AdjustmentData(formatIdentifier: ForeignEditor.formatIdentifier, formatVersion: "1", data: Data("a".utf8))
        second.adjustmentData = first.adjustmentData
        try library.performChanges { try $0.changeRequest(for: id).contentEditingOutput = first }
        expectPhotoEditError("second output from the same input", {
            try library.performChanges { try $0.changeRequest(for: id).contentEditingOutput = second }
        }, matches: { $0 == .conflict(asset: id, expected: 0, actual: 1) })
        #expect(try library.history(id).count == 2)
        #expect(try library.verify().isClean)
    }
}
