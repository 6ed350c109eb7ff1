// photoedit-bench: catalog figures (issue 6, part 5). Not a test.
//
//   photoedit-bench catalog [--photos N] [--runs N] [--keep DIR]   (an existing --keep DIR is reused)
//       generates N photos (default 100 000) straight into a fresh library's
//       catalog (SQL, no files), then times fetches and the change feed.
//   photoedit-bench commit LIBRARY ID
//       (the other process of the feed figure) toggles a favorite and prints the
//       wall-clock times, in ns, just before and just after the commit.
import Foundation
import GRDB
import PhotoEdit

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

func summary(_ ms: [Double]) -> String {
    let s = ms.sorted()
    return String(format: "median %.2f ms, min %.2f ms, max %.2f ms", s[s.count / 2], s[0], s[s.count - 1])
}

/// drand48's generator, seeded: every run generates the same catalog.
struct Seeded {
    init(seed: Int) { srand48(seed) }
    func next() -> UInt64 {
        UInt64(UInt32(truncatingIfNeeded: mrand48())) << 32 | UInt64(UInt32(truncatingIfNeeded: mrand48()))
    }
}

/// Photos as an import would record them: sizes, dates over ten years,
/// 10 % favorites, 2 % hidden, 1 % recently deleted, camera metadata on
/// 60 %, 50 albums of 200 photos. Also one revision each (20 % edited).
func generate(_ catalog: String, photos: Int) throws {
    let rng = Seeded(seed: 42)
    let queue = try DatabaseQueue(path: catalog)
    let makes = ["Canon", "Nikon", "Sony", "Fujifilm", "Leica"]
    let sizes = [(6000, 4000), (4000, 3000), (8192, 5464), (3024, 4032), (1920, 1080), (2000, 3000)]
    let formats = [("jpeg", "public.jpeg"), ("jpeg", "public.jpeg"), ("jpeg", "public.jpeg"), ("heif", "public.heic"), ("raw", "public.camera-raw-image")]
    let start = Date(timeIntervalSince1970: 1_420_070_400)   // 2015-01-01
    let dateFormat = DateFormatter()
    dateFormat.locale = Locale(identifier: "en_US_POSIX")
    dateFormat.dateFormat = "yyyy-MM-dd'T'HH:mm:ss"
    dateFormat.timeZone = TimeZone(identifier: "UTC")
    try queue.write { db in
        for n in 0..<photos {
            let id = String(format: "%016llx%016llx", rng.next(), rng.next())
            let (w, h) = sizes[Int(rng.next() % UInt64(sizes.count))]
            let (format, uti) = formats[Int(rng.next() % UInt64(formats.count))]
            let created = start.addingTimeInterval(Double(rng.next() % (10 * 365 * 86_400)))
            let roll = rng.next() % 100
            let camera: String? = roll < 60
                ? #"{"make":"\#(makes[Int(rng.next() % 5)])","model":"M\#(rng.next() % 10)","iso":\#(100 << (rng.next() % 6)),"fNumber":2.8}"#
                : nil
            try db.execute(sql: """
                INSERT INTO asset (id, originalFilename, sha256, originalPath, fileSize, format, uniformTypeIdentifier, mediaType,
                    originalPixelWidth, originalPixelHeight, orientation, creationDate, importDate, revision, favorite, hidden,
                    trashedDate, camera)
                VALUES (?, ?, ?, ?, ?, ?, ?, 'image', ?, ?, 1, ?, ?, ?, ?, ?, ?, ?)
                """, arguments: [id, String(format: "IMG_%06d.%@", n, format == "raw" ? "CR3" : "JPG"), id + id,
                                 "originals/\(id.prefix(2))/\(id)", 5_000_000 + Int(rng.next() % 20_000_000), format, uti, w, h,
                                 roll % 7 == 0 ? nil : dateFormat.string(from: created),
                                 start.addingTimeInterval(Double(n) * 3000), roll < 20 ? 1 : 0, rng.next() % 10 == 0,
                                 rng.next() % 50 == 0, rng.next() % 100 == 0 ? Date() : nil, camera])
            try db.execute(sql: "INSERT INTO revision (assetId, number, createdAt, kind, pixelWidth, pixelHeight) VALUES (?, 0, ?, 'import', ?, ?)",
                           arguments: [id, Date(), w, h])
            if roll < 20 {
                try db.execute(sql: """
                    INSERT INTO revision (assetId, number, createdAt, kind, formatIdentifier, formatVersion, data, pixelWidth, pixelHeight)
                    VALUES (?, 1, ?, 'edit', 'org.photoedit.recipe', '1', ?, ?, ?)
                    """, arguments: [id, Date(), Data(#"{"format":"org.photoedit.recipe","formatVersion":1,"filters":[]}"#.utf8), w, h])
            }
            if n < 50 * 200 {
                if n % 200 == 0 {
                    try db.execute(sql: "INSERT INTO album (id, title, createdAt) VALUES (?, ?, ?)",
                                   arguments: [String(format: "%032x", n / 200 + 1), "Trip \(n / 200)", Date()])
                }
                try db.execute(sql: "INSERT INTO albumAsset (albumId, assetId, position) VALUES (?, ?, ?)",
                               arguments: [String(format: "%032x", n / 200 + 1), id, n % 200])
            }
        }
    }
    try queue.writeWithoutTransaction { db in try db.execute(sql: "ANALYZE") }
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
        try generate(folder + "/catalog.sqlite", photos: photos)
        print(String(format: "generated %d photos in %.1f s", photos, Double(DispatchTime.now().uptimeNanoseconds - t) / 1e9))
    }
    let library = try PhotoLibrary(url: URL(fileURLWithPath: folder))

    print("\n## Fetches (\(runs) runs each, after one warm-up)")
    let queries: [(String, FetchOptions)] = [
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
        try child.run()
        child.waitUntilExit()
        let times = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self).split(separator: " ").compactMap { Int64($0.trimmingCharacters(in: .whitespacesAndNewlines)) }
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

final class Received: @unchecked Sendable {
    private let lock = NSLock()
    private var times: [Int64] = []
    func add(_ t: Int64) { lock.lock(); times.append(t); lock.unlock() }
    var count: Int { lock.lock(); defer { lock.unlock() }; return times.count }
    func at(_ i: Int) -> Int64? { lock.lock(); defer { lock.unlock() }; return i < times.count ? times[i] : nil }
}

let arguments = Array(CommandLine.arguments.dropFirst())
do {
    switch arguments.first {
    case "catalog":
        try catalogBenchmark(Array(arguments.dropFirst()))
    case "commit" where arguments.count == 3:
        let library = try PhotoLibrary(url: URL(fileURLWithPath: arguments[1]), create: false)
        let value = try !library.asset(arguments[2]).isFavorite
        let start = realtimeNanoseconds()
        try library.performChanges { try $0.changeRequest(for: arguments[2]).isFavorite = value }
        print(start, realtimeNanoseconds())
    default:
        fail("usage: photoedit-bench catalog [--photos N] [--runs N] [--keep DIR] | commit LIBRARY ID")
    }
} catch {
    fail("\(error)")
}
