import PhotoEdit

/// `photoedit filters` output, derived from the filter declarations.
enum FilterHelp {
    static func text(_ registry: FilterRegistry) -> String {
        var out: [String] = ["Filters, in pipeline order (the order they run in, whatever order a chain names them):", ""]
        for f in registry.filters {
            let legacy = f.legacy.isEmpty ? "" : "; recipes of version \(f.legacy.map { String($0.version) }.joined(separator: ", ")) still render as they did"
            out.append("\(f.id) (version \(f.version); \(f.stage.name) stage; works in \(f.colourSpace)\(legacy))")
            out.append("  \(f.summary)")
            for form in f.forms { out.append("  \(pad(Chain.usage(f, form), 22)) \(form.summary)") }
            for p in f.parameters {
                out.append("    \(pad("\(f.id).\(p.name)", 20)) \(p.rangeDescription), default \(p.defaultValue): \(p.summary)")
            }
            out.append("")
        }
        return out.joined(separator: "\n")
    }

    /// Pads to a column, never cutting the text.
    static func pad(_ text: String, _ width: Int) -> String {
        text.count >= width ? text : text.padding(toLength: width, withPad: " ", startingAt: 0)
    }

    static func json(_ f: FilterDefinition) -> JSONValue {
        .object([
            "id": .string(f.id), "version": .number(Double(f.version)), "stage": .string(f.stage.name),
            "summary": .string(f.summary), "colourSpace": .string(f.colourSpace),
            "forms": .array(f.forms.map { .object(["usage": .string(Chain.usage(f, $0)), "summary": .string($0.summary)]) }),
            "parameters": .array(f.parameters.map { p in
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
