import Foundation
import Testing
@testable import PhotoEdit

/// Filters declare their parameters as typed keys and read them through
/// those keys; `FilterRegistry` checks at start-up that every filter's keys
/// are exactly its declared parameters (issue 42).
@Suite("Filters: parameter keys")
struct ParameterKeyTests {
    /// Every built-in declaration is sound: the registry `standard` is built
    /// from these, and would stop the process otherwise.
    @Test func theStandardDeclarationsAreSound() {
        let problems = FilterRegistry.standard.filters.flatMap(\.declarationProblems)
        #expect(problems.isEmpty, "\(problems)")
    }

    /// A filter declared by keys has its keys' declarations as parameters,
    /// in order, and the same at every legacy version declared by keys.
    @Test func keysAreTheParameters() throws {
        let keyed = FilterRegistry.standard.filters.filter { !$0.keys.isEmpty }
        #expect(keyed.contains { $0.id == "exposure" })
        for filter in keyed {
            #expect(filter.keys.map(\.spec.name) == filter.parameters.map(\.name), "\(filter.id)")
            for legacy in filter.legacy where !legacy.keys.isEmpty {
                #expect(legacy.keys.map(\.spec.name) == legacy.parameters.map(\.name), "\(filter.id) v\(legacy.version)")
            }
        }
    }

    static let amount = ParameterKey.number("amount", -100...100, default: 0, "an amount")
    static let mode = ParameterKey.choice("mode", ["a", "b"], default: "a", "a mode")
    static let on = ParameterKey.bool("on", default: false, "a switch")

    static func definition(parameters: [ParameterSpec] = [], keys: [any AnyParameterKey] = [], forms: [ChainForm] = [],
                           legacy: [LegacyVersion] = [], recorded: Set<String> = []) -> FilterDefinition {
        FilterDefinition(id: "wrong", version: legacy.count + 1, stage: .effects, order: 1, summary: "a test declaration",
                         colourSpace: "any", parameters: parameters, keys: keys, forms: forms, legacy: legacy,
                         recorded: recorded) { image, _, _ in image }
    }

    /// A declaration whose keys are not its parameters, or whose forms name
    /// parameters it lacks, is refused when a registry is built.
    @Test func wrongDeclarationsAreRefused() {
        #expect(Self.definition(keys: [Self.amount, Self.mode, Self.on], forms: [ChainForm(["amount"], "e.g. wrong=1")])
            .declarationProblems.isEmpty)
        // A key the parameters lack, and a parameter without a key.
        let missing = Self.definition(parameters: [Self.amount.spec, .number("gain", 0...1, default: 0, "")], keys: [Self.amount, Self.mode])
        #expect(missing.declarationProblems == [
            "wrong version 1: key 'mode' is not a declared parameter",
            "wrong version 1: parameter 'gain' has no key",
        ])
        // The same name, another kind or range or default.
        let differs = Self.definition(parameters: [.number("amount", 0...100, default: 0, "an amount"), .choice("on", ["x"], default: "x", "")],
                                      keys: [Self.amount, Self.on])
        #expect(differs.declarationProblems == [
            "wrong version 1: key 'amount' (-100…100) differs from its declaration (0…100)",
            "wrong version 1: key 'on' (true|false) differs from its declaration (x)",
            "wrong version 1: key 'on' reads another type than its parameter holds",
        ])
        // Forms, recorded parameters and defaults.
        let forms = Self.definition(parameters: [.number("gain", 0...1, default: 2, ""), .number("gain", 0...1, default: 0, "")],
                                    forms: [ChainForm(["gian"], fixed: ["mdoe": .text("a")], "")], recorded: ["hash"])
        #expect(forms.declarationProblems == [
            "wrong version 1: the default of 'gain' is not a valid value of it",
            "wrong version 1: parameter 'gain' is declared twice",
            "wrong: chain form names 'gian', which is not declared",
            "wrong: chain form names 'mdoe', which is not declared",
            "wrong: recorded parameter 'hash' is not declared",
        ])
        // A legacy version is checked against its own keys.
        let legacy = Self.definition(keys: [Self.amount, Self.on],
                                     legacy: [LegacyVersion(version: 1, parameters: [Self.amount.spec], keys: [Self.amount, Self.on],
                                                            note: "v2 adds on", changesRendering: false)])
        #expect(legacy.declarationProblems == ["wrong version 1: key 'on' is not a declared parameter"])
    }

    /// A read through a key gives what the by-name read gives: the value,
    /// or 0, "" and false when absent; another filter's key read from a
    /// validated set is recorded as an undeclared read.
    @Test func readsKeepTheByNameSemantics() throws {
        let partial = Parameters(values: ["amount": .number(12), "mode": .text("b")])
        #expect(partial[Self.amount] == 12 && partial[Self.mode] == "b" && partial[Self.on] == false)
        let empty = Parameters(values: [:])
        #expect(empty[Self.amount] == 0 && empty[Self.mode] == "" && empty[Self.on] == false)
        #expect(empty[Self.amount] == empty.number("amount") && empty[Self.mode] == empty.text("mode"))
        // A value of another type reads as the absent one, as by name.
        let mistyped = Parameters(values: ["amount": .text("12")])
        #expect(mistyped[Self.amount] == 0 && mistyped.number("amount") == 0)

        let exposure = try Filters.exposure.validated(["ev": .number(1.5)])
        #expect(exposure[Filters.ExposureKeys.ev] == 1.5)
        #expect(Filters.ExposureKeys.ev.isDefault(in: Filters.exposure.defaults))
        #expect(!Filters.ExposureKeys.ev.isDefault(in: exposure))
        // A set declared by a filter name no real filter has, so that the
        // record does not fail TypedParameterTests.
        let declared = Parameters(declared: ["ev": .number(1)], by: "keyed-check")
        #expect(declared[Filters.ExposureKeys.ev] == 1)
        #expect(declared[Self.amount] == 0)
        let recorded = Parameters.undeclaredReads.withLock { $0.filter { $0.hasPrefix("keyed-check.") } }
        #expect(recorded == ["keyed-check.amount"])
    }

    /// The engine reads filter parameters through keys only: a by-name read
    /// with a string literal (`p.number("ev")`, `node.parameters.text("lens")`)
    /// in `Sources/PhotoEdit` fails here, naming the line. Library users
    /// keep `Parameters.number/text/bool(_:)`.
    static let byNameRead = try! NSRegularExpression(pattern: #"[\w$)\]](?<!Value|Spec|Key)\.(number|text|bool)\(\s*"(?:[^"\\]|\\.)*"\s*\)"#)

    static func byNameReads(in text: String, path: String) -> [String] {
        text.split(separator: "\n", omittingEmptySubsequences: false).enumerated().compactMap { i, line in
            let code = String(line)
            if code.trimmingCharacters(in: .whitespaces).hasPrefix("//") { return nil }
            let range = NSRange(code.startIndex..., in: code)
            return byNameRead.firstMatch(in: code, range: range) == nil ? nil : "\(path):\(i + 1)"
        }
    }

    @Test func theEngineReadsNoParameterByName() throws {
        // The pattern itself: what it finds and what it leaves.
        #expect(Self.byNameReads(in: "let a = p.number(\"amount\") / 100", path: "x") == ["x:1"])
        #expect(Self.byNameReads(in: "guard node.parameters.text(\"lens\").isEmpty", path: "x") == ["x:1"])
        #expect(Self.byNameReads(in: "{ $0.bool(\"auto\") }", path: "x") == ["x:1"])
        #expect(Self.byNameReads(in: "let a = p[Filters.ExposureKeys.ev]", path: "x").isEmpty)
        #expect(Self.byNameReads(in: ".number(\"ev\", -5...5, default: 0, \"stops\")", path: "x").isEmpty)
        #expect(Self.byNameReads(in: "fixed: [\"mode\": .text(\"rect\")]", path: "x").isEmpty)
        #expect(Self.byNameReads(in: "let v = ParameterValue.text(\"rect\")", path: "x").isEmpty)
        #expect(Self.byNameReads(in: "    /// reads p.number(\"ev\")", path: "x").isEmpty)

        let root = Paths.root.appendingPathComponent("Sources/PhotoEdit")
        let paths = try FileManager.default.subpathsOfDirectory(atPath: root.path).filter { $0.hasSuffix(".swift") }.sorted()
        #expect(paths.count > 100)
        var reads: [String] = []
        for path in paths {
            let text = try String(contentsOf: root.appendingPathComponent(path), encoding: .utf8)
            reads += Self.byNameReads(in: text, path: "Sources/PhotoEdit/" + path)
        }
        #expect(reads.isEmpty, "read these through the filter's keys (p[Filters.<Name>Keys.name]): \(reads)")
    }
}
