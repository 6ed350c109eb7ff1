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

    /// `COMMAND SUBCOMMAND --library LIB ARGS…` (the library option goes after the subcommand).
    @discardableResult
    static func sub(_ lib: CLILibrary, _ arguments: [String], succeed: Bool = true) throws -> CLIResult {
        let r = try CLI.run(Array(arguments.prefix(2)) + ["--library", lib.path] + arguments.dropFirst(2))
        if succeed { #expect(r.status == 0, "\(r)") }
        return r
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
        let left = try Self.files(out)
        #expect(left.count == 3, "no staged file left: \(left)")
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
        try Self.sub(lib, ["album", "create", "Trip"])
        try Self.sub(lib, ["album", "add", "Trip", ids[1]])
        let out = try Self.folder(lib)
        try lib.succeed(["export", "--format", "webp", "--long-edge", "64", "--where", "rating>=5", "--album", "Trip", "-o", out])
        #expect(try Self.files(out) == ["astronaut.webp", "chelsea.webp"])
    }

    @Test func presetsListCreateRemove() throws {
        let (lib, ids) = try Self.library()
        let listed = try Self.sub(lib, ["export-presets", "list"]).stdoutLines.map { String($0.split(separator: "\t")[0]) }
        #expect(listed == ["web-avif", "print-tiff", "share-jpeg"])
        try Self.sub(lib, ["export-presets", "create", "thumbs", "--format", "png", "--size", "64", "--summary", "tiny"])
        #expect(try Self.sub(lib, ["export-presets", "list"]).stdout.contains("thumbs\tlibrary\ttiny\t--format png --size 64x64"))
        let out = try Self.folder(lib)
        try lib.succeed(["export", "--preset", "thumbs", ids[0], "-o", out])
        #expect(try Self.files(out) == ["coffee.png"])
        let r = try Self.sub(lib, ["export-presets", "create", "thumbs", "--format", "png"], succeed: false)
        #expect(r.status != 0 && r.stderr.contains("exists already"))
        try Self.sub(lib, ["export-presets", "remove", "thumbs"])
        #expect(try Self.sub(lib, ["export-presets", "remove", "web-avif"], succeed: false).stderr.contains("built in"))
    }

    @Test(arguments: [
        (["--preset", "nope"], "unknown export preset 'nope'"),
        (["--preset", "web-avf"], "unknown export preset 'web-avf' — did you mean 'web-avif'? ("),
        (["--format", "gif"], "format 'gif' is not jpeg"),
        (["--name", "../{name}"], "has a '/'"),
        (["--name", "/tmp/{name}"], "is an absolute path"),
        (["--name", "{name}-{lens}"], "unknown placeholder {lens}"),
        (["--long-edge", "0"], "long-edge '0' is not a whole number"),
        (["--watermark", "@{NOTIMAGE}"], "is not an image"),
        (["--max-bytes", "1.5KB", "--long-edge", "3000"], "no quality fits max-bytes 1500"),
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

    /// `-o DIR` makes a missing folder and its parents (as `mkdir -p`), only
    /// once the settings and ids are good; a part that is a file is refused.
    @Test func makesTheOutputFolder() throws {
        let (lib, ids) = try Self.library()
        let out = lib.temp.file("new/deeper/out")
        try lib.succeed(["export", "--long-edge", "64", ids[0], "-o", out])
        #expect(try Self.files(out) == ["coffee.jpg"])
        let refused = lib.temp.file("never/made")
        let bad = try lib.run(["export", "--preset", "nope", ids[0], "-o", refused])
        #expect(bad.status != 0 && !FileManager.default.fileExists(atPath: lib.temp.file("never")), "bad settings make no folder")
        let unknown = try lib.run(["export", "--long-edge", "64", "0123456789abcdef0123456789abcdef", "-o", refused])
        #expect(unknown.status != 0 && !FileManager.default.fileExists(atPath: lib.temp.file("never")), "an unknown id makes no folder")
        try Data("x".utf8).write(to: URL(fileURLWithPath: lib.temp.file("file")))
        let underFile = try lib.run(["export", "--long-edge", "64", ids[0], "-o", lib.temp.file("file/out")])
        #expect(underFile.status != 0 && underFile.stderrLines.count == 1 && underFile.stderr.contains("is not a folder"), "\(underFile.stderr)")
        let deep = lib.temp.file((1...17).map { "d\($0)" }.joined(separator: "/"))
        let tooDeep = try lib.run(["export", "--long-edge", "64", ids[0], "-o", deep])
        #expect(tooDeep.status != 0 && tooDeep.stderr.contains("at most 16") && !FileManager.default.fileExists(atPath: lib.temp.file("d1")))
    }

    /// max-bytes takes 1KB (1000 bytes) up to 1GB; the search's encodes are
    /// reported by `export` as by `render`.
    @Test func maxBytesBoundsAndEncodes() throws {
        let (lib, ids) = try Self.library()
        let out = try Self.folder(lib)
        let oneKB = try lib.run(["export", "--max-bytes", "1KB", "--long-edge", "400", ids[0], "-o", out])
        #expect(oneKB.status != 0 && oneKB.stderr.contains("no quality fits max-bytes 1000") && !oneKB.stderr.contains("outside"), "\(oneKB.stderr)")
        for (value, bytes) in [("999", "999"), ("2GB", "2000000000")] {
            let r = try lib.run(["export", "--max-bytes", value, ids[0], "-o", out])
            #expect(r.status != 0 && r.stderrLines.count == 1 && r.stderr.contains("is \(bytes) bytes, outside 1KB…1GB"), "\(r.stderr)")
        }
        let r = try lib.succeed(["export", "--max-bytes", "20KB", "--long-edge", "800"] + ids + ["-o", out])
        let note = r.stderrLines.first(where: { $0.contains("max-bytes 20000:") }) ?? ""
        let match = try #require(note.firstMatch(of: /3 written with (\d+) encodes \((\d+\.\d+) per photo\)/), "\(r.stderr)")
        #expect(Int(match.1)! >= 3 && Double(match.2)! >= 1, "\(note)")
        for name in try Self.files(out) {
            let size = try #require(try FileManager.default.attributesOfItem(atPath: out + "/" + name)[.size] as? Int)
            #expect(size <= 20_000, "\(name): \(size)")
        }
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
