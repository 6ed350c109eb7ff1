// Only with the `Server` trait (Package.swift): without it the module is empty.
#if Server
import Foundation
import HTTPTypes
import Hummingbird
import PhotoEdit

/// Renders through the caching image manager.
///
/// `GET /v1/assets/{id}/render?w=W&h=H&fit=fit|fill&format=jpeg|png|webp|avif&q=Q&version=current|unadjusted&rev=N&metadata=POLICY`
///
/// Every render carries the HTTP metadata policy (`httpMetadataPolicy`):
/// `copyright` by default, `no-location` or `none` when asked; never `all`
/// (location, people and serial numbers are never served over HTTP).
///
/// With `rev` (the photo's current revision) the URL names one image for
/// ever: `Cache-Control: immutable`, a year. Without it the answer is the
/// current version, revalidated through its ETag. The format follows
/// `format`, else `Accept` (WebP when accepted, else JPEG): `Vary: Accept`.
func addRenderRoutes(_ v1: RouterGroup<ServerContext>, state: ServerState) {
    let library = state.library

    // GET /v1/assets/{id}/render-url?<render parameters>&ttl=SECONDS: the
    // render's URL signed with the first key, valid ttl seconds (default an
    // hour, at most a year), for a browser or CDN to fetch without a token.
    v1.get("assets/:id/render-url") { request, context -> Response in
        let id = try context.parameters.require("id")
        let query = request.formQuery()
        let ttl = try integer(query, "ttl", in: 1...31_536_000) ?? 3600
        let renderKeys = Set(["w", "h", "fit", "format", "q", "version", "rev"]).union(ExportRender.parameters)
        var kept: [String] = []
        for pair in (request.uri.query ?? "").split(separator: "&") where !pair.isEmpty {
            let key = FormQuery.decode(pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)[0])
            if key == "ttl" { continue }
            guard renderKeys.contains(key) else {
                throw Problem(.badRequest, code: "invalid-parameter", "unknown parameter '\(key.prefix(64))' (w, h, fit, format, q, version, rev, ttl, preset and the export settings)")
            }
            kept.append(String(pair))
        }
        let asset = try await blocking { try library.asset(id) }
        let path = "/v1/assets/\(asset.id)/render" + (kept.isEmpty ? "" : "?" + kept.joined(separator: "&"))
        let expires = Date().addingTimeInterval(TimeInterval(ttl))
        guard let url = state.configuration.signer.sign(path, expires: expires) else {
            throw Problem(.conflict, code: "no-signing-keys",
                          "this server signs no URLs (it has no signing keys; GET /v1/capabilities says so): fetch /v1/assets/{id}/render itself")
        }
        return jsonResponse(.object(["url": .string(url), "expires": .string(ISO8601DateFormatter().string(from: expires))]))
    }

    // GET /v1/assets/{id}/preview?chain=…&w=1024&reset=false&q=85: the chain
    // on top of the current recipe, rendered small and fast, not committed
    // (what an editor's sliders call). Always JPEG, never cached.
    v1.get("assets/:id/preview") { request, context -> Response in
        let id = try context.parameters.require("id")
        let query = request.formQuery()
        let known: Set = ["chain", "w", "reset", "q"]
        if let unknown = query.map({ String($0.key) }).sorted().first(where: { !known.contains($0) }) {
            throw Problem(.badRequest, code: "invalid-parameter", "unknown parameter '\(unknown)' (chain, w, reset, q)")
        }
        let chain = query.get("chain") ?? ""
        guard chain.utf8.count <= 16_384 else {
            throw Problem(.badRequest, code: "invalid-parameter", "a chain is at most 16384 bytes")
        }
        let steps = chain.isEmpty ? [] : try Chain.parse(chain)
        let longEdge = try integer(query, "w", in: 16...4096) ?? 1024
        let quality = try integer(query, "q", in: 1...100) ?? 85
        let reset: Bool
        switch query.get("reset") {
        case nil, "false": reset = false
        case "true": reset = true
        default: throw Problem(.badRequest, code: "invalid-parameter", "reset must be true or false")
        }
        let image = try await state.renders.run {
            try await blocking { try library.preview(id, steps: steps, longEdge: longEdge, reset: reset, presets: library.presets(), quality: quality) }
        }
        return Response(status: .ok, headers: [.contentType: "image/jpeg", .cacheControl: "no-store"],
                        body: .init(byteBuffer: ByteBuffer(bytes: image.data)))
    }

    // GET /v1/assets/{id}/upright?mode=auto: what the chain step
    // `upright=MODE` would write (the perspective solved from the photo's
    // lines, or why none); nothing is written. Measuring is a render's work.
    v1.get("assets/:id/upright") { request, context -> Response in
        let id = try context.parameters.require("id")
        let query = request.formQuery()
        if let unknown = query.map({ String($0.key) }).sorted().first(where: { $0 != "mode" }) {
            throw Problem(.badRequest, code: "invalid-parameter", "unknown parameter '\(unknown)' (mode)")
        }
        let modeName = query.get("mode") ?? UprightMode.auto.rawValue
        guard let mode = UprightMode(rawValue: modeName) else {
            throw Problem(.badRequest, code: "invalid-parameter",
                          "mode must be one of \(UprightMode.allCases.map(\.rawValue).joined(separator: ", "))")
        }
        let found = try await state.renders.run {
            try await blocking { try library.uprightAdjustment(for: id, mode: mode) }
        }
        return jsonResponse(found.json)
    }

    v1.get("assets/:id/render") { request, context -> Response in
        let id = try context.parameters.require("id")
        let query = request.formQuery()
        // Export settings (preset, metadata, jxl, long-edge, sharpen…): the export path (Export/ExportRender.swift).
        let pairs = query.map { (key: String($0.key), value: String($0.value)) }
        if ExportRender.wanted(pairs) {
            return try await ExportRender.respond(id: id, query: pairs, request: request, state: state)
        }
        let known: Set = ["w", "h", "fit", "format", "q", "version", "rev", "metadata", "exp", "kid", "sig"]
        if let unknown = query.map({ String($0.key) }).sorted().first(where: { !known.contains($0) }) {
            throw Problem(.badRequest, code: "invalid-parameter", "unknown parameter '\(unknown)' (w, h, fit, format, q, version, rev, metadata)")
        }
        let metadata = try httpMetadataPolicy(query.get("metadata"))
        let width = try integer(query, "w", in: 1...65_535)
        let height = try integer(query, "h", in: 1...65_535)
        let fit = try query.get("fit").map { text -> ImageContentMode in
            guard let mode = ImageContentMode(rawValue: text) else { throw Problem(.badRequest, code: "invalid-parameter", "fit must be fit or fill") }
            return mode
        } ?? .aspectFit
        let version = try query.get("version").map { text -> ImageVersion in
            guard let version = ImageVersion(rawValue: text), version != .original else {
                throw Problem(.badRequest, code: "invalid-parameter", "version must be current or unadjusted")
            }
            return version
        } ?? .current
        let encoding = try query.get("format").map { text -> ImageEncoding in
            guard let encoding = ImageEncoding(rawValue: text) else {
                throw Problem(.badRequest, code: "invalid-parameter", "format must be one of \(ImageEncoding.allCases.map(\.rawValue).joined(separator: ", "))")
            }
            return encoding
        } ?? negotiated(request.headers[.accept])
        let quality = try integer(query, "q", in: 1...100) ?? 85
        let asked = try integer(query, "rev", in: 0...Int(Int32.max))

        let asking = RenderRequest(width: width, height: height, fit: fit, version: version, encoding: encoding,
                                   quality: quality, metadata: metadata, revision: asked, ifNoneMatch: request.headers[.ifNoneMatch])
        // A revision-addressed URL names one image for ever: its warm hit is
        // answered from memory, without reading the catalog (RevisionMemo).
        // (Not for `no-location`: it writes the library's title, caption…,
        // which change without a revision; its ETag holds their digest.)
        if let asked, metadata != .noLocation, let known = state.revisions.subject(id), known.revision == asked,
           let response = try asking.answer(known, descriptive: nil, state: state).cached(state: state) {
            state.revisions.countAnswer()
            return response
        }
        let generation = state.revisions.generation
        let found = try await blocking { try library.asset(id) }
        let asset = RevisionMemo.Subject(found)
        let descriptive = ExportMetadata.usesLibraryMetadata(metadata) ? ExportMetadata.digest(of: found) : nil
        if let asked, asked != asset.revision {
            throw Problem(.notFound, code: "not-current-revision",
                          "revision \(asked) is not the photo's current revision (\(asset.revision))",
                          extra: ["currentRevision": .number(Double(asset.revision))], headers: [.eTag: ETag.revision(asset.revision)])
        }
        if asked != nil { state.revisions.remember(id, asset, readAt: generation) }
        let answer = try asking.answer(asset, descriptive: descriptive, state: state)
        if let response = answer.cached(state: state) { return response }
        let target = answer.target, headers = answer.headers
        let data = try await state.renders.run {
            // Encoded once, from the pixels, at the format and quality asked
            // (never a cached JPEG decoded and encoded again).
            let options = ImageRequestOptions(version: version, deliveryMode: .highQuality, resizeMode: .exact)
            let (data, fromCache) = try await blocking {
                try state.images.requestEncodedImage(for: asset.id, targetSize: target, contentMode: fit, options: options,
                                                     encoding: encoding, quality: quality, metadata: metadata)
            }
            state.metrics.render(fromCache: fromCache)
            return data
        }
        state.renderAnswers.put(answer.key, data)
        return Response(status: .ok, headers: headers, body: .init(byteBuffer: ByteBuffer(bytes: data)))
    }
}

/// What a render request asks for, once its parameters are checked.
private struct RenderRequest {
    let width: Int?
    let height: Int?
    let fit: ImageContentMode
    let version: ImageVersion
    let encoding: ImageEncoding
    let quality: Int
    /// The metadata the answer carries (`httpMetadataPolicy`).
    let metadata: ExportMetadataPolicy
    /// The `rev` the URL names (nil: the current version, revalidated).
    let revision: Int?
    let ifNoneMatch: String?

    /// The answer for `asset`: its size (bounded by the pixel limit), ETag
    /// and headers; `descriptive` is the digest of the library metadata
    /// the policy writes (`ExportMetadata.digest(of:)`), if it writes any.
    func answer(_ asset: RevisionMemo.Subject, descriptive: String?, state: ServerState) throws -> RenderAnswer {
        // The size asked for (the full size when none).
        let target = ImageSize(width: width ?? height ?? asset.pixelWidth, height: height ?? width ?? asset.pixelHeight)
        let pixels = min(target.width, asset.pixelWidth) * min(target.height, asset.pixelHeight)
        guard pixels <= state.configuration.maxRenderPixels else {
            throw Problem(.unprocessableContent, code: "render-too-large",
                          "a render of \(pixels) pixels is more than the limit of \(state.configuration.maxRenderPixels)")
        }
        let etag = "\"r\(asset.revision)-\(version.rawValue)-\(target)-\(fit.rawValue)-\(encoding.rawValue)-q\(quality)-m\(metadata.rawValue)\(descriptive.map { "." + $0 } ?? "")\""
        var headers: HTTPFields = [.eTag: etag, .vary: "Accept"]
        headers[.cacheControl] = revision != nil ? "public, max-age=31536000, immutable" : "private, no-cache"
        let notModified = ifNoneMatch.map { ETag.matches($0, etag) } ?? false
        if !notModified { headers[.contentType] = encoding.mediaType }
        return RenderAnswer(target: target, key: "\(asset.id)/\(etag)", headers: headers, notModified: notModified)
    }
}

/// A render answer before its bytes: found in memory, or rendered.
private struct RenderAnswer {
    let target: ImageSize
    /// The answer cache's key: the photo and the ETag (revision, size, format, quality, metadata policy).
    let key: String
    let headers: HTTPFields
    /// The client holds it already (`If-None-Match`).
    let notModified: Bool

    /// 304, or the bytes from the answer cache; nil when they must be rendered.
    func cached(state: ServerState) -> Response? {
        if notModified { return Response(status: .notModified, headers: headers) }
        guard let data = state.renderAnswers.get(key) else { return nil }
        state.metrics.render(fromCache: true)
        return Response(status: .ok, headers: headers, body: .init(byteBuffer: ByteBuffer(bytes: data)))
    }
}

/// The format an `Accept` header prefers among those the server encodes
/// quickly: WebP when accepted, else JPEG.
func negotiated(_ accept: String?) -> ImageEncoding {
    guard let accept else { return .jpeg }
    return accept.contains("image/webp") ? .webp : .jpeg
}
#endif
