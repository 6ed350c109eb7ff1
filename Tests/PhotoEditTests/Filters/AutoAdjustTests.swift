import Foundation
import Testing
@testable import PhotoEdit

/// `auto`: measured settings written into the recipe.
@Suite("Auto adjustment")
struct AutoAdjustTests {
    /// The documented band (docs/benchmarks.md, "Auto"): after `auto`, a photo
    /// made too dark, too bright, too blue or too yellow lands within these
    /// differences of the original's mean CIELAB colour.
    static let bandL = 5.0
    static let bandAB = 6.0

    /// The alterations of the benchmark: ±1.5 EV, and casts of ±2000 K around
    /// 6500 K (4500 K is 68 mired from 6504 K, 8500 K is 36 mired).
    static let alterations: [(name: String, chain: String)] = [
        ("−1.5 EV", "exposure=-1.5"), ("+1.5 EV", "exposure=+1.5"),
        ("too blue (8500 K light taken as 6500 K)", "temperature=-36"), ("too yellow (4500 K light taken as 6500 K)", "temperature=+68"),
    ]

    /// Mean CIELAB L*, a*, b* of a rendered file.
    static func meanLab(_ path: String) throws -> [Double] {
        try Pixels.bandMeans(Pixels.load(path).colourspace("lab"))
    }

    @Test func theChainStepWritesConcreteValuesAndIsDeterministic() throws {
        let dir = TemporaryDirectory()
        let library = try PhotoLibrary(url: dir.url.appendingPathComponent("library"))
        let id = try #require(try library.importItems([Paths.sample("coffee.jpg")]).first?.id)
        try library.apply(chain: "exposure=-1.5,sharpen=50", to: id)
        let altered = dir.file("dark.jpg")
        try library.render(id, to: altered)
        let dark = try #require(try library.importItems([altered]).first?.id)
        let measured = try library.autoAdjustment(for: dark)
        #expect(measured["exposure"] > 1, "a photo 1.5 EV too dark is brightened: \(measured.values)")
        #expect(try library.autoAdjustment(for: dark) == measured, "deterministic")
        // `auto,sharpen=30`: auto's filters are concrete values in the recipe, the others stay.
        try library.apply(chain: "sharpen=30,auto,contrast=+5", to: dark)
        let recipe = try Recipe(adjustmentData: #require(try library.asset(dark).adjustmentData), registry: .standard)
        #expect(recipe.node("exposure")?.parameters.number("ev") == measured["exposure"])
        #expect(recipe.node("contrast")?.parameters.number("amount") == 5, "a step after auto adjusts its value")
        #expect(recipe.node("sharpen")?.parameters.number("amount") == 30)
        // Applying auto again gives the same values (it measures the base, not its own result).
        try library.apply(chain: "auto", to: dark)
        let again = try Recipe(adjustmentData: #require(try library.asset(dark).adjustmentData), registry: .standard)
        #expect(again.node("exposure")?.parameters.number("ev") == measured["exposure"])
        #expect(Chain.format(again).contains("exposure=+"))
    }

    @Test func autoOutsideALibraryAndWithValuesIsAClearError() throws {
        #expect(throws: PhotoEditError.self) { try Chain.apply(Chain.parse("auto"), to: .empty) }
        #expect(throws: PhotoEditError.self) { try Chain.apply(Chain.parse("auto=1"), to: .empty, auto: { $0 }) }
        #expect(throws: PhotoEditError.self) { try Chain.apply(Chain.parse("auto.strength=1"), to: .empty, auto: { $0 }) }
        #expect(try Chain.apply(Chain.parse("auto,exposure=+1"), to: .empty, auto: { $0 }).nodes.map(\.filter) == ["exposure"])
    }

    @Test func whiteBalanceUndoesAKnownCast() throws {
        // A neutral grey seen under the cast of temperature=-36 is corrected by about +36.
        let grey = [0.18, 0.18, 0.18]
        let cast = ColourMath.apply(Filters.temperatureMatrix(-36), grey)
        let (t, n) = AutoAdjust.whiteBalance(for: cast.map { $0 / cast[1] })
        #expect(abs(t - 36) <= 4, "temperature \(t), tint \(n)")
        let fixed = ColourMath.apply(ColourMath.multiply(Filters.tintMatrix(n), Filters.temperatureMatrix(t)), cast)
        #expect(abs(fixed[0] / fixed[1] - 1) < 0.01 && abs(fixed[2] / fixed[1] - 1) < 0.01, "grey after: \(fixed)")
    }

    /// The benchmark of docs/benchmarks.md ("Auto"): each sample photo made
    /// too dark, too bright, too blue and too yellow, then `auto`; the mean
    /// CIELAB colour of the result is compared with the original's.
    @Test func alteredPhotosLandWithinTheBandOfTheOriginal() throws {
        let dir = TemporaryDirectory()
        let library = try PhotoLibrary(url: dir.url.appendingPathComponent("library"))
        var rows: [String] = []
        for sample in ["coffee.jpg", "chelsea.jpg", "astronaut.jpg"] {
            let original = try #require(try library.importItems([Paths.sample(sample)]).first?.id)
            let originalRender = dir.file("\(sample)-original.png")
            try library.render(original, version: .unadjusted, to: originalRender)
            let reference = try Self.meanLab(originalRender)
            for (n, alteration) in Self.alterations.enumerated() {
                try library.apply(chain: alteration.chain, to: original, reset: true)
                let alteredFile = dir.file("\(sample)-\(n).jpg")
                try library.render(original, to: alteredFile)
                let altered = try #require(try library.importItems([alteredFile]).first?.id)
                try library.apply(chain: "auto", to: altered)
                let fixed = dir.file("\(sample)-\(n)-auto.png")
                try library.render(altered, to: fixed)
                let before = try Self.meanLab(alteredFile), after = try Self.meanLab(fixed)
                let chain = Chain.format(try Recipe(adjustmentData: #require(try library.asset(altered).adjustmentData), registry: .standard))
                let d = (0..<3).map { after[$0] - reference[$0] }, d0 = (0..<3).map { before[$0] - reference[$0] }
                rows.append(String(format: "| %@ | %@ | %+.1f / %+.1f / %+.1f | %+.1f / %+.1f / %+.1f | `%@` |",
                                   sample, alteration.name, d0[0], d0[1], d0[2], d[0], d[1], d[2], chain))
                #expect(abs(d[0]) <= Self.bandL, "\(sample) \(alteration.name): L* off by \(d[0]) (\(chain))")
                #expect(abs(d[1]) <= Self.bandAB && abs(d[2]) <= Self.bandAB, "\(sample) \(alteration.name): a*/b* off by \(d[1]), \(d[2]) (\(chain))")
            }
        }
        print("| photo | made | before auto: ΔL* / Δa* / Δb* | after auto: ΔL* / Δa* / Δb* | auto wrote |")
        print("| --- | --- | --- | --- | --- |")
        for row in rows { print(row) }
    }
}
