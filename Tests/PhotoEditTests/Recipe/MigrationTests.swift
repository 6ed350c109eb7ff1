import Foundation
import Testing
@testable import PhotoEdit

/// Frozen recipes of earlier filter versions (`filters/<id>/migrations/vN/NNNN-case/`):
/// each still loads, renders as its version did (within the golden tolerance
/// of the image that version recorded), and upgrades step by step.
@Suite("Filter versions and migrations")
struct MigrationTests {
    struct FrozenCase: Sendable, CustomTestStringConvertible {
        let filter: String
        let version: Int
        let folder: URL
        var testDescription: String { "\(filter) v\(version) \(folder.lastPathComponent)" }
    }

    static let cases: [FrozenCase] = {
        let fm = FileManager.default
        var out: [FrozenCase] = []
        for filter in ((try? fm.contentsOfDirectory(atPath: Paths.filters.path)) ?? []).sorted() {
            let migrations = Paths.filters.appendingPathComponent(filter).appendingPathComponent("migrations")
            for v in ((try? fm.contentsOfDirectory(atPath: migrations.path)) ?? []).sorted() where v.hasPrefix("v") {
                let vFolder = migrations.appendingPathComponent(v)
                for name in ((try? fm.contentsOfDirectory(atPath: vFolder.path)) ?? []).sorted()
                where FileIO.isDirectory(vFolder.appendingPathComponent(name).path) {
                    out.append(FrozenCase(filter: filter, version: Int(v.dropFirst()) ?? 0, folder: vFolder.appendingPathComponent(name)))
                }
            }
        }
        return out
    }()

    struct Spec: Decodable {
        let sample: String
        let recipe: JSONValue
        let size: Int
    }

    @Test func everyLegacyVersionHasFrozenRecipes() {
        for definition in FilterRegistry.standard.filters {
            for legacy in definition.legacy {
                #expect(Self.cases.contains { $0.filter == definition.id && $0.version == legacy.version },
                        "\(definition.id) version \(legacy.version) has no frozen recipe under filters/\(definition.id)/migrations/v\(legacy.version)/")
            }
        }
    }

    @Test(arguments: cases)
    func frozenRecipeLoadsRendersAndUpgrades(_ frozen: FrozenCase) throws {
        let spec = try JSONDecoder().decode(Spec.self, from: Data(contentsOf: frozen.folder.appendingPathComponent("case.json")))
        let definition = try #require(FilterRegistry.standard.filter(frozen.filter))
        let legacy = try #require(definition.legacy.first { $0.version == frozen.version })

        // Loads, and keeps its version when the next one renders differently.
        let recipe = try Recipe(json: spec.recipe)
        let node = try #require(recipe.node(frozen.filter))
        #expect(node.version == (legacy.changesRendering ? frozen.version : definition.version))

        // Renders as that version did.
        let temp = TemporaryDirectory("photoedit-migration")
        let library = try PhotoLibrary(url: temp.url.appendingPathComponent("library"))
        // The sample is in samples/ or, as the golden cases', under filters/ (`dehaze/hazy.jpg`).
        let inFilters = Paths.filters.appendingPathComponent(spec.sample).path
        let source = FileManager.default.fileExists(atPath: Paths.sample(spec.sample)) ? Paths.sample(spec.sample) : inFilters
        let id = try #require(try library.importItems([source]).first?.id)
        try library.apply(recipe: recipe, to: id)
        let actual = temp.file("actual.png")
        try library.render(id, to: actual, options: RenderOptions(maxWidth: spec.size, maxHeight: spec.size))
        let expected = frozen.folder.appendingPathComponent("expected.png").path
        if GoldenRunner.recordMode != .never && !FileManager.default.fileExists(atPath: expected) {
            // Record mode, as for goldens: only a case without expected.png.
            try FileManager.default.copyItem(atPath: actual, toPath: expected)
        }
        let failures = Paths.goldenFailures.appendingPathComponent("migrations").appendingPathComponent(frozen.testDescription)
        let difference = try GoldenRunner.compare(actual: actual, expected: expected, failureFolder: failures)
        print(String(format: "frozen %@: max ΔE00 %.3f, mean %.3f", frozen.testDescription, difference.maxDeltaE, difference.meanDeltaE))
        #expect(difference.problem == nil, "\(frozen.testDescription): \(difference.problem ?? ""); actual.png and diff.png are in \(failures.path)")

        // A version whose successor renders the same was migrated on load: nothing to upgrade.
        guard legacy.changesRendering else {
            #expect(try library.currentRecipe(id).node(frozen.filter)?.version == definition.version)
            #expect(try library.upgrade(id) == nil)
            return
        }
        // Upgrades to the current version, and the photo's history keeps the old revision.
        let upgraded = try #require(try library.upgrade(id))
        #expect(upgraded.upgraded.map(\.filter) == [frozen.filter])
        let now = try library.currentRecipe(id)
        #expect(now.node(frozen.filter)?.version == definition.version)
        #expect(now.node(frozen.filter)?.parameters.values.count == definition.parameters.count)
        #expect(try library.upgrade(id) == nil, "a second upgrade has nothing to do")
        #expect(try library.history(id).count == 3)
    }

    @Test func editingAnOldNodeBringsItToTheCurrentVersion() throws {
        let json = #"{"format":"org.photoedit.recipe","formatVersion":1,"filters":[{"id":"contrast","version":1,"params":{"amount":40}}]}"#
        let old = try Recipe(json: JSONValue.parse(Data(json.utf8)))
        #expect(old.node("contrast")?.version == 1)
        #expect(old.frozenNodes().map(\.filter) == ["contrast"])
        let edited = try Chain.apply(Chain.parse("contrast.amount=50"), to: old)
        #expect(edited.node("contrast")?.version == 2)
        #expect(edited.node("contrast")?.parameters["amount"] == .number(50))
        #expect(edited.frozenNodes().isEmpty)
        // Encoding keeps the node's version, so an old recipe round-trips unchanged.
        #expect(try Recipe(adjustmentData: old.adjustmentData) == old)
    }

    @Test func unknownOldVersionIsAClearError() throws {
        let json = #"{"format":"org.photoedit.recipe","formatVersion":1,"filters":[{"id":"exposure","version":0,"params":{}}]}"#
        #expect(throws: PhotoEditError.self) { try Recipe(json: JSONValue.parse(Data(json.utf8))) }
    }
}
