import Foundation

/// One filter in a recipe: which filter, in which of its versions, with which
/// parameters (always the full, validated set).
public struct RecipeNode: Hashable, Sendable {
    /// The filter id.
    public let filter: String
    /// The filter version that wrote the parameters.
    public let version: Int
    /// The full, validated parameter set.
    public let parameters: Parameters

    /// A node with these values (use `Chain.apply` or `Recipe(json:)` to get validated ones).
    public init(filter: String, version: Int, parameters: Parameters) {
        self.filter = filter
        self.version = version
        self.parameters = parameters
    }
}

/// photoedit's own adjustment data: a list of filter nodes, kept in the
/// canonical pipeline order so that equal edits are equal values and equal
/// bytes. See docs/recipe-format.md.
public struct Recipe: Hashable, Sendable {
    /// The `formatIdentifier` of photoedit's recipes.
    public static let formatIdentifier = "org.photoedit.recipe"
    /// The recipe format version this build writes and reads.
    public static let formatVersion = 1

    /// What the filters are applied to.
    public enum Base: String, Hashable, Sendable {
        /// The original, decoded and upright.
        case original
        /// The rendered output of an earlier edit made in another format
        /// (a foreign render); the revision records which one.
        case render
        /// The other file of a RAW+JPEG pair: the RAW (PhotoKit's
        /// `alternatePhoto`), developed through the `raw` stage.
        case alternate
    }

    public private(set) var nodes: [RecipeNode]
    /// The image the filters apply to.
    public let base: Base

    /// A recipe with these nodes, put in canonical order by `registry`.
    public init(nodes: [RecipeNode], base: Base = .original, registry: FilterRegistry = .standard) {
        self.nodes = registry.sorted(nodes)
        self.base = base
    }

    /// No filters: the unadjusted photo.
    public static let empty = Recipe(nodes: [])

    /// No filters, on top of a foreign render.
    static let emptyOnRender = Recipe(nodes: [], base: .render)

    /// The same filters on another base.
    func rebased(_ base: Base, registry: FilterRegistry) -> Recipe {
        Recipe(nodes: nodes, base: base, registry: registry)
    }

    /// No filters.
    public var isEmpty: Bool { nodes.isEmpty }

    /// The node of `filter`, if the recipe has one.
    public func node(_ filter: String) -> RecipeNode? { nodes.first { $0.filter == filter } }

    /// Replaces (or adds) the node of a filter.
    public mutating func set(_ node: RecipeNode, registry: FilterRegistry) {
        nodes.removeAll { $0.filter == node.filter }
        nodes = registry.sorted(nodes + [node])
    }

    /// Nodes that an older version of their filter wrote and that still render
    /// the old way: (filter, version, current version).
    public func frozenNodes(registry: FilterRegistry = .standard) -> [(filter: String, version: Int, current: Int)] {
        nodes.compactMap { node in
            guard let d = registry.filter(node.filter), node.version < d.version else { return nil }
            return (node.filter, node.version, d.version)
        }
    }

    /// Removes the node of a filter; returns whether there was one.
    @discardableResult
    public mutating func remove(_ filter: String) -> Bool {
        let before = nodes.count
        nodes.removeAll { $0.filter == filter }
        return nodes.count != before
    }

    /// The recipe with every recorded parameter still empty filled in (a
    /// recipe from a file gets its LUT's hash recorded); recorded values
    /// already there are kept.
    func bindingUnrecorded(registry: FilterRegistry) throws -> Recipe {
        var out = self
        for node in nodes {
            guard let definition = registry.filter(node.filter), node.version == definition.version,
                  definition.recorded.contains(where: { node.parameters[$0] == definition.defaults[$0] }) else { continue }
            out.set(RecipeNode(filter: node.filter, version: node.version, parameters: try definition.bind(node.parameters)), registry: registry)
        }
        return out
    }

    /// Why the things outside the recipe that its nodes recorded (a LUT's
    /// file and hash) are no longer what they were, one line each.
    func bindingProblems(registry: FilterRegistry) -> [String] {
        nodes.compactMap { node in
            guard let definition = registry.filter(node.filter), !definition.recorded.isEmpty else { return nil }
            do {
                let now = try definition.bind(node.parameters)
                let changed = definition.recorded.sorted().filter { node.parameters[$0] != definition.defaults[$0] && now[$0] != node.parameters[$0] }
                return changed.isEmpty ? nil : "\(node.filter): \(Chain.format(node, registry: registry)) has changed since it was applied (\(changed.joined(separator: ", ")) differs)"
            } catch let e as PhotoEditError {
                return "\(node.filter): \(e.description)"
            } catch {
                return "\(node.filter): \(error)"
            }
        }
    }

    // MARK: Encoding

    /// The canonical JSON value of the recipe.
    public var json: JSONValue {
        .object([
            "format": .string(Recipe.formatIdentifier),
            "formatVersion": .number(Double(Recipe.formatVersion)),
            "base": .string(base.rawValue),
            "filters": .array(nodes.map { node in
                .object([
                    "id": .string(node.filter),
                    "version": .number(Double(node.version)),
                    "params": .object(node.parameters.content.map { StructuredFilter.encode($0) } ?? node.parameters.values.mapValues(\.json)),
                ])
            }),
        ])
    }

    /// The recipe as adjustment data (canonical bytes).
    public var adjustmentData: AdjustmentData {
        AdjustmentData(formatIdentifier: Recipe.formatIdentifier, formatVersion: String(Recipe.formatVersion), data: json.canonicalData)
    }

    /// Can this build read the adjustment data as a recipe? (PhotoKit's
    /// `canHandleAdjustmentData` for photoedit's own editor.) Its own format,
    /// and Lightroom develop settings (`com.adobe.crs`, translated: see
    /// `LightroomSettings`).
    public static func canHandle(_ data: AdjustmentData) -> Bool {
        (data.formatIdentifier == formatIdentifier && Int(data.formatVersion).map { $0 >= 1 && $0 <= formatVersion } == true)
            || LightroomSettings.canHandle(data)
    }

    /// Decodes adjustment data written in photoedit's format, or translates
    /// Lightroom develop settings (`com.adobe.crs`). Anything else —
    /// another format, a newer version, malformed JSON, unknown filters or
    /// parameters, values out of range — throws; nothing is guessed.
    public init(adjustmentData: AdjustmentData, registry: FilterRegistry = .standard, upgrade: Bool = false) throws {
        if adjustmentData.formatIdentifier == LightroomSettings.formatIdentifier {
            do {
                self = try LightroomSettings(adjustmentData: adjustmentData).translation(registry: registry).recipe
            } catch let problem as XMPProblem {
                throw PhotoEditError.invalidAdjustmentData("Lightroom develop settings: \(problem)")
            }
            return
        }
        guard adjustmentData.formatIdentifier == Recipe.formatIdentifier else {
            throw PhotoEditError.invalidAdjustmentData("format '\(adjustmentData.formatIdentifier)' is not \(Recipe.formatIdentifier)")
        }
        guard let version = Int(adjustmentData.formatVersion), version >= 1 else {
            throw PhotoEditError.invalidAdjustmentData("format version '\(adjustmentData.formatVersion)' is not a version of \(Recipe.formatIdentifier)")
        }
        guard version <= Recipe.formatVersion else {
            throw PhotoEditError.invalidAdjustmentData("format version \(version) is newer than this engine reads (up to \(Recipe.formatVersion))")
        }
        try self.init(json: JSONValue.parse(adjustmentData.data), registry: registry, upgrade: upgrade)
    }

    /// Decodes a recipe from its JSON value (see `init(adjustmentData:)`).
    ///
    /// Nodes written by an older version of their filter are migrated as far
    /// as rendering stays the same; a node whose next version renders
    /// differently keeps its version (and its old rendering) unless `upgrade`.
    public init(json: JSONValue, registry: FilterRegistry = .standard, upgrade: Bool = false) throws {
        guard case .object(let top) = json else { throw PhotoEditError.invalidAdjustmentData("a recipe is a JSON object") }
        let allowed: Set<String> = ["format", "formatVersion", "base", "filters"]
        if let key = top.keys.sorted().first(where: { !allowed.contains($0) }) {
            throw PhotoEditError.invalidAdjustmentData("unknown key '\(key)' in recipe")
        }
        guard case .string(Recipe.formatIdentifier)? = top["format"] else {
            throw PhotoEditError.invalidAdjustmentData("recipe 'format' must be \"\(Recipe.formatIdentifier)\"")
        }
        guard case .number(let v)? = top["formatVersion"], v == v.rounded(), v >= 1 else {
            throw PhotoEditError.invalidAdjustmentData("recipe 'formatVersion' must be a positive integer")
        }
        // Checked before converting: a Double beyond Int's range traps.
        guard v <= Double(Recipe.formatVersion) else {
            throw PhotoEditError.invalidAdjustmentData("recipe format version \(Self.describe(v)) is newer than this engine reads (up to \(Recipe.formatVersion))")
        }
        var base = Base.original
        if let value = top["base"] {
            guard case .string(let text) = value, let b = Base(rawValue: text) else {
                throw PhotoEditError.invalidAdjustmentData("recipe 'base' must be \"original\", \"alternate\" or \"render\"")
            }
            base = b
        }
        guard case .array(let list)? = top["filters"] else {
            throw PhotoEditError.invalidAdjustmentData("recipe 'filters' must be an array")
        }
        var nodes: [RecipeNode] = []
        for item in list {
            guard case .object(let n) = item else { throw PhotoEditError.invalidAdjustmentData("each filter is a JSON object") }
            if let key = n.keys.sorted().first(where: { !["id", "version", "params"].contains($0) }) {
                throw PhotoEditError.invalidAdjustmentData("unknown key '\(key)' in filter node")
            }
            guard case .string(let id)? = n["id"] else { throw PhotoEditError.invalidAdjustmentData("a filter node needs a string 'id'") }
            guard let definition = registry.filter(id) else {
                throw PhotoEditError.unknownFilter(name: id, known: registry.ids)
            }
            guard case .number(let ver)? = n["version"], ver == ver.rounded(), ver >= 1 else {
                throw PhotoEditError.invalidAdjustmentData("filter '\(id)' needs a positive integer 'version'")
            }
            guard ver <= Double(definition.version) else {
                throw PhotoEditError.invalidAdjustmentData("filter '\(id)' version \(Self.describe(ver)) is newer than this engine knows (up to \(definition.version))")
            }
            if nodes.contains(where: { $0.filter == id }) {
                throw PhotoEditError.invalidAdjustmentData("filter '\(id)' appears twice")
            }
            if let structure = definition.structure {
                // A filter holding lists (local corrections, spots): its own reader.
                guard case .object(let p) = n["params"] ?? .object([:]) else { throw PhotoEditError.invalidAdjustmentData("'params' of '\(id)' must be an object") }
                let content = try structure.decode(p, Int(ver))
                // Brought to the current version unless a version on the way renders differently (as `load` does).
                var version = Int(ver)
                while version < definition.version,
                      let step = definition.legacy.first(where: { $0.version == version }), upgrade || !step.changesRendering {
                    version += 1
                }
                nodes.append(RecipeNode(filter: id, version: version, parameters: Parameters(values: [:], content: content)))
                continue
            }
            var values: [String: ParameterValue] = [:]
            if let params = n["params"] {
                guard case .object(let p) = params else { throw PhotoEditError.invalidAdjustmentData("'params' of '\(id)' must be an object") }
                for (key, value) in p {
                    switch value {
                    case .number(let x): values[key] = .number(x)
                    case .string(let s): values[key] = .text(s)
                    case .bool(let b): values[key] = .bool(b)
                    default: throw PhotoEditError.invalidParameter(filter: id, parameter: key, problem: "must be a number, string or boolean")
                    }
                }
            }
            let (version, parameters) = try definition.load(version: Int(ver), values: values, upgrade: upgrade)
            nodes.append(RecipeNode(filter: id, version: version, parameters: parameters))
        }
        self.init(nodes: nodes, base: base, registry: registry)
    }

    /// A whole number from JSON for a message: in full when it fits, else in
    /// exponent form (never converted to `Int`, which traps beyond its range).
    private static func describe(_ value: Double) -> String {
        abs(value) < 1e15 ? String(Int64(value)) : String(format: "%g", value)
    }
}
