import Foundation
import Testing
import PhotoEditTestSupport

/// Issue 42: the library's services declare the services they use (stored
/// properties, passed in at `init` by Library/LibraryServices.swift), and
/// those declarations form a graph without cycles. Read from the engine's
/// source, so a new cycle, a service naming one it did not declare (or
/// declaring one it never uses), or a service built outside the one place
/// fails here, not in a review.
@Suite("Service dependencies")
struct ServiceDependencyTests {
    /// A service as its source declares it.
    struct Service {
        let name: String
        /// Its stored properties' types that are services (its declared dependencies).
        var declared: Set<String> = []
        /// Those properties: name, type, where declared.
        var properties: [(name: String, type: String, place: String)] = []
        /// The types of all its stored properties (the parts it was given, and services).
        var storedTypes: Set<String> = []
        /// Its code (declaration and every extension, nested types
        /// included), without comments and string literals, with the file
        /// and line each line came from.
        var lines: [(place: String, text: String)] = []
    }

    /// The services, lower parts and the code of Images/ read from Swift sources.
    struct Graph {
        var services: [String: Service] = [:]
        /// Code of the lower parts every service shares (extensions of the
        /// part protocols, `CatalogModels`, the change recorder, types that
        /// use a part but are not a service, and all of `lowerFolders`).
        var lowerParts: [(place: String, text: String)] = []
        /// Service constructions (`Editing(catalogPart: …`) and where they are.
        var constructions: [(place: String, text: String)] = []

        var edges: [String: Set<String>] { services.mapValues(\.declared) }
    }

    /// The protocols through which a part is given the catalog, the files, the renderer.
    static let partProtocols: Set<String> = ["CatalogUser", "FilesUser", "RenderUser"]
    /// The lower parts below every service, by name (besides extensions of `partProtocols`).
    static let lowerPartNames: Set<String> = partProtocols.union(["CatalogModels", "ChangeRecorder", "LibraryParts", "CommitHooks"])
    /// Folders whose every line is a lower part: the catalog (every SQL
    /// statement) and the file and blob stores.
    static let lowerFolders = ["Sources/PhotoEdit/Catalog/", "Sources/PhotoEdit/Storage/"]

    static var declaration: Regex<(Substring, Substring, Substring, Substring?)> { /^(?:(?:public|package|internal|fileprivate|private|final|indirect)\s+)*(struct|extension|class|enum|protocol|actor)\s+([A-Za-z_][A-Za-z0-9_]*)(?:\.[A-Za-z0-9_.]+)?(?:<[^>]*>)?\s*(?::\s*([^{]*))?/ }
    /// A property of the type's own declaration (`let editing: Editing`,
    /// `var spare: Editing? = nil`, `let all: [Editing]`): its name and the
    /// first type it names.
    static var storedProperty: Regex<(Substring, Substring, Substring)> {
        /^    (?:(?:private|fileprivate|internal|package|public)\s+)?(?:let|var)\s+([A-Za-z_][A-Za-z0-9_]*)\s*:\s*[\[(]?\s*([A-Za-z_][A-Za-z0-9_]*)/
    }

    /// Reads `files` (path, content): top-level declarations and the code
    /// that follows each, up to the next one.
    static func graph(of files: [(path: String, content: String)]) -> Graph {
        let declaration = Self.declaration, storedProperty = Self.storedProperty
        var chunks: [(kind: String, name: String, conformances: String, lines: [(String, String)])] = []
        var constructionsSeen: [(String, String)] = []
        var inLowerFolders: [(place: String, text: String)] = []
        for (path, content) in files {
            var current: Int?
            for (n, line) in SwiftSource.code(content).enumerated() {
                let place = "\(path):\(n + 1)"
                if let first = line.first, first.isLetter, let m = line.firstMatch(of: declaration) {
                    chunks.append((String(m.1), String(m.2), m.3.map(String.init) ?? "", []))
                    current = chunks.count - 1
                }
                if let current { chunks[current].lines.append((place, line)) }
                if lowerFolders.contains(where: { path.hasPrefix($0) }) { inLowerFolders.append((place, line)) }
                if !path.hasSuffix("Library/LibraryServices.swift"), line.contains("(") { constructionsSeen.append((place, line)) }
            }
        }
        let isService = { (c: (kind: String, name: String, conformances: String, lines: [(String, String)])) in
            c.kind == "struct" && c.conformances.split(separator: ",").contains { $0.trimmingCharacters(in: .whitespaces) == "LibraryService" }
        }
        var graph = Graph()
        for c in chunks where isService(c) { graph.services[c.name] = Service(name: c.name) }
        let names = Set(graph.services.keys)
        for c in chunks {
            if var service = graph.services[c.name] {
                service.lines += c.lines
                if isService(c) {
                    for (place, line) in c.lines {
                        if let m = line.firstMatch(of: storedProperty) { service.storedTypes.insert(String(m.2)) }
                        if let m = line.firstMatch(of: storedProperty), names.contains(String(m.2)) {
                            service.declared.insert(String(m.2))
                            service.properties.append((String(m.1), String(m.2), place))
                        }
                    }
                }
                graph.services[c.name] = service
            } else if (c.kind == "extension" && lowerPartNames.contains(c.name)) || (c.kind != "extension" && lowerPartNames.contains(c.name))
                        || c.conformances.split(separator: ",").contains(where: { partProtocols.contains($0.trimmingCharacters(in: .whitespaces)) }) {
                graph.lowerParts += c.lines
            }
        }
        graph.lowerParts += inLowerFolders
        // `Editing(queries: …`, `Queries(catalogPart: …`: a labelled init.
        graph.constructions = constructionsSeen.filter { _, line in
            names.contains { name in
                SwiftSource.word(of: [name], in: line) != nil && line.replacing(" ", with: "").contains(try! Regex("(^|[^A-Za-z0-9_.])" + name + "\\([A-Za-z_]+:"))
            }
        }
        return graph
    }

    /// A cycle of `edges` (as the names along it, the first repeated at
    /// the end), nil when there is none.
    static func cycle(in edges: [String: Set<String>]) -> [String]? {
        var state: [String: Int] = [:]   // 1: on the path, 2: done
        var path: [String] = []
        func visit(_ node: String) -> [String]? {
            state[node] = 1
            path.append(node)
            for next in (edges[node] ?? []).sorted() {
                if state[next] == 1 { return Array(path[path.firstIndex(of: next)!...]) + [next] }
                if state[next] == nil, let found = visit(next) { return found }
            }
            path.removeLast()
            state[node] = 2
            return nil
        }
        for node in edges.keys.sorted() where state[node] == nil {
            if let found = visit(node) { return found }
        }
        return nil
    }

    /// Each service naming (as a word of its code) a service it did not declare.
    static func undeclaredUses(_ graph: Graph) -> [String] {
        let names = graph.services.keys.sorted()
        var problems: [String] = []
        for service in graph.services.values.sorted(by: { $0.name < $1.name }) {
            for other in names where other != service.name && !service.declared.contains(other) {
                if let use = service.lines.first(where: { SwiftSource.word(of: [other], in: $0.text) != nil }) {
                    problems.append("\(service.name) names \(other) without declaring it: \(use.place): \(use.text.trimmingCharacters(in: .whitespaces))")
                }
            }
        }
        return problems
    }

    /// Each declared service that its service never uses (the graph would
    /// say more than the code does).
    static func unusedDeclarations(_ graph: Graph) -> [String] {
        graph.services.values.sorted { $0.name < $1.name }.flatMap { service in
            service.properties.filter { property in
                !service.lines.contains { $0.place != property.place && $0.text.contains(property.name + ".") && SwiftSource.word(of: [property.name], in: $0.text) != nil }
            }.map { "\(service.name) declares \($0.name): \($0.type) but never uses it (\($0.place))" }
        }
    }

    static func engineSources() throws -> [(path: String, content: String)] {
        try SwiftSource.files(under: "Sources/PhotoEdit")
    }

    @Test func theServicesFormAGraphWithoutCycles() throws {
        let graph = Self.graph(of: try Self.engineSources())
        // The reading finds the services and their declarations (else the
        // checks below would pass on nothing).
        #expect(Set(graph.services.keys).isSuperset(of: ["Queries", "Committing", "Editing", "Importing", "Rendering", "Maintenance",
                                                         "Feed", "Versions", "Exporting", "UploadedPresets"]),
                "services found: \(graph.services.keys.sorted())")
        #expect(graph.edges["Editing"] == ["Queries", "Committing"], "Editing declares \(graph.edges["Editing"] ?? [])")
        #expect(graph.edges["Committing"] == [], "Committing uses no service; it declares \(graph.edges["Committing"] ?? [])")
        let cycle = Self.cycle(in: graph.edges)
        #expect(cycle == nil, "the services call in a circle: \(cycle?.joined(separator: " → ") ?? "")")
        let undeclared = Self.undeclaredUses(graph)
        #expect(undeclared.isEmpty, "\(undeclared.joined(separator: "\n"))")
        let unused = Self.unusedDeclarations(graph)
        #expect(unused.isEmpty, "\(unused.joined(separator: "\n"))")
        // Each service holds the parts it uses, never the whole (nor names it anywhere in its code).
        for service in graph.services.values {
            let whole = service.lines.first { SwiftSource.word(of: ["LibraryParts"], in: $0.text) != nil }
            #expect(whole == nil, "\(service.name) names the whole LibraryParts: \(whole.map { "\($0.place): \($0.text)" } ?? "")")
            #expect(service.storedTypes.contains("CatalogPart"), "\(service.name) holds \(service.storedTypes.sorted())")
        }
        #expect(graph.services["Committing"]?.storedTypes == ["CatalogPart", "FilesPart", "FilterRegistry", "CommitHooks", "Previews"])
        #expect(graph.services["Queries"]?.storedTypes == ["CatalogPart", "FilesPart", "FilterRegistry"], "Queries renders nothing")
        #expect(graph.services.values.filter { $0.storedTypes.contains("RenderPart") }.map(\.name).sorted()
                == ["Editing", "Exporting", "Maintenance", "Rendering"])
        #expect(graph.constructions.isEmpty,
                "services are built only in Library/LibraryServices.swift: \(graph.constructions.map { "\($0.place): \($0.text)" })")
    }

    /// The parts every service shares sit below them: they name no service.
    @Test func lowerPartsReachNoService() throws {
        let graph = Self.graph(of: try Self.engineSources())
        #expect(graph.lowerParts.count > 100, "the lower parts' code was found (\(graph.lowerParts.count) lines)")
        for folder in Self.lowerFolders {
            #expect(graph.lowerParts.contains { $0.place.hasPrefix(folder) }, "\(folder) is read as a lower part")
        }
        let services = graph.services.keys.sorted()
        let uses = graph.lowerParts.filter { SwiftSource.word(of: services, in: $0.text) != nil }
        #expect(uses.isEmpty, "\(uses.map { "\($0.place): \($0.text)" })")
    }

    /// Image requests reach the library through the façade they were
    /// given, never into a service or the shared parts.
    @Test func imageRequestsGoThroughTheFacade() throws {
        let all = try Self.engineSources()
        let sources = all.filter { $0.path.hasPrefix("Sources/PhotoEdit/Images/") }
        #expect(sources.count >= 5)
        let graph = Self.graph(of: all)
        let services = graph.services.keys.sorted()
        let accessors = (services.map { $0.prefix(1).lowercased() + $0.dropFirst() } + ["previews", "parts"]).map { "." + $0 }
        var uses: [String] = []
        for (path, content) in sources {
            for (n, line) in SwiftSource.code(content).enumerated()
            where SwiftSource.word(of: services, in: line) != nil || accessors.contains(where: { SwiftSource.word(of: [String($0.dropFirst())], in: line) != nil && line.contains($0) }) {
                uses.append("\(path):\(n + 1): \(line)")
            }
        }
        #expect(uses.isEmpty, "\(uses)")
    }

    /// The reading and the cycle search on made-up sources: a cycle two
    /// services deep is found, and so is a use that was not declared.
    @Test func aCycleOrAnUndeclaredUseIsFound() {
        let files = [
            ("A.swift", "struct Alpha: LibraryService {\n    let parts: LibraryParts\n    let beta: Beta\n}\n"),
            ("B.swift", "/// Gamma in a comment is no use.\nstruct Beta: LibraryService, Sendable {\n    let parts: LibraryParts\n    let gamma: Gamma\n}\n"),
            ("C.swift", "struct Gamma: LibraryService {\n    let parts: LibraryParts\n}\n\nextension Gamma {\n    func f() { _ = \"Alpha\"; _ = Alpha.self }\n}\n"),
        ]
        var graph = Self.graph(of: files)
        #expect(graph.edges == ["Alpha": ["Beta"], "Beta": ["Gamma"], "Gamma": []])
        #expect(Self.cycle(in: graph.edges) == nil)
        #expect(Self.unusedDeclarations(graph) == ["Alpha declares beta: Beta but never uses it (A.swift:3)",
                                                   "Beta declares gamma: Gamma but never uses it (B.swift:4)"])
        #expect(Self.undeclaredUses(graph) == ["Gamma names Alpha without declaring it: C.swift:6: func f() { _ = \"\"; _ = Alpha.self }"])
        // Gamma declaring Alpha (however: optional, with a default) closes a cycle.
        var cyclic = files
        cyclic[2].1 = cyclic[2].1.replacingOccurrences(of: "    let parts: LibraryParts\n", with: "    let parts: LibraryParts\n    private var spare: Alpha? = nil\n")
        graph = Self.graph(of: cyclic)
        #expect(graph.edges["Gamma"] == ["Alpha"])
        #expect(Self.undeclaredUses(graph).isEmpty)
        #expect(Self.cycle(in: graph.edges) == ["Alpha", "Beta", "Gamma", "Alpha"])
    }
}
