// Only with the `Server` trait (Package.swift): without it the module is empty.
#if Server
import AsyncHTTPClient
import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif
import NIOCore
import NIOHTTP1
import PhotoEdit

/// Where an ``S3BlobStore`` keeps its blobs and how it reaches them.
public struct S3Configuration: Sendable, Equatable {
    /// The endpoint, e.g. `http://127.0.0.1:8333` (SeaweedFS) or `https://s3.eu-west-1.amazonaws.com`.
    public var endpoint: URL
    /// The region signed into every request.
    public var region: String
    /// The bucket.
    public var bucket: String
    /// A key prefix (`library1/`) under which this store's blobs live; may be empty.
    public var keyPrefix: String
    /// The credentials.
    public var credentials: S3Credentials
    /// Bytes per part of a multipart upload; also the size above which a put is multipart.
    /// S3 requires at least 5 MiB for every part but the last.
    public var partSize: Int
    /// Time allowed for one request without a body (head, list, delete, a part).
    public var requestTimeout: TimeInterval

    public init(endpoint: URL, region: String = "us-east-1", bucket: String, keyPrefix: String = "",
                credentials: S3Credentials, partSize: Int = 8 << 20, requestTimeout: TimeInterval = 120) {
        self.endpoint = endpoint
        self.region = region
        self.bucket = bucket
        self.keyPrefix = keyPrefix
        self.credentials = credentials
        self.partSize = partSize
        self.requestTimeout = requestTimeout
    }

    /// Reads the standard AWS variables: `AWS_ACCESS_KEY_ID`, `AWS_SECRET_ACCESS_KEY`,
    /// `AWS_SESSION_TOKEN` (optional), `AWS_REGION` (or `AWS_DEFAULT_REGION`,
    /// default `us-east-1`) and the endpoint from `AWS_ENDPOINT_URL_S3` or
    /// `AWS_ENDPOINT_URL` (default AWS's regional endpoint).
    public static func fromEnvironment(bucket: String, keyPrefix: String = "",
                                       environment: [String: String] = ProcessInfo.processInfo.environment) throws -> S3Configuration {
        guard let access = environment["AWS_ACCESS_KEY_ID"], !access.isEmpty,
              let secret = environment["AWS_SECRET_ACCESS_KEY"], !secret.isEmpty else {
            throw BlobStoreError.configuration("AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY must be set")
        }
        let region = environment["AWS_REGION"] ?? environment["AWS_DEFAULT_REGION"] ?? "us-east-1"
        let endpointText = environment["AWS_ENDPOINT_URL_S3"] ?? environment["AWS_ENDPOINT_URL"] ?? "https://s3.\(region).amazonaws.com"
        guard let endpoint = URL(string: endpointText), ["http", "https"].contains(endpoint.scheme ?? ""), endpoint.host != nil else {
            throw BlobStoreError.configuration("the endpoint \(endpointText) is not an http(s) URL")
        }
        let token = environment["AWS_SESSION_TOKEN"].flatMap { $0.isEmpty ? nil : $0 }
        return S3Configuration(endpoint: endpoint, region: region, bucket: bucket, keyPrefix: keyPrefix,
                               credentials: S3Credentials(accessKeyID: access, secretAccessKey: secret, sessionToken: token))
    }
}

/// A ``BlobStore`` on an S3-compatible object store (AWS S3, SeaweedFS, MinIO),
/// addressed path-style (`endpoint/bucket/key`), signed with ``SigV4Signer``.
///
/// - put streams its source: a source up to ``S3Configuration/partSize`` is one
///   PUT; a larger one is a multipart upload (each part read, hashed and sent in
///   turn, so memory stays at one part), aborted on any failure. `ifAbsent`
///   sends `If-None-Match: *` (on the PUT, or on the completion of a multipart
///   upload); a `412 PreconditionFailed` answer is ``BlobPutOutcome/existed``.
/// - get streams the response body; the announced length is checked at the end.
/// - Errors carry S3's error code (`NoSuchBucket`, `AccessDenied`, …).
public struct S3BlobStore: BlobStore {
    /// The configuration.
    public let configuration: S3Configuration
    private let signer: SigV4Signer
    private let client: HTTPClient

    /// A store using the process-wide HTTP client.
    public init(configuration: S3Configuration, client: HTTPClient = .shared) throws {
        guard !configuration.bucket.isEmpty, configuration.bucket.utf8.count <= 63,
              configuration.bucket.utf8.allSatisfy({ BlobKeyBytes.bucket($0) }) else {
            throw BlobStoreError.configuration("bucket name \"\(configuration.bucket.prefix(80))\" is not 1-63 of a-z 0-9 . -")
        }
        guard configuration.keyPrefix.isEmpty || (configuration.keyPrefix.hasSuffix("/") && (try? BlobKey(String(configuration.keyPrefix.dropLast()))) != nil) else {
            throw BlobStoreError.configuration("key prefix must be empty or a valid key ending in '/'")
        }
        guard configuration.partSize >= 5 << 20, configuration.partSize <= 512 << 20 else {
            throw BlobStoreError.configuration("part size must be 5 MiB to 512 MiB")
        }
        self.configuration = configuration
        self.signer = SigV4Signer(credentials: configuration.credentials, region: configuration.region)
        self.client = client
    }

    public var location: String { "s3://\(configuration.bucket)/\(configuration.keyPrefix)" }

    // MARK: BlobStore

    public func put(_ key: BlobKey, from source: BlobSource, ifAbsent: Bool) async throws -> BlobPutOutcome {
        let reader = try BlobSourceReader(source)
        let first = try await reader.read(upTo: configuration.partSize) ?? Data()
        if first.count < configuration.partSize {
            // Fits in one request.
            var headers = [("content-type", "application/octet-stream")]
            if ifAbsent { headers.append(("if-none-match", "*")) }
            let response = try await send("PUT", key: key, headers: headers, body: first)
            if response.status == .preconditionFailed, ifAbsent {
                _ = try? await response.body.collect(upTo: 1 << 16)
                return .existed
            }
            try await S3BlobStore.check(response, key: key)
            _ = try? await response.body.collect(upTo: 1 << 16)
            return .created(BlobInfo(key: key, size: Int64(first.count), etag: S3BlobStore.etag(response.headers)))
        }
        return try await multipartPut(key, first: first, reader: reader, ifAbsent: ifAbsent)
    }

    public func get(_ key: BlobKey) async throws -> BlobContent {
        let response = try await send("GET", key: key, timeout: max(configuration.requestTimeout, 3600))
        if response.status == .notFound { throw BlobStoreError.notFound(key: key.rawValue) }
        try await S3BlobStore.check(response, key: key)
        guard let length = response.headers.first(name: "content-length").flatMap(Int64.init) else {
            throw BlobStoreError.integrity(key: key.rawValue, problem: "the answer has no Content-Length")
        }
        let info = BlobInfo(key: key, size: length, etag: S3BlobStore.etag(response.headers),
                            lastModified: response.headers.first(name: "last-modified").flatMap(S3BlobStore.httpDate))
        let body = response.body
        let chunks = AsyncThrowingStream<Data, any Error> { continuation in
            let task = Task {
                var total: Int64 = 0
                do {
                    for try await buffer in body {
                        total += Int64(buffer.readableBytes)
                        continuation.yield(Data(buffer.readableBytesView))
                    }
                    if total != length {
                        throw BlobStoreError.integrity(key: key.rawValue, problem: "received \(total) bytes of \(length)")
                    }
                    continuation.finish()
                } catch let error as BlobStoreError {
                    continuation.finish(throwing: error)
                } catch {
                    continuation.finish(throwing: BlobStoreError.transport("reading \(key): \(error)"))
                }
            }
            continuation.onTermination = { _ in task.cancel() }
        }
        return BlobContent(info: info, chunks: chunks)
    }

    public func head(_ key: BlobKey) async throws -> BlobInfo? {
        let response = try await send("HEAD", key: key)
        if response.status == .notFound { return nil }
        try await S3BlobStore.check(response, key: key)
        let size = response.headers.first(name: "content-length").flatMap(Int64.init) ?? 0
        return BlobInfo(key: key, size: size, etag: S3BlobStore.etag(response.headers),
                        lastModified: response.headers.first(name: "last-modified").flatMap(S3BlobStore.httpDate))
    }

    public func delete(_ key: BlobKey) async throws {
        let response = try await send("DELETE", key: key)
        if response.status == .notFound { return }
        try await S3BlobStore.check(response, key: key)
        _ = try? await response.body.collect(upTo: 1 << 16)
    }

    public func list(prefix: String, after: BlobKey?, limit: Int) async throws -> [BlobInfo] {
        guard (1...1000).contains(limit) else { throw BlobStoreError.configuration("a list page holds 1 to 1000 blobs, not \(limit)") }
        guard prefix.utf8.count <= BlobKey.maxLength else {
            throw BlobStoreError.invalidKey(key: String(prefix.prefix(80)), problem: "prefix longer than \(BlobKey.maxLength) bytes")
        }
        var query = [("list-type", "2"), ("max-keys", String(limit)), ("prefix", configuration.keyPrefix + prefix)]
        if let after { query.append(("start-after", configuration.keyPrefix + after.rawValue)) }
        let response = try await send("GET", key: nil, query: query)
        try await S3BlobStore.check(response, key: nil)
        let xml = try await S3BlobStore.body(response, limit: 16 << 20)
        let records = S3XML.records(named: "Contents", in: xml)
        var result: [BlobInfo] = []
        for record in records {
            guard let full = record["Key"], full.hasPrefix(configuration.keyPrefix),
                  let key = try? BlobKey(String(full.dropFirst(configuration.keyPrefix.count))),
                  key.rawValue.hasPrefix(prefix) else { continue }
            let size = record["Size"].flatMap(Int64.init) ?? 0
            let etag = record["ETag"].map { $0.trimmingCharacters(in: CharacterSet(charactersIn: "\"")) }
            result.append(BlobInfo(key: key, size: size, etag: etag, lastModified: record["LastModified"].flatMap(S3BlobStore.isoDate)))
        }
        return result.sorted { $0.key < $1.key }
    }

    // MARK: Buckets (for set-up and tests)

    /// Creates the bucket; succeeds when this account already owns it.
    public func createBucket() async throws {
        let response = try await send("PUT", key: nil)
        if response.status == .conflict {
            let error = S3XML.error(in: try await S3BlobStore.body(response, limit: 1 << 16))
            if error.code == "BucketAlreadyOwnedByYou" || error.code == "BucketAlreadyExists" { return }
            throw BlobStoreError.service(status: 409, code: error.code, message: error.message, key: nil)
        }
        try await S3BlobStore.check(response, key: nil)
        _ = try? await response.body.collect(upTo: 1 << 16)
    }

    // MARK: Multipart

    private func multipartPut(_ key: BlobKey, first: Data, reader: BlobSourceReader, ifAbsent: Bool) async throws -> BlobPutOutcome {
        if ifAbsent, try await head(key) != nil { return .existed }
        let start = try await send("POST", key: key, query: [("uploads", "")], headers: [("content-type", "application/octet-stream")])
        try await S3BlobStore.check(start, key: key)
        guard let uploadID = S3XML.records(named: "InitiateMultipartUploadResult", in: try await S3BlobStore.body(start, limit: 1 << 16)).first?["UploadId"],
              !uploadID.isEmpty else {
            throw BlobStoreError.service(status: 200, code: "MalformedAnswer", message: "no UploadId in the answer to CreateMultipartUpload", key: key.rawValue)
        }
        do {
            var parts: [(Int, String)] = []
            var total: Int64 = 0
            var next: Data? = first
            var number = 1
            while let part = next {
                guard number <= 10_000 else {
                    throw BlobStoreError.configuration("more than 10 000 parts of \(configuration.partSize) bytes; raise partSize")
                }
                let response = try await send("PUT", key: key, query: [("partNumber", String(number)), ("uploadId", uploadID)], body: part)
                try await S3BlobStore.check(response, key: key)
                _ = try? await response.body.collect(upTo: 1 << 16)
                guard let etag = response.headers.first(name: "etag") else {
                    throw BlobStoreError.service(status: Int(response.status.code), code: "MalformedAnswer", message: "no ETag for part \(number)", key: key.rawValue)
                }
                parts.append((number, etag))
                total += Int64(part.count)
                number += 1
                next = try await reader.read(upTo: configuration.partSize)
            }
            let body = "<CompleteMultipartUpload>" + parts.map {
                "<Part><PartNumber>\($0.0)</PartNumber><ETag>\(S3XML.escape($0.1))</ETag></Part>"
            }.joined() + "</CompleteMultipartUpload>"
            var headers = [("content-type", "application/xml")]
            if ifAbsent { headers.append(("if-none-match", "*")) }
            let done = try await send("POST", key: key, query: [("uploadId", uploadID)], headers: headers, body: Data(body.utf8))
            if done.status == .preconditionFailed, ifAbsent {
                try? await abort(key, uploadID: uploadID)
                return .existed
            }
            try await S3BlobStore.check(done, key: key)
            // S3 may answer 200 and still report an error in the body.
            let answer = try await S3BlobStore.body(done, limit: 1 << 16)
            let error = S3XML.error(in: answer)
            if !error.code.isEmpty {
                throw BlobStoreError.service(status: 200, code: error.code, message: error.message, key: key.rawValue)
            }
            let etag = S3XML.records(named: "CompleteMultipartUploadResult", in: answer).first?["ETag"]
                .map { $0.trimmingCharacters(in: CharacterSet(charactersIn: "\"")) }
            return .created(BlobInfo(key: key, size: total, etag: etag))
        } catch {
            try? await abort(key, uploadID: uploadID)
            throw error
        }
    }

    private func abort(_ key: BlobKey, uploadID: String) async throws {
        let response = try await send("DELETE", key: key, query: [("uploadId", uploadID)])
        _ = try? await response.body.collect(upTo: 1 << 16)
    }

    // MARK: Requests

    private func send(_ method: String, key: BlobKey?, query: [(String, String)] = [], headers extra: [(String, String)] = [],
                      body: Data? = nil, timeout: TimeInterval? = nil) async throws -> HTTPClientResponse {
        let path = "/" + configuration.bucket + (key.map { "/" + configuration.keyPrefix + $0.rawValue } ?? "")
        let base = configuration.endpoint.absoluteString.hasSuffix("/") ? String(configuration.endpoint.absoluteString.dropLast()) : configuration.endpoint.absoluteString
        let encodedPath = path.split(separator: "/", omittingEmptySubsequences: false).map { SigV4Signer.encode(String($0)) }.joined(separator: "/")
        let encodedQuery = query.map { SigV4Signer.encode($0.0) + "=" + SigV4Signer.encode($0.1) }.joined(separator: "&")
        let url = base + encodedPath + (encodedQuery.isEmpty ? "" : "?" + encodedQuery)
        var host = configuration.endpoint.host ?? ""
        if let port = configuration.endpoint.port { host += ":\(port)" }
        let payload = body ?? Data()
        let date = Date()
        var headers = extra
        headers.append(("host", host))
        headers.append(("x-amz-date", SigV4Signer.timestamp(date)))
        headers.append(("x-amz-content-sha256", SigV4Signer.sha256Hex(payload)))
        if let token = configuration.credentials.sessionToken { headers.append(("x-amz-security-token", token)) }
        let signature = signer.sign(method: method, path: path, query: query, headers: headers,
                                    payloadHash: SigV4Signer.sha256Hex(payload), date: date)
        var request = HTTPClientRequest(url: url)
        request.method = HTTPMethod(rawValue: method)
        for (name, value) in headers { request.headers.add(name: name, value: value) }
        request.headers.add(name: "authorization", value: signature.authorization)
        if body != nil || method == "PUT" || method == "POST" {
            request.headers.add(name: "content-length", value: String(payload.count))
            request.body = .bytes(ByteBuffer(bytes: payload))
        }
        do {
            let seconds = timeout ?? configuration.requestTimeout + Double(payload.count) / 1_000_000
            return try await client.execute(request, timeout: .milliseconds(Int64(seconds * 1000)))
        } catch {
            throw BlobStoreError.transport("\(method) \(location)\(key?.rawValue ?? ""): \(error)")
        }
    }

    private static func check(_ response: HTTPClientResponse, key: BlobKey?) async throws {
        let status = Int(response.status.code)
        guard status >= 300 else { return }
        let text = (try? await body(response, limit: 1 << 16)) ?? ""
        var error = S3XML.error(in: text)
        if error.code.isEmpty { error.code = status == 404 ? "NotFound" : "HTTP\(status)" }
        if error.message.isEmpty { error.message = response.status.reasonPhrase }
        throw BlobStoreError.service(status: status, code: error.code, message: error.message, key: key?.rawValue)
    }

    private static func body(_ response: HTTPClientResponse, limit: Int) async throws -> String {
        do {
            let buffer = try await response.body.collect(upTo: limit)
            return String(buffer: buffer)
        } catch {
            throw BlobStoreError.transport("reading an answer: \(error)")
        }
    }

    private static func etag(_ headers: HTTPHeaders) -> String? {
        headers.first(name: "etag").map { $0.trimmingCharacters(in: CharacterSet(charactersIn: "\"")) }
    }

    private static func httpDate(_ text: String) -> Date? {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "GMT")
        formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss zzz"
        return formatter.date(from: text)
    }

    private static func isoDate(_ text: String) -> Date? {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        return formatter.date(from: text) ?? ISO8601DateFormatter().date(from: text)
    }
}

enum BlobKeyBytes {
    static func bucket(_ byte: UInt8) -> Bool {
        (97...122).contains(byte) || (48...57).contains(byte) || byte == UInt8(ascii: ".") || byte == UInt8(ascii: "-")
    }
}

/// The few XML shapes S3 answers with, read with Foundation's XMLParser.
enum S3XML {
    /// S3's `<Error><Code>…</Code><Message>…</Message></Error>`; empty strings when absent.
    static func error(in xml: String) -> (code: String, message: String) {
        guard let record = records(named: "Error", in: xml).first else { return ("", "") }
        return (record["Code"] ?? "", String((record["Message"] ?? "").prefix(300)))
    }

    /// For each element named `record`, the text of its direct children by name.
    static func records(named record: String, in xml: String) -> [[String: String]] {
        let collector = Collector(record: record)
        let parser = XMLParser(data: Data(xml.utf8))
        parser.delegate = collector
        parser.shouldResolveExternalEntities = false
        _ = parser.parse()
        return collector.records
    }

    static func escape(_ text: String) -> String {
        text.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
            .replacingOccurrences(of: ">", with: "&gt;").replacingOccurrences(of: "\"", with: "&quot;")
    }

    private final class Collector: NSObject, XMLParserDelegate {
        let record: String
        var records: [[String: String]] = []
        private var current: [String: String]?
        private var depth = 0
        private var text = ""

        init(record: String) { self.record = record }

        func parser(_ parser: XMLParser, didStartElement elementName: String, namespaceURI: String?,
                    qualifiedName qName: String?, attributes attributeDict: [String: String] = [:]) {
            if elementName == record, current == nil {
                current = [:]
                depth = 0
            } else if current != nil {
                depth += 1
            }
            text = ""
        }

        func parser(_ parser: XMLParser, foundCharacters string: String) { text += string }

        func parser(_ parser: XMLParser, didEndElement elementName: String, namespaceURI: String?, qualifiedName qName: String?) {
            guard var fields = current else { return }
            if elementName == record, depth == 0 {
                records.append(fields)
                current = nil
            } else {
                if depth == 1 {
                    fields[elementName] = text
                    current = fields
                }
                depth -= 1
            }
            text = ""
        }
    }
}
#endif
