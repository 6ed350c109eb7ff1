import Foundation
import PhotoEdit
// GoldenTolerance, GoldenSuite, ImageComparison… are part of this module's API, as they were
// when they lived in the engine: `import PhotoEditTesting` brings them.
@_exported import PhotoEditGolden

/// The check behind `expectGolden` (Swift Testing) and `XCTAssertGolden`
/// (XCTest): an image file against a golden file, by CIEDE2000 through
/// photoedit's `ImageComparison`, with record mode and the files a
/// failure leaves.
///
/// Environment:
/// - `PHOTOEDIT_RECORD_GOLDEN`: `1` (or `missing`) writes golden files that
///   do not exist yet; `all` also overwrites those that differ. Look at the
///   new files before committing them.
/// - `PHOTOEDIT_GOLDEN_FAILURES`: the folder where failures leave
///   `<golden name>/expected.png`, `actual.png` and `diff.png` (default
///   `.golden-failures` in the current folder).
public struct GoldenMatch: Sendable {
    /// What the check found.
    public enum Verdict: Sendable, Equatable {
        /// Within the tolerance.
        case passed
        /// Record mode wrote the golden file.
        case recorded
        /// Did not match; `message` is one line, `files` are what the
        /// failure left (expected, actual, diff) for a look.
        case failed(message: String, files: [URL])
    }

    /// The verdict.
    public let verdict: Verdict
    /// The comparison, when there was one.
    public let difference: ImageDifference?

    /// The record mode the environment asks for.
    public static var recordMode: GoldenRecordMode {
        GoldenRecordMode(environmentValue: ProcessInfo.processInfo.environment["PHOTOEDIT_RECORD_GOLDEN"])
    }

    /// Where failures leave their files.
    public static var failuresFolder: URL {
        let configured = ProcessInfo.processInfo.environment["PHOTOEDIT_GOLDEN_FAILURES"]
        return URL(fileURLWithPath: configured.flatMap { $0.isEmpty ? nil : $0 } ?? ".golden-failures")
    }

    /// Compares `actual` with `golden`.
    ///
    /// - Parameters:
    ///   - actual: an image file (any format photoedit reads).
    ///   - golden: the expected image file (written here in record mode).
    ///   - tolerance: ΔE00 limits (default max 2.3, mean 0.77).
    ///   - record: when to write `golden` instead of failing.
    ///   - failures: where a failure leaves expected, actual and diff
    ///     images (in a folder named after the golden file); nil: nowhere.
    public static func check(_ actual: String, matches golden: String, tolerance: GoldenTolerance = .standard,
                             record: GoldenRecordMode = recordMode, failures: URL? = failuresFolder) -> GoldenMatch {
        let fm = FileManager.default
        if !fm.fileExists(atPath: golden) {
            guard record != .never else {
                return GoldenMatch(verdict: .failed(message: "no golden image \(golden); run with PHOTOEDIT_RECORD_GOLDEN=1 to record it (then look at it)", files: []),
                                   difference: nil)
            }
            do {
                try store(actual, at: golden)
                return GoldenMatch(verdict: .recorded, difference: nil)
            } catch {
                return GoldenMatch(verdict: .failed(message: "cannot record \(golden): \(describe(error))", files: []), difference: nil)
            }
        }
        let folder = failures?.appendingPathComponent(failureName(golden))
        if let folder { try? fm.removeItem(at: folder) }
        do {
            let scratch = fm.temporaryDirectory.appendingPathComponent("photoedit-golden-diff-\(UUID().uuidString.prefix(12)).png").path
            defer { unlink(scratch) }
            let difference = try ImageComparison.compare(actual, golden, tolerance: tolerance,
                                                         diffImage: folder == nil ? nil : scratch, diffOnlyOnFailure: true)
            if difference.passes { return GoldenMatch(verdict: .passed, difference: difference) }
            if record == .all {
                try store(actual, at: golden)
                return GoldenMatch(verdict: .recorded, difference: difference)
            }
            var files: [URL] = []
            if let folder {
                try fm.createDirectory(at: folder, withIntermediateDirectories: true)
                for (source, name) in [(golden, "expected.png"), (actual, "actual.png"), (scratch, "diff.png")] where fm.fileExists(atPath: source) {
                    let target = folder.appendingPathComponent(name)
                    try? fm.removeItem(at: target)
                    try fm.copyItem(atPath: source, toPath: target.path)
                    files.append(target)
                }
            }
            var message = "\(actual) does not match \(golden): \(difference.problem ?? "differs")"
            if let folder { message += "; expected, actual and diff images are in \(folder.path)" }
            return GoldenMatch(verdict: .failed(message: message, files: files), difference: difference)
        } catch {
            return GoldenMatch(verdict: .failed(message: "cannot compare \(actual) with \(golden): \(describe(error))", files: []), difference: nil)
        }
    }

    /// Renders `id` from `library` (as PNG, `version`, `options`) into a
    /// temporary file and checks it against `golden`.
    public static func check(rendering id: String, in library: PhotoLibrary, version: ImageVersion = .current,
                             options: RenderOptions = RenderOptions(), matches golden: String,
                             tolerance: GoldenTolerance = .standard, record: GoldenRecordMode = recordMode,
                             failures: URL? = failuresFolder) -> GoldenMatch {
        let temp = FileManager.default.temporaryDirectory.appendingPathComponent("photoedit-golden-\(UUID().uuidString.prefix(12)).png").path
        defer { unlink(temp) }
        var options = options
        options.format = .png
        do {
            try library.render(id, version: version, to: temp, options: options)
        } catch {
            return GoldenMatch(verdict: .failed(message: "cannot render \(id): \(describe(error))", files: []), difference: nil)
        }
        return check(temp, matches: golden, tolerance: tolerance, record: record, failures: failures)
    }

    /// Runs one case of a golden suite (a `filters/`-layout folder, as
    /// `photoedit test` runs it).
    public static func check(_ golden: GoldenCase, in suite: GoldenSuite) -> GoldenMatch {
        let result = suite.run(golden)
        switch result.outcome {
        case .passed: return GoldenMatch(verdict: .passed, difference: result.difference)
        case .recorded: return GoldenMatch(verdict: .recorded, difference: result.difference)
        case .failed, .missingExpected, .error:
            let files = result.failureFolder.map { folder in
                ["expected.png", "actual.png", "diff.png"].map { folder.appendingPathComponent($0) }
                    .filter { FileManager.default.fileExists(atPath: $0.path) }
            } ?? []
            return GoldenMatch(verdict: .failed(message: result.line, files: files), difference: result.difference)
        }
    }

    /// A folder name for a golden file's failure: its path's last two
    /// components, e.g. "goldens-portrait" for goldens/portrait.png.
    static func failureName(_ golden: String) -> String {
        let url = URL(fileURLWithPath: golden)
        let parent = url.deletingLastPathComponent().lastPathComponent
        let stem = url.deletingPathExtension().lastPathComponent
        return parent.isEmpty || parent == "/" ? stem : "\(parent)-\(stem)"
    }

    static func store(_ actual: String, at golden: String) throws {
        let fm = FileManager.default
        let folder = (golden as NSString).deletingLastPathComponent
        if !folder.isEmpty { try fm.createDirectory(atPath: folder, withIntermediateDirectories: true) }
        let staged = golden + ".recording-\(UUID().uuidString.prefix(8))"
        defer { try? fm.removeItem(atPath: staged) }
        try fm.copyItem(atPath: actual, toPath: staged)
        guard rename(staged, golden) == 0 else { throw PhotoEditError.invalidOutput("cannot write \(golden): \(String(cString: strerror(errno)))") }
    }

    static func describe(_ error: any Error) -> String {
        (error as? PhotoEditError)?.description ?? error.localizedDescription
    }
}
