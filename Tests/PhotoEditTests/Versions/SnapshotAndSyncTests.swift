import Foundation
import Testing
@testable import PhotoEdit

/// Named snapshots and selective sync (issue 40).
@Suite("Versions: snapshots and selective sync")
struct SnapshotAndSyncTests {
    static func ids(_ r: CLIResult) -> [String] { r.stdoutLines.map { String($0.prefix(32)) } }

    /// A snapshot names the current revision; `--to` makes it current again
    /// as a new revision; names show in `history`; they survive a rebuilt
    /// catalog (the metadata record carries them) and `library copy`.
    @Test func snapshotsNameRevisionsAndSurviveARebuild() throws {
        let lib = CLILibrary()
        let id = try lib.importSample("coffee.jpg")
        try lib.succeed(["apply", "exposure=+0.4", id])
        #expect(try lib.succeed(["snapshot", id, "Before client"]).stdout == "\(id)\tBefore client\t1\n")
        try lib.succeed(["apply", "saturation=-100", id])
        try lib.succeed(["snapshot", id, "B&W"])
        try lib.succeed(["apply", "contrast=+40", id])

        let history = try lib.history(id)
        #expect(history[1]["snapshots"]?.array == [.string("Before client")])
        #expect(history[2]["snapshots"]?.array == [.string("B&W")])
        #expect(try lib.succeed(["history", id]).stdout.contains("[snapshot: Before client]"))

        #expect(try lib.succeed(["snapshot", id, "--to", "Before client"]).stdout == "\(id)\t4\n")
        #expect(try lib.show(id)["chain"]?.string == "exposure=+0.4")
        #expect(try lib.history(id).last?["kind"]?.string == "revert")

        let listed = try lib.succeed(["snapshot", id, "--list"]).stdoutLines.map { $0.split(separator: "\t").prefix(2).joined(separator: " ") }
        #expect(listed == ["B&W 2", "Before client 1"])
        #expect(try lib.succeed(["verify"]).status == 0)

        // Another library gets them with the photo.
        let other = CLILibrary()
        let copied = try CLI.run(["library", "copy", "--from", lib.path, "--to", other.path])
        #expect(copied.status == 0, "\(copied)")
        #expect(try other.succeed(["snapshot", id, "--list"]).stdoutLines.count == 2)

        lib.removeCatalog()
        try lib.succeed(["verify", "--rebuild-catalog"])
        let rebuilt = try lib.succeed(["snapshot", id, "--list"]).stdoutLines.map { $0.split(separator: "\t").prefix(2).joined(separator: " ") }
        #expect(rebuilt == ["B&W 2", "Before client 1"])
        #expect(try lib.succeed(["verify"]).status == 0)

        try lib.succeed(["snapshot", id, "--remove", "B&W"])
        #expect(try lib.succeed(["snapshot", id, "--list"]).stdoutLines.count == 1)
        #expect(try lib.history(id)[2]["snapshots"]?.array == [])
    }

    /// `copy-recipe --only` pastes only those groups and keeps the rest of
    /// each target's recipe; a synced group is the source's exactly; crop
    /// and local corrections stay unless named; `--except` leaves groups out.
    @Test func selectiveSyncPastesOnlyTheNamedGroups() throws {
        let lib = CLILibrary()
        let ids = try lib.importFiles([Paths.sample("coffee.jpg"), Paths.sample("chelsea.jpg"), Paths.sample("astronaut.jpg")])
        let (source, a, b) = (ids[0], ids[1], ids[2])
        try lib.succeed(["apply", "temperature=+30,exposure=+0.5,saturation=-40,vignette=-30,crop=16:9", source])
        try lib.succeed(["apply", "tint=+10,contrast=+20,sharpen=50,crop=1:1", a])
        try lib.succeed(["apply", "grain=20,highlights=-30", b])

        try lib.succeed(["copy-recipe", source, a, b, "--only", "wb,tone"])
        #expect(try lib.show(a)["chain"]?.string == "temperature=+30,exposure=+0.5,crop=1:1,sharpen=50",
                "wb and tone are the source's exactly (tint and contrast gone), crop and detail kept")
        #expect(try lib.show(b)["chain"]?.string == "temperature=+30,exposure=+0.5,grain=20")

        try lib.succeed(["copy-recipe", source, b, "--except", "effects"])
        #expect(try lib.show(b)["chain"]?.string == "temperature=+30,exposure=+0.5,saturation=-40,grain=20",
                "every group but effects, and not the crop")
        try lib.succeed(["copy-recipe", source, b, "--only", "geometry,effects"])
        #expect(try lib.show(b)["chain"]?.string == "temperature=+30,exposure=+0.5,saturation=-40,crop=16:9,vignette=-30")
        #expect(try lib.succeed(["verify"]).status == 0)
    }

    /// Bad input: one line, non-zero, nothing changed.
    @Test func badSyncInputChangesNothing() throws {
        let lib = CLILibrary()
        let ids = try lib.importFiles([Paths.sample("coffee.jpg"), Paths.sample("chelsea.jpg")])
        try lib.succeed(["apply", "exposure=+0.5", ids[0]])
        for arguments in [
            ["copy-recipe", ids[0], ids[1], "--only", "tone,sparkle"],
            ["copy-recipe", ids[0], ids[1], "--except", ""],
            ["copy-recipe", ids[0], ids[1], ids[0], "--only", "tone"],
            ["copy-recipe", ids[0], ids[1], "--only", "tone", "--except", "wb"],
            ["copy-recipe", ids[1], ids[0], "--only", "tone"],
        ] {
            let before = try lib.snapshot(filesFirst: false)
            let r = try lib.run(arguments)
            #expect(r.status != 0, "\(arguments) succeeded")
            #expect(r.stderr.split(separator: "\n").count == 1, "\(arguments): \(r.stderr)")
            #expect(try lib.snapshot(filesFirst: true) == before, "\(arguments) changed the library")
        }
        #expect(try lib.run(["copy-recipe", ids[0], ids[1], "--only", "sparkle"]).stderr.contains("groups: wb, tone, colour"))
    }

    /// `presets save` keeps the chosen groups scaled by the amount, as a
    /// Lightroom preset the library lists; `presets export` writes it, and
    /// `import-xmp` reads it back into the same chain. An existing name and
    /// an unknown group are refused.
    @Test func presetsSavedFromAnEditRoundTripThroughLightroom() throws {
        let lib = CLILibrary()
        let ids = try lib.importFiles([Paths.sample("coffee.jpg"), Paths.sample("chelsea.jpg")])
        try lib.succeed(["apply", "temperature=+20,exposure=+0.5,contrast=+20,vignette=-30,crop=16:9", ids[0]])
        // Subcommands take --library after their own name.
        func presets(_ arguments: [String]) throws -> CLIResult { try CLI.run(["presets"] + arguments + ["--library", lib.path]) }
        let saved = try presets(["save", "Warm", ids[0], "--only", "wb,tone", "--amount", "0.5"])
        #expect(saved.stdout == "Warm\ttemperature=+10,exposure=+0.25,contrast=+10\n")
        #expect(try presets(["list"]).stdout.contains("Warm\ttemperature=+10"))
        #expect(try presets(["save", "Warm", ids[0]]).status != 0, "an existing name")
        #expect(try presets(["save", "Other", ids[0], "--only", "sparkle"]).status != 0, "an unknown group")
        #expect(try presets(["save", "Other", ids[0], "--amount", "3"]).status != 0, "an amount out of range")
        let file = lib.temp.file("Warm.xmp")
        #expect(try presets(["export", "Warm", "-o", file]).status == 0)
        try lib.succeed(["import-xmp", "--sidecar", file, ids[1]])
        #expect(try lib.show(ids[1])["chain"]?.string == "temperature=+10,exposure=+0.25,contrast=+10")
        try lib.succeed(["apply", "preset:Warm", ids[1]])
    }

    /// The groups come from the filters' stages: every filter has one.
    @Test func everyFilterHasAGroup() {
        for filter in FilterRegistry.standard.filters {
            #expect(RecipeGroup.of(filter.id, registry: .standard) != nil, "\(filter.id)")
        }
        #expect(RecipeGroup.of("crop", registry: .standard) == .geometry && RecipeGroup.of("local", registry: .standard) == .local)
        #expect(!RecipeGroup.defaultSync.contains(.geometry) && !RecipeGroup.defaultSync.contains(.local))
    }
}
