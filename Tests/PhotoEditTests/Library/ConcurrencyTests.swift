import Foundation
import GRDB
import Testing
@testable import PhotoEdit

/// Issue 3 §4(b): concurrent writers — several processes and many tasks on
/// the same photos — and no lost update.
@Suite("Concurrency: processes and tasks writing to the same photos")
struct ConcurrencyTests {
    /// filter → value of a chain such as "temperature=+30,tint=-5".
    static func values(_ chain: String?) -> [String: String] {
        var out: [String: String] = [:]
        for step in (chain ?? "").split(separator: ",") {
            let parts = step.split(separator: "=", maxSplits: 1).map(String.init)
            out[parts[0]] = parts.count == 2 ? parts[1] : ""
        }
        return out
    }

    @Test func fourProcessesApplyingToOnePhotoLoseNothing() throws {
        let lib = CLILibrary()
        let id = try lib.importSample("chelsea.jpg")
        let plans: [(filter: String, values: [String])] = [
            ("temperature", ["+10", "+20", "+30"]),
            ("tint", ["+5", "-5", "+15"]),
            ("contrast", ["+10", "+20", "-10"]),
            ("saturation", ["-10", "-20", "+25"]),
        ]
        let results = Locked<[CLIResult]>([])
        let failures = Locked<[String]>([])
        runOnThreads(plans.count) { i in
            for v in plans[i].values {
                do {
                    let r = try CLI.run(["apply", "--library", lib.path, "\(plans[i].filter)=\(v)", id])
                    results.mutate { $0.append(r) }
                } catch {
                    failures.mutate { $0.append("\(error)") }
                }
            }
        }
        #expect(failures.value.isEmpty, "\(failures.value)")
        #expect(results.value.count == 12)
        for r in results.value { #expect(r.status == 0, "\(r)") }

        let history = try lib.history(id)
        #expect(history.compactMap { $0["number"]?.number }.map { Int($0) } == Array(0...12), "13 revisions without gaps")
        let final = Self.values(history.last?["chain"]?.string)
        #expect(final == ["temperature": "+30", "tint": "+15", "contrast": "-10", "saturation": "+25"], "\(final)")
        #expect(try lib.show(id)["chain"]?.string == "temperature=+30,tint=+15,contrast=-10,saturation=+25")

        // No lost update: each revision changes exactly one filter of the
        // previous one, to the next value of that filter's plan.
        var next = Dictionary(uniqueKeysWithValues: plans.map { ($0.filter, 0) })
        var previous: [String: String] = [:]
        for (n, revision) in history.enumerated().dropFirst() {
            let now = Self.values(revision["chain"]?.string)
            let changed = Set(now.keys).union(previous.keys).filter { now[$0] != previous[$0] }
            #expect(changed.count == 1, "revision \(n) changed \(changed.sorted()): \(previous) → \(now)")
            #expect(Set(previous.keys).isSubset(of: now.keys), "revision \(n) lost a filter: \(previous) → \(now)")
            if let filter = changed.first, let plan = plans.first(where: { $0.filter == filter }), let k = next[filter], k < plan.values.count {
                #expect(now[filter] == plan.values[k], "revision \(n): \(filter)=\(now[filter] ?? "nil"), expected \(plan.values[k])")
                next[filter] = k + 1
            }
            previous = now
        }
        #expect(next.values.allSatisfy { $0 == 3 }, "\(next)")
        let verify = try lib.run(["verify"])
        #expect(verify.status == 0, "\(verify)")
    }

    enum Outcome: Sendable {
        case applied(String)
        case committed(String, conflicts: Int)
        case conflict(String)
        case metadata
    }

    func foreignRevisions(_ revisions: [Revision]) -> Int {
        revisions.filter { $0.adjustmentData?.formatIdentifier == ForeignEditor.formatIdentifier }.count
    }

    @Test func manyTasksUsingTheAsyncAPI() async throws {
        let temp = TemporaryDirectory("photoedit-tasks")
        let library = try PhotoLibrary(url: temp.url.appendingPathComponent("library"))
        let ids = try await BlockingExecutor.run { try library.importItems([Paths.sample("coffee.jpg"), Paths.sample("chelsea.jpg")]) }.compactMap(\.id)
        try #require(ids.count == 2)
        try await BlockingExecutor.run { try library.performChanges { _ = $0.createAlbum(title: "Shared") } }

        let outcomes = try await withThrowingTaskGroup(of: Outcome.self) { group in
            for t in 0..<16 {
                group.addTask {
                    let id = ids[(t / 4) % 2]          // every kind of task on both photos
                    switch t % 4 {
                    case 0:
                        try await BlockingExecutor.run { try library.apply(chain: String(format: "exposure=%+.2f", 0.05 * Double(t)), to: id) }
                        return .applied(id)
                    case 1:
                        try await BlockingExecutor.run { try library.performChanges { changes in
                            try changes.changeRequest(for: id).isFavorite = true
                            try changes.albumChangeRequest(for: "Shared").addAssets(ids)
                        } }
                        return .metadata
                    case 2:
                        // A raw content-editing commit: it may lose the race, never
                        // silently; like a careful editor it reads again and retries a few times.
                        var lost = 0
                        while true {
                            let input = try await BlockingExecutor.run { try library.requestContentEditingInput(for: id) }
                            var output = ContentEditingOutput(contentEditingInput: input)
                            try ForeignEditor.writeGrey(of: input, to: output.renderedContentURL.path)
                            output.adjustmentData = AdjustmentData(formatIdentifier: ForeignEditor.formatIdentifier, formatVersion: "1",
                                                                   data: Data("task \(t)".utf8))
                            let finished = output
                            do {
                                try await BlockingExecutor.run { try library.performChanges { try $0.changeRequest(for: id).contentEditingOutput = finished } }
                                return .committed(id, conflicts: lost)
                            } catch PhotoEditError.conflict {
                                lost += 1
                                if lost == 10 { return .conflict(id) }
                            }
                        }
                    default:
                        try await BlockingExecutor.run { try library.apply(chain: "saturation=\(-5 * t)", to: id) }
                        return .applied(id)
                    }
                }
            }
            var all: [Outcome] = []
            for try await o in group { all.append(o) }
            return all
        }
        #expect(outcomes.count == 16)
        var conflicts = 0
        for id in ids {
            let applied = outcomes.filter { if case .applied(id) = $0 { return true } else { return false } }.count
            let committed = outcomes.filter { if case .committed(id, _) = $0 { return true } else { return false } }.count
            for case let .committed(cid, lost) in outcomes where cid == id { conflicts += lost }
            conflicts += 10 * outcomes.filter { if case .conflict(id) = $0 { return true } else { return false } }.count
            #expect(foreignRevisions(try await BlockingExecutor.run { try library.history(id) }) == committed,
                    "every raw commit that returned is in the history, once")
            #expect(applied == 4)
            let history = try await BlockingExecutor.run { try library.history(id) }
            #expect(history.count == 1 + applied + committed, "\(id): \(history.count) revisions for \(applied) applies and \(committed) raw commits")
            #expect(history.map(\.number) == Array(0..<history.count))
            #expect(history.dropFirst().allSatisfy { $0.adjustmentData != nil && $0.hasRender })
        }
        let shared = try await BlockingExecutor.run { try library.album("Shared") }
        #expect(shared.assetIdentifiers.sorted() == ids.sorted(), "each photo once")
        for id in ids { #expect(try await BlockingExecutor.run { try library.asset(id) }.isFavorite) }
        let raw = outcomes.filter { if case .committed = $0 { return true } else { return false } }.count
        print("async tasks: \(raw) of 4 raw content-editing commits landed; \(conflicts) attempts lost the race with PhotoEditError.conflict")
        let report = try await BlockingExecutor.run { try library.verify() }
        #expect(report.isClean, "\(report.problems)")
    }
}

/// Races made deterministic: the test holds the catalog's write lock (an
/// open IMMEDIATE transaction on its own connection) while other threads,
/// each with its own `PhotoLibrary` (its own connections, as another
/// process would have), run up to their commit and wait for the lock. The
/// pause that lets them get there can only make a run miss the race (and
/// pass), never fail one that should pass.
@Suite("Concurrency: commits that wait for the catalog lock")
struct CatalogLockRaceTests {
    /// Runs `body` on a new thread; `wait()` returns its result.
    final class Background<T: Sendable>: @unchecked Sendable {
        private let done = DispatchSemaphore(value: 0)
        private let result = Locked<Result<T, Error>?>(nil)
        init(_ body: @escaping @Sendable () throws -> T) {
            Thread { [result, done] in
                let r = Result { try body() }
                result.mutate { $0 = r }
                done.signal()
            }.start()
        }
        func wait() -> Result<T, Error> {
            done.wait()
            return result.value!
        }
    }

    static let reachTheLock: useconds_t = 1_500_000

    /// Polls `condition` every 10 ms for up to 30 s; returns whether it became true.
    @discardableResult
    static func waitUntil(_ condition: () -> Bool) -> Bool {
        for _ in 0..<3000 {
            if condition() { return true }
            usleep(10_000)
        }
        return condition()
    }

    static func files(under folder: String) -> [String] {
        (FileManager.default.enumerator(atPath: folder)?.allObjects as? [String] ?? []).filter { !FileIO.isDirectory(folder + "/" + $0) }
    }

    /// `apply --remove` that empties the recipe becomes a revert; its
    /// revision check must be part of the commit, or an edit committed
    /// between the check and the commit is silently undone.
    @Test func revertFromEmptiedRecipeDoesNotUndoAConcurrentEdit() throws {
        let temp = TemporaryDirectory("photoedit-race")
        let url = temp.url.appendingPathComponent("library")
        let mine = try PhotoLibrary(url: url)
        let id = try #require(try mine.importItems([Paths.sample("coffee.jpg")]).first?.id)
        try mine.apply(chain: "exposure=+1", to: id)                           // revision 1: exposure only
        let theirs = try PhotoLibrary(url: url)

        // Another writer's edit of revision 1, ready to commit as revision 2.
        let input = try mine.requestContentEditingInput(for: id, options: ContentEditingInputRequestOptions(displaySize: nil))
        let staged = ContentEditingOutput(contentEditingInput: input).renderedContentURL.path
        try ForeignEditor.writeGrey(of: input, to: staged)
        let journal = IntentJournal(layout: mine.layout)
        defer { journal.finish() }
        let (render, w, h) = try mine.committing.placeRender(staged, asset: id, revision: 2, journal: journal)

        var removal: Background<Revision>?
        try mine.write { db in
            // Holding the lock: the removal reads revision 1, checks it, and waits to commit.
            removal = Background { try theirs.apply(steps: [], to: id, removing: ["exposure"]) }
            usleep(Self.reachTheLock)
            // The other writer commits revision 2 (the rows performChanges writes for a content edit).
            try db.insert(RevisionRecord(assetId: id, number: 2, createdAt: Date(), kind: Revision.Kind.edit.rawValue,
                                         formatIdentifier: ForeignEditor.formatIdentifier, formatVersion: "1", data: Data("other".utf8),
                                         renderPath: render, pixelWidth: w, pixelHeight: h, baseRevision: nil, basePath: nil))
            try db.execute("UPDATE asset SET revision = 2 WHERE id = ?", id)
        }
        let outcome = try #require(removal).wait()
        let history = try mine.history(id)
        switch outcome {
        case .success:
            // Merged again on top of revision 2: the other writer's grey render is still what the photo shows.
            #expect(history.last?.kind != .revert,
                    "lost update: the removal, computed from revision 1, committed a revert on top of revision 2 (history kinds \(history.map(\.kind.rawValue)))")
            try mine.render(id, to: temp.file("current.png"))
            #expect(try Colour.maxChroma(temp.file("current.png")) < 6, "the other writer's edit is no longer visible")
        case .failure(let error):
            #expect(error as? PhotoEditError == .conflict(asset: id, expected: 1, actual: 2), "\(error)")
            #expect(history.count == 3)
        }
        #expect(try mine.verify().isClean)
    }

    /// Two writers importing the same new file at once: the one whose block
    /// fails must not remove the original the other one committed.
    @Test func failedImportDoesNotRemoveAnOriginalAnotherWriterCommitted() throws {
        let temp = TemporaryDirectory("photoedit-race")
        let url = temp.url.appendingPathComponent("library")
        let mine = try PhotoLibrary(url: url)
        let existing = try #require(try mine.importItems([Paths.sample("coffee.jpg")]).first?.id)
        let failing = try PhotoLibrary(url: url), importer = try PhotoLibrary(url: url)
        let file = Paths.sample("astronaut.jpg")

        var bad: Background<Void>?, good: Background<[ImportResult]>?
        try mine.write { db in
            try db.execute("UPDATE asset SET revision = revision")
            // A block that imports the file, then fails (a purge of a photo that is not deleted).
            bad = Background {
                try failing.performChanges { c in
                    _ = c.createAsset(fromFileAt: file)
                    try c.changeRequest(for: existing).purge()
                }
            }
            // It has placed the original when a second file is in originals/.
            #expect(Self.waitUntil { Self.files(under: url.path + "/originals").count == 2 })
            // A plain import of the same file, meanwhile.
            good = Background { try importer.importItems([file]) }
            usleep(Self.reachTheLock)
        }
        let badOutcome = try #require(bad).wait()
        #expect(throws: PhotoEditError.self) { try badOutcome.get() }
        let results = try #require(good).wait().get()
        let id = try #require(results.first?.id, "\(String(describing: results.first?.error))")
        #expect(try mine.asset(id).originalFilename == "astronaut.jpg")
        let sha = try Hashing.sha256(file)
        let originals = try Hashing.tree(url.path).filter { $0.key.hasPrefix("originals/") }
        #expect(originals.values.contains(sha), "the committed photo's original was removed from disk by the failed block")
        let report = try mine.verify()
        #expect(report.isClean, "\(report.problems)")
        #expect((try? mine.render(id, to: temp.file("astronaut.png"))) != nil, "the imported photo does not render")
    }

    /// `verify(repair:)` from one task while another task's commit is in
    /// flight (its render moved into place, its transaction not yet
    /// committed): the render is not "unreferenced", and must not be removed.
    @Test func verifyRepairDuringACommitInFlightKeepsItsRender() throws {
        let temp = TemporaryDirectory("photoedit-race")
        let url = temp.url.appendingPathComponent("library")
        let library = try PhotoLibrary(url: url)
        let id = try #require(try library.importItems([Paths.sample("coffee.jpg")]).first?.id)
        // A plain SQLite connection to the catalog: it holds the write lock, not the library lock.
        let catalog = try DatabaseQueue(path: url.appendingPathComponent("catalog.sqlite").path)

        var commit: Background<Void>?
        var report: VerificationReport?
        try catalog.write { db in
            try db.execute(sql: "UPDATE asset SET revision = revision")
            commit = Background {
                let input = try library.requestContentEditingInput(for: id, options: ContentEditingInputRequestOptions(displaySize: nil))
                var output = ContentEditingOutput(contentEditingInput: input)
                try ForeignEditor.writeGrey(of: input, to: output.renderedContentURL.path)
                output.adjustmentData = AdjustmentData(formatIdentifier: ForeignEditor.formatIdentifier, formatVersion: "1", data: Data("f".utf8))
                try library.performChanges { try $0.changeRequest(for: id).contentEditingOutput = output }
            }
            // Its render is in place when a file appears under renders/.
            #expect(Self.waitUntil { !Self.files(under: url.path + "/renders").isEmpty })
            usleep(100_000)
            report = try library.verify(repair: true)
        }
        try #require(commit).wait().get()
        #expect(report?.repaired.isEmpty == true, "verify --repair removed the render of a commit in flight: \(report?.repaired ?? [])")
        let after = try library.verify()
        #expect(after.isClean, "\(after.problems)")
        #expect((try? library.render(id, to: temp.file("current.jpg"))) != nil, "the committed foreign edit has no render")
    }
}
