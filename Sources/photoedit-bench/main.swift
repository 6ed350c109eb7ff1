// photoedit-bench: catalog figures (issue 6, part 5). Not a test.
//
//   photoedit-bench catalog [--photos N] [--runs N] [--keep DIR]   (an existing --keep DIR is reused)
//       generates N photos (default 100 000) straight into a fresh library's
//       catalog (SQL, no files), then times fetches and the change feed.
//   photoedit-bench catalog-postgres [--url postgres://…] [--photos N] [--runs N] [--keep] [--sqlite DIR]
//       the same fetches on a PostgreSQL catalog (default 1 000 000 photos): on the
//       server at --url, or on a private server started on loopback (initdb, needs
//       Debian's postgresql); the same generated photos as `catalog`; with --keep
//       an existing catalog of exactly N photos is reused. With --sqlite, the
//       same N photos in a SQLite catalog in DIR (made if missing, kept) are
//       timed in the same run, and each fetch prints PostgreSQL / SQLite.
//   photoedit-bench job-worker URL [--lease SECONDS]
//       (a node of the job tests) runs `sleep` jobs from the PostgreSQL catalog
//       at URL until killed: each sleeps its payload's "ms", then records its
//       "item" in the table jobEffect (once, however often it runs).
//   photoedit-bench commit LIBRARY ID
//       (the other process of the feed figure) toggles a favorite and prints the
//       wall-clock times, in ns, just before and just after the commit.
//
// `catalog` and `commit` (SQLite) build without the Server trait too;
// `catalog-postgres` and `job-worker` need it (PostgreSQL, and the private
// server of the test support).
import Foundation
import PhotoEdit
import PhotoEditSampleCatalog
import Synchronization
#if Server
import PhotoEditPostgres
import PhotoEditTestSupport
#endif

func realtimeNanoseconds() -> Int64 {
    var ts = timespec()
    clock_gettime(CLOCK_REALTIME, &ts)
    return Int64(ts.tv_sec) * 1_000_000_000 + Int64(ts.tv_nsec)
}

func fail(_ text: String) -> Never {
    FileHandle.standardError.write(Data("photoedit-bench: \(text)\n".utf8))
    exit(2)
}

/// Milliseconds of each run of `body`.
func time(runs: Int, _ body: () throws -> Void) rethrows -> [Double] {
    try body()   // warm-up
    return try (0..<runs).map { _ in
        let start = DispatchTime.now().uptimeNanoseconds
        try body()
        return Double(DispatchTime.now().uptimeNanoseconds - start) / 1e6
    }
}

func median(_ ms: [Double]) -> Double { ms.sorted()[ms.count / 2] }

func summary(_ ms: [Double]) -> String {
    let s = ms.sorted()
    return String(format: "median %.2f ms, min %.2f ms, max %.2f ms", s[s.count / 2], s[0], s[s.count - 1])
}

/// The fetches both catalog benchmarks time (the first is issue 6's example).
func benchmarkQueries() throws -> [(String, FetchOptions)] {
    [
        (#"favorite and width>=3000 and created>=2020-01-01 and camera.make="Canon", sort -created,name, limit 20"#,
         FetchOptions(predicate: try AssetPredicate(parsing: #"favorite and width>=3000 and created>=2020-01-01 and camera.make="Canon""#),
                      sortDescriptors: try AssetSortDescriptor.parseList("-created,name"), fetchLimit: 20)),
        (#"album="Trip 7" and not edited, sort -created, limit 20"#,
         FetchOptions(predicate: try AssetPredicate(parsing: #"album="Trip 7" and not edited"#),
                      sortDescriptors: [AssetSortDescriptor(.created, ascending: false)], fetchLimit: 20)),
        ("raw and iso>=1600, sort -width,name, limit 20",
         FetchOptions(predicate: try AssetPredicate(parsing: "raw and iso>=1600"), sortDescriptors: try AssetSortDescriptor.parseList("-width,name"), fetchLimit: 20)),
        ("width>=3000 (no limit: every id)", FetchOptions(predicate: AssetField.width >= 3000)),
        ("everything, import order (no limit: every id)", FetchOptions()),
    ]
}

func catalogBenchmark(_ arguments: [String]) throws {
    var photos = 100_000, runs = 20
    var keep: String?
    var i = 0
    while i < arguments.count {
        switch arguments[i] {
        case "--photos": photos = Int(arguments[i + 1]) ?? photos; i += 2
        case "--runs": runs = Int(arguments[i + 1]) ?? runs; i += 2
        case "--keep": keep = arguments[i + 1]; i += 2
        default: fail("unknown option \(arguments[i])")
        }
    }
    let folder = keep ?? NSTemporaryDirectory() + "photoedit-bench-\(UUID().uuidString.prefix(8))"
    defer { if keep == nil { try? FileManager.default.removeItem(atPath: folder) } }
    var t = DispatchTime.now().uptimeNanoseconds
    if FileManager.default.fileExists(atPath: folder + "/catalog.sqlite") {
        print("reusing the catalog in \(folder)")   // a --keep folder from an earlier run
    } else {
        _ = try PhotoLibrary(url: URL(fileURLWithPath: folder))   // creates the catalog (every migration)
        try SampleCatalog(photos: photos).write(sqlite: folder + "/catalog.sqlite")
        print(String(format: "generated %d photos in %.1f s", photos, Double(DispatchTime.now().uptimeNanoseconds - t) / 1e9))
    }
    let library = try PhotoLibrary(url: URL(fileURLWithPath: folder))

    print("\n## Fetches (\(runs) runs each, after one warm-up)")
    let queries = try benchmarkQueries()
    for (label, options) in queries {
        var count = 0
        let ids = try time(runs: runs) { count = try library.fetchAssets(options).count }
        print("- \(label): \(count) photos; ids: \(summary(ids))")
        if options.fetchLimit > 0 {
            let objects = try time(runs: runs) { _ = try library.fetchAssets(options).allObjects() }
            print("  ids + the \(count) Asset values: \(summary(objects))")
        }
    }

    print("\n## Change feed: a commit by another process, until the AsyncSequence delivers it")
    let target = try library.fetchAssets(FetchOptions(fetchLimit: 1)).identifiers[0]
    let stream = try library.changeSets()
    let received = Received()
    let consumer = Task.detached {   // not on the main actor, which this loop keeps busy
        for try await set in stream where set.assetIdentifiers.contains(target) { received.add(realtimeNanoseconds()) }
    }
    let me = (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? CommandLine.arguments[0]
    var fromCommit: [Double] = [], fromStart: [Double] = []
    for n in 0..<runs {
        let pipe = Pipe()
        let child = Process()
        child.executableURL = URL(fileURLWithPath: me)
        child.arguments = ["commit", folder, target]
        child.standardOutput = pipe
        try child.runWithNoSignalBlocked()
        child.waitUntilExit()
        let times = String(decoding: try FileIO.readToEnd(pipe.fileHandleForReading.fileDescriptor, what: "the child's times"), as: UTF8.self).split(separator: " ").compactMap { Int64($0.trimmingCharacters(in: .whitespacesAndNewlines)) }
        guard times.count == 2 else { fail("the commit process printed no times") }
        t = DispatchTime.now().uptimeNanoseconds
        while received.count <= n && DispatchTime.now().uptimeNanoseconds - t < 5_000_000_000 { usleep(500) }
        guard let at = received.at(n) else { fail("change \(n) was not delivered within 5 s") }
        fromCommit.append(Double(at - times[1]) / 1e6)
        fromStart.append(Double(at - times[0]) / 1e6)
    }
    consumer.cancel()
    print("- from the end of the other process's performChanges: \(summary(fromCommit))")
    print("- from its start (the whole commit: transaction, fsync, feed rows): \(summary(fromStart))")
}

#if Server
/// Milliseconds of each run of an async `body`, after one warm-up.
func time(runs: Int, _ body: () async throws -> Void) async rethrows -> [Double] {
    try await body()
    var out: [Double] = []
    for _ in 0..<runs {
        let start = DispatchTime.now().uptimeNanoseconds
        try await body()
        out.append(Double(DispatchTime.now().uptimeNanoseconds - start) / 1e6)
    }
    return out
}

func postgresCatalogBenchmark(_ arguments: [String]) async throws {
    var photos = 1_000_000, runs = 20, keep = false
    var url: String?, sqliteFolder: String?
    var i = 0
    while i < arguments.count {
        switch arguments[i] {
        case "--photos" where i + 1 < arguments.count: photos = Int(arguments[i + 1]) ?? photos; i += 2
        case "--runs" where i + 1 < arguments.count: runs = Int(arguments[i + 1]) ?? runs; i += 2
        case "--url" where i + 1 < arguments.count: url = arguments[i + 1]; i += 2
        case "--keep": keep = true; i += 1
        case "--sqlite" where i + 1 < arguments.count: sqliteFolder = arguments[i + 1]; i += 2
        default: fail("unknown option \(arguments[i])")
        }
    }
    // The peer: SQLite with the same photos, timed in the same run.
    var sqlite: PhotoLibrary?
    if let folder = sqliteFolder {
        if !FileManager.default.fileExists(atPath: folder + "/catalog.sqlite") {
            let start = DispatchTime.now().uptimeNanoseconds
            _ = try PhotoLibrary(url: URL(fileURLWithPath: folder))
            try SampleCatalog(photos: photos).write(sqlite: folder + "/catalog.sqlite")
            print(String(format: "SQLite: generated %d photos in %.1f s", photos, Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9))
        }
        let library = try PhotoLibrary(url: URL(fileURLWithPath: folder))
        guard try await BlockingExecutor.run({ try library.fetchAssets(FetchOptions(includeHiddenAssets: true, includeRecentlyDeleted: true)) }).count == photos else {
            fail("the SQLite catalog in \(folder) does not hold exactly \(photos) photos")
        }
        sqlite = library
    }
    let location = try url.map { try PostgresCatalogLocation(url: $0) } ?? LocalPostgresServer.shared.get().newDatabase()
    let catalog = try await PostgresCatalog.open(location)
    print("PostgreSQL \(try await catalog.serverVersion()) at \(location)\(url == nil ? " (a private server on loopback)" : "")")
    let existing = try await catalog.photoCount()
    if keep && existing == photos {
        print("reusing its \(existing) photos")
    } else if existing == 0 {
        let start = DispatchTime.now().uptimeNanoseconds
        try await SampleCatalog(photos: photos).write(postgres: catalog, batch: 2000) { done in
            if done % 100_000 == 0 { print("  \(done) photos written") }
        }
        print(String(format: "generated %d photos in %.1f s", photos, Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9))
    } else {
        fail("the catalog at \(location) already holds \(existing) photos (--keep reuses exactly --photos; else use an empty database)")
    }
    print("\n## Fetches (\(runs) runs each, after one warm-up): ids only")
    for (label, options) in try benchmarkQueries() {
        var count = 0
        let ids = try await time(runs: runs) { count = try await catalog.fetchAssetIdentifiers(options).count }
        print("- \(label): \(count) photos; PostgreSQL \(summary(ids))")
        if let sqlite {
            var peerCount = 0
            let peer = try time(runs: runs) { peerCount = try sqlite.fetchAssets(options).count }
            guard peerCount == count else { fail("SQLite found \(peerCount) photos, PostgreSQL \(count)") }
            print("  SQLite \(summary(peer)); PostgreSQL / SQLite (medians) \(String(format: "%.3f", median(ids) / median(peer)))")
        }
    }
    await catalog.close()
}
#endif

final class Received: Sendable {
    private let times = Mutex<[Int64]>([])
    func add(_ t: Int64) { times.withLock { $0.append(t) } }
    var count: Int { times.withLock { $0.count } }
    func at(_ i: Int) -> Int64? { times.withLock { i < $0.count ? $0[i] : nil } }
}

let arguments = Array(CommandLine.arguments.dropFirst())
do {
    switch arguments.first {
    case "catalog":
        try catalogBenchmark(Array(arguments.dropFirst()))
    #if Server
    case "catalog-postgres":
        try await postgresCatalogBenchmark(Array(arguments.dropFirst()))
    case "job-worker" where arguments.count >= 2:
        let lease = arguments.count == 4 && arguments[2] == "--lease" ? Double(arguments[3]) ?? 30 : 30
        let catalog = try await PostgresCatalog.open(try PostgresCatalogLocation(url: arguments[1]))
        let worker = CatalogJobWorker(catalog: catalog, lease: .milliseconds(Int(lease * 1000)), handlers: ["sleep": { context in
            let payload = try JSONSerialization.jsonObject(with: Data(context.job.payload.utf8)) as? [String: Any] ?? [:]
            try await Task.sleep(for: .milliseconds(payload["ms"] as? Int ?? 0))
            try await catalog.execute([SQLFragment(sql: "INSERT INTO jobEffect (item) VALUES (?) ON CONFLICT DO NOTHING",
                                                   arguments: [.integer(Int64(payload["item"] as? Int ?? -1))])])
        }])
        FileHandle.standardOutput.write(Data((worker.name + "\n").utf8))
        try await worker.run(poll: .milliseconds(200))
    #else
    case "catalog-postgres", "job-worker":
        fail("\(arguments[0]) needs PostgreSQL: build photoedit-bench with the Server trait (the default build)")
    #endif
    case "commit" where arguments.count == 3:
        let library = try PhotoLibrary(url: URL(fileURLWithPath: arguments[1]), create: false)
        let value = try !library.asset(arguments[2]).isFavorite
        let start = realtimeNanoseconds()
        try library.performChanges { try $0.changeRequest(for: arguments[2]).isFavorite = value }
        print(start, realtimeNanoseconds())
    default:
        fail("usage: photoedit-bench catalog [--photos N] [--runs N] [--keep DIR] | catalog-postgres [--url URL] [--photos N] [--runs N] [--keep] | job-worker URL [--lease S] | commit LIBRARY ID")
    }
} catch {
    fail("\(error)")
}
