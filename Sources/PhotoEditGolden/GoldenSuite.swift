import Foundation
import PhotoEdit
import Synchronization

/// One golden case: a folder `<group>/NNNN-<name>/` holding `case.json` and
/// the `expected.png` the engine rendered when the case was recorded — the
/// layout of photoedit's own `filters/<filter-id>/NNNN-case` suite.
///
/// case.json:
///
///     {
///       "source": "portrait.jpg",   // the photo (see `GoldenSuite.sourcePath`); "sample" is the same key
///       "chain": "exposure=+1",     // edit chain, as `photoedit edit` takes it — or:
///       "recipe": { … },            // a whole recipe (org.photoedit.recipe JSON)
///       "version": "current",       // optional: current (default), unadjusted or original
///       "size": 256,                // rendered to fit size × size (1…16384)
///       "tolerance": {"max": 2.3, "mean": 0.77},   // optional: the suite's otherwise
///       "note": "…"                 // optional: what the case shows
///     }
public struct GoldenCase: Sendable, Hashable, CustomStringConvertible {
    /// What case.json says.
    public struct Spec: Sendable, Hashable, Decodable {
        /// The photo to render, as written in case.json.
        public var source: String
        /// An edit chain (`photoedit edit` syntax), or nil.
        public var chain: String?
        /// A whole recipe, or nil.
        public var recipe: JSONValue?
        /// Which version of the photo to render.
        public var version: ImageVersion
        /// The render fits size × size pixels.
        public var size: Int
        /// The case's own tolerance, if it has one.
        public var tolerance: GoldenTolerance?
        /// Must the render also equal the photo's unadjusted render (a neutral edit)?
        public var identity: Bool?
        /// What the case shows.
        public var note: String?

        enum CodingKeys: String, CodingKey {
            case source, sample, chain, recipe, version, size, tolerance, identity, note
        }

        public init(from decoder: Decoder) throws {
            let c = try decoder.container(keyedBy: CodingKeys.self)
            guard let source = try c.decodeIfPresent(String.self, forKey: .source) ?? c.decodeIfPresent(String.self, forKey: .sample) else {
                throw DecodingError.dataCorruptedError(forKey: .source, in: c, debugDescription: "no \"source\" (the photo to render)")
            }
            self.source = source
            chain = try c.decodeIfPresent(String.self, forKey: .chain)
            recipe = try c.decodeIfPresent(JSONValue.self, forKey: .recipe)
            if (chain == nil) == (recipe == nil) {
                throw DecodingError.dataCorruptedError(forKey: .chain, in: c,
                                                       debugDescription: "needs either \"chain\" or \"recipe\", not \(chain == nil ? "neither" : "both")")
            }
            let versionName = try c.decodeIfPresent(String.self, forKey: .version) ?? "current"
            guard let version = ImageVersion(rawValue: versionName) else {
                throw DecodingError.dataCorruptedError(forKey: .version, in: c,
                                                       debugDescription: "\"\(versionName.prefix(40))\" is not current, unadjusted or original")
            }
            self.version = version
            size = try c.decode(Int.self, forKey: .size)
            guard (1...GoldenCase.maxSize).contains(size) else {
                throw DecodingError.dataCorruptedError(forKey: .size, in: c, debugDescription: "\(size) is not from 1 to \(GoldenCase.maxSize)")
            }
            tolerance = try c.decodeIfPresent(GoldenTolerance.self, forKey: .tolerance)?.validated()
            identity = try c.decodeIfPresent(Bool.self, forKey: .identity)
            note = try c.decodeIfPresent(String.self, forKey: .note)
        }
    }

    /// Largest `size` a case may ask for.
    public static let maxSize = 16384
    /// Largest case.json read, in bytes.
    static let maxSpecBytes: Int64 = 1 << 20

    /// The group folder's name (a filter id in photoedit's own suite).
    public let group: String
    /// The case folder's name, e.g. "0002-plus-one".
    public let name: String
    /// The case folder.
    public let folder: URL
    /// case.json, or nil when it could not be read (see `problem`).
    public let spec: Spec?
    /// Why case.json could not be read.
    public let problem: String?

    /// "group/name".
    public var id: String { "\(group)/\(name)" }
    public var description: String { id }
    /// Where the expected image is (`expected.png` in the case folder).
    public var expected: URL { folder.appendingPathComponent("expected.png") }

    /// Reads the case in `folder` (its group is the parent folder's name).
    public init(folder: URL) {
        self.folder = folder
        name = folder.lastPathComponent
        group = folder.deletingLastPathComponent().lastPathComponent
        let file = folder.appendingPathComponent("case.json")
        do {
            guard let size = FileIO.size(file.path) else { throw PhotoEditError.unreadableFile(path: file.path, reason: "no case.json") }
            guard size <= Self.maxSpecBytes else { throw PhotoEditError.unreadableFile(path: file.path, reason: "larger than 1 MB") }
            let data = try Data(contentsOf: file)
            spec = try JSONDecoder().decode(Spec.self, from: data)
            problem = nil
        } catch let error as PhotoEditError {
            spec = nil
            problem = error.description
        } catch let error as DecodingError {
            spec = nil
            problem = "\(file.path): \(Self.describe(error))"
        } catch {
            spec = nil
            problem = "\(file.path): \(error.localizedDescription)"
        }
    }

    static func describe(_ error: DecodingError) -> String {
        switch error {
        case .keyNotFound(let key, _): return "missing \"\(key.stringValue)\""
        case .typeMismatch(_, let context), .valueNotFound(_, let context), .dataCorrupted(let context):
            let path = context.codingPath.map(\.stringValue).joined(separator: ".")
            if let underlying = context.underlyingError as? PhotoEditError { return underlying.description }
            return path.isEmpty ? "not valid JSON" : "\"\(path)\": \(context.debugDescription)"
        @unknown default: return "not a case"
        }
    }
}

/// What happened to one golden case.
public enum GoldenOutcome: Sendable, Equatable {
    /// Within the tolerance.
    case passed
    /// Record mode wrote expected.png (there was none, or it differed).
    case recorded
    /// There is no expected.png (and record mode is off).
    case missingExpected
    /// Differs from expected.png (see the result's `difference` and `failureFolder`).
    case failed
    /// The case could not run (bad case.json, missing source, render error).
    case error(String)
}

/// When a golden run writes expected.png instead of failing.
public enum GoldenRecordMode: String, Sendable, CaseIterable {
    /// Never: a missing expected.png is a failure.
    case never
    /// Only where expected.png is missing (new cases).
    case missing
    /// Where it is missing and where the render differs from it (after an
    /// intended change of look; look at the new images before committing).
    case all

    /// The mode an environment variable's value names: "1", "missing" or
    /// "true" → `.missing`; "all" → `.all`; anything else, or unset, → `.never`.
    public init(environmentValue value: String?) {
        switch value?.lowercased() {
        case "1", "missing", "true", "yes": self = .missing
        case "all": self = .all
        default: self = .never
        }
    }
}

/// The result of running one case.
public struct GoldenResult: Sendable {
    public let golden: GoldenCase
    public let outcome: GoldenOutcome
    /// The comparison with expected.png, when there was one.
    public let difference: ImageDifference?
    /// For failures: the folder holding expected.png, actual.png and diff.png.
    public let failureFolder: URL?
    /// Seconds the case took (render and comparison).
    public let seconds: Double

    /// Did the case pass (or record)?
    public var ok: Bool { outcome == .passed || outcome == .recorded }

    /// One line: "PASS exposure/0002-plus-one (max 0.000, mean 0.000)".
    public var line: String {
        switch outcome {
        case .passed:
            let figures = difference.map { String(format: " (ΔE00 max %.3f, mean %.3f)", $0.maxDeltaE, $0.meanDeltaE) } ?? ""
            return "PASS \(golden.id)\(figures)"
        case .recorded: return "RECORDED \(golden.id)"
        case .missingExpected: return "MISSING \(golden.id): no expected.png (run with --record to write it)"
        case .failed: return "FAIL \(golden.id): \(difference?.problem ?? "differs")"
        case .error(let message): return "ERROR \(golden.id): \(message)"
        }
    }
}

/// A folder of golden cases, and how to run them: each case's source is
/// imported into a throw-away library, edited with its chain or recipe,
/// rendered as PNG and compared with `expected.png` by `ImageComparison`.
///
/// The engine behind `photoedit test`, the PhotoEditTesting helpers and
/// photoedit's own golden tests.
public struct GoldenSuite: Sendable {
    /// The suite's folder: `<root>/<group>/NNNN-<case>/case.json`.
    public let root: URL
    /// Folders where a case's source is also looked for (after the case
    /// folder and the suite folder).
    public var sourceFolders: [URL]
    /// The tolerance of cases that do not name their own.
    public var tolerance: GoldenTolerance
    /// When to write expected.png instead of failing.
    public var record: GoldenRecordMode
    /// Where failures leave expected.png, actual.png and diff.png
    /// (`<failures>/<group>/<case>/`); nil writes none.
    public var failures: URL?
    /// The filters recipes are read with.
    public var registry: FilterRegistry

    /// A suite in `root`.
    public init(root: URL, sourceFolders: [URL] = [], tolerance: GoldenTolerance = .standard, record: GoldenRecordMode = .never,
                failures: URL? = nil, registry: FilterRegistry = .standard) {
        self.root = root
        self.sourceFolders = sourceFolders
        self.tolerance = tolerance
        self.record = record
        self.failures = failures
        self.registry = registry
    }

    /// Names skipped when looking for groups and cases (besides hidden ones):
    /// photoedit's own `migrations/` folders of frozen recipes.
    public static let skippedFolders: Set<String> = ["migrations"]

    /// Every case of the suite, sorted by id. A case folder is a folder
    /// holding case.json, one or two levels down (`group/case` or, for a
    /// suite of one group, `case`); an `NNNN-name` folder in a group is a
    /// case even without case.json (reported as an error). Other folders
    /// (of source photos, say) are not cases.
    /// - Throws: when `root` is not a readable folder.
    public func cases() throws -> [GoldenCase] {
        guard FileIO.isDirectory(root.path) else {
            throw PhotoEditError.invalidOutput("\(root.path) is not a folder of golden cases")
        }
        var out: [GoldenCase] = []
        func subfolders(_ url: URL) -> [URL] {
            let names = (try? FileManager.default.contentsOfDirectory(atPath: url.path)) ?? []
            return names.filter { !$0.hasPrefix(".") && !Self.skippedFolders.contains($0) }.sorted()
                .map { url.appendingPathComponent($0) }.filter { FileIO.isDirectory($0.path) }
        }
        func isCase(_ url: URL) -> Bool { FileManager.default.fileExists(atPath: url.appendingPathComponent("case.json").path) }
        for first in subfolders(root) {
            if isCase(first) {
                out.append(GoldenCase(folder: first))
                continue
            }
            for second in subfolders(first) where isCase(second) || Self.isCaseName(second.lastPathComponent) {
                // An NNNN-name folder is a case even with case.json missing (reported).
                out.append(GoldenCase(folder: second))
            }
        }
        return out
    }

    /// "NNNN-name": four digits, a hyphen, a name.
    static func isCaseName(_ name: String) -> Bool {
        let parts = name.split(separator: "-", maxSplits: 1)
        return parts.count == 2 && parts[0].count == 4 && parts[0].allSatisfy(\.isASCII) && parts[0].allSatisfy(\.isNumber)
    }

    /// Where the case's source photo is: a path relative to the case
    /// folder, the suite folder, then each of `sourceFolders`, in that
    /// order (an absolute path as it is). Nil when none exists.
    public func sourcePath(for golden: GoldenCase) -> String? {
        guard let source = golden.spec?.source, !source.isEmpty else { return nil }
        if source.hasPrefix("/") { return FileManager.default.fileExists(atPath: source) ? source : nil }
        for folder in [golden.folder, root] + sourceFolders {
            let path = folder.appendingPathComponent(source).path
            if FileManager.default.fileExists(atPath: path) { return path }
        }
        return nil
    }

    /// A case rendered: the throw-away library, the photo's id in it and
    /// the render (`actual.png` in `folder`).
    public struct Render {
        public let library: PhotoLibrary
        public let id: String
        public let actual: String
    }

    /// Imports the case's source into a new library in `folder`, applies
    /// its chain or recipe and renders its version as `folder/actual.png`.
    public func render(_ golden: GoldenCase, in folder: URL) throws -> Render {
        guard let spec = golden.spec else {
            throw PhotoEditError.unreadableFile(path: golden.folder.appendingPathComponent("case.json").path, reason: golden.problem ?? "unreadable")
        }
        guard let source = sourcePath(for: golden) else {
            let folders = ([golden.folder, root] + sourceFolders).map(\.path).joined(separator: ", ")
            throw PhotoEditError.unreadableFile(path: spec.source, reason: "no such file in \(folders)")
        }
        let library = try PhotoLibrary(url: folder.appendingPathComponent("library"), registry: registry)
        let results = try library.importItems([source])
        guard results.count == 1, let id = results[0].id else {
            throw results.first?.error ?? PhotoEditError.invalidOutput("cannot import \(source)")
        }
        if let chain = spec.chain {
            try library.apply(chain: chain, to: id)
        } else if let recipe = spec.recipe {
            try library.apply(recipe: try Recipe(json: recipe, registry: registry), to: id)
        }
        let actual = folder.appendingPathComponent("actual.png").path
        try library.render(id, version: spec.version, to: actual,
                           options: RenderOptions(maxWidth: spec.size, maxHeight: spec.size, format: .png))
        return Render(library: library, id: id, actual: actual)
    }

    /// Compares a render of `golden` with its expected.png (recording it in
    /// record mode); on failure writes expected.png, actual.png and diff.png
    /// into the case's failure folder.
    public func check(_ golden: GoldenCase, actual: String, started start: Date = Date()) throws -> GoldenResult {
        let tolerance = golden.spec?.tolerance ?? self.tolerance
        let expected = golden.expected.path
        let failureFolder = failures?.appendingPathComponent(golden.group).appendingPathComponent(golden.name)
        if let failureFolder { try? FileManager.default.removeItem(at: failureFolder) }
        func result(_ outcome: GoldenOutcome, _ difference: ImageDifference? = nil, _ folder: URL? = nil) -> GoldenResult {
            GoldenResult(golden: golden, outcome: outcome, difference: difference, failureFolder: folder,
                         seconds: Date().timeIntervalSince(start))
        }
        guard FileManager.default.fileExists(atPath: expected) else {
            guard record != .never else { return result(.missingExpected) }
            try Self.copy(actual, to: expected)
            return result(.recorded)
        }
        let scratch = (actual as NSString).deletingLastPathComponent
        let diffPath = failureFolder == nil ? nil : (scratch as NSString).appendingPathComponent("diff-\(UUID().uuidString.prefix(8)).png")
        defer { if let diffPath { unlink(diffPath) } }
        let difference = try ImageComparison.compare(actual, expected, tolerance: tolerance, diffImage: diffPath, diffOnlyOnFailure: true)
        if difference.passes { return result(.passed, difference) }
        if record == .all {
            try Self.copy(actual, to: expected)
            return result(.recorded, difference)
        }
        if let failureFolder {
            try FileManager.default.createDirectory(at: failureFolder, withIntermediateDirectories: true)
            try Self.copy(actual, to: failureFolder.appendingPathComponent("actual.png").path)
            try Self.copy(expected, to: failureFolder.appendingPathComponent("expected.png").path)
            if let diffPath, FileManager.default.fileExists(atPath: diffPath) {
                try Self.copy(diffPath, to: failureFolder.appendingPathComponent("diff.png").path)
            }
        }
        return result(.failed, difference, failureFolder)
    }

    /// Renders and checks one case; a case that cannot run is an `.error`
    /// result, not a thrown error.
    public func run(_ golden: GoldenCase) -> GoldenResult {
        let start = Date()
        let temp = FileManager.default.temporaryDirectory.appendingPathComponent("photoedit-golden-\(UUID().uuidString.prefix(12))")
        defer { try? FileManager.default.removeItem(at: temp) }
        do {
            try FileManager.default.createDirectory(at: temp, withIntermediateDirectories: true)
            let render = try render(golden, in: temp)
            return try check(golden, actual: render.actual, started: start)
        } catch {
            let message = golden.problem ?? (error as? PhotoEditError)?.description ?? "\(error)"
            return GoldenResult(golden: golden, outcome: .error(message), difference: nil, failureFolder: nil,
                                seconds: Date().timeIntervalSince(start))
        }
    }

    /// Runs `cases` on `jobs` threads (at least 1); `progress` is called
    /// (from any thread, one call at a time) as each finishes. The results
    /// are in the order of `cases`.
    public func run(_ cases: [GoldenCase], jobs: Int = 1,
                    progress: (@Sendable (_ done: Int, _ total: Int, _ result: GoldenResult) -> Void)? = nil) -> [GoldenResult] {
        let collector = ResultCollector(count: cases.count)
        let suite = self
        DispatchQueue.concurrentPerform(iterations: max(1, min(jobs, cases.count))) { worker in
            while let index = collector.next() {
                let result = suite.run(cases[index])
                collector.store(result, at: index, progress: progress)
            }
        }
        return collector.results
    }

    static func copy(_ from: String, to path: String) throws {
        try writeStaged(to: path) { staged in
            try FileManager.default.copyItem(atPath: from, toPath: staged)
        }
    }
}

/// Hands out case indexes to worker threads and gathers their results.
private final class ResultCollector: Sendable {
    private struct State {
        var nextIndex = 0
        var done = 0
        var stored: [GoldenResult?]
    }
    private let state: Mutex<State>

    init(count: Int) { state = Mutex(State(stored: Array(repeating: nil, count: count))) }

    func next() -> Int? {
        state.withLock { state in
            guard state.nextIndex < state.stored.count else { return nil }
            defer { state.nextIndex += 1 }
            return state.nextIndex
        }
    }

    func store(_ result: GoldenResult, at index: Int, progress: (@Sendable (Int, Int, GoldenResult) -> Void)?) {
        state.withLock {
            $0.stored[index] = result
            $0.done += 1
            progress?($0.done, $0.stored.count, result)
        }
    }

    var results: [GoldenResult] { state.withLock { $0.stored.compactMap { $0 } } }
}
