// Only with the `Server` trait (Package.swift): these tests need its servers and modules.
#if Server
import Foundation
import Hummingbird
import HummingbirdTesting
@testable import PhotoEdit
@testable import PhotoEditServer
import Testing
import PhotoEditTestSupport

@Suite("HTTP API v1: filters and the change feed")
struct FeedTests {
    @Test("/v1/filters lists every declared filter with its parameters, in pipeline order")
    func filters() async throws {
        let temp = try TemporaryLibrary()
        try await server(temp).test(.router) { client in
            try await client.execute(uri: "/v1/filters", method: .get) { response in
                #expect(response.status == .ok)
                guard case let .array(filters)? = response.member("filters") else { Issue.record("no filters"); return }
                let ids = filters.compactMap { filter -> String? in
                    if case let .object(members) = filter, case let .string(id)? = members["id"] { return id }
                    return nil
                }
                #expect(ids == temp.library.registry.filters.map(\.id))
                let exposure = filters.first { if case let .object(m) = $0 { return m["id"] == .string("exposure") } else { return false } }
                guard case let .object(members)? = exposure, case let .array(parameters)? = members["parameters"] else {
                    Issue.record("no exposure declaration"); return
                }
                #expect(!parameters.isEmpty)
            }
        }
    }

    @Test("/v1/filters declares local's and retouch's lists (amounts, shapes, spots): every bound is the engine's (accepted at it, refused beyond)")
    func structuredDeclarations() async throws {
        let temp = try TemporaryLibrary()
        try await server(temp).test(.router) { client in
            try await client.execute(uri: "/v1/filters", method: .get) { response in
                guard case let .array(filters)? = response.member("filters") else { Issue.record("no filters"); return }
                func structure(_ id: String) -> [String: JSONValue] {
                    for case let .object(f) in filters where f["id"] == .string(id) {
                        if case let .object(s)? = f["structure"] { return s }
                    }
                    return [:]
                }
                let local = structure("local"), retouch = structure("retouch")
                #expect(local["kind"] == .string("corrections") && retouch["kind"] == .string("spots"))
                #expect(local["modes"] == .array(MaskMode.allCases.map { .string($0.rawValue) }))
                #expect(retouch["modes"] == .array(RetouchSpot.Mode.allCases.map { .string($0.rawValue) }))
                for case let .object(f) in filters where f["id"] != .string("local") && f["id"] != .string("retouch") {
                    #expect(f["structure"] == nil, "only local and retouch have a structure")
                }
                // Each declared number: (name, min, max, default, open at 0).
                func numbers(_ list: JSONValue?) -> [(String, Double, Double, Double, Bool)] {
                    guard case let .array(items)? = list else { return [] }
                    return items.compactMap { item in
                        guard case let .object(p) = item, p["type"] == .string("number"), case let .string(name)? = p["name"],
                              case let .number(lo)? = p["min"], case let .number(hi)? = p["max"], case let .number(d)? = p["default"],
                              case let .string(text)? = p["description"] else { return nil }
                        return (name, lo, hi, d, text.contains("more than 0"))
                    }
                }
                func accepts(_ build: () throws -> Void) -> Bool { (try? build()) != nil }
                /// The bounds hold: the declared ends (or just inside an open 0) are accepted, a step beyond refused.
                func checkBounds(_ what: String, _ list: JSONValue?, _ set: (String, Double) throws -> Void) -> Int {
                    var count = 0
                    for (name, lo, hi, d, open) in numbers(list) {
                        let step = max(1e-6, (hi - lo) * 1e-6)
                        #expect(lo <= d && d <= hi, "\(what).\(name): default \(d) in \(lo)…\(hi)")
                        #expect(accepts { try set(name, open ? lo + step : lo) }, "\(what).\(name) = \(lo) is accepted")
                        #expect(accepts { try set(name, hi) }, "\(what).\(name) = \(hi) is accepted")
                        #expect(!accepts { try set(name, open ? lo : lo - step) }, "\(what).\(name) below \(lo) is refused")
                        #expect(!accepts { try set(name, hi + step) }, "\(what).\(name) above \(hi) is refused")
                        count += 1
                    }
                    return count
                }
                let square = Mask(.radial(RadialGradient(centre: MaskPoint(x: 0.5, y: 0.5), radiusX: 0.2, radiusY: 0.2)))
                func setCorrection(_ c: LocalCorrection) throws {
                    var recipe = Recipe(nodes: [])
                    try recipe.setLocalCorrections([c])
                }
                #expect(checkBounds("amount", local["amounts"]) { name, v in
                    try setCorrection(LocalCorrection(mask: square, amounts: [LocalAdjustment(rawValue: name)!: v]))
                } == LocalAdjustment.allCases.count)
                guard case let .array(shapes)? = local["shapes"] else { Issue.record("no shapes"); return }
                var checked = 0
                for case let .object(shape) in shapes {
                    guard case let .string(type)? = shape["type"] else { continue }
                    checked += checkBounds(type, shape["parameters"]) { name, v in
                        switch type {
                        case "linear":
                            var g = LinearGradient(zero: MaskPoint(x: 0.5, y: 0.3), full: MaskPoint(x: 0.5, y: 0))
                            switch name {
                            case "x0": g.zero.x = v
                            case "y0": g.zero.y = v
                            case "x1": g.full.x = v
                            default: g.full.y = v
                            }
                            try setCorrection(LocalCorrection(mask: Mask(.linear(g)), amounts: [.exposure: 1]))
                        case "radial":
                            var r = RadialGradient(centre: MaskPoint(x: 0.5, y: 0.5), radiusX: 0.2, radiusY: 0.2)
                            switch name {
                            case "x": r.centre.x = v
                            case "y": r.centre.y = v
                            case "rx": r.radiusX = v
                            case "ry": r.radiusY = v
                            case "angle": r.angle = v
                            case "roundness": r.roundness = v
                            default: r.feather = v
                            }
                            try setCorrection(LocalCorrection(mask: Mask(.radial(r)), amounts: [.exposure: 1]))
                        case "luminance":
                            // low ≤ high: each end is tried against the widest other.
                            var l = LuminanceRange(low: 0, high: 1)
                            switch name {
                            case "low": l.low = v
                            case "high": l.high = v
                            default: l.feather = v
                            }
                            try setCorrection(LocalCorrection(mask: Mask(.luminance(l)), amounts: [.exposure: 1]))
                        case "colour":
                            var c = ColourRange(hue: 250)
                            switch name {
                            case "hue": c.hue = v
                            case "width": c.width = v
                            case "feather": c.feather = v
                            default: c.chroma = v
                            }
                            try setCorrection(LocalCorrection(mask: Mask(.colour(c)), amounts: [.exposure: 1]))
                        default:
                            var k = BrushStroke(points: [MaskPoint(x: 0.5, y: 0.5)], radius: 0.05)
                            switch name {
                            case "radius": k.radius = v
                            case "feather": k.feather = v
                            default: k.flow = v
                            }
                            try setCorrection(LocalCorrection(mask: Mask(.brush([k])), amounts: [.exposure: 1]))
                        }
                    }
                }
                #expect(checked == 4 + 7 + 3 + 3 + 4, "every number of every shape is declared and checked (\(checked))")
                #expect(checkBounds("spot", retouch["parameters"]) { name, v in
                    var s = RetouchSpot(mode: .heal, centre: MaskPoint(x: 0.5, y: 0.5), radiusX: 0.02, radiusY: 0.02, offset: MaskPoint(x: 0.05, y: 0.05))
                    switch name {
                    case "x": s.centre.x = v
                    case "y": s.centre.y = v
                    case "rx": s.radiusX = v
                    case "ry": s.radiusY = v
                    case "dx": s.offset.x = v
                    case "dy": s.offset.y = v
                    case "feather": s.feather = v
                    default: s.opacity = v
                    }
                    var recipe = Recipe(nodes: [])
                    try recipe.setRetouchSpots([s])
                } == 8)
            }
        }
    }

    @Test("/v1/filters gives every parameter as data: type, min/max/step, choices, default, unit, description, from its declaration")
    func filterParametersAsData() async throws {
        let temp = try TemporaryLibrary()
        let registry = temp.library.registry
        try await server(temp).test(.router) { client in
            try await client.execute(uri: "/v1/filters", method: .get) { response in
                guard case let .array(filters)? = response.member("filters") else { Issue.record("no filters"); return }
                var kinds: Set<String> = []
                for case let .object(filter) in filters {
                    guard case let .string(id)? = filter["id"], let definition = registry.filters.first(where: { $0.id == id }),
                          case let .array(parameters)? = filter["parameters"] else { Issue.record("bad filter \(filter)"); continue }
                    #expect(parameters.count == definition.parameters.count, "\(id)")
                    for (spec, json) in zip(definition.parameters, parameters) {
                        let name = "\(id).\(spec.name)"
                        guard case let .object(p) = json else { Issue.record("\(name): not an object"); continue }
                        #expect(p["name"] == .string(spec.name), "\(name)")
                        #expect(p["description"] == .string(spec.summary) && !spec.summary.isEmpty, "\(name)")
                        #expect(p["unit"] == .string(spec.unit), "\(name)")
                        #expect(p["range"] == .string(spec.rangeDescription), "\(name): the human text stays")
                        switch spec.kind {
                        case let .number(range, step):
                            kinds.insert("number")
                            #expect(p["type"] == .string("number"), "\(name)")
                            #expect(p["min"] == .number(range.lowerBound) && p["max"] == .number(range.upperBound), "\(name)")
                            #expect(p["step"] == (step.map(JSONValue.number) ?? .null), "\(name)")
                            guard case let .number(d)? = p["default"] else { Issue.record("\(name): default is not a number"); continue }
                            #expect(range.contains(d), "\(name): default \(d) outside \(range)")
                        case let .choice(choices):
                            kinds.insert("choice")
                            #expect(p["type"] == .string("choice"), "\(name)")
                            #expect(p["choices"] == .array(choices.map(JSONValue.string)), "\(name)")
                            guard case let .string(d)? = p["default"] else { Issue.record("\(name): default is not a string"); continue }
                            #expect(choices.contains(d), "\(name)")
                            #expect(p["min"] == nil && p["step"] == nil, "\(name): no number fields on a choice")
                        case .text:
                            kinds.insert("text")
                            #expect(p["type"] == .string("text"), "\(name)")
                            #expect(p["maxLength"] == .number(Double(ParameterSpec.maxTextLength)), "\(name)")
                        case .bool:
                            kinds.insert("bool")
                            #expect(p["type"] == .string("bool"), "\(name)")
                            #expect(p["default"] == .bool(spec.defaultValue == .bool(true)), "\(name)")
                        }
                    }
                }
                // The declarations use every kind, so each branch above ran.
                #expect(kinds == ["number", "choice", "text", "bool"])
                // Two known ones, by value.
                let exposure = filters.first { $0["id"] == .string("exposure") }?["parameters"]
                guard case let .array(exposureParameters)? = exposure, case let .object(ev)? = exposureParameters.first else {
                    Issue.record("no exposure"); return
                }
                #expect(ev["type"] == .string("number") && ev["default"] == .number(0))
                let crop = filters.first { $0["id"] == .string("crop") }?["parameters"]
                guard case let .array(cropParameters)? = crop, case let .object(mode)? = cropParameters.first else { Issue.record("no crop"); return }
                #expect(mode["choices"] == .array([.string("rect"), .string("aspect"), .string("trim")]))
            }
        }
    }

    @Test("/v1/changes pages the feed after a sequence number: entries, next, latest, more")
    func changesPage() async throws {
        let temp = try TemporaryLibrary()
        let first = try temp.importSample("coffee.jpg")
        _ = try temp.importSample("chelsea.jpg")
        try await BlockingExecutor.run { try temp.library.performChanges { try $0.changeRequest(for: first).isFavorite = true } }
        let latest = try await BlockingExecutor.run { try temp.library.latestChangeSequence() }
        try await server(temp).test(.router) { client in
            try await client.execute(uri: "/v1/changes?since=0&limit=1", method: .get) { response in
                #expect(response.status == .ok)
                guard case let .array(changes)? = response.member("changes") else { Issue.record("no changes"); return }
                #expect(!changes.isEmpty)
                #expect(response.member("more") == .bool(true))
                #expect(response.member("latest") == .number(Double(latest)))
            }
            try await client.execute(uri: "/v1/changes?since=\(latest - 1)", method: .get) { response in
                guard case let .array(changes)? = response.member("changes"), changes.count == 1, case let .object(entry) = changes[0] else {
                    Issue.record("expected the favorite alone: \(response.json)"); return
                }
                #expect(entry["id"] == .string(first))
                #expect(entry["kind"] == .string("update"))
                #expect(entry["changes"] == .array([.string("favorite")]))
                #expect(response.member("more") == .bool(false))
                #expect(response.member("next") == .number(Double(latest)))
            }
            try await client.execute(uri: "/v1/changes?since=-1", method: .get) { response in
                #expect(response.status == .badRequest)
            }
        }
    }

    @Test("the event stream sends the changes after ?since, then new ones as they commit; Last-Event-ID resumes after it")
    func eventStream() async throws {
        let temp = try TemporaryLibrary()
        let id = try temp.importSample("coffee.jpg")
        let imported = try await BlockingExecutor.run { try temp.library.latestChangeSequence() }
        let library = temp.library
        try await server(temp).test(.live) { client in
            let port = try #require(client.port)
            let stream = try #require(LoopbackConnection(port: port))
            stream.send(Data("GET /v1/changes/stream?since=0 HTTP/1.1\r\nHost: localhost\r\n\r\n".utf8))
            let head = (try? await ClientThreads.run { stream.receive(until: "id: \(imported)\n") }) ?? ""
            #expect(head.hasPrefix("HTTP/1.1 200"))
            #expect(head.lowercased().contains("content-type: text/event-stream"))
            #expect(head.contains("event: change\ndata: {"))

            // A change committed now arrives on the open stream.
            try await ClientThreads.run { try library.performChanges { try $0.changeRequest(for: id).isHidden = true } }
            let next = imported + 1
            let live = (try? await ClientThreads.run { stream.receive(until: "id: \(next)\n") }) ?? ""
            #expect(live.contains("\"changes\":[\"hidden\"]"), "stream: \(live)")

            // A client that reconnects with Last-Event-ID gets only what came after it.
            try await ClientThreads.run { try library.performChanges { try $0.changeRequest(for: id).isFavorite = true } }
            let again = try #require(LoopbackConnection(port: port))
            again.send(Data("GET /v1/changes/stream HTTP/1.1\r\nHost: localhost\r\nLast-Event-ID: \(next)\r\n\r\n".utf8))
            let resumed = (try? await ClientThreads.run { again.receive(until: "id: \(next + 1)\n") }) ?? ""
            #expect(resumed.contains("id: \(next + 1)\n"))
            #expect(!resumed.contains("id: \(next)\n") && !resumed.contains("id: \(imported)\n"))
            #expect(resumed.contains("\"changes\":[\"favorite\"]"))
        }
    }
}
#endif
