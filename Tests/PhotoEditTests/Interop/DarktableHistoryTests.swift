import Foundation
import Testing
@testable import PhotoEdit
import PhotoEditGolden
#if canImport(Glibc)
import Glibc
#endif

/// darktable sidecars' histories as foreign adjustment data: read only as
/// far as module names (never the binary params), kept verbatim as
/// `org.darktable.history`, rendered by darktable itself (Debian's
/// `darktable-cli`, which scripts/install-deps installs), edited on top of
/// that render; without darktable kept with the unedited render. The
/// fixture is the history darktable 4.2.1 wrote for the coffee DNG
/// (Tests/Fixtures/darktable/make-fixtures.sh).
@Suite("darktable histories")
struct DarktableHistoryTests {
    static let fixtures = Paths.root.appendingPathComponent("Tests/Fixtures/darktable")
    static func sidecar() throws -> Data { try Data(contentsOf: fixtures.appendingPathComponent("coffee.dng.xmp")) }
    static let rawDNG = Paths.root.appendingPathComponent("Tests/Fixtures/raw/coffee.dng").path

    /// The fixture with one attribute of darktable's changed (as darktable
    /// itself writes it when a module is switched off or a step undone).
    static func variant(_ from: String, _ to: String) throws -> Data {
        let text = String(decoding: try sidecar(), as: UTF8.self)
        #expect(text.contains(from), "the fixture has \(from)")
        return Data(text.replacingOccurrences(of: from, with: to).utf8)
    }

    static func darktableCLI() throws -> DarktableCLI {
        try #require(DarktableCLI.located(), "darktable-cli is missing: scripts/install-deps installs Debian's darktable")
    }

    /// A temporary folder with the coffee DNG and, beside it, `sidecar` as darktable names it.
    static func photoWithSidecar(_ sidecar: Data, _ temp: TemporaryDirectory) throws -> String {
        let photo = temp.file("coffee.dng")
        try FileManager.default.copyItem(atPath: rawDNG, toPath: photo)
        try sidecar.write(to: URL(fileURLWithPath: photo + ".xmp"))
        return photo
    }

    /// Two darktable-cli renders of the same photo and history agree: darktable
    /// runs its modules on threads, so a few pixels may land a JPEG step apart
    /// from run to run (a full test run on a loaded machine saw max ΔE00 ≥ 1);
    /// everywhere else they must match — mean ΔE00 < 0.1, at most 0.1 % of the
    /// pixels above 1, none above 5 (a different edit is mean > 2).
    static func expectSameDarktableRender(_ path: String, _ reference: String, _ what: String) throws {
        let d = try ImageComparison.compare(path, reference, tolerance: GoldenTolerance(maxDeltaE: 1, meanDeltaE: 0.1))
        #expect(d.sameSize && d.meanDeltaE < 0.1 && d.fractionOverMax < 0.001 && d.maxDeltaE < 5, "\(what): \(d.figures)")
    }

    static func mean(_ path: String) throws -> Double { try Image.load(path: path, sequential: true).average() }

    // MARK: Reading

    @Test func historyIsReadAsFarAsModuleNames() throws {
        let history = try #require(try DarktableHistory(packet: Self.sidecar()))
        #expect(history.xmpVersion == "5" && history.steps.count == 10 && history.historyEnd == 10)
        #expect(history.activeModules == ["rawprepare", "demosaic", "colorin", "colorout", "gamma", "temperature", "highlights",
                                          "filmicrgb", "exposure", "flip"])
        let off = try #require(try DarktableHistory(packet: Self.variant(
            #"darktable:operation="exposure" darktable:enabled="1""#, #"darktable:operation="exposure" darktable:enabled="0""#)))
        #expect(!off.activeModules.contains("exposure") && off.steps.count == 10)
        let undone = try #require(try DarktableHistory(packet: Self.variant(#"darktable:history_end="10""#, #"darktable:history_end="7""#)))
        #expect(undone.activeModules.count == 7 && !undone.activeModules.contains("filmicrgb"), "steps after history_end are not applied")
        // Metadata only (no history): not a darktable edit.
        let metadataOnly = """
            <x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">
             <rdf:Description rdf:about="" xmlns:xmp="http://ns.adobe.com/xap/1.0/" xmlns:darktable="http://darktable.sf.net/"
              xmp:Rating="3" darktable:xmp_version="5"><darktable:history><rdf:Seq/></darktable:history></rdf:Description>
            </rdf:RDF></x:xmpmeta>
            """
        #expect(try DarktableHistory(packet: Data(metadataOnly.utf8)) == nil)
    }

    @Test(arguments: [
        (#"darktable:operation="exposure""#, #"darktable:operation="../../EVIL""#, "step 9 has no module name"),
        (#"darktable:history_end="10""#, #"darktable:history_end="11""#, "darktable:history_end"),
        (#"darktable:history_end="10""#, #"darktable:history_end="-1""#, "darktable:history_end"),
        (#"darktable:operation="flip" darktable:enabled="1""#, #"darktable:operation="flip" darktable:enabled="yes""#, "darktable:enabled"),
        (#"darktable:xmp_version="5""#, #"darktable:xmp_version="five""#, "darktable:xmp_version"),
        (#"darktable:operation="gamma" darktable:enabled="1" darktable:modversion="1" darktable:params="0000000000000000""#,
         #"darktable:operation="gamma" darktable:enabled="1" darktable:modversion="1""#, "has no darktable:params"),
    ])
    func hostileHistoriesAreRefusedInOneLine(_ from: String, _ to: String, _ named: String) throws {
        let packet = try Self.variant(from, to)
        #expect {
            _ = try DarktableHistory(packet: packet)
        } throws: { error in
            let text = "\(error)"
            return text.contains(named) && !text.contains("EVIL") && !text.contains("yes") && !text.contains("five") && !text.contains("\n")
        }
    }

    // MARK: Import, rendered by darktable

    @Test func importKeepsTheHistoryAndDarktableRendersIt() throws {
        let cli = try Self.darktableCLI()
        let temp = TemporaryDirectory("photoedit-darktable")
        let sidecar = try Self.sidecar()
        let photo = try Self.photoWithSidecar(sidecar, temp)
        let library = try PhotoLibrary(url: temp.url.appendingPathComponent("library"))
        #expect(library.darktable == cli, "found on PATH when the library is opened")
        let result = try #require(try library.importItems([photo]).first)
        let id = try #require(result.id)
        #expect(result.warnings.isEmpty && result.lightroom == nil, "\(result.warnings)")
        let dt = try #require(result.darktable)
        #expect(dt.isNew && dt.revision == 1 && dt.renderedByDarktable && dt.source == "sidecar coffee.dng.xmp")

        let history = try library.history(id)
        #expect(history.map(\.number) == [0, 1])
        let data = try #require(history[1].adjustmentData)
        #expect(data.formatIdentifier == "org.darktable.history" && data.formatVersion == "5")
        #expect(data.data == sidecar, "the sidecar, verbatim")
        #expect(history[1].darktableHistory?.steps.count == 10 && history[0].darktableHistory == nil)
        #expect(!Recipe.canHandle(data), "foreign: photoedit never reads darktable's params")

        // The revision's render is darktable's own render of the photo and sidecar.
        let ours = temp.file("current.jpg"), theirs = temp.file("darktable.jpg"), unedited = temp.file("unadjusted.jpg")
        try library.render(id, to: ours)
        try cli.render(original: photo, sidecar: sidecar, to: theirs, work: temp.url.path)
        try library.render(id, version: .unadjusted, to: unedited)
        try Self.expectSameDarktableRender(ours, theirs, "darktable's render")
        let differs = try ImageComparison.compare(ours, unedited)
        #expect(differs.meanDeltaE > 2, "darktable's filmic and exposure, not photoedit's unadjusted development: \(differs.meanDeltaE)")

        // A lost render of the darktable revision: verify --repair has darktable make it again.
        let relative = try #require(try library.read { try $0.revision(1, of: id) }?.renderPath)
        try FileManager.default.removeItem(atPath: library.url.appendingPathComponent(relative).path)
        #expect(try library.verify().problems.contains { $0.contains("is missing") })
        let repaired = try library.verify(repair: true)
        #expect(repaired.isClean && repaired.repaired.count == 1, "\(repaired.problems) \(repaired.repaired)")
        try library.render(id, to: ours)
        try Self.expectSameDarktableRender(ours, theirs, "darktable's render again")

        // The same sidecar again adds nothing.
        let again = try #require(try library.importDarktableHistory(id))
        let count = try library.history(id).count
        #expect(!again.isNew && again.revision == 1 && count == 2)

        // An edit on top starts from darktable's render (PhotoKit: a format
        // the editor cannot handle is kept, and edited on top of its render).
        try library.apply(chain: "exposure=+0.5", to: id)
        let edited = try #require(try library.history(id).last)
        #expect(edited.baseRevision == 1)
        let recipe = try Recipe(adjustmentData: try #require(edited.adjustmentData), registry: library.registry)
        #expect(recipe.base == .render)
        try library.render(id, to: ours)
        let (brighter, base) = (try Self.mean(ours), try Self.mean(theirs))
        #expect(brighter > base + 5, "brighter than darktable's render: \(brighter) vs \(base)")

        // Back to the darktable revision: its render, as darktable made it.
        let back = try library.revert(id, to: 1)
        #expect(back.adjustmentData == data)
        try library.render(id, to: ours)
        try Self.expectSameDarktableRender(ours, theirs, "back to the darktable revision")
        #expect(try library.verify().isClean)

    }

    /// `import-xmp --sidecar` with another darktable history of the same
    /// photo (exposure switched off in darktable): a new revision, darktable
    /// renders it darker; the CLI's lines.
    @Test func importXMPCommandWithADarktableSidecar() throws {
        _ = try Self.darktableCLI()
        let cli = CLILibrary()
        let photo = try Self.photoWithSidecar(Self.sidecar(), cli.temp)
        var r = try cli.succeed(["import", photo])
        let id = try #require(r.stdoutLines.first?.split(separator: "\t").first.map(String.init))
        #expect(r.stderrLines.count == 1 && r.stderrLines[0].contains("darktable history (sidecar coffee.dng.xmp, 10 steps (")
                && r.stderrLines[0].contains("kept as revision 1, rendered by darktable"), "\(r)")
        let first = cli.temp.file("1.jpg"), second = cli.temp.file("2.jpg")
        try cli.succeed(["render", id, "-o", first])
        let off = cli.temp.file("exposure-off.xmp")
        try Self.variant(#"darktable:operation="exposure" darktable:enabled="1""#,
                         #"darktable:operation="exposure" darktable:enabled="0""#).write(to: URL(fileURLWithPath: off))
        r = try cli.succeed(["import-xmp", id, "--sidecar", off])
        #expect(r.stdoutLines.count == 1 && r.stdoutLines[0].hasPrefix("\(id)\t2\tnew\tdarktable: 10 steps (")
                && !r.stdoutLines[0].contains("exposure"), "\(r)")
        r = try cli.succeed(["history", id])
        #expect(r.stdoutLines.count == 3 && r.stdoutLines[2].contains("org.darktable.history 5")
                && r.stdoutLines[2].contains("(darktable history: 10 steps ("), "\(r)")
        try cli.succeed(["render", id, "-o", second])
        let (darker, before) = (try Self.mean(second), try Self.mean(first))
        #expect(darker < before - 5, "darktable without its exposure step: \(darker) vs \(before)")
        r = try cli.run(["import-xmp", id, "--sidecar", off])
        #expect(r.status == 0 && r.stdoutLines == ["\(id)\t2\tunchanged\tdarktable: 10 steps (rawprepare, demosaic, colorin, colorout, gamma, temperature, highlights, filmicrgb, flip)"], "\(r)")
    }

    // MARK: The other way: darktable opens photoedit's sidecars

    /// Runs darktable-cli on `photo` alone: darktable reads the Lightroom
    /// sidecar beside it (`NAME.xmp`) as its Lightroom import does.
    static func darktableOpens(_ photo: String, to output: String, _ cli: DarktableCLI, _ temp: TemporaryDirectory) throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: cli.executable)
        process.arguments = [photo, output, "--icc-type", "SRGB", "--apply-custom-presets", "false", "--core", "--configdir",
                             temp.file("dt-config-\(UUID().uuidString)"), "--library", ":memory:", "--conf", "write_sidecar_files=never"]
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        process.waitUntilExit()
        #expect(process.terminationStatus == 0)
    }

    /// `export --xmp`: darktable opens the exported original with the edit
    /// approximated — the crop in the same place (written in the frame as
    /// stored, for a photo turned by EXIF orientation 6), the exposure.
    @Test func darktableOpensPhotoeditsSidecarsWithTheEdit() throws {
        let cli = try Self.darktableCLI()
        let lib = CLILibrary()
        let out = lib.temp.file("out")
        try FileManager.default.createDirectory(atPath: out, withIntermediateDirectories: true)
        var r = try lib.succeed(["import", Paths.sample("rotated-exif.jpg"), Paths.sample("coffee.jpg")])
        let ids = r.stdoutLines.compactMap { $0.split(separator: "\t").first.map(String.init) }
        try #require(ids.count == 2)
        try lib.succeed(["apply", "crop=0.1:0.2:0.5:0.3", ids[0]])
        try lib.succeed(["apply", "exposure=+1", ids[1]])
        for id in ids { r = try lib.succeed(["export", id, "--all", out, "--xmp"]) }

        let turned = lib.temp.file("darktable-rotated.jpg")
        try Self.darktableOpens(out + "/rotated-exif.jpg", to: turned, cli, lib.temp)
        let crop = try ImageComparison.compare(turned, out + "/rotated-exif-FullSizeRender.jpg")
        #expect(crop.sameSize && crop.meanDeltaE < 5, "the same part of the photo (a crop 0.02 off is mean 9): \(crop)")

        let bright = lib.temp.file("darktable-coffee.jpg"), plain = lib.temp.file("darktable-plain.jpg")
        try Self.darktableOpens(out + "/coffee.jpg", to: bright, cli, lib.temp)
        try Self.darktableOpens(Paths.sample("coffee.jpg"), to: plain, cli, lib.temp)
        let (edited, unedited) = (try Self.mean(bright), try Self.mean(plain))
        #expect(edited > unedited + 30, "darktable applies the exposure: \(edited) vs \(unedited)")
    }

    // MARK: Without darktable, failures, and what is not an edit

    @Test func withoutDarktableTheHistoryIsKeptWithTheUneditedRender() throws {
        let temp = TemporaryDirectory("photoedit-darktable-none")
        let sidecar = try Self.sidecar()
        let photo = try Self.photoWithSidecar(sidecar, temp)
        let library = try PhotoLibrary(url: temp.url.appendingPathComponent("library"))
        library.darktable = nil
        let result = try #require(try library.importItems([photo]).first)
        let id = try #require(result.id)
        let dt = try #require(result.darktable)
        #expect(dt.isNew && !dt.renderedByDarktable)
        #expect(try library.asset(id).adjustmentData?.data == sidecar, "kept all the same")
        let current = temp.file("current.jpg"), unedited = temp.file("unadjusted.jpg")
        try library.render(id, to: current)
        try library.render(id, version: .unadjusted, to: unedited)
        #expect(try ImageComparison.compare(current, unedited).maxDeltaE < 1, "nothing photoedit cannot read is guessed")
        #expect(try library.importDarktableHistory(id)?.isNew == false, "still no darktable: nothing new")

        // darktable installed later: the same history, rendered by darktable, as a new revision; once.
        library.darktable = try Self.darktableCLI()
        let later = try #require(try library.importDarktableHistory(id))
        #expect(later.isNew && later.revision == 2 && later.renderedByDarktable)
        let again = try #require(try library.importDarktableHistory(id))
        #expect(!again.isNew && again.revision == 2 && again.renderedByDarktable)
        try library.render(id, to: current)
        #expect(try ImageComparison.compare(current, unedited).meanDeltaE > 2, "darktable's render now")

        // The CLI with darktable turned off says so.
        let other = TemporaryDirectory("photoedit-darktable-none-cli")
        let second = try Self.photoWithSidecar(sidecar, other)
        let r = try CLI.run(["import", "--library", other.file("library"), second], environment: ["PHOTOEDIT_DARKTABLE_CLI": "none"])
        #expect(r.status == 0 && r.stderrLines.count == 1 && r.stderrLines[0].contains("not rendered: darktable-cli not found"), "\(r)")
    }

    @Test func aFailingDarktableOrABadHistoryChangesNothing() throws {
        let temp = TemporaryDirectory("photoedit-darktable-bad")
        let photo = try Self.photoWithSidecar(Self.sidecar(), temp)
        let library = try PhotoLibrary(url: temp.url.appendingPathComponent("library"))
        library.darktable = DarktableCLI(path: "/bin/false")
        let result = try #require(try library.importItems([photo]).first)
        let id = try #require(result.id, "the photo is imported all the same")
        #expect(result.darktable == nil && result.warnings.count == 1, "\(result.warnings)")
        #expect(result.warnings.first?.contains("darktable history not kept") == true
                && result.warnings.first?.contains("made no image (exit 1)") == true, "\(result.warnings)")
        #expect(try library.history(id).count == 1)
        #expect(throws: PhotoEditError.self) { try library.importDarktableHistory(id) }
        #expect(try library.history(id).count == 1, "nothing committed")

        // A history that is not darktable's: one warning, never quoting it.
        let other = TemporaryDirectory("photoedit-darktable-hostile")
        let hostile = try Self.photoWithSidecar(Self.variant(#"darktable:operation="filmicrgb""#, #"darktable:operation="rm -rf /""#), other)
        let lib2 = try PhotoLibrary(url: other.url.appendingPathComponent("library"))
        let bad = try #require(try lib2.importItems([hostile]).first)
        #expect(bad.id != nil && bad.darktable == nil && bad.warnings.count == 1, "\(bad.warnings)")
        #expect(bad.warnings.first?.contains("step 8 has no module name") == true && bad.warnings.first?.contains("rm -rf") == false)
        #expect(try lib2.history(bad.id!).count == 1)
    }

    /// darktable-cli starts with no signal blocked, whatever thread the engine
    /// runs on: `photoedit`'s commands run on the cooperative pool, whose
    /// threads (and every thread started from one) block nearly every signal,
    /// and a child inherits its starter's mask — a darktable-cli that SIGTERM
    /// could not stop. A script standing for darktable-cli records its mask
    /// (SigBlk in /proc/PID/status) and fails, as a darktable that makes no image.
    @Test func darktableStartsWithNoSignalBlocked() throws {
        let cli = CLILibrary()
        let photo = try Self.photoWithSidecar(Self.sidecar(), cli.temp)
        let record = cli.temp.file("masks"), script = cli.temp.file("darktable-cli")
        // Builtins only: dash sets its own mask around every fork (a grep it
        // started read all blocked, or none, depending on timing).
        try """
            #!/bin/sh
            while read -r key value; do [ "$key" = SigBlk: ] && echo "$value" >> '\(record)'; done < /proc/$$/status
            exit 1

            """.write(toFile: script, atomically: true, encoding: .utf8)
        #expect(chmod(script, 0o755) == 0)
        let masks = { ((try? String(contentsOfFile: record, encoding: .utf8)) ?? "").split(separator: "\n").map(String.init) }

        // The command: import reads the sidecar beside the photo and runs darktable-cli.
        let r = try CLI.run(["import", "--library", cli.path, photo], environment: ["PHOTOEDIT_DARKTABLE_CLI": script])
        let id = try #require(r.stdoutLines.first?.split(separator: "\t").first.map(String.init), "\(r)")
        #expect(r.stderr.contains("made no image (exit 1)"), "\(r)")
        #expect(masks() == ["0000000000000000"], "darktable-cli's mask, started by photoedit import")

        // The library, called on a thread with SIGTERM and SIGCHLD blocked (as Dispatch's threads have them).
        let library = try PhotoLibrary(url: URL(fileURLWithPath: cli.path))
        let standIn = try #require(DarktableCLI(path: script))
        library.darktable = standIn
        var blocked = sigset_t(), old = sigset_t()
        sigemptyset(&blocked)
        sigaddset(&blocked, SIGTERM)
        sigaddset(&blocked, SIGCHLD)
        pthread_sigmask(SIG_BLOCK, &blocked, &old)
        #expect(throws: PhotoEditError.self) { try library.importDarktableHistory(id) }
        var mask = sigset_t()
        pthread_sigmask(SIG_SETMASK, &old, &mask)
        #expect(sigismember(&mask, SIGTERM) == 1, "the caller's thread keeps its mask")
        #expect(masks() == ["0000000000000000", "0000000000000000"], "darktable-cli's mask, started by the library")
    }

    /// A JPEG darktable exported carries the history it was made with: that
    /// history is in its pixels already, and is not an edit of the JPEG.
    @Test func theHistoryEmbeddedInAnExportIsNotAnEdit() throws {
        let cli = try Self.darktableCLI()
        let temp = TemporaryDirectory("photoedit-darktable-export")
        let exported = temp.file("export.jpg")
        try cli.render(original: Self.rawDNG, sidecar: Self.sidecar(), to: exported, work: temp.url.path)
        let library = try PhotoLibrary(url: temp.url.appendingPathComponent("library"))
        let result = try #require(try library.importItems([exported]).first)
        #expect(result.id != nil && result.darktable == nil && result.lightroom == nil && result.warnings.isEmpty, "\(result.warnings)")
        #expect(try library.history(result.id!).count == 1)
    }
}
