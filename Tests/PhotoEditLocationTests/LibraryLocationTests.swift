// Only with the `Server` trait (Package.swift): these tests need its servers and modules.
#if Server
import Foundation
import PhotoEdit
import PhotoEditLocation
import PhotoEditPostgres
import PhotoEditTestSupport
import Testing

/// Every form `--library` takes, and every bad form: one clear line that
/// names host, database or bucket and never a password or secret.
@Suite("Library locations")
struct LibraryLocationTests {
    static let environment = ["HOME": "/home/ann", "PGPASSWORD": "pg-secret-1"]

    func parse(_ text: String, environment: [String: String] = LibraryLocationTests.environment) throws -> LibraryLocation {
        try LibraryLocation(parsing: text, environment: environment)
    }

    func distributed(_ text: String, environment: [String: String] = LibraryLocationTests.environment) throws -> DistributedLibraryLocation {
        guard case let .distributed(location) = try parse(text, environment: environment) else {
            throw PhotoEditError.library("not distributed: \(text)")
        }
        return location
    }

    /// The one line a bad location gives.
    func problem(_ text: String, environment: [String: String] = LibraryLocationTests.environment) -> String {
        do {
            let location = try parse(text, environment: environment)
            return "parsed as \(location)"
        } catch {
            return "\(error)"
        }
    }

    @Test func aFolderIsAFolder() throws {
        #expect(try parse("/srv/photos") == .folder(URL(fileURLWithPath: "/srv/photos")))
        #expect(try parse("relative/lib") == .folder(URL(fileURLWithPath: "relative/lib")))
        #expect(try parse("file:///srv/photos") == .folder(URL(fileURLWithPath: "/srv/photos")))
        // The default when nothing is named.
        let named = try LibraryLocation.named(nil, environment: ["HOME": "/home/ann"])
        #expect(named == .folder(URL(fileURLWithPath: "/home/ann/.local/share/photoedit")))
        #expect(try LibraryLocation.named(nil, environment: ["PHOTOEDIT_LIBRARY": "postgres://ann@db/photos?blobs=s3://lib-bucket/a"])
            .description == "postgres://ann@db/photos?blobs=s3://lib-bucket/a/")
    }

    @Test func postgresWithS3Blobs() throws {
        let l = try distributed("postgres://ann@db.example:6432/photos?blobs=s3://lib-bucket/library1&endpoint=http://127.0.0.1:8333&region=eu-west-1")
        #expect(l.catalog.host == "db.example")
        #expect(l.catalog.port == 6432)
        #expect(l.catalog.database == "photos")
        #expect(l.catalog.username == "ann")
        #expect(l.catalog.password == "pg-secret-1")   // PGPASSWORD
        #expect(l.blobs == .s3(bucket: "lib-bucket", prefix: "library1/", endpoint: URL(string: "http://127.0.0.1:8333"), region: "eu-west-1"))
        #expect(l.cacheCapacity == 2 << 30)
        #expect(l.workDirectory.path.hasPrefix("/home/ann/.cache/photoedit/libraries/"))
        #expect(l.description == "postgres://ann@db.example:6432/photos?blobs=s3://lib-bucket/library1/")
        // postgresql:// too, no prefix, no endpoint (AWS's defaults then).
        let bare = try distributed("postgresql://ann@db/photos?blobs=s3://lib-bucket")
        #expect(bare.blobs == .s3(bucket: "lib-bucket", prefix: "", endpoint: nil, region: nil))
    }

    @Test func postgresWithASharedFolder() throws {
        let l = try distributed("postgres://ann@db/photos?blobs=file:///mnt/shared/lib&work=/var/tmp/pe&cache-size=512MiB")
        #expect(l.blobs == .folder(URL(fileURLWithPath: "/mnt/shared/lib")))
        #expect(l.workDirectory.path == "/var/tmp/pe")
        #expect(l.cacheCapacity == 512 << 20)
    }

    @Test func theWorkFolderDependsOnTheLibraryNotOnThePassword() throws {
        let a = try distributed("postgres://ann@db/photos?blobs=s3://lib-bucket/x")
        let b = try distributed("postgres://ann:other@db/photos?blobs=s3://lib-bucket/x")
        let c = try distributed("postgres://ann@db/photos?blobs=s3://lib-bucket/y")
        #expect(a.workDirectory == b.workDirectory)
        #expect(a.workDirectory != c.workDirectory)
        let xdg = try distributed("postgres://ann@db/photos?blobs=s3://lib-bucket/x", environment: ["XDG_CACHE_HOME": "/xdg", "HOME": "/h"])
        #expect(xdg.workDirectory.path.hasPrefix("/xdg/photoedit/libraries/"))
    }

    @Test func aConfigFile() throws {
        let temp = TemporaryDirectory("photoedit-loc")
        let folder = temp.url
        let file = folder.appendingPathComponent("library.json")
        try Data("""
            {"catalog": "postgres://ann@db:5433/photos", "blobs": "s3://lib-bucket/p", "endpoint": "https://s3.example",
             "region": "us-west-2", "work": "work", "cacheSize": 1073741824}
            """.utf8).write(to: file)
        let l = try distributed(file.path)
        #expect(l.catalog.port == 5433)
        #expect(l.blobs == .s3(bucket: "lib-bucket", prefix: "p/", endpoint: URL(string: "https://s3.example"), region: "us-west-2"))
        #expect(l.workDirectory.path == folder.appendingPathComponent("work").standardizedFileURL.path)
        #expect(l.cacheCapacity == 1 << 30)

        func bad(_ json: String) throws -> String {
            try Data(json.utf8).write(to: file)
            return problem(file.path)
        }
        #expect(try bad("[1]").contains("not a JSON object naming catalog and blobs"))
        #expect(try bad("not json").contains("not a JSON object"))
        #expect(try bad(#"{"catalog": "postgres://ann@db/p"}"#).contains("no \"blobs\""))
        #expect(try bad(#"{"blobs": "s3://lib-bucket"}"#).contains("no \"catalog\""))
        #expect(try bad(#"{"catalog": "mysql://db/p", "blobs": "s3://lib-bucket"}"#).contains("\"catalog\" must be a postgres:// URL"))
        #expect(try bad(#"{"catalog": "postgres://ann@db/p", "blobs": "s3://lib-bucket", "colour": "red"}"#).contains("unknown key 'colour'"))
        #expect(try bad(#"{"catalog": "postgres://ann@db/p", "blobs": "s3://lib-bucket", "region": 5}"#).contains("'region' must be a string"))
        #expect(try bad(#"{"catalog": "postgres://ann@db/p?blobs=s3://x", "blobs": "s3://lib-bucket"}"#).contains("belongs in its own key"))
        try Data(repeating: 32, count: 70_000).write(to: file)
        #expect(problem(file.path).contains("at most 64 KiB"))
        #expect(problem(folder.appendingPathComponent("missing.json").path).contains("no library config file at"))
    }

    @Test(arguments: [
        ("", "the library is empty"),
        ("/srv/a\nb", "control character"),
        ("mysql://db/photos", "unsupported library scheme 'mysql'"),
        ("s3://lib-bucket/x", "unsupported library scheme 's3'"),
        ("file://host/x", "not a file:///ABSOLUTE/FOLDER URL"),
        ("postgres://ann@db/photos", "no blobs=… in postgres://ann@db/photos"),
        ("postgres://ann@db/photos?blobs=", "no blobs="),
        ("postgres://ann@db/photos?blobs=s3://lib-bucket&colour=red", "unknown parameter 'colour'"),
        ("postgres://ann@db/photos?blobs=s3://lib-bucket&blobs=s3://other-bucket", "parameter 'blobs' is given twice"),
        ("postgres://ann@/photos?blobs=s3://lib-bucket", "no host"),
        ("postgres://ann@db/?blobs=s3://lib-bucket", "no database name"),
        ("postgres://db/photos?blobs=s3://lib-bucket", "no user"),
        ("postgres://ann@db:99999/photos?blobs=s3://lib-bucket", "catalog URL"),
        ("postgres://ann@db/photos?blobs=s3://", "no bucket"),
        ("postgres://ann@db/photos?blobs=s3://AB", "bucket name 'AB' is not 3-63"),
        ("postgres://ann@db/photos?blobs=s3://KEYID:s3-secret-2@lib-bucket/x", "credentials do not go in the URL"),
        ("postgres://ann@db/photos?blobs=s3://lib-bucket/.hidden", "key prefix"),
        ("postgres://ann@db/photos?blobs=ftp://lib-bucket", "unsupported scheme 'ftp'"),
        ("postgres://ann@db/photos?blobs=file://relative", "is not file:///ABSOLUTE/FOLDER"),
        ("postgres://ann@db/photos?blobs=file:///srv/x&region=eu-west-1", "endpoint= and region= are for s3:// blobs"),
        ("postgres://ann@db/photos?blobs=s3://lib-bucket&endpoint=ftp://x", "endpoint ftp://x is not an http(s)"),
        ("postgres://ann@db/photos?blobs=s3://lib-bucket&endpoint=http://KEY:s3-secret-3@x", "credentials do not go in the endpoint"),
        ("postgres://ann@db/photos?blobs=s3://lib-bucket&region=EU_West", "region 'EU_West' is not"),
        ("postgres://ann@db/photos?blobs=s3://lib-bucket&cache-size=1MiB", "cache size '1MiB' is not 16MiB to 16TiB"),
        ("postgres://ann@db/photos?blobs=s3://lib-bucket&cache-size=lots", "cache size 'lots'"),
        ("postgres://ann@db/photos?blobs=s3://lib-bucket&work=relative/dir", "must be an absolute path"),
        ("postgres://ann@db/photos?blobs=s3://lib-bucket&work=", "the work folder is empty"),
    ])
    func badForms(text: String, expected: String) {
        let message = problem(text)
        #expect(message.contains(expected), "\(text) → \(message)")
        #expect(!message.hasPrefix("parsed as"))
        #expect(!message.contains("\n"))
        #expect(message.hasPrefix("library: ") && !message.hasPrefix("library: library:"))
        // Never a password or a secret.
        for secret in ["pg-secret-1", "s3-secret-2", "s3-secret-3"] { #expect(!message.contains(secret)) }
    }

    @Test func aPasswordInTheURLIsNeverShown() throws {
        let l = try distributed("postgres://ann:url-secret-4@db/photos?blobs=s3://lib-bucket/x")
        #expect(l.catalog.password == "url-secret-4")
        #expect(!l.description.contains("url-secret-4"))
        #expect(!"\(LibraryLocation.distributed(l))".contains("url-secret-4"))
        #expect(!problem("postgres://ann:url-secret-4@db/photos").contains("url-secret-4"))
        #expect(!problem("postgres://ann:url-secret-4@db/photos?blobs=s3://lib-bucket&x=1").contains("url-secret-4"))
    }

    @Test func missingS3CredentialsAreOneLineNamingTheBucket() throws {
        guard case let .distributed(l) = try parse("postgres://ann@127.0.0.1:1/photos?blobs=s3://lib-bucket/x") else { return }
        #expect(throws: PhotoEditError.self) {
            _ = try LibraryLocation.distributed(l).open(environment: ["HOME": "/tmp"])
        }
        do {
            _ = try LibraryLocation.distributed(l).open(environment: ["HOME": "/tmp"])
        } catch {
            #expect("\(error)".contains("s3://lib-bucket/x/"))
            #expect("\(error)".contains("AWS_ACCESS_KEY_ID"))
        }
    }
}
#endif
