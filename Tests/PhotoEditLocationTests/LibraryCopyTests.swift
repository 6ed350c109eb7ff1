// Only with the `Server` trait (Package.swift): these tests need its servers and modules.
#if Server
import Foundation
@testable import PhotoEdit
import PhotoEditLocation
import PhotoEditTestSupport
import Testing

/// `photoedit library copy` between a folder library and one on a real
/// PostgreSQL + SeaweedFS, both ways: killed half way and run again, then
/// compared photo by photo (rows, revisions, recipes, flags, metadata, albums) and
/// verified; a target that is not a partial copy of the source is refused.
@Suite("Library copy", .serialized)
struct LibraryCopyTests {

    /// The same photos, revisions, recipes, flags and albums.
    static func expectSame(_ a: PhotoLibrary, _ b: PhotoLibrary, _ label: String) throws {
        let photos = try a.assets(includeHidden: true, includeDeleted: true)
        #expect(try b.assets(includeHidden: true, includeDeleted: true).map(\.id) == photos.map(\.id), "\(label): the photos")
        for photo in photos {
            let copy = try b.asset(photo.id)
            #expect(copy == photo, "\(label): \(photo.id)")
            let (h1, h2) = (try a.history(photo.id), try b.history(photo.id))
            #expect(h1.map(\.number) == h2.map(\.number) && h1.map(\.kind) == h2.map(\.kind), "\(label): \(photo.id)'s history")
            #expect(h1.map(\.adjustmentData) == h2.map(\.adjustmentData), "\(label): \(photo.id)'s adjustment data")
        }
        #expect(try a.albums().map(\.title) == b.albums().map(\.title), "\(label): albums")
        for album in try a.albums() {
            #expect(try b.album(album.title).assetIdentifiers == album.assetIdentifiers, "\(label): album \(album.title)'s order")
        }
    }

    @Test func folderToPostgresAndSeaweedFSAndBack() async throws {
        let f = try await LibraryFixture(.distributed)
        let distributed = try await f.libraryArgument
        let folder = f.temp.appendingPathComponent("source")
        let source = try PhotoLibrary(url: folder)
        let ids = try await BlockingExecutor.run { try source.importItems(["coffee.jpg", "chelsea.jpg", "astronaut.jpg"].map(Paths.sample)) }.compactMap(\.id)
        try #require(ids.count == 3)
        _ = try await BlockingExecutor.run { try source.apply(chain: "exposure=+0.5", to: ids[0]) }
        _ = try await BlockingExecutor.run { try source.apply(chain: "contrast=+10", to: ids[0]) }
        _ = try await BlockingExecutor.run { try source.revert(ids[0], to: 1) }
        _ = try await BlockingExecutor.run { try source.apply(chain: "crop=1:1", to: ids[1]) }
        try await BlockingExecutor.run { try source.performChanges { c in
            try c.changeRequest(for: ids[1]).isFavorite = true
            try c.changeRequest(for: ids[2]).isHidden = true
            try c.changeRequest(for: ids[0]).setRating(4)
            try c.changeRequest(for: ids[0]).addKeywords(["Trips/Iceland", "Birds"])
            try c.changeRequest(for: ids[2]).setTitle("Astronaut")
            _ = c.createAlbum(title: "Trip")
            try c.albumChangeRequest(for: "Trip").addAssets([ids[1], ids[0]])
        } }

        // Killed before committing the second photo: the first is whole in the target, nothing of the others.
        var crash = f.environment
        crash["PHOTOEDIT_CRASH_POINT"] = "copy-before-commit-2"
        let killed = try PhotoEditBinary.run(["library", "copy", "--from", folder.path, "--to", distributed], environment: crash)
        #expect(killed.status != 0)
        let partial = try await BlockingExecutor.run { try f.library.assets(includeHidden: true) }
        #expect(partial.count == 1, "one whole photo before the crash")
        if let first = partial.first {
            #expect(try await BlockingExecutor.run { try f.library.history(first.id) }.count == source.history(first.id).count, "with every revision")
        }

        // Run again: carries on, and verifies.
        let copied = try PhotoEditBinary.run(["library", "copy", "--from", folder.path, "--to", distributed], environment: f.environment)
        #expect(copied.status == 0, "\(copied.stderr)")
        #expect(copied.stdout.hasPrefix("copied 2 photos (1 already there), 7 revisions, 1 album, "), "\(copied.stdout)")
        #expect(copied.stdout.split(separator: "\n").count == 1)
        try Self.expectSame(source, f.library, "folder → PostgreSQL")
        let report = try await BlockingExecutor.run { try f.library.verify() }
        #expect(report.isClean, "\(report.problems)")
        let again = try PhotoEditBinary.run(["library", "copy", "--from", folder.path, "--to", distributed], environment: f.environment)
        #expect(again.status == 0 && again.stdout.hasPrefix("copied 0 photos (3 already there)"), "\(again.stdout)\(again.stderr)")

        // A target holding a photo the source has not is refused, one line.
        let other = f.temp.appendingPathComponent("other")
        _ = try await BlockingExecutor.run { try PhotoLibrary(url: other).importItems([Paths.sample("rotated-exif.jpg")]) }
        let refused = try PhotoEditBinary.run(["library", "copy", "--from", other.path, "--to", distributed], environment: f.environment)
        #expect(refused.status != 0 && refused.stderr.contains("which the source has not"), "\(refused.stderr)")
        #expect(refused.stderr.split(separator: "\n").count == 1)

        // And back, into a new folder.
        let back = f.temp.appendingPathComponent("back")
        let returned = try PhotoEditBinary.run(["library", "copy", "--from", distributed, "--to", back.path], environment: f.environment)
        #expect(returned.status == 0 && returned.stdout.hasPrefix("copied 3 photos, 7 revisions, 1 album, "), "\(returned.stdout)\(returned.stderr)")
        let copy = try PhotoLibrary(url: back)
        try Self.expectSame(source, copy, "PostgreSQL → folder")
        #expect(try await BlockingExecutor.run { try copy.verify() }.isClean)
        let out = f.temp.appendingPathComponent("back.jpg").path
        try await BlockingExecutor.run { try copy.render(ids[1], to: out) }
        let width = try await BlockingExecutor.run { try source.asset(ids[1]) }.pixelWidth
        #expect(try Image.load(path: out, sequential: true).width == width)

        // Metadata changed in the distributed library: its record is a
        // blob, replaced in the same commit, checked by verify.
        try await BlockingExecutor.run { try f.library.performChanges { c in try c.changeRequest(for: ids[0]).setRating(2) } }
        let records = try f.library.files.list("revisions").map(\.relative).filter { $0.contains(ids[0]) && LibraryLayout.isMetadataRecord($0) }
        #expect(records.count == 1, "the replaced record removed: \(records)")
        let afterRating = try await BlockingExecutor.run { try f.library.verify() }
        #expect(afterRating.isClean, "\(afterRating.problems)")
        #expect(try await BlockingExecutor.run { try f.library.asset(ids[0]) }.rating == 2)
    }
}
#endif
