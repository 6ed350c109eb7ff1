import Foundation
import Testing
@testable import PhotoEdit

/// One golden case: `filters/<filter-id>/NNNN-<case>/case.json` plus
/// `expected.png` beside it (darktable's integration tests, as data).
///
/// case.json:
///
///     {
///       "sample": "coffee.jpg",     // in samples/, a file in the case folder, or a path from the root
///       "chain": "exposure=+1",     // applied with PhotoLibrary.apply(chain:)
///       "size": 256,                // rendered to fit size × size
///       "identity": true,           // optional: must also equal the unadjusted render
///       "note": "…"                 // optional: what the case shows
///     }
struct GoldenCase: Sendable, CustomTestStringConvertible, CustomStringConvertible {
    struct Spec: Codable, Sendable {
        var sample: String
        var chain: String
        var size: Int
        var identity: Bool?
        var note: String?
    }

    /// The filter folder name, e.g. "exposure".
    let filter: String
    /// The case folder name, e.g. "0002-plus-one".
    let name: String
    let folder: URL
    let spec: Spec?
    /// Why case.json could not be read, if it could not.
    let problem: String?

    var id: String { "\(filter)/\(name)" }
    var testDescription: String { id }
    var description: String { id }
    var expected: URL { folder.appendingPathComponent("expected.png") }

    /// The sample photo: a path with a "/" from the package root (e.g. a
    /// RAW fixture), else a file of that name in the case folder, else in samples/.
    var samplePath: String? {
        guard let spec else { return nil }
        if spec.sample.contains("/") { return Paths.root.appendingPathComponent(spec.sample).path }
        let local = folder.appendingPathComponent(spec.sample).path
        return FileManager.default.fileExists(atPath: local) ? local : Paths.sample(spec.sample)
    }

    /// Every case under `root` (default: the package's `filters/`), sorted.
    static func load(root: URL = Paths.filters) -> [GoldenCase] {
        let fm = FileManager.default
        var cases: [GoldenCase] = []
        let filters = ((try? fm.contentsOfDirectory(atPath: root.path)) ?? []).filter { !$0.hasPrefix(".") }.sorted()
        for filter in filters {
            let filterFolder = root.appendingPathComponent(filter)
            guard FileIO.isDirectory(filterFolder.path) else { continue }
            // `migrations/` holds frozen recipes of earlier filter versions (MigrationTests).
            let names = ((try? fm.contentsOfDirectory(atPath: filterFolder.path)) ?? [])
                .filter { !$0.hasPrefix(".") && $0 != "migrations" }.sorted()
            for name in names {
                let folder = filterFolder.appendingPathComponent(name)
                guard FileIO.isDirectory(folder.path) else { continue }
                let file = folder.appendingPathComponent("case.json")
                do {
                    let spec = try JSONDecoder().decode(Spec.self, from: Data(contentsOf: file))
                    cases.append(GoldenCase(filter: filter, name: name, folder: folder, spec: spec, problem: nil))
                } catch {
                    cases.append(GoldenCase(filter: filter, name: name, folder: folder, spec: nil,
                                            problem: "\(file.path): \(error)"))
                }
            }
        }
        return cases
    }

    static let all: [GoldenCase] = load()
}

/// What happened to one golden case.
enum GoldenOutcome: Equatable {
    case passed(max: Double, mean: Double)
    case recorded
    case missingExpected
    /// `folder` holds actual.png and diff.png.
    case failed(String, folder: URL)
}

/// Renders golden cases through the PhotoLibrary API and compares them.
enum GoldenRunner {
    /// Is record mode on (`PHOTOEDIT_RECORD_GOLDEN=1`)?
    static var recordMode: Bool { ProcessInfo.processInfo.environment["PHOTOEDIT_RECORD_GOLDEN"] == "1" }

    /// Renders the case's `current` version (and, for identity cases, the
    /// `unadjusted` one) into `output` as PNGs; returns their paths.
    static func render(_ golden: GoldenCase, into output: TemporaryDirectory) throws -> (current: String, unadjusted: String) {
        guard let spec = golden.spec, let sample = golden.samplePath else {
            throw CLIError(golden.problem ?? "no case.json")
        }
        let library = try PhotoLibrary(url: output.url.appendingPathComponent("library"))
        let results = try library.importItems([sample])
        guard results.count == 1, let id = results[0].id else {
            throw CLIError("cannot import \(sample): \(results.first?.error?.description ?? "no result")")
        }
        try library.apply(chain: spec.chain, to: id)
        let options = RenderOptions(maxWidth: spec.size, maxHeight: spec.size)
        let current = output.file("actual.png"), unadjusted = output.file("unadjusted.png")
        try library.render(id, version: .current, to: current, options: options)
        try library.render(id, version: .unadjusted, to: unadjusted, options: options)
        return (current, unadjusted)
    }

    /// Checks `actual` against `expected` with the engine's comparison (the
    /// one behind `photoedit compare` and PhotoEditTesting); on failure,
    /// copies actual.png and writes diff.png into `folder`.
    static func compare(actual: String, expected: String, failureFolder folder: URL) throws -> ImageDifference {
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let result = try ImageComparison.compare(actual, expected, diffImage: folder.appendingPathComponent("diff.png").path,
                                                 diffOnlyOnFailure: true)
        if result.passes {
            try? FileManager.default.removeItem(at: folder)
        } else {
            let actualCopy = folder.appendingPathComponent("actual.png").path
            try? FileManager.default.removeItem(atPath: actualCopy)
            try FileManager.default.copyItem(atPath: actual, toPath: actualCopy)
        }
        return result
    }

    /// The outcome of a case, plus, for identity cases, the ΔE2000 of its
    /// current render against the unadjusted render (`identity`): a PNG of
    /// the current version renders from the recipe, so a neutral edit is the
    /// unadjusted photo.
    struct Result {
        var outcome: GoldenOutcome
        var identity: (max: Double, mean: Double)?
    }

    /// Runs one case: render, then compare with expected.png (or record it).
    static func run(_ golden: GoldenCase, record: Bool = recordMode, failures: URL = Paths.goldenFailures) throws -> Result {
        let failureFolder = failures.appendingPathComponent(golden.filter).appendingPathComponent(golden.name)
        try? FileManager.default.removeItem(at: failureFolder)
        let temp = TemporaryDirectory("photoedit-golden")
        let (actual, unadjusted) = try render(golden, into: temp)
        var identity: (max: Double, mean: Double)?
        if golden.spec?.identity == true {
            identity = try Pixels.deltaE(actual, unadjusted)
        }
        let expected = golden.expected.path
        guard FileManager.default.fileExists(atPath: expected) else {
            guard record else { return Result(outcome: .missingExpected, identity: identity) }
            try FileManager.default.copyItem(atPath: actual, toPath: expected)
            return Result(outcome: .recorded, identity: identity)
        }
        let difference = try compare(actual: actual, expected: expected, failureFolder: failureFolder)
        if let problem = difference.problem {
            return Result(outcome: .failed(problem, folder: failureFolder), identity: identity)
        }
        return Result(outcome: .passed(max: difference.maxDeltaE, mean: difference.meanDeltaE), identity: identity)
    }
}
