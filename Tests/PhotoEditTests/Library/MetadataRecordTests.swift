import Foundation
import Testing
@testable import PhotoEdit

/// A lost catalog gives back the photos' descriptive metadata: ratings,
/// labels, keywords, titles, captions, favorites and hidden live in a
/// metadata record beside the revision records (docs/library-layout.md),
/// written in the same commit as the catalog's change, checked by `verify`,
/// read back by `verify --rebuild-catalog`.
@Suite("Metadata records")
struct MetadataRecordTests {
    /// The metadata records on disk, relative to the library.
    static func records(_ lib: CLILibrary) throws -> [String] {
        try Hashing.tree(lib.path).keys.filter { $0.hasPrefix("revisions/") && LibraryLayout.isMetadataRecord($0) }.sorted()
    }

    static func showAll(_ lib: CLILibrary, _ ids: [String]) throws -> [[String: JSONValue]] {
        try ids.map { try lib.show($0) }
    }

    /// Metadata set through the CLI, the library API and an imported
    /// sidecar (exiftool) comes back whole after catalog.sqlite and its WAL are deleted.
    @Test func aLostCatalogGivesBackTheMetadata() throws {
        let lib = CLILibrary()
        let temp = TemporaryDirectory("photoedit-metadata-record")
        try FileManager.default.copyItem(atPath: Paths.sample("astronaut.jpg"), toPath: temp.file("IMG_7.jpg"))
        try Tool.exiftool(["-o", temp.file("IMG_7.xmp"), "-XMP-xmp:Rating=3", "-XMP-xmp:Label=Green",
                                       "-XMP-dc:Subject=Iceland", "-XMP-lr:HierarchicalSubject=Trips|Iceland",
                                       "-XMP-dc:Title=Astronaut", Paths.sample("astronaut.jpg")])
        let ids = try lib.importFiles([Paths.sample("coffee.jpg"), Paths.sample("chelsea.jpg"), Paths.sample("chart.png"),
                                       temp.file("IMG_7.jpg"), Paths.sample("rotated-exif.jpg")])
        #expect(try Self.records(lib).count == 1, "the import with a sidecar has a record; the others nothing to record")
        // The CLI.
        try lib.succeed(["rate", "4", ids[0]])
        try lib.succeed(["rate", "reject", ids[1]])
        try lib.succeed(["label", "red", ids[0]])
        try lib.succeed(["tag", "Trips/Iceland, Birds, Music/AC\\/DC", ids[0]])
        try lib.succeed(["title", "Coffee", ids[0]])
        try lib.succeed(["caption", "Morning\nin Reykjavik", ids[0]])
        try lib.succeed(["favorite", ids[0]])
        try lib.succeed(["hide", ids[1]])
        try lib.succeed(["apply", "exposure=+0.5", ids[0]])
        // The library API.
        do {
            let library = try PhotoLibrary(url: URL(fileURLWithPath: lib.path))
            try library.setRating(5, of: [ids[2]])
            try library.setColorLabel(.blue, of: [ids[2]])
            try library.addKeywords(["Charts", "Work/Test cards"], to: [ids[2]])
            try library.setCaption("Ünïcode — ✓", of: [ids[2]])
            try library.performChanges { c in
                try c.changeRequest(for: ids[2]).setFavorite(true)
                try c.changeRequest(for: ids[2]).setHidden(true)
            }
        }
        #expect(try Self.records(lib).count == 4, "one record per described photo, the replaced ones gone")
        #expect(try lib.succeed(["verify"]).status == 0)
        let before = try Self.showAll(lib, ids)
        #expect(before[0]["rating"] == .number(4) && before[2]["hidden"] == .bool(true) && before[0]["favorite"] == .bool(true) && before[3]["rating"] == .number(3))

        lib.removeCatalog()
        let rebuilt = try lib.run(["verify", "--rebuild-catalog"])
        #expect(rebuilt.status == 0, "\(rebuilt)")
        #expect(rebuilt.stderr.contains("5 photos (5 from revision records, 0 from originals alone), 6 revisions, 1 renders; 4 with their metadata"),
                "\(rebuilt)")
        #expect(rebuilt.stderr.contains("library is consistent"), "\(rebuilt)")
        #expect(!rebuilt.stderr.contains("ratings"), "no longer listed as lost: \(rebuilt.stderr)")
        let after = try Self.showAll(lib, ids)
        for (i, id) in ids.enumerated() { #expect(after[i] == before[i], "\(id)") }
        #expect(after[0]["keywords"] == .array([.string("Birds"), .string("Music/AC\\/DC"), .string("Trips/Iceland")]))
        #expect(after[3]["keywords"] == .array([.string("Trips/Iceland")]) && after[3]["colorLabel"] == .string("green"))
        // Queries see them again, and changes go on.
        #expect(try lib.succeed(["list", "--where", "keyword=Trips"]).stdoutLines.map { String($0.prefix(32)) }.sorted()
                    == [ids[0], ids[3]].sorted())
        try lib.succeed(["untag", "Birds", ids[0]])
        #expect(try lib.succeed(["verify"]).status == 0)
    }

    /// A damaged, foreign, oversized or out-of-range record: one line, its
    /// content never echoed, the photo recovered without it and the others whole.
    @Test(arguments: ["garbage", "foreign", "oversized", "out-of-range", "elsewhere"])
    func aDamagedRecordIsReportedAndSkipped(_ damage: String) throws {
        let lib = CLILibrary()
        let ids = try lib.importFiles([Paths.sample("coffee.jpg"), Paths.sample("chelsea.jpg")])
        try lib.succeed(["rate", "2", ids[0]])
        try lib.succeed(["tag", "Kept", ids[1]])
        let record = try #require(try Self.records(lib).first { $0.contains(ids[0]) })
        let path = lib.path + "/" + record
        var text = try String(contentsOfFile: path, encoding: .utf8)
        switch damage {
        case "garbage": text = "SECRET{\"rating\": 5"
        case "foreign": text = "{\"format\": \"SECRET\", \"version\": 1}"
        case "oversized": text += String(repeating: " ", count: Int(MetadataRecord.maxBytes))
        case "out-of-range": text = text.replacingOccurrences(of: "\"rating\" : 2", with: "\"rating\" : 9")
        default: text = text.replacingOccurrences(of: ids[0], with: ids[1])   // names another photo
        }
        chmod(path, 0o644)
        try text.write(toFile: path, atomically: false, encoding: .utf8)

        lib.removeCatalog()
        let rebuilt = try lib.run(["verify", "--rebuild-catalog"])
        let lines = rebuilt.stdoutLines.filter { $0.contains(record) }
        #expect(lines.count >= 1 && lines[0].hasPrefix("not recovered: \(record): "), "\(rebuilt)")
        #expect(!rebuilt.stdout.contains("SECRET") && !rebuilt.stderr.contains("SECRET"), "never the file's content")
        #expect(rebuilt.stderr.contains("2 photos (2 from revision records, 0 from originals alone), 2 revisions, 0 renders; 1 with their metadata"),
                "\(rebuilt)")
        #expect(try lib.show(ids[0])["rating"] == .number(0), "recovered without it")
        #expect(try lib.show(ids[1])["keywords"] == .array([.string("Kept")]))
        // The unreferenced file is verify's to remove.
        try lib.succeed(["verify", "--repair"])
        #expect(try lib.succeed(["verify"]).status == 0)
        #expect(try Self.records(lib).count == 1)
    }

    /// The JPEG of a RAW+JPEG pair joins the RAW's photo with its sidecar's
    /// metadata: the join writes the photo's record, and a rebuild gives it back.
    @Test func aJoinedPairsMetadataIsRecorded() throws {
        let folder = try Paths.rawJPEGPairFolder()
        let lib = CLILibrary()
        let id = try lib.importFiles([folder.file("IMG_0042.DNG")])[0]
        #expect(try Self.records(lib).isEmpty)
        try Tool.exiftool(["-o", folder.file("IMG_0042.JPG.xmp"), "-XMP-xmp:Rating=3", "-XMP-dc:Subject=Pairs",
                                       Paths.sample("coffee.jpg")])
        let joined = try lib.succeed(["import", folder.file("IMG_0042.JPG")])
        #expect(joined.stdout.hasPrefix(id) && joined.stderr.contains("RAW+JPEG pair"), "\(joined)")
        let records = try Self.records(lib)
        #expect(records.count == 1 && records[0].contains(id), "\(records)")
        let shown = try lib.show(id)
        #expect(shown["rating"] == .number(3) && shown["keywords"] == .array([.string("Pairs")]))
        lib.removeCatalog()
        try lib.succeed(["verify", "--rebuild-catalog"])
        #expect(try lib.show(id) == shown)
    }

    /// Changed again and again, then purged: no record is left behind.
    @Test func aPurgedPhotoLeavesNoRecord() throws {
        let lib = CLILibrary()
        let ids = try lib.importFiles([Paths.sample("coffee.jpg"), Paths.sample("chelsea.jpg")])
        for rating in ["1", "2", "3"] { try lib.succeed(["rate", rating, ids[0]]) }
        try lib.succeed(["tag", "Trips", ids[0], ids[1]])
        #expect(try Self.records(lib).count == 2)
        // Unset again: no record needed.
        try lib.succeed(["untag", "Trips", ids[1]])
        #expect(try Self.records(lib).count == 1)
        try lib.succeed(["delete", ids[0]])
        try lib.succeed(["purge", ids[0]])
        #expect(try Self.records(lib).isEmpty)
        #expect(try Hashing.tree(lib.path).keys.filter { $0.contains(ids[0]) }.isEmpty, "nothing of the purged photo")
        #expect(try lib.succeed(["verify"]).status == 0)
    }

    /// verify checks each record against its row; --repair writes it
    /// again; photos described by an older photoedit (no record) are a note.
    @Test func verifyChecksAndRepairsMetadataRecords() throws {
        let lib = CLILibrary()
        let id = try lib.importSample("coffee.jpg")
        try lib.succeed(["rate", "4", id])
        let record = try #require(try Self.records(lib).first)
        let path = lib.path + "/" + record
        let text = try String(contentsOfFile: path, encoding: .utf8)
        chmod(path, 0o644)
        try text.replacingOccurrences(of: "\"rating\" : 4", with: "\"rating\" : 2").write(toFile: path, atomically: false, encoding: .utf8)
        let wrong = try lib.run(["verify"])
        #expect(wrong.status != 0 && wrong.stdout.contains("\(id): metadata record \(record) does not match the catalog"), "\(wrong)")
        unlink(path)
        let missing = try lib.run(["verify"])
        #expect(missing.status != 0 && missing.stdout.contains("\(id): metadata record \(record) is missing"), "\(missing)")
        let repair = try lib.run(["verify", "--repair"])
        #expect(repair.status == 0 && repair.stdout.contains("repaired: \(id): metadata record \(record) is missing; written as "), "\(repair)")
        #expect(try lib.succeed(["verify"]).status == 0)

        // A photo rated before records existed.
        let current = try #require(try Self.records(lib).first)
        do {
            let library = try PhotoLibrary(url: URL(fileURLWithPath: lib.path))
            try library.write { db in try db.execute("UPDATE asset SET metadataPath = NULL") }
        }
        unlink(lib.path + "/" + current)
        let old = try lib.run(["verify"])
        #expect(old.status == 0 && old.stderr.contains("1 photo(s) rated, labelled, tagged"), "\(old)")
        let written = try lib.run(["verify", "--repair"])
        #expect(written.stdout.contains("repaired: \(id): no metadata record; written as"), "\(written)")
        #expect(try Self.records(lib).count == 1)
        let clean = try lib.succeed(["verify"])
        #expect(!clean.stderr.contains("rated, labelled"))
        lib.removeCatalog()
        try lib.succeed(["verify", "--rebuild-catalog"])
        #expect(try lib.show(id)["rating"] == .number(4))
    }

    /// Killed before the commit: the record it placed is removed by
    /// recovery, the old one stays. Killed after the commit, before the
    /// replaced record is removed: recovery removes it. Either way catalog
    /// and record agree.
    @Test func aKilledChangeLeavesCatalogAndRecordAgreeing() throws {
        let lib = CLILibrary()
        let id = try lib.importSample("coffee.jpg")
        try lib.succeed(["rate", "2", id])
        let first = try Self.records(lib)
        for (point, rating) in [("before-commit", 2), ("purge-committed", 5)] {
            let killed = try CLI.run(["rate", "5", id, "--library", lib.path], environment: ["PHOTOEDIT_CRASH_POINT": point])
            #expect(killed.status != 0, "\(point): \(killed)")
            #expect(try lib.show(id)["rating"] == .number(Double(rating)), "\(point)")
            let verify = try lib.succeed(["verify"])
            #expect(verify.status == 0, "\(point)")
            let now = try Self.records(lib)
            #expect(now.count == 1, "\(point): \(now)")
            #expect((now == first) == (point == "before-commit"), "\(point)")
        }
        lib.removeCatalog()
        try lib.succeed(["verify", "--rebuild-catalog"])
        #expect(try lib.show(id)["rating"] == .number(5))
    }
}
