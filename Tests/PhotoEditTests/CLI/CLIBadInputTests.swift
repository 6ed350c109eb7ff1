import Foundation
import Testing
@testable import PhotoEdit

/// Bad input: one line on stderr, a non-zero exit, and nothing changed in
/// the library, byte for byte (every file hashed, the catalog compared
/// through `list --json` and `history --json`).
@Suite("CLI: bad input changes nothing")
struct CLIBadInputTests {
    /// A bad command; `{A}` is replaced by the edited photo's id, `{B}` by
    /// the other one's, `{UNKNOWN}` by an id no photo has.
    struct BadCommand: Sendable, CustomTestStringConvertible {
        let label: String
        let arguments: [String]
        /// Text the one stderr line must contain.
        let message: String
        var testDescription: String { label }
    }

    static let commands: [BadCommand] = [
        BadCommand(label: "unknown filter", arguments: ["apply", "glow=3", "{A}"], message: "unknown filter 'glow' (known filters: raw, lens, ca, defringe, retouch, temperature, tint, calibration, exposure"),
        BadCommand(label: "mistyped filter", arguments: ["apply", "sharpn=1", "{A}"], message: "unknown filter 'sharpn' — did you mean 'sharpen'? (known filters: raw,"),
        BadCommand(label: "mistyped parameter", arguments: ["apply", "exposure.evv=1", "{A}"], message: "exposure.evv: unknown parameter — did you mean 'ev'? (known: ev)"),
        BadCommand(label: "unknown filter after a good one", arguments: ["apply", "exposure=+1,halo", "{A}"], message: "unknown filter 'halo'"),
        BadCommand(label: "out-of-range value", arguments: ["apply", "exposure=9", "{A}"], message: "exposure.ev: 9 is out of range (expected -5…5 EV)"),
        BadCommand(label: "not a number", arguments: ["apply", "contrast=lots", "{A}"], message: "contrast.amount: 'lots' is not a number"),
        BadCommand(label: "crop outside the image", arguments: ["apply", "crop=0.5:0:0.6:1", "{A}"], message: "x + w must be at most 1"),
        BadCommand(label: "wrong value count", arguments: ["apply", "crop=1:2:3", "{A}"], message: "3 value(s) given"),
        BadCommand(label: "unknown parameter", arguments: ["apply", "exposure.gamma=2", "{A}"], message: "exposure.gamma: unknown parameter"),
        BadCommand(label: "empty step", arguments: ["apply", "exposure=1,,crop", "{A}"], message: "an empty step"),
        BadCommand(label: "empty chain", arguments: ["apply", "", "{A}"], message: "it is empty"),
        BadCommand(label: "empty value", arguments: ["apply", "exposure=", "{A}"], message: "has an empty value"),
        BadCommand(label: "unknown --remove filter", arguments: ["apply", "--remove", "glow", "exposure=1", "{A}"], message: "unknown filter 'glow'"),
        BadCommand(label: "unknown id", arguments: ["apply", "exposure=+1", "{UNKNOWN}"], message: "no photo with id"),
        BadCommand(label: "unknown id after a good one", arguments: ["apply", "exposure=+1", "{A}", "{B}", "{UNKNOWN}"], message: "no photo with id"),
        BadCommand(label: "path as id", arguments: ["apply", "exposure=+1", "../x"], message: "malformed id '../x'"),
        BadCommand(label: "revert of an unknown id", arguments: ["revert", "{UNKNOWN}"], message: "no photo with id"),
        BadCommand(label: "revert to a missing revision", arguments: ["revert", "--to", "7", "{A}"], message: "has no revision 7"),
        BadCommand(label: "revert to a negative revision", arguments: ["revert", "--to=-1", "{A}"], message: "has no revision -1"),
        BadCommand(label: "import truncated file", arguments: ["import", "Tests/Fixtures/bad/truncated.jpg"], message: "truncated.jpg: damaged or truncated"),
        BadCommand(label: "import empty file", arguments: ["import", "Tests/Fixtures/bad/empty.jpg"], message: "empty.jpg: empty file"),
        BadCommand(label: "import text file", arguments: ["import", "Tests/Fixtures/bad/text.jpg"], message: "text.jpg: not an image"),
        BadCommand(label: "import text file (.txt)", arguments: ["import", "Tests/Fixtures/bad/not-an-image.txt"], message: "not-an-image.txt: not an image"),
        BadCommand(label: "import image bomb", arguments: ["import", "Tests/Fixtures/bad/huge-header.png"], message: "above the limit"),
        BadCommand(label: "import ImageMagick text", arguments: ["import", "Tests/Fixtures/bad/imagemagick-pixels.txt"], message: "not a photo format"),
        BadCommand(label: "import missing folder", arguments: ["import", "/nonexistent/photoedit-test-folder"], message: "/nonexistent/photoedit-test-folder: no such file or folder"),
        BadCommand(label: "render to an unknown format", arguments: ["render", "{A}", "-o", "{TMP}/out.bmp"], message: "unknown file extension '.bmp'"),
        BadCommand(label: "render with an unknown mode", arguments: ["render", "{A}", "-o", "{TMP}/out.jpg", "--size", "64", "--mode", "wide"], message: "unknown mode 'wide' (fit or fill)"),
        BadCommand(label: "render with an unknown resize mode", arguments: ["render", "{A}", "-o", "{TMP}/out.jpg", "--resize", "big"], message: "unknown resize mode 'big' (none, fast or exact)"),
        BadCommand(label: "render with a crop outside 0-1", arguments: ["render", "{A}", "-o", "{TMP}/out.jpg", "--crop", "0.5:0.5:0.6:0.5"], message: "crop '0.5:0.5:0.6:0.5' is not inside 0-1"),
        BadCommand(label: "render with a malformed crop", arguments: ["render", "{A}", "-o", "{TMP}/out.jpg", "--crop", "1:2"], message: "crop '1:2' is not X:Y:W:H"),
        BadCommand(label: "render with a crop and fast resizing", arguments: ["render", "{A}", "-o", "{TMP}/out.jpg", "--resize", "fast", "--crop", "0:0:0.5:0.5"], message: "a crop rectangle needs the exact resize mode (got fast)"),
        BadCommand(label: "thumbs of size zero", arguments: ["thumbs", "--size", "0", "{A}"], message: "size '0' is not WxH or N"),
        BadCommand(label: "thumbs into a missing folder", arguments: ["thumbs", "--size", "64", "-o", "/nonexistent/photoedit-thumbs", "{A}"], message: "no such folder"),
        BadCommand(label: "thumbs with an unknown id after a good one", arguments: ["thumbs", "--size", "64", "{A}", "{UNKNOWN}"], message: "no photo with id"),
        BadCommand(label: "show unknown id", arguments: ["show", "{UNKNOWN}"], message: "no photo with id"),
        BadCommand(label: "history of a path", arguments: ["history", "../../etc"], message: "malformed id"),
    ]

    @Test(arguments: commands)
    func badCommandChangesNothing(_ command: BadCommand) throws {
        let (lib, a, b) = try CLILibrary.withTwoPhotos()
        let unknownDigit = try #require("0123456789abcdef".first { d in ![a, b].contains { $0.first == d } })
        let arguments = command.arguments.map {
            $0.replacingOccurrences(of: "{A}", with: a).replacingOccurrences(of: "{B}", with: String(b.prefix(8)))
                .replacingOccurrences(of: "{UNKNOWN}", with: String(repeating: unknownDigit, count: 32))
                .replacingOccurrences(of: "{TMP}", with: lib.temp.path)
        }
        try lib.expectUnchanged(by: arguments, message: command.message)
    }

    @Test func ambiguousIdChangesNothing() throws {
        let lib = CLILibrary()
        let (_, prefix) = try lib.importSyntheticPhotosSharingAPrefix()
        try lib.expectUnchanged(by: ["apply", "exposure=+1", prefix], message: "is ambiguous")
        try lib.expectUnchanged(by: ["revert", prefix], message: "is ambiguous")
    }

    @Test func folderOfOnlyBadFilesChangesNothing() throws {
        let (lib, _, _) = try CLILibrary.withTwoPhotos()
        let folder = lib.temp.url.appendingPathComponent("bad")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: Paths.bad("truncated.jpg"), toPath: folder.appendingPathComponent("t.jpg").path)
        let before = try lib.snapshot(filesFirst: false)
        let r = try lib.run(["import", folder.path])
        let after = try lib.snapshot(filesFirst: true)
        #expect(r.status != 0)
        #expect(r.stderrLines.count == 1 && r.stderr.contains("t.jpg"), "\(r)")
        #expect(after == before)
    }

    /// Strictly byte for byte, catalog.sqlite changes on every command:
    /// GRDB's DatabasePool, opening a WAL database whose -wal file is absent
    /// (SQLite removes it when the previous command closed the catalog),
    /// creates and drops a table `grdb_issue_102`, which bumps the header's
    /// change counter and schema cookie. The rows are unchanged (the other
    /// tests compare everything else byte for byte).
    @Test func readOnlyCommandLeavesTheCatalogFileByteIdentical() throws {
        let (lib, a, _) = try CLILibrary.withTwoPhotos()
        let catalog = lib.path + "/catalog.sqlite"
        let before = try Data(contentsOf: URL(fileURLWithPath: catalog))
        try lib.succeed(["list"])
        try lib.succeed(["show", a])
        let bad = try lib.run(["apply", "glow", a])
        #expect(bad.status != 0)
        let after = try Data(contentsOf: URL(fileURLWithPath: catalog))
        #expect(after.count == before.count)
        let changed = zip(before, after).enumerated().filter { $0.element.0 != $0.element.1 }.map(\.offset)
        #expect(changed.allSatisfy { (24..<28).contains($0) || (40..<44).contains($0) || (92..<96).contains($0) },
                "only header counters may differ, got offsets \(changed)")
        do {
            #expect(changed.isEmpty, "catalog.sqlite bytes changed at offsets \(changed)")
        }
    }

    @Test func readOnlyCommandsAndDuplicateImportChangeNothing() throws {
        let (lib, a, _) = try CLILibrary.withTwoPhotos()
        let before = try lib.snapshot(filesFirst: false)
        try lib.succeed(["import", "samples/coffee.jpg"])
        try lib.succeed(["show", a])
        try lib.succeed(["render", a, "-o", lib.temp.file("x.png"), "--size", "64"])
        try lib.succeed(["render", a, "-o", lib.temp.file("y.jpg"), "--version", "original"])
        let after = try lib.snapshot(filesFirst: true)
        #expect(after.files == before.files, "\(fileDifference(before.files, after.files))")
        #expect(after.list == before.list && after.histories == before.histories)
    }
}
