import Foundation
import Testing
@testable import PhotoEdit

/// The crash test of issue 3 §4(a): `photoedit` processes doing imports,
/// applies, reverts and metadata changes (tag, rate) are SIGKILLed at random
/// moments, many times in a row;
/// after each kill the library must verify clean, every revision committed
/// before the kill must be unchanged, and the current version must render.
/// `scripts/soak` runs the same loop for as long as you like.
///
/// Iterations: `PHOTOEDIT_CRASH_ITERATIONS` (default 20). The random seed is
/// printed; `PHOTOEDIT_TEST_SEED=N` replays a run.
@Suite("Crash: SIGKILL at random moments loses nothing")
struct CrashTests {
    /// `history --json` with the `current` flag left out (it moves when a revision is added).
    static func revisions(_ lib: CLILibrary, _ id: String) throws -> [JSONValue] {
        guard case .array(let items) = try lib.succeed(["history", "--json", id]).json() else { throw CLIError("history is not an array") }
        return items.map { item in
            guard case .object(var o) = item else { return item }
            o.removeValue(forKey: "current")
            return .object(o)
        }
    }

    static func listedIDs(_ lib: CLILibrary) throws -> [String] {
        guard case .array(let items) = try lib.succeed(["list", "--json", "--hidden"]).json() else { throw CLIError("list is not an array") }
        return items.compactMap { $0.object?["id"]?.string }
    }

    @Test func killedAtRandomMomentsLosesNothing() throws {
        let seed = SeededGenerator.seedFromEnvironment()
        var rng = SeededGenerator(seed: seed)
        let iterations = ProcessInfo.processInfo.environment["PHOTOEDIT_CRASH_ITERATIONS"].flatMap(Int.init) ?? 20
        print("crash test: seed \(seed) (replay with PHOTOEDIT_TEST_SEED=\(seed)), \(iterations) iterations")

        let lib = CLILibrary()
        let ids = try lib.importFiles([Paths.sample("coffee.jpg"), Paths.sample("chelsea.jpg"), Paths.sample("rotated-exif.jpg")])
        try lib.succeed(["apply", "exposure=+0.3", ids[0]])
        try lib.succeed(["apply", "crop=16:9", ids[2]])
        let chains = ["exposure=+0.3", "crop=16:9,contrast=+20", "saturation=-50,temperature=+30", "rotate=90,crop=0.1:0.1:0.8:0.8", "tint=+10"]

        var histories: [String: [JSONValue]] = [:]
        for id in ids { histories[id] = try Self.revisions(lib, id) }
        var listed = try Self.listedIDs(lib)
        var killedMidway = 0
        var completed: [String: Int] = [:], killed: [String: Int] = [:]

        for i in 0..<iterations {
            let id = ids[Int.random(in: 0..<ids.count, using: &rng)]
            var arguments: [String]
            switch Int.random(in: 0..<5, using: &rng) {
            case 0:
                let png = lib.temp.file("generated-\(i).png")
                try Pixels.writeSyntheticPNG(to: png, seed: 1000 + i, width: 320, height: 200)
                arguments = ["import", "--library", lib.path, png]
            case 1:
                arguments = ["revert", "--library", lib.path, id]
            case 2:
                // A metadata change: its record on disk and its row agree after any kill.
                arguments = i % 2 == 0 ? ["tag", "--library", lib.path, "Run \(i)", id] : ["rate", "--library", lib.path, String(i % 6), id]
            default:
                arguments = ["apply", "--library", lib.path, chains[Int.random(in: 0..<chains.count, using: &rng)], id]
            }
            // 0–250 ms, skewed to short delays (u² × 250 ms, median ≈ 62 ms) so
            // that most kills land while the command runs, even on a fast machine.
            let u = Double.random(in: 0...1, using: &rng)
            let delay = UInt32(u * u * 250_000)
            let process = try RawProcess(arguments)
            usleep(delay)
            process.killIfRunning()
            let outcome = process.wait()
            let command = arguments[0]
            let label = "run \(i) (\(arguments.joined(separator: " ")), kill after \(delay / 1000) ms, seed \(seed))"
            if outcome.killed {
                killedMidway += 1
                killed[command, default: 0] += 1
            } else {
                completed[command, default: 0] += 1
                #expect(outcome.status == 0, "\(label): exited \(outcome.status)")
            }

            // The library is consistent (opening it for verify runs recovery).
            let verify = try lib.run(["verify"])
            #expect(verify.status == 0 && verify.stderr.contains("library is consistent"), "\(label): \(verify)")
            #expect(verify.stdout.isEmpty, "\(label): \(verify)")

            // Every revision committed before the kill is unchanged; at most one was added, and only to the target.
            for other in ids {
                let before = histories[other] ?? []
                let after = try Self.revisions(lib, other)
                #expect(Array(after.prefix(before.count)) == before, "\(label): earlier revisions of \(other) changed")
                let touched = other == id && (command == "apply" || command == "revert")
                if !touched {
                    #expect(after.count == before.count, "\(label): \(other) gained revisions")
                } else if outcome.killed {
                    #expect(after.count == before.count || after.count == before.count + 1, "\(label): \(after.count) revisions, had \(before.count)")
                } else {
                    #expect(after.count == before.count + 1, "\(label): the completed command's revision is missing")
                }
                histories[other] = after
            }

            // A completed metadata change is there.
            if command == "tag" && !outcome.killed {
                #expect(try lib.show(id)["keywords"]?.array?.contains(.string("Run \(i)")) == true, "\(label): the keyword is missing")
            } else if command == "rate" && !outcome.killed {
                #expect(try lib.show(id)["rating"] == .number(Double(i % 6)), "\(label): the rating is missing")
            }

            // Photos: none lost; an import adds at most one (exactly one if it completed).
            let nowListed = try Self.listedIDs(lib)
            #expect(Array(nowListed.prefix(listed.count)) == listed, "\(label): photos lost or reordered")
            let added = nowListed.count - listed.count
            if command == "import" {
                #expect(outcome.killed ? (0...1).contains(added) : added == 1, "\(label): \(added) photos added")
            } else {
                #expect(added == 0, "\(label): \(added) photos added")
            }

            // The current version renders (decoded, not just copied).
            for target in Set([id] + nowListed.dropFirst(listed.count)) {
                let out = lib.temp.file("check-\(i).png")
                let r = try lib.run(["render", target, "-o", out, "--size", "64"])
                #expect(r.status == 0, "\(label): render of \(target) failed: \(r)")
                #expect((try? Pixels.load(out).average()) != nil, "\(label): the render of \(target) does not decode")
            }
            listed = nowListed
        }

        // Nothing left over, every photo still renders.
        let final = try lib.run(["verify"])
        #expect(final.status == 0, "\(final)")
        for id in listed { try lib.succeed(["render", id, "-o", lib.temp.file("final-\(id).jpg")]) }
        let summary = "crash test: \(iterations) runs, \(killedMidway) killed mid-way (killed \(killed), completed \(completed)), seed \(seed)"
        print(summary)
        #expect(killedMidway > 0, "no kill landed mid-way, so the test proved nothing: \(summary)")
    }

    /// Recovery removes files "a crashed commit left behind" by looking for
    /// files no catalog row references. A catalog restored from a backup
    /// (or lost) makes every later original look like such a file: opening
    /// the library, even for `list`, must not delete it.
    @Test func openingTheLibraryWithAnOlderCatalogKeepsEveryOriginal() throws {
        let lib = CLILibrary()
        try lib.importSample("coffee.jpg")
        let backup = TemporaryDirectory("photoedit-catalog-backup")
        let catalogFiles = ["catalog.sqlite", "catalog.sqlite-wal"]
        for name in catalogFiles where FileManager.default.fileExists(atPath: lib.path + "/" + name) {
            try FileManager.default.copyItem(atPath: lib.path + "/" + name, toPath: backup.file(name))
        }
        try lib.importSample("chelsea.jpg")
        let sha = try Hashing.sha256(Paths.sample("chelsea.jpg"))
        let original = try #require(try Hashing.tree(lib.path).first { $0.key.hasPrefix("originals/") && $0.value == sha }?.key)

        // The catalog goes back to the backup, which does not know chelsea.jpg.
        for name in catalogFiles + ["catalog.sqlite-shm"] { try? FileManager.default.removeItem(atPath: lib.path + "/" + name) }
        for name in catalogFiles where FileManager.default.fileExists(atPath: backup.file(name)) {
            try FileManager.default.copyItem(atPath: backup.file(name), toPath: lib.path + "/" + name)
        }
        #expect(try lib.succeed(["list"]).stdoutLines.count == 1)
        #expect(FileManager.default.fileExists(atPath: lib.path + "/" + original),
                "opening the library deleted \(original), the original of a photo the restored catalog does not list")
    }
}
