import Foundation
import Testing
@testable import PhotoEdit
import PhotoEditTestSupport

/// Helpers for the content-editing, change-request, crash and concurrency
/// tests: in-process library snapshots, a "foreign" editor, typed-error
/// checks, a seeded random generator and raw `photoedit` processes.

/// Everything observable about a library through the Swift API, plus the
/// hash of every file. Compare a "before" and an "after" to prove a failed
/// change left the library as it was.
struct APISnapshot: Equatable {
    var files: [String: String]
    var assets: [Asset]
    var histories: [String: [Revision]]
    var albums: [Album]

    /// - Parameter includeStaging: hash `tmp/` too. Leave it out when the
    ///   caller itself staged a file there (a `ContentEditingOutput`'s
    ///   `renderedContentURL`), which the engine consumes or leaves.
    static func take(_ library: PhotoLibrary, includeStaging: Bool = true) throws -> APISnapshot {
        var files = try Hashing.tree(library.url.path)
        if !includeStaging { files = files.filter { !$0.key.hasPrefix("tmp/") } }
        let assets = try library.assets(includeHidden: true, includeDeleted: true)
        var histories: [String: [Revision]] = [:]
        for a in assets { histories[a.id] = try library.history(a.id) }
        return APISnapshot(files: files, assets: assets, histories: histories, albums: try library.albums())
    }

    /// A readable list of what differs.
    func difference(_ other: APISnapshot) -> String {
        var parts: [String] = []
        if files != other.files { parts.append("files: " + fileDifference(files, other.files)) }
        if assets != other.assets { parts.append("assets differ") }
        if histories != other.histories {
            let changed = Set(histories.keys).union(other.histories.keys).filter { histories[$0] != other.histories[$0] }
            parts.append("histories of \(changed.sorted()) differ")
        }
        if albums != other.albums { parts.append("albums differ: \(albums.map(\.title)) vs \(other.albums.map(\.title))") }
        return parts.joined(separator: "; ")
    }
}

/// Runs `body`, which must throw a `PhotoEditError` accepted by `matches`;
/// returns the error (nil if it did not throw as expected).
@discardableResult
func expectPhotoEditError(_ label: String, sourceLocation: SourceLocation = #_sourceLocation,
                          _ body: () throws -> Void, matches: (PhotoEditError) -> Bool) -> PhotoEditError? {
    do {
        try body()
        Issue.record("\(label): did not throw", sourceLocation: sourceLocation)
        return nil
    } catch let error as PhotoEditError {
        #expect(matches(error), "\(label): unexpected error \(error)", sourceLocation: sourceLocation)
        #expect(!error.description.contains("\n"), "\(label): error is not one line", sourceLocation: sourceLocation)
        return error
    } catch {
        Issue.record("\(label): threw a non-PhotoEditError \(type(of: error)): \(error)", sourceLocation: sourceLocation)
        return nil
    }
}

/// A stand-in for another app's editor: it renders the input's base image
/// to grey and commits that with its own adjustment data.
enum ForeignEditor {
    static let formatIdentifier = "com.example.painter"
    static let formatVersion = "1"
    static let recipeText = #"{"brush":"charcoal","strength":0.8}"#

    /// Writes an upright, 3-band grey JPEG of `input`'s base image to `path`.
    static func writeGrey(of input: ContentEditingInput, to path: String) throws {
        var image = try Image.load(path: input.fullSizeImageURL.path, sequential: false)
        if input.fullSizeImageOrientation != 1 { image = try image.autorotated() }
        let w = [0.2126, 0.7152, 0.0722]
        let grey = try image.extractBands(0, count: 3).recombine(w + w + w).cast("uchar")
        let out = try grey.copyForMetadata()
        out.setInt("orientation", 1)
        try Renderer.save(out, to: path, format: .jpeg, quality: 92)
    }

    /// Reads an input (the editor does not understand photoedit's recipes),
    /// renders grey and commits. Returns the committed render's bytes'
    /// SHA-256 and a copy of it at `keepCopyAt`.
    @discardableResult
    static func commitGrey(_ library: PhotoLibrary, _ id: String, keepCopyAt copy: String,
                           data: Data = Data(recipeText.utf8)) throws -> ContentEditingInput {
        let input = try library.requestContentEditingInput(for: id, options: ContentEditingInputRequestOptions(
            canHandleAdjustmentData: { $0.formatIdentifier == formatIdentifier }))
        var output = ContentEditingOutput(contentEditingInput: input)
        try writeGrey(of: input, to: output.renderedContentURL.path)
        try? FileManager.default.removeItem(atPath: copy)
        try FileManager.default.copyItem(atPath: output.renderedContentURL.path, toPath: copy)
        output.adjustmentData = AdjustmentData(formatIdentifier: formatIdentifier, formatVersion: formatVersion, data: data)
        try library.performChanges { changes in
            try changes.changeRequest(for: id).contentEditingOutput = output
        }
        return input
    }
}

/// Colour measures on decoded images.
enum Colour {
    /// Largest |R−G| and |G−B| over the image: about 0 for a grey image.
    static func maxChroma(_ path: String) throws -> Double {
        let image = try Pixels.load(path)
        guard image.bands >= 3 else { return 0 }
        let r = try image.extractBands(0, count: 1).cast("float"), g = try image.extractBands(1, count: 1).cast("float")
        let b = try image.extractBands(2, count: 1).cast("float")
        return max(try Pixels.maxAbsDifference(r, g), try Pixels.maxAbsDifference(g, b))
    }

    static func mean(_ path: String) throws -> Double { try Pixels.load(path).average() }
}

/// SplitMix64: a small seeded generator, so a failing random run can be replayed.
struct SeededGenerator: RandomNumberGenerator {
    private var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE5_E9B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// `PHOTOEDIT_TEST_SEED` if set, else a fresh random seed.
    static func seedFromEnvironment() -> UInt64 {
        if let text = ProcessInfo.processInfo.environment["PHOTOEDIT_TEST_SEED"], let n = UInt64(text) { return n }
        return UInt64.random(in: 1...UInt64.max)
    }
}

/// A `photoedit` process started directly with Foundation.Process, so its
/// pid is photoedit's own (no shell in between); output goes to /dev/null.
final class RawProcess: @unchecked Sendable {
    let process: Process
    let arguments: [String]

    init(_ arguments: [String]) throws {
        self.arguments = arguments
        process = try PhotoEditBinary.process(arguments)
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
    }

    var pid: Int32 { process.processIdentifier }

    /// Sends SIGKILL if the process still runs (by its own pid only).
    func killIfRunning() {
        if process.isRunning { kill(pid, SIGKILL) }
    }

    /// Waits; returns whether it was killed by SIGKILL (true) or exited (false), and its status.
    func wait() -> (killed: Bool, status: Int32) {
        process.waitUntilExit()
        let killed = process.terminationReason == .uncaughtSignal && process.terminationStatus == SIGKILL
        return (killed, process.terminationStatus)
    }
}

/// Runs `body` on `count` dedicated threads at once (not Dispatch's pool,
/// which on a 2-core machine would run only two blocking bodies at a time),
/// and waits for all of them.
func runOnThreads(_ count: Int, _ body: @escaping @Sendable (Int) -> Void) {
    let group = DispatchGroup()
    for i in 0..<count {
        group.enter()
        let thread = Thread {
            body(i)
            group.leave()
        }
        thread.start()
    }
    group.wait()
}

/// A temporary library with samples imported, one commit each, in order.
struct SampleLibrary {
    let temp: TemporaryDirectory
    let library: PhotoLibrary
    /// The ids of the samples, in the order given.
    let ids: [String]

    init(_ label: String, samples: [String]) throws {
        temp = TemporaryDirectory(label)
        let library = try PhotoLibrary(url: temp.url.appendingPathComponent("library"))
        self.library = library
        ids = try samples.map { name in
            guard let id = try library.importItems([Paths.sample(name)]).first?.id else { throw CLIError("importing \(name) failed") }
            return id
        }
    }
}

extension AssetChangeRequest {
    /// Sets the capture date from ISO 8601 text, in the text's own offset
    /// (UTC when it has none).
    func setCreationDate(iso text: String) throws {
        var zone = TimeZone(identifier: "UTC")!
        var full = text
        if let sign = text.dropFirst(19).first, sign == "+" || sign == "-" {
            let parts = text.dropFirst(20).split(separator: ":").compactMap { Int($0) }
            zone = TimeZone(secondsFromGMT: (sign == "-" ? -1 : 1) * (parts[0] * 3600 + parts[1] * 60))!
        } else if !text.hasSuffix("Z") {
            full += "Z"
        }
        try setCreationDate(try Date(full, strategy: .iso8601), timeZone: zone)
    }
}

/// Libraries the bad-input tests change nothing in (CLIBadInputTests, Robustness/).
extension CLILibrary {
    /// A library with two photos, one edited (so it has a stored render).
    static func withTwoPhotos() throws -> (CLILibrary, a: String, b: String) {
        let lib = CLILibrary()
        let ids = try lib.importFiles([Paths.sample("coffee.jpg"), Paths.sample("rotated-exif.jpg")])
        try lib.succeed(["apply", "crop=16:9,exposure=+0.3", ids[0]])
        return (lib, ids[0], ids[1])
    }

    /// Runs a command that must fail with one line naming `message` and
    /// change nothing: the files, `list --json` and every `history --json`.
    func expectUnchanged(by arguments: [String], message: String, sourceLocation: SourceLocation = #_sourceLocation) throws {
        let before = try snapshot(filesFirst: false, sourceLocation: sourceLocation)
        #expect(before.files.keys.contains("catalog.sqlite"), sourceLocation: sourceLocation)
        let r = try run(arguments, sourceLocation: sourceLocation)
        let after = try snapshot(filesFirst: true, sourceLocation: sourceLocation)
        #expect(r.status != 0, "\(r)", sourceLocation: sourceLocation)
        #expect(r.stderrLines.count == 1, "exactly one line on stderr: \(r)", sourceLocation: sourceLocation)
        #expect(r.stderr.hasPrefix("photoedit: error: "), "\(r)", sourceLocation: sourceLocation)
        #expect(r.stderr.contains(message), "stderr names the problem (\(message)): \(r.stderr)", sourceLocation: sourceLocation)
        #expect(r.stdout.isEmpty, "\(r)", sourceLocation: sourceLocation)
        #expect(after.files == before.files, "files changed: \(fileDifference(before.files, after.files))", sourceLocation: sourceLocation)
        #expect(after.list == before.list, "list --json changed", sourceLocation: sourceLocation)
        #expect(after.histories == before.histories, "history --json changed", sourceLocation: sourceLocation)
    }
}

/// The files that differ between two snapshots of a folder (relative path → SHA-256), for messages.
func fileDifference(_ a: [String: String], _ b: [String: String]) -> String {
    let keys = Set(a.keys).union(b.keys).sorted().filter { a[$0] != b[$0] }
    return keys.map { "\($0): \(a[$0] == nil ? "added" : b[$0] == nil ? "removed" : "modified")" }.joined(separator: ", ")
}
