import Foundation
import Testing
@testable import PhotoEdit

/// apply → render → revert → history through the real binary.
@Suite("CLI: apply, render, revert, history")
struct CLIEditTests {
    /// The chain of the latest revision, as `show --json` prints it.
    static func chain(_ lib: CLILibrary, _ id: String) throws -> String? {
        try lib.show(id)["chain"]?.string
    }

    @Test func applyWorksExactlyAsWritten() throws {
        let lib = CLILibrary()
        let id = try lib.importSample("coffee.jpg")
        let r = try lib.succeed(["apply", "crop,exposure=+0.3", id])
        #expect(r.stdoutLines == ["\(id)\t1"])
        #expect(try Self.chain(lib, id) == "exposure=+0.3,crop")
        #expect(try lib.show(id)["revision"]?.number == 1)
    }

    /// `apply --where` on a folder library edits every photo the query
    /// matches, in the command itself; a bad query, a query matching nothing
    /// or `--as-job` (PostgreSQL libraries only) is one line, exit 1, no change.
    @Test func applyWhereOnAFolderLibrary() throws {
        let lib = CLILibrary()
        let coffee = try lib.importSample("coffee.jpg")
        let chelsea = try lib.importSample("chelsea.jpg")
        let astronaut = try lib.importSample("astronaut.jpg")
        try lib.succeed(["favorite", coffee, astronaut])
        let r = try lib.succeed(["apply", "--where", "favorite", "contrast=+5"])
        #expect(Set(r.stdoutLines) == ["\(coffee)\t1", "\(astronaut)\t1"])
        #expect(try Self.chain(lib, coffee) == "contrast=+5")
        #expect(try lib.show(chelsea)["revision"]?.number == 0, "a photo the query does not match is not edited")
        #if Server
        let asJob = "PostgreSQL"   // jobs need a PostgreSQL library
        #else
        let asJob = "Server trait"   // a photoedit built without it has no jobs
        #endif
        for (arguments, message) in [(["--where", "nonsense>1"], "unknown key"), (["--where", "rating>=4"], "no photo matches"),
                                     (["--where", "favorite", "--as-job"], asJob)] {
            let bad = try lib.run(["apply"] + arguments + ["contrast=+9"])
            #expect(bad.status == 1 && bad.stderrLines.count == 1 && bad.stderr.contains(message), "\(bad)")
        }
        for id in [coffee, chelsea, astronaut] {
            #expect(try lib.history(id).count == (id == chelsea ? 1 : 2), "nothing changed by the refused commands")
        }
    }

    @Test func applyMergesAndResets() throws {
        let lib = CLILibrary()
        let id = try lib.importSample("chelsea.jpg")
        try lib.succeed(["apply", "exposure=+1,crop=0.1:0.1:0.8:0.8", id])
        try lib.succeed(["apply", "exposure=-0.5", id])
        #expect(try Self.chain(lib, id) == "exposure=-0.5,crop=0.1:0.1:0.8:0.8", "a second exposure= replaces the first")
        try lib.succeed(["apply", "crop.w=0.5", id])
        try lib.succeed(["apply", "saturation=+20", id])
        #expect(try Self.chain(lib, id) == "exposure=-0.5,saturation=+20,crop=0.1:0.1:0.5:0.8")
        try lib.succeed(["apply", "crop=16:9", id])
        #expect(try Self.chain(lib, id) == "exposure=-0.5,saturation=+20,crop=16:9", "crop=W:H replaces the rect")
        try lib.succeed(["apply", "--reset", "contrast=+10", id])
        #expect(try Self.chain(lib, id) == "contrast=+10")
        try lib.succeed(["apply", "--remove", "contrast", "tint=5", id])
        #expect(try Self.chain(lib, id) == "tint=+5")
        #expect(try lib.show(id)["revision"]?.number == 7)
        #expect(try lib.history(id).count == 8)
    }

    @Test func applyToSeveralIds() throws {
        let lib = CLILibrary()
        let ids = try lib.importFiles([Paths.sample("coffee.jpg"), Paths.sample("astronaut.jpg"), Paths.sample("chart.png")])
        try lib.succeed(["apply", "saturation=-50", ids[2]])
        let r = try lib.succeed(["apply", "exposure=+0.3,rotate", ids[0], String(ids[1].prefix(12)), ids[2]])
        #expect(r.stdoutLines == ["\(ids[0])\t1", "\(ids[1])\t1", "\(ids[2])\t2"])
        #expect(r.stderr.isEmpty, "not a terminal: no progress drawn, nothing on stderr: \(r.stderr)")
        #expect(try Self.chain(lib, ids[0]) == "exposure=+0.3,rotate=90")
        #expect(try Self.chain(lib, ids[2]) == "exposure=+0.3,saturation=-50,rotate=90")
        #expect(try lib.show(ids[0])["pixelWidth"]?.number == 400, "rotated")
    }

    @Test func historyAndRevert() throws {
        let lib = CLILibrary()
        let id = try lib.importSample("coffee.jpg")
        try lib.succeed(["apply", "exposure=+1", id])                 // 1
        try lib.succeed(["apply", "crop=16:9", id])                   // 2
        try lib.succeed(["apply", "saturation=-100", id])             // 3
        let revert = try lib.succeed(["revert", id])                  // 4
        #expect(revert.stdoutLines == ["\(id)\t4"])
        var shown = try lib.show(id)
        #expect(shown["revision"]?.number == 4)
        #expect(shown["adjustmentData"]?.isNull == true)
        #expect(shown["pixelWidth"]?.number == 600 && shown["pixelHeight"]?.number == 400)

        try lib.succeed(["revert", "--to", "2", id])                  // 5
        shown = try lib.show(id)
        #expect(shown["revision"]?.number == 5)
        #expect(shown["chain"]?.string == "exposure=+1,crop=16:9")
        #expect(shown["pixelHeight"]?.number == 338)

        let history = try lib.history(id)
        #expect(history.compactMap { $0["number"]?.number } == [0, 1, 2, 3, 4, 5])
        #expect(history.map { $0["chain"]?.string } == [nil, "exposure=+1", "exposure=+1,crop=16:9", "exposure=+1,saturation=-100,crop=16:9",
                                                     nil, "exposure=+1,crop=16:9"])
        #expect(history.map { $0["kind"]?.string } == ["import", "edit", "edit", "edit", "revert", "revert"])
        #expect(history.map { $0["current"]?.bool } == [false, false, false, false, false, true])
        #expect(history[5]["adjustmentData"] == history[2]["adjustmentData"], "revert --to restores revision 2's adjustment data")
        #expect(history[0]["adjustmentData"]?.isNull == true && history[4]["adjustmentData"]?.isNull == true)
        let formats = history.compactMap { $0["adjustmentData"]?.object?["formatIdentifier"]?.string }
        #expect(formats == Array(repeating: "org.photoedit.recipe", count: 4))

        let text = try lib.succeed(["history", id]).stdoutLines
        #expect(text.count == 6)
        #expect(text.filter { $0.hasPrefix("*") }.count == 1 && text[5].hasPrefix("* 5\t"))
        #expect(text[0].contains("(original)") && text[3].contains("org.photoedit.recipe 1") && text[3].contains("exposure=+1,saturation=-100,crop=16:9"))

        // Revert to the import: no adjustments again.
        try lib.succeed(["revert", "--to", "0", id])                  // 6
        #expect(try lib.show(id)["adjustmentData"]?.isNull == true)
        // A revision that does not exist.
        let bad = try lib.run(["revert", "--to", "9", id])
        #expect(bad.status != 0)
        #expect(bad.stderrLines == ["photoedit: error: photo \(id) has no revision 9 (revisions are 0…6)"], "\(bad)")
    }

    /// Several processes editing one photo at once: every edit lands (the
    /// library merges a chain again on top of a revision committed
    /// meanwhile), each as its own revision.
    @Test func concurrentAppliesFromSeveralProcessesAreAllKept() throws {
        let lib = CLILibrary()
        let id = try lib.importSample("chelsea.jpg")
        let chains = ["exposure=+0.5", "contrast=+20", "saturation=-30", "tint=+10"]
        let results = Locked<[CLIResult]>([])
        DispatchQueue.concurrentPerform(iterations: chains.count) { i in
            if let r = try? lib.run(["apply", chains[i], id]) { results.mutate { $0.append(r) } }
        }
        let all = results.value
        #expect(all.count == chains.count)
        for r in all { #expect(r.succeeded, "\(r)") }
        let shown = try lib.show(id)
        #expect(shown["revision"]?.number == Double(chains.count))
        #expect(shown["chain"]?.string == "tint=+10,exposure=+0.5,contrast=+20,saturation=-30", "no edit lost, in pipeline order")
        let numbers = try lib.history(id).compactMap { $0["number"]?.number }
        #expect(numbers == [0, 1, 2, 3, 4])
    }

    @Test func revertToRebuildsTheSameRender() throws {
        let lib = CLILibrary()
        let id = try lib.importSample("astronaut.jpg")
        try lib.succeed(["apply", "contrast=+30,crop=0.2:0.2:0.5:0.5", id])
        try lib.succeed(["render", id, "-o", lib.temp.file("rev1.png")])
        try lib.succeed(["apply", "--reset", "flip", id])
        try lib.succeed(["revert", "--to", "1", id])
        try lib.succeed(["render", id, "-o", lib.temp.file("rev3.png")])
        let (max, mean) = try Pixels.deltaE(lib.temp.file("rev1.png"), lib.temp.file("rev3.png"))
        #expect(max < 0.01 && mean < 0.001, "max \(max), mean \(mean)")
    }

    /// (format, magic bytes at offset 0 or 8).
    static func fileFormat(_ path: String) throws -> String {
        let d = try Data(contentsOf: URL(fileURLWithPath: path))
        if d.starts(with: [0xFF, 0xD8, 0xFF]) { return "jpeg" }
        if d.starts(with: [0x89, 0x50, 0x4E, 0x47]) { return "png" }
        if d.starts(with: [0x49, 0x49, 0x2A, 0x00]) || d.starts(with: [0x4D, 0x4D, 0x00, 0x2A]) { return "tiff" }
        if d.count > 12, d.starts(with: Array("RIFF".utf8)), d[8..<12] == Data("WEBP".utf8) { return "webp" }
        return "unknown"
    }

    @Test func renderVersionsSizesAndFormats() throws {
        let lib = CLILibrary()
        let id = try lib.importSample("coffee.jpg")
        try lib.succeed(["apply", "exposure=+1", id])
        for (name, format) in [("a.jpg", "jpeg"), ("b.JPEG", "jpeg"), ("c.png", "png"), ("d.tif", "tiff"), ("e.tiff", "tiff"),
                               ("f.webp", "webp"), ("noextension", "jpeg")] {
            try lib.succeed(["render", id, "-o", lib.temp.file(name)])
            #expect(try Self.fileFormat(lib.temp.file(name)) == format, "\(name)")
        }
        for format in ["png", "tiff", "webp", "jpeg"] {
            let out = lib.temp.file("forced-\(format).img.jpg")
            try lib.succeed(["render", id, "-o", out, "--format", format])
            #expect(try Self.fileFormat(out) == format, "--format \(format) wins over the extension")
        }
        for (version, sizeArguments) in [("unadjusted", [String]()), ("current", ["--size", "500"])] {
            let (small, large) = try Self.qualitySizes(lib, id, version: version, extra: sizeArguments)
            #expect(small > 0 && small * 2 < large, "--quality of \(version): \(small) bytes at 20, \(large) at 95")
        }
        try lib.succeed(["render", id, "-o", lib.temp.file("s1.png"), "--size", "100"])
        var image = try Pixels.load(lib.temp.file("s1.png"))
        #expect(image.width == 100 && image.height == 67)
        try lib.succeed(["render", id, "-o", lib.temp.file("s2.png"), "--size", "300x50"])
        image = try Pixels.load(lib.temp.file("s2.png"))
        #expect(image.width == 75 && image.height == 50)
        try lib.succeed(["render", id, "-o", lib.temp.file("s3.png"), "--size", "2000x2000"])
        image = try Pixels.load(lib.temp.file("s3.png"))
        #expect(image.width == 600 && image.height == 400, "never enlarges")

        // current is brighter than unadjusted; original is the file itself.
        try lib.succeed(["render", id, "-o", lib.temp.file("cur.png"), "--version", "current"])
        try lib.succeed(["render", id, "-o", lib.temp.file("unadj.png"), "--version", "unadjusted"])
        try lib.succeed(["render", id, "-o", lib.temp.file("orig.jpg"), "--version", "original"])
        let current = try Pixels.load(lib.temp.file("cur.png")).average()
        let unadjusted = try Pixels.load(lib.temp.file("unadj.png")).average()
        #expect(current > unadjusted + 20, "exposure +1: \(current) vs \(unadjusted)")
        #expect(try Hashing.sha256(lib.temp.file("orig.jpg")) == (try Hashing.sha256(Paths.sample("coffee.jpg"))))
        let (max, _) = try Pixels.deltaE(lib.temp.file("unadj.png"), Paths.sample("coffee.jpg"))
        #expect(max < 0.5, "unadjusted is the original's pixels: max ΔE \(max)")

        for bad in [["-o", lib.temp.file("x.bmp")], ["-o", lib.temp.file("x.jpg"), "--version", "newest"],
                    ["-o", lib.temp.file("x.jpg"), "--size", "0"], ["-o", lib.temp.file("x.jpg"), "--format", "gif"],
                    ["-o", lib.temp.file("x.jpg"), "--quality", "0"]] {
            let r = try lib.run(["render", id] + bad)
            #expect(r.status != 0, "\(r)")
            #expect(r.stderrLines.count == 1, "\(r)")
            #expect(!FileManager.default.fileExists(atPath: lib.temp.file("x.bmp")) && !FileManager.default.fileExists(atPath: lib.temp.file("x.jpg")))
        }
    }

    /// Sizes of JPEG renders at --quality 20 and 95.
    static func qualitySizes(_ lib: CLILibrary, _ id: String, version: String, extra: [String] = []) throws -> (Int, Int) {
        var sizes: [Int] = []
        for q in ["20", "95"] {
            let out = lib.temp.file("\(version)-q\(q)-\(extra.joined()).jpg")
            try lib.succeed(["render", id, "-o", out, "--version", version, "--quality", q] + extra)
            sizes.append(try FileManager.default.attributesOfItem(atPath: out)[.size] as? Int ?? 0)
        }
        return (sizes[0], sizes[1])
    }

    /// At full size, `render --version current` to a JPEG copies the stored
    /// render (saved at quality 92) and ignores --quality.
    @Test func qualityOfAFullSizeCurrentJPEG() throws {
        let lib = CLILibrary()
        let id = try lib.importSample("coffee.jpg")
        try lib.succeed(["apply", "exposure=+1", id])
        let (small, large) = try Self.qualitySizes(lib, id, version: "current")
        #expect(small > 0 && large > 0)
        do {
            #expect(small * 2 < large, "--quality 20 gave \(small) bytes, --quality 95 gave \(large)")
        }
    }

    @Test func renderedJPEGIsUprightSRGBWithOrientationOne() throws {
        let lib = CLILibrary()
        let rotated = try lib.importSample("rotated-exif.jpg")
        let coffee = try lib.importSample("coffee.jpg")
        // Unedited and edited, stored render and rebuilt.
        try lib.succeed(["render", rotated, "-o", lib.temp.file("r0.jpg")])
        try lib.succeed(["render", coffee, "-o", lib.temp.file("c0.jpg")])
        try lib.succeed(["apply", "exposure=+0.5", rotated, coffee])
        try lib.succeed(["render", rotated, "-o", lib.temp.file("r1.jpg")])
        try lib.succeed(["render", coffee, "-o", lib.temp.file("c1.jpg")])
        try lib.succeed(["render", rotated, "-o", lib.temp.file("r1-small.jpg"), "--size", "300"])
        try lib.succeed(["render", rotated, "-o", lib.temp.file("r-unadjusted.jpg"), "--version", "unadjusted"])
        for name in ["r0.jpg", "r1.jpg", "r1-small.jpg", "r-unadjusted.jpg", "c1.jpg"] {
            let image = try Pixels.load(lib.temp.file(name))
            #expect(image.int("orientation") == 1, "\(name): orientation \(String(describing: image.int("orientation")))")
            let profile = try #require(image.blob("icc-profile-data"), "\(name) has no ICC profile")
            #expect(ICCProfile.isSRGB(profile), "\(name): profile \(ICCProfile.description(profile) ?? "?")")
            #expect(image.width == (name == "r1-small.jpg" ? 300 : 600), "\(name): \(image.width)×\(image.height)")
            if name.hasPrefix("r") {
                // Other EXIF is kept.
                #expect(image.string("exif-ifd0-Make")?.hasPrefix("PhotoEdit") == true, "\(name) lost EXIF Make")
            }
        }
        // Upright: rotated-exif.jpg is coffee.jpg stored turned; its renders match coffee's.
        for (r, c) in [("r0.jpg", "c0.jpg"), ("r1.jpg", "c1.jpg")] {
            let (_, mean) = try Pixels.deltaE(lib.temp.file(r), lib.temp.file(c))
            #expect(mean < 1.5, "\(r) vs \(c): mean ΔE \(mean), so it is not upright")
        }
        // The original version keeps the file's own orientation; a PNG of it is upright.
        try lib.succeed(["render", rotated, "-o", lib.temp.file("orig.png"), "--version", "original"])
        let original = try Pixels.load(lib.temp.file("orig.png"))
        #expect(original.width == 600 && original.height == 400)
    }

    @Test func originalsAreReadOnlyAndUnchanged() throws {
        let lib = CLILibrary()
        let ids = try lib.importFiles([Paths.sample("coffee.jpg"), Paths.sample("rotated-exif.jpg"), Paths.sample("chelsea-16bit.png")])
        for id in ids {
            try lib.succeed(["apply", "crop=0.1:0.1:0.5:0.5,exposure=+1,rotate=90", id])
            try lib.succeed(["apply", "flip", id])
            try lib.succeed(["revert", id])
            try lib.succeed(["render", id, "-o", lib.temp.file("\(id).png"), "--version", "original"])
        }
        let originals = try Hashing.tree(lib.path).filter { $0.key.hasPrefix("originals/") }
        #expect(originals.count == 3)
        let sampleHashes = try Set(["coffee.jpg", "rotated-exif.jpg", "chelsea-16bit.png"].map { try Hashing.sha256(Paths.sample($0)) })
        #expect(Set(originals.values) == sampleHashes)
        for (relative, hash) in originals {
            // Content-addressed: the name is the hash of the bytes.
            #expect((relative as NSString).lastPathComponent.hasPrefix(hash), "\(relative)")
            let attributes = try FileManager.default.attributesOfItem(atPath: lib.path + "/" + relative)
            let mode = try #require(attributes[.posixPermissions] as? Int)
            #expect(mode & 0o222 == 0, "\(relative) is writable: \(String(mode, radix: 8))")
        }
        // Renders of edits are stored too, read-only.
        let renders = try Hashing.tree(lib.path).keys.filter { $0.hasPrefix("renders/") }
        #expect(renders.count == 6)
    }

    @Test func currentIsRebuiltWhenItsRenderIsMissing() throws {
        let lib = CLILibrary()
        let id = try lib.importSample("chelsea.jpg")
        try lib.succeed(["apply", "saturation=-100,crop=16:9", id])
        try lib.succeed(["render", id, "-o", lib.temp.file("stored.png")])
        let renders = try Hashing.tree(lib.path).keys.filter { $0.hasPrefix("renders/") }
        #expect(renders.count == 1)
        for r in renders { try FileManager.default.removeItem(atPath: lib.path + "/" + r) }
        try lib.succeed(["render", id, "-o", lib.temp.file("rebuilt.png")])
        let (max, mean) = try Pixels.deltaE(lib.temp.file("stored.png"), lib.temp.file("rebuilt.png"))
        #expect(max < 5 && mean < 0.77, "rebuilt render differs: max \(max) mean \(mean)")
        let image = try Pixels.load(lib.temp.file("rebuilt.png"))
        #expect(image.width == 451 && image.height == 254)
    }
}
