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
}
