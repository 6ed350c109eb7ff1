import PhotoEdit

/// `photoedit filters` output, derived from the filter declarations.
enum FilterHelp {
    static func text(_ registry: FilterRegistry) -> String {
        var out: [String] = ["Filters, in pipeline order (the order they run in, whatever order a chain names them):", ""]
        for f in registry.filters {
            out.append("\(f.id) (version \(f.version); \(f.stage.name) stage; works in \(f.colourSpace))")
            out.append("  \(f.summary)")
            for form in f.forms { out.append("  \(Chain.usage(f, form).padding(toLength: 22, withPad: " ", startingAt: 0)) \(form.summary)") }
            for p in f.parameters {
                let name = "\(f.id).\(p.name)"
                out.append("    \(name.padding(toLength: 20, withPad: " ", startingAt: 0)) \(p.rangeDescription), default \(p.defaultValue): \(p.summary)")
            }
            out.append("")
        }
        return out.joined(separator: "\n")
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
