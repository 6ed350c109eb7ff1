import Foundation
import Testing
@testable import PhotoEdit

/// Applies chain text to a recipe (empty by default).
func recipe(_ chain: String, on base: Recipe = .empty) throws -> Recipe {
    try Chain.apply(Chain.parse(chain), to: base)
}

/// `Chain.apply`: merging a chain into a recipe, validation, canonical order.
@Suite("Chain merge")
struct ChainMergeTests {
    // MARK: Merge

    @Test func secondExposureReplacesTheFirst() throws {
        let first = try recipe("exposure=+1")
        let second = try recipe("exposure=-0.5", on: first)
        #expect(second.nodes.count == 1)
        #expect(second.node("exposure")?.parameters["ev"] == .number(-0.5))
        // Not stacked: same as applying only the second one.
        #expect(second == (try recipe("exposure=-0.5")))
    }

    @Test func repeatedFilterInOneChainKeepsTheLast() throws {
        let r = try recipe("exposure=+1,saturation=10,exposure=+2")
        #expect(r.nodes.map(\.filter) == ["exposure", "saturation"])
        #expect(r.node("exposure")?.parameters["ev"] == .number(2))
    }

    @Test func mergeKeepsOtherFilters() throws {
        let r = try recipe("contrast=+20", on: try recipe("exposure=+1,crop=16:9"))
        #expect(Set(r.nodes.map(\.filter)) == ["exposure", "contrast", "crop"])
        #expect(r.node("exposure")?.parameters["ev"] == .number(1))
        #expect(r.node("crop")?.parameters["mode"] == .text("aspect"))
    }

    @Test func cropAspectForm() throws {
        let p = try #require(try recipe("crop=16:9").node("crop")?.parameters)
        #expect(p["mode"] == .text("aspect"))
        #expect(p["aw"] == .number(16))
        #expect(p["ah"] == .number(9))
        #expect(p["x"] == .number(0) && p["y"] == .number(0) && p["w"] == .number(1) && p["h"] == .number(1))
    }

    @Test func cropRectForm() throws {
        let p = try #require(try recipe("crop=0.1:0.2:0.7:0.6").node("crop")?.parameters)
        #expect(p["mode"] == .text("rect"))
        #expect(p["x"] == .number(0.1))
        #expect(p["y"] == .number(0.2))
        #expect(p["w"] == .number(0.7))
        #expect(p["h"] == .number(0.6))
        #expect(p["aw"] == .number(1) && p["ah"] == .number(1))
    }

    @Test func bareCropTrims() throws {
        let p = try #require(try recipe("crop").node("crop")?.parameters)
        #expect(p["mode"] == .text("trim"))
        #expect(p["threshold"] == .number(10))
    }

    @Test func aFormResetsTheFiltersOtherParameters() throws {
        // crop=W:H after a rect: the rect goes back to its defaults.
        let p = try #require(try recipe("crop=16:9", on: try recipe("crop=0.1:0.1:0.8:0.8")).node("crop")?.parameters)
        #expect(p["mode"] == .text("aspect"))
        #expect(p["x"] == .number(0) && p["w"] == .number(1))
    }

    @Test func oneParameterKeepsTheOthers() throws {
        let base = try recipe("crop=0.1:0.2:0.5:0.6,exposure=+1")
        let r = try recipe("crop.x=0.3", on: base)
        let p = try #require(r.node("crop")?.parameters)
        #expect(p["mode"] == .text("rect"))
        #expect(p["x"] == .number(0.3))
        #expect(p["y"] == .number(0.2))
        #expect(p["w"] == .number(0.5))
        #expect(p["h"] == .number(0.6))
        #expect(r.node("exposure") == base.node("exposure"))
    }

    @Test func oneParameterOnAnAbsentFilterStartsFromDefaults() throws {
        let p = try #require(try recipe("crop.w=0.5").node("crop")?.parameters)
        #expect(p["mode"] == .text("rect"))
        #expect(p["x"] == .number(0) && p["w"] == .number(0.5) && p["h"] == .number(1))
    }

    @Test func bareFormsOfRotateAndFlip() throws {
        let r = try recipe("rotate,flip")
        #expect(r.node("rotate")?.parameters["degrees"] == .number(90))
        #expect(r.node("flip")?.parameters["axis"] == .text("horizontal"))
    }

    @Test func rotateIsNormalizedToAClockwiseQuarterTurn() throws {
        #expect(try recipe("rotate=-90") == (try recipe("rotate=270")))
        #expect(try recipe("rotate=-90").node("rotate")?.parameters["degrees"] == .number(270))
        #expect(try recipe("rotate=-270").node("rotate")?.parameters["degrees"] == .number(90))
    }

    @Test func numbersAreStoredCanonically() throws {
        #expect(try recipe("exposure=+0.30000001").node("exposure")?.parameters["ev"] == .number(0.3))
        #expect(try recipe("exposure=-0").node("exposure")?.parameters["ev"] == .number(0))
        #expect(try recipe("flip=VERTICAL").node("flip")?.parameters["axis"] == .text("vertical"))
    }

    @Test func nodesCarryTheFiltersVersion() throws {
        let r = try recipe("temperature=+10,tint=5,exposure=1,contrast=5,saturation=5,rotate,flip,crop")
        for node in r.nodes {
            #expect(node.version == FilterRegistry.standard.filter(node.filter)?.version)
        }
    }

    // MARK: Errors

    @Test func unknownFilter() {
        #expect(throws: PhotoEditError.unknownFilter(name: "glow", known: FilterRegistry.standard.ids)) {
            try recipe("exposure=1,glow=3")
        }
    }

    @Test(arguments: [("exposure=5.5", "exposure", "ev"), ("exposure=-6", "exposure", "ev"),
                      ("contrast=101", "contrast", "amount"), ("saturation=-100.5", "saturation", "amount"),
                      ("temperature=200", "temperature", "amount"), ("tint=-101", "tint", "amount"),
                      ("rotate=360", "rotate", "degrees"), ("crop=1.5:0:0.1:0.1", "crop", "x"),
                      ("crop.threshold=101", "crop", "threshold"), ("crop=0:9", "crop", "aw")])
    func outOfRange(_ chain: String, _ filter: String, _ parameter: String) throws {
        let error = try #require(throws: PhotoEditError.self) { try recipe(chain) }
        guard case let .invalidParameter(f, p, problem) = error else {
            Issue.record("expected invalidParameter, got \(error)")
            return
        }
        #expect(f == filter)
        #expect(p == parameter)
        #expect(problem.contains("out of range"), "\(problem)")
        // The message names the valid range.
        let spec = try #require(FilterRegistry.standard.filter(filter)?.parameter(parameter))
        #expect(problem.contains(spec.rangeDescription), "\(problem)")
    }

    @Test func exposureOutOfRangeMessage() {
        #expect(throws: PhotoEditError.invalidParameter(filter: "exposure", parameter: "ev", problem: "9 is out of range (expected -5…5 EV)")) {
            try recipe("exposure=9")
        }
    }

    @Test(arguments: [("exposure=abc", "ev"), ("exposure=nan", "ev"), ("exposure=inf", "ev"),
                      ("flip=sideways", "axis"), ("rotate=45", "degrees"), ("crop.mode=circle", "mode")])
    func badValues(_ chain: String, _ parameter: String) throws {
        let error = try #require(throws: PhotoEditError.self) { try recipe(chain) }
        guard case let .invalidParameter(_, p, _) = error else {
            Issue.record("expected invalidParameter, got \(error)")
            return
        }
        #expect(p == parameter)
    }

    @Test func unknownParameter() throws {
        let error = try #require(throws: PhotoEditError.self) { try recipe("exposure.stops=1") }
        guard case let .invalidParameter(f, p, problem) = error else {
            Issue.record("expected invalidParameter, got \(error)")
            return
        }
        #expect(f == "exposure")
        #expect(p == "stops")
        #expect(problem.contains("unknown parameter"))
        #expect(problem.contains("ev"), "the message lists the known parameters: \(problem)")
    }

    @Test(arguments: [("exposure=1:2", 2), ("crop=1:2:3", 3), ("exposure", 0), ("crop=0.1:0.1:0.1:0.1:0.1", 5), ("saturation", 0)])
    func wrongValueCount(_ chain: String, _ count: Int) throws {
        let error = try #require(throws: PhotoEditError.self) { try recipe(chain) }
        guard case let .invalidParameter(_, p, problem) = error else {
            Issue.record("expected invalidParameter, got \(error)")
            return
        }
        #expect(p == "")
        #expect(problem.hasPrefix("\(count) value(s) given"), "\(problem)")
    }

    @Test func wrongValueCountNamesTheForms() {
        #expect(throws: PhotoEditError.invalidParameter(filter: "crop", parameter: "",
                                                        problem: "3 value(s) given; write crop=X:Y:W:H or crop=AW:AH or crop")) {
            try recipe("crop=1:2:3")
        }
    }

    @Test(arguments: [("crop=0.5:0:0.6:1", "x + w must be at most 1 (got 1.1)"),
                      ("crop=0:0.3:1:0.8", "y + h must be at most 1 (got 1.1)")])
    func cropRectMustStayInsideTheImage(_ chain: String, _ problem: String) {
        #expect(throws: PhotoEditError.invalidParameter(filter: "crop", parameter: "", problem: problem)) { try recipe(chain) }
    }

    @Test func cropParameterThatPushesTheRectOutsideIsRejected() throws {
        let base = try recipe("crop=0.5:0:0.5:1")
        #expect(throws: PhotoEditError.self) { try recipe("crop.w=0.6", on: base) }
    }

    @Test func theInputRecipeIsUnchangedOnError() throws {
        let base = try recipe("exposure=+1,crop=16:9")
        let copy = base
        let bytes = base.adjustmentData.data
        for bad in ["saturation=20,exposure=9", "exposure=-1,blur", "crop=0.5:0:0.6:1", "exposure=2,exposure.nope=1"] {
            #expect(throws: PhotoEditError.self) { try recipe(bad, on: base) }
        }
        #expect(base == copy)
        #expect(base.adjustmentData.data == bytes)
        #expect(base.node("saturation") == nil)
        #expect(base.node("exposure")?.parameters["ev"] == .number(1))
    }

    // MARK: Canonical order

    @Test func canonicalPipelineOrder() {
        // Stages in order, whatever the registration order; inside a stage, by order.
        let filters = FilterRegistry.standard.filters
        #expect(zip(filters, filters.dropFirst()).allSatisfy { ($0.stage, $0.order) <= ($1.stage, $1.order) })
        let ids = FilterRegistry.standard.ids
        for (a, b) in [("temperature", "exposure"), ("exposure", "contrast"), ("contrast", "saturation"), ("saturation", "rotate"),
                       ("rotate", "flip"), ("flip", "crop"), ("crop", "sharpen"), ("sharpen", "vignette"), ("vignette", "resize"),
                       ("noise", "contrast"), ("rotate", "straighten"), ("straighten", "crop")] {
            #expect(ids.firstIndex(of: a)! < ids.firstIndex(of: b)!, "\(a) must run before \(b)")
        }
    }

    @Test(arguments: [
        ["crop=16:9", "rotate=90", "exposure=+1", "temperature=+20", "saturation=-30"],
        ["flip", "tint=-10", "contrast=+25", "crop=0.1:0.1:0.8:0.8", "exposure=-0.5"],
    ])
    func orderOfNamingDoesNotMatter(_ steps: [String]) throws {
        let reference = try recipe(steps.joined(separator: ","))
        let position = Dictionary(uniqueKeysWithValues: FilterRegistry.standard.ids.enumerated().map { ($1, $0) })
        #expect(reference.nodes.map { position[$0.filter]! } == reference.nodes.map { position[$0.filter]! }.sorted())
        // Every rotation of the list, reversed, and one step per apply.
        var orders: [[String]] = (0..<steps.count).map { Array(steps[$0...] + steps[..<$0]) }
        orders.append(steps.reversed())
        for order in orders {
            let r = try recipe(order.joined(separator: ","))
            #expect(r == reference, "\(order)")
            #expect(r.adjustmentData.data == reference.adjustmentData.data, "\(order)")
            let stepwise = try order.reduce(Recipe.empty) { try recipe($1, on: $0) }
            #expect(stepwise == reference)
            #expect(stepwise.adjustmentData.data == reference.adjustmentData.data)
        }
    }

    @Test func recipeInitSortsNodes() throws {
        let r = try recipe("crop=16:9,exposure=+1,temperature=+20")
        let shuffled = Recipe(nodes: [r.nodes[2], r.nodes[0], r.nodes[1]])
        #expect(shuffled == r)
        #expect(shuffled.adjustmentData == r.adjustmentData)
    }

    @Test func removeDropsAFilter() throws {
        var r = try recipe("exposure=+1,crop=16:9")
        let removed = r.remove("exposure")
        let removedAgain = r.remove("exposure")
        #expect(removed)
        #expect(!removedAgain)
        #expect(r == (try recipe("crop=16:9")))
    }
}
