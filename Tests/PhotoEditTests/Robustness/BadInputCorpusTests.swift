import Foundation
import Testing
@testable import PhotoEdit

/// Issue 3 §4(c): a corpus of bad inputs. Each gives one clear line on
/// stderr and a non-zero exit, and leaves the library byte for byte as it
/// was (every file hashed; the catalog compared through `list --json` and
/// `history --json` of every photo).
@Suite("Bad input corpus: one clear error, nothing changed")
struct BadInputCorpusTests {
    struct Case: Sendable, CustomTestStringConvertible {
        let label: String
        /// `{A}` is an edited photo's id, `{B}` an unedited one's, `{TMP}` a scratch folder,
        /// `{RECIPE}` the recipe file written from `recipe`.
        let arguments: [String]
        let message: String
        var recipe: String? = nil
        var environment: [String: String] = [:]
        var testDescription: String { label }
    }

    static func recipe(_ filters: String, format: String = "\"org.photoedit.recipe\"", formatVersion: String = "1", extra: String = "") -> String {
        "{\"format\":\(format),\"formatVersion\":\(formatVersion),\"base\":\"original\",\"filters\":[\(filters)]\(extra)}"
    }

    static let cases: [Case] = [
        // Files to import.
        Case(label: "truncated JPEG", arguments: ["import", "Tests/Fixtures/bad/truncated.jpg"], message: "truncated.jpg: damaged or truncated"),
        Case(label: "zero-byte file", arguments: ["import", "Tests/Fixtures/bad/empty.jpg"], message: "empty.jpg: empty file"),
        Case(label: "text file named .jpg", arguments: ["import", "Tests/Fixtures/bad/text.jpg"], message: "text.jpg: not an image"),
        Case(label: "PNG header claiming 100000×100000", arguments: ["import", "Tests/Fixtures/bad/huge-header.png"],
             message: "huge-header.png: image is 100000×100000 = 10000000000 pixels, above the limit of 120000000 pixels"),
        Case(label: "pixel limit from the environment", arguments: ["import", "samples/astronaut.jpg"],
             message: "astronaut.jpg: image is 512×512 = 262144 pixels, above the limit of 1000 pixels (set PHOTOEDIT_MAX_PIXELS",
             environment: ["PHOTOEDIT_MAX_PIXELS": "1000"]),
        // Recipe files.
        Case(label: "malformed JSON recipe", arguments: ["apply", "--recipe", "{RECIPE}", "{A}"], message: "not valid JSON",
             recipe: "{\"format\":\"org.photoedit.recipe\",\"formatVersion\":1,\"filters\":["),
        Case(label: "recipe that is not an object", arguments: ["apply", "--recipe", "{RECIPE}", "{A}"], message: "a recipe is a JSON object",
             recipe: "[1, 2]"),
        Case(label: "recipe with an unknown filter", arguments: ["apply", "--recipe", "{RECIPE}", "{A}"], message: "unknown filter 'glow'",
             recipe: recipe("{\"id\":\"glow\",\"version\":1,\"params\":{}}")),
        Case(label: "recipe with a future filter version", arguments: ["apply", "--recipe", "{RECIPE}", "{A}"],
             message: "filter 'exposure' version 99 is newer than this engine knows",
             recipe: recipe("{\"id\":\"exposure\",\"version\":99,\"params\":{\"ev\":1}}")),
        Case(label: "recipe with a future format version", arguments: ["apply", "--recipe", "{RECIPE}", "{B}"],
             message: "recipe format version 2 is newer than this engine reads",
             recipe: recipe("{\"id\":\"exposure\",\"version\":1,\"params\":{\"ev\":1}}", formatVersion: "2")),
        Case(label: "recipe with another tool's format identifier", arguments: ["apply", "--recipe", "{RECIPE}", "{A}"],
             message: "recipe 'format' must be \"org.photoedit.recipe\"",
             recipe: recipe("", format: "\"com.example.painter\"")),
        Case(label: "recipe with an out-of-range parameter", arguments: ["apply", "--recipe", "{RECIPE}", "{A}"], message: "exposure.ev: 9 is out of range",
             recipe: recipe("{\"id\":\"exposure\",\"version\":1,\"params\":{\"ev\":9}}")),
        Case(label: "recipe with an unknown top-level key", arguments: ["apply", "--recipe", "{RECIPE}", "{A}"], message: "unknown key 'author' in recipe",
             recipe: recipe("", extra: ",\"author\":\"me\"")),
        Case(label: "recipe with an unknown key in a filter node", arguments: ["apply", "--recipe", "{RECIPE}", "{A}"],
             message: "unknown key 'strength' in filter node",
             recipe: recipe("{\"id\":\"exposure\",\"version\":1,\"params\":{\"ev\":1},\"strength\":2}")),
        Case(label: "recipe with an unknown parameter", arguments: ["apply", "--recipe", "{RECIPE}", "{A}"], message: "exposure.gamma: unknown parameter",
             recipe: recipe("{\"id\":\"exposure\",\"version\":1,\"params\":{\"gamma\":2}}")),
        Case(label: "recipe with a filter twice", arguments: ["apply", "--recipe", "{RECIPE}", "{A}"], message: "filter 'exposure' appears twice",
             recipe: recipe("{\"id\":\"exposure\",\"version\":1,\"params\":{\"ev\":1}},{\"id\":\"exposure\",\"version\":1,\"params\":{\"ev\":2}}")),
        Case(label: "recipe on a render base", arguments: ["apply", "--recipe", "{RECIPE}", "{A}"], message: "base \"original\"",
             recipe: "{\"format\":\"org.photoedit.recipe\",\"formatVersion\":1,\"base\":\"render\",\"filters\":[]}"),
        Case(label: "recipe file that does not exist", arguments: ["apply", "--recipe", "{TMP}/no-such-recipe.json", "{A}"],
             message: "cannot read the recipe file"),
        // Ids with paths in them.
        Case(label: "show ../", arguments: ["show", "../{A}"], message: "malformed id '../"),
        Case(label: "apply ../", arguments: ["apply", "exposure=+1", "{A}/../../etc"], message: "malformed id"),
        Case(label: "apply with a good id and a ../ id", arguments: ["apply", "exposure=+1", "{A}", "../../catalog.sqlite"], message: "malformed id"),
        Case(label: "render ../", arguments: ["render", "../../../etc/passwd", "-o", "{TMP}/x.jpg"], message: "malformed id"),
        Case(label: "revert ../", arguments: ["revert", "../{A}"], message: "malformed id"),
        Case(label: "export ../", arguments: ["export", "..", "--resource", "photo", "-o", "{TMP}/x.jpg"], message: "malformed id '..'"),
        Case(label: "favorite ../", arguments: ["favorite", "{B}", "../{A}"], message: "malformed id"),
        Case(label: "delete ../", arguments: ["delete", "./{A}"], message: "malformed id"),
        Case(label: "history ../", arguments: ["history", "{A}/.."], message: "malformed id"),
        // Resources.
        Case(label: "export of a resource type that does not exist", arguments: ["export", "{A}", "--resource", "thumbnail", "-o", "{TMP}/x.jpg"],
             message: "unknown resource type 'thumbnail'"),
        Case(label: "export of a resource the photo lacks", arguments: ["export", "{B}", "--resource", "fullSizePhoto", "-o", "{TMP}/x.jpg"],
             message: "photo has no fullSizePhoto resource"),
        Case(label: "export into a folder that does not exist", arguments: ["export", "{A}", "--resource", "photo", "-o", "{TMP}/no/such/dir/x.jpg"],
             message: "x.jpg"),
        // Change requests.
        Case(label: "purge of a photo that is not deleted", arguments: ["purge", "{A}"], message: "is not deleted"),
        Case(label: "restore of an unknown id", arguments: ["restore", "{B}", "0000000000000000000000000000000f"], message: "no photo with id"),
    ]

    /// Writes the case's recipe and substitutes the placeholders.
    static func arguments(_ c: Case, a: String, b: String, scratch: TemporaryDirectory) throws -> [String] {
        let recipePath = scratch.file("recipe-\(UUID().uuidString.prefix(8)).json")
        if let recipe = c.recipe { try Data(recipe.utf8).write(to: URL(fileURLWithPath: recipePath)) }
        return c.arguments.map {
            $0.replacingOccurrences(of: "{A}", with: a).replacingOccurrences(of: "{B}", with: b)
                .replacingOccurrences(of: "{TMP}", with: scratch.path).replacingOccurrences(of: "{RECIPE}", with: recipePath)
        }
    }

    /// Every case on one library (two photos, one edited), one after the other.
    @Test func everyBadInputChangesNothing() throws {
        let lib = CLILibrary()
        let ids = try lib.importFiles([Paths.sample("coffee.jpg"), Paths.sample("chelsea.jpg")])
        try lib.succeed(["apply", "crop=16:9,exposure=+0.3", ids[0]])
        try lib.succeed(["favorite", ids[0]])
        let scratch = TemporaryDirectory("photoedit-bad-corpus")
        var before = try lib.snapshot(filesFirst: false)
        #expect(before.files.keys.contains { $0.hasPrefix("renders/") } && before.histories.count == 2)
        for c in Self.cases {
            let arguments = try Self.arguments(c, a: ids[0], b: ids[1], scratch: scratch)
            guard let command = arguments.first else { continue }
            let r = try CLI.run([command, "--library", lib.path] + arguments.dropFirst(), environment: c.environment)
            let after = try lib.snapshot(filesFirst: true)
            #expect(r.status != 0, "\(c.label): \(r)")
            #expect(r.stderrLines.count == 1, "\(c.label): exactly one line on stderr: \(r)")
            #expect(r.stderr.hasPrefix("photoedit: error: "), "\(c.label): \(r)")
            #expect(r.stderr.contains(c.message), "\(c.label): stderr should contain «\(c.message)»: \(r.stderr)")
            #expect(r.stdout.isEmpty, "\(c.label): \(r)")
            #expect(after.files == before.files, "\(c.label): files changed: \(fileDifference(before.files, after.files))")
            #expect(after.list == before.list, "\(c.label): list --json changed")
            #expect(after.histories == before.histories, "\(c.label): history --json changed")
            // Only read-only commands ran since `after` hashed the files: it is the next case's "before".
            before = after
        }
        #expect(!FileManager.default.fileExists(atPath: scratch.file("x.jpg")), "no output written by a refused export or render")
        let verify = try lib.run(["verify"])
        #expect(verify.status == 0, "\(verify)")
    }

    /// A truncated JPEG is refused every time, whatever libvips' thread
    /// count (a multi-core machine runs several worker threads).
    @Test func truncatedJPEGIsRefusedEveryTime() throws {
        let scratch = TemporaryDirectory("photoedit-truncated")
        var accepted: [String] = []
        for i in 0..<25 {
            let r = try CLI.run(["import", "--library", scratch.file("library-\(i)"), "Tests/Fixtures/bad/truncated.jpg"],
                                environment: ["VIPS_CONCURRENCY": "4"])
            if r.status == 0 { accepted.append("run \(i): \(r.stdout.trimmingCharacters(in: .whitespacesAndNewlines))") }
            else { #expect(r.stderr.contains("damaged or truncated"), "\(r)") }
        }
        #expect(accepted.isEmpty, "truncated.jpg was imported in \(accepted.count) of 25 runs with VIPS_CONCURRENCY=4: \(accepted.prefix(3))")
    }

    /// `PHOTOEDIT_MAX_PIXELS=1000 photoedit import samples/coffee.jpg` on an empty library.
    @Test func pixelLimitFromTheEnvironmentNamesTheLimit() throws {
        let lib = CLILibrary()
        let r = try CLI.run(["import", "--library", lib.path, "samples/coffee.jpg"], environment: ["PHOTOEDIT_MAX_PIXELS": "1000"])
        #expect(r.status == 1, "\(r)")
        #expect(r.stderrLines == ["photoedit: error: samples/coffee.jpg: image is 600×400 = 240000 pixels, above the limit of 1000 pixels (set PHOTOEDIT_MAX_PIXELS to change it)"], "\(r)")
        #expect(r.stdout.isEmpty)
        #expect(try Hashing.tree(lib.path).keys.filter { !$0.hasPrefix("catalog.sqlite") && $0 != "library.lock" }.isEmpty)
        #expect(try lib.succeed(["list"]).stdout.isEmpty)
        // Without the variable the default limit (120 MP) lets it in.
        try lib.succeed(["import", "samples/coffee.jpg"])
    }

    /// The bad files never leave anything behind in the library's staging
    /// folder or originals, even when imported together with good ones.
    @Test func badFilesAmongGoodOnesImportOnlyTheGoodOnes() throws {
        let lib = CLILibrary()
        let r = try lib.run(["import", "Tests/Fixtures/bad/truncated.jpg", "samples/coffee.jpg", "Tests/Fixtures/bad/empty.jpg",
                             "Tests/Fixtures/bad/huge-header.png", "Tests/Fixtures/bad/text.jpg", "samples/chart.png"])
        #expect(r.status == 1, "\(r)")
        #expect(r.stdoutLines.count == 2 && r.stderrLines.count == 4, "\(r)")
        let files = try Hashing.tree(lib.path)
        #expect(files.keys.filter { $0.hasPrefix("originals/") }.count == 2)
        #expect(files.keys.filter { $0.hasPrefix("tmp/") }.isEmpty, "\(files.keys.sorted())")
        #expect(try lib.run(["verify"]).status == 0)
    }
}
