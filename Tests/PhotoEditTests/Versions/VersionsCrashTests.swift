import Foundation
import Testing
@testable import PhotoEdit

/// Every versions operation is all-or-nothing under SIGKILL (issue 40):
/// `duplicate` and `snapshot` killed just before and just after their
/// commit, a 50-photo sync killed at random moments, and two processes
/// syncing onto the same photos at once.
@Suite("Versions: kill -9 and concurrent syncs")
struct VersionsCrashTests {
    static func chains(_ lib: CLILibrary) throws -> [String: String] {
        guard case .array(let items) = try lib.succeed(["list", "--json", "--hidden"]).json() else { throw CLIError("list is not an array") }
        var out: [String: String] = [:]
        for item in items { if let id = item.object?["id"]?.string { out[id] = item.object?["chain"]?.string ?? "" } }
        return out
    }

    /// Imports `count` small generated photos (all different); their ids.
    static func importGenerated(_ lib: CLILibrary, _ count: Int, seed: Int) throws -> [String] {
        let paths = try (0..<count).map { i in
            let png = lib.temp.file("generated-\(seed + i).png")
            try Pixels.writeSyntheticPNG(to: png, seed: seed + i, width: 64, height: 48)
            return png
        }
        return try lib.importFiles(paths)
    }

    /// Killed before its commit, `duplicate` and `snapshot` leave the
    /// library as it was (their staged files are recovered away); killed
    /// after, the copy or the snapshot is whole.
    @Test func duplicateAndSnapshotKilledAroundTheirCommit() throws {
        let lib = CLILibrary()
        let id = try lib.importSample("coffee.jpg")
        try lib.succeed(["apply", "exposure=+0.5", id])
        let commands: [[String]] = [["duplicate", "--name", "Killed", id], ["snapshot", id, "Killed"]]
        for arguments in commands {
            let before = try lib.snapshot(filesFirst: false)
            let killed = try CLI.run(arguments + ["--library", lib.path], environment: ["PHOTOEDIT_CRASH_POINT": "before-commit"])
            #expect(killed.status != 0, "\(arguments) was not killed")
            let verify = try lib.run(["verify"])   // recovers the killed commit's staged files
            #expect(verify.status == 0, "\(verify)")
            #expect(try lib.snapshot(filesFirst: true) == before, "\(arguments) killed before its commit changed the library")
        }
        // Killed at random moments: after each kill, verify is clean and a
        // copy is whole (its render, its revisions, its record) or absent.
        var rng = SeededGenerator(seed: SeededGenerator.seedFromEnvironment())
        for i in 0..<8 {
            let arguments = i % 2 == 0 ? ["duplicate", "--library", lib.path, id] : ["snapshot", "--library", lib.path, id, "Run \(i)"]
            let process = try RawProcess(arguments)
            let u = Double.random(in: 0...1, using: &rng)
            usleep(UInt32(u * u * 200_000))
            process.killIfRunning()
            _ = process.wait()
            let verify = try lib.run(["verify"])
            #expect(verify.status == 0, "run \(i) (\(arguments[0])): \(verify)")
        }
        for copy in try Self.chains(lib).keys where copy != id {
            #expect(try lib.show(copy)["chain"]?.string == "exposure=+0.5", "copy \(copy) is whole")
            #expect(try lib.history(copy).count == 2)
        }
    }

    /// A sync onto 50 photos killed at random moments: each photo has the
    /// synced groups whole or not at all, never half, and verify is clean.
    @Test func aFiftyPhotoSyncKilledMidwayHalfAppliesNothing() throws {
        let lib = CLILibrary()
        let ids = try Self.importGenerated(lib, 50, seed: 4000)
        try lib.succeed(["apply", "grain=10", "--where", "not edited"])
        let source = ids[0]
        try lib.succeed(["apply", "temperature=+20,exposure=+0.3,contrast=+10,vignette=-20", source])
        let old = "grain=10", new = "temperature=+20,exposure=+0.3,contrast=+10,grain=10"
        var rng = SeededGenerator(seed: SeededGenerator.seedFromEnvironment())
        var killedOnce = false
        for round in 0..<4 {
            let process = try RawProcess(["copy-recipe", "--library", lib.path, source] + ids.dropFirst() + ["--only", "wb,tone"])
            usleep(UInt32(20_000 + Int.random(in: 0...300_000, using: &rng)))  // a 50-photo sync of small photos takes well under a second here
            process.killIfRunning()
            let outcome = process.wait()
            killedOnce = killedOnce || outcome.killed
            let verify = try lib.run(["verify"])
            #expect(verify.status == 0, "round \(round): \(verify)")
            let chains = try Self.chains(lib)
            for id in ids.dropFirst() {
                #expect(chains[id] == old || chains[id] == new, "round \(round): photo \(id) is half-synced: \(chains[id] ?? "-")")
            }
            if !outcome.killed { break }
        }
        #expect(killedOnce, "no sync was killed mid-way (the machine is too fast for the delays)")
    }

    /// Two processes syncing different groups onto the same photos at once
    /// lose no update: every photo ends with both.
    @Test func concurrentSyncsLoseNoUpdate() throws {
        let lib = CLILibrary()
        let ids = try Self.importGenerated(lib, 12, seed: 5000)
        let (warm, bright) = (ids[0], ids[1])
        try lib.succeed(["apply", "temperature=+25", warm])
        try lib.succeed(["apply", "exposure=+0.6", bright])
        let targets = Array(ids.dropFirst(2))
        let results = Locked<[CLIResult]>([])
        runOnThreads(2) { n in
            let r = try? CLI.run(["copy-recipe", "--library", lib.path, n == 0 ? warm : bright] + targets + ["--only", n == 0 ? "wb" : "tone"])
            results.mutate { $0.append(r ?? CLIResult(arguments: [], status: -1, stdout: "", stderr: "did not run")) }
        }
        for r in results.value { #expect(r.status == 0, "\(r)") }
        let chains = try Self.chains(lib)
        for id in targets { #expect(chains[id] == "temperature=+25,exposure=+0.6", "photo \(id): \(chains[id] ?? "-")") }
        #expect(try lib.succeed(["verify"]).status == 0)
    }
}
