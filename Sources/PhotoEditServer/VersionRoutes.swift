// Only with the `Server` trait (Package.swift): without it the module is empty.
#if Server
import Foundation
import HTTPTypes
import Hummingbird
import NIOCore
import PhotoEdit

/// Many versions of one photo (issue 40; Services/Versions in the engine):
/// virtual copies, named snapshots, presets saved from an edit, selective
/// sync, and the recipe groups their checklists offer. Writes need the
/// `edit` scope (AuthMiddleware); errors are problem+json.
///
/// - `GET  /v1/assets/{id}/versions`: the master, then its copies.
/// - `POST /v1/assets/{id}/duplicates` `{"name"?, "fresh"?}`: 201 with the copy.
/// - `GET|POST /v1/assets/{id}/snapshots`, `DELETE …/snapshots/{name}`,
///   `POST …/snapshots/{name}/restore` (If-Match: a new revision).
/// - `POST /v1/assets/{id}/sync` `{"targets", "only"?, "except"?}`.
/// - `GET /v1/recipe-groups`; `POST /v1/presets` `{"name", "from", "groups"?,
///   "amount"?}`; `GET /v1/presets/{name}/xmp`.
func addVersionRoutes(_ v1: RouterGroup<ServerContext>, state: ServerState) {
    let library = state.library

    // GET /v1/assets/{id}/versions: the photo's master first, then its
    // virtual copies, oldest first (deleted ones included, with deletedDate).
    v1.get("assets/:id/versions") { _, context -> Response in
        let id = try context.parameters.require("id")
        let versions = try await blocking { try library.versions(of: id) }
        return jsonResponse(.object(["assets": .array(try versions.map { try assetJSON($0, library: library) })]))
    }

    // POST /v1/assets/{id}/duplicates {"name": "B&W", "fresh": false}: a
    // virtual copy sharing the original (Lightroom's Create Virtual Copy);
    // optional If-Match: the source as the client saw it.
    v1.post("assets/:id/duplicates") { request, context -> Response in
        let id = try context.parameters.require("id")
        let expected = try ifMatch(request, required: false)
        let members = try objectBody(try await jsonBody(request, state: state, allowEmpty: true), allowed: ["name", "fresh"])
        let fresh = try optionalBool(members, "fresh") ?? false
        let name = try members["name"].flatMap { value -> String? in
            switch value {
            case .null: return nil
            case let .string(text): return try checkedName(text, "\"name\"")
            default: throw Problem(.badRequest, code: "invalid-body", "\"name\" must be a string")
            }
        }
        let copy = try await blocking { () -> Asset in
            if expected != nil { try check(library.asset(id), expected: expected, library: library) }
            return try library.duplicate(id, name: name, fresh: fresh)
        }
        let json = try assetJSON(copy, library: library)
        return jsonResponse(json, status: .created, headers: [.location: "/v1/assets/\(copy.id)", .eTag: json.etag])
    }

    // GET /v1/assets/{id}/snapshots: {"snapshots": [{"name", "revision", "date"}]}, by name.
    v1.get("assets/:id/snapshots") { _, context -> Response in
        let id = try context.parameters.require("id")
        let snapshots = try await blocking { try library.snapshots(of: id) }
        return jsonResponse(.object(["snapshots": .array(snapshots.map(snapshotJSON))]))
    }

    // POST /v1/assets/{id}/snapshots {"name": "Before client"}: names the
    // current revision; 409 snapshot-exists for a name the photo has.
    // Optional If-Match: the revision the client means to name.
    v1.post("assets/:id/snapshots") { request, context -> Response in
        let id = try context.parameters.require("id")
        let expected = try ifMatch(request, required: false)
        let members = try objectBody(try await jsonBody(request, state: state), allowed: ["name"])
        guard case let .string(text)? = members["name"] else {
            throw Problem(.badRequest, code: "invalid-body", "expected {\"name\": \"…\"}")
        }
        let name = try checkedName(text, "\"name\"")
        let (resolved, snapshot) = try await blocking { () -> (String, PhotoSnapshot) in
            let resolved = try library.resolve(id)
            try check(library.asset(resolved), expected: expected, library: library)
            if try library.snapshots(of: resolved).contains(where: { $0.name == name }) {
                throw Problem(.conflict, code: "snapshot-exists", "photo \(resolved) already has a snapshot called '\(name)'")
            }
            return (resolved, try library.addSnapshot(name, of: resolved))
        }
        return jsonResponse(snapshotJSON(snapshot), status: .created,
                            headers: [.location: "/v1/assets/\(resolved)/snapshots/\(pathComponent(snapshot.name))"])
    }

    // DELETE /v1/assets/{id}/snapshots/{name}: forgets the name (the revision stays).
    v1.delete("assets/:id/snapshots/:name") { _, context -> Response in
        let id = try context.parameters.require("id")
        let name = try snapshotName(context)
        try await blocking {
            let resolved = try library.resolve(id)
            _ = try snapshot(named: name, of: resolved, library: library)
            try library.performChanges { try $0.changeRequest(for: resolved).removeSnapshot(named: name) }
        }
        return Response(status: .noContent)
    }

    // POST /v1/assets/{id}/snapshots/{name}/restore with If-Match: the
    // snapshot's revision made current again, as a new revision (a revert).
    v1.post("assets/:id/snapshots/:name/restore") { request, context -> Response in
        let id = try context.parameters.require("id")
        let name = try snapshotName(context)
        let expected = try requiredIfMatch(request)
        let target = try await blocking { try snapshot(named: name, of: library.resolve(id), library: library).revision }
        _ = try await conditionalWrite(id, expected: expected, library: library) {
            try library.revert(id, to: target, ifAt: expected.revision)
        }
        let asset = try await blocking { try library.asset(id) }
        return assetResponse(try assetJSON(asset, library: library))
    }

    // POST /v1/assets/{id}/sync {"targets": [ids], "only": [groups]} or
    // {"targets", "except": [groups]}: the source's settings of those
    // groups onto each target (Lightroom's Sync Settings). Every id and
    // group is checked before anything changes; each target is then its own
    // commit. Optional If-Match: the source as the client saw it.
    v1.post("assets/:id/sync") { request, context -> Response in
        let id = try context.parameters.require("id")
        let expected = try ifMatch(request, required: false)
        let members = try objectBody(try await jsonBody(request, state: state), allowed: ["targets", "only", "except"])
        guard case let .array(items)? = members["targets"], (1...maxSyncTargets).contains(items.count) else {
            throw Problem(.badRequest, code: "invalid-body", "\"targets\" holds 1 to \(maxSyncTargets) photo ids")
        }
        let targets = try strings(items, "targets")
        let groups: Set<RecipeGroup>
        switch (members["only"], members["except"]) {
        case (nil, nil): groups = RecipeGroup.defaultSync
        case let (only?, nil): groups = try recipeGroups(only, "only")
        case let (nil, except?): groups = RecipeGroup.defaultSync.subtracting(try recipeGroups(except, "except"))
        default: throw Problem(.badRequest, code: "invalid-body", "give \"only\" or \"except\", not both")
        }
        guard !groups.isEmpty else { throw Problem(.badRequest, code: "invalid-body", "no group left to sync") }
        let synced = try await blocking { () -> [(String, Int)] in
            let source = try library.resolve(id)
            var seen = Set<String>()
            let ids = try targets.map { try library.resolve($0) }.filter { seen.insert($0).inserted }
            if ids.contains(source) {
                throw Problem(.badRequest, code: "sync-onto-source", "photo \(source) is the source of the sync; it cannot be a target too")
            }
            try check(library.asset(source), expected: expected, library: library)
            let revisions = try library.syncRecipe(from: source, to: ids, groups: groups)
            return zip(ids, revisions.map(\.number)).map { ($0, $1) }
        }
        return jsonResponse(.object([
            "groups": .array(RecipeGroup.allCases.filter(groups.contains).map { .string($0.rawValue) }),
            "synced": .array(synced.map { .object(["id": .string($0.0), "revision": .number(Double($0.1))]) }),
        ]))
    }

    // GET /v1/recipe-groups: the groups of a recipe's settings, as the
    // New Preset and Sync Settings checklists offer them.
    v1.get("recipe-groups") { _, _ -> Response in
        let registry = library.registry
        return jsonResponse(.object(["groups": .array(RecipeGroup.allCases.map { group in
            .object(["name": .string(group.rawValue), "title": .string(group.title),
                     "syncedByDefault": .bool(RecipeGroup.defaultSync.contains(group)),
                     "filters": .array(RecipeGroup.filters(of: group, registry: registry).map(JSONValue.string))])
        })]))
    }

    // POST /v1/presets {"name": "Velvia", "from": ID, "groups": ["wb", "tone"], "amount": 0.8}:
    // a preset of the photo's current edit (Lightroom's New Preset), 201.
    v1.post("presets") { request, _ -> Response in
        let members = try objectBody(try await jsonBody(request, state: state), allowed: ["name", "from", "groups", "amount"])
        guard case let .string(name)? = members["name"], case let .string(from)? = members["from"] else {
            throw Problem(.badRequest, code: "invalid-body", "expected {\"name\": \"…\", \"from\": \"photo id\"} (and \"groups\", \"amount\")")
        }
        let groups = try members["groups"].map { try recipeGroups($0, "groups") } ?? RecipeGroup.defaultSync
        guard !groups.isEmpty else { throw Problem(.badRequest, code: "invalid-body", "\"groups\" names no group") }
        var amount = 1.0
        if let value = members["amount"] {
            guard case let .number(n) = value, n.isFinite, (0...2).contains(n) else {
                throw Problem(.badRequest, code: "invalid-body", "\"amount\" must be a number from 0 to 2 (0 %–200 %)")
            }
            amount = n
        }
        do {
            let (preset, notExported) = try await blocking { [amount] in try library.savePreset(named: name, from: from, groups: groups, amount: amount) }
            var json = presetMembers(preset)
            json["notExported"] = .array(notExported.map(JSONValue.string))
            return jsonResponse(.object(json), status: .created, headers: [.location: "/v1/presets/\(preset.name)/xmp"])
        } catch let error as PresetUploadError {
            throw presetProblem(error)
        }
    }

    // GET /v1/presets/{name}/xmp: a Lightroom preset of the library as its
    // .xmp file (what `photoedit presets export` writes), for Lightroom and import-xmp.
    v1.get("presets/:name/xmp") { _, context -> Response in
        let name = try context.parameters.require("name")
        guard name.count <= 68, name.range(of: #"^[A-Za-z0-9_-]{1,64}(\.xmp)?$"#, options: .regularExpression) != nil else {
            throw Problem(.badRequest, code: "invalid-preset-name", "a preset name is letters, digits, '-', '_' (at most 64), optionally with .xmp")
        }
        let data = try await blocking { () -> Data in
            let presets = library.presets()
            let bare = name.hasSuffix(".xmp") ? String(name.dropLast(4)) : name
            guard try presets.all().contains(where: { $0.name == bare }) else {
                throw Problem(.notFound, code: "unknown-preset", "no preset called '\(bare)'")
            }
            let preset = try presets.preset(named: name)
            guard case .lightroom = preset.content, let data = FileManager.default.contents(atPath: preset.path) else {
                throw Problem(.conflict, code: "not-a-lightroom-preset", "preset \(bare) is a chain or recipe file, not a Lightroom preset")
            }
            return data
        }
        let file = name.hasSuffix(".xmp") ? name : name + ".xmp"
        return Response(status: .ok, headers: [.contentType: "application/rdf+xml", .contentDisposition: "attachment; filename=\"\(file)\""],
                        body: .init(byteBuffer: ByteBuffer(bytes: data)))
    }
}

/// The most targets one sync request takes (each is a commit with a new
/// render; a larger selection is synced in several requests).
let maxSyncTargets = 200

func snapshotJSON(_ snapshot: PhotoSnapshot) -> JSONValue {
    .object(["name": .string(snapshot.name), "revision": .number(Double(snapshot.revision)),
             "date": .string(ISO8601DateFormatter().string(from: snapshot.date))])
}

/// A JSON body that must be an object with only `allowed` members.
private func objectBody(_ body: JSONValue, allowed: [String]) throws -> [String: JSONValue] {
    guard case let .object(members) = body else {
        throw Problem(.badRequest, code: "invalid-body", "expected an object (\(allowed.joined(separator: ", ")))")
    }
    if let unknown = members.keys.sorted().first(where: { !allowed.contains($0) }) {
        throw Problem(.badRequest, code: "invalid-body", "unknown member \"\(String(unknown.prefix(40)))\" (\(allowed.joined(separator: ", ")))")
    }
    return members
}

/// A copy's or snapshot's name as the library checks it, or 400.
private func checkedName(_ text: String, _ what: String) throws -> String {
    do { return try PhotoLibrary.checkedVersionName(text, what) } catch let error as PhotoEditError {
        throw Problem(.badRequest, code: "invalid-body", error.description)
    }
}

/// The `{name}` of a snapshot route, percent-decoded and checked.
private func snapshotName(_ context: ServerContext) throws -> String {
    let decoded = try decodedPathParameter(context, "name", what: "the snapshot name")
    do { return try PhotoLibrary.checkedVersionName(decoded, "a snapshot name") } catch let error as PhotoEditError {
        throw Problem(.badRequest, code: "invalid-parameter", error.description)
    }
}

/// The photo's snapshot `name`, or 404 unknown-snapshot.
private func snapshot(named name: String, of id: String, library: PhotoLibrary) throws -> PhotoSnapshot {
    guard let found = try library.snapshots(of: id).first(where: { $0.name == name }) else {
        throw Problem(.notFound, code: "unknown-snapshot", "photo \(id) has no snapshot called '\(name)'")
    }
    return found
}

/// An array of group names (`["wb", "tone"]`; "color" is "colour"), or 400 unknown-group.
private func recipeGroups(_ value: JSONValue, _ key: String) throws -> Set<RecipeGroup> {
    guard case let .array(items) = value, items.count <= 32 else {
        throw Problem(.badRequest, code: "invalid-body", "\"\(key)\" must be an array of group names")
    }
    var out = Set<RecipeGroup>()
    for item in items {
        guard case let .string(text) = item else { throw Problem(.badRequest, code: "invalid-body", "\"\(key)\" must be an array of group names") }
        guard !text.contains(",") else { throw Problem(.badRequest, code: "unknown-group", "one group name per entry of \"\(key)\"") }
        do { out.formUnion(try RecipeGroup.parse(text)) } catch let error as PhotoEditError {
            throw Problem(.badRequest, code: "unknown-group", error.description)
        }
    }
    return out
}
#endif
