import Foundation
import GRDB
import Testing
@testable import PhotoEdit
import PhotoEditTestSupport

/// The change feed: entries for every kind of change, before/after objects,
/// rollback, fetch result change details, other processes, `changes` and `watch`.
@Suite("Change feed", .serialized)
struct ChangeFeedTests {
    /// A (coffee) and B (chelsea), imported in that order: changes 1 and 2.
    struct Fixture {
        let samples: SampleLibrary
        var library: PhotoLibrary { samples.library }
        var a: String { samples.ids[0] }
        var b: String { samples.ids[1] }

        init() throws { samples = try SampleLibrary("photoedit-feed", samples: ["coffee.jpg", "chelsea.jpg"]) }

        /// Runs `body` and returns the one change set it committed.
        func change(_ label: String, sourceLocation: SourceLocation = #_sourceLocation, _ body: () throws -> Void) throws -> ChangeSet {
            let before = try library.latestChangeSequence()
            try body()
            let sets = try library.changes(since: before)
            #expect(sets.count == 1, "\(label): \(sets.count) change sets", sourceLocation: sourceLocation)
            return try #require(sets.first, sourceLocation: sourceLocation)
        }
    }

    /// `type kind id aspects` of each entry, ids shortened to A/B/album.
    static func summary(_ set: ChangeSet, _ names: [String: String]) -> [String] {
        set.entries.map { e in
            "\(e.objectType.rawValue) \(e.kind.rawValue) \(names[e.identifier] ?? e.identifier) \(e.aspects.names.joined(separator: ","))"
                .trimmingCharacters(in: .whitespaces)
        }
    }

    @Test func everyKindOfChangeWritesItsEntries() throws {
        let f = try Fixture()
        let lib = f.library
        let imports = try lib.changes(since: 0)
        #expect(imports.map { Self.summary($0, [f.a: "A", f.b: "B"]) } == [["asset insert A"], ["asset insert B"]])
        var names = [f.a: "A", f.b: "B"]
        func expect(_ label: String, _ expected: [String], sourceLocation: SourceLocation = #_sourceLocation,
                    _ body: () throws -> Void) throws {
            let set = try f.change(label, sourceLocation: sourceLocation, body)
            #expect(Self.summary(set, names) == expected, "\(label)", sourceLocation: sourceLocation)
        }
        try expect("favorite", ["asset update A favorite"]) { try lib.performChanges { try $0.changeRequest(for: f.a).isFavorite = true } }
        try expect("hide", ["asset update B hidden"]) { try lib.performChanges { try $0.changeRequest(for: f.b).isHidden = true } }
        try expect("metadata", ["asset update A metadata"]) {
            try lib.performChanges { try $0.changeRequest(for: f.a).setLocation(Location(latitude: 1, longitude: 2)) }
        }
        try expect("apply", ["asset update A content"]) { try lib.apply(chain: "exposure=+0.3", to: f.a) }
        try expect("revert", ["asset update A content"]) { try lib.revert(f.a) }
        try expect("upgrade-like edit with a recipe", ["asset update B content"]) {
            try lib.apply(recipe: Chain.apply(Chain.parse("contrast=+10"), to: .empty), to: f.b)
        }
        var album: ObjectPlaceholder!
        try expect("album create", ["album insert album"]) {
            try lib.performChanges { album = $0.createAlbum(title: "Trip") }
            names[album.localIdentifier] = "album"
        }
        try expect("album add", ["album update album assets", "asset update A albums", "asset update B albums"]) {
            try lib.performChanges { try $0.albumChangeRequest(for: "Trip").addAssets([f.a, f.b]) }
        }
        try expect("album move", ["album update album assets"]) {
            try lib.performChanges { try $0.albumChangeRequest(for: "Trip").moveAsset(f.b, to: 0) }
        }
        try expect("album rename", ["album update album title", "asset update B albums", "asset update A albums"]) {   // album order
            try lib.performChanges { try $0.albumChangeRequest(for: "Trip").rename(to: "Holiday") }
        }
        try expect("album remove", ["album update album assets", "asset update A albums"]) {
            try lib.performChanges { try $0.albumChangeRequest(for: "Holiday").removeAssets([f.a]) }
        }
        try expect("delete", ["asset update B deleted"]) { try lib.performChanges { try $0.changeRequest(for: f.b).delete() } }
        try expect("restore", ["asset update B deleted"]) { try lib.performChanges { try $0.changeRequest(for: f.b).restore() } }
        try expect("purge", ["asset delete B", "album update album assets"]) {   // one entry per object and commit
            try lib.performChanges { c in
                try c.changeRequest(for: f.b).delete()
                try c.changeRequest(for: f.b).purge()
            }
        }
        let oneOfEach: [String] = try {
            // One commit touching a photo twice: one entry with both aspects.
            let set = try f.change("two requests") {
                try lib.performChanges { c in
                    let r = try c.changeRequest(for: f.a)
                    r.isFavorite = false
                    r.isHidden = true
                }
            }
            return Self.summary(set, names)
        }()
        #expect(oneOfEach == ["asset update A favorite,hidden"])
        try expect("album add again", ["album update album assets", "asset update A albums"]) {
            try lib.performChanges { try $0.albumChangeRequest(for: "Holiday").addAssets([f.a]) }
        }
        try expect("album delete", ["album delete album", "asset update A albums"]) {
            try lib.performChanges { try $0.albumChangeRequest(for: "Holiday").delete() }
        }
        // Sequence numbers increase by one per commit.
        let seqs = try lib.changes(since: 0).map(\.seq)
        #expect(seqs == Array(1...seqs.count))
        #expect(try lib.latestChangeSequence() == seqs.count)
        #expect(try lib.changes(since: 3, limit: 2).map(\.seq) == [4, 5])
        #expect(try lib.changeEntries(since: seqs.count - 1).count == 2)
    }

    @Test func noOpsAndDuplicatesWriteNothing() throws {
        let f = try Fixture()
        let start = try f.library.latestChangeSequence()
        try f.library.performChanges { try $0.changeRequest(for: f.a).isFavorite = false }   // already false
        _ = try f.library.importItems([Paths.sample("coffee.jpg")])   // already imported
        #expect(try f.library.latestChangeSequence() == start)
    }

    @Test func objectsBeforeAndAfterEachChange() throws {
        let f = try Fixture()
        let favorite = try f.change("favorite") { try f.library.performChanges { try $0.changeRequest(for: f.a).isFavorite = true } }
        let edit = try f.change("edit") { try f.library.apply(chain: "exposure=+0.3", to: f.a) }
        _ = try f.change("hide") { try f.library.performChanges { try $0.changeRequest(for: f.a).isHidden = true } }

        // Read later, each change still shows the photo as it was right after it.
        let sets = try f.library.changes(since: favorite.seq - 1)
        #expect(sets.map(\.seq) == [favorite.seq, edit.seq, edit.seq + 1])
        let fav = try #require(sets[0].changeDetails(forAsset: f.a))
        #expect(fav.objectBeforeChanges?.isFavorite == false && fav.objectAfterChanges?.isFavorite == true)
        #expect(fav.objectAfterChanges?.revision == 0 && fav.objectAfterChanges?.isHidden == false)
        #expect(!fav.assetContentChanged && !fav.objectWasDeleted)
        let content = try #require(sets[1].changeDetails(forAsset: f.a))
        #expect(content.assetContentChanged)
        #expect(content.objectBeforeChanges?.revision == 0 && content.objectAfterChanges?.revision == 1)
        #expect(content.objectBeforeChanges?.adjustmentData == nil && content.objectAfterChanges?.adjustmentData != nil)
        #expect(sets[2].changeDetails(forAsset: f.a)?.objectAfterChanges == (try f.library.asset(f.a)))
        #expect(sets[2].changeDetails(forAsset: f.b) == nil)

        let inserted = try #require(try f.library.changes(since: 0).first?.changeDetails(forAsset: f.a))
        #expect(inserted.objectBeforeChanges == nil && inserted.objectAfterChanges?.revision == 0)

        let purge = try f.change("purge") {
            try f.library.performChanges { c in
                try c.changeRequest(for: f.b).delete()
                try c.changeRequest(for: f.b).purge()
            }
        }
        let gone = try #require(purge.changeDetails(forAsset: f.b))
        #expect(gone.objectWasDeleted && gone.objectBeforeChanges?.id == f.b && gone.objectBeforeChanges?.deletedDate == nil)
    }

    @Test func aFailedCommitWritesNoFeedRows() throws {
        let f = try Fixture()
        let start = try f.library.latestChangeSequence()
        let rows = try f.library.read { db in try db.int("SELECT COUNT(*) FROM changeEntry") }
        expectPhotoEditError("purge of a photo not deleted", {
            try f.library.performChanges { c in
                try c.changeRequest(for: f.a).isFavorite = true
                _ = c.createAlbum(title: "Never")
                try c.changeRequest(for: f.b).purge()   // refused: B is not deleted
            }
        }) { if case .invalidChange = $0 { return true } else { return false } }
        #expect(try f.library.latestChangeSequence() == start)
        #expect(try f.library.read { db in try db.int("SELECT COUNT(*) FROM changeEntry") } == rows)
        #expect(try f.library.asset(f.a).isFavorite == false)
    }

    @Test func fetchResultChangeDetails() throws {
        let f = try Fixture()
        let c = try #require(try f.library.importItems([Paths.sample("astronaut.jpg")]).first?.id)
        try f.library.performChanges { ch in
            try ch.changeRequest(for: f.a).setCreationDate(iso: "2020-01-01T00:00:00")
            try ch.changeRequest(for: f.b).setCreationDate(iso: "2021-01-01T00:00:00")
            try ch.changeRequest(for: c).setCreationDate(iso: "2022-01-01T00:00:00")
        }
        let before = try f.library.fetchAssets(FetchOptions(sortDescriptors: [AssetSortDescriptor(.created)]))
        #expect(before.identifiers == [f.a, f.b, c])
        // One commit: A moves last, B is favorited (stays), C is hidden (removed), D is new.
        var d: ObjectPlaceholder!
        let set = try f.change("batch") {
            try f.library.performChanges { ch in
                try ch.changeRequest(for: f.a).setCreationDate(iso: "2030-01-01T00:00:00")
                try ch.changeRequest(for: f.b).isFavorite = true
                try ch.changeRequest(for: c).isHidden = true
                d = ch.createAsset(fromFileAt: Paths.sample("chart.png"))
            }
        }
        let details = try #require(try set.changeDetails(for: before))
        // After: D (no date: first), B (2021), A (2030).
        #expect(details.fetchResultAfterChanges.identifiers == [d.localIdentifier, f.b, f.a])
        #expect(Array(details.removedIndexes) == [2])
        #expect(Array(details.insertedIndexes) == [0])
        #expect(Array(details.changedIndexes) == [1, 2])   // B favorited, A's date: positions after
        #expect(details.moves.count == 1 && details.moves.first.map { ($0.from, $0.to) } ?? (0, 0) == (0, 2))
        var moves: [[Int]] = []
        details.enumerateMoves { moves.append([$0, $1]) }
        #expect(moves == [[0, 2]] && details.hasMoves && details.hasIncrementalChanges)
        #expect(try details.removedObjects().map(\.id) == [c])
        #expect(try details.insertedObjects().map(\.id) == [d.localIdentifier])
        #expect(try details.changedObjects().map(\.id) == [f.b, f.a])

        // A change that leaves a result alone gives no details.
        let favorites = try f.library.fetchAssets(FetchOptions(predicate: .has(.favorite)))
        let album = try f.change("album") { try f.library.performChanges { _ = $0.createAlbum(title: "Elsewhere") } }
        #expect(try album.changeDetails(for: favorites) == nil)
    }

    @Test func movesAreTheFewestThatReorder() {
        func result(_ ids: [String]) -> FetchResult<Asset> {
            FetchResult(identifiers: ids, objectType: .asset, load: { _ in [:] }, refetch: { throw CLIError("not refetched") })
        }
        let d = FetchResultChangeDetails(before: result(["a", "b", "c", "d", "e", "f"]), after: result(["b", "c", "x", "a", "e", "d"]),
                                         updated: ["e", "z"])
        #expect(Array(d.removedIndexes) == [5])           // f
        #expect(Array(d.insertedIndexes) == [2])          // x
        #expect(Array(d.changedIndexes) == [4])           // e, at its position after
        #expect(d.moves.count == 2)                       // b c e stay in order; a and d move (or another pair of two)
        let moved = Set(d.moves.map { ["a", "b", "c", "d", "e", "f"][$0.from] })
        #expect(moved.count == 2 && d.moves.allSatisfy { ["b", "c", "x", "a", "e", "d"][$0.to] == ["a", "b", "c", "d", "e", "f"][$0.from] })
        let same = FetchResultChangeDetails(before: result(["a", "b"]), after: result(["a", "b"]), updated: [])
        #expect(same.isEmpty)
        let reversed = (0..<400).map(String.init)
        #expect(!FetchResultChangeDetails(before: result(reversed), after: result(reversed.reversed()), updated: []).hasIncrementalChanges)
    }

    @Test func anotherProcessCommitArrivesOnTheSequence() async throws {
        let f = try Fixture()
        let stream = try f.library.changeSets()
        let favorite = try CLI.run(["favorite", "--library", f.library.url.path, f.a])
        #expect(favorite.status == 0, "\(favorite)")
        let set = try await Self.first(of: stream, within: 10)
        #expect(set?.changeDetails(forAsset: f.a)?.objectAfterChanges?.isFavorite == true)
        #expect(set?.entries.map(\.aspects) == [.favorite])
    }

    @Test func theSequenceStartsWithPastChangesAndCancellingStopsTheWatcher() async throws {
        let f = try Fixture()
        let folder = f.library.url.path
        #expect(CatalogWatcher.live(watching: folder) == 0)
        let stream = try f.library.changeSets(since: 1)   // the second import is after 1
        let received = Locked<[Int]>([])
        let task = Task { () -> [Int] in
            for try await set in stream { received.mutate { $0.append(set.seq) } }
            return received.value
        }
        try await BlockingExecutor.run { try f.library.performChanges { try $0.changeRequest(for: f.b).isFavorite = true } }
        // Waits for what arrived rather than a fixed time (a loaded machine may be slow to deliver).
        let deadline = Date().addingTimeInterval(60)
        while received.value.count < 2 && Date() < deadline { try await Task.sleep(for: .milliseconds(10)) }
        try await Task.sleep(for: .milliseconds(100))   // nothing more is coming
        #expect(CatalogWatcher.live(watching: folder) == 1, "the stream watches this library's folder")
        task.cancel()
        let seen = try await task.value
        #expect(seen == [2, 3])
        while CatalogWatcher.live(watching: folder) > 0 && Date() < deadline { try await Task.sleep(for: .milliseconds(10)) }
        #expect(CatalogWatcher.live(watching: folder) == 0, "the watcher ended")
    }

    /// The process's threads now, from the kernel (`/proc/self/task`).
    static func threadCount() -> Int {
        (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/task").count) ?? 0
    }

    /// Fifty open streams (fifty SSE clients) wait without a thread each:
    /// the process gains a few threads at most (FeedWaits' one, executor
    /// threads for their reads), one commit reaches all fifty, and
    /// cancelling them leaves no registration behind.
    @Test func fiftyStreamsWaitWithoutAThreadEach() async throws {
        let f = try Fixture()
        let folder = f.library.url.path
        let before = Self.threadCount()
        let start = try f.library.latestChangeSequence()
        let got = Locked<[Int]>([])
        var readers: [Task<Void, any Error>] = []
        for _ in 0..<50 {
            let stream = try f.library.changeSets(since: start)
            readers.append(Task {
                for try await set in stream where set.seq == start + 1 { got.mutate { $0.append(set.seq) } }
            })
        }
        try await Task.sleep(for: .milliseconds(500))
        #expect(CatalogWatcher.live(watching: folder) == 50)
        let during = Self.threadCount()
        // A thread each would be 50 more; other suites running meanwhile may start a few.
        #expect(during - before < 25, "50 streams started \(during - before) threads (before: \(before))")
        try await BlockingExecutor.run { try f.library.performChanges { try $0.changeRequest(for: f.a).isFavorite = true } }
        let deadline = Date().addingTimeInterval(60)
        while got.value.count < 50 && Date() < deadline { try await Task.sleep(for: .milliseconds(10)) }
        #expect(got.value.count == 50, "the commit reached \(got.value.count) of 50 streams")
        for reader in readers { reader.cancel() }
        for reader in readers { _ = await reader.result }
        while CatalogWatcher.live(watching: folder) > 0 && Date() < deadline { try await Task.sleep(for: .milliseconds(10)) }
        #expect(CatalogWatcher.live(watching: folder) == 0, "every watcher ended")
    }

    @Test func changesAndWatchCommands() throws {
        let lib = CLILibrary()
        let id = try lib.importSample("coffee.jpg")
        let watch = try LongProcess(["watch", "--library", lib.path, "--json", "--since", "0"])
        #expect(watch.waitForLines(1, seconds: 10), "the past import is printed first: \(watch.output)")
        try lib.succeed(["favorite", id])
        #expect(watch.waitForLines(2, seconds: 10), "\(watch.output)")
        let status = watch.terminate()
        #expect(status == 0)
        let lines = watch.output.lines
        #expect(lines.count == 2)
        let objects = try lines.map { try JSONValue.parse(Data($0.utf8)).object ?? [:] }
        #expect(objects.map { $0["seq"]?.number } == [1, 2])
        #expect(objects.map { $0["kind"]?.string } == ["insert", "update"])
        #expect(objects.allSatisfy { $0["id"]?.string == id && $0["type"]?.string == "asset" })
        #expect(objects[1]["changes"] == .array([.string("favorite")]))

        let text = try lib.succeed(["changes", "--since", "1"])
        #expect(text.stdoutLines.count == 1)
        #expect(text.stdoutLines.first?.split(separator: "\t").map(String.init).enumerated().filter { [0, 2, 3, 4, 5].contains($0.offset) }.map(\.element)
                == ["2", "update", "asset", id, "favorite"])
        #expect(try lib.succeed(["changes", "--latest"]).stdout == "2\n")
        #expect(try lib.succeed(["changes", "--since", "2"]).stdout.isEmpty)
        let bad = try lib.run(["changes", "--since=-1"])
        #expect(bad.status == 1 && bad.stderrLines.count == 1, "\(bad)")
    }

    @Test func verifyRepairReportsTheNewRender() throws {
        let f = try Fixture()
        try f.library.apply(chain: "exposure=+0.3", to: f.a)
        let render = try f.library.read { db in
            try db.value(String.self, "SELECT renderPath FROM revision WHERE assetId = ? AND number = 1", f.a)
        }
        let path = f.library.url.appendingPathComponent(try #require(render)).path
        chmod(path, 0o644)
        try Data("broken".utf8).write(to: URL(fileURLWithPath: path))
        let set = try f.change("repair") { _ = try f.library.verify(repair: true) }
        #expect(set.changeDetails(forAsset: f.a)?.assetContentChanged == true)
    }

    @Test func aJPEGJoiningItsRawIsAContentChangeAndMakesAPair() throws {
        let folder = try Paths.rawJPEGPairFolder()
        let temp = TemporaryDirectory("photoedit-feed-pair")
        let library = try PhotoLibrary(url: temp.url.appendingPathComponent("library"))
        let id = try #require(try library.importItems([folder.file("IMG_0042.DNG")]).first?.id)
        let before = try library.latestChangeSequence()
        let joined = try library.importItems([folder.file("IMG_0042.JPG")])
        #expect(joined.first?.joinedPair == true && joined.first?.id == id)
        let sets = try library.changes(since: before)
        #expect(sets.count == 1 && sets.first?.entries.map(\.kind) == [.update])
        let details = try #require(sets.first?.changeDetails(forAsset: id))
        #expect(details.assetContentChanged && details.objectBeforeChanges?.alternate == nil)
        #expect(details.objectAfterChanges?.isRawPlusJPEG == true)
        for (text, expected) in [("pair", [id]), ("raw", [id]), ("raw and format=jpeg", [id]), ("not pair", [])] {
            #expect(try library.fetchAssets(FetchOptions(predicate: AssetPredicate(parsing: text))).identifiers == expected, "\(text)")
        }
    }

    @Test func migrationFillsTheCurrentSizeOfExistingPhotos() throws {
        let temp = TemporaryDirectory("photoedit-v4")
        let pool = try DatabasePool(path: temp.file("catalog.sqlite"))
        try Catalog.migrator.migrate(pool, upTo: "v3: camera metadata")
        try pool.write { db in
            try db.execute(sql: """
                INSERT INTO asset (id, originalFilename, sha256, originalPath, fileSize, format, uniformTypeIdentifier, mediaType,
                    originalPixelWidth, originalPixelHeight, orientation, importDate, revision)
                VALUES ('ab', 'x.jpg', 'ff', 'originals/x', 1, 'jpeg', 'public.jpeg', 'image', 40, 30, 1, '2024-01-01 00:00:00.000', 1);
                INSERT INTO revision (assetId, number, createdAt, kind, pixelWidth, pixelHeight) VALUES ('ab', 0, '2024-01-01', 'import', 40, 30);
                INSERT INTO revision (assetId, number, createdAt, kind, formatIdentifier, formatVersion, data, pixelWidth, pixelHeight)
                    VALUES ('ab', 1, '2024-01-02', 'edit', 'org.photoedit.recipe', '1', x'7b7d', 16, 9);
                """)
        }
        try Catalog.migrator.migrate(pool)
        let row = try #require(try pool.read { db in try Row.fetchOne(db, sql: "SELECT pixelWidth, pixelHeight, adjusted FROM asset") })
        #expect(row["pixelWidth"] as Int == 16 && row["pixelHeight"] as Int == 9 && row["adjusted"] as Bool == true)
        #expect(try pool.read { db in try Catalog.migrator.appliedIdentifiers(db) }.contains("v4: change feed and query indexes"))
    }

    /// The first element of `stream`, or nil after `seconds`.
    static func first(of stream: AsyncThrowingStream<ChangeSet, Error>, within seconds: Double) async throws -> ChangeSet? {
        try await withThrowingTaskGroup(of: ChangeSet?.self) { group in
            group.addTask {
                for try await set in stream { return set }
                return nil
            }
            group.addTask {
                try await Task.sleep(for: .seconds(seconds))
                return nil
            }
            let first = try await group.next() ?? nil
            group.cancelAll()
            return first
        }
    }
}

/// A `photoedit` process that keeps running (watch), its stdout in a file.
final class LongProcess: @unchecked Sendable {
    let process: Process
    private let folder = TemporaryDirectory("photoedit-long")
    private let stdoutPath: String

    init(_ arguments: [String]) throws {
        stdoutPath = folder.file("stdout")
        _ = FileManager.default.createFile(atPath: stdoutPath, contents: nil)
        process = try PhotoEditBinary.process(arguments)
        process.standardOutput = try FileHandle(forWritingTo: URL(fileURLWithPath: stdoutPath))
        process.standardError = FileHandle.nullDevice
        try Lifeline.run(process)   // stopped with the test process, however it ends
    }

    var output: String { (try? String(contentsOfFile: stdoutPath, encoding: .utf8)) ?? "" }

    /// Waits until stdout has `count` lines; false after `seconds`.
    func waitForLines(_ count: Int, seconds: Double) -> Bool {
        let deadline = Date().addingTimeInterval(seconds)
        while Date() < deadline {
            if output.lines.count >= count { return true }
            usleep(10_000)
        }
        return false
    }

    /// Sends SIGTERM (to its own pid) and returns the exit status.
    func terminate() -> Int32 {
        if process.isRunning { kill(process.processIdentifier, SIGTERM) }
        process.waitUntilExit()
        return process.terminationReason == .exit ? process.terminationStatus : -process.terminationStatus
    }

    deinit {
        if process.isRunning { kill(process.processIdentifier, SIGKILL) }
    }
}
