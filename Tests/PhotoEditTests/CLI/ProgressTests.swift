import Foundation
import Testing
@testable import PhotoEdit

/// Long work shows progress (issue 10 §5): the library reports (done, total)
/// for batches, imports run on several threads with the same results, and
/// the CLI draws a bar on a terminal and nothing otherwise.
@Suite("Progress and parallel batches")
struct ProgressTests {
    /// A folder of `count` distinct synthetic PNGs, a RAW+JPEG pair and a bad file.
    static func folder(_ count: Int) throws -> TemporaryDirectory {
        let folder = TemporaryDirectory("photoedit-progress")
        for seed in 0..<count {
            try Pixels.writeSyntheticPNG(to: folder.file(String(format: "s%02d.png", seed)), seed: seed)
        }
        try FileManager.default.copyItem(atPath: Paths.rawFixture("coffee.dng"), toPath: folder.file("IMG_0042.DNG"))
        try FileManager.default.copyItem(atPath: Paths.rawFixture("coffee.jpg"), toPath: folder.file("IMG_0042.JPG"))
        try Data("not an image".utf8).write(to: folder.url.appendingPathComponent("bad.jpg"))
        return folder
    }

    final class Calls: @unchecked Sendable {
        private let lock = NSLock()
        private var calls: [[Int]] = []
        func add(_ done: Int, _ total: Int) { lock.withLock { calls.append([done, total]) } }
        var all: [[Int]] { lock.withLock { calls } }
    }

    /// Parallel import gives the results of a sequential one, in the same
    /// order, the pair joined, and progress once per file, in order.
    @Test func parallelImportMatchesSequentialAndReportsProgress() throws {
        let folder = try Self.folder(12)
        var outcomes: [[String]] = []
        for jobs in [1, 2, 4] {
            let temp = TemporaryDirectory("photoedit-progress-lib")
            let library = try PhotoLibrary(url: temp.url.appendingPathComponent("library"))
            let calls = Calls()
            let results = try library.importItems([folder.path], jobs: jobs, progress: calls.add)
            #expect(calls.all == (1...15).map { [$0, 15] }, "jobs \(jobs): \(calls.all)")
            #expect(results.count == 15)
            #expect(results.filter(\.joinedPair).count == 1, "jobs \(jobs): the RAW joins its JPEG")
            #expect(results.filter { $0.error != nil }.map { ($0.path as NSString).lastPathComponent } == ["bad.jpg"])
            #expect(try library.assets().count == 13)
            // Listed in file order, whichever worker committed first.
            let imported = results.compactMap { r in r.joinedPair ? nil : r.id }
            #expect(try library.assets().map(\.id) == imported, "jobs \(jobs): the library lists photos in file order")
            // Ids are content hashes of nothing: compare by path and outcome.
            outcomes.append(results.map { "\(($0.path as NSString).lastPathComponent) \($0.id != nil) \($0.joinedPair)" })
            #expect(try library.verify().isClean)
        }
        #expect(outcomes[0] == outcomes[1] && outcomes[1] == outcomes[2])
    }

    /// A slow first file (a 16-bit PNG) and quick small ones after it: the
    /// quick ones commit first, yet the library lists them after it, in the
    /// order they were named (it listed them first, or in id order when
    /// their import times shared a millisecond).
    @Test func photosImportedTogetherListInFileOrder() throws {
        let folder = try Self.folder(6)
        let files = [Paths.sample("chelsea-16bit.png")] + (0..<6).map { folder.file(String(format: "s%02d.png", $0)) }
        let temp = TemporaryDirectory("photoedit-progress-lib")
        let library = try PhotoLibrary(url: temp.url.appendingPathComponent("library"))
        let ids = try library.importItems(files, jobs: 4).compactMap(\.id)
        #expect(ids.count == 7)
        #expect(try library.assets().map(\.id) == ids)
    }

    /// apply, copy-recipe, upgrade and verify on many photos report progress.
    @Test func batchesReportProgress() async throws {
        let folder = try Self.folder(3)
        let temp = TemporaryDirectory("photoedit-progress-lib")
        let library = try PhotoLibrary(url: temp.url.appendingPathComponent("library"))
        let ids = try await BlockingExecutor.run { try library.importItems([folder.path]) }.compactMap(\.id)
        let unique = Array(Set(ids)).sorted()
        #expect(unique.count == 4)
        let apply = Calls(), copy = Calls(), upgrade = Calls(), verify = Calls()
        let revisions = try await BlockingExecutor.run { try library.apply(chain: "exposure=+0.3", to: unique, progress: apply.add) }
        #expect(revisions.allSatisfy { $0.number == 1 })
        _ = try await BlockingExecutor.run { try library.copyRecipe(from: unique[0], to: Array(unique.dropFirst()), progress: copy.add) }
        let upgraded = try await BlockingExecutor.run { try library.upgrade(unique, progress: upgrade.add) }
        #expect(upgraded.allSatisfy { $0 == nil }, "current recipes are up to date")
        #expect(try await BlockingExecutor.run { try library.verify(progress: verify.add) }.isClean)
        #expect(apply.all == (1...4).map { [$0, 4] })
        #expect(copy.all == (1...3).map { [$0, 3] })
        #expect(upgrade.all == (1...4).map { [$0, 4] })
        #expect(verify.all == (1...4).map { [$0, 4] })
    }

    /// On a terminal (a pseudo-terminal made by `script`) import draws a bar
    /// with count, rate and time left on stderr; the ids on stdout are the
    /// same as without one, and without a terminal or with --json there is
    /// no bar at all.
    @Test func cliDrawsABarOnlyOnATerminal() throws {
        let folder = try Self.folder(12)
        let binary = try CLI.binary.get().path
        let library = TemporaryDirectory("photoedit-progress-cli")
        // In a terminal session, but stderr redirected to a file: no bar.
        let command = "'\(binary)' import --library '\(library.file("lib"))' '\(folder.path)' 2>'\(library.file("err"))' >'\(library.file("out"))'"
        let script = Process()
        script.executableURL = URL(fileURLWithPath: "/usr/bin/script")
        script.arguments = ["-qec", command, "/dev/null"]
        script.standardInput = FileHandle.nullDevice
        script.standardOutput = FileHandle.nullDevice
        try script.run()
        script.waitUntilExit()
        // The same import with stderr left on the terminal: the typescript
        // holds what the terminal showed.
        let typescript = library.file("typescript")
        let tty = Process()
        tty.executableURL = URL(fileURLWithPath: "/usr/bin/script")
        tty.arguments = ["-qec", "'\(binary)' import --library '\(library.file("lib2"))' '\(folder.path)' >'\(library.file("out2"))'", typescript]
        tty.standardInput = FileHandle.nullDevice
        tty.standardOutput = FileHandle.nullDevice
        try tty.run()
        tty.waitUntilExit()
        let screen = String(decoding: try Data(contentsOf: URL(fileURLWithPath: typescript)), as: UTF8.self)
        #expect(screen.contains("importing 15/15 [########################]"), "\(screen)")
        #expect(screen.range(of: #"\d+\.\d/s"#, options: .regularExpression) != nil, "a rate: \(screen)")
        let plain = String(decoding: try Data(contentsOf: URL(fileURLWithPath: library.file("err"))), as: UTF8.self)
        #expect(!plain.contains("importing"), "no bar when stderr is a file: \(plain)")
        let out1 = try String(contentsOfFile: library.file("out"), encoding: .utf8).split(separator: "\n").map { $0.split(separator: "\t")[1] }
        let out2 = try String(contentsOfFile: library.file("out2"), encoding: .utf8).split(separator: "\n").map { $0.split(separator: "\t")[1] }
        #expect(out1 == out2 && out1.count == 14)
        let json = try CLI.run(["import", "--json", "--library", library.file("lib3"), folder.path])
        #expect(!json.stderr.contains("importing"))
    }
}
