import Foundation
import Testing
@testable import PhotoEdit
import PhotoEditTestSupport

/// `photoedit export … -o DIR` and `photoedit export-presets`, through the
/// real binary: presets, templates, skip-current, failures, bad input.
@Suite("Export: batch CLI")
struct ExportBatchCLITests {
    static func library() throws -> (CLILibrary, [String]) {
        let lib = CLILibrary()
        let ids = try lib.importFiles([Paths.sample("coffee.jpg"), Paths.sample("chelsea.jpg"), Paths.sample("astronaut.jpg")])
        try lib.succeed(["apply", "exposure=+0.2", ids[0]])
        return (lib, ids)
    }

    static func folder(_ lib: CLILibrary, _ name: String = "out") throws -> String {
        let path = lib.temp.file(name)
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        return path
    }

    static func files(_ folder: String) throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: folder).sorted()
    }

    @Test func presetTemplateSkipAndForce() throws {
        let (lib, ids) = try Self.library()
        let out = try Self.folder(lib)
        let first = try lib.succeed(["export", "--preset", "share-jpeg", "--long-edge", "300", "--name", "{seq:3}_{name}"] + ids + ["-o", out])
        #expect(try Self.files(out) == ["001_coffee.jpg", "002_chelsea.jpg", "003_astronaut.jpg"])
        #expect(first.stdoutLines.allSatisfy { $0.hasSuffix("\twritten") } && first.stdoutLines.count == 3)
        let image = try Image.load(path: out + "/002_chelsea.jpg", sequential: false)
        #expect(max(image.width, image.height) == 300)
        // A re-run skips current files; a new revision is exported again.
        try lib.succeed(["apply", "exposure=+0.5", ids[1]])
        let again = try lib.succeed(["export", "--preset", "share-jpeg", "--long-edge", "300", "--name", "{seq:3}_{name}"] + ids + ["-o", out])
        #expect(again.stdoutLines.map { $0.split(separator: "\t").last.map(String.init) ?? "" } == ["current", "written", "current"])
        let forced = try lib.succeed(["export", "--preset", "share-jpeg", "--long-edge", "300", "--name", "{seq:3}_{name}", "--force"] + ids + ["-o", out])
        #expect(forced.stdoutLines.allSatisfy { $0.hasSuffix("\twritten") })
        #expect(try Self.files(out).count == 3, "no staged file left: \(try Self.files(out))")
    }

    @Test func neverOverwritesAnotherFile() throws {
        let (lib, ids) = try Self.library()
        let out = try Self.folder(lib)
        try Data("mine".utf8).write(to: URL(fileURLWithPath: out + "/coffee.jpg"))
        try lib.succeed(["export", "--long-edge", "100", ids[0], "-o", out])
        #expect(try String(contentsOfFile: out + "/coffee.jpg", encoding: .utf8) == "mine")
        #expect(try Self.files(out) == ["coffee-2.jpg", "coffee.jpg"])
    }

    @Test func whereAndAlbum() throws {
        let (lib, ids) = try Self.library()
        try lib.succeed(["rate", "5", ids[2]])
        try lib.succeed(["album", "create", "Trip"])
        try lib.succeed(["album", "add", "Trip", ids[1]])
        let out = try Self.folder(lib)
        try lib.succeed(["export", "--format", "webp", "--long-edge", "64", "--where", "rating>=5", "--album", "Trip", "-o", out])
        #expect(try Self.files(out) == ["astronaut.webp", "chelsea.webp"])
    }

    @Test func presetsListCreateRemove() throws {
        let (lib, ids) = try Self.library()
        let listed = try lib.succeed(["export-presets"]).stdoutLines.map { String($0.split(separator: "\t")[0]) }
        #expect(listed == ["web-avif", "print-tiff", "share-jpeg"])
        try lib.succeed(["export-presets", "create", "thumbs", "--format", "png", "--size", "64", "--summary", "tiny"])
        #expect(try lib.succeed(["export-presets"]).stdout.contains("thumbs\tlibrary\ttiny\t--format png --size 64x64"))
        let out = try Self.folder(lib)
        try lib.succeed(["export", "--preset", "thumbs", ids[0], "-o", out])
        #expect(try Self.files(out) == ["coffee.png"])
        let r = try lib.run(["export-presets", "create", "thumbs", "--format", "png"])
        #expect(r.status != 0 && r.stderr.contains("exists already"))
        try lib.succeed(["export-presets", "remove", "thumbs"])
        #expect(try lib.run(["export-presets", "remove", "web-avif"]).stderr.contains("built in"))
    }

    @Test(arguments: [
        (["--preset", "nope"], "unknown export preset 'nope'"),
        (["--format", "gif"], "format 'gif' is not jpeg"),
        (["--name", "../{name}"], "has a '/'"),
        (["--name", "/tmp/{name}"], "is an absolute path"),
        (["--name", "{name}-{lens}"], "unknown placeholder {lens}"),
        (["--long-edge", "0"], "long-edge '0' is not a whole number"),
        (["--watermark", "@{NOTIMAGE}"], "is not an image"),
        (["--max-bytes", "1KB", "--long-edge", "3000"], "no quality fits max-bytes 1000"),
    ])
    func badInputLeavesTheFolderEmpty(_ arguments: [String], _ message: String) throws {
        let (lib, ids) = try Self.library()
        let out = try Self.folder(lib)
        let args = arguments.map { $0.replacingOccurrences(of: "{NOTIMAGE}", with: Paths.bad("not-an-image.txt")) }
        let r = try lib.run(["export"] + args + [ids[0], "-o", out])
        #expect(r.status != 0, "\(r)")
        #expect(r.stderrLines.count == 1 && r.stderr.contains(message), "\(r.stderr)")
        #expect(try Self.files(out).isEmpty, "nothing left in the output folder")
    }

    /// One photo fails (its original is gone); the others are written.
    @Test func oneFailureTheRestWritten() throws {
        let (lib, ids) = try Self.library()
        let sha = try Hashing.sha256(Paths.sample("astronaut.jpg"))
        let originals = lib.path + "/originals"
        let relative = try #require(FileManager.default.subpaths(atPath: originals)?.first { $0.contains(sha) })
        let path = originals + "/" + relative
        chmod(path, 0o644)
        try FileManager.default.removeItem(atPath: path)
        let out = try Self.folder(lib)
        let r = try lib.run(["export", "--long-edge", "100"] + ids + ["-o", out])
        #expect(r.status == 1)
        #expect(r.stderrLines.count == 1 && r.stderr.contains(ids[2]), "\(r.stderr)")
        #expect(try Self.files(out) == ["chelsea.jpg", "coffee.jpg"])
    }
}
