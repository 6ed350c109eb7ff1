// Only with the `Server` trait (Package.swift): without it the module is empty.
#if Server
import Foundation
import HTTPTypes
import Hummingbird
import NIOCore
import PhotoEdit

/// Photos: list, get, upload, favorite/hide, delete/restore/purge.
func addAssetRoutes(_ v1: RouterGroup<ServerContext>, state: ServerState) {
    let library = state.library

    // GET /v1/assets?where=EXPR&sort=KEYS&limit=N&cursor=C&hidden=true&deleted=true&album=A
    // [&thumbnail=SIZE&thumbnailFit=fill|fit&thumbnailFormat=F]: with thumbnail,
    // each photo also has its thumbnail's URL, signed (Thumbnails.swift).
    v1.get("assets") { request, _ -> Response in
        let query = request.formQuery()
        var predicate = try query.get("where").map { try AssetPredicate(parsing: $0) }
        let deleted = try flag(query, "deleted")
        if deleted { predicate = predicate.map { .has(.deleted) && $0 } ?? .has(.deleted) }
        let sort = try query.get("sort").map { try AssetSortDescriptor.parseList($0) } ?? []
        let limit = try integer(query, "limit", in: 1...1000) ?? 100
        let options = FetchOptions(predicate: predicate, sortDescriptors: sort, includeHiddenAssets: try flag(query, "hidden") || deleted,
                                   includeRecentlyDeleted: deleted)
        let album = query.get("album")
        let cursor = try query.get("cursor").map(ListCursor.init(text:))
        let thumbnails = try ThumbnailRequest(query)
        let page = try await blocking { () -> (assets: [Asset], next: ListCursor?, copies: [String: Int]) in
            let result = try album.map { try library.fetchAssets(in: $0, options: options) } ?? library.fetchAssets(options)
            // The page starts after the last photo of the previous one: by its id
            // while it is still listed (photos added or removed before it move
            // nothing), else at the same position.
            let start = cursor.map { c in result.index(of: c.lastID).map { $0 + 1 } ?? c.offset } ?? 0
            let end = min(result.count, start + limit)
            guard start < end else { return ([], nil, [:]) }
            let assets = try result.objects(in: start..<end)
            return (assets, end < result.count ? ListCursor(offset: end, lastID: assets[assets.count - 1].id) : nil,
                    try library.copyCounts(of: assets.filter { !$0.isVirtualCopy }.map(\.id)))
        }
        let now = Date()
        var body: [String: JSONValue] = ["assets": .array(try page.assets.map { asset in
            // The listing adds (outside the photo's ETag) how many virtual
            // copies a master has, so a grid can stack them under it.
            guard case var .object(members) = try assetJSON(asset, library: library) else { return .null }
            members["copyCount"] = .number(Double(page.copies[asset.id] ?? 0))
            if let thumbnails { members.merge(thumbnails.members(for: asset, signer: state.configuration.signer, now: now)) { $1 } }
            return .object(members)
        })]
        body["nextCursor"] = page.next.map { .string($0.text) } ?? .null
        return jsonResponse(.object(body))
    }

    // GET /v1/assets/{id}: the photo, ETag "rN.HASH" (its revision and its metadata).
    v1.get("assets/:id") { request, context -> Response in
        let id = try context.parameters.require("id")
        let asset = try await blocking { try library.asset(id) }
        let json = try assetJSON(asset, library: library)
        let etag = json.etag
        if let match = request.headers[.ifNoneMatch], ETag.matches(match, etag) {
            return Response(status: .notModified, headers: [.eTag: etag])
        }
        return jsonResponse(json, headers: [.eTag: etag])
    }

    // POST /v1/assets: the body is the image file, streamed to disk.
    // ?filename=NAME (or Content-Disposition's filename) names it.
    v1.post("assets") { request, context -> Response in
        let limit = state.configuration.maxUploadBytes
        if let length = request.headers[.contentLength].flatMap({ Int64($0) }), length > limit {
            throw Problem(.contentTooLarge, code: "upload-too-large", "the upload is \(length) bytes; the limit is \(limit)")
        }
        // A form's upload (curl -F, an HTML form) would be staged whole and
        // then refused as "not an image": say what to send instead, before
        // the body is read.
        if isMultipart(request.headers[.contentType]) {
            throw Problem(.unsupportedMediaType, code: "unsupported-media-type",
                          "the body is the photo's own bytes (curl --data-binary @photo.jpg), not a multipart form")
        }
        let filename = request.formQuery().get("filename") ?? request.headers[.contentDisposition].flatMap(dispositionFilename)
        do { _ = try PhotoLibrary.checkedFilename(filename) } catch let error as PhotoEditError {
            // A name with folders (../../etc/x.jpg) is a bad parameter, not a refused change.
            guard case .invalidChange = error else { throw error }
            throw Problem(.badRequest, code: "invalid-parameter",
                          "filename must be one path component of 1–255 bytes without control characters")
        }
        let body = LimitedBody(base: request.body, limit: limit)
        let placeholder = try await library.createAsset(fromChunks: body, filename: filename)
        let id = placeholder.localIdentifier
        let asset = try await blocking { try library.asset(id) }
        var json = try assetJSON(asset, library: library)
        let etag = json.etag
        if case var .object(members) = json {
            members["existed"] = .bool(placeholder.existed)
            json = .object(members)
        }
        return jsonResponse(json, status: placeholder.existed ? .ok : .created,
                            headers: [.location: "/v1/assets/\(id)", .eTag: etag])
    }

    // PATCH /v1/assets/{id} {"favorite": true, "hidden": false, "rating": 4, "colorLabel": "red",
    // "keywords": ["Trips/Iceland"], "title": "…", "caption": "…"}: each member given is set, all in one commit.
    v1.patch("assets/:id") { request, context -> Response in
        let id = try context.parameters.require("id")
        let body = try await jsonBody(request, state: state)
        let update = try AssetUpdate(body)
        let expected = try ifMatch(request, required: false)
        let asset = try await blocking { () -> Asset in
            try check(library.asset(id), expected: expected, library: library)
            try library.performChanges { try update.apply(to: $0.changeRequest(for: id)) }
            return try library.asset(id)
        }
        return assetResponse(try assetJSON(asset, library: library))
    }

    // DELETE /v1/assets/{id}: to the recently deleted (restore brings it back).
    v1.delete("assets/:id") { request, context -> Response in
        let id = try context.parameters.require("id")
        let expected = try ifMatch(request, required: false)
        try await blocking {
            try check(library.asset(id), expected: expected, library: library)
            try library.performChanges { try $0.changeRequest(for: id).delete() }
        }
        return Response(status: .noContent)
    }

    v1.post("assets/:id/restore") { request, context -> Response in
        let id = try context.parameters.require("id")
        let asset = try await blocking { () -> Asset in
            try library.performChanges { try $0.changeRequest(for: id).restore() }
            return try library.asset(id)
        }
        return assetResponse(try assetJSON(asset, library: library))
    }

    // POST /v1/assets/{id}/purge: deletes the photo and its files for good (admin scope).
    v1.post("assets/:id/purge") { request, context -> Response in
        let id = try context.parameters.require("id")
        let expected = try ifMatch(request, required: false)
        try await blocking {
            try check(library.asset(id), expected: expected, library: library)
            try library.performChanges { try $0.changeRequest(for: id).purge() }
        }
        return Response(status: .noContent)
    }
}

/// Edits: apply a chain, a recipe or a preset; revert; history.
func addEditRoutes(_ v1: RouterGroup<ServerContext>, state: ServerState) {
    let library = state.library

    // POST /v1/assets/{id}/edits with If-Match: "rN" and
    // {"chain": "exposure=+0.3,crop=16:9", "reset": false, "remove": ["vignette"], "fromRAW": null}
    // or {"recipe": {…photoedit recipe…}}. A preset is a chain step (preset:NAME).
    // A multipart/form-data body is an editor's output instead (commitEditingOutput).
    v1.post("assets/:id/edits") { request, context -> Response in
        let id = try context.parameters.require("id")
        let expected = try requiredIfMatch(request)
        if isMultipart(request.headers[.contentType]) {
            // An editor's output: adjustment data + rendered JPEG (ContentEditingRoutes.swift).
            return try await commitEditingOutput(request, id: id, expected: expected, state: state)
        }
        let body = try await jsonBody(request, state: state)
        guard case let .object(members) = body else {
            throw Problem(.badRequest, code: "invalid-body", "expected an object with \"chain\" or \"recipe\"")
        }
        let known: Set = ["chain", "recipe", "reset", "remove", "fromRAW"]
        if let unknown = members.keys.sorted().first(where: { !known.contains($0) }) {
            throw Problem(.badRequest, code: "invalid-body", "unknown member \"\(unknown)\" (chain, recipe, reset, remove, fromRAW)")
        }
        switch (members["chain"], members["recipe"]) {
        case let (.string(chain)?, nil):
            // Only filters taken out (the web editor's "every correction
            // deleted", a slider back at neutral): no steps to parse.
            let removesOnly = chain.isEmpty && members["remove"].map { $0 != .array([]) } == true
            let steps = removesOnly ? [] : try Chain.parse(chain)
            let reset = try optionalBool(members, "reset") ?? false
            let fromRAW = try optionalBool(members, "fromRAW")
            var removing: [String] = []
            if let remove = members["remove"] {
                guard case let .array(items) = remove, items.count <= 256 else {
                    throw Problem(.badRequest, code: "invalid-body", "\"remove\" must be an array of filter names")
                }
                removing = try items.map {
                    guard case let .string(name) = $0 else { throw Problem(.badRequest, code: "invalid-body", "\"remove\" must be an array of filter names") }
                    return name
                }
            }
            let toRemove = removing
            // A whole tag is checked in the edit's own first read (no transaction of its own).
            _ = try await conditionalWrite(id, expected: expected, library: library, checkedByWork: true) {
                guard expected.tag != nil else {
                    return try library.apply(steps: steps, to: id, ifAt: expected.revision, reset: reset, removing: toRemove,
                                             presets: library.presets(), fromRAW: fromRAW)
                }
                return try library.apply(steps: steps, to: id, ifAt: expected.revision, reset: reset, removing: toRemove,
                                         presets: library.presets(), fromRAW: fromRAW,
                                         checking: { try check($0, expected: expected, library: library) })
            }
        case let (nil, recipeJSON?):
            let recipe = try Recipe(json: recipeJSON, registry: library.registry)
            _ = try await conditionalWrite(id, expected: expected, library: library, checkedByWork: true) {
                guard expected.tag != nil else { return try library.apply(recipe: recipe, to: id, ifAt: expected.revision) }
                return try library.apply(recipe: recipe, to: id, ifAt: expected.revision,
                                         checking: { try check($0, expected: expected, library: library) })
            }
        default:
            throw Problem(.badRequest, code: "invalid-body", "give either \"chain\" (a string) or \"recipe\" (an object)")
        }
        let asset = try await blocking { try library.asset(id) }
        return assetResponse(try assetJSON(asset, library: library))
    }

    // POST /v1/assets/{id}/editing-output with If-Match: an editor's output
    // (multipart/form-data: adjustmentData, base, render), as /edits takes it
    // too; its own operation so generated clients have one body per call.
    v1.post("assets/:id/editing-output") { request, context -> Response in
        let id = try context.parameters.require("id")
        let expected = try requiredIfMatch(request)
        guard isMultipart(request.headers[.contentType]) else {
            throw Problem(.unsupportedMediaType, code: "unsupported-media-type",
                          "an editor's output is multipart/form-data (adjustmentData, base, render)")
        }
        return try await commitEditingOutput(request, id: id, expected: expected, state: state)
    }

    // POST /v1/assets/{id}/revert with If-Match, body {} (to the original) or {"revision": N}.
    v1.post("assets/:id/revert") { request, context -> Response in
        let id = try context.parameters.require("id")
        let expected = try requiredIfMatch(request)
        let body = try await jsonBody(request, state: state, allowEmpty: true)
        var target: Int?
        if case let .object(members) = body, let value = members["revision"] {
            guard case let .number(n) = value, n >= 0, n == n.rounded(), n < 1e9 else {
                throw Problem(.badRequest, code: "invalid-body", "\"revision\" must be a revision number")
            }
            target = Int(n)
        }
        _ = try await conditionalWrite(id, expected: expected, library: library) { [target] in
            try library.revert(id, to: target, ifAt: expected.revision)
        }
        let asset = try await blocking { try library.asset(id) }
        return assetResponse(try assetJSON(asset, library: library))
    }

    v1.get("assets/:id/history") { _, context -> Response in
        let id = try context.parameters.require("id")
        let (history, snapshots) = try await blocking { (try library.history(id), try library.snapshots(of: id)) }
        // Each revision with the names of its snapshots (Versions).
        let names = Dictionary(grouping: snapshots, by: \.revision).mapValues { $0.map { JSONValue.string($0.name) } }
        return jsonResponse(.object(["revisions": .array(history.map { revisionJSON($0, snapshots: names[$0.number] ?? [], library: library) })]))
    }
}

/// Albums: list, create, add/remove photos, rename, delete.
func addAlbumRoutes(_ v1: RouterGroup<ServerContext>, state: ServerState) {
    let library = state.library

    v1.get("albums") { _, _ -> Response in
        let albums = try await blocking { try library.albums() }
        return jsonResponse(.object(["albums": .array(albums.map(albumJSON))]))
    }
    v1.get("albums/:album") { _, context -> Response in
        let name = try decodedPathParameter(context, "album", what: "the album")
        return jsonResponse(albumJSON(try await blocking { try library.album(name) }))
    }
    // POST /v1/albums {"title": "Trip"}
    v1.post("albums") { request, _ -> Response in
        let body = try await jsonBody(request, state: state)
        guard case let .object(members) = body, case let .string(title)? = members["title"], members.count == 1 else {
            throw Problem(.badRequest, code: "invalid-body", "expected {\"title\": \"…\"}")
        }
        let album = try await blocking { () -> Album in
            var placeholder: ObjectPlaceholder?
            try library.performChanges { placeholder = $0.createAlbum(title: title) }
            guard let placeholder else { throw Problem(.internalServerError, code: "internal", "internal error") }
            return try library.album(placeholder.localIdentifier)
        }
        return jsonResponse(albumJSON(album), status: .created, headers: [.location: "/v1/albums/\(album.id)"])
    }
    // PATCH /v1/albums/{album} {"title": "New", "add": [ids], "remove": [ids]}
    v1.patch("albums/:album") { request, context -> Response in
        let name = try decodedPathParameter(context, "album", what: "the album")
        let body = try await jsonBody(request, state: state)
        guard case let .object(members) = body else { throw Problem(.badRequest, code: "invalid-body", "expected an object") }
        var title: String?
        var add: [String] = []
        var remove: [String] = []
        for (key, value) in members {
            switch (key, value) {
            case let ("title", .string(text)): title = text
            case let ("add", .array(items)): add = try strings(items, key)
            case let ("remove", .array(items)): remove = try strings(items, key)
            default: throw Problem(.badRequest, code: "invalid-body", "unexpected member \"\(key)\" (title, add, remove)")
            }
        }
        let album = try await blocking { [title, add, remove] () -> Album in
            let id = try library.resolveAlbum(name)
            try library.performChanges { changes in
                let change = try changes.albumChangeRequest(for: id)
                if let title { try change.rename(to: title) }
                if !add.isEmpty { try change.addAssets(add) }
                if !remove.isEmpty { try change.removeAssets(remove) }
            }
            return try library.album(id)
        }
        return jsonResponse(albumJSON(album))
    }
    v1.delete("albums/:album") { _, context -> Response in
        let name = try decodedPathParameter(context, "album", what: "the album")
        try await blocking { try library.performChanges { try $0.albumChangeRequest(for: name).delete() } }
        return Response(status: .noContent)
    }
}

/// A path parameter that names something by its title (an album, a
/// snapshot): Hummingbird hands it over as sent, percent-encoded
/// (`Trip%202026`); decoded here, at most 2000 bytes, or 400 invalid-parameter.
func decodedPathParameter(_ context: ServerContext, _ parameter: String, what: String) throws -> String {
    let raw = try context.parameters.require(parameter)
    guard raw.utf8.count <= 2000, let decoded = raw.removingPercentEncoding, !decoded.isEmpty else {
        throw Problem(.badRequest, code: "invalid-parameter", "\(what) is not a valid percent-encoded path segment")
    }
    return decoded
}

// MARK: - JSON of engine values

/// A photo as JSON: the engine's fields, its chain and its entity tag
/// (`"rN.HASH"`: the revision and a hash of all the other members, so
/// metadata changes that make no revision change it too).
func assetJSON(_ asset: Asset, library: PhotoLibrary) throws -> JSONValue {
    let encoder = JSONEncoder()
    encoder.dateEncodingStrategy = .iso8601
    guard case var .object(members) = try JSONValue.parse(try encoder.encode(asset)) else { return .null }
    let chain = asset.adjustmentData.flatMap { try? Recipe(adjustmentData: $0, registry: library.registry) }
        .map { Chain.format($0, registry: library.registry) }
    members["chain"] = chain.map(JSONValue.string) ?? .null
    members["etag"] = .string(ETag.asset(revision: asset.revision, json: .object(members)))
    return .object(members)
}

extension JSONValue {
    /// The `etag` member of a photo's JSON (`assetJSON`).
    var etag: String {
        if case let .object(members) = self, case let .string(tag)? = members["etag"] { return tag }
        return ""
    }
}

/// 200 with a photo's JSON and its entity tag.
func assetResponse(_ json: JSONValue) -> Response {
    jsonResponse(json, headers: [.eTag: json.etag])
}

/// A revision as the history lists it, with the names of its snapshots.
func revisionJSON(_ revision: Revision, snapshots: [JSONValue], library: PhotoLibrary) -> JSONValue {
    let chain = revision.adjustmentData.flatMap { try? Recipe(adjustmentData: $0, registry: library.registry) }
        .map { Chain.format($0, registry: library.registry) }
    return .object([
        "number": .number(Double(revision.number)),
        "date": .string(ISO8601DateFormatter().string(from: revision.date)),
        "kind": .string(revision.kind.rawValue),
        "chain": chain.map(JSONValue.string) ?? .null,
        "pixelWidth": .number(Double(revision.pixelWidth)),
        "pixelHeight": .number(Double(revision.pixelHeight)),
        "baseRevision": revision.baseRevision.map { .number(Double($0)) } ?? .null,
        "isBasedOnAlternate": .bool(revision.isBasedOnAlternate),
        "formatIdentifier": revision.adjustmentData.map { .string($0.formatIdentifier) } ?? .null,
        "editorNote": revision.editorNote.map(JSONValue.string) ?? .null,
        "snapshots": .array(snapshots),
    ])
}

func albumJSON(_ album: Album) -> JSONValue {
    .object([
        "id": .string(album.id),
        "title": .string(album.title),
        "createdAt": .string(ISO8601DateFormatter().string(from: album.createdAt)),
        "assets": .array(album.assetIdentifiers.map(JSONValue.string)),
    ])
}

/// The members of a PATCH of a photo, checked before anything changes.
struct AssetUpdate: Sendable {
    static let members = ["favorite", "hidden", "rating", "colorLabel", "keywords", "title", "caption"]
    var favorite: Bool?
    var hidden: Bool?
    var rating: Int?
    var colorLabel: ColorLabel??
    var keywords: [String]?
    var title: String??
    var caption: String??

    init(_ body: JSONValue) throws {
        guard case let .object(members) = body, !members.isEmpty else {
            throw Self.invalid("expected an object with one or more of \(Self.members.joined(separator: ", "))")
        }
        for (key, value) in members {
            switch (key, value) {
            case ("favorite", .bool(let b)): favorite = b
            case ("hidden", .bool(let b)): hidden = b
            case ("rating", .number(let n)):
                guard n == n.rounded(), Rating.range.contains(Int(exactly: n) ?? 99) else {
                    throw Self.invalid("\"rating\" must be an integer from -1 (rejected) to 5")
                }
                rating = Int(n)
            case ("colorLabel", .null): colorLabel = .some(nil)
            case ("colorLabel", .string(let text)):
                guard let label = ColorLabel(rawValue: text) else {
                    throw Self.invalid("\"colorLabel\" must be one of \(ColorLabel.allCases.map(\.rawValue).joined(separator: ", ")) or null")
                }
                colorLabel = .some(label)
            case ("keywords", .array(let items)):
                keywords = try items.map { item in
                    guard case .string(let text) = item else { throw Self.invalid("\"keywords\" must be an array of strings") }
                    do { return try Keyword.normalized(text) } catch let error as PhotoEditError { throw Self.invalid(error.description) }
                }
            case ("title", .null): title = .some(nil)
            case ("title", .string(let text)): title = .some(try Self.text(text, "title"))
            case ("caption", .null): caption = .some(nil)
            case ("caption", .string(let text)): caption = .some(try Self.text(text, "caption"))
            case ("favorite", _), ("hidden", _): throw Self.invalid("\"\(key)\" must be true or false")
            case ("rating", _): throw Self.invalid("\"rating\" must be an integer from -1 (rejected) to 5")
            case ("colorLabel", _), ("title", _), ("caption", _): throw Self.invalid("\"\(key)\" must be a string or null")
            case ("keywords", _): throw Self.invalid("\"keywords\" must be an array of strings")
            default: throw Self.invalid("unknown member \"\(key)\" (\(Self.members.joined(separator: ", ")))")
            }
        }
    }

    static func invalid(_ text: String) -> Problem { Problem(.badRequest, code: "invalid-body", text) }

    static func text(_ text: String, _ what: String) throws -> String? {
        do { return try DescriptiveMetadata.checkedText(text, "\"\(what)\"") } catch let error as PhotoEditError { throw invalid(error.description) }
    }

    /// Records every member given on the photo's change request.
    func apply(to change: AssetChangeRequest) throws {
        if let favorite { try change.setFavorite(favorite) }
        if let hidden { try change.setHidden(hidden) }
        if let rating { try change.setRating(rating) }
        if let colorLabel { try change.setColorLabel(colorLabel) }
        if let keywords { try change.setKeywords(keywords) }
        if let title { try change.setTitle(title) }
        if let caption { try change.setCaption(caption) }
    }
}

// MARK: - Request helpers

/// The JSON body of a request (at most `maxJSONBytes`).
func jsonBody(_ request: Request, state: ServerState, allowEmpty: Bool = false) async throws -> JSONValue {
    var request = request
    let buffer: ByteBuffer
    do {
        buffer = try await request.collectBody(upTo: state.configuration.maxJSONBytes)
    } catch let error where error is NIOTooManyBytesError || (error as? HTTPError)?.status == .contentTooLarge {
        // A declared length over the limit is an HTTPError; a body that
        // streams past it (no Content-Length, or a wrong one) is NIO's.
        throw Problem(.contentTooLarge, code: "body-too-large", "the body is larger than \(state.configuration.maxJSONBytes) bytes")
    }
    if buffer.readableBytes == 0 && allowEmpty { return .object([:]) }
    do {
        return try JSONValue.parse(Data(buffer.readableBytesView))
    } catch {
        throw Problem(.badRequest, code: "invalid-json", "the body is not valid JSON")
    }
}

/// What `If-Match` asks (a revision, or a photo's whole tag); a write that
/// needs one and has none gets 428.
func ifMatch(_ request: Request, required: Bool) throws -> Precondition? {
    guard request.headers[.ifMatch] != nil || required else { return nil }
    return try requiredIfMatch(request)
}

/// The request's `If-Match`, which this write needs: 428 without one, 400
/// when it names no revision.
func requiredIfMatch(_ request: Request) throws -> Precondition {
    guard let header = request.headers[.ifMatch] else {
        throw Problem(.preconditionRequired, code: "if-match-required",
                      "this write needs If-Match with the revision it was made from (the photo's ETag)")
    }
    guard let precondition = ETag.parsePrecondition(header) else {
        throw Problem(.badRequest, code: "invalid-if-match",
                      "If-Match must name one revision (\"r3\") or be the photo's ETag (\"r3.0123456789ab\")")
    }
    return precondition
}

/// Throws the 412 of a stale `If-Match`: the photo is at another revision
/// (`stale-revision`), or, for a whole tag, its metadata changed since
/// (`stale-metadata`). Both carry the current revision and the whole ETag.
func check(_ asset: Asset, expected: Precondition?, library: PhotoLibrary) throws {
    guard let expected else { return }
    let current = try assetJSON(asset, library: library).etag
    if asset.revision != expected.revision {
        var problem = Problem(PhotoEditError.conflict(asset: asset.id, expected: expected.revision, actual: asset.revision))
        problem.headers[.eTag] = current
        throw problem
    }
    if let tag = expected.tag, tag != current {
        throw Problem(.preconditionFailed, code: "stale-metadata",
                      "photo \(asset.id): revision \(asset.revision) is current, but its metadata changed since \(tag) (now \(current))",
                      extra: ["currentRevision": .number(Double(asset.revision))], headers: [.eTag: current])
    }
}

/// An edit's engine call under `If-Match`: a whole tag is checked first
/// (`check`) unless `work` checks it itself (`checkedByWork`); the revision is checked by the engine atomically with the
/// commit, and its 412 carries the photo's current whole ETag.
func conditionalWrite<T: Sendable>(_ id: String, expected: Precondition, library: PhotoLibrary, checkedByWork: Bool = false,
                                  _ work: @escaping @Sendable () throws -> T) async throws -> T {
    do {
        return try await blocking {
            if expected.tag != nil && !checkedByWork { try check(library.asset(id), expected: expected, library: library) }
            return try work()
        }
    } catch let error as PhotoEditError {
        guard case .conflict = error else { throw error }
        var problem = Problem(error)
        if let asset = try? await blocking({ try library.asset(id) }), let json = try? assetJSON(asset, library: library) {
            problem.headers[.eTag] = json.etag
        }
        throw problem
    }
}

func flag(_ query: Hummingbird.Parameters, _ name: String) throws -> Bool {
    guard let text = query.get(name) else { return false }
    switch text {
    case "true", "1", "": return true
    case "false", "0": return false
    default: throw Problem(.badRequest, code: "invalid-parameter", "\(name) must be true or false")
    }
}

func integer(_ query: Hummingbird.Parameters, _ name: String, in range: ClosedRange<Int>) throws -> Int? {
    guard let text = query.get(name) else { return nil }
    guard let n = Int(text), range.contains(n) else {
        throw Problem(.badRequest, code: "invalid-parameter", "\(name) must be a whole number in \(range.lowerBound)…\(range.upperBound)")
    }
    return n
}

func optionalBool(_ members: [String: JSONValue], _ key: String) throws -> Bool? {
    switch members[key] {
    case nil, .null?: return nil
    case let .bool(value)?: return value
    default: throw Problem(.badRequest, code: "invalid-body", "\"\(key)\" must be true or false")
    }
}

func strings(_ items: [JSONValue], _ key: String) throws -> [String] {
    guard items.count <= 10_000 else { throw Problem(.badRequest, code: "invalid-body", "\"\(key)\" has more than 10000 entries") }
    return try items.map {
        guard case let .string(text) = $0 else { throw Problem(.badRequest, code: "invalid-body", "\"\(key)\" must be an array of strings") }
        return text
    }
}

/// `filename="…"` of a Content-Disposition header.
func dispositionFilename(_ header: String) -> String? {
    guard let range = header.range(of: "filename=") else { return nil }
    let value = header[range.upperBound...].split(separator: ";").first.map(String.init) ?? ""
    let name = value.trimmingCharacters(in: CharacterSet(charactersIn: "\" "))
    return name.isEmpty ? nil : name
}

/// Where the next page of a listing starts: opaque to clients (base64url of "offset:id").
struct ListCursor {
    let offset: Int
    let lastID: String

    init(offset: Int, lastID: String) {
        self.offset = offset
        self.lastID = lastID
    }

    init(text: String) throws {
        var base64 = text.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        while base64.count % 4 != 0 { base64 += "=" }
        guard text.count <= 200, let data = Data(base64Encoded: base64), let decoded = String(data: data, encoding: .utf8),
              let colon = decoded.firstIndex(of: ":"), let offset = Int(decoded[..<colon]), offset >= 0
        else { throw Problem(.badRequest, code: "invalid-cursor", "the cursor is not one this server handed out") }
        self.offset = offset
        self.lastID = String(decoded[decoded.index(after: colon)...])
    }

    var text: String {
        Data("\(offset):\(lastID)".utf8).base64EncodedString().replacingOccurrences(of: "+", with: "-")
            .replacingOccurrences(of: "/", with: "_").replacingOccurrences(of: "=", with: "")
    }
}

/// An upload body that stops with 413 past the server's limit.
struct LimitedBody: AsyncSequence, Sendable {
    typealias Element = [UInt8]
    let base: RequestBody
    let limit: Int64

    struct AsyncIterator: AsyncIteratorProtocol {
        var base: RequestBody.AsyncIterator
        let limit: Int64
        var seen: Int64 = 0

        mutating func next() async throws -> [UInt8]? {
            guard let buffer = try await base.next() else { return nil }
            seen += Int64(buffer.readableBytes)
            if seen > limit {
                throw Problem(.contentTooLarge, code: "upload-too-large", "the upload is larger than the limit of \(limit) bytes")
            }
            return Array(buffer.readableBytesView)
        }
    }

    func makeAsyncIterator() -> AsyncIterator { AsyncIterator(base: base.makeAsyncIterator(), limit: limit) }
}
#endif
