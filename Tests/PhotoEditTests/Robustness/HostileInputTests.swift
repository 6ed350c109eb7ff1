import Foundation
import Testing
@testable import PhotoEdit

/// Issue 10 §1: inputs built to crash or to leak. Each one is refused with one
/// line on stderr and a non-zero exit, and changes nothing.
@Suite("Hostile input")
struct HostileInputTests {
    /// 25 000 `not` overflowed the parser's stack (SIGSEGV).
    @Test func deeplyNestedNotIsRefused() throws {
        let (lib, _, _) = try CLILibrary.withTwoPhotos()
        let query = String(repeating: "not ", count: 25_000) + "favorite"
        try lib.expectUnchanged(by: ["list", "--where", query], message: "at most 4096 are accepted")
        let deep = String(repeating: "not ", count: 33) + "favorite"
        try lib.expectUnchanged(by: ["list", "--where", deep], message: "more than 32 deep")
        // The deepest accepted nestings run (SQLite's parser takes them too).
        for shallow in [String(repeating: "not ", count: 32) + "favorite",
                        String(repeating: "not (", count: 16) + "favorite" + String(repeating: ")", count: 16)] {
            let r = try lib.run(["list", "--where", shallow])
            #expect(r.status == 0, "\(r)")
        }
    }

    /// 60 000 `(` overflowed the parser's stack too.
    @Test func deeplyNestedParenthesesAreRefused() throws {
        #expect(throws: PhotoEditError.self) { try AssetPredicate(parsing: String(repeating: "(", count: 60_000) + "favorite") }
        let deep = String(repeating: "(", count: 33) + "favorite" + String(repeating: ")", count: 33)
        #expect(throws: PhotoEditError.invalidQuery("the query nests 'not' and parentheses more than 32 deep")) { try AssetPredicate(parsing: deep) }
        let fine = String(repeating: "(", count: 32) + "favorite" + String(repeating: ")", count: 32)
        _ = try AssetPredicate(parsing: fine)
        let many = Array(repeating: "favorite", count: 300).joined(separator: " or ")
        #expect(throws: PhotoEditError.invalidQuery("the query has more than 256 conditions")) { try AssetPredicate(parsing: many) }
    }

    /// `"formatVersion": 1e300` in a recipe file trapped (SIGILL) converting Double to Int.
    @Test(arguments: [#""formatVersion":1e300,"base":"original","filters":[]"#,
                      #""formatVersion":1,"base":"original","filters":[{"id":"exposure","version":1e300,"params":{"ev":1}}]"#])
    func recipeWithAHugeVersionIsRefused(_ body: String) throws {
        let (lib, a, _) = try CLILibrary.withTwoPhotos()
        let file = lib.temp.file("huge.json")
        try Data(#"{"format":"org.photoedit.recipe",\#(body)}"#.utf8).write(to: URL(fileURLWithPath: file))
        try lib.expectUnchanged(by: ["apply", "--recipe", file, a], message: "is newer than this engine")
    }

    /// File names are printed escaped: a newline or an escape sequence in a
    /// name can neither forge an output line nor drive the terminal.
    @Test func controlCharactersInNamesAreEscaped() throws {
        let lib = CLILibrary()
        let name = "evil\nfake-id\t\u{1B}[31mred\u{7}.jpg"
        let file = lib.temp.file(name)
        try FileManager.default.copyItem(atPath: Paths.sample("coffee.jpg"), toPath: file)
        let imported = try lib.succeed(["import", file])
        #expect(imported.stdoutLines.count == 1, "\(imported)")
        #expect(imported.stdout.contains(#"evil\nfake-id\t\u{1B}[31mred\u{7}.jpg"#), "\(imported)")
        let list = try lib.succeed(["list"])
        #expect(list.stdoutLines.count == 1, "\(list)")
        #expect(!list.stdout.contains("\u{1B}") && !list.stdout.contains("\u{7}"), "\(list)")
        #expect(list.stdoutLines.first?.split(separator: "\t").count == 5, "the name stays one field: \(list)")
        // JSON keeps the name exact (JSON escapes it itself).
        let id = String(imported.stdout.prefix(while: { $0 != "\t" }))
        #expect(try lib.show(id)["originalFilename"]?.string == name)
        let resources = try lib.succeed(["export", id])
        #expect(resources.stdoutLines.count == 1 && !resources.stdout.contains("\u{1B}"), "\(resources)")
    }
}

/// Issue 10 §1: `lut=` read any file and printed a line of it in the error.
@Suite("Hostile input: LUT files")
struct HostileLUTTests {
    @Test(arguments: ["/etc/shadow", "/etc/passwd", "/proc/self/environ", "../../etc/passwd", "../film.cube",
                      "presets/film.cube", ".hidden.cube", "film.cube/"])
    func lutNamesWithFoldersAreRefused(_ name: String) throws {
        let (lib, a, _) = try CLILibrary.withTwoPhotos()
        try lib.expectUnchanged(by: ["apply", "lut=" + name, a], message: "is not a LUT name")
    }

    @Test func aRecipeFileCannotNameAPathEither() throws {
        let (lib, a, _) = try CLILibrary.withTwoPhotos()
        let file = lib.temp.file("evil.json")
        let recipe = #"{"format":"org.photoedit.recipe","formatVersion":1,"base":"original","filters":[{"id":"lut","version":2,"params":{"file":"/etc/passwd"}}]}"#
        try Data(recipe.utf8).write(to: URL(fileURLWithPath: file))
        try lib.expectUnchanged(by: ["apply", "--recipe", file, a], message: "is not a LUT name")
        // A version-1 recipe's path keeps only its last component, looked up in the LUT folders.
        let old = #"{"format":"org.photoedit.recipe","formatVersion":1,"base":"original","filters":[{"id":"lut","version":1,"params":{"file":"/etc/passwd"}}]}"#
        try Data(old.utf8).write(to: URL(fileURLWithPath: file))
        try lib.expectUnchanged(by: ["apply", "--recipe", file, a], message: "is not a LUT name")
    }

    /// A file in a LUT folder that is not a LUT: the error names the file and a line number, never the content.
    @Test func aBadLUTNeverShowsItsContent() throws {
        let (lib, a, _) = try CLILibrary.withTwoPhotos()
        let folder = lib.temp.file("luts")
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        try "LUT_3D_SIZE 2\nSECRET-TOKEN-4711 x y\n".write(toFile: folder + "/secret.cube", atomically: true, encoding: .utf8)
        try "SECRET-TOKEN-4711\n".write(toFile: folder + "/size.cube", atomically: true, encoding: .utf8)
        for name in ["secret.cube", "size.cube"] {
            let r = try lib.run(["apply", "--luts", folder, "lut=" + name, a])
            #expect(r.status != 0 && r.stderrLines.count == 1, "\(r)")
            #expect(r.stderr.contains(name) && !r.stderr.contains("SECRET"), "\(r)")
        }
        // A FIFO or a device in a LUT folder is refused without reading it.
        #expect(mkfifo(folder + "/fifo.cube", 0o600) == 0)
        let r = try lib.run(["apply", "--luts", folder, "lut=fifo.cube", a])
        #expect(r.status != 0 && r.stderr.contains("not a regular file"), "\(r)")
    }

    /// The LUT's SHA-256 is recorded when it is applied; `verify` reports a LUT changed since.
    @Test func theLUTHashIsRecordedAndVerifyReportsAChange() throws {
        let lib = CLILibrary()
        let id = try lib.importSample("coffee.jpg")
        let folder = lib.temp.file("luts")
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let film = Paths.filters.appendingPathComponent("presets/film.cube").path
        try FileManager.default.copyItem(atPath: film, toPath: folder + "/mine.cube")
        try lib.succeed(["apply", "--luts", folder, "lut=mine.cube:60", id])
        let show = try lib.show(id)
        #expect(show["chain"]?.string == "lut=mine.cube:60", "the hash is the engine's, not the chain's: \(show)")
        let data = try #require(show["adjustmentData"]?.object?["data"]?.string)
        let params = try JSONValue.parse(Data(data.utf8)).object?["filters"]?.array?.first?.object?["params"]?.object
        #expect(params?["sha256"]?.string == (try FileIO.sha256(of: film)), "\(String(describing: params))")
        #expect(try lib.run(["verify", "--luts", folder]).status == 0)
        // Another LUT under the same name: the render would change; verify says so.
        try "LUT_3D_SIZE 2\n0 0 0\n1 0 0\n0 1 0\n1 1 0\n0 0 1\n1 0 1\n0 1 1\n1 1 1\n".write(toFile: folder + "/mine.cube", atomically: true, encoding: .utf8)
        let changed = try lib.run(["verify", "--luts", folder])
        #expect(changed.status != 0 && changed.stdout.contains("lut=mine.cube:60 has changed since it was applied"), "\(changed)")
        // And a LUT gone from the folders.
        try FileManager.default.removeItem(atPath: folder + "/mine.cube")
        let gone = try lib.run(["verify", "--luts", folder])
        #expect(gone.status != 0 && gone.stdout.contains("no such LUT in the LUT folders"), "\(gone)")
        // The chain cannot forge the recorded hash.
        let forged = try lib.run(["apply", "lut.sha256=" + String(repeating: "0", count: 64), id])
        #expect(forged.status != 0 && forged.stderr.contains("recorded by the engine"), "\(forged)")
    }
}

/// Issue 10 §1: `import` of a FIFO blocked forever; `import /dev/zero` read until the disk was full.
@Suite("Hostile input: what import reads")
struct HostileImportTests {
    @Test func aFIFOIsRefusedWithoutBlocking() throws {
        let (lib, _, _) = try CLILibrary.withTwoPhotos()
        let fifo = lib.temp.file("photo.jpg")
        #expect(mkfifo(fifo, 0o600) == 0)
        try lib.expectUnchanged(by: ["import", fifo], message: "photo.jpg: not a regular file (a FIFO)")
    }

    @Test func devicesAreRefused() throws {
        let (lib, _, _) = try CLILibrary.withTwoPhotos()
        try lib.expectUnchanged(by: ["import", "/dev/zero"], message: "/dev/zero: not a regular file (a device)")
        // Through a symbolic link with a photo's name, in a folder import too.
        let folder = lib.temp.file("camera")
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(atPath: folder + "/IMG_0001.jpg", withDestinationPath: "/dev/zero")
        try lib.expectUnchanged(by: ["import", folder + "/IMG_0001.jpg"], message: "not a regular file (a device)")
    }

    @Test func theFileSizeLimitIsCheckedWhileReading() throws {
        let lib = CLILibrary()
        let r = try CLI.run(["import", "--library", lib.path, Paths.sample("coffee.jpg")], environment: ["PHOTOEDIT_MAX_FILE_SIZE": "16K"])
        #expect(r.status != 0 && r.stderrLines.count == 1, "\(r)")
        #expect(r.stderr.contains("coffee.jpg: larger than the limit of 16384 bytes (PHOTOEDIT_MAX_FILE_SIZE)"), "\(r)")
        let fine = try CLI.run(["import", "--library", lib.path, Paths.sample("coffee.jpg")], environment: ["PHOTOEDIT_MAX_FILE_SIZE": "64M"])
        #expect(fine.status == 0, "\(fine)")
        #expect(Importer.parseSize("2G") == 2 << 30 && Importer.parseSize("500m") == 500 << 20 && Importer.parseSize("x") == nil)
        #expect(Importer.parseSize("99999999999999G") == nil, "no overflow")
    }
}

/// Issue 10 §2: the library's state survives what happens to its files.
@Suite("Nothing lost: purge, catalog, read-only")
struct NothingLostTests {
    /// `kill -9` between purge's commit and the removal of its files left
    /// "original not referenced by the catalog" that no repair could clear.
    @Test func aPurgeKilledAfterItsCommitIsFinishedByRecovery() throws {
        let lib = CLILibrary()
        let ids = try lib.importFiles([Paths.sample("coffee.jpg"), Paths.sample("chelsea.jpg")])
        try lib.succeed(["apply", "exposure=+0.5", ids[0]])
        try lib.succeed(["delete", ids[0]])
        let killed = try CLI.run(["purge", "--library", lib.path, ids[0]], environment: ["PHOTOEDIT_CRASH_POINT": "purge-committed"])
        #expect(killed.status != 0, "the purge was killed: \(killed)")
        let originals = try Hashing.tree(lib.path).keys.filter { $0.hasPrefix("originals/") }
        #expect(originals.count == 2, "killed before removing its files: \(originals)")
        // The next command recovers: the purge finishes, verify is clean.
        let verify = try lib.run(["verify"])
        #expect(verify.status == 0, "\(verify)")
        let after = try Hashing.tree(lib.path).keys
        #expect(after.filter { $0.hasPrefix("originals/") }.count == 1 && !after.contains { $0.hasPrefix("renders/") }, "\(after.sorted())")
        #expect(try lib.succeed(["list", "--deleted"]).stdout.isEmpty)
        #expect(try lib.succeed(["list"]).stdoutLines.count == 1)
    }

    /// A folder with originals but a missing or empty catalog is refused, not
    /// taken for a new library (verify --repair then removed every render).
    @Test(arguments: ["missing", "empty"])
    func aLibraryWithoutItsCatalogIsRefused(_ how: String) throws {
        let lib = CLILibrary()
        let id = try lib.importSample("coffee.jpg")
        try lib.succeed(["apply", "exposure=+0.5", id])
        for suffix in ["", "-wal", "-shm"] { unlink(lib.path + "/catalog.sqlite" + suffix) }
        if how == "empty" { #expect(FileManager.default.createFile(atPath: lib.path + "/catalog.sqlite", contents: Data())) }
        let before = try Hashing.tree(lib.path)
        for command in [["list"], ["verify", "--repair"], ["import", Paths.sample("chelsea.jpg")]] {
            let r = try lib.run(command)
            #expect(r.status != 0 && r.stderrLines.count == 1, "\(r)")
            #expect(r.stderr.contains("holds originals but its catalog is \(how)") && r.stderr.contains("verify --rebuild-catalog"), "\(r)")
        }
        #expect(try Hashing.tree(lib.path) == before, "nothing changed")
    }

    /// A library the user cannot write (a read-only mount, another user's
    /// folder) could not even be listed: the lock file.
    @Test func aReadOnlyLibraryCanBeReadNotChanged() throws {
        let lib = CLILibrary()
        let id = try lib.importSample("coffee.jpg")
        try lib.succeed(["apply", "exposure=+0.5", id])
        let out = lib.temp.file("out")
        try FileManager.default.createDirectory(atPath: out, withIntermediateDirectories: true)
        chmod(out, 0o777)
        chmod(lib.temp.path, 0o755)
        let before = try Hashing.tree(lib.path)
        try ReadOnly.makeReadOnly(lib.path)
        defer { ReadOnly.makeWritable(lib.path) }
        func run(_ arguments: [String]) throws -> CLIResult {
            try ReadOnly.runAsOtherUser([arguments[0], "--library", lib.path] + arguments.dropFirst())
        }
        let list = try run(["list"])
        #expect(list.status == 0 && list.stdout.hasPrefix(id), "\(list)")
        #expect(try run(["show", id]).status == 0)
        #expect(try run(["history", id]).status == 0)
        let verify = try run(["verify"])
        #expect(verify.status == 0, "\(verify)")
        let render = try run(["render", id, "-o", out + "/x.jpg"])
        #expect(render.status == 0 && FileManager.default.fileExists(atPath: out + "/x.jpg"), "\(render)")
        for command in [["favorite", id], ["apply", "exposure=1", id], ["import", Paths.sample("chelsea.jpg")]] {
            let r = try run(command)
            #expect(r.status != 0 && r.stderrLines.count == 1 && r.stderr.contains("is read-only (no write access)"), "\(r)")
        }
        ReadOnly.makeWritable(lib.path)
        #expect(try Hashing.tree(lib.path) == before, "nothing changed")
    }
}

/// Running the CLI without write access to a library, also as root (root
/// ignores permissions: the command then runs as `nobody` through setpriv).
enum ReadOnly {
    static func makeReadOnly(_ path: String) throws {
        try chmodTree(path) { isDirectory in isDirectory ? 0o555 : 0o444 }
    }

    static func makeWritable(_ path: String) {
        try? chmodTree(path) { isDirectory in isDirectory ? 0o755 : 0o644 }
    }

    private static func chmodTree(_ path: String, _ mode: (Bool) -> mode_t) throws {
        for sub in try FileManager.default.subpathsOfDirectory(atPath: path) {
            let full = path + "/" + sub
            chmod(full, mode(FileIO.isDirectory(full)))
        }
        chmod(path, mode(true))
    }

    static func runAsOtherUser(_ arguments: [String]) throws -> CLIResult {
        guard getuid() == 0 else { return try CLI.run(arguments) }
        let binary = try CLI.binary.get()
        let full = ["--reuid=65534", "--regid=65534", "--clear-groups", binary.path] + arguments
        return try CLI.runExecutable(URL(fileURLWithPath: "/usr/bin/setpriv"), full, display: arguments)
    }
}
