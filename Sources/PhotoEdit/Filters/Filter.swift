import Foundation
import Synchronization

/// The value of one filter parameter.
public enum ParameterValue: Hashable, Sendable, CustomStringConvertible {
    case number(Double)
    case text(String)
    case bool(Bool)

    /// The value as the chain grammar writes it.
    public var description: String {
        switch self {
        case .number(let n): return JSONValue.format(n)
        case .text(let t): return t
        case .bool(let b): return b ? "true" : "false"
        }
    }

    var json: JSONValue {
        switch self {
        case .number(let n): return .number(n)
        case .text(let t): return .string(t)
        case .bool(let b): return .bool(b)
        }
    }
}

/// The declaration of one filter parameter: its type, range, default, unit
/// and a one-line description. Validation, help and docs derive from it.
public struct ParameterSpec: Sendable {
    /// The kinds of parameter a filter can declare.
    public enum Kind: Sendable {
        /// A real number in `range`; when `step` is set, a multiple of it.
        case number(range: ClosedRange<Double>, step: Double?)
        /// One of a fixed list of words.
        case choice([String])
        /// Free text on one line (e.g. a file name).
        case text
        /// true / false.
        case bool
    }

    /// The parameter's name, used as `filter.name=value` and in recipes.
    public let name: String
    /// Its type and range.
    public let kind: Kind
    /// The neutral value: every parameter at its default leaves the image unchanged.
    public let defaultValue: ParameterValue
    /// Unit shown in help ("EV", "°", "mired", "" for none).
    public let unit: String
    /// One-line description, shown by `photoedit filters`.
    public let summary: String

    /// A number parameter.
    public static func number(_ name: String, _ range: ClosedRange<Double>, default value: Double, unit: String = "",
                              step: Double? = nil, _ summary: String) -> ParameterSpec {
        ParameterSpec(name: name, kind: .number(range: range, step: step), defaultValue: .number(value), unit: unit, summary: summary)
    }

    /// A choice parameter.
    public static func choice(_ name: String, _ choices: [String], default value: String, _ summary: String) -> ParameterSpec {
        ParameterSpec(name: name, kind: .choice(choices), defaultValue: .text(value), unit: "", summary: summary)
    }

    /// The longest value of a text parameter, in characters.
    public static let maxTextLength = 1024

    /// A text parameter (one line, at most `maxTextLength` characters).
    public static func text(_ name: String, default value: String, _ summary: String) -> ParameterSpec {
        ParameterSpec(name: name, kind: .text, defaultValue: .text(value), unit: "", summary: summary)
    }

    /// A boolean parameter.
    public static func bool(_ name: String, default value: Bool, _ summary: String) -> ParameterSpec {
        ParameterSpec(name: name, kind: .bool, defaultValue: .bool(value), unit: "", summary: summary)
    }

    /// Human-readable type and range, e.g. "-5…5 EV (default 0)".
    public var rangeDescription: String {
        switch kind {
        case let .number(range, step):
            let unitText = unit.isEmpty ? "" : " \(unit)"
            let stepText = step.map { ", in steps of \(JSONValue.format($0))" } ?? ""
            return "\(JSONValue.format(range.lowerBound))…\(JSONValue.format(range.upperBound))\(unitText)\(stepText)"
        case .choice(let choices): return choices.joined(separator: "|")
        case .bool: return "true|false"
        case .text: return "text"
        }
    }

    /// Parses a value written in a chain, checking type and range.
    func parse(_ text: String, filter: String) throws -> ParameterValue {
        switch kind {
        case .number:
            guard let n = Double(text), n.isFinite else {
                throw PhotoEditError.invalidParameter(filter: filter, parameter: name, problem: "'\(text)' is not a number (expected \(rangeDescription))")
            }
            return try validate(.number(n), filter: filter)
        case .choice:
            return try validate(.text(text.lowercased()), filter: filter)
        case .text:
            return try validate(.text(text), filter: filter)
        case .bool:
            switch text.lowercased() {
            case "true", "yes", "on", "1": return .bool(true)
            case "false", "no", "off", "0": return .bool(false)
            default: throw PhotoEditError.invalidParameter(filter: filter, parameter: name, problem: "'\(text)' is not true or false")
            }
        }
    }

    /// Checks a value against the declaration; numbers come back canonical.
    func validate(_ value: ParameterValue, filter: String) throws -> ParameterValue {
        switch (kind, value) {
        case let (.number(range, step), .number(n)):
            let v = JSONValue.canonicalNumber(n)
            guard range.contains(v) else {
                throw PhotoEditError.invalidParameter(filter: filter, parameter: name,
                                                      problem: "\(JSONValue.format(n)) is out of range (expected \(rangeDescription))")
            }
            if let step, abs((v / step).rounded() * step - v) > 1e-9 {
                throw PhotoEditError.invalidParameter(filter: filter, parameter: name,
                                                      problem: "\(JSONValue.format(n)) is not a multiple of \(JSONValue.format(step)) (expected \(rangeDescription))")
            }
            return .number(v)
        case let (.choice(choices), .text(t)):
            guard choices.contains(t) else {
                throw PhotoEditError.invalidParameter(filter: filter, parameter: name,
                                                      problem: "'\(t)' is not one of \(choices.joined(separator: ", "))")
            }
            return value
        case (.bool, .bool):
            return value
        case let (.text, .text(t)):
            guard t.count <= Self.maxTextLength, !t.contains(where: { $0.isNewline || $0 == "\0" }) else {
                throw PhotoEditError.invalidParameter(filter: filter, parameter: name, problem: "must be one line of at most \(Self.maxTextLength) characters")
            }
            return value
        default:
            throw PhotoEditError.invalidParameter(filter: filter, parameter: name, problem: "wrong type (expected \(rangeDescription))")
        }
    }
}

/// One way of writing a filter in the chain grammar: `name=v1:v2…` assigns
/// the values to `parameters` in order and sets `fixed` parameters too. A
/// form with a `name` is written `filter.name=v1:v2…` instead, and keeps the
/// filter's other parameters (e.g. `raw.wb=5200:+10`).
public struct ChainForm: Sendable {
    /// For a named form, the name after the dot (`wb` in `raw.wb=5200:+10`).
    public let name: String?
    /// The parameters the values of `filter=v1:v2…` fill, in order.
    public let parameters: [String]
    /// Parameters this form sets to fixed values (e.g. crop's mode).
    public let fixed: [String: ParameterValue]
    /// One-line description, with an example.
    public let summary: String

    /// A form filling `parameters`, setting `fixed`, described by `summary`.
    public init(_ parameters: [String], fixed: [String: ParameterValue] = [:], _ summary: String) {
        self.name = nil
        self.parameters = parameters
        self.fixed = fixed
        self.summary = summary
    }

    /// A named form, written `filter.name=v1:v2…`.
    public init(named name: String, _ parameters: [String], fixed: [String: ParameterValue] = [:], _ summary: String) {
        self.name = name
        self.parameters = parameters
        self.fixed = fixed
        self.summary = summary
    }
}

/// Where a filter runs in the canonical pipeline. Stages run in this order,
/// whatever order the user names filters in.
public enum PipelineStage: Int, Sendable, CaseIterable, Comparable {
    /// RAW development (libraw), while the sensor data is decoded.
    case development = 0
    /// White balance, in linear light (scene-referred).
    case whiteBalance = 1
    /// Exposure, in linear light.
    case exposure = 2
    /// Noise reduction, in linear light, before tone and colour amplify noise.
    case denoise = 3
    /// Tone (contrast, highlights/shadows, levels, curves).
    case tone = 4
    /// Colour (saturation, vibrance, HSL, black and white, toning, LUTs).
    case colour = 5
    /// Geometry (rotate, straighten, flip, crop), on the finished pixels.
    case geometry = 6
    /// Detail (sharpen, blur), on the final framing.
    case detail = 7
    /// Effects relative to the final frame (vignette, grain).
    case effects = 8
    /// Output size (resize), last.
    case output = 9

    /// Stages compare in pipeline order.
    public static func < (a: PipelineStage, b: PipelineStage) -> Bool { a.rawValue < b.rawValue }

    /// The stage's name in help and docs.
    public var name: String {
        switch self {
        case .development: return "RAW development"
        case .whiteBalance: return "white balance"
        case .exposure: return "exposure"
        case .denoise: return "noise reduction"
        case .tone: return "tone"
        case .colour: return "colour"
        case .geometry: return "geometry"
        case .detail: return "detail"
        case .effects: return "effects"
        case .output: return "output"
        }
    }
}

/// What a filter's render function receives besides the image.
public struct RenderContext: Sendable {
    /// Size of the rendered image relative to the full-size image (1 = full
    /// size). Filters whose effect has a size in pixels scale it by this.
    public var scale: Double = 1
    /// For a filter that declares `usesReducedInput`, in a full-size render
    /// of an original the engine can decode at reduced size (a JPEG, by
    /// libjpeg's 1/8 scaling): the filter's input as it would be at that
    /// size — the reduced decode through the recipe's earlier filters, at
    /// their scale. Its whole-image estimates are made on it, so the
    /// full-size pass reads its input once, top to bottom. nil otherwise
    /// (previews, RAW, PNG…): the filter reduces its own input.
    package var reducedInput: Image? = nil
}

/// A complete, validated set of parameter values for one filter.
///
/// Read a value through its filter's key, `parameters[key]` (see
/// `ParameterKey`), or by name with `number(_:)`, `text(_:)`, `bool(_:)`.
/// A validated set holds every parameter its filter (at that version)
/// declares, so reading any other name (another filter's key, a misspelt
/// name) records it in ``undeclaredReads``, and `TypedParameterTests`
/// renders every filter at every version with each parameter moved, so such
/// a read fails a test instead of rendering a silent 0.
public struct Parameters: Hashable, Sendable {
    public internal(set) var values: [String: ParameterValue]
    /// The lists a structured filter holds instead of numbers (`local`'s
    /// corrections, `retouch`'s spots); nil for every other filter.
    public internal(set) var content: NodeContent? = nil
    /// The filter whose whole declaration `values` holds (a validated set);
    /// nil for partial sets made inside the engine.
    var declaredBy: String? = nil

    init(values: [String: ParameterValue], content: NodeContent? = nil) {
        self.values = values
        self.content = content
    }

    /// A validated set: every parameter `filter` declares, and only those.
    init(declared values: [String: ParameterValue], by filter: String) {
        self.values = values
        self.declaredBy = filter
    }

    public static func == (a: Parameters, b: Parameters) -> Bool { a.values == b.values && a.content == b.content }
    public func hash(into hasher: inout Hasher) {
        hasher.combine(values)
        hasher.combine(content)
    }

    /// Names read from a validated set that its filter does not declare
    /// (`filter.name`), since the process started.
    package static let undeclaredReads = Mutex<Set<String>>([])

    private func value(_ name: String) -> ParameterValue? {
        if let value = values[name] { return value }
        if let filter = declaredBy {
            Self.undeclaredReads.withLock { _ = $0.insert("\(filter).\(name)") }
        }
        return nil
    }

    /// A number parameter read by name (0 if absent or of another type), for
    /// library users. The engine reads through `ParameterKey`s
    /// (`parameters[key]`), so a misspelt name cannot compile.
    public func number(_ name: String) -> Double { Double.read(value(name)) }

    /// A choice or text parameter read by name ("" if absent); the engine reads through keys.
    public func text(_ name: String) -> String { String.read(value(name)) }

    /// A bool parameter read by name (false if absent); the engine reads through keys.
    public func bool(_ name: String) -> Bool { Bool.read(value(name)) }

    /// The value of parameter `name` (nil if absent).
    public subscript(name: String) -> ParameterValue? { value(name) }
}

/// An earlier version of a filter, kept so that recipes written with it keep
/// loading and rendering as they did (darktable's `legacy_params`, Adobe's
/// process versions).
public struct LegacyVersion: Sendable {
    /// The version number.
    public let version: Int
    /// Its parameters, as declared then.
    public let parameters: [ParameterSpec]
    /// The keys its `migrate` and `render` read, when declared by keys:
    /// exactly `parameters` (checked when a registry is built).
    public let keys: [any AnyParameterKey]
    /// What the step to `version + 1` changes, in one line.
    public let note: String
    /// Does `version + 1` render a migrated recipe differently? If it does,
    /// recipes of this version keep this version's `render` until the user
    /// upgrades them (`photoedit upgrade`); if not, they are migrated on load.
    public let changesRendering: Bool
    /// One step: this version's parameters → the next version's.
    let migrate: @Sendable (Parameters) -> [String: ParameterValue]
    /// How this version rendered; required when `changesRendering`.
    let render: (@Sendable (Image, Parameters, RenderContext) throws -> Image)?
    /// Does this version's `render` read the image out of order? nil: as the current version.
    let needsRandomAccess: (@Sendable (Parameters) -> Bool)?

    /// Declares an earlier version; `render` is required when `changesRendering`.
    /// Its parameters are `parameters`, or, when declared by `keys`, theirs.
    public init(version: Int, parameters: [ParameterSpec] = [], keys: [any AnyParameterKey] = [], note: String, changesRendering: Bool,
                migrate: @escaping @Sendable (Parameters) -> [String: ParameterValue] = { $0.values },
                needsRandomAccess: (@Sendable (Parameters) -> Bool)? = nil,
                render: (@Sendable (Image, Parameters, RenderContext) throws -> Image)? = nil) {
        precondition(!changesRendering || render != nil, "a legacy version whose successor renders differently must keep its render")
        self.version = version
        self.parameters = parameters.isEmpty ? keys.map(\.spec) : parameters
        self.keys = keys
        self.note = note
        self.changesRendering = changesRendering
        self.migrate = migrate
        self.needsRandomAccess = needsRandomAccess
        self.render = render
    }
}

extension LegacyVersion {
    /// A version whose successor only adds parameters, whose given values
    /// render exactly as this version did (no rendering change).
    static func adding(_ added: [String: ParameterValue], version: Int, parameters: [ParameterSpec] = [],
                       keys: [any AnyParameterKey] = [], note: String) -> LegacyVersion {
        LegacyVersion(version: version, parameters: parameters, keys: keys, note: note, changesRendering: false,
                      migrate: { p in p.values.merging(added) { _, new in new } })
    }
}

/// The whole declaration of one filter: everything the registry, the chain
/// grammar, validation, `photoedit filters`, the docs and the renderer need.
/// A filter is one file that builds one of these.
public struct FilterDefinition: Sendable {
    /// Stable name used in chains and recipes ("exposure").
    public let id: String
    /// The filter's own version; bump it (with a migration) when its
    /// parameters or its rendering change.
    public let version: Int
    /// The pipeline stage, and the position inside it (lower runs first).
    public let stage: PipelineStage
    /// Position inside the stage (lower runs first).
    public let order: Int
    /// One-line description.
    public let summary: String
    /// The colour space the filter works in ("linear RGB" or "any").
    public let colourSpace: String
    /// The parameters, declared once.
    public let parameters: [ParameterSpec]
    /// The typed keys its closures (and other engine code) read the
    /// parameters through, when declared by keys: exactly `parameters`
    /// (checked when a registry is built; see `declarationProblems`).
    public let keys: [any AnyParameterKey]
    /// Ways to write the filter in a chain; the first is the main one.
    public let forms: [ChainForm]
    /// Checks relations between parameters; returns a problem or nil.
    let check: @Sendable (Parameters) -> String?
    /// Puts equivalent parameter sets into one form (e.g. -90° → 270°).
    let normalize: @Sendable (Parameters) -> Parameters
    /// Does rendering read the image out of order (rotation, trim)?
    let needsRandomAccess: @Sendable (Parameters) -> Bool
    /// Does the current version make its whole-image estimates on
    /// `RenderContext.reducedInput` when the engine gives one, reading its
    /// full-size input then only top to bottom (no random access)?
    let usesReducedInput: @Sendable (Parameters) -> Bool
    /// Renders the filter on a linear-light float RGB image.
    let render: @Sendable (Image, Parameters, RenderContext) throws -> Image
    /// Earlier versions, oldest first, each with its one-step migration.
    public let legacy: [LegacyVersion]
    /// Parameters the engine records, never the user (the LUT's content
    /// hash): a chain cannot set them and chain text leaves them out.
    public let recorded: Set<String>
    /// Binds parameters that name something outside the recipe to what it
    /// is now (the `lut` filter records its file's SHA-256), when a chain or
    /// preset sets the filter; throws if that thing cannot be used.
    let bind: @Sendable (Parameters) throws -> Parameters
    /// For a filter that holds lists (masks, spots) rather than numbers: how
    /// its content is read, written and edited (see Masks/StructuredFilter.swift).
    var structure: StructuredFilter? = nil
    /// Where an editor shows the filter when not in its stage's panel
    /// (`inPanel`; see `editorPlacement` in EditorPanels.swift).
    var placement: EditorPlacement? = nil

    /// Declares a filter (see docs/adding-a-filter.md). Its parameters are
    /// `parameters`, or, when declared by `keys` (the engine's way), theirs.
    public init(id: String, version: Int, stage: PipelineStage, order: Int, summary: String, colourSpace: String,
                parameters: [ParameterSpec] = [], keys: [any AnyParameterKey] = [], forms: [ChainForm], legacy: [LegacyVersion] = [],
                check: @escaping @Sendable (Parameters) -> String? = { _ in nil },
                normalize: @escaping @Sendable (Parameters) -> Parameters = { $0 },
                needsRandomAccess: @escaping @Sendable (Parameters) -> Bool = { _ in false },
                usesReducedInput: @escaping @Sendable (Parameters) -> Bool = { _ in false },
                recorded: Set<String> = [],
                bind: @escaping @Sendable (Parameters) throws -> Parameters = { $0 },
                render: @escaping @Sendable (Image, Parameters, RenderContext) throws -> Image) {
        self.id = id
        self.version = version
        self.stage = stage
        self.order = order
        self.summary = summary
        self.colourSpace = colourSpace
        self.parameters = parameters.isEmpty ? keys.map(\.spec) : parameters
        self.keys = keys
        self.forms = forms
        self.check = check
        self.normalize = normalize
        self.needsRandomAccess = needsRandomAccess
        self.usesReducedInput = usesReducedInput
        self.render = render
        self.recorded = recorded
        self.bind = bind
        self.legacy = legacy.sorted { $0.version < $1.version }
        precondition(self.legacy.map(\.version) == Array(1..<version) || self.legacy.isEmpty && version == 1,
                     "filter \(id): declare every earlier version 1…\(version - 1) as legacy")
    }

    /// The render function of `version` (the current one, or a legacy one
    /// kept because its successor renders differently).
    func renderer(for version: Int) -> @Sendable (Image, Parameters, RenderContext) throws -> Image {
        if version == self.version { return render }
        return legacy.first { $0.version == version }?.render ?? render
    }

    /// Does rendering `version` of this filter with `parameters` read the
    /// image out of order (a legacy version may, where the current does not)?
    func needsRandomAccess(version: Int, _ parameters: Parameters) -> Bool {
        if version != self.version, let legacy = legacy.first(where: { $0.version == version })?.needsRandomAccess {
            return legacy(parameters)
        }
        return needsRandomAccess(parameters)
    }

    /// Does rendering `version` with `parameters` use a reduced input when
    /// given one (only the current version of a filter that declares it)?
    func usesReducedInput(version: Int, _ parameters: Parameters) -> Bool {
        version == self.version && usesReducedInput(parameters)
    }

    /// Validates parameters written by `version` of this filter and brings
    /// them forward through every migration that does not change rendering
    /// (all of them when `upgrade`). Returns the version reached and its
    /// parameters.
    func load(version: Int, values: [String: ParameterValue], upgrade: Bool = false) throws -> (Int, Parameters) {
        guard version <= self.version else {
            throw PhotoEditError.invalidAdjustmentData("filter '\(id)' version \(version) is newer than this engine knows (up to \(self.version))")
        }
        if version == self.version { return (version, try validated(values)) }
        guard let first = legacy.firstIndex(where: { $0.version == version }) else {
            throw PhotoEditError.invalidAdjustmentData("filter '\(id)' version \(version) is not one this engine knows (1…\(self.version))")
        }
        // `legacy` holds versions 1…self.version - 1 in order (checked by init),
        // so the steps from `version` on are the versions up to the current one.
        var values = values
        for step in legacy[first...] {
            let params = try Self.validate(values, against: step.parameters, filter: id)
            if step.changesRendering && !upgrade { return (step.version, params) }
            values = step.migrate(params)
        }
        return (self.version, try validated(values))
    }

    static func validate(_ values: [String: ParameterValue], against specs: [ParameterSpec], filter: String) throws -> Parameters {
        var out: [String: ParameterValue] = [:]
        for spec in specs { out[spec.name] = try spec.validate(values[spec.name] ?? spec.defaultValue, filter: filter) }
        if let unknown = values.keys.sorted().first(where: { key in !specs.contains { $0.name == key } }) {
            throw PhotoEditError.invalidParameter(filter: filter, parameter: unknown,
                                                  problem: Spelling.unknownParameter(unknown, known: specs.map(\.name)))
        }
        return Parameters(declared: out, by: filter)
    }

    /// The fixed values that setting parameter `name` alone implies: those of
    /// the forms it belongs to, when they all agree (`crop.w=0.5` means a
    /// rectangle crop; `raw.temperature=5200` means a kelvin white balance).
    func impliedValues(of name: String) -> [String: ParameterValue] {
        let owners = forms.filter { $0.parameters.contains(name) }
        guard let first = owners.first, owners.allSatisfy({ $0.fixed == first.fixed }) else { return [:] }
        return first.fixed
    }

    /// The parameter declaration called `name`.
    public func parameter(_ name: String) -> ParameterSpec? {
        parameters.first { $0.name == name }
    }

    /// Every parameter at its default: the neutral setting, which renders the
    /// image unchanged.
    public var defaults: Parameters {
        Parameters(declared: Dictionary(uniqueKeysWithValues: parameters.map { ($0.name, $0.defaultValue) }), by: id)
    }

    /// Validates a full parameter set (range of each, relations between them)
    /// and returns it normalized.
    func validated(_ values: [String: ParameterValue]) throws -> Parameters {
        var out: [String: ParameterValue] = [:]
        for spec in parameters {
            out[spec.name] = try spec.validate(values[spec.name] ?? spec.defaultValue, filter: id)
        }
        if let unknown = values.keys.first(where: { parameter($0) == nil }) {
            throw PhotoEditError.invalidParameter(filter: id, parameter: unknown,
                                                  problem: Spelling.unknownParameter(unknown, known: parameters.map(\.name)))
        }
        var params = normalize(Parameters(declared: out, by: id))
        params.declaredBy = id
        if let problem = check(params) {
            throw PhotoEditError.invalidParameter(filter: id, parameter: "", problem: problem)
        }
        return params
    }
}
