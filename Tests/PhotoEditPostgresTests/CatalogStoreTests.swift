// Only with the `Server` trait (Package.swift): these tests need its servers and modules.
#if Server
import Foundation
import PhotoEdit
@testable import PhotoEditPostgres
import PhotoEditSampleCatalog
import PhotoEditTestSupport
import Synchronization
import Testing

/// The same catalog-level tests on both catalog stores: a library whose
/// catalog is SQLite in its folder (the default), and one whose catalog is
/// a real PostgreSQL server on loopback (`PostgresCatalogStore`), its files
/// in a folder. Every test runs once per store and expects the same answers.
@Suite("Catalog stores", .serialized)
struct CatalogStoreTests {
    @Test(arguments: CatalogStoreKind.allCases)
    func importApplyRevertAndHistory(_ store: CatalogStoreKind) async throws {
        try await CatalogStoreFixture.on(store) { f in
            let lib = f.library
            #expect(try lib.assets().map(\.id) == [f.a, f.b], "import order")
            let coffee = try lib.asset(f.a)
            #expect(coffee.originalFilename == "coffee.jpg" && coffee.revision == 0 && coffee.adjustmentData == nil)
            #expect(abs(coffee.importDate.timeIntervalSinceNow) < 600, "the import time reads back as a time")
            #expect(try lib.asset(String(f.a.prefix(8))).id == f.a, "an id prefix resolves")
            #expect(try lib.importItems([Paths.sample("coffee.jpg")]).first.map { $0.duplicate && $0.id == f.a } == true, "the same bytes again: the same photo")

            try lib.apply(chain: "exposure=+0.5", to: f.a)
            try lib.apply(chain: "contrast=+10", to: f.a)
            #expect(try lib.currentRecipe(f.a).nodes.map(\.filter) == ["exposure", "contrast"])
            _ = try lib.revert(f.a)
            let history = try lib.history(f.a)
            #expect(history.map(\.number) == [0, 1, 2, 3])
            #expect(history.map(\.kind) == [.imported, .edit, .edit, .revert])
            #expect(history[1].adjustmentData?.data.isEmpty == false && history[3].adjustmentData == nil)
            #expect(try lib.asset(f.a).revision == 3 && lib.currentRecipe(f.a) == .empty)
            #expect(try lib.verify().problems.isEmpty)
        }
    }

    @Test(arguments: CatalogStoreKind.allCases)
    func flagsTrashAndPurge(_ store: CatalogStoreKind) async throws {
        try await CatalogStoreFixture.on(store) { f in
            let lib = f.library
            try lib.performChanges { c in
                try c.changeRequest(for: f.a).isFavorite = true
                try c.changeRequest(for: f.b).isHidden = true
                try c.changeRequest(for: f.a).setLocation(Location(latitude: 48.85, longitude: 2.35))
            }
            let a = try lib.asset(f.a)
            #expect(a.isFavorite && !a.isHidden && a.location == Location(latitude: 48.85, longitude: 2.35))
            #expect(try lib.asset(f.b).isHidden)
            #expect(try lib.assets().map(\.id) == [f.a], "hidden photos are left out")
            #expect(try lib.assets(includeHidden: true).count == 2)

            try lib.performChanges { try $0.changeRequest(for: f.a).delete() }
            #expect(try lib.asset(f.a).deletedDate != nil)
            #expect(try lib.assets(includeHidden: true).map(\.id) == [f.b])
            #expect(try lib.assets(onlyDeleted: true).map(\.id) == [f.a])
            try lib.performChanges { try $0.changeRequest(for: f.a).restore() }
            #expect(try lib.asset(f.a).deletedDate == nil)

            let original = f.folder.appendingPathComponent("originals").path
            let before = try FileManager.default.subpathsOfDirectory(atPath: original).filter { $0.hasSuffix(".jpg") }.count
            try lib.performChanges { try $0.changeRequest(for: f.b).delete() }
            try lib.performChanges { try $0.changeRequest(for: f.b).purge() }
            #expect(throws: PhotoEditError.self) { _ = try lib.asset(f.b) }
            #expect(try FileManager.default.subpathsOfDirectory(atPath: original).filter { $0.hasSuffix(".jpg") }.count == before - 1)
            // Nothing half done: one bad request in a block changes nothing.
            #expect(throws: PhotoEditError.self) {
                try lib.performChanges { c in
                    try c.changeRequest(for: f.a).isHidden = true
                    try c.changeRequest(for: f.a).purge()   // not deleted: refused
                }
            }
            #expect(try lib.asset(f.a).isHidden == false)
        }
    }

    @Test(arguments: CatalogStoreKind.allCases)
    func albums(_ store: CatalogStoreKind) async throws {
        try await CatalogStoreFixture.on(store) { f in
            let lib = f.library
            try lib.performChanges { c in
                _ = c.createAlbum(title: "Trip")
                try c.albumChangeRequest(for: "Trip").addAssets([f.a, f.b, f.a])
            }
            #expect(try lib.album("Trip").assetIdentifiers == [f.a, f.b])
            try lib.performChanges { try $0.albumChangeRequest(for: "Trip").moveAsset(f.b, to: 0) }
            #expect(try lib.fetchAssets(in: "Trip").identifiers == [f.b, f.a], "album order")
            #expect(try lib.asset(f.a).albums == ["Trip"])
            #expect(throws: PhotoEditError.self) { try lib.performChanges { _ = $0.createAlbum(title: "Trip") } }
            try lib.performChanges { c in
                _ = c.createAlbum(title: "Beach")
                let trip = try c.albumChangeRequest(for: "Trip")
                try trip.rename(to: "Road trip")
                try trip.removeAssets([f.b])
            }
            #expect(try lib.albums().map(\.title) == ["Beach", "Road trip"])
            #expect(try lib.fetchAlbums(titleContains: "TRIP").allObjects().map(\.title) == ["Road trip"])
            #expect(try lib.album("Road trip").assetIdentifiers == [f.a])
            try lib.performChanges { try $0.albumChangeRequest(for: "Road trip").delete() }
            #expect(try lib.albums().map(\.title) == ["Beach"] && lib.asset(f.a).albums.isEmpty)
        }
    }

    @Test(arguments: CatalogStoreKind.allCases)
    func queries(_ store: CatalogStoreKind) async throws {
        try await CatalogStoreFixture.on(store) { f in
            let lib = f.library
            try lib.apply(chain: "exposure=+0.3", to: f.b)
            try lib.performChanges { try $0.changeRequest(for: f.a).isFavorite = true }
            func ids(_ query: String, _ sort: String = "") throws -> [String] {
                try lib.fetchAssets(FetchOptions(predicate: query.isEmpty ? nil : try AssetPredicate(parsing: query),
                                                 sortDescriptors: sort.isEmpty ? [] : try AssetSortDescriptor.parseList(sort))).identifiers
            }
            #expect(try ids("") == [f.a, f.b])
            #expect(try ids("", "-imported") == [f.b, f.a])
            #expect(try ids("favorite") == [f.a])
            #expect(try ids("edited") == [f.b] && ids("not edited") == [f.a])
            #expect(try ids("name~CHEL") == [f.b])
            #expect(try ids("revision=1") == [f.b])
            #expect(try ids("", "name") == [f.b, f.a])
            let width = try lib.asset(f.a).pixelWidth
            #expect(try ids("width=\(width)").contains(f.a))
            #expect(try ids("imported>=2000") == [f.a, f.b], "a time bound compares with the stored times")
        }
    }

    /// Ratings, labels, keywords, titles and captions: stored, queried
    /// (a keyword matches the keywords below it, ignoring case), in the
    /// feed, all or nothing, and visible to another node.
    @Test(arguments: CatalogStoreKind.allCases)
    func descriptiveMetadata(_ store: CatalogStoreKind) async throws {
        try await CatalogStoreFixture.on(store) { f in
            let lib = f.library
            let seq = try lib.latestChangeSequence()
            try lib.performChanges { c in
                let a = try c.changeRequest(for: f.a), b = try c.changeRequest(for: f.b)
                try a.setRating(5); try a.setColorLabel(.red); try a.setTitle("Falls"); try a.setCaption("Gullfoss")
                try a.addKeywords(["Trips/Iceland/Reykjavik", "birds", "Birds", "Music/AC\\/DC"])
                try b.setRating(Rating.rejected); try b.addKeywords(["Trips/Icelandic"])
            }
            let a = try f.otherNode().asset(f.a)
            #expect(a.rating == 5 && a.colorLabel == .red && a.title == "Falls" && a.caption == "Gullfoss")
            #expect(a.keywords == ["birds", "Music/AC\\/DC", "Trips/Iceland/Reykjavik"])
            #expect(try lib.changes(since: seq).map { $0.entries.map(\.aspects) } == [[[.rating, .label, .keywords, .caption], [.rating, .keywords]]])
            func ids(_ query: String) throws -> [String] {
                try lib.fetchAssets(FetchOptions(predicate: try AssetPredicate(parsing: query))).identifiers
            }
            #expect(try ids("rating>=4") == [f.a] && ids("rating=-1") == [f.b])
            #expect(try ids("label=red") == [f.a] && ids("label=none") == [f.b])
            #expect(try ids("keyword=\"trips/iceland\"") == [f.a], "below it, ignoring case; not Trips/Icelandic")
            #expect(try ids("keyword=TRIPS") == [f.a, f.b])
            #expect(try ids("keyword=\"Music/AC\\\\/DC\"") == [f.a])
            #expect(try ids("keyword~ICELANDIC") == [f.b] && ids("keyword!=Trips/Icelandic") == [f.a])
            #expect(try ids("title~fall and caption~GULL") == [f.a])
            // All or nothing, with the same checks on both stores.
            #expect(throws: PhotoEditError.self) {
                try lib.performChanges { c in
                    try c.changeRequest(for: f.a).removeKeywords(["BIRDS"])
                    try c.changeRequest(for: f.b).setRating(9)
                }
            }
            #expect(try lib.asset(f.a).keywords.count == 3)
            try lib.removeKeywords(["BIRDS"], from: [f.a])
            try lib.setColorLabel(nil, of: [f.a])
            #expect(try lib.asset(f.a).keywords == ["Music/AC\\/DC", "Trips/Iceland/Reykjavik"] && lib.asset(f.a).colorLabel == nil)
            #expect(try lib.keywordCounts().map(\.count) == [1, 1, 1])
        }
    }

    @Test(arguments: CatalogStoreKind.allCases)
    func theChangeFeed(_ store: CatalogStoreKind) async throws {
        try await CatalogStoreFixture.on(store) { f in
            let lib = f.library
            let start = try lib.latestChangeSequence()
            #expect(start == 2, "one change set per import")
            try lib.performChanges { c in
                // The larger id first: touch order, not id order.
                if f.a > f.b {
                    try c.changeRequest(for: f.a).isFavorite = true
                    try c.changeRequest(for: f.b).isHidden = true
                } else {
                    try c.changeRequest(for: f.b).isHidden = true
                    try c.changeRequest(for: f.a).isFavorite = true
                }
            }
            try lib.apply(chain: "exposure=+0.3", to: f.a)
            let sets = try lib.changes(since: start)
            #expect(sets.map(\.seq) == [start + 1, start + 2])
            #expect(sets[0].assetIdentifiers == [max(f.a, f.b), min(f.a, f.b)], "in the order the commit touched them")
            let favorite = try #require(sets[0].changeDetails(forAsset: f.a))
            #expect(favorite.aspects == .favorite && favorite.objectBeforeChanges?.isFavorite == false && favorite.objectAfterChanges?.isFavorite == true)
            #expect(sets[1].changeDetails(forAsset: f.a)?.assetContentChanged == true)
            #expect(try lib.changeEntries(since: start, limit: 1).map(\.seq) == [start + 1, start + 1])
            #expect(try lib.changeEntries(since: 0).count == 5)
            // A failed commit writes no feed rows.
            #expect(throws: PhotoEditError.self) {
                try lib.performChanges { c in
                    try c.changeRequest(for: f.a).isHidden = true
                    try c.changeRequest(for: f.b).purge()
                }
            }
            #expect(try lib.latestChangeSequence() == start + 2)
        }
    }

    /// Each table's columns are declared once (the records' column lists
    /// drive decoding and inserts); they match both stores' migrated schemas.
    @Test(arguments: CatalogStoreKind.allCases)
    func theDeclaredColumnsAreTheSchema(_ store: CatalogStoreKind) async throws {
        try await CatalogStoreFixture.on(store) { f in
            let mismatches = try f.library.catalogSchemaMismatches()
            #expect(mismatches == [])
        }
    }

    /// One edit reads what it needs once: `photoedit apply ID CHAIN` (the
    /// command resolves its argument, then applies) and the conditional
    /// apply an HTTP edit makes run at most 3 catalog transactions each
    /// (they made ~9 when each step re-read the photo).
    @Test(arguments: CatalogStoreKind.allCases)
    func anEditMakesAtMostThreeCatalogTransactions(_ store: CatalogStoreKind) async throws {
        try await CatalogStoreFixture.on(store) { f in
            let lib = f.library
            var before = lib.catalogTransactionCount
            let id = try lib.resolve(String(f.a.prefix(8)))
            let revision = try lib.apply(chain: "crop=3:2,exposure=+0.3", to: id)
            let apply = lib.catalogTransactionCount - before
            #expect(apply <= 3, "photoedit apply made \(apply) catalog transactions")
            #expect(revision.number == 1 && revision.kind == .edit)
            let written = try lib.history(f.a).last
            #expect(written?.number == 1 && written?.adjustmentData == revision.adjustmentData, "the revision returned is the one written")
            let filters = try lib.currentRecipe(f.a).nodes.map(\.filter)
            #expect(Set(filters).isSuperset(of: ["crop", "exposure"]), "\(filters)")

            before = lib.catalogTransactionCount
            let conditional = try lib.apply(steps: try Chain.parse("contrast=+10"), to: f.a, ifAt: 1)
            let ifAt = lib.catalogTransactionCount - before
            #expect(ifAt <= 2, "an apply at a known revision made \(ifAt) catalog transactions")
            #expect(conditional.number == 2)
            #expect(try lib.asset(f.a).revision == 2)

            // A prefix, a revert: the same bounds.
            before = lib.catalogTransactionCount
            _ = try lib.apply(chain: "exposure=-0.3", to: String(f.b.prefix(6)))
            _ = try lib.revert(String(f.b.prefix(6)))
            let two = lib.catalogTransactionCount - before
            #expect(two <= 4, "an apply and a revert by prefix made \(two) catalog transactions")
            #expect(try lib.history(f.b).map(\.kind) == [.imported, .edit, .revert])
        }
    }

    @Test(arguments: CatalogStoreKind.allCases)
    func aStaleEditIsAConflict(_ store: CatalogStoreKind) async throws {
        try await CatalogStoreFixture.on(store) { f in
            let lib = f.library
            let stale = try f.output(for: f.b)
            try lib.apply(chain: "contrast=+10", to: f.b)
            do {
                try lib.performChanges { try $0.changeRequest(for: f.b).contentEditingOutput = stale }
                Issue.record("a stale edit was committed")
            } catch PhotoEditError.conflict(_, let expected, let actual) {
                #expect(expected == 0 && actual == 1)
            }
            #expect(try lib.asset(f.b).revision == 1)
            #expect(try lib.history(f.b).last?.adjustmentData?.formatIdentifier != "com.example.other")
        }
    }

    /// Two nodes commit an edit made from the same revision at the same
    /// moment: exactly one wins, the other gets a conflict, no update is lost.
    @Test(arguments: CatalogStoreKind.allCases)
    func concurrentEditsOnTwoNodesLoseNothing(_ store: CatalogStoreKind) async throws {
        try await CatalogStoreFixture.on(store) { f in
            let node2 = try f.otherNode()
            let id = f.a
            for round in 0..<4 {
                let outputs = [try f.output(for: f.a), try f.output(for: f.a, on: node2)]
                let libraries = [f.library, node2]
                let results = Mutex<[Bool]>([])
                DispatchQueue.concurrentPerform(iterations: 2) { i in
                    do {
                        try libraries[i].performChanges { try $0.changeRequest(for: id).contentEditingOutput = outputs[i] }
                        results.withLock { $0.append(true) }
                    } catch PhotoEditError.conflict {
                        results.withLock { $0.append(false) }
                    } catch {
                        Issue.record("round \(round): \(error)")
                    }
                }
                let outcome = results.withLock { $0 }
                #expect(outcome.count == 2 && outcome.filter { $0 }.count == 1, "round \(round): one commit wins, one conflicts (\(outcome))")
                #expect(try f.library.asset(f.a).revision == round + 1)
                #expect(try node2.history(f.a).count == round + 2, "the other node sees every revision")
            }
        }
    }
}
#endif
