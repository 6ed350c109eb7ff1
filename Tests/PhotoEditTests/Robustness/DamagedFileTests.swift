import Foundation
import Testing
@testable import PhotoEdit

/// Issue 10 §2: damaged files must not get in, and a library that already
/// holds one (from an older, less strict import) must say so in `verify`.
@Suite("Damaged files")
struct DamagedFileTests {
    /// Damaged copies of real samples, written into `folder`.
    static func damaged(in folder: TemporaryDirectory) throws -> [String: String] {
        var out: [String: String] = [:]
        let jpeg = try Data(contentsOf: URL(fileURLWithPath: Paths.sample("coffee.jpg")))
        // A camera JPEG cut in half with the end-of-image marker appended: it
        // used to import and render half grey.
        out["half.jpg"] = "Corrupt JPEG data"
        try (jpeg.prefix(jpeg.count / 2) + Data([0xFF, 0xD9])).write(to: folder.url.appendingPathComponent("half.jpg"))
        out["cut.jpg"] = "damaged or truncated"
        try jpeg.prefix(jpeg.count - 200).write(to: folder.url.appendingPathComponent("cut.jpg"))
        let png = try Data(contentsOf: URL(fileURLWithPath: Paths.sample("chart.png")))
        out["cut.png"] = "damaged or truncated"
        try png.prefix(png.count - 30).write(to: folder.url.appendingPathComponent("cut.png"))
        // A header that claims 65 500 × 1 832 pixels from 94 KB: a scan bomb.
        var bomb = jpeg
        let sof = try #require((0..<bomb.count - 9).first { bomb[$0] == 0xFF && bomb[$0 + 1] == 0xC0 })
        bomb.replaceSubrange(sof + 5..<sof + 9, with: [0x07, 0x28, 0xFF, 0xDC])
        out["bomb.jpg"] = "its header claims 65500×1832 pixels"
        try bomb.write(to: folder.url.appendingPathComponent("bomb.jpg"))
        return out
    }

    @Test func damagedFilesAreRefusedWithOneLine() throws {
        let (lib, _, _) = try CLILibrary.withTwoPhotos()
        let files = TemporaryDirectory("photoedit-damaged")
        for (name, message) in try Self.damaged(in: files) {
            try lib.expectUnchanged(by: ["import", files.file(name)], message: message)
        }
    }

    /// The refusal does not depend on thread timing: libvips 8.14 loses a
    /// decoder error when two of its workers wait on the failing tile, which
    /// let the file cut short in 3 imports of 5. Probed 30 times, it is
    /// refused 30 times.
    @Test func aFileCutShortIsRefusedEveryTime() throws {
        let files = TemporaryDirectory("photoedit-damaged-repeat")
        _ = try Self.damaged(in: files)
        var accepted = 0
        for _ in 0..<30 {
            do {
                _ = try Importer.probe(path: files.file("cut.jpg"), displayPath: "cut.jpg")
                accepted += 1
            } catch PhotoEditError.unreadableFile(_, let reason) {
                #expect(reason.hasPrefix("damaged or truncated"), "\(reason)")
            }
        }
        #expect(accepted == 0, "cut.jpg accepted \(accepted) times of 30")
    }

    /// Every refusal is one line: no GLib critical (a double unref on a damaged
    /// WebP), no libjxl trace.
    @Test(arguments: [("truncated.webp", "cannot decode (webpload)"), ("corrupt.jxl", "corrupt.jxl")])
    func librariesDoNotTalk(_ name: String, _ message: String) throws {
        let (lib, _, _) = try CLILibrary.withTwoPhotos()
        try lib.expectUnchanged(by: ["import", Paths.bad(name)], message: message)
    }

    /// The double unref itself is gone, not only silenced: with PHOTOEDIT_DEBUG
    /// (nothing silenced), a damaged WebP prints no GLib critical.
    @Test func noDoubleUnrefOnADamagedWebP() throws {
        let lib = CLILibrary()
        let r = try CLI.run(["import", "--library", lib.path, Paths.bad("truncated.webp")], environment: ["PHOTOEDIT_DEBUG": "1"])
        #expect(r.status != 0)
        #expect(!r.stderr.contains("CRITICAL"), "\(r)")
    }

    @Test func verifyFindsAnOriginalThatDoesNotDecode() throws {
        let temp = TemporaryDirectory("photoedit-verify-decode")
        let library = try PhotoLibrary(url: temp.url.appendingPathComponent("library"))
        let id = try #require(try library.importItems([Paths.sample("coffee.jpg")]).first?.id)
        #expect(try library.verify().isClean)
        // What an older import let in: the bytes match the catalog, but they are damaged.
        let original = try library.originalPath(id)
        let jpeg = try Data(contentsOf: URL(fileURLWithPath: original))
        chmod(original, 0o644)
        try (jpeg.prefix(jpeg.count / 2) + Data([0xFF, 0xD9])).write(to: URL(fileURLWithPath: original))
        let sha = try FileIO.sha256(of: original)
        try library.write { db in try db.execute("UPDATE asset SET sha256 = ? WHERE id = ?", sha, id) }
        let report = try library.verify()
        #expect(report.problems.contains { $0.contains("\(id): original") && $0.contains("does not decode") && $0.contains("Corrupt JPEG data") },
                "\(report.problems)")
    }
}
