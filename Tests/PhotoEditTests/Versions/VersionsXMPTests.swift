import Foundation
import Testing
@testable import PhotoEdit

/// Snapshots in `export --xmp` sidecars, and the Lightroom Amount of saved presets (issue 40).
@Suite("Versions: snapshots in XMP sidecars, preset amount")
struct VersionsXMPTests {
    /// `export --resource photo -o FILE --xmp` writes the photo's snapshots
    /// in `photoedit:snapshots`, each with its name, date, revision and that
    /// revision's recipe; read back from the file they are the same.
    @Test func exportXMPCarriesSnapshots() throws {
        let lib = CLILibrary()
        let id = try lib.importSample("coffee.jpg")
        try lib.succeed(["snapshot", id, "Original & <raw>"])
        try lib.succeed(["apply", "exposure=+0.4,saturation=-20", id])
        try lib.succeed(["snapshot", id, "Before client"])
        try lib.succeed(["apply", "contrast=+30", id])
        let photo = lib.temp.file("out.jpg")
        try lib.succeed(["export", id, "--resource", "photo", "-o", photo, "--xmp"])
        let data = try #require(FileManager.default.contents(atPath: lib.temp.file("out.xmp")))
        let packet = try XMPPacket(data: data)
        let snapshots = XMPSidecar.snapshots(in: packet)
        #expect(snapshots.map(\.name) == ["Before client", "Original & <raw>"], "by name, the XML escapes read back")
        #expect(snapshots.map(\.revision) == [1, 0])
        #expect(snapshots[0].recipe.map { Chain.format($0, registry: .standard) } == "exposure=+0.4,saturation=-20")
        #expect(snapshots[1].recipe == nil, "a snapshot of the original has no recipe")
        #expect(snapshots.allSatisfy { ISO8601DateFormatter().date(from: $0.date) != nil })
        // The current recipe is still the sidecar's own, and Lightroom's reader sees the current settings only.
        let settings = try LightroomSettings(packet: packet)
        #expect(settings.photoeditRecipe().map { Chain.format($0, registry: .standard) } == "exposure=+0.4,contrast=+30,saturation=-20")

        // A photo without snapshots has no photoedit:snapshots.
        let other = try lib.importSample("chelsea.jpg")
        let plain = lib.temp.file("plain.jpg")
        try lib.succeed(["export", other, "--resource", "photo", "-o", plain, "--xmp"])
        let text = String(decoding: try #require(FileManager.default.contents(atPath: lib.temp.file("plain.xmp"))), as: UTF8.self)
        #expect(!text.contains("photoedit:snapshots"))
    }

    /// A preset saved at 100 % keeps the edit's values and lets Lightroom
    /// scale it (`crs:SupportsAmount` True); one saved at another amount has
    /// it in its values and says False, so it is not scaled twice.
    @Test func savedPresetSupportsLightroomsAmountAtFullStrength() throws {
        let lib = CLILibrary()
        let id = try lib.importSample("coffee.jpg")
        try lib.succeed(["apply", "exposure=+0.5,contrast=+20", id])
        func presets(_ arguments: [String]) throws -> CLIResult { try CLI.run(["presets"] + arguments + ["--library", lib.path]) }
        #expect(try presets(["save", "Full", id]).status == 0)
        #expect(try presets(["save", "Half", id, "--amount", "0.5"]).stdout == "Half\texposure=+0.25,contrast=+10\n")
        for (name, supports) in [("Full", "True"), ("Half", "False")] {
            let file = lib.temp.file("\(name).xmp")
            #expect(try presets(["export", name, "-o", file]).status == 0)
            let text = String(decoding: try #require(FileManager.default.contents(atPath: file)), as: UTF8.self)
            #expect(text.contains("crs:SupportsAmount=\"\(supports)\""), "\(name)")
        }
        #expect(try presets(["list"]).stdout.contains("Full\texposure=+0.5,contrast=+20"), "read back whole at 100 %")
    }
}
