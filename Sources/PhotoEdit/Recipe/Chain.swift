import Foundation

/// One step of a chain: `crop`, `exposure=+0.3`, `crop=16:9`, `crop.x=0.1`.
public struct ChainStep: Hashable, Sendable, CustomStringConvertible {
    /// The filter the step names.
    public let filter: String
    /// Set for the `filter.parameter=value` form.
    public let parameter: String?
    /// The values after `=`, split at `:`.
    public let values: [String]
    /// Set for a `preset:NAME` step.
    public var preset: String? = nil

    /// The step as the grammar writes it.
    public var description: String {
        if let preset { return "preset:" + preset }
        var s = filter
        if let parameter { s += "." + parameter }
        if !values.isEmpty { s += "=" + values.joined(separator: ":") }
        return s
    }
}

/// The one-line chain grammar (see docs/chain-grammar.md):
///
///     chain := step ("," step)*
///     step  := filter ["." parameter] ["=" value (":" value)*]
///
/// `filter=v1:v2…` picks the filter's form with that many values and resets
/// the filter's other parameters to their defaults; `filter.parameter=v`
/// changes one parameter and keeps the rest.
public enum Chain {
    /// Parses chain text into steps, checking only the syntax.
    public static func parse(_ text: String) throws -> [ChainStep] {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        guard !trimmed.isEmpty else { throw PhotoEditError.invalidChain(chain: text, problem: "it is empty") }
        var steps: [ChainStep] = []
        for raw in trimmed.split(separator: ",", omittingEmptySubsequences: false) {
            let part = raw.trimmingCharacters(in: .whitespaces)
            guard !part.isEmpty else { throw PhotoEditError.invalidChain(chain: text, problem: "an empty step (two commas in a row?)") }
            if part.lowercased().hasPrefix("preset:") {
                let name = String(part.dropFirst("preset:".count)).trimmingCharacters(in: .whitespaces)
                guard PresetLibrary.isPresetName(name) else {
                    throw PhotoEditError.invalidChain(chain: text, problem: "'\(part)' does not name a preset (letters, digits, '-' and '_', optionally '.xmp')")
                }
                steps.append(ChainStep(filter: "preset", parameter: nil, values: [], preset: name))
                continue
            }
            let (head, valueText) = part.firstIndex(of: "=").map { (String(part[..<$0]), String(part[part.index(after: $0)...])) } ?? (part, nil)
            let names = head.split(separator: ".", omittingEmptySubsequences: false).map { $0.trimmingCharacters(in: .whitespaces) }
            guard names.count <= 2, names.allSatisfy(isIdentifier) else {
                throw PhotoEditError.invalidChain(chain: text, problem: "'\(head)' is not a filter name (letters, digits, '-' and '_', optionally '.parameter')")
            }
            var values: [String] = []
            if let valueText {
                values = valueText.split(separator: ":", omittingEmptySubsequences: false).map { $0.trimmingCharacters(in: .whitespaces) }
                guard values.allSatisfy({ !$0.isEmpty }) else {
                    throw PhotoEditError.invalidChain(chain: text, problem: "'\(part)' has an empty value")
                }
            }
            if names.count == 2 && values.isEmpty {
                throw PhotoEditError.invalidChain(chain: text, problem: "'\(part)' needs a value")
            }
            steps.append(ChainStep(filter: names[0].lowercased(), parameter: names.count == 2 ? names[1].lowercased() : nil, values: values))
        }
        return steps
    }

    private static func isIdentifier(_ s: String) -> Bool {
        guard let first = s.unicodeScalars.first, CharacterSet.letters.contains(first) else { return false }
        return s.unicodeScalars.allSatisfy { CharacterSet.alphanumerics.contains($0) || $0 == "-" || $0 == "_" }
    }

    /// The name of the `auto` step, which measures the photo and writes
    /// concrete values for the filters `AutoAdjust` sets.
    public static let autoStep = "auto"

    /// The name of the `upright` step (`upright`, `upright=level|vertical|full|auto`,
    /// optionally `:constrain`), which finds the photo's lines and writes
    /// concrete `perspective` values.
    public static let uprightStep = "upright"

    /// What an `upright` step asks for (mode `auto` when it names none).
    static func uprightRequest(_ step: ChainStep) throws -> UprightRequest {
        let modes = UprightMode.allCases.map(\.rawValue).joined(separator: ", ")
        guard step.parameter == nil, step.values.count <= 2 else {
            throw PhotoEditError.invalidChain(chain: step.description, problem: "upright takes a mode and constrain at most (upright=MODE[:constrain], MODE one of \(modes))")
        }
        guard let value = step.values.first else { return UprightRequest() }
        guard let mode = UprightMode(rawValue: value.lowercased()) else {
            throw PhotoEditError.invalidChain(chain: step.description, problem: "'\(value)' is not an upright mode (one of \(modes))")
        }
        if step.values.count == 2 && step.values[1].lowercased() != "constrain" {
            throw PhotoEditError.invalidChain(chain: step.description, problem: "'\(step.values[1])' is not constrain (upright=MODE:constrain also sets the scale)")
        }
        return UprightRequest(mode: mode, constrain: step.values.count == 2)
    }

    /// Merges steps into a recipe: a filter already present takes the new
    /// parameters (it never stacks); a new filter is added; the result is in
    /// canonical pipeline order. Throws on the first invalid step; the input
    /// recipe is not changed.
    ///
    /// `developsRaw`: the photo is developed from a RAW (a Lightroom preset's
    /// white balance is then the RAW's development, else a relative shift).
    /// An `auto` step calls `auto` with the recipe so far and continues with
    /// what it returns (the library measures the photo, `AutoAdjustment`);
    /// without `auto` such a step is an error. An `upright` step likewise
    /// calls `upright` with the recipe so far and what it asks for (the library
    /// solves the perspective, `UprightAdjustment`).
    public static func apply(_ steps: [ChainStep], to recipe: Recipe, registry: FilterRegistry = .standard,
                             presets: PresetLibrary? = nil, depth: Int = 0, developsRaw: Bool = false,
                             auto: ((Recipe) throws -> Recipe)? = nil,
                             upright: ((Recipe, UprightRequest) throws -> Recipe)? = nil) throws -> Recipe {
        var result = recipe
        var index = 0
        var structuredSeen: Set<String> = []
        while index < steps.count {
            let step = steps[index]
            if step.preset == nil && step.filter == autoStep && registry.filter(autoStep) == nil {
                guard step.parameter == nil && step.values.isEmpty else {
                    throw PhotoEditError.invalidChain(chain: step.description, problem: "auto takes no values (write auto, then adjust: auto,exposure=+0.3)")
                }
                guard let auto else {
                    throw PhotoEditError.invalidChain(chain: step.description, problem: "auto measures a photo, and there is none here")
                }
                result = try auto(result)
                index += 1
                continue
            }
            if step.preset == nil && step.filter == uprightStep && registry.filter(uprightStep) == nil {
                let request = try uprightRequest(step)
                guard let upright else {
                    throw PhotoEditError.invalidChain(chain: step.description, problem: "upright measures a photo, and there is none here")
                }
                result = try upright(result, request)
                index += 1
                continue
            }
            if let name = step.preset {
                // A preset's filters merge like the steps of a chain.
                guard let presets else {
                    throw PhotoEditError.invalidChain(chain: step.description, problem: "presets are not available here")
                }
                guard depth < 8 else { throw PhotoEditError.invalidChain(chain: step.description, problem: "presets include each other too deeply") }
                let preset = try presets.preset(named: name)
                if case .chain(let text) = preset.content {
                    result = try apply(parse(text), to: result, registry: registry, presets: presets, depth: depth + 1,
                                       developsRaw: developsRaw, auto: auto, upright: upright)
                } else if let (recipe, _) = try preset.recipe(developsRaw: developsRaw || result.base == .alternate, registry: registry) {
                    for node in recipe.nodes {
                        let bound = try registry.filter(node.filter).map { try $0.bind(node.parameters) } ?? node.parameters
                        result.set(RecipeNode(filter: node.filter, version: node.version, parameters: bound), registry: registry)
                    }
                }
                index += 1
                continue
            }
            let definition = try registry.require(step.filter)
            if let structure = definition.structure {
                // A filter holding lists (`local`, `retouch`): the first
                // `filter=…` step of a chain replaces the list, later ones
                // and `filter.add=…` append (docs/chain-grammar.md).
                let fresh = step.parameter == nil && !structuredSeen.contains(definition.id)
                structuredSeen.insert(definition.id)
                let current = fresh ? nil : result.node(definition.id)?.parameters.content
                let content = try structure.apply(step.parameter, step.values.joined(separator: ":"), current)
                if content.isEmpty {
                    result.remove(definition.id)
                } else {
                    result.set(RecipeNode(filter: definition.id, version: definition.version, parameters: Parameters(values: [:], content: content)), registry: registry)
                }
                index += 1
                continue
            }
            var values: [String: ParameterValue]
            if step.parameter != nil {
                // A run of `filter.parameter=value` steps on one filter is one
                // change: relations between parameters (crop's x + w ≤ 1) are
                // checked once all of them are set.
                // Editing a filter brings its node to the filter's current
                // version first (an old node's parameters are migrated).
                if let old = result.node(definition.id), old.version < definition.version {
                    values = try definition.load(version: old.version, values: old.parameters.values, upgrade: true).1.values
                } else {
                    values = (result.node(definition.id)?.parameters ?? definition.defaults).values
                }
                while index < steps.count, steps[index].filter == step.filter, let name = steps[index].parameter {
                    let given = steps[index].values
                    if definition.recorded.contains(name) {
                        throw PhotoEditError.invalidParameter(filter: definition.id, parameter: name,
                                                              problem: "is recorded by the engine, not set by a chain")
                    }
                    // `filter.name=v1:v2…`: a parameter takes one value it can
                    // parse; otherwise a named form with that many values.
                    let spec = definition.parameter(name)
                    let asParameter = given.count == 1 ? spec.flatMap { try? $0.parse(given[0], filter: definition.id) } : nil
                    if asParameter == nil,
                       let form = definition.forms.first(where: { $0.name == name && $0.parameters.count == given.count }) {
                        values.merge(form.fixed) { $1 }
                        do {
                            for (parameter, text) in zip(form.parameters, given) {
                                values[parameter] = try formParameter(parameter, of: definition).parse(text, filter: definition.id)
                            }
                        } catch let error as PhotoEditError {
                            // `raw.wb=sunny`: neither the parameter's value nor the form's; name both.
                            guard case let .invalidParameter(_, _, problem) = error, let spec, given.count == 1 else { throw error }
                            let forms = definition.forms.filter { $0.name == name }.map { usage(definition, $0) }.joined(separator: " or ")
                            throw PhotoEditError.invalidParameter(filter: definition.id, parameter: name,
                                                                  problem: "'\(given[0])' is not \(spec.rangeDescription), nor a value of \(forms) (\(problem))")
                        }
                        index += 1
                        continue
                    }
                    guard let spec else {
                        let named = definition.forms.filter { $0.name == name }
                        if !named.isEmpty {
                            throw PhotoEditError.invalidParameter(filter: definition.id, parameter: name,
                                                                  problem: "\(given.count) value(s) given; write \(named.map { usage(definition, $0) }.joined(separator: " or "))")
                        }
                        throw PhotoEditError.invalidParameter(filter: definition.id, parameter: name,
                                                              problem: Spelling.unknownParameter(name, known: definition.parameters.map(\.name)))
                    }
                    guard given.count == 1 else {
                        throw PhotoEditError.invalidParameter(filter: definition.id, parameter: name, problem: "takes one value, \(given.count) given")
                    }
                    values[name] = try spec.parse(given[0], filter: definition.id)
                    // A parameter that belongs to exactly one form implies that
                    // form's fixed values: `crop.w=0.5` means a rectangle crop.
                    values.merge(definition.impliedValues(of: name)) { $1 }
                    index += 1
                }
            } else {
                guard let form = definition.forms.first(where: { $0.name == nil && $0.parameters.count == step.values.count }) else {
                    let forms = definition.forms.filter { $0.name == nil }.map { usage(definition, $0) }.joined(separator: " or ")
                    throw PhotoEditError.invalidParameter(filter: definition.id, parameter: "",
                                                          problem: "\(step.values.count) value(s) given; write \(forms)")
                }
                values = definition.defaults.values.merging(form.fixed) { $1 }
                for (name, text) in zip(form.parameters, step.values) {
                    values[name] = try formParameter(name, of: definition).parse(text, filter: definition.id)
                }
                index += 1
            }
            let parameters = try definition.bind(definition.validated(values))
            result.set(RecipeNode(filter: definition.id, version: definition.version, parameters: parameters), registry: registry)
        }
        return result
    }

    /// The declaration of a parameter a chain form names. A registry's
    /// filters name only declared ones (`declarationProblems`, checked when
    /// the registry is made).
    private static func formParameter(_ name: String, of definition: FilterDefinition) throws -> ParameterSpec {
        guard let spec = definition.parameter(name) else {
            throw PhotoEditError.invalidParameter(filter: definition.id, parameter: name, problem: "a chain form names it, but the filter does not declare it")
        }
        return spec
    }

    /// How a form is written, e.g. `crop=X:Y:W:H`.
    public static func usage(_ definition: FilterDefinition, _ form: ChainForm) -> String {
        let head = form.name.map { definition.id + "." + $0 } ?? definition.id
        return form.parameters.isEmpty ? head : head + "=" + form.parameters.map { $0.uppercased() }.joined(separator: ":")
    }

    /// Writes a recipe back as chain text, using each filter's shortest form
    /// that says exactly its parameters. Parsing the text gives the recipe back.
    public static func format(_ recipe: Recipe, registry: FilterRegistry = .standard) -> String {
        recipe.nodes.map { format($0, registry: registry) }.joined(separator: ",")
    }

    static func format(_ node: RecipeNode, registry: FilterRegistry) -> String {
        guard let definition = registry.filter(node.filter) else { return node.filter }
        if let structure = definition.structure, let content = node.parameters.content {
            return structure.format(content).map { definition.id + "=" + $0 }.joined(separator: ",")
        }
        let defaults = definition.defaults
        // Recorded parameters are the engine's, not the chain's: written as if at their default.
        var parameters = node.parameters
        for name in definition.recorded { parameters.values[name] = defaults[name] }
        let node = RecipeNode(filter: node.filter, version: node.version, parameters: parameters)
        for form in definition.forms where form.name == nil {
            let fixedMatch = form.fixed.allSatisfy { node.parameters[$0.key] == $0.value }
            let covered = Set(form.parameters).union(form.fixed.keys)
            let restDefault = definition.parameters.allSatisfy { covered.contains($0.name) || node.parameters[$0.name] == defaults[$0.name] }
            if fixedMatch && restDefault {
                let values = formValues(form, of: node, definition)
                return values.isEmpty ? definition.id : definition.id + "=" + values.joined(separator: ":")
            }
        }
        // One `filter.parameter=value` step per changed parameter. Parameters
        // that forms fix (crop's mode) go last, and are written whenever the
        // steps before them would imply another value (see `apply`).
        let fixedKeys = Set(definition.forms.flatMap { $0.fixed.keys })
        var changed = definition.parameters.filter { node.parameters[$0.name] != defaults[$0.name] && !fixedKeys.contains($0.name) }
        var implied = defaults.values
        // Named forms the node matches say several parameters in one step
        // (`raw.wb=5200:+10`, `curve.red=…`): each time the one covering the
        // most changed parameters, then the shortest, one per name.
        var leads: [String] = []
        var namedCovered = Set<String>()
        let namedForms = definition.forms.compactMap { form in form.name.map { (form: form, name: $0) } }
        while case let (form, formName)? = namedForms.filter({ form, formName in
            !leads.contains { $0.hasPrefix(definition.id + "." + formName + "=") }
                && form.fixed.allSatisfy { node.parameters[$0.key] == $0.value }
                && form.parameters.contains { name in changed.contains { $0.name == name } }
        }).max(by: { a, b in
            let (ca, cb) = (changed.filter { a.form.parameters.contains($0.name) }.count, changed.filter { b.form.parameters.contains($0.name) }.count)
            return ca != cb ? ca < cb : a.form.parameters.count > b.form.parameters.count
        }) {
            let values = formValues(form, of: node, definition)
            leads.append(definition.id + "." + formName + "=" + values.joined(separator: ":"))
            changed.removeAll { form.parameters.contains($0.name) }
            implied.merge(form.fixed) { $1 }
            namedCovered.formUnion(form.parameters)
            namedCovered.formUnion(form.fixed.keys)
        }
        // With named forms said, an unnamed form with values may say the
        // rest (`curve=0:0:0.5:0.6:1:1,curve.red=…`); it comes first, since
        // it starts the filter from its defaults.
        if !leads.isEmpty {
            for form in definition.forms where form.name == nil && !form.parameters.isEmpty {
                let covered = Set(form.parameters).union(form.fixed.keys).union(namedCovered)
                guard form.fixed.allSatisfy({ node.parameters[$0.key] == $0.value }),
                      form.parameters.contains(where: { node.parameters[$0] != defaults[$0] }),
                      definition.parameters.allSatisfy({ covered.contains($0.name) || node.parameters[$0.name] == defaults[$0.name] })
                else { continue }
                let values = formValues(form, of: node, definition)
                return ([definition.id + "=" + values.joined(separator: ":")] + leads).joined(separator: ",")
            }
        }
        for spec in changed {
            implied.merge(definition.impliedValues(of: spec.name)) { $1 }
        }
        let fixed = definition.parameters.filter { fixedKeys.contains($0.name) && node.parameters[$0.name] != implied[$0.name] }
        let steps = leads + (changed + fixed).map { definition.id + "." + $0.name + "=" + text(node.parameters[$0.name] ?? $0.defaultValue, spec: $0) }
        if steps.isEmpty { return definition.id + "." + definition.parameters[0].name + "=" + text(definition.parameters[0].defaultValue, spec: definition.parameters[0]) }
        return steps.joined(separator: ",")
    }

    /// The values of `form`'s parameters in `node`, as the chain writes
    /// them. A registry's filters name only declared parameters in their
    /// forms (`declarationProblems`, checked when the registry is made), and
    /// a validated node holds every declared parameter.
    private static func formValues(_ form: ChainForm, of node: RecipeNode, _ definition: FilterDefinition) -> [String] {
        form.parameters.compactMap { name in
            definition.parameter(name).map { spec in text(node.parameters[name] ?? spec.defaultValue, spec: spec) }
        }
    }

    /// A value as the chain writes it: positive values of signed adjustments
    /// carry their sign (`exposure=+0.3`); stepped values (degrees) do not.
    static func text(_ value: ParameterValue, spec: ParameterSpec) -> String {
        if case .number(let n) = value, case .number(let range, nil) = spec.kind, range.lowerBound < 0, n > 0 {
            return "+" + JSONValue.format(n)
        }
        return value.description
    }
}
