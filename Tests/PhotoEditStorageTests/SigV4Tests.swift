// Only with the `Server` trait (Package.swift): these tests need its servers and modules.
#if Server
import Foundation
import PhotoEditS3
import Testing

/// AWS's published SigV4 vectors (Fixtures/sigv4/README.md says where each comes from).
@Suite("SigV4 against AWS's published vectors")
struct SigV4Tests {
    static let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Fixtures/sigv4")

    struct Suite: Decodable {
        struct Case: Decodable { let name, req, authz: String }
        let region, service, accessKeyID, secretAccessKey, date: String
        let cases: [Case]
        let creq: [String: String]
    }

    struct S3Examples: Decodable {
        struct Case: Decodable {
            let name, method, path, body, signature: String
            let query: [[String]]
            let headers: [[String]]
        }
        let region, service, accessKeyID, secretAccessKey, date: String
        let cases: [Case]
    }

    static func load<T: Decodable>(_ name: String) throws -> T {
        try JSONDecoder().decode(T.self, from: Data(contentsOf: fixtures.appendingPathComponent(name)))
    }

    static func date(_ stamp: String) -> Date {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.dateFormat = "yyyyMMdd'T'HHmmss'Z'"
        return formatter.date(from: stamp)!
    }

    /// Parses a suite `.req`: request line, `Name:value` headers, blank line, body.
    static func parse(_ req: String) -> (method: String, path: String, query: [(String, String)], headers: [(String, String)], body: String) {
        let parts = req.components(separatedBy: "\n\n")
        var lines = parts[0].components(separatedBy: "\n")
        let requestLine = lines.removeFirst().split(separator: " ")
        let target = String(requestLine[1])
        let pathPart = target.split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false)
        var query: [(String, String)] = []
        if pathPart.count == 2 {
            for pair in pathPart[1].split(separator: "&") {
                let kv = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false).map { String($0).removingPercentEncoding ?? String($0) }
                query.append((kv[0], kv.count > 1 ? kv[1] : ""))
            }
        }
        let headers = lines.map { line -> (String, String) in
            let colon = line.firstIndex(of: ":")!
            return (String(line[..<colon]), String(line[line.index(after: colon)...]))
        }
        return (String(requestLine[0]), String(pathPart[0]), query, headers, parts.count > 1 ? parts[1] : "")
    }

    @Test("aws-sig-v4-test-suite: every Authorization header matches")
    func testSuite() throws {
        let suite: Suite = try Self.load("aws-sig-v4-test-suite.json")
        #expect(suite.cases.count >= 6)
        let signer = SigV4Signer(credentials: S3Credentials(accessKeyID: suite.accessKeyID, secretAccessKey: suite.secretAccessKey),
                                 region: suite.region, service: suite.service)
        for testCase in suite.cases {
            let request = Self.parse(testCase.req)
            let signature = signer.sign(method: request.method, path: request.path, query: request.query, headers: request.headers,
                                        payloadHash: SigV4Signer.sha256Hex(Data(request.body.utf8)), date: Self.date(suite.date))
            #expect(signature.authorization == testCase.authz, "\(testCase.name)")
            if let creq = suite.creq[testCase.name] {
                #expect(signature.canonicalRequest == creq, "\(testCase.name) canonical request")
            }
        }
    }

    @Test("S3 API reference examples: GET Object, PUT Object, lifecycle, list objects")
    func s3Examples() throws {
        let examples: S3Examples = try Self.load("s3-api-reference-examples.json")
        #expect(examples.cases.count == 4)
        let signer = SigV4Signer(credentials: S3Credentials(accessKeyID: examples.accessKeyID, secretAccessKey: examples.secretAccessKey),
                                 region: examples.region, service: examples.service)
        for example in examples.cases {
            let hash = SigV4Signer.sha256Hex(Data(example.body.utf8))
            let signature = signer.sign(method: example.method, path: example.path, query: example.query.map { ($0[0], $0[1]) },
                                        headers: example.headers.map { ($0[0], $0[1]) }, payloadHash: hash, date: Self.date(examples.date))
            #expect(signature.signature == example.signature, "\(example.name)")
            #expect(signature.authorization.hasPrefix("AWS4-HMAC-SHA256 Credential=AKIAIOSFODNN7EXAMPLE/20130524/us-east-1/s3/aws4_request, SignedHeaders="))
        }
    }

    @Test("a changed secret, region or path changes the signature")
    func sensitivity() {
        let date = Self.date("20130524T000000Z")
        func sign(_ secret: String, _ region: String, _ path: String) -> String {
            SigV4Signer(credentials: S3Credentials(accessKeyID: "AK", secretAccessKey: secret), region: region)
                .sign(method: "GET", path: path, query: [], headers: [("host", "h"), ("x-amz-date", "20130524T000000Z")],
                      payloadHash: SigV4Signer.emptyPayloadHash, date: date).signature
        }
        let base = sign("s", "us-east-1", "/a")
        #expect(sign("t", "us-east-1", "/a") != base)
        #expect(sign("s", "eu-west-1", "/a") != base)
        #expect(sign("s", "us-east-1", "/b") != base)
        #expect(SigV4Signer.sha256Hex(Data()) == SigV4Signer.emptyPayloadHash)
    }
}
#endif
