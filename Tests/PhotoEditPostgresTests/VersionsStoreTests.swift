// Only with the `Server` trait (Package.swift): these tests need its servers and modules.
#if Server
import Foundation
import Testing
import PhotoEdit
@testable import PhotoEditPostgres
import PhotoEditTestSupport

/// Virtual copies, snapshots and selective sync on both catalog stores
/// (issue 40): the same behaviour on SQLite and on PostgreSQL (pg8).
@Suite("Versions on both stores", .serialized)
struct VersionsStoreTests {
    @Test(arguments: CatalogStoreKind.allCases)
    func copiesSnapshotsAndSync(_ store: CatalogStoreKind) async throws {
        try await CatalogStoreFixture.on(store) { f in
            let lib = f.library
            try lib.apply(chain: "temperature=+20,exposure=+0.5,vignette=-20", to: f.a)
            let copy = try lib.duplicate(f.a, name: "B&W")
            let master = try lib.asset(f.a)
            #expect(copy.masterIdentifier == f.a && copy.copyName == "B&W" && copy.revision == 1 && copy.sha256 == master.sha256)
            #expect(try lib.currentRecipe(copy.id) == lib.currentRecipe(f.a))
            let fresh = try lib.duplicate(copy.id, fresh: true)
            #expect(fresh.masterIdentifier == f.a && fresh.copyName == "Copy 2" && fresh.adjustmentData == nil)
            #expect(try lib.versions(of: f.a).map(\.id) == [f.a, copy.id, fresh.id])
            let found = try lib.fetchAssets(FetchOptions(predicate: try AssetPredicate(parsing: "master=\(f.a) and copy"))).allObjects()
            #expect(Set(found.map(\.id)) == [copy.id, fresh.id])
            #expect(try lib.importItems([Paths.sample("coffee.jpg")]).first?.id == f.a, "the same bytes find the master")

            try lib.addSnapshot("Before client", of: copy.id)
            #expect(throws: PhotoEditError.self) { try lib.addSnapshot("Before client", of: copy.id) }
            try lib.apply(chain: "saturation=-100", to: copy.id)
            _ = try lib.restoreSnapshot("Before client", of: copy.id)
            #expect(try lib.currentRecipe(copy.id) == lib.currentRecipe(f.a))
            #expect(try lib.snapshots(of: copy.id).map(\.revision) == [1])

            try lib.syncRecipe(from: f.a, to: [f.b], groups: [.wb])
            #expect(try lib.currentRecipe(f.b).nodes.map(\.filter) == ["temperature"])

            // Purge: the original stays while a photo uses it.
            func originals() -> Int {
                (FileManager.default.enumerator(atPath: f.folder.appendingPathComponent("originals").path)?.allObjects as? [String] ?? [])
                    .filter { $0.hasSuffix(".jpg") }.count
            }
            #expect(originals() == 2)
            try lib.performChanges { c in try c.changeRequest(for: f.a).delete() }
            try lib.performChanges { c in try c.changeRequest(for: f.a).purge() }
            #expect(originals() == 2, "the master's original stays: its copies use it")
            #expect(try lib.asset(copy.id).masterIdentifier == nil, "the oldest copy is the master now")
            #expect(try lib.asset(fresh.id).masterIdentifier == copy.id)
            #expect(try lib.verify().problems.isEmpty)
            for id in [copy.id, fresh.id] {
                try lib.performChanges { c in try c.changeRequest(for: id).delete() }
                try lib.performChanges { c in try c.changeRequest(for: id).purge() }
            }
            #expect(originals() == 1, "the last purge removes it")
            #expect(try lib.verify().problems.isEmpty)
        }
    }
}
#endif
