import Foundation
import PhotoEdit
#if Server
import PhotoEditPostgres
#endif

/// Where a library is, as `--library`, `$PHOTOEDIT_LIBRARY` and
/// `photoedit serve --library` name it (docs/cli.md, "Libraries"):
///
/// - a folder: `~/Pictures/library` (the catalog is SQLite inside it);
/// - a URL: `postgres://USER@HOST:PORT/DB?blobs=s3://BUCKET/PREFIX&endpoint=http://…&region=…`,
///   or `…?blobs=file:///shared/folder`: the catalog on PostgreSQL, the
///   files in an S3-compatible object store or a shared folder;
/// - a config file (JSON) naming the same parts: `{"catalog": "postgres://…",
///   "blobs": "s3://…", "endpoint": "…", "region": "…", "work": "DIR", "cacheSize": "2GiB"}`.
///
/// Credentials come from the environment (`PGPASSWORD`, `PGUSER`;
/// `AWS_ACCESS_KEY_ID`, `AWS_SECRET_ACCESS_KEY`, `AWS_SESSION_TOKEN`,
/// `AWS_ENDPOINT_URL`, `AWS_REGION`), never from the blobs URL; a catalog
/// password in the URL is accepted (as libpq does) and never printed.
/// Every problem is one ``PhotoEditError/library(_:)`` line naming host,
/// database or bucket, never a password or secret.
public enum LibraryLocation: Sendable, Equatable, CustomStringConvertible {
    /// A library folder.
    case folder(URL)
    #if Server
    /// A library shared by many nodes (a build with the `Server` trait, the default).
    case distributed(DistributedLibraryLocation)
    #endif

    /// The longest location text or config file accepted.
    static let maxLength = 4096
    static let maxConfigBytes = 64 << 10

    /// Parses `text` (see the type's documentation).
    public init(parsing text: String, environment: [String: String] = ProcessInfo.processInfo.environment) throws {
        guard !text.isEmpty else { throw Self.bad("the library is empty (a folder, postgres://…?blobs=…, or a config file)") }
        guard text.utf8.count <= Self.maxLength else { throw Self.bad("the library is longer than \(Self.maxLength) bytes") }
        guard !text.unicodeScalars.contains(where: { $0.value < 0x20 || $0.value == 0x7f }) else {
            throw Self.bad("the library contains a control character")
        }
        let lower = text.lowercased()
        if lower.hasPrefix("postgres://") || lower.hasPrefix("postgresql://") {
            #if Server
            self = .distributed(try DistributedLibraryLocation(url: text, environment: environment))
            return
            #else
            throw Self.withoutServer("a postgres:// library")
            #endif
        }
        if lower.hasPrefix("file://") {
            guard let url = URL(string: text), url.isFileURL, url.path.hasPrefix("/"), url.host.map({ $0.isEmpty || $0 == "localhost" }) ?? true else {
                throw Self.bad("\(Self.excerpt(text)) is not a file:///ABSOLUTE/FOLDER URL")
            }
            self = .folder(URL(fileURLWithPath: url.path))
            return
        }
        if let colon = text.range(of: "://") {
            let scheme = text[..<colon.lowerBound]
            if !scheme.isEmpty, scheme.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "+" || $0 == "-" || $0 == "." }) {
                throw Self.bad("unsupported library scheme '\(Self.excerpt(String(scheme)))': a folder, postgres://USER@HOST/DB?blobs=…, or a .json config file")
            }
        }
        var isFolder: ObjCBool = false
        let exists = FileManager.default.fileExists(atPath: text, isDirectory: &isFolder)
        if exists, !isFolder.boolValue {
            #if Server
            self = .distributed(try DistributedLibraryLocation(configFile: text, environment: environment))
            #else
            throw Self.withoutServer("a library config file (\(Self.excerpt(text)))")
            #endif
        } else if !exists, lower.hasSuffix(".json") {
            throw Self.bad("no library config file at \(Self.excerpt(text))")
        } else {
            self = .folder(URL(fileURLWithPath: text))
        }
    }

    /// The location for messages: a folder's path, or the URL without any password.
    public var description: String {
        switch self {
        case let .folder(url): return url.path
        #if Server
        case let .distributed(location): return location.description
        #endif
        }
    }

    /// The one-line refusal of a build without the `Server` trait (the quick
    /// start's: a command-line tool for library folders) for `what`.
    public static func withoutServer(_ what: String) -> PhotoEditError {
        .library("\(what) needs photoedit built with its Server trait (the default; the quick start leaves it out): "
            + "swift build -c release --product photoedit")
    }

    /// `PhotoEditError.library` prints as `library: WHY`.
    static func bad(_ why: String) -> PhotoEditError { .library(why) }

    /// At most 80 characters of user text, control characters escaped.
    static func excerpt(_ text: String) -> String {
        var out = ""
        for scalar in text.unicodeScalars.prefix(80) {
            if scalar.value < 0x20 || scalar.value == 0x7f { out += String(format: "\\x%02x", scalar.value) } else { out.unicodeScalars.append(scalar) }
        }
        return text.unicodeScalars.count > 80 ? out + "…" : out
    }
}

#if Server
/// Where the files of a distributed library are.
public enum BlobsLocation: Sendable, Equatable, CustomStringConvertible {
    /// An S3-compatible object store: bucket, key prefix (empty or ending in
    /// `/`), and the endpoint and region when the URL names them (else the
    /// AWS variables say, else AWS's defaults).
    case s3(bucket: String, prefix: String, endpoint: URL?, region: String?)
    /// A folder every node mounts (NFS, a shared disk).
    case folder(URL)

    /// Parses `s3://BUCKET/PREFIX` or `file:///FOLDER`.
    init(_ text: String, endpoint: String?, region: String?) throws {
        func bad(_ why: String) -> PhotoEditError { LibraryLocation.bad("blobs: \(why)") }
        guard let url = URLComponents(string: text), let scheme = url.scheme?.lowercased() else {
            throw bad("\(LibraryLocation.excerpt(text)) is not a URL (s3://BUCKET/PREFIX or file:///FOLDER)")
        }
        switch scheme {
        case "s3":
            guard url.user == nil, url.password == nil else {
                throw bad("credentials do not go in the URL: set AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY")
            }
            let bucket = url.host ?? ""
            guard !bucket.isEmpty else { throw bad("no bucket (s3://BUCKET/PREFIX)") }
            guard bucket.utf8.count >= 3, bucket.utf8.count <= 63,
                  bucket.utf8.allSatisfy({ (97...122).contains($0) || (48...57).contains($0) || $0 == 46 || $0 == 45 }) else {
                throw bad("bucket name '\(LibraryLocation.excerpt(bucket))' is not 3-63 of a-z 0-9 . -")
            }
            guard url.port == nil, url.query == nil, url.fragment == nil else {
                throw bad("s3://BUCKET/PREFIX takes no port, query or fragment (the endpoint is endpoint=…)")
            }
            let prefix = url.path.split(separator: "/", omittingEmptySubsequences: false).drop(while: \.isEmpty).joined(separator: "/")
            let trimmed = prefix.hasSuffix("/") ? String(prefix.dropLast()) : prefix
            if !trimmed.isEmpty {
                do { _ = try BlobKey(trimmed) } catch { throw bad("key prefix: \(error)") }
            }
            var endpointURL: URL?
            if let endpoint {
                let e = URLComponents(string: endpoint)
                guard e?.user == nil, e?.password == nil, !endpoint.contains("@") else {
                    throw bad("credentials do not go in the endpoint: set AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY")
                }
                guard let e, ["http", "https"].contains(e.scheme?.lowercased() ?? ""),
                      let host = e.host, !host.isEmpty, e.query == nil, let parsed = e.url else {
                    throw bad("endpoint \(LibraryLocation.excerpt(endpoint)) is not an http(s)://HOST[:PORT] URL")
                }
                endpointURL = parsed
            }
            if let region {
                guard (1...32).contains(region.utf8.count),
                      region.utf8.allSatisfy({ (97...122).contains($0) || (48...57).contains($0) || $0 == 45 }) else {
                    throw bad("region '\(LibraryLocation.excerpt(region))' is not 1-32 of a-z 0-9 -")
                }
            }
            self = .s3(bucket: bucket, prefix: trimmed.isEmpty ? "" : trimmed + "/", endpoint: endpointURL, region: region)
        case "file":
            guard endpoint == nil, region == nil else { throw bad("endpoint= and region= are for s3:// blobs") }
            guard (url.host ?? "").isEmpty || url.host == "localhost", url.path.hasPrefix("/"), url.path.count > 1,
                  url.query == nil else {
                throw bad("\(LibraryLocation.excerpt(text)) is not file:///ABSOLUTE/FOLDER")
            }
            self = .folder(URL(fileURLWithPath: url.path))
        default:
            throw bad("unsupported scheme '\(LibraryLocation.excerpt(scheme))' (s3://BUCKET/PREFIX or file:///FOLDER)")
        }
    }

    public var description: String {
        switch self {
        case let .s3(bucket, prefix, _, _): return "s3://\(bucket)/\(prefix)"
        case let .folder(url): return "file://\(url.path)"
        }
    }
}

/// A library whose catalog is on PostgreSQL and whose files are in a blob
/// store, with its local parts (staging, the read-through cache, the lock)
/// in a work folder on this machine.
public struct DistributedLibraryLocation: Sendable, Equatable, CustomStringConvertible {
    /// The catalog.
    public var catalog: PostgresCatalogLocation
    /// The files.
    public var blobs: BlobsLocation
    /// The local work folder: given (`work=`), else
    /// `$XDG_CACHE_HOME/photoedit/libraries/<hash of the location>` (`~/.cache/…`).
    public var workDirectory: URL
    /// The bound on the read-through cache of blobs, in bytes (`cache-size=`, default 2 GiB).
    public var cacheCapacity: Int64

    public static let defaultCacheCapacity: Int64 = 2 << 30
    static let cacheCapacityRange: ClosedRange<Int64> = (16 << 20)...(16 << 40)
    static let urlParameters = ["host", "port", "blobs", "endpoint", "region", "work", "cache-size"]
    static let configKeys = ["catalog", "blobs", "endpoint", "region", "work", "cacheSize"]

    /// Parses `postgres://…?blobs=…[&endpoint=…][&region=…][&work=DIR][&cache-size=SIZE]`.
    init(url text: String, environment: [String: String]) throws {
        guard let url = URLComponents(string: text) else { throw LibraryLocation.bad("not a URL") }
        var values: [String: String] = [:]
        for item in url.queryItems ?? [] {
            guard Self.urlParameters.contains(item.name) else {
                throw LibraryLocation.bad("unknown parameter '\(LibraryLocation.excerpt(item.name))' (known: \(Self.urlParameters.joined(separator: ", ")))")
            }
            guard values[item.name] == nil else { throw LibraryLocation.bad("parameter '\(item.name)' is given twice") }
            values[item.name] = item.value ?? ""
        }
        guard let blobs = values["blobs"], !blobs.isEmpty else {
            throw LibraryLocation.bad("no blobs=… in \(Self.redacted(url)) (where the files are: blobs=s3://BUCKET/PREFIX or blobs=file:///FOLDER)")
        }
        // The catalog's own parser (its errors never show the password).
        let catalog = try PostgresCatalogLocation(url: text, environment: environment)
        try self.init(catalog: catalog, blobs: blobs, endpoint: values["endpoint"], region: values["region"],
                      work: values["work"], cacheSize: values["cache-size"], relativeTo: nil, environment: environment)
    }

    /// Reads a config file (JSON object; see ``LibraryLocation``).
    init(configFile path: String, environment: [String: String]) throws {
        let name = LibraryLocation.excerpt(path)
        guard let size = (try? FileManager.default.attributesOfItem(atPath: path)[.size] as? NSNumber)?.intValue,
              size <= LibraryLocation.maxConfigBytes else {
            throw LibraryLocation.bad("\(name) is not a folder, and not a config file of at most \(LibraryLocation.maxConfigBytes >> 10) KiB")
        }
        guard let data = FileManager.default.contents(atPath: path) else { throw LibraryLocation.bad("cannot read \(name)") }
        guard let object = try? JSONSerialization.jsonObject(with: data), let config = object as? [String: Any] else {
            throw LibraryLocation.bad("\(name) is not a folder, and not a JSON object naming catalog and blobs")
        }
        var values: [String: String] = [:]
        for (key, value) in config {
            guard Self.configKeys.contains(key) else {
                throw LibraryLocation.bad("\(name): unknown key '\(LibraryLocation.excerpt(key))' (known: \(Self.configKeys.joined(separator: ", ")))")
            }
            if key == "cacheSize", let number = value as? NSNumber, !(value is Bool) {
                values[key] = number.stringValue
            } else if let text = value as? String {
                values[key] = text
            } else {
                throw LibraryLocation.bad("\(name): '\(key)' must be a string")
            }
        }
        guard let catalogText = values["catalog"] else { throw LibraryLocation.bad("\(name): no \"catalog\" (postgres://USER@HOST/DB)") }
        guard let blobs = values["blobs"] else { throw LibraryLocation.bad("\(name): no \"blobs\" (s3://BUCKET/PREFIX or file:///FOLDER)") }
        let lower = catalogText.lowercased()
        guard lower.hasPrefix("postgres://") || lower.hasPrefix("postgresql://") else {
            throw LibraryLocation.bad("\(name): \"catalog\" must be a postgres:// URL")
        }
        if let items = URLComponents(string: catalogText)?.queryItems,
           let extra = items.first(where: { !["host", "port"].contains($0.name) }) {
            throw LibraryLocation.bad("\(name): the catalog URL's parameter '\(LibraryLocation.excerpt(extra.name))' belongs in its own key")
        }
        let catalog = try PostgresCatalogLocation(url: catalogText, environment: environment)
        try self.init(catalog: catalog, blobs: blobs, endpoint: values["endpoint"], region: values["region"],
                      work: values["work"], cacheSize: values["cacheSize"],
                      relativeTo: URL(fileURLWithPath: path).deletingLastPathComponent(), environment: environment)
    }

    private init(catalog: PostgresCatalogLocation, blobs: String, endpoint: String?, region: String?, work: String?,
                 cacheSize: String?, relativeTo base: URL?, environment: [String: String]) throws {
        self.catalog = catalog
        self.blobs = try BlobsLocation(blobs, endpoint: endpoint, region: region)
        if let cacheSize {
            guard let bytes = Self.byteCount(cacheSize), Self.cacheCapacityRange.contains(bytes) else {
                throw LibraryLocation.bad("cache size '\(LibraryLocation.excerpt(cacheSize))' is not 16MiB to 16TiB (a number of bytes, or with KiB, MiB, GiB, TiB)")
            }
            cacheCapacity = bytes
        } else {
            cacheCapacity = Self.defaultCacheCapacity
        }
        if let work {
            guard !work.isEmpty else { throw LibraryLocation.bad("the work folder is empty") }
            if work.hasPrefix("/") {
                workDirectory = URL(fileURLWithPath: work)
            } else if let base {
                workDirectory = base.appendingPathComponent(work)
            } else {
                throw LibraryLocation.bad("the work folder '\(LibraryLocation.excerpt(work))' must be an absolute path")
            }
        } else {
            let home = environment["HOME"] ?? NSHomeDirectory()
            let cache = environment["XDG_CACHE_HOME"].flatMap { $0.hasPrefix("/") ? $0 : nil } ?? home + "/.cache"
            workDirectory = URL(fileURLWithPath: cache).appendingPathComponent("photoedit/libraries/\(Self.hash(catalog.description + " " + self.blobs.description))")
        }
        workDirectory = workDirectory.standardizedFileURL
    }

    /// `postgres://user@host/db?blobs=s3://bucket/prefix`: never a password.
    public var description: String { "\(catalog)\(catalog.socketFolder == nil ? "?" : "&")blobs=\(blobs)" }

    /// `1234`, `512MiB`, `2GiB`, `1TiB` (also KB/MB/GB/TB as powers of 1024, as most tools mean them).
    static func byteCount(_ text: String) -> Int64? {
        let units: [(String, Int64)] = [("tib", 1 << 40), ("gib", 1 << 30), ("mib", 1 << 20), ("kib", 1 << 10),
                                        ("tb", 1 << 40), ("gb", 1 << 30), ("mb", 1 << 20), ("kb", 1 << 10),
                                        ("t", 1 << 40), ("g", 1 << 30), ("m", 1 << 20), ("k", 1 << 10), ("b", 1)]
        let lower = text.lowercased().trimmingCharacters(in: .whitespaces)
        for (suffix, factor) in units where lower.hasSuffix(suffix) {
            let number = lower.dropLast(suffix.count).trimmingCharacters(in: .whitespaces)
            guard number.count <= 12, let value = Int64(number), value >= 0, value <= Int64.max / factor else { return nil }
            return value * factor
        }
        guard lower.count <= 18, lower.allSatisfy(\.isNumber) else { return nil }
        return Int64(lower)
    }

    static func hash(_ text: String) -> String {
        String(SHA256Digest.hex(of: Array(text.utf8)).prefix(16))
    }

    /// The URL for a message: scheme, user, host, port, database, no password nor query.
    static func redacted(_ url: URLComponents) -> String {
        "\(url.scheme ?? "postgres")://\(url.user.map { $0 + "@" } ?? "")\(url.host ?? "")\(url.port.map { ":\($0)" } ?? "")\(url.path)"
    }
}
#endif
