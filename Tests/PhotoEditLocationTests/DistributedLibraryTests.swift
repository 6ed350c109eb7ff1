// Only with the `Server` trait (Package.swift): these tests need its servers and modules.
#if Server
import Foundation
@testable import PhotoEdit
import PhotoEditLocation
import PhotoEditPostgres
import PhotoEditS3
import PhotoEditSampleCatalog
import PhotoEditTestSupport
import Testing

/// The library-level tests that matter, on both kinds of library: a folder
/// with its SQLite catalog, and a distributed one — its catalog on a real
/// PostgreSQL, its files in a real SeaweedFS's S3 — each started on loopback.
@Suite("Distributed library", .serialized)
struct DistributedLibraryTests {
    @Test(arguments: LibraryKind.allCases)
    func importFindsDuplicatesAndStoresOriginalsInTheStore(kind: LibraryKind) async throws {
        let f = try await LibraryFixture(kind)
        let first = try await BlockingExecutor.run { try f.library.importItems([Paths.sample("coffee.jpg"), Paths.sample("chelsea.jpg")]) }
        #expect(first.allSatisfy { $0.id != nil && !$0.duplicate })
        let again = try await BlockingExecutor.run { try f.library.importItems([Paths.sample("coffee.jpg")]) }
        #expect(again.first?.duplicate == true)
        #expect(again.first?.id == first[0].id)
        #expect(try await BlockingExecutor.run { try f.library.assets() }.count == 2)
        let originals = try await f.fileKeys("originals")
        #expect(originals.count == 2)
        let coffee = try await BlockingExecutor.run { try f.library.asset(first[0].id!) }
        #expect(originals.contains(where: { $0.contains(coffee.sha256) }))
        if kind == .distributed {
            // Nothing of the library's own files in the local work folder.
            #expect(!FileManager.default.fileExists(atPath: f.temp.appendingPathComponent("work/originals").path))
        }
        #expect(try await BlockingExecutor.run { try f.library.verify() }.isClean)
    }

    @Test(arguments: LibraryKind.allCases)
    func applyRenderRevertAndHistory(kind: LibraryKind) async throws {
        let f = try await LibraryFixture(kind)
        let id = try #require(try await BlockingExecutor.run { try f.library.importItems([Paths.sample("chelsea.jpg")]) }.first?.id)
        _ = try await BlockingExecutor.run { try f.library.apply(chain: "exposure=+0.5,crop=1:1", to: id) }
        let asset = try await BlockingExecutor.run { try f.library.asset(id) }
        #expect(asset.revision == 1)
        #expect(asset.pixelWidth == asset.pixelHeight)
        #expect(try await f.fileKeys("renders").count == 1)
        // The records of revisions 0 (the import) and 1.
        #expect(try await f.fileKeys("revisions").count == 2)
        let out = f.temp.appendingPathComponent("out.jpg").path
        try await BlockingExecutor.run { try f.library.render(id, to: out) }
        let image = try Image.load(path: out, sequential: true)
        #expect(image.width == asset.pixelWidth && image.height == asset.pixelHeight)
        let reverted = try await BlockingExecutor.run { try f.library.revert(id, to: 0) }
        #expect(reverted.number == 2)
        #expect(try await BlockingExecutor.run { try f.library.history(id) }.map(\.number) == [0, 1, 2])
        #expect(try await BlockingExecutor.run { try f.library.currentRecipe(id) }.nodes.isEmpty)
        // Back to revision 1: its render restored from the recipe.
        _ = try await BlockingExecutor.run { try f.library.revert(id, to: 1) }
        #expect(try await BlockingExecutor.run { try f.library.asset(id) }.pixelWidth == asset.pixelWidth)
        let report = try await BlockingExecutor.run { try f.library.verify() }
        #expect(report.isClean, "\(report.problems)")
    }

    @Test(arguments: LibraryKind.allCases)
    func resourcesAreTheOriginalsBytes(kind: LibraryKind) async throws {
        let f = try await LibraryFixture(kind)
        let id = try #require(try await BlockingExecutor.run { try f.library.importItems([Paths.sample("coffee.jpg")]) }.first?.id)
        _ = try await BlockingExecutor.run { try f.library.apply(chain: "saturation=-0.5", to: id) }
        let resources = try await BlockingExecutor.run { try f.library.resources(for: id) }
        let photo = try #require(resources.first { $0.type == .photo })
        let out = f.temp.appendingPathComponent("resource").path
        try await BlockingExecutor.run { try f.library.writeResource(photo, to: out) }
        #expect(FileManager.default.contentsEqual(atPath: out, andPath: Paths.sample("coffee.jpg")))
        let render = try #require(resources.first { $0.type == .fullSizePhoto })
        #expect(render.fileSize > 1000)
    }

    @Test(arguments: LibraryKind.allCases)
    func purgeRemovesThePhoto(kind: LibraryKind) async throws {
        let f = try await LibraryFixture(kind)
        let ids = try await BlockingExecutor.run { try f.library.importItems([Paths.sample("coffee.jpg"), Paths.sample("chelsea.jpg")]) }.compactMap(\.id)
        _ = try await BlockingExecutor.run { try f.library.apply(chain: "exposure=+0.3", to: ids[1]) }
        try await BlockingExecutor.run { try f.library.performChanges { try $0.changeRequest(for: ids[1]).delete() } }
        try await BlockingExecutor.run { try f.library.performChanges { try $0.changeRequest(for: ids[1]).purge() } }
        #expect(try await BlockingExecutor.run { try f.library.assets(includeDeleted: true) }.map(\.id) == [ids[0]])
        // Renders and records go at once (their names are unique).
        #expect(try await f.fileKeys("renders").isEmpty)
        #expect(try await f.fileKeys("revisions").count == 1)   // the other photo's revision 0
        let report = try await BlockingExecutor.run { try f.library.verify() }
        #expect(report.isClean, "\(report.problems)")
        switch kind {
        case .folder:
            #expect(try await f.fileKeys("originals").count == 1)
        case .distributed:
            // A shared original stays until verify --repair, after the grace period.
            #expect(try await f.fileKeys("originals").count == 2)
            #expect(report.notes.contains { $0.contains("1 unreferenced blob(s) younger than the 1 h grace period") })
            let repaired = try await BlockingExecutor.run { try f.library.verify(repair: true, gracePeriod: 0) }
            #expect(repaired.isClean)
            #expect(repaired.repaired.count == 1)
            #expect(try await f.fileKeys("originals").count == 1)
        }
    }

    @Test(arguments: LibraryKind.allCases)
    func verifyRepairHonoursTheGracePeriod(kind: LibraryKind) async throws {
        let f = try await LibraryFixture(kind)
        let id = try #require(try await BlockingExecutor.run { try f.library.importItems([Paths.sample("coffee.jpg")]) }.first?.id)
        _ = try await BlockingExecutor.run { try f.library.apply(chain: "exposure=+0.2", to: id) }
        // A render left by a commit that never happened (or is in flight).
        let stray = "renders/\(id.prefix(2))/\(id)/7-0badf00d.jpg"
        let staged = f.temp.appendingPathComponent("stray.jpg").path
        try FileManager.default.copyItem(atPath: Paths.sample("coffee.jpg"), toPath: staged)
        try await BlockingExecutor.run { try f.library.files.publish(staged, as: stray) }
        #expect(try await f.fileKeys("renders").contains(stray))
        switch kind {
        case .folder:
            // A folder library: as ever, reported, and removed by repair.
            #expect(try await BlockingExecutor.run { try f.library.verify() }.problems.contains { $0.contains(stray) })
            #expect(try await BlockingExecutor.run { try f.library.verify(repair: true) }.repaired.contains { $0.contains(stray) })
        case .distributed:
            // Younger than the grace period: maybe another node's commit in flight.
            let young = try await BlockingExecutor.run { try f.library.verify(repair: true) }
            #expect(young.isClean)
            #expect(young.repaired.isEmpty)
            #expect(try await f.fileKeys("renders").contains(stray))
            // Older than it (a grace period of 0 s): a problem, which repair removes.
            #expect(try await BlockingExecutor.run { try f.library.verify(gracePeriod: 0) }.problems.contains { $0.contains(stray) })
            let old = try await BlockingExecutor.run { try f.library.verify(repair: true, gracePeriod: 0) }
            #expect(old.repaired.contains { $0.contains(stray) })
        }
        #expect(try await !f.fileKeys("renders").contains(stray))
        #expect(try await BlockingExecutor.run { try f.library.verify() }.isClean)
        #expect(try await BlockingExecutor.run { try f.library.currentRecipe(id) }.nodes.count == 1)
    }

    @Test(arguments: LibraryKind.allCases)
    func aMissingBlobIsReported(kind: LibraryKind) async throws {
        let f = try await LibraryFixture(kind)
        let id = try #require(try await BlockingExecutor.run { try f.library.importItems([Paths.sample("coffee.jpg")]) }.first?.id)
        _ = try await BlockingExecutor.run { try f.library.apply(chain: "exposure=+0.2", to: id) }
        let render = try #require(try await f.fileKeys("renders").first)
        try await BlockingExecutor.run { f.library.files.remove(render) }
        #expect(try await BlockingExecutor.run { try f.library.verify() }.problems.contains { $0.contains("render \(render) is missing") })
        let repaired = try await BlockingExecutor.run { try f.library.verify(repair: true) }
        #expect(repaired.repaired.contains { $0.contains("rebuilt as") })
        #expect(try await BlockingExecutor.run { try f.library.verify() }.isClean)
    }

    // MARK: The command line

    @Test(arguments: LibraryKind.allCases)
    func commandLineImportApplyRenderVerify(kind: LibraryKind) async throws {
        let f = try await LibraryFixture(kind)
        let library = try await f.libraryArgument
        let imported = try PhotoEditBinary.run(["import", "--library", library, Paths.sample("coffee.jpg"), Paths.sample("chelsea.jpg")], environment: f.environment)
        #expect(imported.status == 0, "\(imported.stderr)")
        let ids = imported.stdout.split(separator: "\n").map { String($0.prefix(32)) }
        try #require(ids.count == 2)
        let applied = try PhotoEditBinary.run(["apply", "--library", library, "exposure=+0.4", ids[0]], environment: f.environment)
        #expect(applied.status == 0, "\(applied.stderr)")
        let out = f.temp.appendingPathComponent("cli.jpg").path
        let rendered = try PhotoEditBinary.run(["render", "--library", library, ids[0], "-o", out], environment: f.environment)
        #expect(rendered.status == 0, "\(rendered.stderr)")
        #expect(try Image.load(path: out, sequential: true).width > 0)
        let verified = try PhotoEditBinary.run(["verify", "--library", library], environment: f.environment)
        #expect(verified.status == 0, "\(verified.stdout)\(verified.stderr)")
        if kind == .distributed {
            // The library object of this test sees what the CLI did.
            #expect(try await BlockingExecutor.run { try f.library.asset(ids[0]) }.revision == 1)
            // Without credentials: one line naming the bucket, no secret.
            let refused = try PhotoEditBinary.run(["list", "--library", library], environment: ["PGPASSWORD": f.environment["PGPASSWORD"] ?? ""],
                                                  removing: ["AWS_ACCESS_KEY_ID", "AWS_SECRET_ACCESS_KEY"])
            #expect(refused.status != 0)
            #expect(refused.stderr.contains("s3://\(f.store!.configuration.bucket)/"))
            #expect(refused.stderr.contains("AWS_ACCESS_KEY_ID"))
            #expect(refused.stderr.split(separator: "\n").count == 1)
            #expect(!refused.stderr.contains(SeaweedFS.secretKey))
        }
    }

    /// kill -9 of a child `photoedit` in the middle of commits: the blobs of
    /// its last change were put, its transaction never committed. The
    /// library stays consistent, every acknowledged change is there, and the
    /// leftovers are unreferenced blobs that only an old-enough repair removes.
    @Test(arguments: LibraryKind.allCases)
    func killedInTheMiddleOfACommit(kind: LibraryKind) async throws {
        let f = try await LibraryFixture(kind)
        let library = try await f.libraryArgument
        let imported = try PhotoEditBinary.run(["import", "--library", library, Paths.sample("coffee.jpg")], environment: f.environment)
        #expect(imported.status == 0, "\(imported.stderr)")
        let id = String(imported.stdout.prefix(32))
        try #require(id.count == 32)
        let applied = try PhotoEditBinary.run(["apply", "--library", library, "exposure=+0.4", id], environment: f.environment)
        #expect(applied.status == 0, "\(applied.stderr)")
        // Killed with its render and revision record put, before COMMIT.
        var crash = f.environment
        crash["PHOTOEDIT_CRASH_POINT"] = "before-commit"
        let killed = try PhotoEditBinary.run(["apply", "--library", library, "contrast=+0.3", id], environment: crash)
        #expect(killed.status != 0)
        let killedImport = try PhotoEditBinary.run(["import", "--library", library, Paths.sample("chelsea.jpg")], environment: crash)
        #expect(killedImport.status != 0)
        // Every acknowledged change is there; the killed ones are not.
        let list = try PhotoEditBinary.run(["history", "--library", library, id], environment: f.environment)
        #expect(list.status == 0, "\(list.stderr)")
        #expect(try await BlockingExecutor.run { try f.library.assets() }.map(\.id) == [id])
        #expect(try await BlockingExecutor.run { try f.library.asset(id) }.revision == 1)
        #expect(try await BlockingExecutor.run { try f.library.currentRecipe(id) }.nodes.map(\.filter) == ["exposure"])
        // Consistent: verify is clean (the leftovers are young, or recovered).
        let verified = try PhotoEditBinary.run(["verify", "--library", library], environment: f.environment)
        #expect(verified.status == 0, "\(verified.stdout)\(verified.stderr)")
        if kind == .distributed {
            #expect(verified.stderr.contains("younger than the 1 h grace period"))
            // Older than the grace period: removed; the referenced ones stay.
            let repaired = try PhotoEditBinary.run(["verify", "--library", library, "--repair", "--grace", "0s"], environment: f.environment)
            #expect(repaired.status == 0, "\(repaired.stdout)\(repaired.stderr)")
            #expect(repaired.stdout.contains("unreferenced blob removed"))
            #expect(try await f.fileKeys("originals").count == 1)
            #expect(try await f.fileKeys("renders").count == 1)
            #expect(try await BlockingExecutor.run { try f.library.verify() }.isClean)
            let out = f.temp.appendingPathComponent("after.jpg").path
            #expect(try PhotoEditBinary.run(["render", "--library", library, id, "-o", out], environment: f.environment).status == 0)
        }
    }
}
#endif
