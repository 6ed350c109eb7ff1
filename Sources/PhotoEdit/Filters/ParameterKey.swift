/// A type a parameter key reads: `Double` (numbers), `String` (choices and
/// text), `Bool`.
public protocol ParameterKeyValue: Sendable, Equatable {
    /// The value as a read finds it: an absent value, or one of another
    /// type, reads as 0, "" or false, as the by-name reads do.
    static func read(_ value: ParameterValue?) -> Self
    /// Does a parameter of `kind` hold values of this type?
    static func holds(_ kind: ParameterSpec.Kind) -> Bool
}

extension Double: ParameterKeyValue {
    public static func read(_ value: ParameterValue?) -> Double {
        if case .number(let n)? = value { return n }
        return 0
    }

    public static func holds(_ kind: ParameterSpec.Kind) -> Bool {
        if case .number = kind { return true }
        return false
    }
}

extension String: ParameterKeyValue {
    public static func read(_ value: ParameterValue?) -> String {
        if case .text(let t)? = value { return t }
        return ""
    }

    public static func holds(_ kind: ParameterSpec.Kind) -> Bool {
        switch kind {
        case .choice, .text: return true
        case .number, .bool: return false
        }
    }
}

extension Bool: ParameterKeyValue {
    public static func read(_ value: ParameterValue?) -> Bool {
        if case .bool(let b)? = value { return b }
        return false
    }

    public static func holds(_ kind: ParameterSpec.Kind) -> Bool {
        if case .bool = kind { return true }
        return false
    }
}

/// A parameter key of any value type: what a filter declares in
/// `FilterDefinition(keys:)` and `LegacyVersion(keys:)`.
public protocol AnyParameterKey: Sendable {
    /// The declaration the key was made with.
    var spec: ParameterSpec { get }
    /// Does the key's value type match the kind of `spec`?
    func reads(_ spec: ParameterSpec) -> Bool
    /// Does `parameters` hold the declared default for this key?
    func isDefault(in parameters: Parameters) -> Bool
}

/// A filter parameter declared once, read by type: made by the same
/// factories as `ParameterSpec` (`ParameterKey.number("ev", -5...5, default: 0,
/// unit: "EV", "…")` is a `ParameterKey<Double>`), listed in the filter's
/// `keys:`, and read as `parameters[key]`. The name is written once, in the
/// declaration; a read names the key's Swift constant, so a misspelt read
/// does not compile, and `FilterRegistry` checks at start-up that a filter's
/// keys are exactly its declared parameters.
public struct ParameterKey<Value: ParameterKeyValue>: AnyParameterKey {
    /// The declaration (name, kind, range, default, unit, summary).
    public let spec: ParameterSpec
    /// The parameter's name, as recipes and chains write it.
    public var name: String { spec.name }

    init(_ spec: ParameterSpec) {
        self.spec = spec
    }

    /// The declared default, as a read gives it.
    public var defaultValue: Value { Value.read(spec.defaultValue) }

    public func reads(_ spec: ParameterSpec) -> Bool { Value.holds(spec.kind) }

    public func isDefault(in parameters: Parameters) -> Bool { parameters[self] == defaultValue }
}

extension ParameterKey where Value == Double {
    /// A number parameter (see `ParameterSpec.number`).
    public static func number(_ name: String, _ range: ClosedRange<Double>, default value: Double, unit: String = "",
                              step: Double? = nil, _ summary: String) -> ParameterKey<Double> {
        ParameterKey(.number(name, range, default: value, unit: unit, step: step, summary))
    }
}

extension ParameterKey where Value == String {
    /// A choice parameter (see `ParameterSpec.choice`); reads the chosen word.
    public static func choice(_ name: String, _ choices: [String], default value: String, _ summary: String) -> ParameterKey<String> {
        ParameterKey(.choice(name, choices, default: value, summary))
    }

    /// A text parameter (see `ParameterSpec.text`).
    public static func text(_ name: String, default value: String, _ summary: String) -> ParameterKey<String> {
        ParameterKey(.text(name, default: value, summary))
    }
}

extension ParameterKey where Value == Bool {
    /// A boolean parameter (see `ParameterSpec.bool`).
    public static func bool(_ name: String, default value: Bool, _ summary: String) -> ParameterKey<Bool> {
        ParameterKey(.bool(name, default: value, summary))
    }
}

extension Parameters {
    /// The value of a declared parameter, read through its key: as
    /// `number(_:)`, `text(_:)` or `bool(_:)` read it by name (0, "" or
    /// false when absent), and recorded in `undeclaredReads` when a
    /// validated set's filter does not declare it (another filter's key).
    public subscript<Value>(key: ParameterKey<Value>) -> Value {
        Value.read(self[key.name])
    }
}

extension ParameterSpec {
    /// Is `other` the same declaration (name, kind and range, default, unit)?
    /// The summary may differ.
    func declares(_ other: ParameterSpec) -> Bool {
        guard name == other.name, defaultValue == other.defaultValue, unit == other.unit,
              rangeDescription == other.rangeDescription else { return false }
        switch (kind, other.kind) {
        case (.number, .number), (.choice, .choice), (.text, .text), (.bool, .bool): return true
        default: return false
        }
    }
}

extension FilterDefinition {
    /// What is wrong with the declaration, checked when a registry is built:
    /// for the current version and each legacy one, keys that are not
    /// exactly its parameters (names, kinds, ranges, defaults), a key whose
    /// type cannot hold its parameter, a name declared twice, a default its
    /// own declaration refuses; chain forms and recorded parameters that
    /// name undeclared parameters. Empty when the declaration is sound.
    public var declarationProblems: [String] {
        var problems = Self.problems(parameters: parameters, keys: keys, version: version, filter: id)
        for legacy in legacy {
            problems += Self.problems(parameters: legacy.parameters, keys: legacy.keys, version: legacy.version, filter: id)
        }
        let names = Set(parameters.map(\.name))
        for form in forms {
            for name in form.parameters + form.fixed.keys.sorted() where !names.contains(name) {
                problems.append("\(id): chain form \(form.name.map { "'\($0)' " } ?? "")names '\(name)', which is not declared")
            }
        }
        for name in recorded.sorted() where !names.contains(name) {
            problems.append("\(id): recorded parameter '\(name)' is not declared")
        }
        return problems
    }

    private static func problems(parameters: [ParameterSpec], keys: [any AnyParameterKey], version: Int, filter: String) -> [String] {
        let at = "\(filter) version \(version)"
        var problems: [String] = []
        var seen: Set<String> = []
        for spec in parameters {
            if !seen.insert(spec.name).inserted { problems.append("\(at): parameter '\(spec.name)' is declared twice") }
            if (try? spec.validate(spec.defaultValue, filter: filter)) == nil {
                problems.append("\(at): the default of '\(spec.name)' is not a valid value of it")
            }
        }
        guard !keys.isEmpty else { return problems }
        let byName = Dictionary(parameters.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
        var keyed: Set<String> = []
        for key in keys {
            let name = key.spec.name
            if !keyed.insert(name).inserted { problems.append("\(at): key '\(name)' is listed twice") }
            guard let spec = byName[name] else {
                problems.append("\(at): key '\(name)' is not a declared parameter")
                continue
            }
            if !key.spec.declares(spec) {
                problems.append("\(at): key '\(name)' (\(key.spec.rangeDescription)) differs from its declaration (\(spec.rangeDescription))")
            }
            if !key.reads(spec) { problems.append("\(at): key '\(name)' reads another type than its parameter holds") }
        }
        for spec in parameters where !keyed.contains(spec.name) {
            problems.append("\(at): parameter '\(spec.name)' has no key")
        }
        return problems
    }
}
