import Foundation
import Testing
@testable import PhotoEdit

/// `photoedit import`, `list`, `show` and id prefixes, through the real binary.
@Suite("CLI: import, list, show, ids")
struct CLIImportTests {
    static func isID(_ s: String) -> Bool { s.count == 32 && s.allSatisfy { $0.isHexDigit && !$0.isUppercase } }

    @Test func binaryIsFound() throws {
        let url = try CLI.binary.get()
        #expect(url.lastPathComponent == "photoedit")
        let help = try CLI.run(["--help"])
        #expect(help.succeeded)
        for command in ["import", "list", "show", "filters", "apply", "render", "revert", "history"] {
            #expect(help.stdout.contains(command), "--help lists \(command)")
        }
    }

    @Test func importPrintsIdTabPath() throws {
        let lib = CLILibrary()
        let paths = ["samples/coffee.jpg", "samples/chelsea.jpg", "samples/chart.png"]
        let r = try lib.succeed(["import"] + paths)
        let lines = r.stdoutLines
        #expect(lines.count == 3)
        for (line, path) in zip(lines, paths) {
            let fields = line.split(separator: "\t", omittingEmptySubsequences: false).map(String.init)
            #expect(fields.count == 2, "\(line)")
            #expect(Self.isID(fields[0]), "\(line)")
            #expect(fields.last == path)
        }
        #expect(Set(lines.map { $0.prefix(32) }).count == 3, "distinct photos get distinct ids")
        #expect(r.stderr.isEmpty, "\(r.stderr)")
    }

    @Test func importJSONAndDuplicates() throws {
        let lib = CLILibrary()
        let first = try lib.succeed(["import", "--json", "samples/coffee.jpg"])
        let entries = try #require(try first.json().array)
        #expect(entries.count == 1)
        let entry = try #require(entries.first?.object)
        #expect(Set(entry.keys) == ["id", "path", "duplicate"])
        let id = try #require(entry["id"]?.string)
        #expect(Self.isID(id))
        #expect(entry["path"]?.string == "samples/coffee.jpg")
        #expect(entry["duplicate"]?.bool == false)

        // Same bytes again, under the same and under another name.
        let copy = lib.temp.file("renamed.jpeg")
        try FileManager.default.copyItem(atPath: Paths.sample("coffee.jpg"), toPath: copy)
        let again = try lib.succeed(["import", "--json", "samples/coffee.jpg", copy, "samples/astronaut.jpg"])
        let list = try #require(try again.json().array?.compactMap(\.object))
        #expect(list.count == 3)
        #expect(list[0]["id"]?.string == id && list[0]["duplicate"]?.bool == true)
        #expect(list[1]["id"]?.string == id && list[1]["duplicate"]?.bool == true)
        #expect(list[1]["path"]?.string == copy)
        #expect(list[2]["id"]?.string != id && list[2]["duplicate"]?.bool == false)
        #expect(again.stderrLines.count == 2, "each duplicate is noted on stderr: \(again.stderr)")
        #expect(again.stderr.contains(id))

        // Text output of a duplicate: the existing id.
        let text = try lib.succeed(["import", "samples/coffee.jpg"])
        #expect(text.stdoutLines == ["\(id)\tsamples/coffee.jpg"])
        let assets = try #require(try lib.succeed(["list", "--json"]).json().array)
        #expect(assets.count == 2)
    }

    @Test func folderWithGoodAndBadFiles() throws {
        let lib = CLILibrary()
        let folder = lib.temp.url.appendingPathComponent("incoming")
        let sub = folder.appendingPathComponent("sub/deeper")
        try FileManager.default.createDirectory(at: sub, withIntermediateDirectories: true)
        let copies: [(String, URL)] = [
            (Paths.sample("coffee.jpg"), folder.appendingPathComponent("a-coffee.jpg")),
            (Paths.sample("chart.png"), folder.appendingPathComponent("b-chart.png")),
            (Paths.sample("chelsea.jpg"), sub.appendingPathComponent("c-chelsea.jpg")),
            (Paths.bad("truncated.jpg"), folder.appendingPathComponent("d-truncated.jpg")),
            (Paths.bad("empty.jpg"), folder.appendingPathComponent("e-empty.jpg")),
            (Paths.bad("text.jpg"), sub.appendingPathComponent("f-text.jpg")),
            (Paths.bad("not-an-image.txt"), folder.appendingPathComponent("notes.txt")),  // not a photo name: skipped
        ]
        for (from, to) in copies { try FileManager.default.copyItem(atPath: from, toPath: to.path) }
        let r = try lib.run(["import", folder.path])
        #expect(r.status != 0, "\(r)")
        let imported = r.stdoutLines.map { String($0.split(separator: "\t")[1]) }
        #expect(imported.map { ($0 as NSString).lastPathComponent }.sorted() == ["a-coffee.jpg", "b-chart.png", "c-chelsea.jpg"], "\(r)")
        let errors = r.stderrLines
        #expect(errors.count == 3, "one line per bad file: \(r.stderr)")
        for name in ["d-truncated.jpg", "e-empty.jpg", "f-text.jpg"] {
            #expect(errors.filter { $0.contains(name) }.count == 1, "\(name) reported once: \(r.stderr)")
        }
        #expect(!r.stderr.contains("notes.txt"))
        #expect(errors.allSatisfy { $0.hasPrefix("photoedit: error: ") })
        let assets = try #require(try lib.succeed(["list", "--json"]).json().array)
        #expect(assets.count == 3)
    }

    @Test func everyBadFileIsRefusedWithItsReason() throws {
        let lib = CLILibrary()
        let expectations: [(String, String)] = [
            ("truncated.jpg", "truncated"), ("empty.jpg", "empty file"), ("text.jpg", "not an image"),
            ("not-an-image.txt", "not an image"), ("huge-header.png", "above the limit"),
            ("imagemagick-pixels.txt", "not a photo format"),
        ]
        for (file, reason) in expectations {
            let r = try lib.run(["import", Paths.bad(file)])
            #expect(r.status != 0, "\(r)")
            #expect(r.stdout.isEmpty, "\(r)")
            #expect(r.stderrLines.count == 1, "\(r)")
            #expect(r.stderr.contains(file) && r.stderr.contains(reason), "\(r)")
        }
        let missing = try lib.run(["import", lib.temp.file("no/such/folder")])
        #expect(missing.status != 0)
        #expect(missing.stderrLines.count == 1 && missing.stderr.contains("no such file or folder"), "\(missing)")
    }

    @Test func showAndListJSON() throws {
        let lib = CLILibrary()
        let id = try lib.importSample("coffee.jpg")
        let before = try lib.show(id)
        for key in ["id", "pixelWidth", "pixelHeight", "orientation", "revision", "adjustmentData", "originalFilename",
                    "sha256", "format", "mediaType", "creationDate", "location"] {
            #expect(before[key] != nil, "show --json has \(key)")
        }
        #expect(before["id"]?.string == id)
        #expect(before["pixelWidth"]?.number == 600 && before["pixelHeight"]?.number == 400)
        #expect(before["orientation"]?.number == 1)
        #expect(before["revision"]?.number == 0)
        #expect(before["adjustmentData"]?.isNull == true)
        #expect(before["format"]?.string == "jpeg")
        #expect(before["originalFilename"]?.string == "coffee.jpg")
        #expect(before["sha256"]?.string == (try Hashing.sha256(Paths.sample("coffee.jpg"))))

        try lib.succeed(["apply", "crop=16:9,exposure=+0.5", id])
        let after = try lib.show(id)
        #expect(after["revision"]?.number == 1)
        let data = try #require(after["adjustmentData"]?.object)
        #expect(data["formatIdentifier"]?.string == "org.photoedit.recipe")
        #expect(data["formatVersion"]?.string == "1")
        let blob = try #require(data["data"]?.string)
        let decoded = try Recipe(adjustmentData: AdjustmentData(formatIdentifier: "org.photoedit.recipe", formatVersion: "1", data: Data(blob.utf8)))
        #expect(decoded == (try recipe("crop=16:9,exposure=+0.5")))
        #expect(after["pixelWidth"]?.number == 600 && after["pixelHeight"]?.number == 338, "size of the current version")

        let list = try #require(try lib.succeed(["list", "--json"]).json().array?.compactMap(\.object))
        #expect(list.count == 1)
        #expect(list.first?["id"]?.string == id)
        #expect(list.first?["adjustmentData"] == after["adjustmentData"])
        #expect(list.first?["revision"]?.number == 1)

        let text = try lib.succeed(["list"])
        #expect(text.stdoutLines == ["\(id)\t1\t600x338\tjpeg\tcoffee.jpg"])
        let showText = try lib.succeed(["show", id])
        #expect(showText.stdout.contains("exposure=+0.5,crop=16:9"))
    }

    @Test func rotatedExifMetadata() throws {
        let lib = CLILibrary()
        let id = try lib.importSample("rotated-exif.jpg")
        let a = try lib.show(id)
        #expect(a["orientation"]?.number == 6)
        #expect(a["pixelWidth"]?.number == 600)
        #expect(a["pixelHeight"]?.number == 400)
        #expect(a["creationDate"]?.string?.hasPrefix("2021-06-15T14:30:00") == true, "\(String(describing: a["creationDate"]))")
        let location = try #require(a["location"]?.object)
        #expect(abs((location["latitude"]?.number ?? 0) - 48.8584) < 1e-4)
        #expect(abs((location["longitude"]?.number ?? 0) - 2.2945) < 1e-4)
        // A photo without EXIF date or GPS has nulls.
        let plain = try lib.show(try lib.importSample("coffee.jpg"))
        #expect(plain["creationDate"]?.isNull == true)
        #expect(plain["location"]?.isNull == true)
    }

    @Test func idPrefixes() throws {
        let lib = CLILibrary()
        let ids = try lib.importFiles([Paths.sample("coffee.jpg"), Paths.sample("chelsea.jpg"), Paths.sample("astronaut.jpg")])
        for id in ids {
            // The shortest prefix no other id shares.
            let length = (1...32).first { n in ids.filter { $0.hasPrefix(id.prefix(n)) }.count == 1 }!
            let prefix = String(id.prefix(length))
            #expect(try lib.show(prefix)["id"]?.string == id, "prefix \(prefix)")
            #expect(try lib.show(id.uppercased())["id"]?.string == id, "ids are case-insensitive")
            let history = try lib.succeed(["history", prefix])
            #expect(history.stdoutLines.count == 1)
        }
        // Unknown: a full id and a first digit no photo starts with.
        let unusedDigit = try #require("0123456789abcdef".first { d in !ids.contains { $0.first == d } })
        for unknown in [String(repeating: unusedDigit, count: 32), String(unusedDigit)] {
            let r = try lib.run(["show", unknown])
            #expect(r.status != 0)
            #expect(r.stderrLines == ["photoedit: error: no photo with id '\(unknown)'"], "\(r)")
            #expect(r.stdout.isEmpty)
        }
        for malformed in ["../x", "../../etc/passwd", "abc/def", "xyz", String(repeating: "a", count: 33)] {
            let r = try lib.run(["show", malformed])
            #expect(r.status != 0)
            #expect(r.stderrLines.count == 1 && r.stderr.contains("malformed id"), "\(r)")
        }
    }

    @Test func ambiguousPrefix() throws {
        let lib = CLILibrary()
        let (ids, prefix) = try lib.importSyntheticPhotosSharingAPrefix()
        let r = try lib.run(["show", prefix])
        #expect(r.status != 0)
        #expect(r.stderrLines.count == 1, "\(r)")
        #expect(r.stderr.contains("ambiguous"), "\(r)")
        let sharing = ids.filter { $0.hasPrefix(prefix) }
        #expect(sharing.count >= 2)
        #expect(sharing.sorted().prefix(5).allSatisfy { r.stderr.contains($0) }, "the message lists the first candidates by id: \(r.stderr)")
    }

    /// Every sample format Debian's libvips loads imports with its format,
    /// display size and orientation, and renders upright.
    @Test func importsEverySampleFormat() throws {
        let lib = CLILibrary()
        let expected: [String: (format: String, width: Int, height: Int, orientation: Int)] = [
            "astronaut.jpg": ("jpeg", 512, 512, 1), "astronaut.webp": ("webp", 384, 384, 1), "chart.png": ("png", 512, 256, 1),
            "chelsea-16bit.png": ("png", 338, 225, 1), "chelsea.avif": ("avif", 451, 300, 1), "chelsea.jpg": ("jpeg", 451, 300, 1),
            "coffee.heic": ("heif", 600, 400, 1), "coffee.jpg": ("jpeg", 600, 400, 1), "coffee.tif": ("tiff", 512, 341, 1),
            "rotated-exif.jpg": ("jpeg", 600, 400, 6),
        ]
        let r = try lib.succeed(["import", "samples"])
        #expect(r.stdoutLines.count == expected.count, "\(r)")
        for line in r.stdoutLines {
            let fields = line.split(separator: "\t").map(String.init)
            let name = (fields[1] as NSString).lastPathComponent
            let want = try #require(expected[name], "unexpected import \(name)")
            let a = try lib.show(fields[0])
            #expect(a["format"]?.string == want.format, "\(name)")
            #expect(a["pixelWidth"]?.number == Double(want.width) && a["pixelHeight"]?.number == Double(want.height), "\(name)")
            #expect(a["orientation"]?.number == Double(want.orientation), "\(name)")
            #expect(a["mediaType"]?.string == "image")
            let out = lib.temp.file("\(name).png")
            try lib.succeed(["render", fields[0], "-o", out, "--version", "unadjusted"])
            let image = try Pixels.load(out)
            #expect(image.width == want.width && image.height == want.height, "\(name) renders \(image.width)×\(image.height)")
            #expect(image.bands == 3 && image.formatName == "uchar", "\(name): 8-bit sRGB")
        }
    }

    @Test func filtersCommandListsTheRegistry() throws {
        let text = try CLI.run(["filters"])
        #expect(text.succeeded)
        for f in FilterRegistry.standard.filters {
            #expect(text.stdout.contains("\(f.id) (version \(f.version)"))
            for p in f.parameters { #expect(text.stdout.contains("\(f.id).\(p.name)")) }
        }
        let json = try #require(try CLI.run(["filters", "--json"]).json().array?.compactMap(\.object))
        #expect(json.compactMap { $0["id"]?.string } == FilterRegistry.standard.ids)
        // Parameters as data, the same JSON as the HTTP API's /v1/filters.
        let exposure = try #require(json.first { $0["id"]?.string == "exposure" }?["parameters"]?.array?.first?.object)
        #expect(exposure["type"]?.string == "number" && exposure["min"] == .number(-5) && exposure["max"] == .number(5))
        #expect(exposure["step"] == .null && exposure["description"]?.string == exposure["summary"]?.string)
        // The list filters carry their structure, as /v1/filters gives it.
        let local = try #require(json.first { $0["id"]?.string == "local" })
        #expect(local["structure"] == Filters.local.structureDescription)
        let shapes = local["structure"]?.object?["shapes"]?.array?.compactMap { $0.object?["type"]?.string }
        #expect(shapes == ["linear", "radial", "brush", "luminance", "colour"])
        #expect(json.first { $0["id"]?.string == "retouch" }?["structure"] == Filters.retouch.structureDescription)
        #expect(json.first { $0["id"]?.string == "exposure" }?["structure"] == nil)
    }
}
