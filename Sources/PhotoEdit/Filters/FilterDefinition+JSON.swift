import Foundation

extension FilterDefinition {
    /// The declaration as JSON (what `photoedit filters --json` prints and
    /// the HTTP API's `/v1/filters` serves): id, version, stage, summary,
    /// colour space, chain forms, and every parameter as structured data
    /// (`ParameterSpec.jsonDescription`); where an editor shows it
    /// (`editor`: `editorDescription`) and the parameters the engine
    /// records, never the user (`recorded`: an editor hides them); for a
    /// filter that holds lists (`local`, `retouch`), its `structure`
    /// (`structureDescription`).
    public var jsonDescription: JSONValue {
        var o: [String: JSONValue] = [
            "id": .string(id), "version": .number(Double(version)), "stage": .string(stage.name),
            "summary": .string(summary), "colourSpace": .string(colourSpace),
            "forms": .array(forms.map { .object(["usage": .string(Chain.usage(self, $0)), "summary": .string($0.summary)]) }),
            "parameters": .array(parameters.map(\.jsonDescription)),
            "editor": editorDescription, "recorded": .array(recorded.sorted().map(JSONValue.string)),
        ]
        if let structure = structureDescription { o["structure"] = structure }
        return .object(o)
    }
}

extension ParameterSpec {
    /// The parameter as data, so an editor builds its control without
    /// parsing text: `name`, `type` (`number`, `choice`, `text`, `bool`),
    /// `default`, `unit`, `description` (and `summary`, the same line), the
    /// human `range` text, and by type: `min`, `max`, `step` (numbers; `step`
    /// null when any value in the range is valid), `choices` (a choice),
    /// `maxLength` (text).
    public var jsonDescription: JSONValue {
        var o: [String: JSONValue] = ["name": .string(name), "summary": .string(summary), "description": .string(summary),
                                      "unit": .string(unit), "range": .string(rangeDescription)]
        switch kind {
        case let .number(range, step):
            o["type"] = .string("number")
            o["min"] = .number(range.lowerBound)
            o["max"] = .number(range.upperBound)
            o["step"] = step.map(JSONValue.number) ?? .null
        case let .choice(choices):
            o["type"] = .string("choice")
            o["choices"] = .array(choices.map(JSONValue.string))
        case .text:
            o["type"] = .string("text")
            o["maxLength"] = .number(Double(Self.maxTextLength))
        case .bool:
            o["type"] = .string("bool")
        }
        switch defaultValue {
        case .number(let n): o["default"] = .number(n)
        case .text(let t): o["default"] = .string(t)
        case .bool(let b): o["default"] = .bool(b)
        }
        return .object(o)
    }
}
