import Foundation
import Testing
@testable import PhotoEdit

/// `performChanges`: all-or-nothing blocks, placeholders, photo metadata,
/// recently deleted and purge, albums.
@Suite("Change requests: performChanges")
struct ChangeRequestTests {
    /// A library with A (coffee, edited once), B (chelsea, edited once after
    /// an input was read at revision 0) and album "Existing" holding A.
    struct Fixture {
        let temp = TemporaryDirectory("photoedit-changes")
        let library: PhotoLibrary
        let a: String
        let b: String
        /// An output for B made from revision 0: stale once B is at 1.
        let staleOutputForB: ContentEditingOutput

        init() throws {
            library = try PhotoLibrary(url: temp.url.appendingPathComponent("library"))
            let ids = try library.importItems([Paths.sample("coffee.jpg"), Paths.sample("chelsea.jpg")]).compactMap(\.id)
            guard ids.count == 2 else { throw CLIError("import failed") }
            (a, b) = (ids[0], ids[1])
            try library.apply(chain: "exposure=+0.5", to: a)
            let input = try library.requestContentEditingInput(for: b, options: ContentEditingInputRequestOptions(displaySize: nil))
            var output = ContentEditingOutput(contentEditingInput: input)
            try ForeignEditor.writeGrey(of: input, to: output.renderedContentURL.path)
            output.adjustmentData = AdjustmentData(formatIdentifier: ForeignEditor.formatIdentifier, formatVersion: "1", data: Data("stale".utf8))
            staleOutputForB = output
            try library.apply(chain: "contrast=+10", to: b)
            try library.performChanges { changes in
                _ = changes.createAlbum(title: "Existing")
                try changes.albumChangeRequest(for: "Existing").addAssets([ids[0]])
            }
        }

        /// Several valid requests of every kind; returns the created photo and album.
        func validRequests(_ c: PhotoLibraryChanges) throws -> (asset: ObjectPlaceholder, album: ObjectPlaceholder) {
            let created = c.createAsset(fromFileAt: Paths.sample("chart.png"))
            let album = c.createAlbum(title: "New")
            let ra = try c.changeRequest(for: a)
            ra.isFavorite = true
            try ra.setCreationDate(iso: "2020-01-02T03:04:05+01:00")
            try ra.setLocation(Location(latitude: 1.5, longitude: -2.25))
            try ra.revertAssetContentToOriginal()
            try c.changeRequest(for: b).isHidden = true
            try c.albumChangeRequest(for: "Existing").addAssets([b])
            try c.albumChangeRequest(for: "New").addAssets([created.localIdentifier, a, b])
            return (created, album)
        }
    }

    struct BadRequest: Sendable, CustomTestStringConvertible {
        let label: String
        let request: @Sendable (Fixture, PhotoLibraryChanges) throws -> Void
        let matches: @Sendable (PhotoEditError) -> Bool
        var testDescription: String { label }
    }

    static let badRequests: [BadRequest] = [
        BadRequest(label: "purge of a photo that is not deleted", request: { f, c in try c.changeRequest(for: f.b).purge() },
                   matches: { if case .invalidChange(let m) = $0 { return m.contains("not deleted") } else { return false } }),
        BadRequest(label: "album title that exists", request: { _, c in _ = c.createAlbum(title: "Existing") },
                   matches: { if case .invalidChange(let m) = $0 { return m.contains("already exists") } else { return false } }),
        BadRequest(label: "album created twice in the block", request: { _, c in _ = c.createAlbum(title: "New") },
                   matches: { if case .invalidChange(let m) = $0 { return m.contains("already exists") } else { return false } }),
        BadRequest(label: "add to an album deleted earlier in the block", request: { f, c in
            let r = try c.albumChangeRequest(for: "Existing")
            try r.delete()
            try r.addAssets([f.a])
        }, matches: { if case .unknownAlbum = $0 { return true } else { return false } }),
        BadRequest(label: "rename to a title that exists", request: { _, c in try c.albumChangeRequest(for: "New").rename(to: "Existing") },
                   matches: { if case .invalidChange(let m) = $0 { return m.contains("already exists") } else { return false } }),
        BadRequest(label: "empty album title", request: { _, c in _ = c.createAlbum(title: "  ") },
                   matches: { if case .invalidChange = $0 { return true } else { return false } }),
        BadRequest(label: "move to a position out of range", request: { f, c in try c.albumChangeRequest(for: "Existing").moveAsset(f.a, to: 9) },
                   matches: { if case .invalidChange(let m) = $0 { return m.contains("out of range") } else { return false } }),
        BadRequest(label: "location out of range", request: { f, c in try c.changeRequest(for: f.b).setLocation(Location(latitude: 91, longitude: 0)) },
                   matches: { if case .invalidChange(let m) = $0 { return m.contains("out of range") } else { return false } }),
        BadRequest(label: "import of a truncated file", request: { _, c in _ = c.createAsset(fromFileAt: Paths.bad("truncated.jpg")) },
                   matches: { if case .unreadableFile = $0 { return true } else { return false } }),
        BadRequest(label: "stale content edit", request: { f, c in try c.changeRequest(for: f.b).contentEditingOutput = f.staleOutputForB },
                   matches: { if case .conflict(_, let expected, let actual) = $0 { return expected == 0 && actual == 1 } else { return false } }),
        BadRequest(label: "unknown photo id", request: { _, c in _ = try c.changeRequest(for: "0123456789abcdef0123456789abcdef") },
                   matches: { if case .unknownAsset = $0 { return true } else { return false } }),
        BadRequest(label: "unknown album", request: { _, c in _ = try c.albumChangeRequest(for: "No such album") },
                   matches: { if case .unknownAlbum = $0 { return true } else { return false } }),
    ]

    @Test(arguments: badRequests)
    func oneBadRequestChangesNothing(_ bad: BadRequest) throws {
        let f = try Fixture()
        let before = try APISnapshot.take(f.library, includeStaging: false)
        var created: ObjectPlaceholder?
        expectPhotoEditError(bad.label, {
            try f.library.performChanges { c in
                created = try f.validRequests(c).asset
                try bad.request(f, c)
            }
        }, matches: bad.matches)
        let after = try APISnapshot.take(f.library, includeStaging: false)
        #expect(after == before, "\(bad.label): \(before.difference(after))")
        if let created { #expect(throws: PhotoEditError.self) { try f.library.asset(created.localIdentifier) } }
        #expect(try f.library.verify().isClean)
    }

    /// An error thrown by the block itself: nothing is committed, the error comes through.
    @Test func blockThatThrowsCommitsNothing() throws {
        let f = try Fixture()
        let before = try APISnapshot.take(f.library)
        #expect(throws: CLIError.self) {
            try f.library.performChanges { c in
                _ = try f.validRequests(c)
                throw CLIError("editor gave up")
            }
        }
        #expect(try APISnapshot.take(f.library) == before)
    }

    @Test func theSameBlockWithoutTheBadRequestCommitsEverything() throws {
        let f = try Fixture()
        var made: (asset: ObjectPlaceholder, album: ObjectPlaceholder)?
        try f.library.performChanges { c in made = try f.validRequests(c) }
        let (createdP, albumP) = try #require(made)
        #expect(!createdP.existed)
        let created = try f.library.asset(createdP.localIdentifier)
        #expect(created.originalFilename == "chart.png" && created.revision == 0)
        let album = try f.library.album(albumP.localIdentifier)
        #expect(album.title == "New")
        #expect(album.assetIdentifiers == [createdP.localIdentifier, f.a, f.b])
        #expect(try f.library.album("Existing").assetIdentifiers == [f.a, f.b])
        let a = try f.library.asset(f.a)
        #expect(a.isFavorite && !a.isHidden)
        #expect(a.creationDate == "2020-01-02T03:04:05+01:00")
        #expect(a.location == Location(latitude: 1.5, longitude: -2.25))
        #expect(a.revision == 2 && a.adjustmentData == nil)
        #expect(try f.library.history(f.a).last?.kind == .revert)
        #expect(a.albums == ["Existing", "New"])
        let b = try f.library.asset(f.b)
        #expect(b.isHidden && !b.isFavorite)
        #expect(try f.library.assets().map(\.id) == [f.a, createdP.localIdentifier], "hidden B is left out")
        #expect(try f.library.assets(includeHidden: true).map(\.id).contains(f.b))
        #expect(try f.library.verify().isClean)
    }

    @Test func placeholdersAndDuplicates() throws {
        let f = try Fixture()
        let copy = f.temp.file("same-bytes-other-name.jpg")
        try FileManager.default.copyItem(atPath: Paths.sample("coffee.jpg"), toPath: copy)
        let originalsBefore = try Hashing.tree(f.library.url.path).keys.filter { $0.hasPrefix("originals/") }
        var dup: ObjectPlaceholder?, twiceA: ObjectPlaceholder?, twiceB: ObjectPlaceholder?, album: ObjectPlaceholder?
        try f.library.performChanges { c in
            dup = c.createAsset(fromFileAt: copy)
            twiceA = c.createAsset(fromFileAt: Paths.sample("astronaut.jpg"))
            twiceB = c.createAsset(fromFileAt: Paths.sample("astronaut.jpg"))
            album = c.createAlbum(title: "Placeholders")
            try c.albumChangeRequest(for: "Placeholders").addAssets([twiceA!.localIdentifier])
        }
        #expect(dup?.localIdentifier == f.a && dup?.existed == true, "same bytes: the existing photo")
        let astronaut = try #require(twiceA?.localIdentifier)
        #expect(twiceB?.localIdentifier == astronaut, "the same new file twice in one block is one photo")
        #expect(twiceA?.existed == false && twiceB?.existed == true)
        #expect(try f.library.asset(astronaut).originalFilename == "astronaut.jpg")
        #expect(try f.library.assets().count == 3)
        #expect(try f.library.album(try #require(album?.localIdentifier)).assetIdentifiers == [astronaut])
        let originalsAfter = try Hashing.tree(f.library.url.path).keys.filter { $0.hasPrefix("originals/") }
        #expect(originalsAfter.count == originalsBefore.count + 1)
        #expect(try f.library.verify().isClean)
    }

    @Test func favoriteHiddenDateLocationSetAndCleared() throws {
        let f = try Fixture()
        try f.library.performChanges { c in
            let r = try c.changeRequest(for: f.b)
            r.isFavorite = true
            r.isHidden = true
            try r.setCreationDate(iso: "2019-12-31T23:59:59")
            try r.setLocation(Location(latitude: -33.8568, longitude: 151.2153))
        }
        var b = try f.library.asset(f.b)
        #expect(b.isFavorite && b.isHidden && b.creationDate == "2019-12-31T23:59:59+00:00")
        #expect(b.location == Location(latitude: -33.8568, longitude: 151.2153))
        #expect(try f.library.history(f.b).count == 2, "metadata changes add no revision")
        try f.library.performChanges { c in
            let r = try c.changeRequest(for: f.b)
            r.isFavorite = false
            r.isHidden = false
            try r.setCreationDate(nil)
            try r.setLocation(nil)
        }
        b = try f.library.asset(f.b)
        #expect(!b.isFavorite && !b.isHidden && b.creationDate == nil && b.location == nil)
    }

    @Test func deleteRestoreAndPurge() throws {
        let f = try Fixture()
        try f.library.apply(chain: "saturation=-50", to: f.a)        // A: revisions 0, 1, 2, two renders
        let files = try Hashing.tree(f.library.url.path)
        let aOriginal = try #require(files.keys.first { $0.hasPrefix("originals/") && files[$0] == (try? Hashing.sha256(Paths.sample("coffee.jpg"))) })
        let aRenders = files.keys.filter { $0.hasPrefix("renders/") && $0.contains(f.a) }
        #expect(aRenders.count == 2)

        try f.library.performChanges { try $0.changeRequest(for: f.a).delete() }
        let deleted = try f.library.asset(f.a)
        let date = try #require(deleted.deletedDate)
        #expect(try f.library.assets().map(\.id) == [f.b])
        #expect(try f.library.assets(includeDeleted: true).map(\.id) == [f.a, f.b])
        #expect(try f.library.assets(onlyDeleted: true).map(\.id) == [f.a])
        #expect(try Hashing.tree(f.library.url.path).keys.filter { $0.hasPrefix("originals/") || $0.hasPrefix("renders/") }.count == files.keys.filter { $0.hasPrefix("originals/") || $0.hasPrefix("renders/") }.count, "delete keeps every file")
        try f.library.performChanges { try $0.changeRequest(for: f.a).delete() }
        #expect(try f.library.asset(f.a).deletedDate == date, "deleting again keeps the first date")

        try f.library.performChanges { try $0.changeRequest(for: f.a).restore() }
        #expect(try f.library.asset(f.a).deletedDate == nil)
        #expect(try f.library.assets().map(\.id) == [f.a, f.b])

        expectPhotoEditError("purge of a restored photo", {
            try f.library.performChanges { try $0.changeRequest(for: f.a).purge() }
        }, matches: { if case .invalidChange = $0 { return true } else { return false } })
        #expect(FileManager.default.fileExists(atPath: f.library.url.path + "/" + aOriginal))

        try f.library.performChanges { try $0.changeRequest(for: f.a).delete() }
        try f.library.performChanges { try $0.changeRequest(for: f.a).purge() }
        expectPhotoEditError("asset after purge", { _ = try f.library.asset(f.a) },
                             matches: { if case .unknownAsset = $0 { return true } else { return false } })
        expectPhotoEditError("history after purge", { _ = try f.library.history(f.a) },
                             matches: { if case .unknownAsset = $0 { return true } else { return false } })
        let after = try Hashing.tree(f.library.url.path)
        #expect(after[aOriginal] == nil, "the original is removed from disk")
        for r in aRenders { #expect(after[r] == nil, "\(r) is removed from disk") }
        #expect(try f.library.album("Existing").assetIdentifiers.isEmpty, "and from its albums")
        #expect(try f.library.assets(includeHidden: true, includeDeleted: true).map(\.id) == [f.b])
        #expect(try f.library.history(f.b).count == 2, "the other photo is untouched")
        #expect(try f.library.verify().isClean)

        // Delete and purge in one block; then the same bytes import as a new photo.
        try f.library.performChanges { c in
            let r = try c.changeRequest(for: f.b)
            try r.delete()
            try r.purge()
        }
        #expect(try f.library.assets(includeHidden: true, includeDeleted: true).isEmpty)
        #expect(try Hashing.tree(f.library.url.path).keys.filter { $0.hasPrefix("originals/") || $0.hasPrefix("renders/") }.isEmpty)
        let again = try #require(try f.library.importItems([Paths.sample("coffee.jpg")]).first)
        #expect(again.id != nil && again.id != f.a && !again.duplicate)
        #expect(try f.library.verify().isClean)
    }

    /// Purge removes the photo's files for good, derivatives included: no
    /// file in the library may still hold its pixels or name it.
    @Test func purgeLeavesNoFileOfThePhoto() throws {
        let f = try Fixture()
        let foreignCopy = f.temp.file("foreign.jpg")
        try ForeignEditor.commitGrey(f.library, f.b, keepCopyAt: foreignCopy)      // makes a display-size image in cache/
        try f.library.apply(chain: "exposure=+1", to: f.b)                         // an edit on a foreign base
        _ = try f.library.requestContentEditingInput(for: f.b, options: ContentEditingInputRequestOptions(displaySize: 256))
        let before = try Hashing.tree(f.library.url.path).keys.filter { $0.contains(f.b) }.sorted()
        #expect(before.contains { $0.hasPrefix("cache/") }, "\(before)")
        try f.library.performChanges { c in
            let r = try c.changeRequest(for: f.b)
            try r.delete()
            try r.purge()
        }
        let left = try Hashing.tree(f.library.url.path).keys.filter { $0.contains(f.b) }.sorted()
        #expect(left.isEmpty, "files of the purged photo are still in the library: \(left)")
        let chelsea = try Hashing.sha256(Paths.sample("chelsea.jpg"))
        #expect(!(try Hashing.tree(f.library.url.path).values.contains(chelsea)))
        #expect(try f.library.verify().isClean)
    }

    @Test func albumsAddRemoveMoveRenameDelete() throws {
        let f = try Fixture()
        let c = try #require(try f.library.importItems([Paths.sample("astronaut.jpg")]).first?.id)
        var trip: ObjectPlaceholder?
        try f.library.performChanges { trip = $0.createAlbum(title: "Trip") }
        let tripID = try #require(trip?.localIdentifier)
        try f.library.performChanges { try $0.albumChangeRequest(for: "Trip").addAssets([f.a, f.b, c]) }
        #expect(try f.library.album("Trip").assetIdentifiers == [f.a, f.b, c])
        try f.library.performChanges { try $0.albumChangeRequest(for: tripID).addAssets([f.a]) }
        #expect(try f.library.album("Trip").assetIdentifiers == [f.a, f.b, c], "already there: left in place")
        try f.library.performChanges { try $0.albumChangeRequest(for: String(tripID.prefix(10))).moveAsset(c, to: 0) }
        #expect(try f.library.album("Trip").assetIdentifiers == [c, f.a, f.b])
        try f.library.performChanges { try $0.albumChangeRequest(for: "Trip").moveAsset(c, to: 2) }
        #expect(try f.library.album("Trip").assetIdentifiers == [f.a, f.b, c])
        try f.library.performChanges { try $0.albumChangeRequest(for: "Trip").removeAssets([f.b]) }
        #expect(try f.library.album("Trip").assetIdentifiers == [f.a, c])
        try f.library.performChanges { try $0.albumChangeRequest(for: "Trip").moveAsset(c, to: 0) }
        #expect(try f.library.album("Trip").assetIdentifiers == [c, f.a], "positions renumbered after the removal")
        expectPhotoEditError("move of a photo not in the album", {
            try f.library.performChanges { try $0.albumChangeRequest(for: "Trip").moveAsset(f.b, to: 0) }
        }, matches: { if case .invalidChange = $0 { return true } else { return false } })

        try f.library.performChanges { try $0.albumChangeRequest(for: "Trip").rename(to: "Holiday") }
        #expect(try f.library.album(tripID).title == "Holiday")
        expectPhotoEditError("old title", { _ = try f.library.album("Trip") },
                             matches: { if case .unknownAlbum = $0 { return true } else { return false } })
        try f.library.performChanges { try $0.albumChangeRequest(for: "Holiday").rename(to: "Holiday") }
        #expect(try f.library.asset(f.a).albums == ["Existing", "Holiday"])
        #expect(try f.library.albums().map(\.title) == ["Existing", "Holiday"])

        try f.library.performChanges { try $0.albumChangeRequest(for: "Holiday").delete() }
        #expect(try f.library.albums().map(\.title) == ["Existing"])
        #expect(try f.library.asset(c).albums.isEmpty)
        #expect(try f.library.assets().count == 3, "the photos stay")
        #expect(try f.library.verify().isClean)
    }
}
