import Foundation
import Testing
@testable import PhotoEdit

/// Presets (`filters/presets/`, `--presets DIR`, `$PHOTOEDIT_PRESETS`),
/// `preset:NAME` in chains, `photoedit presets`, `copy-recipe` and `upgrade`.
@Suite("Presets, copy-recipe, upgrade")
struct PresetTests {
    static func chain(_ recipe: Recipe) -> String { Chain.format(recipe) }

    @Test func shippedPresetsAllLoadAndApply() throws {
        let library = PresetLibrary(folders: [Paths.filters.appendingPathComponent("presets").path])
        let presets = try library.all()
        #expect(presets.count >= 5, "ship a few presets in filters/presets")
        for preset in presets {
            let recipe = try Chain.apply(Chain.parse("preset:" + preset.name), to: .empty, presets: library)
            #expect(!recipe.isEmpty, "\(preset.name) does nothing")
            #expect(!preset.summary.isEmpty)
        }
    }

    @Test func presetMergesLikeAChainAndLaterStepsWin() throws {
        let library = PresetLibrary(folders: [Paths.filters.appendingPathComponent("presets").path])
        let recipe = try Chain.apply(Chain.parse("exposure=+1,preset:punchy,contrast=+5"), to: .empty, presets: library)
        #expect(recipe.node("exposure")?.parameters["ev"] == .number(0.1), "the preset's exposure replaces the earlier one")
        #expect(recipe.node("contrast")?.parameters["amount"] == .number(5), "a later step replaces the preset's")
        #expect(recipe.node("saturation")?.parameters["amount"] == .number(15))
    }

    @Test func userFolderComesFirstAndBadPresetsAreClearErrors() throws {
        let temp = TemporaryDirectory("photoedit-presets")
        try "# mine\nexposure=+2\n".write(toFile: temp.file("warm.chain"), atomically: true, encoding: .utf8)
        try "exposure=+99\n".write(toFile: temp.file("broken.chain"), atomically: true, encoding: .utf8)
        let library = PresetLibrary(folders: [temp.path, Paths.filters.appendingPathComponent("presets").path])
        #expect(try library.preset(named: "warm").chain == "exposure=+2")
        #expect(throws: PhotoEditError.self) { try library.preset(named: "broken") }
        #expect(throws: PhotoEditError.self) { try library.preset(named: "missing") }
        #expect(throws: PhotoEditError.self) { try Chain.parse("preset:../etc") }
        #expect(throws: PhotoEditError.self) { try Chain.apply(Chain.parse("preset:warm"), to: .empty) }
    }

    @Test func cliPresetsApplyPresetAndCopyRecipe() throws {
        let lib = CLILibrary()
        let a = try lib.importSample("coffee.jpg"), b = try lib.importSample("chelsea.jpg")
        let list = try CLI.run(["presets"])
        #expect(list.status == 0 && list.stdoutLines.contains { $0.hasPrefix("warm\t") }, "\(list)")

        try lib.succeed(["apply", "--preset", "warm", a])
        try lib.succeed(["apply", "preset:square,exposure=-0.3", a])
        let chain = try lib.show(a)["chain"]
        #expect(chain == .string("temperature=+20,tint=+4,exposure=-0.3,saturation=+8,crop=1:1"), "\(String(describing: chain))")

        let temp = TemporaryDirectory("photoedit-presets-cli")
        try "# mine\nsaturation=-100\n".write(toFile: temp.file("mono-ish.chain"), atomically: true, encoding: .utf8)
        try lib.succeed(["apply", "--presets", temp.path, "--preset", "mono-ish", b])
        #expect(try lib.show(b)["chain"] == .string("saturation=-100"))
        let env = try CLI.run(["presets"], environment: ["PHOTOEDIT_PRESETS": temp.path])
        #expect(env.stdoutLines.contains { $0.hasPrefix("mono-ish\t") })
        let missing = try lib.run(["apply", "--preset", "nope", a])
        #expect(missing.status != 0 && missing.stderrLines.count == 1 && missing.stderr.contains("no preset called 'nope'"))

        // copy-recipe: geometry stays the target's unless --geometry.
        try lib.succeed(["apply", "crop=16:9", b])
        try lib.succeed(["copy-recipe", a, b])
        #expect(try lib.show(b)["chain"] == .string("temperature=+20,tint=+4,exposure=-0.3,saturation=+8,crop=16:9"))
        try lib.succeed(["copy-recipe", "--geometry", "--replace", a, b])
        #expect(try lib.show(b)["chain"] == .string("temperature=+20,tint=+4,exposure=-0.3,saturation=+8,crop=1:1"))
        let c = try lib.importSample("astronaut.jpg")
        let none = try lib.run(["copy-recipe", c, a])
        #expect(none.status != 0 && none.stderr.contains("no adjustments to copy"))
    }

    @Test func cliUpgradeBringsOldRecipesForward() throws {
        let lib = CLILibrary()
        let id = try lib.importSample("coffee.jpg")
        let temp = TemporaryDirectory("photoedit-upgrade")
        let v1 = #"{"format":"org.photoedit.recipe","formatVersion":1,"filters":[{"id":"contrast","version":1,"params":{"amount":50}}]}"#
        try v1.write(toFile: temp.file("v1.json"), atomically: true, encoding: .utf8)
        try lib.succeed(["apply", "--recipe", temp.file("v1.json"), id])
        #expect(try lib.succeed(["show", id]).stdout.contains("contrast 1 (current 2"))
        let up = try lib.succeed(["upgrade", id])
        #expect(up.stdout.contains("contrast 1→2"), "\(up)")
        #expect(try lib.succeed(["upgrade", id]).stdout.contains("up to date"))
        #expect(try lib.history(id).count == 3)
        // The two revisions render differently (v2 keeps hues).
        try lib.succeed(["render", id, "-o", temp.file("v2.png"), "--size", "128"])
        try lib.succeed(["revert", id, "--to", "1"])
        try lib.succeed(["render", id, "-o", temp.file("v1.png"), "--size", "128"])
        #expect(try Pixels.deltaE(temp.file("v1.png"), temp.file("v2.png")).mean > 1)
    }
}
