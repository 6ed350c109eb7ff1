import Foundation

extension FilterDefinition {
    /// The declaration as JSON (what `photoedit filters --json` prints and
    /// the HTTP API's `/v1/filters` serves): id, version, stage, summary,
    /// colour space, chain forms, and every parameter with its range and default.
    public var jsonDescription: JSONValue {
        .object([
            "id": .string(id), "version": .number(Double(version)), "stage": .string(stage.name),
            "summary": .string(summary), "colourSpace": .string(colourSpace),
            "forms": .array(forms.map { .object(["usage": .string(Chain.usage(self, $0)), "summary": .string($0.summary)]) }),
            "parameters": .array(parameters.map { p in
                var o: [String: JSONValue] = ["name": .string(p.name), "summary": .string(p.summary), "unit": .string(p.unit),
                                              "range": .string(p.rangeDescription)]
                switch p.defaultValue {
                case .number(let n): o["default"] = .number(n)
                case .text(let t): o["default"] = .string(t)
                case .bool(let b): o["default"] = .bool(b)
                }
                return .object(o)
            }),
        ])
    }
}
