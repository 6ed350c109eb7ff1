import Foundation
import Testing
@testable import PhotoEdit

/// favorite/hide/delete/restore/purge, album, export and verify through the real binary.
@Suite("CLI: photo flags, albums, export, verify")
struct CLIChangeTests {
    static func ids(_ r: CLIResult) throws -> [String] {
        guard case .array(let items) = try r.json() else { throw CLIError("not a JSON array: \(r.stdout)") }
        return items.compactMap { $0.object?["id"]?.string }
    }

    static func expectOneLineError(_ r: CLIResult, containing text: String, sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(r.status == 1, "\(r)", sourceLocation: sourceLocation)
        #expect(r.stderrLines.count == 1 && r.stderr.hasPrefix("photoedit: error: "), "\(r)", sourceLocation: sourceLocation)
        #expect(r.stderr.contains(text), "stderr should contain '\(text)': \(r.stderr)", sourceLocation: sourceLocation)
        #expect(r.stdout.isEmpty, "\(r)", sourceLocation: sourceLocation)
    }

    @Test func favoriteHideDeleteRestorePurge() throws {
        let lib = CLILibrary()
        let ids = try lib.importFiles([Paths.sample("coffee.jpg"), Paths.sample("chelsea.jpg"), Paths.sample("chart.png")])
        let (a, b, c) = (ids[0], ids[1], ids[2])
        try lib.succeed(["apply", "exposure=+0.5", a])

        let fav = try lib.succeed(["favorite", a, String(b.prefix(8))])
        #expect(fav.stdoutLines == ["\(a)\tfavorite", "\(b)\tfavorite"])
        #expect(try lib.show(a)["favorite"]?.bool == true && lib.show(b)["favorite"]?.bool == true)
        #expect(try lib.show(c)["favorite"]?.bool == false)
        #expect(try lib.succeed(["unfavorite", b]).stdoutLines == ["\(b)\tunfavorite"])
        #expect(try lib.show(b)["favorite"]?.bool == false)

        // All or nothing: one unknown id and no photo changes.
        let unknown = String(repeating: "0", count: 32)
        let before = try lib.snapshot(filesFirst: false)
        Self.expectOneLineError(try lib.run(["favorite", c, unknown]), containing: "no photo with id")
        #expect(try lib.snapshot(filesFirst: true) == before)

        #expect(try lib.succeed(["hide", c]).stdoutLines == ["\(c)\thidden"])
        #expect(try Self.ids(lib.succeed(["list", "--json"])) == [a, b])
        #expect(try Self.ids(lib.succeed(["list", "--json", "--hidden"])) == [a, b, c])
        #expect(try lib.succeed(["list"]).stdoutLines.count == 2)
        #expect(try lib.show(c)["hidden"]?.bool == true)
        #expect(try lib.succeed(["unhide", c]).stdoutLines == ["\(c)\tunhidden"])
        #expect(try Self.ids(lib.succeed(["list", "--json"])) == [a, b, c])

        #expect(try lib.succeed(["delete", a]).stdoutLines == ["\(a)\tdeleted"])
        #expect(try Self.ids(lib.succeed(["list", "--json"])) == [b, c])
        #expect(try Self.ids(lib.succeed(["list", "--json", "--deleted"])) == [a])
        var shown = try lib.show(a)
        #expect(shown["deleted"]?.bool == true && shown["deletedDate"]?.string != nil)
        #expect(try lib.show(b)["deleted"]?.bool == false && lib.show(b)["deletedDate"]?.isNull == true)
        #expect(try lib.succeed(["restore", a]).stdoutLines == ["\(a)\trestored"])
        shown = try lib.show(a)
        #expect(shown["deleted"]?.bool == false && shown["favorite"]?.bool == true, "restored as it was")
        #expect(try Self.ids(lib.succeed(["list", "--json", "--deleted"])).isEmpty)
        // Hidden and deleted: only in --deleted.
        try lib.succeed(["hide", c])
        try lib.succeed(["delete", c])
        #expect(try Self.ids(lib.succeed(["list", "--json", "--deleted"])) == [c])
        #expect(try Self.ids(lib.succeed(["list", "--json", "--hidden"])) == [a, b])
        try lib.succeed(["restore", c])
        try lib.succeed(["unhide", c])

        // purge needs delete first.
        let beforePurge = try lib.snapshot(filesFirst: false)
        Self.expectOneLineError(try lib.run(["purge", a]), containing: "is not deleted")
        #expect(try lib.snapshot(filesFirst: true) == beforePurge)

        let files = try Hashing.tree(lib.path)
        let aFiles = files.keys.filter { $0.hasPrefix("renders/") && $0.contains(a) } + files.keys.filter {
            $0.hasPrefix("originals/") && files[$0] == (try? Hashing.sha256(Paths.sample("coffee.jpg")))
        }
        #expect(aFiles.count == 2, "\(aFiles)")
        try lib.succeed(["delete", a])
        #expect(try lib.succeed(["purge", a]).stdoutLines == ["\(a)\tpurged"])
        let after = try Hashing.tree(lib.path)
        for f in aFiles { #expect(after[f] == nil, "\(f) removed") }
        Self.expectOneLineError(try lib.run(["show", a]), containing: "no photo with id")
        #expect(try Self.ids(lib.succeed(["list", "--json", "--deleted"])).isEmpty)
        #expect(try Self.ids(lib.succeed(["list", "--json"])) == [b, c])
        #expect(try lib.run(["verify"]).status == 0)
    }

    /// `photoedit album SUB --library DIR ARGS…` (the library option goes after the subcommand).
    @discardableResult
    static func album(_ lib: CLILibrary, _ sub: String, succeed: Bool, _ arguments: [String],
                      sourceLocation: SourceLocation = #_sourceLocation) throws -> CLIResult {
        let r = try CLI.run(["album", sub, "--library", lib.path] + arguments, sourceLocation: sourceLocation)
        if succeed {
            #expect(r.status == 0, "\(r)", sourceLocation: sourceLocation)
            guard r.status == 0 else { throw CLIError("command failed: \(r)") }
        }
        return r
    }

    @Test func albums() throws {
        let lib = CLILibrary()
        let ids = try lib.importFiles([Paths.sample("coffee.jpg"), Paths.sample("chelsea.jpg"), Paths.sample("chart.png")])
        let (a, b, c) = (ids[0], ids[1], ids[2])
        let created = try Self.album(lib, "create", succeed: true, ["Trip"])
        let fields = try #require(created.stdoutLines.first?.split(separator: "\t").map(String.init))
        #expect(fields.count == 2 && fields[0].count == 32 && fields[1] == "Trip", "\(created)")
        let tripID = fields[0]
        Self.expectOneLineError(try Self.album(lib, "create", succeed: false, ["Trip"]), containing: "already exists")

        try Self.album(lib, "add", succeed: true, ["Trip", a, b, String(c.prefix(6))])
        #expect(try Self.album(lib, "show", succeed: true, ["Trip"]).stdoutLines == [a, b, c])
        try Self.album(lib, "move", succeed: true, ["Trip", c, "0"])
        #expect(try Self.album(lib, "show", succeed: true, ["Trip"]).stdoutLines == [c, a, b])
        try Self.album(lib, "remove", succeed: true, ["Trip", a])
        #expect(try Self.album(lib, "show", succeed: true, [String(tripID.prefix(8))]).stdoutLines == [c, b])
        Self.expectOneLineError(try Self.album(lib, "move", succeed: false, ["Trip", b, "5"]), containing: "out of range")

        try Self.album(lib, "rename", succeed: true, ["Trip", "Holiday"])
        try Self.album(lib, "create", succeed: true, ["Other"])
        Self.expectOneLineError(try Self.album(lib, "rename", succeed: false, ["Other", "Holiday"]), containing: "already exists")
        Self.expectOneLineError(try Self.album(lib, "show", succeed: false, ["Trip"]), containing: "no album called 'Trip'")
        let list = try Self.album(lib, "list", succeed: true, []).stdoutLines
        #expect(list.count == 2)
        #expect(list.first == "\(tripID)\t2\tHoliday", "\(list)")
        let json = try #require(try Self.album(lib, "list", succeed: true, ["--json"]).json().array?.compactMap(\.object))
        #expect(json.map { $0["title"]?.string } == ["Holiday", "Other"])
        #expect(json.first?["assets"]?.array?.compactMap(\.string) == [c, b])
        let shown = try #require(try Self.album(lib, "show", succeed: true, ["--json", "Holiday"]).json().object)
        #expect(shown["id"]?.string == tripID && shown["count"]?.number == 2)
        #expect(try lib.show(b)["albums"]?.array?.compactMap(\.string) == ["Holiday"])
        #expect(try lib.show(a)["albums"]?.array?.isEmpty == true)

        try Self.album(lib, "delete", succeed: true, ["Holiday"])
        #expect(try Self.album(lib, "list", succeed: true, []).stdoutLines.map { $0.split(separator: "\t").last.map(String.init) } == ["Other"])
        #expect(try lib.show(b)["albums"]?.array?.isEmpty == true)
        #expect(try Self.ids(lib.succeed(["list", "--json"])).count == 3, "the photos stay")
        Self.expectOneLineError(try Self.album(lib, "add", succeed: false, ["Nope", a]), containing: "no album called 'Nope'")
        #expect(try lib.run(["verify"]).status == 0)
    }

    @Test func exportResources() throws {
        let lib = CLILibrary()
        let ids = try lib.importFiles([Paths.sample("coffee.jpg"), Paths.sample("chelsea.jpg")])
        let (plain, edited) = (ids[0], ids[1])
        let library = try PhotoLibrary(url: URL(fileURLWithPath: lib.path))
        try ForeignEditor.commitGrey(library, edited, keepCopyAt: lib.temp.file("foreign.jpg"))
        try lib.succeed(["apply", "exposure=+0.5", edited])

        // Listing.
        let plainList = try lib.succeed(["export", plain]).stdoutLines
        #expect(plainList.count == 1 && plainList.first?.hasPrefix("photo\t94138\tpublic.jpeg\tcoffee.jpg") == true, "\(plainList)")
        let list = try lib.succeed(["export", edited]).stdoutLines
        #expect(list.map { String($0.split(separator: "\t")[0]) } == ["photo", "fullSizePhoto", "adjustmentData", "adjustmentBasePhoto"], "\(list)")
        let jsonList = try #require(try lib.succeed(["export", edited, "--json"]).json().array?.compactMap(\.object))
        #expect(jsonList.count == 4)
        #expect(jsonList.allSatisfy { ($0["fileSize"]?.number ?? 0) > 0 && $0["originalFilename"]?.string?.isEmpty == false })

        // Each resource.
        let out = lib.temp.file("photo.jpg")
        try lib.succeed(["export", edited, "--resource", "photo", "-o", out])
        #expect(try Hashing.sha256(out) == (try Hashing.sha256(Paths.sample("chelsea.jpg"))), "photo is the original, byte for byte")
        try lib.succeed(["export", edited, "--resource", "fullSizePhoto", "-o", lib.temp.file("full.jpg")])
        try lib.succeed(["render", edited, "-o", lib.temp.file("current.jpg")])
        #expect(try Hashing.sha256(lib.temp.file("full.jpg")) == (try Hashing.sha256(lib.temp.file("current.jpg"))))
        try lib.succeed(["export", edited, "--resource", "adjustmentBasePhoto", "-o", lib.temp.file("base.jpg")])
        #expect(try Hashing.sha256(lib.temp.file("base.jpg")) == (try Hashing.sha256(lib.temp.file("foreign.jpg"))))
        try lib.succeed(["export", edited, "--resource", "adjustmentData", "-o", lib.temp.file("adj.json")])
        let adj = try #require(try JSONValue.parse(Data(contentsOf: URL(fileURLWithPath: lib.temp.file("adj.json")))).object)
        #expect(adj["formatIdentifier"]?.string == "org.photoedit.recipe")
        #expect(adj["formatVersion"]?.string == "1")
        let recipeText = try #require(adj["data"]?.string)
        let recipe = try Recipe(adjustmentData: AdjustmentData(formatIdentifier: "org.photoedit.recipe", formatVersion: "1", data: Data(recipeText.utf8)))
        #expect(recipe.base == .render && recipe.node("exposure") != nil)
        #expect(try lib.show(edited)["adjustmentData"]?.object?["data"]?.string == recipeText)

        // --all.
        let dir = lib.temp.url.appendingPathComponent("all").path
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        let all = try lib.succeed(["export", edited, "--all", dir]).stdoutLines
        #expect(all.count == 4, "\(all)")
        let written = try FileManager.default.contentsOfDirectory(atPath: dir).sorted()
        #expect(written.count == 4, "\(written)")
        #expect(written.contains("chelsea.jpg") && written.contains { $0.hasSuffix(".json") })
        #expect(try Hashing.sha256(dir + "/chelsea.jpg") == (try Hashing.sha256(Paths.sample("chelsea.jpg"))))
        for line in all {
            let path = String(line.split(separator: "\t")[1])
            #expect(FileManager.default.fileExists(atPath: path), "\(line)")
        }

        // Errors: one line, exit 1, nothing written.
        let missing = lib.temp.file("never.jpg")
        Self.expectOneLineError(try lib.run(["export", plain, "--resource", "adjustmentBasePhoto", "-o", missing]), containing: "no adjustmentBasePhoto resource")
        Self.expectOneLineError(try lib.run(["export", plain, "--resource", "fullSizePhoto", "-o", missing]), containing: "no fullSizePhoto resource")
        Self.expectOneLineError(try lib.run(["export", plain, "--resource", "alternatePhoto", "-o", missing]), containing: "no alternatePhoto resource")
        Self.expectOneLineError(try lib.run(["export", plain, "--resource", "sidecar", "-o", missing]), containing: "unknown resource type 'sidecar'")
        Self.expectOneLineError(try lib.run(["export", plain, "--all", lib.temp.file("no-such-dir")]), containing: "is not a folder")
        #expect(!FileManager.default.fileExists(atPath: missing))
    }

    /// Path of the one stored render of `id` (relative to the library).
    static func renderFiles(_ lib: CLILibrary, _ id: String) throws -> [String] {
        try Hashing.tree(lib.path).keys.filter { $0.hasPrefix("renders/") && $0.contains(id) }.sorted()
    }

    static func overwrite(_ path: String, with data: Data, append: Bool = false) throws {
        #expect(chmod(path, 0o644) == 0)
        if append {
            let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: path))
            try handle.seekToEnd()
            try handle.write(contentsOf: data)
            try handle.close()
        } else {
            try data.write(to: URL(fileURLWithPath: path))
        }
    }

    @Test func verifyFindsAndRepairsDamagedRenders() throws {
        let lib = CLILibrary()
        let ids = try lib.importFiles([Paths.sample("coffee.jpg"), Paths.sample("chelsea.jpg")])
        try lib.succeed(["apply", "saturation=-60,crop=16:9", ids[0]])
        try lib.succeed(["apply", "exposure=+0.5", ids[1]])
        let clean = try lib.run(["verify"])
        #expect(clean.status == 0 && clean.stdout.isEmpty && clean.stderr.contains("library is consistent"), "\(clean)")
        try lib.succeed(["render", ids[0], "-o", lib.temp.file("before.png")])

        // A damaged render.
        let render = try #require(try Self.renderFiles(lib, ids[0]).first)
        try Self.overwrite(lib.path + "/" + render, with: Data("not a jpeg any more".utf8))
        let damaged = try lib.run(["verify"])
        #expect(damaged.status == 1, "\(damaged)")
        #expect(damaged.stdoutLines.count == 1, "\(damaged)")
        #expect(damaged.stdoutLines.first?.hasPrefix("problem: \(ids[0]) revision 1: render \(render) is damaged") == true, "\(damaged)")

        let repaired = try lib.run(["verify", "--repair"])
        #expect(repaired.status == 0, "\(repaired)")
        #expect(repaired.stdoutLines.count == 1 && repaired.stdoutLines.first?.hasPrefix("repaired: \(ids[0]) revision 1") == true, "\(repaired)")
        let again = try lib.run(["verify"])
        #expect(again.status == 0, "\(again)")
        try lib.succeed(["render", ids[0], "-o", lib.temp.file("after.png")])
        let (maxDE, meanDE) = try Pixels.deltaE(lib.temp.file("before.png"), lib.temp.file("after.png"))
        #expect(maxDE < 1 && meanDE < 0.1, "rebuilt render: max ΔE \(maxDE), mean \(meanDE)")
        let renders = try Self.renderFiles(lib, ids[0])
        #expect(renders.count == 1, "the damaged file is replaced, not kept beside: \(renders)")
        for r in renders {
            let mode = try #require(try FileManager.default.attributesOfItem(atPath: lib.path + "/" + r)[.posixPermissions] as? Int)
            #expect(mode & 0o222 == 0, "rebuilt render is read-only: \(String(mode, radix: 8))")
        }

        // A missing render.
        let other = try #require(try Self.renderFiles(lib, ids[1]).first)
        try FileManager.default.removeItem(atPath: lib.path + "/" + other)
        let missing = try lib.run(["verify"])
        #expect(missing.status == 1 && missing.stdout.contains("render \(other) is missing"), "\(missing)")
        #expect(try lib.run(["verify", "--repair"]).status == 0)
        #expect(try lib.run(["verify"]).status == 0)
        #expect(try Self.renderFiles(lib, ids[1]).count == 1)
    }

    @Test func verifyNeverTouchesATamperedOriginal() throws {
        let lib = CLILibrary()
        let ids = try lib.importFiles([Paths.sample("coffee.jpg"), Paths.sample("chelsea.jpg")])
        try lib.succeed(["apply", "exposure=+0.5", ids[0]])
        let originals = try Hashing.tree(lib.path).filter { $0.key.hasPrefix("originals/") }
        let coffeeHash = try Hashing.sha256(Paths.sample("coffee.jpg"))
        let original = try #require(originals.first { $0.value == coffeeHash }?.key)
        try Self.overwrite(lib.path + "/" + original, with: Data([0x00]), append: true)
        let tampered = try Hashing.sha256(lib.path + "/" + original)
        #expect(tampered != coffeeHash)

        let report = try lib.run(["verify"])
        #expect(report.status == 1, "\(report)")
        #expect(report.stdoutLines == ["problem: \(ids[0]): original \(original) does not match its SHA-256"], "\(report)")
        let repair = try lib.run(["verify", "--repair"])
        #expect(repair.status == 1, "an original cannot be repaired: \(repair)")
        #expect(repair.stdout.contains("does not match its SHA-256"), "\(repair)")
        #expect(try Hashing.sha256(lib.path + "/" + original) == tampered, "--repair left the original as it found it")
        #expect(try Hashing.tree(lib.path).filter { $0.key.hasPrefix("originals/") }.count == 2)
    }

    /// A foreign render cannot be rebuilt: --repair says so and exits 1.
    @Test func verifyRepairCannotRebuildAForeignRender() throws {
        let lib = CLILibrary()
        let id = try lib.importSample("coffee.jpg")
        let library = try PhotoLibrary(url: URL(fileURLWithPath: lib.path))
        try ForeignEditor.commitGrey(library, id, keepCopyAt: lib.temp.file("foreign.jpg"))
        let render = try #require(try Self.renderFiles(lib, id).first)
        try Self.overwrite(lib.path + "/" + render, with: Data("broken".utf8))
        let repair = try lib.run(["verify", "--repair"])
        #expect(repair.status == 1, "\(repair)")
        #expect(repair.stdout.contains("cannot rebuild"), "\(repair)")
        Self.expectOneLineError(try lib.run(["render", id, "-o", lib.temp.file("x.png")]), containing: "not an image libvips can read")
    }
}
