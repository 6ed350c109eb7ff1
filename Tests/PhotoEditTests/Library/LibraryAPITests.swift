import Foundation
import Testing
@testable import PhotoEdit

/// The library API as another service uses it (issue 10 §3): outputs commit
/// only to their own photo, change requests read the photo and belong to
/// their block, typed dates and locations, values out of `performChanges`.
@Suite("Library API for services")
struct LibraryAPITests {
    struct Fixture {
        let temp = TemporaryDirectory("photoedit-api")
        let library: PhotoLibrary
        let a: String
        let b: String

        init() throws {
            library = try PhotoLibrary(url: temp.url.appendingPathComponent("library"))
            let ids = try library.importItems([Paths.sample("coffee.jpg"), Paths.sample("chelsea.jpg")]).compactMap(\.id)
            guard ids.count == 2 else { throw CLIError("import failed") }
            (a, b) = (ids[0], ids[1])
        }
    }

    /// Data-integrity bug: an output made from A's input, committed through
    /// B's change request, landed on B. It must be refused, nothing changed.
    @Test func outputCommitsOnlyToItsOwnPhoto() throws {
        let f = try Fixture()
        let input = try f.library.requestContentEditingInput(for: f.a, options: ContentEditingInputRequestOptions(displaySize: nil))
        var output = ContentEditingOutput(contentEditingInput: input)
        try ForeignEditor.writeGrey(of: input, to: output.renderedContentURL.path)
        output.adjustmentData = AdjustmentData(formatIdentifier: ForeignEditor.formatIdentifier, formatVersion: "1", data: Data("x".utf8))
        let before = try APISnapshot.take(f.library, includeStaging: false)
        _ = expectPhotoEditError("output of A on B", {
            try f.library.performChanges { try $0.changeRequest(for: f.b).contentEditingOutput = output }
        }) { if case .invalidChange(let m) = $0 { m.contains(f.a) && m.contains(f.b) } else { false } }
        #expect(try APISnapshot.take(f.library, includeStaging: false).difference(before).isEmpty)
        #expect(try f.library.asset(f.b).revision == 0)
        // A refused output's render leaves staging (issue 41: no staged file outlives its
        // refusal); the editor writes it again and the same output commits to A.
        #expect(!FileManager.default.fileExists(atPath: output.renderedContentURL.path))
        try ForeignEditor.writeGrey(of: input, to: output.renderedContentURL.path)
        try f.library.performChanges { try $0.changeRequest(for: f.a).contentEditingOutput = output }
        #expect(try f.library.asset(f.a).revision == 1)
    }

    /// A change request reads the photo's current flags.
    @Test func changeRequestReadsTheCurrentFlags() throws {
        let f = try Fixture()
        try f.library.performChanges { c in
            try c.changeRequest(for: f.a).isFavorite = true
            try c.changeRequest(for: f.b).setHidden(true)
        }
        try f.library.performChanges { c in
            let ra = try c.changeRequest(for: f.a), rb = try c.changeRequest(for: f.b)
            #expect(ra.isFavorite && !ra.isHidden)
            #expect(!rb.isFavorite && rb.isHidden)
            ra.isHidden = true
            #expect(ra.isHidden && ra.isFavorite)
        }
        #expect(try f.library.asset(f.a).isFavorite && f.library.asset(f.a).isHidden)
    }

    /// An edit returns the revision it wrote, even while another writer
    /// edits the same photo: each returned revision holds that call's own
    /// recipe (reading the history's last revision after the commit could
    /// hand back the other writer's).
    @Test func anEditReturnsTheRevisionItWrote() async throws {
        let f = try Fixture()
        let library = f.library, id = f.a
        let returned = try await withThrowingTaskGroup(of: [(String, Revision)].self) { group in
            for writer in 1...2 {
                group.addTask {
                    var mine: [(String, Revision)] = []
                    for k in 0..<6 {
                        let chain = "contrast=+\(writer * 10 + k)"
                        do {
                            mine.append((chain, try await BlockingExecutor.run { try library.apply(chain: chain, to: id) }))
                        } catch PhotoEditError.conflict {
                            continue   // the other writer committed first: nothing written
                        }
                    }
                    return mine
                }
            }
            return try await group.reduce(into: []) { $0 += $1 }
        }
        #expect(!returned.isEmpty)
        #expect(Set(returned.map(\.1.number)).count == returned.count, "each call wrote its own revision")
        for (chain, revision) in returned {
            let recipe = try Recipe(adjustmentData: try #require(revision.adjustmentData), registry: library.registry)
            let text = Chain.format(recipe, registry: library.registry)
            #expect(text.contains(chain), "revision \(revision.number) returned for \(chain) holds \(text)")
        }
    }

    /// A request kept after its block is refused, and changes nothing.
    @Test func requestUsedAfterItsBlockIsAnError() throws {
        let f = try Fixture()
        nonisolated(unsafe) var kept: AssetChangeRequest?
        nonisolated(unsafe) var keptChanges: PhotoLibraryChanges?
        try f.library.performChanges { c in
            kept = try c.changeRequest(for: f.a)
            keptChanges = c
        }
        let isLate: (PhotoEditError) -> Bool = { if case .invalidChange(let m) = $0 { m.contains("after its performChanges block") } else { false } }
        _ = expectPhotoEditError("setFavorite", { try kept!.setFavorite(true) }, matches: isLate)
        _ = expectPhotoEditError("delete", { try kept!.delete() }, matches: isLate)
        _ = expectPhotoEditError("setLocation", { try kept!.setLocation(Location(latitude: 1, longitude: 2)) }, matches: isLate)
        _ = expectPhotoEditError("changeRequest", { _ = try keptChanges!.changeRequest(for: f.b) }, matches: isLate)
        // A property set cannot throw: it is ignored (the property keeps its
        // value, `lateUse` says so) and the caller's process goes on.
        #expect(kept!.lateUse == nil)
        kept!.isFavorite = true
        kept!.isHidden = true
        #expect(!kept!.isFavorite && !kept!.isHidden)
        #expect(kept!.lateUse?.contains("isHidden was set after its performChanges block") == true, "\(kept!.lateUse ?? "nil")")
        let asset = try f.library.asset(f.a)
        #expect(!asset.isFavorite && !asset.isHidden && asset.deletedDate == nil && asset.location == nil)
    }

    /// `setCreationDate` takes a `Date`, stored in the time zone given, and
    /// queries match it; dates ISO text cannot hold are refused.
    @Test func creationDateIsADate() throws {
        let f = try Fixture()
        let date = try Date("2021-06-15T12:30:00Z", strategy: .iso8601)
        try f.library.performChanges { c in
            try c.changeRequest(for: f.a).setCreationDate(date, timeZone: TimeZone(secondsFromGMT: 2 * 3600)!)
            try c.changeRequest(for: f.b).setCreationDate(date)
        }
        #expect(try f.library.asset(f.a).creationDate == "2021-06-15T14:30:00+02:00")
        #expect(try f.library.asset(f.b).creationDate == "2021-06-15T12:30:00+00:00")
        let found = try f.library.fetchAssets(FetchOptions(predicate: try AssetPredicate(parsing: "created = 2021-06-15"))).identifiers
        #expect(Set(found) == [f.a, f.b])
        for bad in [Date.distantFuture.addingTimeInterval(1e12), Date(timeIntervalSinceReferenceDate: -7e10)] {
            _ = expectPhotoEditError("date \(bad)", {
                try f.library.performChanges { try $0.changeRequest(for: f.a).setCreationDate(bad) }
            }) { if case .invalidChange(let m) = $0 { m.contains("out of range") } else { false } }
        }
        #expect(try f.library.asset(f.a).creationDate == "2021-06-15T14:30:00+02:00")
    }

    /// `performChanges(returning:)` hands back what the block made, sync and async.
    @Test func performChangesReturnsAValue() async throws {
        let f = try Fixture()
        let sync: () throws -> ObjectPlaceholder = { try f.library.performChanges(returning: { c in c.createAlbum(title: "Trip") }) }
        let album = try sync()
        #expect(try await BlockingExecutor.run { try f.library.fetchAlbums() }.identifiers == [album.localIdentifier])
        let b = f.b
        let (placeholder, favorite): (ObjectPlaceholder, Bool) = try await BlockingExecutor.run { try f.library.performChanges(returning: { @Sendable c in
            let r = try c.changeRequest(for: b)
            r.isFavorite = true
            return (c.createAlbum(title: "Cats"), r.isFavorite)
        }) }
        #expect(favorite)
        #expect(try await BlockingExecutor.run { try f.library.fetchAlbums(titleContains: "Cats") }.identifiers == [placeholder.localIdentifier])
    }

    /// A fetch result is a random-access collection of its objects.
    @Test func fetchResultIsACollection() throws {
        let f = try Fixture()
        let result = try f.library.fetchAssets()
        #expect(result.count == 2)
        #expect(Set(result.map(\.id)) == [f.a, f.b])
        #expect(result[result.index(before: result.endIndex)].id == result.identifiers.last)
        #expect(result.reversed().map(\.id) == result.identifiers.reversed())
    }
}

extension LibraryAPITests {
    /// `apply(recipe:)` takes a recipe on another tool's render (its base is
    /// known: the render the photo's edit builds on) and refuses one for a
    /// photo with no such render.
    @Test func recipeOnAForeignRenderApplies() throws {
        let f = try Fixture()
        try ForeignEditor.commitGrey(f.library, f.a, keepCopyAt: f.temp.file("grey.jpg"))
        try f.library.apply(chain: "exposure=+0.5", to: f.a)
        let recipe = try f.library.currentRecipe(f.a)
        #expect(recipe.base == .render)
        let first = f.temp.file("first.png"), again = f.temp.file("again.png")
        try f.library.render(f.a, to: first)
        let revision = try f.library.apply(recipe: recipe, to: f.a)
        #expect(revision.baseRevision == 1 && revision.number == 3)
        try f.library.render(f.a, to: again)
        #expect(try Pixels.deltaE(first, again).max == 0)
        _ = expectPhotoEditError("render base on an unedited photo", { _ = try f.library.apply(recipe: recipe, to: f.b) }) {
            if case .invalidAdjustmentData(let m) = $0 { m.contains("no other tool's edit") } else { false }
        }
    }
}
