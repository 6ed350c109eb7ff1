import Foundation
import Testing
@testable import PhotoEdit

/// Filters read their parameters through their declaration, as typed keys
/// (`ParameterKeyTests`), so a misspelt name does not compile; a validated
/// parameter set holds every declared name, so a read of any other name
/// (another filter's key, a by-name read) is recorded by `Parameters`
/// instead of rendering a silent 0. This
/// suite renders every filter, at its current version and at each earlier
/// version that keeps its own renderer, at its defaults and with each
/// parameter moved to its ends (every choice, both bools), and fails when
/// any read names a parameter the filter does not declare (issue 42).
@Suite("Filters: typed parameters")
struct TypedParameterTests {
    let registry = FilterRegistry.standard

    /// The parameter sets that reach a filter's branches: the defaults,
    /// then each parameter alone at its minimum and maximum, every choice,
    /// the other bool.
    static func variants(_ specs: [ParameterSpec]) -> [[String: ParameterValue]] {
        var out: [[String: ParameterValue]] = [[:]]
        for spec in specs {
            switch spec.kind {
            case .number(let range, _):
                out.append([spec.name: .number(range.lowerBound)])
                out.append([spec.name: .number(range.upperBound)])
            case .choice(let choices):
                for choice in choices { out.append([spec.name: .text(choice)]) }
            case .bool:
                if case .bool(let b) = spec.defaultValue { out.append([spec.name: .bool(!b)]) }
            case .text:
                break  // file names and such: their defaults are read above
            }
        }
        return out
    }

    @Test(arguments: FilterRegistry.standard.filters.filter { $0.structure == nil }.map(\.id))
    func everyReadIsDeclared(_ id: String) throws {
        let definition = try #require(registry.filter(id))
        let image = try Renderer(registry: registry).workingImage(path: Paths.sample("chelsea.jpg"), randomAccess: true).inMemory()
        var versions: [(Int, [ParameterSpec])] = [(definition.version, definition.parameters)]
        versions += definition.legacy.filter { $0.render != nil }.map { ($0.version, $0.parameters) }
        var rendered = 0
        for (version, specs) in versions {
            for values in Self.variants(specs) {
                // A combination the filter refuses (relations between its
                // parameters) is not rendered: no read can happen.
                let parameters: Parameters
                if version == definition.version {
                    guard let p = try? definition.validated(values) else { continue }
                    parameters = p
                } else {
                    guard let p = try? FilterDefinition.validate(values, against: specs, filter: id) else { continue }
                    parameters = p
                }
                #expect(parameters.declaredBy == id)
                // Some variants fail for want of context (a LUT file, a lens
                // profile): the reads made before the failure still count.
                if let out = try? definition.renderer(for: version)(image, parameters, RenderContext()) {
                    _ = try? out.average()
                }
                rendered += 1
            }
        }
        #expect(rendered > 0, "\(id): no parameter set was valid")
        let undeclared = Parameters.undeclaredReads.withLock { $0.filter { $0.hasPrefix(id + ".") } }
        #expect(undeclared.isEmpty, "\(id) reads parameters it does not declare: \(undeclared.sorted())")
    }

    /// The check itself: a misspelt read of a validated set is recorded;
    /// the same read of a partial set made inside the engine is not.
    @Test func aMisspeltReadIsRecorded() throws {
        let exposure = try #require(registry.filter("exposure"))
        let params = try exposure.validated([:])
        #expect(params.declaredBy == "exposure")
        #expect(params.values.count == exposure.parameters.count)
        // A set declared by a filter name no real filter has, so that the
        // record does not fail `everyReadIsDeclared`.
        let declared = Parameters(declared: ["ev": .number(1)], by: "typed-check")
        #expect(declared.number("ev") == 1)
        #expect(declared.number("evv") == 0)
        #expect(declared.text("mode") == "")
        let partial = Parameters(values: ["ev": .number(1)])
        #expect(partial.number("typo") == 0)
        let recorded = Parameters.undeclaredReads.withLock { $0.filter { $0.hasPrefix("typed-check.") || $0.hasSuffix(".typo") } }
        #expect(recorded == ["typed-check.evv", "typed-check.mode"])
        #expect(declared == Parameters(values: ["ev": .number(1)]), "the declaration is not part of a set's value")
    }
}
