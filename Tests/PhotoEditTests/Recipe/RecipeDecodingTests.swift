import Foundation
import Testing
@testable import PhotoEdit

/// Decoding adjustment data: anything this engine cannot read exactly is an
/// error, never a guess.
@Suite("Recipe decoding")
struct RecipeDecodingTests {
    static func data(_ json: String, identifier: String = Recipe.formatIdentifier, version: String = "1") -> AdjustmentData {
        AdjustmentData(formatIdentifier: identifier, formatVersion: version, data: Data(json.utf8))
    }

    static func decode(_ json: String, identifier: String = Recipe.formatIdentifier, version: String = "1") throws -> Recipe {
        try Recipe(adjustmentData: data(json, identifier: identifier, version: version))
    }

    /// A recipe document with these filter nodes (JSON text).
    static func document(_ filters: String, extra: String = "", format: String = "org.photoedit.recipe", formatVersion: String = "1") -> String {
        #"{"format":"\#(format)","formatVersion":\#(formatVersion),"base":"original","filters":[\#(filters)]\#(extra)}"#
    }

    /// The problem text of an `invalidAdjustmentData` error.
    static func problem(_ body: () throws -> Recipe, sourceLocation: SourceLocation = #_sourceLocation) -> String? {
        do {
            let r = try body()
            Issue.record("decoded \(r) instead of failing", sourceLocation: sourceLocation)
        } catch PhotoEditError.invalidAdjustmentData(let problem) {
            return problem
        } catch {
            Issue.record("expected invalidAdjustmentData, got \(error)", sourceLocation: sourceLocation)
        }
        return nil
    }

    @Test func decodesWhatItWrites() throws {
        let r = try Self.decode(Self.document(#"{"id":"exposure","version":1,"params":{"ev":0.5}}"#))
        #expect(r == (try recipe("exposure=+0.5")))
    }

    @Test func acceptsAnyKeyOrderAndWhitespaceAndPutsFiltersInPipelineOrder() throws {
        let json = """
        {
          "filters": [
            {"version": 1, "params": {"aw": 16, "ah": 9, "mode": "aspect"}, "id": "crop"},
            {"params": {"ev": -1.0}, "id": "exposure", "version": 1}
          ],
          "formatVersion": 1, "format": "org.photoedit.recipe"
        }
        """
        let r = try Self.decode(json)
        #expect(r.nodes.map(\.filter) == ["exposure", "crop"])
        #expect(r == (try recipe("crop=16:9,exposure=-1")))
        #expect(r.adjustmentData.data == (try recipe("exposure=-1,crop=16:9")).adjustmentData.data)
    }

    @Test func missingParametersTakeTheirDefaults() throws {
        let r = try Self.decode(Self.document(#"{"id":"crop","version":1,"params":{"mode":"trim"}},{"id":"contrast","version":2}"#))
        #expect(r == (try recipe("crop,contrast=0")))
    }

    @Test func malformedJSON() {
        for text in ["", "{", "not json", #"{"format": }"#, "[1,2"] {
            let problem = Self.problem { try Self.decode(text) }
            #expect(problem?.hasPrefix("not valid JSON") == true, "\(text): \(problem ?? "-")")
        }
    }

    @Test func notAnObject() {
        #expect(Self.problem { try Self.decode("[]") } == "a recipe is a JSON object")
    }

    @Test func unknownTopLevelKey() {
        #expect(Self.problem { try Self.decode(Self.document("", extra: #","comment":"hi""#)) } == "unknown key 'comment' in recipe")
    }

    @Test func unknownNodeKey() {
        let json = Self.document(#"{"id":"exposure","version":1,"params":{"ev":1},"enabled":true}"#)
        #expect(Self.problem { try Self.decode(json) } == "unknown key 'enabled' in filter node")
    }

    @Test func unknownFilter() {
        let json = Self.document(#"{"id":"halo","version":1,"params":{}}"#)
        #expect(throws: PhotoEditError.unknownFilter(name: "halo", known: FilterRegistry.standard.ids)) { try Self.decode(json) }
    }

    @Test func filterVersionNewerThanKnown() {
        let json = Self.document(#"{"id":"exposure","version":2,"params":{"ev":1}}"#)
        #expect(Self.problem { try Self.decode(json) } == "filter 'exposure' version 2 is newer than this engine knows (up to 1)")
    }

    /// Issue 10: a version beyond Int's range trapped (SIGILL) converting Double to Int.
    @Test(arguments: [("1e300", "1e+300"), ("9.3e18", "9.3e+18"), ("12345", "12345")])
    func hugeVersionsAreRefusedNotTrapped(_ version: String, _ shown: String) {
        let inFilter = Self.document(#"{"id":"exposure","version":\#(version),"params":{"ev":1}}"#)
        #expect(Self.problem { try Self.decode(inFilter) } == "filter 'exposure' version \(shown) is newer than this engine knows (up to 1)")
        let inDocument = Self.document("", formatVersion: version)
        #expect(Self.problem { try Self.decode(inDocument) } == "recipe format version \(shown) is newer than this engine reads (up to 1)")
    }

    @Test(arguments: ["0", "-1", "1.5", "\"1\""])
    func badFilterVersion(_ version: String) {
        let json = Self.document(#"{"id":"exposure","version":\#(version),"params":{"ev":1}}"#)
        #expect(Self.problem { try Self.decode(json) } == "filter 'exposure' needs a positive integer 'version'")
    }

    @Test func formatVersionNewerInAdjustmentData() {
        let json = Self.document("")
        #expect(Self.problem { try Self.decode(json, version: "2") } == "format version 2 is newer than this engine reads (up to 1)")
        #expect(!Recipe.canHandle(Self.data(json, version: "2")))
    }

    @Test func formatVersionNewerInsideTheDocument() {
        let json = Self.document("", formatVersion: "2")
        #expect(Self.problem { try Self.decode(json) } == "recipe format version 2 is newer than this engine reads (up to 1)")
    }

    @Test(arguments: ["0", "1.0.0", "", "one"])
    func malformedFormatVersion(_ version: String) {
        let problem = Self.problem { try Self.decode(Self.document(""), version: version) }
        #expect(problem?.contains("is not a version of org.photoedit.recipe") == true, "\(problem ?? "-")")
        #expect(!Recipe.canHandle(Self.data(Self.document(""), version: version)))
    }

    @Test func wrongFormatIdentifier() {
        let json = Self.document(#"{"id":"exposure","version":1,"params":{"ev":1}}"#)
        #expect(Self.problem { try Self.decode(json, identifier: "com.apple.photo") }
            == "format 'com.apple.photo' is not org.photoedit.recipe")
        #expect(!Recipe.canHandle(Self.data(json, identifier: "com.apple.photo")))
        #expect(Recipe.canHandle(Self.data(json)))
    }

    @Test func wrongFormatInsideTheDocument() {
        let json = Self.document("", format: "org.other.recipe")
        #expect(Self.problem { try Self.decode(json) } == "recipe 'format' must be \"org.photoedit.recipe\"")
    }

    @Test func wrongBase() {
        let json = #"{"format":"org.photoedit.recipe","formatVersion":1,"base":"previous","filters":[]}"#
        #expect(Self.problem { try Self.decode(json) } == "recipe 'base' must be \"original\", \"alternate\" or \"render\"")
    }

    @Test func renderBaseDecodesAndRoundTrips() throws {
        let json = #"{"format":"org.photoedit.recipe","formatVersion":1,"base":"render","filters":[]}"#
        let recipe = try Self.decode(json)
        #expect(recipe.base == .render)
        #expect(try Recipe(adjustmentData: recipe.adjustmentData) == recipe)
    }

    @Test func filtersMustBeAnArray() {
        let json = #"{"format":"org.photoedit.recipe","formatVersion":1,"filters":{}}"#
        #expect(Self.problem { try Self.decode(json) } == "recipe 'filters' must be an array")
    }

    @Test func parameterOutOfRange() throws {
        let json = Self.document(#"{"id":"exposure","version":1,"params":{"ev":9}}"#)
        let error = try #require(throws: PhotoEditError.self) { try Self.decode(json) }
        guard case let .invalidParameter(filter, parameter, problem) = error else {
            Issue.record("expected invalidParameter, got \(error)")
            return
        }
        #expect(filter == "exposure" && parameter == "ev")
        #expect(problem.contains("out of range"))
    }

    @Test func parameterOfTheWrongType() throws {
        let json = Self.document(#"{"id":"exposure","version":1,"params":{"ev":"bright"}}"#)
        #expect(throws: PhotoEditError.self) { try Self.decode(json) }
        let nested = Self.document(#"{"id":"exposure","version":1,"params":{"ev":[1]}}"#)
        #expect(throws: PhotoEditError.invalidParameter(filter: "exposure", parameter: "ev", problem: "must be a number, string or boolean")) {
            try Self.decode(nested)
        }
    }

    @Test func unknownParameter() throws {
        let json = Self.document(#"{"id":"exposure","version":1,"params":{"ev":1,"gamma":2}}"#)
        let error = try #require(throws: PhotoEditError.self) { try Self.decode(json) }
        guard case let .invalidParameter(filter, parameter, _) = error else {
            Issue.record("expected invalidParameter, got \(error)")
            return
        }
        #expect(filter == "exposure" && parameter == "gamma")
    }

    @Test func relationBetweenParametersIsChecked() {
        let json = Self.document(#"{"id":"crop","version":1,"params":{"mode":"rect","x":0.5,"w":0.6}}"#)
        #expect(throws: PhotoEditError.invalidParameter(filter: "crop", parameter: "", problem: "x + w must be at most 1 (got 1.1)")) {
            try Self.decode(json)
        }
    }

    @Test func duplicateFilter() {
        let json = Self.document(#"{"id":"exposure","version":1,"params":{"ev":1}},{"id":"exposure","version":1,"params":{"ev":2}}"#)
        #expect(Self.problem { try Self.decode(json) } == "filter 'exposure' appears twice")
    }
}
