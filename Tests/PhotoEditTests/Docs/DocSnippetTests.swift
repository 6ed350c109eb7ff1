import Foundation
import Synchronization
import Testing
@testable import PhotoEdit

/// Issue 10 §3: every snippet of docs/library-api.md compiles, in sync and in
/// async code, and runs. `scripts/extract-doc-snippets` turns each ```swift
/// block into a function of DocSnippets.generated.swift (compiling it is the
/// proof it compiles); these tests check that file is what the page says now
/// and run each snippet against a fresh temporary library.
@Suite("docs/library-api.md snippets")
struct DocSnippetTests {
    @Test("the generated file is what the page says now")
    func generatedFileIsCurrent() throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", Paths.root.appendingPathComponent("scripts/extract-doc-snippets").path, "--check"]
        let errors = Pipe()
        process.standardError = errors
        process.standardOutput = FileHandle.nullDevice
        try process.run()
        let message = String(decoding: try FileIO.readToEnd(errors.fileHandleForReading.fileDescriptor, what: "the compiler's messages"), as: UTF8.self)
        process.waitUntilExit()
        #expect(process.terminationStatus != 127, "scripts/extract-doc-snippets needs python3 (3.8 or later, standard library only): \(message)")
        #expect(process.terminationStatus == 0, "\(message)")
    }

    @Test("the page has sync and async snippets, and few are left out")
    func coverage() {
        #expect(docSnippets.contains { if case .sync = $0.run { true } else { false } })
        #expect(docSnippets.contains { if case .async = $0.run { true } else { false } })
        let excluded = docSnippets.filter { if case .none = $0.run { true } else { false } }
        #expect(excluded.count <= 1, "blocks left out: \(excluded)")
    }

    @Test("each snippet runs on a temporary library", arguments: docSnippets)
    func runs(_ snippet: DocSnippet) async throws {
        let context = try DocSnippetContext()
        switch snippet.run {
        case .none, .compileOnly:
            return   // compiled (or not Swift); the reason is on the page
        case .sync(let body):
            try body(context)
        case .async(let body):
            try await body(context)
        case .untilCancelled(let body):
            // The live feed: it reads the commits made while it runs (a
            // failure there ends the task with that error), then ends when
            // its task is cancelled.
            let task = Task { try await body(context) }
            try await Task.sleep(for: .milliseconds(300))
            let id = context.id
            try await BlockingExecutor.run { try context.library.performChanges { try $0.changeRequest(for: id).setFavorite(true) } }
            try await BlockingExecutor.run { try context.library.apply(chain: "exposure=+0.3", to: id) }
            try await Task.sleep(for: .milliseconds(300))
            task.cancel()
            try await task.value
        }
    }

    @Test("the image snippet shows images and streams the original byte for byte")
    func imageSnippetDelivers() async throws {
        let context = try DocSnippetContext()
        let snippet = try #require(docSnippets.first { $0.section.hasPrefix("Image requests") })
        guard case .async(let body) = snippet.run else { Issue.record("image snippet is not async"); return }
        try await body(context)
        #expect(context.cell.shown.withLock { $0 } >= 1)
        try context.output.synchronize()
        #expect(try Data(contentsOf: context.outputFile) == (try Data(contentsOf: URL(fileURLWithPath: Paths.sample("chelsea.jpg")))))
    }

    /// Every public call of PhotoLibrary, ImageManager and the queries, as
    /// `name(firstLabel:` (`name()` without parameters), from the sources:
    /// the `async` ones and the synchronous ones.
    static func publicCalls() throws -> (async: Set<String>, sync: Set<String>) {
        var asyncCalls = Set<String>(), syncCalls = Set<String>()
        // The façade, its services, the catalog and the library's files (what was one Library/ folder), the image requests and the queries.
        let folders = ["Library", "Services", "Catalog", "Storage/Files", "Images", "Query"].map { Paths.root.appendingPathComponent("Sources/PhotoEdit/\($0)") }
        for folder in folders {
            let names = try FileManager.default.subpathsOfDirectory(atPath: folder.path).sorted()
            for name in names where name.hasSuffix(".swift") {
                let text = Array(try String(contentsOf: folder.appendingPathComponent(name), encoding: .utf8))
                var i = 0
                let marker = Array("public ")
                while i + marker.count < text.count {
                    guard Array(text[i..<(i + marker.count)]) == marker else { i += 1; continue }
                    // public [static] func NAME[<…>](PARAMETERS) EFFECTS {
                    var j = i + marker.count
                    let rest = String(text[j..<min(text.count, j + 200)])
                    guard let head = rest.firstMatch(of: /^(?:static )?func (\w+)(?:<[^>(]*>)?\(/) else { i = j; continue }
                    let function = String(head.1)
                    j += head.0.count
                    var depth = 1, parameters = ""
                    while j < text.count && depth > 0 {
                        if text[j] == "(" { depth += 1 } else if text[j] == ")" { depth -= 1 }
                        if depth > 0 { parameters.append(text[j]) }
                        j += 1
                    }
                    var effects = ""
                    while j < text.count && text[j] != "{" && text[j] != "\n" { effects.append(text[j]); j += 1 }
                    let first = parameters.split(separator: ":").first.map { $0.trimmingCharacters(in: .whitespacesAndNewlines) } ?? ""
                    let label = first.split(separator: " ").first.map(String.init) ?? ""
                    let call = parameters.isEmpty ? "\(function)()" : "\(function)(\(label):"
                    if effects.contains("async") { asyncCalls.insert(call) } else { syncCalls.insert(call) }
                    i = j
                }
            }
        }
        return (asyncCalls, syncCalls)
    }

    @Test("no public async call is the twin of a synchronous one: in async code the compiler never asks for an await the page does not show")
    func noAsyncTwins() throws {
        let calls = try Self.publicCalls()
        #expect(calls.sync.count > 50, "found only \(calls.sync.count) synchronous calls")
        // `createAsset(from:)` is synchronous for `Data` and async for an
        // `AsyncSequence` of bytes, which `Data` is not: no call can mean both.
        let twins = calls.async.intersection(calls.sync).subtracting(["createAsset(from:"])
        #expect(twins.isEmpty, "async twins of synchronous calls (use PhotoLibrary.run instead): \(twins.sorted())")
    }

    @Test("the page's table of async-only calls lists every public async call")
    func asyncTableIsComplete() throws {
        let page = try String(contentsOf: Paths.root.appendingPathComponent("docs/library-api.md"), encoding: .utf8)
        let table = try #require(page.split(separator: "Calls that are only `async`").dropFirst().first?
            .split(separator: "\n\n", omittingEmptySubsequences: true).first { $0.hasPrefix("|") }, "the page has no table of async-only calls")
        let calls = try Self.publicCalls().async
        #expect(calls.contains("run(_:"), "found \(calls.sorted())")
        let missing = calls.filter { !table.contains($0) && !["next()", "collect()"].contains($0) }
        #expect(missing.isEmpty, "async calls missing from docs/library-api.md's table: \(missing.sorted())")
    }

    @Test("every synchronous snippet is also compiled inside async code")
    func syncSnippetsCompileInAsyncCode() {
        let sync = docSnippets.filter {
            if case .sync = $0.run { true } else { false }
        }.map(\.number)
        #expect(!sync.isEmpty)
        let missing = Set(sync).subtracting(docSnippetsCompiledInAsyncCode)
        #expect(missing.isEmpty, "synchronous snippets not compiled in async code: \(missing.sorted())")
    }

    /// The `n`th runnable (sync or async) snippet (from 1) of the section whose title starts with `prefix`.
    static func snippet(_ prefix: String, _ n: Int = 1) throws -> DocSnippetRun {
        let matching = docSnippets.filter {
            guard $0.section.hasPrefix(prefix) else { return false }
            switch $0.run {
            case .sync, .async: return true
            default: return false
            }
        }
        try #require(matching.count >= n, "no snippet \(n) in a section '\(prefix)…'")
        return matching[n - 1].run
    }

    /// Runs `checks` synchronously (in async code the compiler would pick
    /// the library's async forms, as the page says).
    static func check<T>(_ checks: () throws -> T) throws -> T { try checks() }

    static func run(_ run: DocSnippetRun, _ context: DocSnippetContext) async throws {
        switch run {
        case .sync(let body): try body(context)
        case .async(let body): try await body(context)
        default: Issue.record("not a runnable snippet")
        }
    }

    @Test("the quick start imports, edits, renders and reverts as it says")
    func quickStart() async throws {
        let context = try DocSnippetContext()
        try await Self.run(Self.snippet("Using photoedit"), context)
        try Self.check { () throws -> Void in
            let library = try PhotoLibrary(url: URL(fileURLWithPath: context.path("/srv/photos")), create: false)
            let asset = try #require(try library.assets().first)
            #expect(asset.originalFilename == "IMG_0001.jpg")
            // Revisions 0 (the import), 1 (the edit), 2 (back to the original), 3 (revision 1 again).
            #expect(try library.history(asset.id).map(\.kind) == [.imported, .edit, .revert, .revert])
            #expect(asset.revision == 3)
            #expect(Set(try library.currentRecipe(asset.id).nodes.map(\.filter)) == ["crop", "exposure"])
            // The render of the edit: 16:9, within the 1024 box.
            let out = try Image.load(path: context.path("/tmp/out.jpg"), sequential: false)
            #expect(max(out.width, out.height) <= 1024 && abs(Double(out.width) / Double(out.height) - 16.0 / 9) < 0.01)
        }
    }

    @Test("the async snippet imports with jobs, edits a batch, makes an album and a favorite")
    func asyncSnippet() async throws {
        let context = try DocSnippetContext()
        try await Self.run(Self.snippet("Async code"), context)
        try Self.check { () throws -> Void in
            let library = try PhotoLibrary(url: URL(fileURLWithPath: context.path("/srv/photos")), create: false)
            let assets = try library.assets()
            #expect(assets.map(\.originalFilename).sorted() == ["IMG_0001.jpg", "IMG_0002.jpg"])
            // Each: the import, then the batch's edit.
            #expect(try assets.allSatisfy { try library.history($0.id).count == 2 && $0.adjustmentData != nil })
            #expect(Set(try library.album("Trip").assetIdentifiers) == Set(assets.map(\.id)))
            #expect(assets.filter(\.isFavorite).map(\.originalFilename) == ["IMG_0001.jpg"])
            #expect(FileManager.default.fileExists(atPath: context.path("/tmp/out.jpg")))
        }
    }

    @Test("the RAW snippet makes a RAW+JPEG pair and edits from its RAW")
    func rawSnippet() async throws {
        let context = try DocSnippetContext()
        try await Self.run(Self.snippet("Camera RAW"), context)
        try Self.check { () throws -> Void in
            #expect(try context.library.currentRecipe(context.rawID).nodes.contains { $0.filter == "raw" })
            let pair = try #require(try context.library.assets().first { $0.originalFilename == "IMG_0042.JPG" })
            #expect(pair.format == "jpeg")
            #expect(pair.alternate?.filename == "IMG_0042.DNG")
            #expect(try context.library.history(pair.id).last?.isBasedOnAlternate == true)
            let input = try context.library.requestContentEditingInput(for: pair.id,
                options: ContentEditingInputRequestOptions().startingFrom(alternate: true))
            #expect(input.base == .alternate)
            #expect(input.uniformTypeIdentifier == "com.adobe.raw-image")
            #expect(FileManager.default.fileExists(atPath: context.path("/tmp/raw.tif")))
        }
    }

    @Test("the change request snippets commit every request of the block")
    func changeRequests() async throws {
        let context = try DocSnippetContext()
        try await Self.run(Self.snippet("Change requests"), context)
        try Self.check { () throws -> Void in
            let library = context.library
            let asset = try library.asset(context.id)
            #expect(asset.isFavorite && !asset.isHidden)
            #expect(asset.location == Location(latitude: 48.8584, longitude: 2.2945))
            #expect(asset.creationDate?.hasSuffix("+01:00") == true || asset.creationDate?.hasSuffix("+02:00") == true)
            #expect(try library.album("Trip").assetIdentifiers == [context.id])
            #expect(try library.album("Trip 2").assetIdentifiers.isEmpty)
            #expect(try library.assets().contains { $0.originalFilename == "IMG_0002.jpg" })
        }
        // A content edit with another tool's adjustment data.
        try await Self.run(Self.snippet("Editing with your own tool"), context)
        try Self.check { () throws -> Void in
            #expect(try context.library.asset(context.id).adjustmentData?.formatIdentifier == "com.example.painter")
        }
    }

    @Test("the upload snippets create photos from Data, chunks and bytes")
    func uploads() async throws {
        let context = try DocSnippetContext()
        let before = try Self.check { try context.library.assets().count }
        try await Self.run(Self.snippet("Photos from bytes", 1), context)
        try Self.check { () throws -> Void in
            #expect(try context.library.assets().count == before + 1)   // the second createAsset found the same bytes
        }
        let other = try DocSnippetContext()
        try await Self.run(Self.snippet("Photos from bytes", 2), other)
        try Self.check { () throws -> Void in
            let names = try other.library.assets().map(\.originalFilename)
            #expect(names.contains("IMG_0043.HEIC") && names.contains("IMG_0042.JPG"))
        }
    }
}

/// How a snippet is run.
enum DocSnippetRun: Sendable {
    case none(reason: String)
    case compileOnly(@Sendable (DocSnippetContext) async throws -> Void, reason: String)
    case sync(@Sendable (DocSnippetContext) throws -> Void)
    case async(@Sendable (DocSnippetContext) async throws -> Void)
    case untilCancelled(@Sendable (DocSnippetContext) async throws -> Void)
}

/// One ```swift block of docs/library-api.md.
struct DocSnippet: Sendable, CustomTestStringConvertible {
    let number: Int
    let line: Int
    let section: String
    let run: DocSnippetRun
    var testDescription: String { "snippet \(number), docs/library-api.md:\(line) (\(section))" }
}

/// What the page's snippets name without declaring: a library with photos,
/// and the files its absolute paths stand for under a temporary folder.
final class DocSnippetContext: Sendable {
    let temp = TemporaryDirectory("photoedit-docs")
    let library: PhotoLibrary
    /// A JPEG photo (chelsea.jpg), in the album "Holidays".
    let id: String
    /// A RAW photo (linear.dng).
    let rawID: String
    let jpegData: Data
    /// An upload's body: coffee.heic in 64 KiB chunks.
    let requestBody: AsyncStream<Data>
    let myRecipeBytes = Data(#"{"brush":"charcoal"}"#.utf8)
    /// Another app's editor: renders its input to an upright grey JPEG.
    let render: @Sendable (URL, URL) throws -> Void = { try GreyRenderer().render($0, to: $1) }
    /// A view's update: `cell.show`.
    let show: @Sendable (RenderedImage, Bool) -> Void
    let cell = Cell()
    /// Where streamed bytes go: `outputFile`.
    let output: FileHandle
    let outputFile: URL
    let visibleIDs: [String]
    let scrolledAwayIDs: [String]

    init() throws {
        let raw = Paths.root.appendingPathComponent("Tests/Fixtures/raw")
        let files = [("/incoming/IMG_0001.jpg", Paths.sample("astronaut.jpg")),
                     ("/incoming/IMG_0002.jpg", Paths.sample("coffee.jpg")),
                     ("/card/DCIM/IMG_0042.JPG", raw.appendingPathComponent("coffee.jpg").path),
                     ("/card/DCIM/IMG_0042.DNG", raw.appendingPathComponent("coffee.dng").path)]
        for (name, source) in files {
            let target = temp.url.path + name
            try FileManager.default.createDirectory(atPath: (target as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
            try FileManager.default.copyItem(atPath: source, toPath: target)
        }
        try FileManager.default.createDirectory(atPath: temp.url.path + "/tmp", withIntermediateDirectories: true)
        library = try PhotoLibrary(url: temp.url.appendingPathComponent("library"))
        let ids = try library.importItems([Paths.sample("chelsea.jpg"), raw.appendingPathComponent("linear.dng").path,
                                           Paths.sample("chart.png")]).map { try #require($0.id) }
        id = ids[0]
        rawID = ids[1]
        visibleIDs = ids
        scrolledAwayIDs = [ids[2]]
        try library.performChanges { changes in
            _ = changes.createAlbum(title: "Holidays")
            try changes.albumChangeRequest(for: "Holidays").addAssets([ids[0]])
        }
        jpegData = try Data(contentsOf: URL(fileURLWithPath: Paths.sample("rotated-exif.jpg")))
        let heic = try Data(contentsOf: URL(fileURLWithPath: Paths.sample("coffee.heic")))
        requestBody = AsyncStream { continuation in
            for start in stride(from: 0, to: heic.count, by: 64 << 10) {
                continuation.yield(heic.subdata(in: start..<min(heic.count, start + (64 << 10))))
            }
            continuation.finish()
        }
        outputFile = temp.url.appendingPathComponent("streamed")
        _ = FileManager.default.createFile(atPath: outputFile.path, contents: nil)
        output = try FileHandle(forWritingTo: outputFile)
        show = { [cell] image, degraded in cell.show(image, degraded: degraded) }
    }

    /// The file an absolute path of the page stands for.
    func path(_ absolute: String) -> String { temp.url.path + absolute }

    /// Another app's editor: renders its input to an upright grey JPEG.
    private struct GreyRenderer: Sendable {
        func render(_ input: URL, to output: URL) throws {
            var image = try Image.load(path: input.path, sequential: false)
            image = try image.autorotated()
            let w = [0.2126, 0.7152, 0.0722]
            let out = try image.extractBands(0, count: 3).recombine(w + w + w).cast("uchar").copyForMetadata()
            out.setInt("orientation", 1)
            try Renderer.save(out, to: output.path, format: .jpeg, quality: 92)
        }
    }

    /// A view showing images: counts them and checks each decodes.
    final class Cell: Sendable {
        let shown = Mutex(0)
        func show(_ image: RenderedImage, degraded: Bool) {
            precondition(image.width > 0 && image.height > 0 && !image.data.isEmpty)
            shown.withLock { $0 += 1 }
        }
    }
}
