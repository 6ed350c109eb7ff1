// Only with the `Server` trait (Package.swift): without it the module is empty.
#if Server
import Foundation
import HTTPTypes
import Hummingbird
import PhotoEdit

/// `GET /v1/assets/{id}/render` with export settings (issue 38): `preset=`,
/// `metadata=`, a format the quick render path has not (`jxl`, `heic`,
/// `tiff`), or any export option (`long-edge`, `sharpen`, `watermark`,
/// `max-bytes`…). `w`/`h` are a fit box, `q` the quality. The metadata
/// policy defaults to `copyright` (copyright and contact kept; location,
/// people and serial numbers never: `all` is refused, `httpMetadataPolicy`).
/// Signed URLs cover every parameter.
enum ExportRender {
    /// The parameters that make a render an export (beside the quick path's).
    static let parameters: Set<String> = Set(ExportSettings.options.map(\.name)).subtracting(["format", "name", "size"]).union(["preset"])

    /// Whether a render request is an export (`metadata` alone is not: the
    /// quick path embeds every policy HTTP serves).
    static func wanted(_ query: [(key: String, value: String)]) -> Bool {
        query.contains { pair in
            (parameters.contains(pair.key) && pair.key != "metadata")
                || (pair.key == "format" && ImageEncoding(rawValue: pair.value) == nil && ExportFormat(rawValue: pair.value) != nil)
        }
    }

    /// The export's answer: the file, its media type, an ETag of the photo's
    /// revision and the settings.
    static func respond(id: String, query: [(key: String, value: String)], request: Request, state: ServerState) async throws -> Response {
        let library = state.library
        var values: [String: String] = [:]
        var preset: String?
        var rev: Int?
        for (key, value) in query {
            switch key {
            case "exp", "kid", "sig": continue
            case "preset": preset = value
            case "rev":
                guard let n = Int(value), n >= 0 else { throw Problem(.badRequest, code: "invalid-parameter", "rev is a revision number") }
                rev = n
            case "w", "h":
                guard let n = Int(value), (1...65_535).contains(n) else {
                    throw Problem(.badRequest, code: "invalid-parameter", "\(key) is 1 to 65535")
                }
                values[key] = String(n)
            case "q": values["quality"] = value
            case "version", "fit":
                throw Problem(.badRequest, code: "invalid-parameter", "\(key) is not taken with export settings (the current version, fitted)")
            default:
                guard parameters.contains(key) || key == "format" else {
                    throw Problem(.badRequest, code: "invalid-parameter",
                                  "unknown parameter '\(key.prefix(64))' (w, h, q, rev, preset and the export settings: \(parameters.sorted().joined(separator: ", ")))")
                }
                values[key] = value
            }
        }
        let w = values.removeValue(forKey: "w"), h = values.removeValue(forKey: "h")
        if let side = w ?? h { values["size"] = "\(w ?? side)x\(h ?? side)" }
        let settings = try httpExportSettings(preset: preset, values: values, library: library)
        let asset = try await blocking { try library.asset(id) }
        if let rev, rev != asset.revision {
            throw Problem(.notFound, code: "not-current-revision", "revision \(rev) is not the photo's current revision (\(asset.revision))",
                          extra: ["currentRevision": .number(Double(asset.revision))], headers: [.eTag: ETag.revision(asset.revision)])
        }
        // The size bound holds for exports as for renders.
        let full = (asset.pixelWidth, asset.pixelHeight)
        let target = settings.size.pixels(width: full.0, height: full.1, enlarge: settings.enlarge)
        guard target.width * target.height <= state.configuration.maxRenderPixels else {
            throw Problem(.unprocessableContent, code: "render-too-large",
                          "a render of \(target.width * target.height) pixels is more than the limit of \(state.configuration.maxRenderPixels)")
        }
        // The policy, and the library's title, caption… when the policy writes them (they change without a revision).
        let descriptive = ExportMetadata.usesLibraryMetadata(settings.metadata) ? ExportMetadata.digest(of: asset) : ""
        let digest = SHA256Digest.hex(of: Array((settings.canonicalText + "\n" + settings.metadata.rawValue + "\n" + descriptive).utf8)).prefix(16)
        let etag = "\"r\(asset.revision)-x\(digest)\""
        var headers: HTTPFields = [.eTag: etag]
        headers[.cacheControl] = rev != nil ? "public, max-age=31536000, immutable" : "private, no-cache"
        if let match = request.headers[.ifNoneMatch], ETag.matches(match, etag) {
            return Response(status: .notModified, headers: headers)
        }
        let key = "\(asset.id)/\(etag)"
        headers[.contentType] = settings.format.mediaType
        if let data = state.renderAnswers.get(key) {
            return Response(status: .ok, headers: headers, body: .init(byteBuffer: ByteBuffer(bytes: data)))
        }
        let image = try await state.renders.run {
            try await blocking {
                do {
                    return try library.exportImage(asset.id, settings: settings)
                } catch let error as PhotoEditError {
                    if case .invalidOutput = error { throw Problem(.unprocessableContent, code: "export-failed", error.description) }
                    throw error
                }
            }
        }
        state.renderAnswers.put(key, image.data)
        return Response(status: .ok, headers: headers, body: .init(byteBuffer: ByteBuffer(bytes: image.data)))
    }
}
#endif
