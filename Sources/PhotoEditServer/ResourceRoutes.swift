// Only with the `Server` trait (Package.swift): without it the module is empty.
#if Server
import Foundation
import HTTPTypes
import Hummingbird
import NIOCore
import PhotoEdit

/// The files behind a photo (PhotoKit's asset resources), listed and streamed.
///
/// `GET /v1/assets/{id}/resources` lists them; `GET /v1/assets/{id}/resources/{type}`
/// streams one (`photo`, `alternatePhoto`, `fullSizePhoto`, `adjustmentData`,
/// `adjustmentBasePhoto`) from the library's file, never whole in memory,
/// with an `ETag` (originals never change; the others change with the
/// revision), `Range` (one range) and `?rev=N` to insist on a revision.
func addResourceRoutes(_ v1: RouterGroup<ServerContext>, state: ServerState) {
    let library = state.library

    v1.get("assets/:id/resources") { _, context -> Response in
        let id = try context.parameters.require("id")
        let (asset, resources) = try await blocking { try consistentResources(library, id) }
        return jsonResponse(.object([
            "revision": .number(Double(asset.revision)),
            "resources": .array(resources.map { resourceJSON($0, revision: asset.revision) }),
        ]), headers: [.eTag: ETag.revision(asset.revision)])
    }

    v1.get("assets/:id/resources/:type") { request, context -> Response in
        let id = try context.parameters.require("id")
        let typeName = try context.parameters.require("type")
        guard let type = AssetResourceType(rawValue: typeName) else {
            throw Problem(.notFound, code: "unknown-resource-type",
                          "no resource type '\(typeName)' (\(AssetResourceType.allCases.map(\.rawValue).joined(separator: ", ")))")
        }
        let query = request.formQuery()
        let known: Set = ["rev", "exp", "kid", "sig"]
        if let unknown = query.map({ String($0.key) }).sorted().first(where: { !known.contains($0) }) {
            throw Problem(.badRequest, code: "invalid-parameter", "unknown parameter '\(unknown)' (rev)")
        }
        let asked = try integer(query, "rev", in: 0...Int(Int32.max))
        let (asset, data) = try await blocking { () -> (Asset, ResourceData) in
            let (asset, resources) = try consistentResources(library, id)
            if let asked, asked != asset.revision {
                throw Problem(.notFound, code: "not-current-revision",
                              "revision \(asked) is not the photo's current revision (\(asset.revision))",
                              extra: ["currentRevision": .number(Double(asset.revision))], headers: [.eTag: ETag.revision(asset.revision)])
            }
            guard let resource = resources.first(where: { $0.type == type }) else {
                throw Problem(.notFound, code: "no-such-resource", "photo \(asset.id) has no \(type.rawValue) resource at revision \(asset.revision)")
            }
            return (asset, try library.requestData(for: resource))
        }
        let resource = data.resource
        let etag = resourceETag(resource, revision: asset.revision)
        var headers: HTTPFields = [
            .eTag: etag,
            .contentType: mediaType(forUTI: resource.uniformTypeIdentifier),
            .contentDisposition: attachment(resource.originalFilename),
            .acceptRanges: "bytes",
            .xContentTypeOptions: "nosniff",
        ]
        // Originals never change; the other files belong to one revision.
        let immutable = resource.type == .photo || resource.type == .alternatePhoto || asked != nil
        headers[.cacheControl] = immutable ? "private, max-age=31536000, immutable" : "private, no-cache"
        if let match = request.headers[.ifNoneMatch], ETag.matches(match, etag) {
            return Response(status: .notModified, headers: headers)
        }
        let total = data.byteCount
        var range = 0..<total
        var status = HTTPResponse.Status.ok
        if let header = request.headers[.range], request.headers[.ifRange].map({ $0 == etag }) ?? true {
            switch ByteRange.parse(header, length: total) {
            case .whole: break
            case let .part(part):
                range = part
                status = .partialContent
                headers[.contentRange] = "bytes \(part.lowerBound)-\(part.upperBound - 1)/\(total)"
            case .unsatisfiable:
                throw Problem(.rangeNotSatisfiable, code: "range-not-satisfiable", "the file is \(total) bytes; the range asks outside it",
                              headers: [.contentRange: "bytes */\(total)"])
            }
        }
        headers[.contentLength] = String(range.count)
        let body = ResponseBody { [range] writer in
            var offset = 0
            for try await chunk in data {
                defer { offset += chunk.count }
                let start = max(range.lowerBound, offset)
                let end = min(range.upperBound, offset + chunk.count)
                if start < end {
                    try await writer.write(ByteBuffer(bytes: chunk[(chunk.startIndex + start - offset)..<(chunk.startIndex + end - offset)]))
                }
                if offset + chunk.count >= range.upperBound { break }
            }
            try await writer.finish(nil)
        }
        return Response(status: status, headers: headers, body: body)
    }
}

/// The photo and its resources, read at the same revision (read again if
/// an edit committed between the two reads).
func consistentResources(_ library: PhotoLibrary, _ id: String) throws -> (Asset, [AssetResource]) {
    var asset = try library.asset(id)
    for _ in 0..<5 {
        let resources = try library.resources(for: asset.id)
        let after = try library.asset(asset.id)
        if after.revision == asset.revision { return (after, resources) }
        asset = after
    }
    throw Problem(.serviceUnavailable, code: "busy-photo", "photo \(asset.id) is being edited continuously; try again",
                  headers: [.retryAfter: "1"])
}

/// A resource's entity tag: originals never change, the others are those of a revision.
func resourceETag(_ resource: AssetResource, revision: Int) -> String {
    switch resource.type {
    case .photo, .alternatePhoto: return "\"\(resource.type.rawValue)\""
    default: return "\"\(resource.type.rawValue)-r\(revision)\""
    }
}

func resourceJSON(_ resource: AssetResource, revision: Int) -> JSONValue {
    .object([
        "type": .string(resource.type.rawValue),
        "originalFilename": .string(resource.originalFilename),
        "uniformTypeIdentifier": .string(resource.uniformTypeIdentifier),
        "mediaType": .string(mediaType(forUTI: resource.uniformTypeIdentifier)),
        "fileSize": .number(Double(resource.fileSize)),
        "etag": .string(resourceETag(resource, revision: revision)),
        "url": .string("/v1/assets/\(resource.assetIdentifier)/resources/\(resource.type.rawValue)?rev=\(revision)"),
    ])
}

/// The media type of a uniform type identifier the engine gives.
func mediaType(forUTI uti: String) -> String {
    switch uti {
    case "public.jpeg": return "image/jpeg"
    case "public.png": return "image/png"
    case "public.tiff": return "image/tiff"
    case "org.webmproject.webp": return "image/webp"
    case "public.heic": return "image/heic"
    case "public.avif": return "image/avif"
    case "public.jpeg-xl": return "image/jxl"
    case "com.compuserve.gif": return "image/gif"
    case "public.jpeg-2000": return "image/jp2"
    case "public.json": return "application/json"
    default: return "application/octet-stream"
    }
}

/// `Content-Disposition: attachment` naming the file: a plain ASCII name
/// for every client, the exact name (RFC 5987) for those that read it.
func attachment(_ filename: String) -> String {
    let plain = String(filename.unicodeScalars.map { scalar -> Character in
        scalar.isASCII && scalar.value >= 0x20 && scalar != "\"" && scalar != "\\" && scalar.value != 0x7f ? Character(scalar) : "_"
    })
    let exact = filename.addingPercentEncoding(withAllowedCharacters: .alphanumerics.union(CharacterSet(charactersIn: ".-_"))) ?? plain
    return "attachment; filename=\"\(plain)\"; filename*=UTF-8''\(exact)"
}

/// One byte range of a `Range` header (RFC 9110 §14): several ranges are
/// answered whole (allowed, and simpler than multipart/byteranges).
enum ByteRange: Equatable {
    case whole
    case part(Range<Int>)
    case unsatisfiable

    static func parse(_ header: String, length: Int) -> ByteRange {
        let text = header.trimmingCharacters(in: .whitespaces)
        guard text.lowercased().hasPrefix("bytes="), !text.contains(",") else { return .whole }
        let spec = text.dropFirst(6).trimmingCharacters(in: .whitespaces)
        let sides = spec.split(separator: "-", maxSplits: 1, omittingEmptySubsequences: false).map(String.init)
        guard sides.count == 2 else { return .whole }
        let first = sides[0].isEmpty ? nil : Int(sides[0])
        let last = sides[1].isEmpty ? nil : Int(sides[1])
        if !sides[0].isEmpty && first == nil || !sides[1].isEmpty && last == nil { return .whole }   // not a number: ignore
        switch (first, last) {
        case let (start?, end):
            guard start >= 0, start < length else { return .unsatisfiable }
            let stop = min(length - 1, end ?? length - 1)
            guard stop >= start else { return .whole }   // invalid (last < first): ignored, as RFC 9110 says
            return .part(start..<(stop + 1))
        case let (nil, suffix?):
            guard suffix > 0, length > 0 else { return .unsatisfiable }
            return .part(max(0, length - suffix)..<length)
        case (nil, nil):
            return .whole
        }
    }
}
#endif
