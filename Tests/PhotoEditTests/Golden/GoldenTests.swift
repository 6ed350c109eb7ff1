import Foundation
import Testing
@testable import PhotoEdit
import PhotoEditGolden

/// Golden images: every case under `filters/` rendered through the library
/// API and compared with its expected.png by CIEDE2000.
///
/// Record mode: `PHOTOEDIT_RECORD_GOLDEN=1 swift test --scratch-path .build-tests --filter Golden`
/// writes expected.png for cases that have none. Failures leave actual.png
/// and diff.png (where they differ: yellow below the max tolerance, red at or above it) in `.golden-failures/<filter>/<case>/`.
@Suite("Golden images")
struct GoldenTests {
    @Test(arguments: GoldenCase.all)
    func golden(_ golden: GoldenCase) throws {
        guard golden.problem == nil, let spec = golden.spec else {
            Issue.record("\(golden.id): cannot read case.json: \(golden.problem ?? "?")")
            return
        }
        #expect(spec.size >= 16 && spec.size <= 256, "\(golden.id): size \(spec.size) (keep goldens ≤ 256 px)")
        let result = try GoldenRunner.run(golden)
        if let identity = result.identity {
            // A neutral edit is the unadjusted photo (a PNG of the current
            // version renders from the recipe, not from the stored JPEG).
            print(String(format: "golden %@: neutral vs unadjusted: max ΔE00 %.3f, mean %.3f", golden.id, identity.max, identity.mean))
            #expect(identity.mean <= 0.1, "\(golden.id) is a neutral case but differs from the unadjusted render: mean ΔE00 \(identity.mean)")
        }
        switch result.outcome {
        case let .passed(max, mean):
            print(String(format: "golden %@: max ΔE00 %.3f, mean %.3f", golden.id, max, mean))
        case .recorded:
            print("golden \(golden.id): RECORDED \(golden.expected.path)")
            #expect(FileManager.default.fileExists(atPath: golden.expected.path))
        case .missingExpected:
            Issue.record("\(golden.id): \(golden.expected.path) is missing; run with PHOTOEDIT_RECORD_GOLDEN=1 to record it")
        case let .failed(problem, folder):
            Issue.record("\(golden.id): \(problem); actual.png and diff.png are in \(folder.path)")
        }
    }

    /// Every filter has its golden cases: a neutral one, and at least a
    /// typical, an extreme and a combined setting.
    @Test(arguments: FilterRegistry.standard.ids)
    func everyFilterHasGoldenCases(_ id: String) throws {
        let cases = GoldenCase.all.filter { $0.filter == id }
        #expect(cases.count >= 4, "filters/\(id) has \(cases.count) cases")
        let specs = cases.compactMap(\.spec)
        #expect(specs.contains { $0.identity == true }, "filters/\(id) has no neutral (identity) case")
        let chains = try specs.map { try Chain.parse($0.chain ?? "") }
        #expect(chains.contains { steps in steps.contains { $0.filter == id } && Set(steps.map(\.filter)).count >= 2 },
                "filters/\(id) has no case combining it with another filter")
        #expect(chains.allSatisfy { steps in steps.contains { $0.filter == id } }, "every case in filters/\(id) uses \(id)")
    }

    @Test func caseFoldersAreWellFormed() throws {
        #expect(!GoldenCase.all.isEmpty)
        let known = Set(FilterRegistry.standard.ids)
        for golden in GoldenCase.all {
            #expect(known.contains(golden.filter), "filters/\(golden.filter) is not a filter id")
            let parts = golden.name.split(separator: "-", maxSplits: 1)
            #expect(parts.count == 2 && parts[0].count == 4 && parts[0].allSatisfy(\.isNumber), "\(golden.id): name is not NNNN-<case>")
            #expect(golden.problem == nil, "\(golden.problem ?? "")")
            guard let spec = golden.spec, let sample = golden.samplePath else { continue }
            #expect(FileManager.default.fileExists(atPath: sample), "\(golden.id): no source \(spec.source)")
            let chain = try #require(spec.chain, "\(golden.id): the project's cases are chains")
            // `auto` and `upright` measure the photo: here only their syntax is checked.
            #expect(throws: Never.self, "\(golden.id): chain '\(chain)'") {
                try Chain.apply(Chain.parse(chain), to: .empty, auto: { $0 }, upright: { r, _ in r })
            }
            if FileManager.default.fileExists(atPath: golden.expected.path) {
                let image = try Pixels.load(golden.expected.path)
                #expect(max(image.width, image.height) == spec.size || max(image.width, image.height) < spec.size,
                        "\(golden.id): expected.png is \(image.width)×\(image.height), larger than \(spec.size)")
                #expect(image.bands == 3)
            }
        }
        let numbers = Dictionary(grouping: GoldenCase.all) { "\($0.filter)/\($0.name.prefix(4))" }
        #expect(numbers.values.allSatisfy { $0.count == 1 }, "case numbers repeat within a filter")
    }

    /// The golden machinery itself: a missing expected image fails unless
    /// recording; recording writes it; a wrong expected image fails with
    /// actual.png and diff.png written.
    @Test func missingRecordPassAndFailure() throws {
        let root = TemporaryDirectory("photoedit-golden-meta")
        let folder = root.url.appendingPathComponent("exposure/0001-meta")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try Data(#"{"sample": "chelsea.jpg", "chain": "exposure=+1", "size": 64}"#.utf8)
            .write(to: folder.appendingPathComponent("case.json"))
        let cases = GoldenCase.load(root: root.url)
        #expect(cases.map(\.id) == ["exposure/0001-meta"])
        let golden = try #require(cases.first)
        let failures = root.url.appendingPathComponent("failures")

        #expect(try GoldenRunner.run(golden, record: .never, failures: failures).outcome == .missingExpected)
        #expect(!FileManager.default.fileExists(atPath: golden.expected.path))

        #expect(try GoldenRunner.run(golden, record: .missing, failures: failures).outcome == .recorded)
        let recorded = try Pixels.load(golden.expected.path)
        #expect(recorded.width == 64 && recorded.height == 43)

        guard case let .passed(max, mean) = try GoldenRunner.run(golden, record: .never, failures: failures).outcome else {
            Issue.record("a freshly recorded case does not pass")
            return
        }
        #expect(max < 0.5 && mean < 0.1)

        // Expected image of another edit: the case fails and leaves its files.
        let other = TemporaryDirectory()
        let library = try PhotoLibrary(url: other.url.appendingPathComponent("library"))
        let id = try #require(try library.importItems([Paths.sample("chelsea.jpg")]).first?.id)
        try library.apply(chain: "exposure=-1", to: id)
        try FileManager.default.removeItem(at: golden.expected)
        try library.render(id, to: golden.expected.path, options: RenderOptions(maxWidth: 64, maxHeight: 64))
        let outcome = try GoldenRunner.run(golden, record: .missing, failures: failures).outcome
        guard case let .failed(problem, failureFolder) = outcome else {
            Issue.record("a wrong expected image gave \(outcome)")
            return
        }
        #expect(problem.contains("ΔE2000 max"))
        #expect(failureFolder.path == failures.appendingPathComponent("exposure/0001-meta").path)
        let actual = try Pixels.load(failureFolder.appendingPathComponent("actual.png").path)
        #expect(actual.width == 64)
        let diff = try Pixels.load(failureFolder.appendingPathComponent("diff.png").path)
        #expect(diff.bands == 3 && diff.width == 64 && diff.height == 43)
        #expect(try diff.maximum() > 200, "the diff image marks the pixels over the tolerance")
        #expect(try Hashing.sha256(failureFolder.appendingPathComponent("expected.png").path) == Hashing.sha256(golden.expected.path))

        // Recording everything replaces the expected image that differs; the case then passes.
        #expect(try GoldenRunner.run(golden, record: .all, failures: failures).outcome == .recorded)
        #expect(try GoldenRunner.run(golden, record: .never, failures: failures).outcome == .passed(max: 0, mean: 0))
    }
}
