// Only with the `Server` trait (Package.swift): without it the module is empty.
#if Server
import Foundation
import HTTPTypes
import Hummingbird
import PhotoEdit

/// Export jobs over HTTP (issue 38):
///
/// - `POST /v1/exports` `{"ids": […]} | {"where": "EXPR"}` with
///   `"preset": "NAME"` and/or `"settings": {"format": "avif", "long-edge": "2048", …}`
///   (the export settings' option names, docs/http-api.md): 202 and the job.
/// - `GET /v1/exports/{id}`: state, total, completed, files (each with its
///   download URL) and failures. Each step is also an `export` event on the
///   change feed's stream.
/// - `GET /v1/exports/{id}/files/{name}`: one file; `GET /v1/exports/{id}/zip`:
///   every file written so far as one stored ZIP, streamed.
/// - `DELETE /v1/exports/{id}`: stops a running job or forgets a finished one.
func addExportRoutes(_ v1: RouterGroup<ServerContext>, state: ServerState) {
    let library = state.library
    let jobs = state.exports

    // GET /v1/export-presets: the built-in presets and the library's, with their settings (the web editor's preset menu).
    v1.get("export-presets") { _, _ -> Response in
        let presets = try await blocking { try library.exportPresets() }
        return jsonResponse(.object(["presets": .array(presets.map(\.json))]))
    }

    v1.post("exports") { request, _ -> Response in
        guard case let .object(body) = try await jsonBody(request, state: state) else {
            throw Problem(.badRequest, code: "invalid-body", "expected {\"ids\": […] or \"where\": \"…\", \"preset\" and/or \"settings\"}")
        }
        if let unknown = body.keys.sorted().first(where: { !["ids", "where", "preset", "settings"].contains($0) }) {
            throw Problem(.badRequest, code: "invalid-body", "unknown member \"\(unknown.prefix(64))\" (ids, where, preset, settings)")
        }
        let settings = try exportSettings(preset: body["preset"], settings: body["settings"], library: library)
        let ids: [String]
        switch (body["ids"], body["where"]) {
        case let (.array(items)?, nil):
            guard (1...ExportJobs.maxPhotos).contains(items.count) else {
                throw Problem(.badRequest, code: "invalid-body", "\"ids\" holds 1 to \(ExportJobs.maxPhotos) photo ids")
            }
            let given = try items.map { item -> String in
                guard case let .string(id) = item, (1...64).contains(id.utf8.count) else {
                    throw Problem(.badRequest, code: "invalid-body", "\"ids\" holds photo ids (strings)")
                }
                return id
            }
            // Every id resolves before anything is exported (404 names the first that does not).
            ids = try await blocking { try given.map { try library.asset($0).id } }
        case let (nil, .string(text)?):
            guard (1...ExportJobs.maxQueryBytes).contains(text.utf8.count) else {
                throw Problem(.badRequest, code: "invalid-body", "\"where\" is 1 to \(ExportJobs.maxQueryBytes) bytes")
            }
            let predicate = try AssetPredicate(parsing: text)
            let found = try await blocking { try library.fetchAssets(FetchOptions(predicate: predicate)).identifiers }
            guard found.count <= ExportJobs.maxPhotos else {
                throw Problem(.unprocessableContent, code: "too-many-photos",
                              "the query finds \(found.count) photos; one export takes at most \(ExportJobs.maxPhotos)")
            }
            guard !found.isEmpty else { throw Problem(.unprocessableContent, code: "no-photos", "the query finds no photo") }
            ids = found
        default:
            throw Problem(.badRequest, code: "invalid-body", "give \"ids\" (an array) or \"where\" (a query), not both")
        }
        guard let job = try jobs.start(ids: ids, settings: settings, library: library) else {
            throw Problem(.tooManyRequests, code: "too-many-exports", "\(jobs.maxRunning) exports are running; try again when one is done",
                          headers: [.retryAfter: "10"])
        }
        return jsonResponse(exportJobJSON(job), status: .accepted, headers: [.location: "/v1/exports/\(job.id)"])
    }

    v1.get("exports/:id") { _, context -> Response in
        let job = try knownJob(context, jobs)
        return jsonResponse(exportJobJSON(job))
    }

    v1.delete("exports/:id") { _, context -> Response in
        let id = try context.parameters.require("id")
        guard jobs.cancel(id) else { throw Problem(.notFound, code: "unknown-export", "no export \(id.prefix(64))") }
        return Response(status: .noContent)
    }

    v1.get("exports/:id/files/:name") { _, context -> Response in
        let job = try knownJob(context, jobs)
        let name = try context.parameters.require("name")
        guard let file = job.files.first(where: { $0.name == name }) else {
            throw Problem(.notFound, code: "unknown-export-file", "export \(job.id) has no file \(name.prefix(200))")
        }
        let data = try Data(contentsOf: URL(fileURLWithPath: jobs.folder(of: job.id) + "/" + file.name))
        return Response(status: .ok, headers: [.contentType: job.settings.format.mediaType,
                                                .contentDisposition: "attachment; filename=\"\(asciiName(file.name))\""],
                        body: .init(byteBuffer: ByteBuffer(bytes: data)))
    }

    v1.get("exports/:id/zip") { _, context -> Response in
        let job = try knownJob(context, jobs)
        guard !job.files.isEmpty else {
            throw Problem(.conflict, code: "export-empty", "export \(job.id) has no file yet (\(job.state.rawValue))")
        }
        let folder = jobs.folder(of: job.id)
        let files = job.files
        let body = ResponseBody { writer in
            var zip = ZipStream()
            for file in files {
                let data = try Data(contentsOf: URL(fileURLWithPath: folder + "/" + file.name))
                try await writer.write(ByteBuffer(bytes: try zip.entry(name: file.name, data: data)))
            }
            try await writer.write(ByteBuffer(bytes: zip.finish()))
            try await writer.finish(nil)
        }
        return Response(status: .ok, headers: [.contentType: "application/zip", .cacheControl: "no-store",
                                                .contentDisposition: "attachment; filename=\"export-\(job.id.prefix(8)).zip\""],
                        body: body)
    }
}

/// The job a route's `{id}` names, or 404.
private func knownJob(_ context: ServerContext, _ jobs: ExportJobs) throws -> ExportJobs.Job {
    jobs.expire()
    let id = try context.parameters.require("id")
    guard let job = jobs.job(id) else { throw Problem(.notFound, code: "unknown-export", "no export \(id.prefix(64))") }
    return job
}

/// A file name as one URL path component.
func pathComponent(_ name: String) -> String {
    var allowed = CharacterSet.urlPathAllowed
    allowed.remove(charactersIn: "/;?#%")
    return name.addingPercentEncoding(withAllowedCharacters: allowed) ?? name
}

/// A file name for `Content-Disposition` (ASCII, no quotes).
private func asciiName(_ name: String) -> String {
    String(name.unicodeScalars.map { $0.isASCII && $0 != "\"" && $0 != "\\" && $0.value >= 0x20 ? Character($0) : "_" })
}

/// Export settings from a preset (its stored values) and inline values on top.
func exportSettings(preset: JSONValue?, settings: JSONValue?, library: PhotoLibrary) throws -> ExportSettings {
    var values: [String: String] = [:]
    switch settings {
    case nil, .null?: break
    case let .object(members)?:
        guard members.count <= 64 else { throw Problem(.badRequest, code: "invalid-body", "\"settings\" has at most 64 members") }
        for (key, value) in members {
            switch value {
            case let .string(text): values[key] = text
            case let .number(n): values[key] = n == n.rounded() && abs(n) < 1e15 ? String(Int(n)) : String(n)
            case let .bool(b): values[key] = b ? "true" : "false"
            default: throw Problem(.badRequest, code: "invalid-export-settings", "setting \"\(key.prefix(64))\" must be a string, number or boolean")
            }
        }
    default:
        throw Problem(.badRequest, code: "invalid-body", "\"settings\" is an object of export settings by name")
    }
    let presetName: String?
    switch preset {
    case nil, .null?: presetName = nil
    case let .string(name)?: presetName = name
    default: throw Problem(.badRequest, code: "invalid-body", "\"preset\" is an export preset's name")
    }
    return try httpExportSettings(preset: presetName, values: values, library: library)
}

/// The policies HTTP serves: what a photo carries over HTTP is at most
/// `no-location` (location, people, regions and serial numbers are never
/// served, whoever asks).
let httpMetadataPolicies: [ExportMetadataPolicy] = [.copyright, .noLocation, .none]

/// The metadata policy of an HTTP render or export: `copyright` (the
/// copyright and the creator kept) when none is given; `all` is refused.
func httpMetadataPolicy(_ text: String?) throws -> ExportMetadataPolicy {
    guard let text else { return .copyright }
    guard let policy = ExportMetadataPolicy(rawValue: text.lowercased()), httpMetadataPolicies.contains(policy) else {
        let allowed = httpMetadataPolicies.map(\.rawValue).joined(separator: ", ")
        let why = text.lowercased() == "all" ? ": location, people and serial numbers are never served over HTTP" : ""
        throw Problem(.badRequest, code: "invalid-export-settings", "metadata '\(text.prefix(64))' is not \(allowed)\(why)")
    }
    return policy
}

/// The settings of an HTTP export or render: the HTTP default metadata
/// policy (`copyright`: the copyright and the contact kept, location and
/// people never), then the preset's values, then the request's. A preset
/// whose policy is `all` (every preset that names none) gets the default.
func httpExportSettings(preset: String?, values: [String: String], library: PhotoLibrary) throws -> ExportSettings {
    try refuseServerPaths(values)
    if let asked = values["metadata"] { _ = try httpMetadataPolicy(asked) }
    var base = ExportSettings()
    base.metadata = .copyright
    do {
        if let preset {
            let stored = try library.exportPreset(preset).settings
            // A preset that names no policy (`all`, the default) keeps the HTTP default.
            let metadata = stored.metadata == .all ? base.metadata : stored.metadata
            base = stored
            base.metadata = metadata
        }
        return try ExportSettings(values: values, base: base)
    } catch let error as PhotoEditError {
        throw Problem(.badRequest, code: "invalid-export-settings", error.description)
    }
}

/// Watermark images and ICC profiles name files on the server: an HTTP
/// request may not (a preset stored in the library may).
func refuseServerPaths(_ values: [String: String]) throws {
    if let mark = values["watermark"], mark.hasPrefix("@") {
        throw Problem(.badRequest, code: "invalid-export-settings", "a watermark image comes from a preset; a request gives a text")
    }
    if let profile = values["profile"], !["srgb", "display-p3", "adobe-rgb"].contains(profile.lowercased()) {
        throw Problem(.badRequest, code: "invalid-export-settings", "profile is srgb, display-p3 or adobe-rgb (a file profile comes from a preset)")
    }
}

/// A job's status as JSON.
func exportJobJSON(_ job: ExportJobs.Job) -> JSONValue {
    var members: [String: JSONValue] = [
        "id": .string(job.id), "state": .string(job.state.rawValue),
        "total": .number(Double(job.total)), "completed": .number(Double(job.completed)),
        "created": .string(ISO8601DateFormatter().string(from: job.created)),
        "settings": .object(job.settings.values.mapValues { .string($0) }),
        "files": .array(job.files.map { file in
            .object(["name": .string(file.name), "asset": .string(file.asset), "bytes": .number(Double(file.bytes)),
                     "width": .number(Double(file.width)), "height": .number(Double(file.height)),
                     "url": .string("/v1/exports/\(job.id)/files/\(pathComponent(file.name))")])
        }),
        "failures": .array(job.failures.map { .object(["asset": .string($0.asset), "reason": .string($0.reason)]) }),
        "zip": .string("/v1/exports/\(job.id)/zip"),
    ]
    members["finished"] = job.finished.map { .string(ISO8601DateFormatter().string(from: $0)) } ?? .null
    return .object(members)
}
#endif
