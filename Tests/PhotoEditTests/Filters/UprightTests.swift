import Foundation
import Testing
@testable import PhotoEdit

/// `upright`: perspective solved from the photo's lines, written as concrete
/// `perspective` values.
@Suite("Upright")
struct UprightTests {
    let detail = FilterBench()
    let registry = FilterRegistry.standard

    /// A building-like scene, 1200×800 in the working space: light windows
    /// (70×55 px every 120×100 px) on a dark façade.
    static func facade(width: Int = 1200, height: Int = 800) throws -> Image {
        let xyz = try Vips.image("xyz", [("width", .number(Double(width))), ("height", .number(Double(height)))])
        func band(_ n: Int, period: Double, open: Double) throws -> Image {
            try xyz.extractBands(n, count: 1).linear(multiply: [1], add: [25]).call("remainder_const", [("c", .doubles([period]))])
                .call("relational_const", [("relational", .string("less")), ("c", .doubles([open]))])
        }
        let windows = try Vips.image("boolean", [("left", .image(try band(0, period: 120, open: 70))),
                                                 ("right", .image(try band(1, period: 100, open: 55))), ("boolean", .string("and"))])
        let grey = try windows.cast("float").linear(multiply: [0.5 / 255], add: [0.06])
        return try Vips.image("bandjoin", [("in", .images([grey, grey, grey]))]).inMemory()
    }

    /// The façade warped by `perspective` with `chain`'s values.
    func warped(_ chain: String) throws -> Image {
        try detail.run(chain, on: try Self.facade()).inMemory()
    }

    /// The largest angle, in degrees, from vertical / horizontal of the
    /// façade's own straight lines after `warp` and then `fix` (vertical,
    /// horizontal, rotate each), on a 1200×800 image.
    func worstAngle(warp: [Double], fix: [Double], verticalsOnly: Bool = false) -> Double {
        let m = ColourMath.multiply(Upright.transform(fix, width: 1200, height: 800), Upright.transform(warp, width: 1200, height: 800))
        var lines = [215.0, 575, 935].map { Upright.Line(segment: .init(x1: $0, y1: 175, x2: $0, y2: 675), isVertical: true) }
        if !verticalsOnly {
            lines += [175.0, 375, 575].map { Upright.Line(segment: .init(x1: 215, y1: $0, x2: 935, y2: $0), isVertical: false) }
        }
        return lines.map { asin(abs(Upright.deviation($0, m))) * 180 / .pi }.max() ?? 90
    }

    @Test func verticalRecoversAKnownKeystone() throws {
        let found = try Upright.analyse(try warped("perspective=+30"), mode: .vertical)
        #expect(found.isSolved, "\(found.note)")
        #expect(abs(found.vertical - -30) <= 1, "\(found.note)")
        #expect(abs(found.rotate) <= 0.1 && found.horizontal == 0, "\(found.note)")
        #expect(worstAngle(warp: [30, 0, 0], fix: [found.vertical, found.horizontal, found.rotate], verticalsOnly: true) <= 0.3)
        #expect(found.verticalLines >= 10 && found.usedLines >= 10, "\(found.note)")
    }

    @Test func verticalWithATiltRecoversBoth() throws {
        let found = try Upright.analyse(try warped("perspective=-25:0:-2"), mode: .vertical)
        #expect(found.isSolved, "\(found.note)")
        #expect(abs(found.vertical - 25) <= 1.5 && abs(found.rotate - 2) <= 0.3, "\(found.note)")
        #expect(worstAngle(warp: [-25, 0, -2], fix: [found.vertical, found.horizontal, found.rotate], verticalsOnly: true) <= 0.3)
    }

    @Test func fullRecoversVerticalHorizontalAndRotate() throws {
        let warp = [20.0, -15, 1.5]
        let found = try Upright.analyse(try warped("perspective=+20:-15:1.5"), mode: .full)
        #expect(found.isSolved, "\(found.note)")
        // The filter keeps the picture's centre in the centre, so a warp then
        // its correction is not a pure turn of the camera: even the best
        // values, -19.0:+13.4:-1.81 (least squares on the lines of
        // `worstAngle`, computed apart), leave lines 0.43° off.
        #expect(abs(found.vertical - -19.0) <= 1 && abs(found.horizontal - 13.4) <= 1 && abs(found.rotate - -1.81) <= 0.2, "\(found.note)")
        #expect(worstAngle(warp: warp, fix: [found.vertical, found.horizontal, found.rotate]) <= 0.5, "\(found.note)")
        #expect(found.residual.map { $0 <= 0.4 } == true, "\(found.note)")
    }

    @Test func levelTurnsOnly() throws {
        let found = try Upright.analyse(try warped("perspective=0:0:+3"), mode: .level)
        #expect(found.isSolved, "\(found.note)")
        #expect(abs(found.rotate - -3) <= 0.1 && found.vertical == 0 && found.horizontal == 0, "\(found.note)")
        #expect(worstAngle(warp: [0, 0, 3], fix: [0, 0, found.rotate]) <= 0.15)
    }

    @Test func autoIsFullDamped() throws {
        let found = try Upright.analyse(try warped("perspective=+30"), mode: .auto)
        #expect(found.isSolved && found.solvedAs == .full, "\(found.note)")
        // 0.8 of the full correction.
        #expect(abs(found.vertical - -24) <= 1 && abs(found.horizontal) <= 1 && abs(found.rotate) <= 0.1, "\(found.note)")
    }

    /// Noise on a smooth gradient: no straight lines.
    static func noise() throws -> Image {
        let noise = try Vips.image("gaussnoise", [("width", .number(1200)), ("height", .number(800)), ("sigma", .number(0.05)), ("mean", .number(0.3))])
        let ramp = try Vips.image("xyz", [("width", .number(1200)), ("height", .number(800))]).extractBands(0, count: 1).cast("float")
            .linear(multiply: [0.3 / 1200], add: [0])
        let grey = try Vips.image("add", [("left", .image(noise)), ("right", .image(ramp))])
        return try Vips.image("bandjoin", [("in", .images([grey, grey, grey]))]).inMemory()
    }

    @Test func noLinesChangeNothingAndSaySo() throws {
        let image = try Self.noise()
        for mode in UprightMode.allCases {
            let found = try Upright.analyse(image, mode: mode)
            #expect(!found.isSolved && found.chain == "", "\(mode): \(found.note)")
            #expect(found.note.hasPrefix("upright \(mode.rawValue): ") && found.note.hasSuffix("— perspective unchanged"), "\(found.note)")
            #expect(!found.note.contains("\n"))
            #expect(try found.applied(to: try recipe("exposure=+1")) == (try recipe("exposure=+1")))
        }
    }

    @Test func fullNeedsHorizontalLines() throws {
        // Vertical stripes only: vertical solves; full says why not; auto solves as vertical.
        let xyz = try Vips.image("xyz", [("width", .number(1200)), ("height", .number(800))])
        let stripes = try xyz.extractBands(0, count: 1).call("remainder_const", [("c", .doubles([150]))])
            .call("relational_const", [("relational", .string("less")), ("c", .doubles([60]))]).cast("float").linear(multiply: [0.5 / 255], add: [0.05])
        let image = try detail.run("perspective=+20", on: try Vips.image("bandjoin", [("in", .images([stripes, stripes, stripes]))])).inMemory()
        let full = try Upright.analyse(image, mode: .full)
        #expect(!full.isSolved && full.note.contains("horizontal line"), "\(full.note)")
        let auto = try Upright.analyse(image, mode: .auto)
        #expect(auto.isSolved && auto.solvedAs == .vertical && abs(auto.vertical - -16) <= 1, "\(auto.note)")
    }

    @Test func deterministic() throws {
        let image = try warped("perspective=+20:-15:1.5")
        let first = try Upright.analyse(image, mode: .full)
        #expect(try Upright.analyse(image, mode: .full) == first)
        #expect(try Upright.analyse(try warped("perspective=+20:-15:1.5"), mode: .full) == first)
    }

    @Test func chainStepMustNameAMode() throws {
        #expect(throws: PhotoEditError.self) { try Chain.apply(Chain.parse("upright"), to: .empty) }
        #expect(throws: PhotoEditError.self) { try Chain.apply(Chain.parse("upright=sideways"), to: .empty, upright: { r, _ in r }) }
        #expect(throws: PhotoEditError.self) { try Chain.apply(Chain.parse("upright=full:level"), to: .empty, upright: { r, _ in r }) }
        #expect(throws: PhotoEditError.self) { try Chain.apply(Chain.parse("upright.mode=full"), to: .empty, upright: { r, _ in r }) }
        #expect(throws: PhotoEditError.self) { try Chain.apply(Chain.parse("upright=full:crop"), to: .empty, upright: { r, _ in r }) }
        var requests: [UprightRequest] = []
        _ = try Chain.apply(Chain.parse("upright,upright=LEVEL,upright=vertical,upright=full,upright=auto,upright=full:constrain"), to: .empty,
                            upright: { r, m in requests.append(m); return r })
        #expect(requests.map(\.mode) == [.auto, .level, .vertical, .full, .auto, .full])
        #expect(requests.map(\.constrain) == [false, false, false, false, false, true])
    }

    @Test func applyStoresConcretePerspectiveValues() throws {
        let dir = TemporaryDirectory()
        let library = try PhotoLibrary(url: dir.url.appendingPathComponent("library"))
        let renderer = Renderer(registry: .standard)
        let file = dir.file("facade.png")
        try Renderer.save(try renderer.outputImage(try warped("perspective=+30")), to: file, format: .png, quality: 90)
        let id = try #require(try library.importItems([file]).first?.id)
        let measured = try library.uprightAdjustment(for: id, mode: .vertical)
        #expect(measured.isSolved && abs(measured.vertical - -30) <= 1.5, "\(measured.note)")
        try library.apply(chain: "perspective.scale=110,upright=vertical,perspective.x=5", to: id)
        let stored = try Recipe(adjustmentData: #require(try library.asset(id).adjustmentData), registry: .standard)
        let p = try #require(stored.node("perspective")).parameters
        #expect(p.number("vertical") == measured.vertical && p.number("rotate") == measured.rotate)
        #expect(p.number("scale") == 110 && p.number("x") == 5, "upright keeps the framing; a later step adjusts")
        #expect(try library.history(id).last.map { Chain.format(try Recipe(adjustmentData: #require($0.adjustmentData), registry: .standard)) }?
            .contains("perspective") == true)
        // The rendered result: the façade's verticals are vertical again.
        let rendered = dir.file("fixed.png")
        try library.render(id, to: rendered)
        let again = try Upright.analyse(try renderer.workingImage(path: rendered, randomAccess: true), mode: .vertical)
        #expect(again.isSolved && abs(again.vertical) <= 1, "after upright: \(again.note)")
        // Measured on the base, not on its own result: the same values again.
        try library.apply(chain: "upright=vertical", to: id)
        let twice = try Recipe(adjustmentData: #require(try library.asset(id).adjustmentData), registry: .standard)
        #expect(twice.node("perspective")?.parameters.number("vertical") == measured.vertical)
    }

    @Test func constrainLeavesNoEmptyCorner() throws {
        let image = try warped("perspective=+30")
        let found = try Upright.analyse(image, mode: .vertical)
        let scale = try #require(found.constrainedScale, "\(found.note)")
        #expect(scale > 100 && scale < 150, "\(scale)")
        /// The corner pixels of the façade corrected with `values`.
        func corners(_ values: [String: ParameterValue]) throws -> [Double] {
            let out = try registry.require("perspective").render(image, Parameters(values: values), RenderContext()).inMemory()
            return try [(0, 0), (1199, 0), (0, 799), (1199, 799)].map { try out.point(x: $0.0, y: $0.1)[0] }
        }
        let plain = try found.applied(to: .empty)
        #expect(try corners(try #require(plain.node("perspective")).parameters.values).contains { $0 < 1e-4 },
                "without constrain a corner is empty")
        let constrained = try #require(try found.applied(to: .empty, constrain: true).node("perspective")).parameters
        #expect(constrained.number("scale") == scale)
        let filled = try corners(constrained.values)
        #expect(filled.allSatisfy { $0 > 0.03 }, "constrained, no corner is black: \(filled) at \(scale) %")
        // The bound is tight: 0.3 % less leaves a corner partly empty.
        var below = constrained.values
        below["scale"] = .number(scale - 0.3)
        #expect(try corners(below).contains { $0 < 0.05 }, "just below \(scale) % a corner darkens")
        // No correction, no zoom; an offset needs one.
        #expect(Upright.constrainedScale(Parameters(values: [:]), width: 1200, height: 800) == 100)
        // x = +10 % moves the picture 60 px right: its left edge (599.5 px from
        // the centre) needs a zoom of 659.5 / 599.5 = 110.008 %, in tenths
        // 110.1, and 0.1 more for the analysed copy's rounding.
        #expect(Upright.constrainedScale(Parameters(values: ["x": .number(10)]), width: 1200, height: 800) == 110.2)
        // Without constrain the scale stays as the recipe had it.
        #expect(try found.applied(to: try recipe("perspective.scale=110")).node("perspective")?.parameters.number("scale") == 110)
    }

    @Test func applyWithoutLinesLeavesTheRecipe() throws {
        let dir = TemporaryDirectory()
        let library = try PhotoLibrary(url: dir.url.appendingPathComponent("library"))
        let file = dir.file("noise.png")
        try Renderer.save(try Renderer(registry: .standard).outputImage(try Self.noise()), to: file, format: .png, quality: 90)
        let id = try #require(try library.importItems([file]).first?.id)
        try library.apply(chain: "exposure=+0.5", to: id)
        let found = try library.uprightAdjustment(for: id, mode: .auto)
        #expect(!found.isSolved, "\(found.note)")
        try library.apply(chain: "upright,contrast=+10", to: id)
        let stored = try Recipe(adjustmentData: #require(try library.asset(id).adjustmentData), registry: .standard)
        #expect(stored.node("perspective") == nil && stored.node("exposure") != nil && stored.node("contrast") != nil, "the batch goes on")
    }

    @Test func levelsARealFileTurnedByAKnownAngle() throws {
        // samples/chart.png (a real PNG through the whole library), turned 2.5° and saved as JPEG.
        let dir = TemporaryDirectory()
        let library = try PhotoLibrary(url: dir.url.appendingPathComponent("library"))
        let chart = try #require(try library.importItems([Paths.sample("chart.png")]).first?.id)
        #expect(abs(try library.uprightAdjustment(for: chart, mode: .level).rotate) <= 0.05, "the chart is level")
        try library.apply(chain: "perspective=0:0:2.5", to: chart)
        let turned = dir.file("turned.jpg")
        try library.render(chart, to: turned)
        let id = try #require(try library.importItems([turned]).first?.id)
        let found = try library.uprightAdjustment(for: id, mode: .level)
        #expect(found.isSolved && abs(found.rotate - -2.5) <= 0.1, "\(found.note)")
    }

    @Test func aRawIsMeasuredOnItsDevelopment() throws {
        // A RAW turned by its orientation (libraw flip 6), with a raw stage in the recipe.
        let dir = TemporaryDirectory()
        let library = try PhotoLibrary(url: dir.url.appendingPathComponent("library"))
        let raw = Paths.root.appendingPathComponent("Tests/Fixtures/raw/rotated.dng").path
        let id = try #require(try library.importItems([raw]).first?.id)
        try library.apply(chain: "raw.wb=auto", to: id)
        let found = try library.uprightAdjustment(for: id, mode: .auto)
        #expect(try library.uprightAdjustment(for: id, mode: .auto) == found, "deterministic")
        #expect(found.verticalLines + found.horizontalLines > 0, "the development is measured: \(found.note)")
        try library.apply(chain: "upright", to: id)
        let stored = try Recipe(adjustmentData: #require(try library.asset(id).adjustmentData), registry: .standard)
        #expect(stored.node("raw") != nil)
        #expect((stored.node("perspective") != nil) == found.isSolved, "\(found.note)")
    }

    @Test func theAnalysisSeesTheRecipesRotation() throws {
        // A keystone in a picture stored on its side: after rotate=90 the
        // verticals are the file's horizontals, and upright measures them so.
        let dir = TemporaryDirectory()
        let library = try PhotoLibrary(url: dir.url.appendingPathComponent("library"))
        let renderer = Renderer(registry: .standard)
        let file = dir.file("sideways.png")
        try Renderer.save(try renderer.outputImage(try warped("perspective=+30").rotate(quarterTurns: 3)), to: file, format: .png, quality: 90)
        let id = try #require(try library.importItems([file]).first?.id)
        try library.apply(chain: "rotate=90", to: id)
        let found = try library.uprightAdjustment(for: id, mode: .vertical)
        #expect(found.isSolved && abs(found.vertical - -30) <= 1.5, "\(found.note)")
    }
}

/// `photoedit upright ID` and the note `photoedit apply upright` writes.
@Suite("Upright: CLI")
struct UprightCLITests {
    @Test func uprightPrintsWhatItFindsAndApplyNotesWhyNothing() throws {
        let cli = CLILibrary()
        let chart = try cli.importSample("chart.png")
        let level = try cli.succeed(["upright", chart, "--mode", "level"])
        #expect(level.stdoutLines.first == "mode      level", "\(level)")
        #expect(level.stdoutLines.contains { $0.hasPrefix("solution  perspective=0:0:") }, "\(level)")
        let json = try JSONValue.parse(Data(try cli.succeed(["upright", chart, "--mode", "full", "--json"]).stdout.utf8))
        guard case .object(let members) = json else { Issue.record("not an object: \(json)"); return }
        #expect(members["mode"] == .string("full") && members["note"] != nil)
        // Coffee has no building: nothing changes, one line says why, the exit status is 0.
        let coffee = try cli.importSample("coffee.jpg")
        let applied = try cli.succeed(["apply", "upright=full,exposure=+0.2", coffee])
        let notes = applied.stderr.split(separator: "\n").filter { $0.contains("upright full:") }
        #expect(notes.count == 1 && notes[0].hasSuffix("— perspective unchanged"), "\(applied)")
        // The level chart (turned -0.01° by its fit) needs next to no zoom.
        let constrained = try cli.succeed(["apply", "upright=level:constrain", chart])
        #expect(constrained.stderr.contains("(constrain: scale 100."), "\(constrained)")
        #expect(try cli.succeed(["history", chart]).stdout.contains("perspective.scale=100."))
        let shown = try cli.succeed(["history", coffee])
        #expect(shown.stdout.contains("exposure=+0.2") && !shown.stdout.contains("perspective"), "\(shown)")
        // Bad modes: a clear one-line error, nothing written.
        let bad = try cli.run(["upright", chart, "--mode", "sideways"])
        #expect(bad.status != 0 && bad.stderr.contains("--mode"))
        let badStep = try cli.run(["apply", "upright=sideways", chart])
        #expect(badStep.status != 0 && badStep.stderr.contains("not an upright mode"), "\(badStep)")
    }
}
