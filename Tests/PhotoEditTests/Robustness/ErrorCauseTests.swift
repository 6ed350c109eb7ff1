import Foundation
import Testing
@testable import PhotoEdit

/// Issue 10 §3: errors keep their cause in a typed form, and never show the
/// names of the library's staging files (a service would pass them on).
@Suite("Error causes")
struct ErrorCauseTests {
    /// A message that names a staging file: `tmp/`, or a `<pid>-<uuid>` name.
    static func namesStaging(_ text: String) -> Bool {
        text.contains("/tmp/") && text.contains("library/tmp")
            || text.range(of: #"\d+-[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}"#, options: .regularExpression) != nil
    }

    static func damagedBytes() throws -> [(String, Data)] {
        let jpeg = try Data(contentsOf: URL(fileURLWithPath: Paths.sample("coffee.jpg")))
        let png = try Data(contentsOf: URL(fileURLWithPath: Paths.sample("chart.png")))
        let webp = try Data(contentsOf: URL(fileURLWithPath: Paths.sample("astronaut.webp")))
        return [("garbage", Data("not an image at all".utf8)), ("half jpeg", jpeg.prefix(jpeg.count / 2) + Data([0xFF, 0xD9])),
                ("cut jpeg", jpeg.prefix(jpeg.count - 200)), ("cut png", png.prefix(png.count - 30)),
                ("cut webp", webp.prefix(webp.count / 2)), ("header only", jpeg.prefix(400)), ("empty", Data())]
    }

    @Test func streamedUploadsNeverNameStagingFiles() async throws {
        let temp = TemporaryDirectory("photoedit-error-causes-stream")
        let library = try PhotoLibrary(url: temp.url.appendingPathComponent("library"))
        for (label, bytes) in try Self.damagedBytes() {
            for filename in [nil, "upload.jpg"] as [String?] {
                do {
                    _ = try await library.createAsset(fromChunks: AsyncStream { c in c.yield(bytes); c.finish() }, filename: filename)
                    Issue.record("\(label) was accepted (stream)")
                } catch let error as PhotoEditError {
                    #expect(!Self.namesStaging(error.description), "\(label) (stream): \(error.description)")
                }
            }
        }
    }

    @Test func uploadsAndOutputsNeverNameStagingFiles() throws {
        let temp = TemporaryDirectory("photoedit-error-causes")
        let library = try PhotoLibrary(url: temp.url.appendingPathComponent("library"))
        let id = try #require(try library.importItems([Paths.sample("coffee.jpg")]).first?.id)
        for (label, bytes) in try Self.damagedBytes() {
            for filename in [nil, "upload.jpg"] as [String?] {
                do {
                    _ = try library.createAsset(from: bytes, filename: filename)
                    Issue.record("\(label) was accepted")
                } catch let error as PhotoEditError {
                    #expect(!Self.namesStaging(error.description), "\(label): \(error.description)")
                }
            }
            let input = try library.requestContentEditingInput(for: id)
            var output = ContentEditingOutput(contentEditingInput: input)
            try bytes.write(to: output.renderedContentURL)
            output.adjustmentData = AdjustmentData(formatIdentifier: "com.example.editor", formatVersion: "1", data: Data("x".utf8))
            do {
                try library.performChanges { try $0.changeRequest(for: id).contentEditingOutput = output }
                Issue.record("\(label) render was accepted")
            } catch let error as PhotoEditError {
                #expect(!Self.namesStaging(error.description), "\(label) render: \(error.description)")
            }
        }
        // An output whose render was never written.
        let input = try library.requestContentEditingInput(for: id)
        var output = ContentEditingOutput(contentEditingInput: input)
        output.adjustmentData = AdjustmentData(formatIdentifier: "com.example.editor", formatVersion: "1", data: Data("x".utf8))
        do {
            try library.performChanges { try $0.changeRequest(for: id).contentEditingOutput = output }
            Issue.record("a missing render was accepted")
        } catch let error as PhotoEditError {
            #expect(!Self.namesStaging(error.description), "missing render: \(error.description)")
        }
    }

    /// A catalog that is not a database: a typed failure with SQLite's
    /// result code (SQLITE_NOTADB, 26), catchable without reading the text.
    @Test func catalogFailuresKeepSQLitesResultCode() throws {
        let temp = TemporaryDirectory("photoedit-error-catalog")
        let url = temp.url.appendingPathComponent("library")
        _ = try PhotoLibrary(url: url).importItems([Paths.sample("coffee.jpg")])
        for suffix in ["-wal", "-shm"] { unlink(url.path + "/catalog.sqlite" + suffix) }
        try Data(repeating: 0x5A, count: 8192).write(to: url.appendingPathComponent("catalog.sqlite"))
        do {
            _ = try PhotoLibrary(url: url)
            Issue.record("a garbage catalog opened")
        } catch PhotoEditError.catalog(let failure) {
            #expect(failure.resultCode == 26 && failure.primaryResultCode == 26)
            #expect(failure.isCorrupt && !failure.isBusy && !failure.isFull)
            #expect(PhotoEditError.catalog(failure).description.hasPrefix("library: catalog \(url.path)/catalog.sqlite: file is not a database"),
                    "\(PhotoEditError.catalog(failure))")
        }
        // Extended codes keep their primary code.
        let unique = CatalogFailure(resultCode: 2067, message: "UNIQUE constraint failed: asset.id", context: "catalog")
        #expect(unique.primaryResultCode == 19 && unique.isConstraint)
    }

    /// A libvips failure names the part of libvips that failed.
    @Test func nativeErrorsNameTheirLibvipsDomain() throws {
        let temp = TemporaryDirectory("photoedit-error-native")
        let jpeg = try Data(contentsOf: URL(fileURLWithPath: Paths.sample("coffee.jpg")))
        try jpeg.prefix(jpeg.count - 200).write(to: temp.url.appendingPathComponent("cut.jpg"))
        // libvips has one error buffer per process: under load (the whole
        // suite) another thread's line can come first, or another thread can
        // take ours. Of three decodes, at least one names VipsJpeg.
        var messages: [String] = []
        for _ in 0..<3 {
            do {
                try Image.load(path: temp.file("cut.jpg"), sequential: true).decodeEveryPixel()
                Issue.record("the cut file decoded")
            } catch let error as PhotoEditError {
                guard case .native = error else { Issue.record("not a native error: \(error)"); continue }
                messages.append(error.description)
                if error.nativeDomain == "VipsJpeg" && error.description.contains("Premature end of input file") { break }
            }
        }
        #expect(messages.contains { $0.contains("VipsJpeg: Premature end of input file") }, "\(messages)")
        #expect(PhotoEditError.native(library: "libvips", operation: "x", message: "vipspng: libpng read error\nmore").nativeDomain == "vipspng")
        #expect(PhotoEditError.native(library: "libvips", operation: "x", message: "a staged file: bad seek to 14709\nVipsJpeg: Corrupt JPEG data").nativeDomain == "VipsJpeg")
        #expect(PhotoEditError.native(library: "libraw", operation: "x", message: "Unsupported file format or not RAW file").nativeDomain == nil)
        #expect(PhotoEditError.unknownAsset("x").nativeDomain == nil)
    }

    /// libvips' error buffer is one for the process: a message can carry
    /// another thread's lines. Paths in them are cut to their last component,
    /// staging names hidden (an upload's refusal under load named another
    /// library's staging file).
    @Test func libvipsMessagesShowNoPaths() {
        let seen = "/tmp/photoedit-requests-12be880e-855/library/tmp/11779-f856a16b-d2a1-4c35-b368-120103ce18d4.import: bad seek to 14709\nVipsJpeg: Corrupt JPEG data: premature end of data segment"
        #expect(Vips.withoutPaths(seen) == "a staged file: bad seek to 14709\nVipsJpeg: Corrupt JPEG data: premature end of data segment")
        #expect(Vips.withoutPaths("VipsForeignLoad: \"/srv/photos/library/originals/ab/cd.jpg\" is not a known file format")
                == "VipsForeignLoad: \"cd.jpg\" is not a known file format")
        #expect(Vips.withoutPaths("tiff2vips: out of range (n/a), 3/4 done") == "tiff2vips: out of range (n/a), 3/4 done")
        #expect(Vips.withoutPaths("/a/b/c.jpg") == "c.jpg")
    }
}
