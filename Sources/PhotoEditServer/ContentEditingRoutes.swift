// Only with the `Server` trait (Package.swift): without it the module is empty.
#if Server
import Foundation
import HTTPTypes
import Hummingbird
import MultipartKit
import NIOCore
import PhotoEdit
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// PhotoKit's content-editing model over HTTP, for editors in any language.
///
/// 1. `POST /v1/assets/{id}/editing-input` with the formats the editor
///    handles (`{"formats": [{"formatIdentifier": "com.example.app",
///    "formatVersions": ["1.0"]}]}`) answers the photo's adjustment data
///    (base64, byte for byte), the base image to edit (a resource URL: the
///    image before the last edit when the editor handles its data, else the
///    current render), its orientation, the revision and the `base` to
///    send back.
/// 2. `POST /v1/assets/{id}/edits` as `multipart/form-data` with `If-Match`
///    (the input's revision) and the parts `adjustmentData` (JSON, as in the
///    input), `base` (the input's) and `render` (the edited JPEG, upright)
///    commits a new revision as `ContentEditingOutput` does in the library:
///    the JPEG is decoded whole before anything is committed; a stale
///    `If-Match` is 412 with the current revision.
func addContentEditingRoutes(_ v1: RouterGroup<ServerContext>, state: ServerState) {
    let library = state.library

    v1.post("assets/:id/editing-input") { request, context -> Response in
        let id = try context.parameters.require("id")
        let body = try await jsonBody(request, state: state, allowEmpty: true)
        let wish = try EditingInputRequest(json: body)
        let input = try await blocking {
            try library.requestContentEditingInput(for: id, options: wish.options)
        }
        let kind = resourceType(of: input.base, revision: input.revision)
        let path = "/v1/assets/\(input.assetIdentifier)/resources/\(kind.rawValue)?rev=\(input.revision)"
        var baseImage: [String: JSONValue] = [
            "url": .string(path),
            "resourceType": .string(kind.rawValue),
            "orientation": .number(Double(input.fullSizeImageOrientation)),
            "uniformTypeIdentifier": .string(input.uniformTypeIdentifier),
            "mediaType": .string(mediaType(forUTI: input.uniformTypeIdentifier)),
        ]
        let expires = Date().addingTimeInterval(3600)
        if let signed = state.configuration.signer.sign(path, expires: expires) {
            baseImage["signedURL"] = .string(signed)
            baseImage["signedURLExpires"] = .string(ISO8601DateFormatter().string(from: expires))
        }
        let object: [String: JSONValue] = [
            "assetId": .string(input.assetIdentifier),
            "revision": .number(Double(input.revision)),
            "etag": .string(ETag.revision(input.revision)),
            "adjustmentData": input.adjustmentData.map(adjustmentDataJSON) ?? .null,
            "canHandleAdjustmentData": .bool(input.canHandleAdjustmentData),
            "base": .string(input.base.token),
            "baseImage": .object(baseImage),
            "fullSizeImageOrientation": .number(Double(input.fullSizeImageOrientation)),
            "uniformTypeIdentifier": .string(input.uniformTypeIdentifier),
            "mediaType": .string(input.mediaType),
            "creationDate": input.creationDate.map(JSONValue.string) ?? .null,
            "location": input.location.map { .object(["latitude": .number($0.latitude), "longitude": .number($0.longitude)]) } ?? .null,
        ]
        return jsonResponse(.object(object), headers: [.eTag: ETag.revision(input.revision)])
    }
}

/// `POST /v1/assets/{id}/edits` with a multipart body: commits an editor's
/// output (adjustment data + rendered JPEG). Called by the edits route
/// when the body is `multipart/form-data`.
func commitEditingOutput(_ request: Request, id: String, expected precondition: Precondition, state: ServerState) async throws -> Response {
    let library = state.library
    guard let boundary = multipartBoundary(request.headers[.contentType]) else {
        throw Problem(.badRequest, code: "invalid-multipart", "multipart/form-data needs a boundary of 1 to 70 characters")
    }
    // Refused before the body is read when the photo is unknown or has moved
    // on: one read resolves the id, checks `If-Match` (revision and, for a
    // whole ETag, metadata) on the photo as it finds it, and gives the
    // editing input from the original (what the web editor's output is on).
    // That read's snapshot gives the input of whichever base the body
    // names, without reading again.
    var originalOptions = ContentEditingInputRequestOptions(displaySize: nil)
    originalOptions.startFromOriginal = true
    let (snapshot, fromOriginal) = try await blocking { [originalOptions] in
        let snapshot = try library.editingSnapshot(for: id, precondition: { try check($0, expected: precondition, library: library) })
        return (snapshot, try library.contentEditingInput(from: snapshot, options: originalOptions))
    }
    let assetID = fromOriginal.assetIdentifier
    let expected = precondition.revision
    if let length = request.headers[.contentLength].flatMap({ Int64($0) }), length > state.configuration.maxUploadBytes {
        throw Problem(.contentTooLarge, code: "upload-too-large",
                      "the upload is \(length) bytes; the limit is \(state.configuration.maxUploadBytes)")
    }
    // The render is streamed into the library's staging folder, where the
    // output's own file will be (a rename, no copy); a crash leaves a file
    // the library sweeps.
    let staging = fromOriginal.stagingRenderURL
    let upload = try OutputUpload(boundary: boundary, renderPath: staging.path,
                                  maxRenderBytes: state.configuration.maxUploadBytes, maxJSONBytes: state.configuration.maxJSONBytes)
    do {
        try await commitEditingOutput(upload, request: request, snapshot: snapshot, fromOriginal: fromOriginal,
                                      expected: expected, library: library)
    } catch {
        await upload.discard()
        throw error
    }
    let after = try await blocking { try library.asset(assetID) }
    return assetResponse(try assetJSON(after, library: library))
}

/// Reads the body into `upload` (the render written on the executor as it
/// comes) and commits it as the photo's next revision.
private func commitEditingOutput(_ upload: OutputUpload, request: Request, snapshot: EditingSnapshot,
                                 fromOriginal: ContentEditingInput, expected: Int, library: PhotoLibrary) async throws {
    let assetID = fromOriginal.assetIdentifier
    for try await buffer in request.body {
        try upload.feed(buffer)
        try await upload.writePending()
    }
    let parts = try upload.finish()
    try await upload.writePending()
    let data = try adjustmentData(parts.adjustmentData)
    let base = try ContentEditingBase(token: parts.base)
    let renderPath = upload.renderPath
    try await conditionalWrite(assetID, expected: Precondition(revision: expected, tag: nil), library: library) {
        var options = ContentEditingInputRequestOptions(displaySize: nil)
        switch base {
        case .original: options.startFromOriginal = true
        case .alternate: options = options.startingFrom(alternate: true)
        case let .render(k):
            // The current render is the base of an editor that did not
            // handle the data; an earlier one, of one that did.
            options.canHandleAdjustmentData = { _ in k != expected }
        }
        // Made from the read before the body (the commit checks the photo
        // is still at its revision): no second read, whatever the base.
        let input = base == .original ? fromOriginal : try library.contentEditingInput(from: snapshot, options: options)
        guard input.revision == expected else {
            throw PhotoEditError.conflict(asset: assetID, expected: expected, actual: input.revision)
        }
        guard input.base == base else {
            throw Problem(.conflict, code: "invalid-base",
                          "the base '\(base.token)' is not one an editing input of revision \(expected) offers (it offers '\(input.base.token)'); send the editing input's base")
        }
        var output = ContentEditingOutput(contentEditingInput: input)
        output.adjustmentData = data
        guard rename(renderPath, output.renderedContentURL.path) == 0 else {
            throw PhotoEditError.library("cannot stage the render: \(String(cString: strerror(errno)))")
        }
        do {
            // One write: the output committed as the photo's next revision
            // (no change request, which would read the photo's flags first).
            try library.commit(output)
        } catch PhotoEditError.invalidChange(let reason) {
            // The render is not an upright image the engine decodes whole.
            unlink(output.renderedContentURL.path)
            throw Problem(.unprocessableContent, code: "unusable-render", PhotoEditError.invalidChange(reason).description)
        } catch {
            unlink(output.renderedContentURL.path)
            throw error
        }
    }
}

/// What an editor asks of `editing-input`.
struct EditingInputRequest {
    /// (format identifier, versions) the editor handles.
    var formats: [(identifier: String, versions: Set<String>)] = []
    var startFromOriginal = false
    var fromRAW: Bool?

    init(json: JSONValue) throws {
        let members: [String: JSONValue]
        switch json {
        case let .object(object): members = object
        case .array: members = ["formats": json]   // the list alone
        default: throw Problem(.badRequest, code: "invalid-body", "expected {\"formats\": [{\"formatIdentifier\": …, \"formatVersions\": […]}]}")
        }
        let known: Set = ["formats", "startFromOriginal", "fromRAW"]
        if let unknown = members.keys.sorted().first(where: { !known.contains($0) }) {
            throw Problem(.badRequest, code: "invalid-body", "unknown member \"\(unknown)\" (formats, startFromOriginal, fromRAW)")
        }
        if let list = members["formats"] {
            guard case let .array(items) = list, items.count <= 64 else {
                throw Problem(.badRequest, code: "invalid-body", "\"formats\" must be an array of at most 64 formats")
            }
            formats = try items.map { item in
                guard case let .object(format) = item, case let .string(identifier)? = format["formatIdentifier"],
                      (1...256).contains(identifier.utf8.count), case let .array(versions)? = format["formatVersions"],
                      versions.count <= 64, Set(format.keys).isSubset(of: ["formatIdentifier", "formatVersions"])
                else {
                    throw Problem(.badRequest, code: "invalid-body",
                                  "each format is {\"formatIdentifier\": \"com.example.app\", \"formatVersions\": [\"1.0\"]} (at most 64 versions)")
                }
                return (identifier, Set(try strings(versions, "formatVersions")))
            }
        }
        startFromOriginal = try optionalBool(members, "startFromOriginal") ?? false
        fromRAW = try optionalBool(members, "fromRAW")
    }

    var options: ContentEditingInputRequestOptions {
        let formats = self.formats.map { ($0.identifier, $0.versions) }
        var options = ContentEditingInputRequestOptions(canHandleAdjustmentData: { data in
            formats.contains { $0.0 == data.formatIdentifier && $0.1.contains(data.formatVersion) }
        }, startFromOriginal: startFromOriginal, displaySize: nil)
        if let fromRAW { options = options.startingFrom(alternate: fromRAW) }
        return options
    }
}

/// Adjustment data as JSON: `data` is base64 whatever it holds, so any
/// bytes travel unchanged.
func adjustmentDataJSON(_ data: AdjustmentData) -> JSONValue {
    .object([
        "formatIdentifier": .string(data.formatIdentifier),
        "formatVersion": .string(data.formatVersion),
        "data": .string(data.data.base64EncodedString()),
        "dataEncoding": .string("base64"),
    ])
}

/// The `adjustmentData` part: `{formatIdentifier, formatVersion, data, dataEncoding}`,
/// `data` base64 (the default) or UTF-8 text (`"dataEncoding": "utf8"`).
func adjustmentData(_ bytes: Data) throws -> AdjustmentData {
    func invalid(_ why: String) -> Problem {
        Problem(.badRequest, code: "invalid-adjustment-data-part", "the adjustmentData part: \(why)")
    }
    guard case let .object(members)? = try? JSONValue.parse(bytes) else {
        throw invalid("expected a JSON object {\"formatIdentifier\", \"formatVersion\", \"data\", \"dataEncoding\"}")
    }
    if let unknown = members.keys.sorted().first(where: { !["formatIdentifier", "formatVersion", "data", "dataEncoding"].contains($0) }) {
        throw invalid("unknown member \"\(unknown)\"")
    }
    guard case let .string(identifier)? = members["formatIdentifier"], (1...256).contains(identifier.utf8.count) else {
        throw invalid("\"formatIdentifier\" must be a string of 1 to 256 bytes")
    }
    guard case let .string(version)? = members["formatVersion"], (1...64).contains(version.utf8.count) else {
        throw invalid("\"formatVersion\" must be a string of 1 to 64 bytes")
    }
    guard case let .string(text)? = members["data"] else { throw invalid("\"data\" must be a string") }
    let data: Data
    switch members["dataEncoding"] {
    case nil, .string("base64")?:
        guard let decoded = Data(base64Encoded: text) else { throw invalid("\"data\" is not base64") }
        data = decoded
    case .string("utf8")?:
        data = Data(text.utf8)
    default:
        throw invalid("\"dataEncoding\" must be \"base64\" or \"utf8\"")
    }
    return AdjustmentData(formatIdentifier: identifier, formatVersion: version, data: data)
}

/// The resource an editing input's base image is.
func resourceType(of base: ContentEditingBase, revision: Int) -> AssetResourceType {
    switch base {
    case .original: return .photo
    case .alternate: return .alternatePhoto
    case let .render(k): return k == revision ? .fullSizePhoto : .adjustmentBasePhoto
    }
}

extension ContentEditingBase {
    /// How the API names a base: `original`, `alternate`, `render:K`.
    var token: String {
        switch self {
        case .original: return "original"
        case .alternate: return "alternate"
        case let .render(k): return "render:\(k)"
        }
    }

    init(token: String?) throws {
        switch token {
        case "original"?: self = .original
        case "alternate"?: self = .alternate
        case nil:
            throw Problem(.badRequest, code: "invalid-multipart", "the part 'base' is missing (the editing input's base: original, alternate or render:N)")
        case let text?:
            guard text.hasPrefix("render:"), let revision = Int(text.dropFirst(7)), revision >= 0 else {
                throw Problem(.badRequest, code: "invalid-multipart", "the part 'base' must be original, alternate or render:N")
            }
            self = .render(revision: revision)
        }
    }
}

extension ContentEditingInput {
    /// Where an upload of this photo's edited render is staged (a name the
    /// library sweeps if it is abandoned).
    var stagingRenderURL: URL {
        ContentEditingOutput(contentEditingInput: self).renderedContentURL
    }
}

/// The boundary of a `multipart/form-data` content type, or nil.
func multipartBoundary(_ contentType: String?) -> String? {
    guard let contentType else { return nil }
    for parameter in contentType.split(separator: ";").dropFirst() {
        let pair = parameter.split(separator: "=", maxSplits: 1).map { $0.trimmingCharacters(in: .whitespaces) }
        guard pair.count == 2, pair[0].lowercased() == "boundary" else { continue }
        let value = pair[1].trimmingCharacters(in: CharacterSet(charactersIn: "\""))
        return (1...70).contains(value.utf8.count) && value.allSatisfy({ $0.isASCII && $0 != "\r" && $0 != "\n" }) ? value : nil
    }
    return nil
}

func isMultipart(_ contentType: String?) -> Bool {
    contentType?.lowercased().trimmingCharacters(in: .whitespaces).hasPrefix("multipart/form-data") == true
}

/// Reads an output upload: the small parts into memory (bounded), the
/// render to its staging file. Every part and header is bounded: a hostile
/// body ends in one 4xx line, never in memory growth. The parser only
/// gathers the render's bytes; `writePending` writes them on the
/// ``BlockingExecutor`` (no file call on Swift's cooperative pool), 256 KiB
/// at a time.
final class OutputUpload {
    struct Parts {
        var adjustmentData: Data
        var base: String?
    }

    let renderPath: String
    private let parser: MultipartParser
    private let maxRenderBytes: Int64
    private let maxJSONBytes: Int
    private var failure: Problem?
    /// Headers of the part being read; nil once its body started.
    private var headers: [(String, String)]? = []
    private var headerBytes = 0
    private var current: String?
    private var small = Data()
    private var completed: [String: Data] = [:]
    /// The staging file, once the render part began and it was opened.
    private var render: RenderFile?
    /// Whether the render part began and its file is still to be opened.
    private var renderToOpen = false
    private var renderBuffer: [UInt8] = []
    /// Pieces of the render gathered, not written yet.
    private var pieces: [[UInt8]] = []
    private var renderBytes: Int64 = 0
    private var renderDone = false
    private var renderStart: [UInt8] = []

    static let maxHeaderBytes = 32 * 1024
    static let sliceBytes = 8 * 1024
    static let smallPartBytes: [String: Int] = ["base": 64]

    init(boundary: String, renderPath: String, maxRenderBytes: Int64, maxJSONBytes: Int) throws {
        self.renderPath = renderPath
        self.maxRenderBytes = maxRenderBytes
        self.maxJSONBytes = maxJSONBytes
        parser = MultipartParser(boundary: boundary)
        parser.onHeader = { [unowned self] name, value in
            headers?.append((name, value))
            if (headers?.count ?? 0) > 16 { fail(Problem(.badRequest, code: "invalid-multipart", "a part has more than 16 headers")) }
        }
        parser.onBody = { [unowned self] buffer in
            if headers != nil { begin() }
            body(buffer.readableBytesView)
        }
        parser.onPartComplete = { [unowned self] in
            if headers != nil { begin() }
            end()
        }
    }

    func feed(_ buffer: ByteBuffer) throws {
        // Fed in slices so that the bytes spent in headers (and the
        // preamble), which the parser collects in memory, are counted
        // closely: at most one slice too many.
        var buffer = buffer
        while let slice = buffer.readSlice(length: min(buffer.readableBytes, Self.sliceBytes)), slice.readableBytes > 0 {
            if let failure { throw failure }
            do {
                try parser.execute(slice)
            } catch {
                throw Problem(.badRequest, code: "invalid-multipart", "the multipart body is malformed")
            }
            if headers != nil {
                headerBytes += slice.readableBytes
                if headerBytes > Self.maxHeaderBytes {
                    throw Problem(.badRequest, code: "invalid-multipart", "a part's headers are longer than \(Self.maxHeaderBytes) bytes")
                }
            }
        }
        if let failure { throw failure }
    }

    func finish() throws -> Parts {
        if let failure { throw failure }
        guard renderDone else {
            throw Problem(.badRequest, code: "invalid-multipart", "the part 'render' (the edited JPEG) is missing or incomplete")
        }
        guard let data = completed["adjustmentData"] else {
            throw Problem(.badRequest, code: "invalid-multipart", "the part 'adjustmentData' is missing or incomplete")
        }
        return Parts(adjustmentData: data, base: completed["base"].map { String(decoding: $0, as: UTF8.self) })
    }

    /// Opens the staging file when the render part began and writes the
    /// pieces gathered since, on the executor; a failure is the upload's
    /// problem (500 when the file cannot be made, 507 when it cannot be written).
    func writePending() async throws {
        if let failure { throw failure }
        if renderToOpen {
            renderToOpen = false
            let path = renderPath
            do {
                render = try await BlockingExecutor.run { try RenderFile(path: path) }
            } catch {
                throw fail(Problem(.internalServerError, code: "staging-failed", "cannot stage the render: \(error)"))
            }
        }
        // The render's part ended: its file is closed once written.
        let last = renderDone
        guard let render, !pieces.isEmpty || last else { return }
        let written = pieces
        pieces.removeAll()
        if last { self.render = nil }
        do {
            try await BlockingExecutor.run {
                for piece in written { try render.write(piece) }
                if last { render.close() }
            }
        } catch {
            throw fail(Problem(HTTPResponse.Status(code: 507, reasonPhrase: "Insufficient Storage"), code: "storage-full",
                               "cannot write the render: \(error)"))
        }
    }

    /// Removes the staged render if it was not committed (on the executor).
    func discard() async {
        let (render, path) = (self.render, renderPath)
        self.render = nil
        _ = try? await BlockingExecutor.run {
            render?.close()
            unlink(path)
        }
    }

    /// Records the upload's first problem; returns the one recorded.
    @discardableResult
    private func fail(_ problem: Problem) -> Problem {
        if let failure { return failure }
        failure = problem
        return problem
    }

    private func begin() {
        let fields = headers ?? []
        headers = nil
        headerBytes = 0
        guard failure == nil else { return }
        let disposition = fields.first { $0.0.lowercased() == "content-disposition" }?.1 ?? ""
        guard let name = dispositionName(disposition) else {
            fail(Problem(.badRequest, code: "invalid-multipart", "every part needs Content-Disposition: form-data; name=\"…\""))
            return
        }
        guard ["adjustmentData", "base", "render"].contains(name) else {
            fail(Problem(.badRequest, code: "invalid-multipart", "unknown part '\(name.prefix(64))' (adjustmentData, base, render)"))
            return
        }
        guard completed[name] == nil, !(name == "render" && renderDone) else {
            fail(Problem(.badRequest, code: "invalid-multipart", "the part '\(name)' is given twice"))
            return
        }
        current = name
        small = Data()
        if name == "render" {
            let type = fields.first { $0.0.lowercased() == "content-type" }?.1.lowercased()
            if let type, !type.hasPrefix("image/jpeg") && !type.hasPrefix("application/octet-stream") {
                fail(Problem(.unsupportedMediaType, code: "unsupported-render-type",
                             "the render must be a JPEG (image/jpeg), not \(type.prefix(64))"))
                return
            }
            renderToOpen = true
        }
    }

    private func body(_ bytes: ByteBufferView) {
        guard failure == nil, let current else { return }
        if current == "render" {
            renderBytes += Int64(bytes.count)
            if renderBytes > maxRenderBytes {
                fail(Problem(.contentTooLarge, code: "upload-too-large", "the render is larger than the limit of \(maxRenderBytes) bytes"))
                return
            }
            renderBuffer.append(contentsOf: bytes)
            if renderStart.count < 3 { renderStart.append(contentsOf: bytes.prefix(3 - renderStart.count)) }
            if renderBuffer.count >= 256 * 1024 { flush() }
        } else {
            let limit = Self.smallPartBytes[current] ?? maxJSONBytes
            guard small.count + bytes.count <= limit else {
                fail(Problem(.contentTooLarge, code: "part-too-large", "the part '\(current)' is larger than \(limit) bytes"))
                return
            }
            small.append(contentsOf: bytes)
        }
    }

    /// Hands the render's gathered bytes to `writePending`.
    private func flush() {
        guard !renderBuffer.isEmpty else { return }
        pieces.append(renderBuffer)
        renderBuffer.removeAll(keepingCapacity: true)
    }

    private func end() {
        defer {
            current = nil
            headers = []
        }
        guard failure == nil, let current else { return }
        if current == "render" {
            flush()
            guard renderStart == [0xFF, 0xD8, 0xFF] else {
                fail(Problem(.unsupportedMediaType, code: "unsupported-render-type", "the render is not a JPEG file"))
                return
            }
            renderDone = true
        } else {
            completed[current] = small
        }
    }
}

/// `name="…"` of a part's Content-Disposition.
func dispositionName(_ header: String) -> String? {
    for parameter in header.split(separator: ";").dropFirst() {
        let pair = parameter.split(separator: "=", maxSplits: 1).map { $0.trimmingCharacters(in: .whitespaces) }
        guard pair.count == 2, pair[0].lowercased() == "name" else { continue }
        let name = pair[1].trimmingCharacters(in: CharacterSet(charactersIn: "\""))
        return name.isEmpty ? nil : name
    }
    return nil
}

/// The render's staging file, written a piece at a time on the executor
/// and closed by `close()` or when it goes.
final class RenderFile: Sendable {
    let path: String
    private let fd: Mutex<Int32>

    init(path: String) throws {
        let fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o644)
        guard fd >= 0 else { throw PhotoEditError.library(String(cString: strerror(errno))) }
        self.path = path
        self.fd = Mutex(fd)
    }

    func write(_ bytes: [UInt8]) throws {
        try fd.withLock { fd in
            guard fd >= 0 else { throw PhotoEditError.library("the render's file is closed") }
            try bytes.withUnsafeBytes { buffer in
                guard let base = buffer.baseAddress else { return }
                try FileIO.writeAll(fd, UnsafeMutableRawPointer(mutating: base), buffer.count, path: path)
            }
        }
    }

    func close() {
        fd.withLock { fd in
            if fd >= 0 { Glibc.close(fd) }
            fd = -1
        }
    }

    deinit { close() }
}
#endif
