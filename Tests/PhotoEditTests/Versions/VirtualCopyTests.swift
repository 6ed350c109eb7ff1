import Foundation
import GRDB
import Testing
@testable import PhotoEdit

/// Virtual copies (issue 40): `photoedit duplicate` makes a photo of its own
/// that shares its master's original (content addressed, never copied),
/// starting from the source's current edit or, `--fresh`, from the original.
/// Purging a copy never removes an original another photo uses; purging
/// the last one does; `verify` checks the sharing; a rebuilt catalog has
/// the copies back.
@Suite("Versions: virtual copies")
struct VirtualCopyTests {
    static func originals(_ lib: CLILibrary) throws -> [String] {
        try Hashing.tree(lib.path).keys.filter { $0.hasPrefix("originals/") }.sorted()
    }

    static func renders(_ lib: CLILibrary) throws -> [String: String] {
        try Hashing.tree(lib.path).filter { $0.key.hasPrefix("renders/") }
    }

    /// The copy shares the original, starts from the source's recipe with
    /// a render of the same pixels, carries its metadata, and then lives
    /// its own life; `show`, `list --where` and `verify` know it.
    @Test func aCopySharesTheOriginalAndHasItsOwnHistory() throws {
        let lib = CLILibrary()
        let id = try lib.importSample("coffee.jpg")
        try lib.succeed(["apply", "exposure=+0.5,saturation=-100", id])
        try lib.succeed(["rate", "4", id])
        try lib.succeed(["tag", "Trips/Iceland", id])
        let originalsBefore = try Self.originals(lib)
        let rendersBefore = try Self.renders(lib)

        let out = try lib.succeed(["duplicate", "--name", "B&W", id]).stdoutLines
        #expect(out.count == 1)
        let fields = out[0].split(separator: "\t").map(String.init)
        let copy = fields[0]
        #expect(copy != id && copy.count == 32 && fields[1] == "B&W" && fields[2] == "1")

        #expect(try Self.originals(lib) == originalsBefore, "no second copy of the original")
        let newRenders = try Self.renders(lib).filter { rendersBefore[$0.key] == nil }
        #expect(newRenders.count == 1 && newRenders.keys.first!.contains(copy), "one new render, the copy's own")
        #expect(Set(newRenders.values) == Set(rendersBefore.values), "the copy's render has the source's pixels")

        let shown = try lib.show(copy)
        #expect(shown["masterIdentifier"]?.string == id && shown["copyName"]?.string == "B&W")
        #expect(shown["chain"]?.string == "exposure=+0.5,saturation=-100")
        #expect(shown["rating"]?.number == 4 && shown["keywords"]?.array == [.string("Trips/Iceland")])
        #expect(shown["sha256"] == (try lib.show(id))["sha256"])

        // Its own history from now on.
        try lib.succeed(["apply", "contrast=+30", copy])
        try lib.succeed(["rate", "1", copy])
        #expect(try lib.show(id)["chain"]?.string == "exposure=+0.5,saturation=-100")
        #expect(try lib.show(id)["rating"]?.number == 4)
        #expect(try lib.history(copy).count == 3 && (try lib.history(id)).count == 2)

        // A fresh copy starts from the original; a copy of a copy has the same master.
        let fresh = try lib.succeed(["duplicate", "--fresh", copy]).stdoutLines[0].split(separator: "\t").map(String.init)
        #expect(fresh[1] == "Copy 2" && fresh[2] == "0")
        #expect(try lib.show(fresh[0])["masterIdentifier"]?.string == id)
        #expect(try lib.show(fresh[0])["adjustmentData"]?.isNull == true)

        let text = try lib.succeed(["show", id]).stdout
        #expect(text.contains("master      \(id) (this photo)") && text.contains("copy        \(copy) \"B&W\""))
        let listed = try lib.succeed(["list", "--where", "master=\(id)"]).stdoutLines.map { String($0.prefix(32)) }
        #expect(Set(listed) == [id, copy, fresh[0]])
        #expect(try lib.succeed(["list", "--where", "copy"]).stdoutLines.map { String($0.prefix(32)) }.sorted() == [copy, fresh[0]].sorted())
        #expect(try lib.succeed(["list", "--where", "not copy"]).stdoutLines.map { String($0.prefix(32)) } == [id])

        let verify = try lib.succeed(["verify"])
        #expect(verify.stderr.contains("2 virtual copies share 1 original file(s)"), "\(verify)")

        // Importing the same bytes again finds the master.
        let again = try lib.succeed(["import", Paths.sample("coffee.jpg")]).stdoutLines
        #expect(again.first?.hasPrefix(id) == true)
    }

    /// Deleting or purging a copy keeps the original; purging the master
    /// makes its oldest copy the master; purging the last photo removes it.
    @Test func theLastPurgeRemovesTheOriginal() throws {
        let lib = CLILibrary()
        let id = try lib.importSample("chelsea.jpg")
        try lib.succeed(["apply", "exposure=+0.3", id])
        let a = String(try lib.succeed(["duplicate", id]).stdoutLines[0].prefix(32))
        let b = String(try lib.succeed(["duplicate", "--name", "Two", id]).stdoutLines[0].prefix(32))
        let original = try Self.originals(lib)
        #expect(original.count == 1)

        try lib.succeed(["delete", a])
        try lib.succeed(["purge", a])
        #expect(try Self.originals(lib) == original, "a purged copy leaves the shared original")
        #expect(!(try Self.renders(lib).keys.contains { $0.contains(a) }), "its own render goes")
        #expect(try lib.succeed(["verify"]).status == 0)

        try lib.succeed(["delete", id])
        try lib.succeed(["purge", id])
        #expect(try Self.originals(lib) == original, "the master's purge leaves the original its copy uses")
        let heir = try lib.show(b)
        #expect(heir["masterIdentifier"]?.isNull == true && heir["copyName"]?.isNull == true, "the copy is the master now")
        #expect(try lib.succeed(["verify"]).status == 0)
        // Its metadata record says so: a rebuilt catalog has it as a master.
        lib.removeCatalog()
        try lib.succeed(["verify", "--rebuild-catalog"])
        #expect(try lib.show(b)["masterIdentifier"]?.isNull == true)

        try lib.succeed(["delete", b])
        try lib.succeed(["purge", b])
        #expect(try Self.originals(lib).isEmpty, "the last purge removes the original")
        #expect(try lib.succeed(["verify"]).status == 0)
    }

    /// PhotoKit style: a duplicate made in a change block with other
    /// changes is committed with them, or not at all.
    @Test func aDuplicateRequestCommitsWithTheBlock() throws {
        let lib = CLILibrary()
        let id = try lib.importSample("coffee.jpg")
        let library = try PhotoLibrary(url: URL(fileURLWithPath: lib.path))
        try library.apply(chain: "exposure=+0.4", to: id)
        let placeholder = try library.performChanges(returning: { changes in
            let request = try changes.changeRequest(for: id)
            try request.setFavorite(true)
            return try request.duplicate(name: "Warm")
        })
        let copy = try library.asset(placeholder.localIdentifier)
        #expect(copy.masterIdentifier == id && copy.copyName == "Warm" && copy.isFavorite && copy.revision == 1)
        #expect(try library.versions(of: copy.id).map(\.id) == [id, copy.id])

        // A block that fails leaves no copy behind, and no file of it.
        let files = try Hashing.tree(lib.path)
        #expect(throws: PhotoEditError.self) {
            try library.performChanges { changes in
                _ = try changes.changeRequest(for: id).duplicate(name: "Lost")
                try changes.changeRequest(for: id).setRating(9)
            }
        }
        #expect(try library.versions(of: id).count == 2)
        let after = Set(try Hashing.tree(lib.path).keys.filter { !$0.hasPrefix("catalog.sqlite") })
        let before = Set(files.keys.filter { !$0.hasPrefix("catalog.sqlite") })
        #expect(after == before, "left: \(after.subtracting(before).sorted()), removed: \(before.subtracting(after).sorted())")
    }

    /// Bad input: one line, non-zero, nothing changed.
    @Test func badInputChangesNothing() throws {
        let lib = CLILibrary()
        let id = try lib.importSample("coffee.jpg")
        try lib.succeed(["apply", "exposure=+0.2", id])
        try lib.succeed(["snapshot", id, "Before client"])
        let cases: [[String]] = [
            ["duplicate", "0123456789abcdef0123456789abcdef"],
            ["duplicate", "--name", "two\nlines", id],
            ["duplicate", "--name", "", id],
            ["duplicate", "--name", String(repeating: "x", count: 201), id],
            ["snapshot", id, "Before client"],
            ["snapshot", id, "--to", "No such snapshot"],
            ["snapshot", id, "--remove", "No such snapshot"],
            ["snapshot", "0123456789abcdef0123456789abcdef", "A name"],
        ]
        for arguments in cases {
            let before = try lib.snapshot(filesFirst: false)
            let r = try lib.run(arguments)
            #expect(r.status != 0, "\(arguments) succeeded")
            #expect(r.stderr.split(separator: "\n").count == 1, "\(arguments): \(r.stderr)")
            #expect(try lib.snapshot(filesFirst: true) == before, "\(arguments) changed the library")
        }
        // A deleted photo is not copied.
        try lib.succeed(["delete", id])
        let r = try lib.run(["duplicate", id])
        #expect(r.status != 0 && r.stderr.contains("deleted"))
    }

    /// A catalog from before v9 (migrated up to v8, with a photo, its
    /// revisions and keywords) opens migrated, its rows intact.
    @Test func aV8CatalogIsMigrated() throws {
        let temp = TemporaryDirectory("photoedit-v9-migration")
        let path = temp.file("catalog.sqlite")
        do {
            let queue = try DatabaseQueue(path: path)
            try Catalog.migrator.migrate(queue, upTo: "v8: metadata records")
            try queue.write { db in
                try db.execute(sql: """
                    INSERT INTO asset (id, originalFilename, sha256, originalPath, fileSize, format, uniformTypeIdentifier, mediaType,
                        originalPixelWidth, originalPixelHeight, orientation, importDate, revision, rating, title)
                    VALUES ('0123456789abcdef0123456789abcdef', 'a.jpg', 'aa', 'originals/aa/aa.jpg', 10, 'jpeg', 'public.jpeg', 'image',
                        40, 30, 1, '2026-01-01 00:00:00.000', 1, 3, 'Title');
                    INSERT INTO revision (assetId, number, createdAt, kind, pixelWidth, pixelHeight) VALUES
                        ('0123456789abcdef0123456789abcdef', 0, '2026-01-01 00:00:00.000', 'import', 40, 30),
                        ('0123456789abcdef0123456789abcdef', 1, '2026-01-01 00:00:01.000', 'edit', 20, 15);
                    INSERT INTO assetKeyword (assetId, keyword) VALUES ('0123456789abcdef0123456789abcdef', 'Birds');
                    """)
            }
        }
        let pool = try Catalog.open(path: path)
        try pool.read { db in
            let row = try Row.fetchOne(db, sql: "SELECT * FROM asset")!
            #expect(row["rating"] as Int == 3 && row["title"] as String == "Title" && row["masterId"] as String? == nil)
            #expect(row["pixelWidth"] as Int == 20, "the triggers were made again (current size)")
            #expect(try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM assetKeyword") == 1)
            #expect(try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM revision") == 2)
            #expect(try Row.fetchAll(db, sql: "PRAGMA foreign_key_check").isEmpty)
        }
        // The triggers work after the rebuild of the table.
        try pool.write { db in
            try db.execute(sql: "INSERT INTO revision (assetId, number, createdAt, kind, pixelWidth, pixelHeight) VALUES ('0123456789abcdef0123456789abcdef', 2, '2026-01-01 00:00:02.000', 'revert', 40, 30)")
            try db.execute(sql: "UPDATE asset SET revision = 2")
            #expect(try Int.fetchOne(db, sql: "SELECT pixelWidth FROM asset") == 40)
            // sha256 is unique among masters only.
            try db.execute(sql: """
                INSERT INTO asset (id, originalFilename, sha256, originalPath, fileSize, format, uniformTypeIdentifier, mediaType,
                    originalPixelWidth, originalPixelHeight, orientation, importDate, masterId)
                VALUES ('1123456789abcdef0123456789abcdef', 'a.jpg', 'aa', 'originals/aa/aa.jpg', 10, 'jpeg', 'public.jpeg', 'image', 40, 30, 1,
                    '2026-01-02 00:00:00.000', '0123456789abcdef0123456789abcdef')
                """)
            #expect(throws: DatabaseError.self) {
                try db.execute(sql: """
                    INSERT INTO asset (id, originalFilename, sha256, originalPath, fileSize, format, uniformTypeIdentifier, mediaType,
                        originalPixelWidth, originalPixelHeight, orientation, importDate)
                    VALUES ('2123456789abcdef0123456789abcdef', 'a.jpg', 'aa', 'originals/aa/aa.jpg', 10, 'jpeg', 'public.jpeg', 'image', 40, 30, 1,
                        '2026-01-02 00:00:00.000')
                    """)
            }
        }
        try pool.close()
    }
}
