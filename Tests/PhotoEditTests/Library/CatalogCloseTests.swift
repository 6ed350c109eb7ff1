import Foundation
import Testing
@testable import PhotoEdit

/// The catalog is `catalog.sqlite` and its write-ahead log together; closing
/// it never checkpoints. A command that only reads writes nothing to either
/// file when it ends (it used to copy the whole WAL into the catalog again,
/// with two fsyncs, at every close), and what was written stays readable.
@Suite("Reading commands write nothing to the catalog")
struct CatalogCloseTests {
    @Test func readingCommandsLeaveBothCatalogFilesAsTheyWere() throws {
        let library = CLILibrary()
        let id = try library.importSample("coffee.jpg")
        try library.succeed(["apply", "exposure=+0.3", id])
        let catalog = library.path + "/catalog.sqlite"
        let files = [catalog, catalog + "-wal"]
        #expect(FileManager.default.fileExists(atPath: catalog + "-wal"), "the WAL file is kept")
        let before = try files.map { try Hashing.sha256($0) }
        for command in [["list"], ["show", id], ["history", id], ["render", id, "-o", library.temp.file("out.jpg"), "--size", "64"],
                        ["list", "--where", "favorite"]] {
            try library.succeed(command)
            #expect(try files.map { try Hashing.sha256($0) } == before, "photoedit \(command[0]) wrote to the catalog")
        }
        // What the WAL holds is the catalog: a copy of both files reads the edit.
        let copy = TemporaryDirectory("photoedit-catalog-copy")
        for file in ["catalog.sqlite", "catalog.sqlite-wal"] {
            try FileManager.default.copyItem(atPath: library.path + "/" + file, toPath: copy.file(file))
        }
        #expect(try PhotoLibrary(url: copy.url).asset(id).revision == 1, "the edit is in catalog.sqlite + its WAL")
    }
}
