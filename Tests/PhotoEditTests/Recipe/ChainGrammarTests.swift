import Foundation
import Testing
@testable import PhotoEdit

/// `Chain.parse`: the syntax of the one-line chain grammar, nothing else.
@Suite("Chain grammar")
struct ChainGrammarTests {
    @Test func parsesStepsInTheOrderWritten() throws {
        let steps = try Chain.parse("crop,exposure=+0.3")
        #expect(steps == [
            ChainStep(filter: "crop", parameter: nil, values: []),
            ChainStep(filter: "exposure", parameter: nil, values: ["+0.3"]),
        ])
    }

    @Test func colonSeparatesValuesOfOneFilter() throws {
        #expect(try Chain.parse("crop=0.1:0.1:0.8:0.8") == [ChainStep(filter: "crop", parameter: nil, values: ["0.1", "0.1", "0.8", "0.8"])])
        #expect(try Chain.parse("crop=16:9") == [ChainStep(filter: "crop", parameter: nil, values: ["16", "9"])])
    }

    @Test func dotNamesOneParameter() throws {
        #expect(try Chain.parse("crop.x=0.25") == [ChainStep(filter: "crop", parameter: "x", values: ["0.25"])])
    }

    @Test func spacesAroundPartsAreIgnoredAndNamesAreLowercased() throws {
        let steps = try Chain.parse("  Exposure = -1 , crop . X = 0.5 ,Flip ")
        #expect(steps == [
            ChainStep(filter: "exposure", parameter: nil, values: ["-1"]),
            ChainStep(filter: "crop", parameter: "x", values: ["0.5"]),
            ChainStep(filter: "flip", parameter: nil, values: []),
        ])
    }

    @Test func stepDescriptionIsTheTextOfTheStep() throws {
        for text in ["crop", "exposure=+0.3", "crop=16:9", "crop.x=0.1", "crop=0.1:0.1:0.8:0.8"] {
            let steps = try Chain.parse(text)
            #expect(steps.count == 1)
            #expect(steps[0].description == text)
        }
    }

    @Test func parseDoesNotCheckFilterNames() throws {
        // Syntax only: names are checked by Chain.apply against the registry.
        #expect(try Chain.parse("blur=3") == [ChainStep(filter: "blur", parameter: nil, values: ["3"])])
    }

    @Test(arguments: ["", "   "])
    func emptyChainIsRejected(_ text: String) {
        #expect(throws: PhotoEditError.invalidChain(chain: text, problem: "it is empty")) { try Chain.parse(text) }
    }

    @Test(arguments: ["exposure=1,,crop", ",crop", "crop,", "crop, ,flip"])
    func emptyStepIsRejected(_ text: String) {
        #expect(throws: PhotoEditError.invalidChain(chain: text, problem: "an empty step (two commas in a row?)")) {
            try Chain.parse(text)
        }
    }

    @Test(arguments: ["=1", "9lives", "exp osure=1", "crop.x.y=1", "ex$posure=1", ".x=1", "crop.=1", "crop..x=1"])
    func badNamesAreRejected(_ text: String) throws {
        let error = try #require(throws: PhotoEditError.self) { try Chain.parse(text) }
        guard case .invalidChain(let chain, let problem) = error else {
            Issue.record("expected invalidChain, got \(error)")
            return
        }
        #expect(chain == text)
        #expect(problem.contains("is not a filter name"))
    }

    @Test(arguments: ["exposure=", "crop=0.1::0.8:0.8", "crop=16:", "crop=:9", "crop.x="])
    func emptyValuesAreRejected(_ text: String) throws {
        let error = try #require(throws: PhotoEditError.self) { try Chain.parse(text) }
        guard case .invalidChain(let chain, let problem) = error else {
            Issue.record("expected invalidChain, got \(error)")
            return
        }
        #expect(chain == text)
        #expect(problem.contains("has an empty value"))
    }

    @Test func aParameterNeedsAValue() throws {
        let error = try #require(throws: PhotoEditError.self) { try Chain.parse("crop.x") }
        guard case .invalidChain(_, let problem) = error else {
            Issue.record("expected invalidChain, got \(error)")
            return
        }
        #expect(problem.contains("needs a value"))
    }

    /// `filter.name=v1:v2` is a named form (`raw.wb=5200:+10`); a plain
    /// parameter takes exactly one value.
    @Test(arguments: ["crop.x=1:2", "exposure.ev=1:2:3"])
    func oneParameterTakesExactlyOneValue(_ text: String) throws {
        let error = try #require(throws: PhotoEditError.self) { try Chain.apply(Chain.parse(text), to: .empty) }
        guard case .invalidParameter(_, _, let problem) = error else {
            Issue.record("expected invalidParameter, got \(error)")
            return
        }
        #expect(problem.contains("takes one value"))
    }
}
