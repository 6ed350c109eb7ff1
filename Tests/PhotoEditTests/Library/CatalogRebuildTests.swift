import Foundation
import Testing
@testable import PhotoEdit

/// Issue 10 §2: a lost catalog is rebuilt from the files on disk
/// (`verify --rebuild-catalog`): originals, revision records, renders.
@Suite("Catalog rebuild from the files")
struct CatalogRebuildTests {
    /// What a user sees of a library: its photos and every revision, and
    /// the bytes of its originals and renders.
    static func snapshot(_ lib: CLILibrary) throws -> (list: String, histories: [String], files: [String: String]) {
        let list = try lib.succeed(["list", "--json"]).stdout
        let ids = try lib.succeed(["list"]).stdoutLines.map { String($0.prefix(32)) }
        let histories = try ids.map { try lib.succeed(["history", "--json", $0]).stdout }
        let files = try Hashing.tree(lib.path).filter { $0.key.hasPrefix("originals/") || $0.key.hasPrefix("renders/") }
        return (list, histories, files)
    }

    /// A catalog whose bytes are garbage (a disk error): it cannot be
    /// opened; rebuilt, it is kept aside.
    @Test func aDamagedCatalogIsRebuiltAndKeptAside() throws {
        let lib = CLILibrary()
        let id = try lib.importSample("coffee.jpg")
        try lib.succeed(["apply", "exposure=+0.5", id])
        let before = try Self.snapshot(lib)
        lib.removeCatalog()
        let garbage = Data((0..<65536).map { UInt8(truncatingIfNeeded: $0 &* 7919) })
        #expect(FileManager.default.createFile(atPath: lib.path + "/catalog.sqlite", contents: garbage))
        #expect(try lib.run(["list"]).status != 0)
        let rebuilt = try lib.run(["verify", "--rebuild-catalog"])
        #expect(rebuilt.status == 0 && rebuilt.stderr.contains("the previous catalog is kept as"), "\(rebuilt)")
        let after = try Self.snapshot(lib)
        #expect(after.list == before.list && after.histories == before.histories && after.files == before.files)
        let kept = try FileManager.default.contentsOfDirectory(atPath: lib.path).filter { $0.hasPrefix("catalog.sqlite.before-rebuild-") }
        #expect(kept.count == 1 && FileManager.default.contents(atPath: lib.path + "/" + kept[0]) == garbage, "kept as it was")
    }

    /// Killed between moving the old catalog aside and moving the new one
    /// in: the folder has no catalog, is refused, and the rebuild runs again.
    @Test func aRebuildKilledHalfWayRunsAgain() throws {
        let lib = CLILibrary()
        let id = try lib.importSample("coffee.jpg")
        try lib.succeed(["apply", "exposure=+0.5", id])
        let before = try Self.snapshot(lib)
        lib.removeCatalog(leaveEmpty: true)
        let killed = try CLI.run(["verify", "--library", lib.path, "--rebuild-catalog"],
                                 environment: ["PHOTOEDIT_CRASH_POINT": "catalog-moved-aside"])
        #expect(killed.status != 0, "\(killed)")
        let refused = try lib.run(["list"])
        #expect(refused.status != 0 && refused.stderr.contains("its catalog is missing"), "\(refused)")
        try lib.succeed(["verify", "--rebuild-catalog"])
        let after = try Self.snapshot(lib)
        #expect(after.list == before.list && after.histories == before.histories && after.files == before.files)
    }

    /// A RAW edited alone, then joined by its JPEG (which becomes the photo,
    /// the edit keeping the RAW as its base): the pairing and the base come back.
    @Test func aRawPlusJPEGPairIsRebuilt() throws {
        let folder = try Paths.rawJPEGPairFolder()
        let lib = CLILibrary()
        let id = try lib.importFiles([folder.file("IMG_0042.DNG")])[0]
        try lib.succeed(["apply", "exposure=+0.3", id])
        let joined = try lib.succeed(["import", folder.file("IMG_0042.JPG")])
        #expect(joined.stdout.hasPrefix(id) && joined.stderr.contains("RAW+JPEG pair"), "\(joined)")
        let before = try Self.snapshot(lib)
        let shown = try lib.show(id)
        lib.removeCatalog()
        try lib.succeed(["verify", "--rebuild-catalog"])
        let after = try Self.snapshot(lib)
        #expect(after.list == before.list && after.histories == before.histories && after.files == before.files)
        #expect(try lib.show(id) == shown)
        #expect(try lib.succeed(["verify"]).status == 0)
    }

    @Test(arguments: ["missing", "empty"])
    func aLostCatalogIsRebuiltWithEveryRevision(_ how: String) throws {
        let lib = CLILibrary()
        let ids = try lib.importFiles([Paths.sample("coffee.jpg"), Paths.sample("chelsea.jpg")])
        try lib.succeed(["apply", "exposure=+0.5", ids[0]])
        try lib.succeed(["apply", "contrast=+20", ids[0]])
        try lib.succeed(["revert", ids[0]])
        try lib.succeed(["apply", "saturation=-30", ids[1]])
        let before = try Self.snapshot(lib)
        #expect(before.files.keys.filter { $0.hasPrefix("renders/") }.count == 3)

        lib.removeCatalog(leaveEmpty: how == "empty")
        let refused = try lib.run(["list"])
        #expect(refused.status != 0 && refused.stderr.contains("verify --rebuild-catalog"), "\(refused)")

        let rebuilt = try lib.run(["verify", "--rebuild-catalog"])
        #expect(rebuilt.status == 0, "\(rebuilt)")
        #expect(rebuilt.stderr.contains("2 photos (2 from revision records, 0 from originals alone), 6 revisions, 3 renders"), "\(rebuilt)")
        #expect(rebuilt.stderr.contains("library is consistent"), "\(rebuilt)")
        let after = try Self.snapshot(lib)
        #expect(after.list == before.list, "same photos, ids, names, sizes and adjustment data")
        #expect(after.histories == before.histories, "same revisions")
        #expect(after.files == before.files, "originals and renders untouched")
        let kept = try FileManager.default.contentsOfDirectory(atPath: lib.path).filter { $0.hasPrefix("catalog.sqlite.before-rebuild-") }
        #expect(kept.count == (how == "empty" ? 1 : 0), "the replaced catalog is kept: \(kept)")
        // Edits go on from where they were.
        try lib.succeed(["apply", "exposure=+0.2", ids[0]])
        #expect(try lib.history(ids[0]).count == 5)
        #expect(try lib.succeed(["verify"]).status == 0)
    }

    /// Originals without any revision record (a library from before records
    /// were written) become photos of their own, their metadata read again.
    @Test func originalsWithoutRecordsBecomePhotos() throws {
        let lib = CLILibrary()
        let id = try lib.importSample("coffee.jpg")
        let shown = try lib.show(id)
        try FileManager.default.removeItem(atPath: lib.path + "/revisions")
        lib.removeCatalog()
        let rebuilt = try lib.run(["verify", "--rebuild-catalog"])
        #expect(rebuilt.status == 0 && rebuilt.stderr.contains("1 photos (0 from revision records, 1 from originals alone)"), "\(rebuilt)")
        let ids = try lib.succeed(["list"]).stdoutLines.map { String($0.prefix(32)) }
        #expect(ids.count == 1 && ids[0] != id)
        let again = try lib.show(ids[0])
        for key in ["sha256", "pixelWidth", "pixelHeight", "format", "fileSize", "uniformTypeIdentifier"] { #expect(again[key] == shown[key], "\(key)") }
        // It has a record now: a second rebuild keeps its id.
        lib.removeCatalog()
        try lib.succeed(["verify", "--rebuild-catalog"])
        #expect(try lib.succeed(["list"]).stdoutLines.map { String($0.prefix(32)) } == ids)
    }

    /// verify checks each revision's record against the catalog; --repair
    /// writes it again.
    @Test func verifyChecksAndRepairsRevisionRecords() throws {
        let lib = CLILibrary()
        let id = try lib.importSample("coffee.jpg")
        try lib.succeed(["apply", "exposure=+0.5", id])
        let records = try Hashing.tree(lib.path).keys.filter { $0.hasPrefix("revisions/") && $0.contains("/1-") }
        try #require(records.count == 1)
        let path = lib.path + "/" + records[0]
        var text = try String(contentsOfFile: path, encoding: .utf8)
        text = text.replacingOccurrences(of: "\"kind\" : \"edit\"", with: "\"kind\" : \"revert\"")
        chmod(path, 0o644)
        try text.write(toFile: path, atomically: false, encoding: .utf8)
        let verify = try lib.run(["verify"])
        #expect(verify.status != 0 && verify.stdout.contains("revision 1: revision record \(records[0]) does not match the catalog"), "\(verify)")
        unlink(path)
        #expect(try lib.run(["verify"]).stdout.contains("revision record \(records[0]) is missing"))
        let repair = try lib.run(["verify", "--repair"])
        #expect(repair.status == 0 && repair.stdout.contains("repaired: \(id) revision 1"), "\(repair)")
        #expect(try lib.succeed(["verify"]).status == 0)
    }

    @Test func aLibraryInUseIsNotRebuilt() throws {
        let lib = CLILibrary()
        try lib.importSample("coffee.jpg")
        let library = try PhotoLibrary(url: URL(fileURLWithPath: lib.path))
        defer { withExtendedLifetime(library) {} }
        let r = try lib.run(["verify", "--rebuild-catalog"])
        #expect(r.status != 0 && r.stderrLines.count == 1 && r.stderr.contains("is open in another process"), "\(r)")
    }
}
