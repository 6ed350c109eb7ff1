import Foundation

/// The filters an engine knows, by id. `standard` holds every built-in
/// filter; a service can build its own registry with extra filters.
public struct FilterRegistry: Sendable {
    /// The filters, in canonical pipeline order.
    public let filters: [FilterDefinition]
    private let byID: [String: FilterDefinition]

    /// A registry of `filters`; ids must be unique and every declaration
    /// sound (`FilterDefinition.declarationProblems`: keys exactly the
    /// declared parameters…), else the process stops here, at start-up.
    public init(_ filters: [FilterDefinition]) {
        let problems = filters.flatMap(\.declarationProblems)
        precondition(problems.isEmpty, "filter declarations: \(problems.joined(separator: "; "))")
        self.filters = filters.sorted { ($0.stage, $0.order, $0.id) < ($1.stage, $1.order, $1.id) }
        var map: [String: FilterDefinition] = [:]
        for f in filters {
            precondition(map[f.id] == nil, "duplicate filter id \(f.id)")
            map[f.id] = f
        }
        byID = map
    }

    /// Every built-in filter.
    public static let standard = FilterRegistry([
        Filters.raw, Filters.lens, Filters.ca, Filters.defringe, Filters.temperature, Filters.tint, Filters.calibration, Filters.exposure, Filters.contrast, Filters.saturation,
        Filters.rotate, Filters.perspective, Filters.flip, Filters.crop,
    ] + Filters.toneGroup + Filters.presenceGroup + Filters.colourGroup + Filters.detailGroup
      + [Filters.rgbtable, Filters.local, Filters.retouch])

    /// The filter called `id`.
    public func filter(_ id: String) -> FilterDefinition? { byID[id] }

    /// The filter called `id`, or an `unknownFilter` error listing the known ones.
    public func require(_ id: String) throws -> FilterDefinition {
        guard let f = byID[id] else { throw PhotoEditError.unknownFilter(name: id, known: ids) }
        return f
    }

    /// Ids in pipeline order.
    public var ids: [String] { filters.map(\.id) }

    /// Nodes in canonical pipeline order.
    func sorted(_ nodes: [RecipeNode]) -> [RecipeNode] {
        let position = Dictionary(uniqueKeysWithValues: filters.enumerated().map { ($1.id, $0) })
        return nodes.sorted { (position[$0.filter] ?? .max, $0.filter) < (position[$1.filter] ?? .max, $1.filter) }
    }
}

/// Namespace of the built-in filter declarations, one file each.
public enum Filters {}
