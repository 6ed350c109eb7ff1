// photoedit-storage-bench: what an S3-compatible store costs over a local folder
// (issue 12, figures in docs/benchmarks.md). Not a test; bench/storage-benchmark.py
// starts SeaweedFS, makes the inputs and runs this.
//
//   photoedit-storage-bench --endpoint URL --bucket NAME --folder DIR [--runs N] NAME=FILE...
//
// Credentials from AWS_ACCESS_KEY_ID / AWS_SECRET_ACCESS_KEY (AWS_REGION). For each
// FILE and each store (FolderBlobStore in DIR, S3BlobStore at URL): put (streamed from
// the file, a fresh key each run), get (streamed, bytes counted and dropped), and a
// cold read-through (BlobFileCache: download to a local file, what a renderer waits
// for). Prints the median of N runs per store and the ratio S3 / folder.
//
// It needs the S3 client: without the Server trait it only says so.
import Foundation
#if Server
import PhotoEdit
import PhotoEditS3

func fail(_ text: String) -> Never {
    FileHandle.standardError.write(Data("photoedit-storage-bench: \(text)\n".utf8))
    exit(2)
}

func median(_ values: [Double]) -> Double { values.sorted()[values.count / 2] }

/// Milliseconds taken by `body`.
func milliseconds(_ body: () async throws -> Void) async throws -> Double {
    let start = DispatchTime.now().uptimeNanoseconds
    try await body()
    return Double(DispatchTime.now().uptimeNanoseconds - start) / 1e6
}

struct Figures {
    var put: [Double] = []
    var get: [Double] = []
    var cached: [Double] = []
}

func measure(_ store: any BlobStore, file: URL, name: String, runs: Int, scratch: URL) async throws -> Figures {
    var figures = Figures()
    let size = Int64((try FileManager.default.attributesOfItem(atPath: file.path)[.size] as? NSNumber)?.int64Value ?? 0)
    for run in 0...runs {   // run 0 warms up and is not counted
        let key = try BlobKey("bench/\(name)-\(UUID().uuidString.lowercased())")
        let put = try await milliseconds { _ = try await store.put(key, from: .file(file), ifAbsent: false) }
        var total: Int64 = 0
        let get = try await milliseconds {
            for try await chunk in try await store.get(key).chunks { total += Int64(chunk.count) }
        }
        guard total == size else { fail("\(store.location): read \(total) bytes of \(size)") }
        let cacheFolder = scratch.appendingPathComponent("cache-\(run)")
        let cache = try BlobFileCache(store: store, folder: cacheFolder, capacity: 1 << 30)
        let cached = try await milliseconds { _ = try await cache.withLocalFile(key) { $0.path } }
        try? FileManager.default.removeItem(at: cacheFolder)
        try await store.delete(key)
        if run > 0 {
            figures.put.append(put)
            figures.get.append(get)
            figures.cached.append(cached)
        }
    }
    return figures
}

var endpoint: URL?
var bucket = ""
var folder: URL?
var runs = 5
var inputs: [(String, URL)] = []
var arguments = Array(CommandLine.arguments.dropFirst())
while !arguments.isEmpty {
    let argument = arguments.removeFirst()
    func value() -> String {
        guard !arguments.isEmpty else { fail("\(argument) needs a value") }
        return arguments.removeFirst()
    }
    switch argument {
    case "--endpoint": endpoint = URL(string: value())
    case "--bucket": bucket = value()
    case "--folder": folder = URL(fileURLWithPath: value())
    case "--runs":
        guard let n = Int(value()), (1...100).contains(n) else { fail("--runs takes 1 to 100") }
        runs = n
    default:
        let parts = argument.split(separator: "=", maxSplits: 1).map(String.init)
        guard parts.count == 2, FileManager.default.isReadableFile(atPath: parts[1]) else {
            fail("usage: photoedit-storage-bench --endpoint URL --bucket NAME --folder DIR [--runs N] NAME=FILE...")
        }
        inputs.append((parts[0], URL(fileURLWithPath: parts[1])))
    }
}
guard let endpoint, let folder, !bucket.isEmpty, !inputs.isEmpty else {
    fail("usage: photoedit-storage-bench --endpoint URL --bucket NAME --folder DIR [--runs N] NAME=FILE...")
}

do {
    var environment = ProcessInfo.processInfo.environment
    environment["AWS_ENDPOINT_URL_S3"] = endpoint.absoluteString
    let s3 = try S3BlobStore(configuration: S3Configuration.fromEnvironment(bucket: bucket, environment: environment))
    try await s3.createBucket()
    let local = try FolderBlobStore(root: folder.appendingPathComponent("blobs"))
    let scratch = folder.appendingPathComponent("scratch")
    try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
    print("runs: \(runs) (medians, ms), S3 = SeaweedFS at \(endpoint.absoluteString), folder = \(folder.path)")
    print(String(format: "%-10@ %-10@ %9@ %9@ %9@ %7@", "input" as NSString, "operation" as NSString,
                 "folder" as NSString, "S3" as NSString, "S3/folder" as NSString, "MB/s S3" as NSString))
    for (name, file) in inputs {
        let size = Double((try FileManager.default.attributesOfItem(atPath: file.path)[.size] as? NSNumber)?.int64Value ?? 0)
        let a = try await measure(local, file: file, name: name, runs: runs, scratch: scratch)
        let b = try await measure(s3, file: file, name: name, runs: runs, scratch: scratch)
        for (operation, x, y) in [("put", a.put, b.put), ("get", a.get, b.get), ("cold-cache", a.cached, b.cached)] {
            let (fm, sm) = (median(x), median(y))
            print(String(format: "%-10@ %-10@ %9.1f %9.1f %8.2fx %7.0f", name as NSString, operation as NSString,
                         fm, sm, sm / fm, size / 1e6 / (sm / 1e3)))
        }
    }
} catch {
    fail("\(error)")
}
#else
FileHandle.standardError.write(Data("photoedit-storage-bench: needs the S3 client: build it with the Server trait (the default build)\n".utf8))
exit(2)
#endif
