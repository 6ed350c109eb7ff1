import ArgumentParser
import Foundation
import PhotoEdit
import Synchronization

/// Parsing of the image-request options shared by `render` and `thumbs`;
/// each bad value is one line naming the valid ones.
enum RequestArguments {
    /// "WxH" or "N" (N×N), positive.
    static func size(_ text: String) throws -> ImageSize {
        let parts = text.lowercased().split(separator: "x", omittingEmptySubsequences: false)
        guard (1...2).contains(parts.count), let w = Int(parts[0]), w > 0, let h = parts.count == 2 ? Int(parts[1]) : w, h > 0 else {
            throw PhotoEditError.invalidOutput("size '\(text)' is not WxH or N with positive numbers")
        }
        return ImageSize(width: w, height: h)
    }

    static func contentMode(_ text: String) throws -> ImageContentMode {
        guard let m = ImageContentMode(rawValue: text.lowercased()) else {
            throw PhotoEditError.invalidOutput("unknown mode '\(text)' (fit or fill)")
        }
        return m
    }

    static func resizeMode(_ text: String) throws -> ImageResizeMode {
        guard let m = ImageResizeMode(rawValue: text.lowercased()) else {
            throw PhotoEditError.invalidOutput("unknown resize mode '\(text)' (none, fast or exact)")
        }
        return m
    }

    static func version(_ text: String) throws -> ImageVersion {
        guard let v = ImageVersion(rawValue: text.lowercased()) else {
            throw PhotoEditError.invalidOutput("unknown version '\(text)' (current, unadjusted or original)")
        }
        return v
    }

    static func isFolder(_ path: String) -> Bool {
        var isDirectory: ObjCBool = false
        return FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) && isDirectory.boolValue
    }

    /// "X:Y:W:H", normalized 0…1.
    static func crop(_ text: String) throws -> NormalizedRect {
        let parts = text.split(separator: ":", omittingEmptySubsequences: false)
        let values = parts.compactMap { Double($0) }
        guard parts.count == 4, values.count == 4 else {
            throw PhotoEditError.invalidOutput("crop '\(text)' is not X:Y:W:H (four numbers 0-1)")
        }
        let rect = NormalizedRect(x: values[0], y: values[1], width: values[2], height: values[3])
        guard rect.x >= 0, rect.y >= 0, rect.width > 0, rect.height > 0, rect.x + rect.width <= 1.000_001,
              rect.y + rect.height <= 1.000_001 else {
            throw PhotoEditError.invalidOutput("crop '\(text)' is not inside 0-1 with a positive width and height")
        }
        return rect
    }
}

struct ThumbsCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "thumbs",
        abstract: "Make thumbnails of many photos through the library's image cache.",
        discussion: """
        With -o DIR, writes DIR/ID.jpg for each photo and prints ID<TAB>FILE<TAB>WxH. Without -o, only fills \
        the library's cache (cache/images/) so that later requests are served from it, and prints ID<TAB>WxH. \
        Photos are done several at a time (--jobs); every id is checked before anything is written.
        """)
    @OptionGroup var options: LibraryOptions
    @Option(help: ArgumentHelp("Thumbnail box, N (N×N) or WxH.", valueName: "N")) var size: String
    @Option(name: .shortAndLong, help: ArgumentHelp("Folder to write ID.jpg files into (must exist).", valueName: "DIR")) var output: String?
    @Option(help: ArgumentHelp("fit (default) or fill.", valueName: "MODE")) var mode: String = "fit"
    @Option(help: ArgumentHelp("exact (default), fast or none.", valueName: "MODE")) var resize: String = "exact"
    @Option(help: "current, unadjusted or original.") var version: String = "current"
    @Option(help: "Photos done at once (default: the number of cores).") var jobs: Int = ProcessInfo.processInfo.activeProcessorCount
    @Flag(help: "As fast as possible (PhotoKit's fast delivery): a RAW's embedded preview or half-size development when it has no cached final thumbnail.")
    var fast = false
    @Argument(help: "Photo ids or unambiguous prefixes.") var ids: [String]

    func validate() throws {
        if ids.isEmpty { throw ValidationError("give at least one photo id") }
    }

    func run() async throws {
        try await PhotoEdit_run {
            let target = try RequestArguments.size(size)
            let contentMode = try RequestArguments.contentMode(mode)
            let request = ImageRequestOptions(version: try RequestArguments.version(version), deliveryMode: fast ? .fast : .highQuality,
                                              resizeMode: try RequestArguments.resizeMode(resize), isSynchronous: true)
            guard (1...64).contains(jobs) else { throw PhotoEditError.invalidOutput("jobs \(jobs) is out of range (1…64)") }
            if let output, !RequestArguments.isFolder(output) {
                throw PhotoEditError.invalidOutput("cannot write into \(output): no such folder")
            }
            let library = try options.open()
            let resolved = try ids.map { try library.resolve($0) }
            let manager = ImageManager(library: library)
            let lines = ThumbResults(count: resolved.count)
            let bar = ProgressBar("thumbnails")
            let done = ConcurrentTally()
            let output = output
            // At most `jobs` photos at once (and at most the executor's
            // width), each on the engine's BlockingExecutor; the command
            // awaits them, holding no thread.
            await withTaskGroup(of: Void.self) { group in
                for (i, id) in resolved.enumerated() {
                    if i >= jobs { await group.next() }
                    group.addTask {
                        let line = (try? await BlockingExecutor.run {
                            Self.thumb(id, manager: manager, target: target, contentMode: contentMode, options: request, output: output)
                        }) ?? .failure(.library("photo \(id) was not made"))
                        lines.set(i, line)
                        done.increment { bar.update($0, of: resolved.count) }
                    }
                }
            }
            bar.finish()
            var failed = false
            for result in lines.all {
                switch result {
                case .success(let line): Output.line(line)
                case .failure(let error): Output.error(error.description); failed = true
                case nil: failed = true
                }
            }
            if failed { throw ExitCode(1) }
        }
    }

    private static func thumb(_ id: String, manager: ImageManager, target: ImageSize, contentMode: ImageContentMode,
                              options: ImageRequestOptions, output: String?) -> Result<String, PhotoEditError> {
        Result {
            let request = try manager.requestImage(for: id, targetSize: target, contentMode: contentMode, options: options)
            guard let result = request.finalResult else { throw PhotoEditError.library("no image for photo \(id)") }
            if let error = result.info.error { throw error }
            guard let image = result.image else { throw PhotoEditError.library("no image for photo \(id)") }
            guard let output else { return "\(id)\t\(image.width)x\(image.height)" }
            let file = (output as NSString).appendingPathComponent(id + ".jpg")
            try image.write(to: file)
            return "\(id)\t\(file)\t\(image.width)x\(image.height)"
        }.mapError { $0 as? PhotoEditError ?? .library("\($0)") }
    }
}

/// A count shared by several threads; `increment` reports the new value
/// under the lock, so reports arrive in order.
final class ConcurrentTally: Sendable {
    private let value = Mutex(0)
    func increment(_ report: (Int) -> Void) { value.withLock { $0 += 1; report($0) } }
}

/// Results gathered from several threads, in the order of the ids.
final class ThumbResults: Sendable {
    private let results: Mutex<[Result<String, PhotoEditError>?]>
    init(count: Int) { results = Mutex(Array(repeating: nil, count: count)) }
    func set(_ i: Int, _ r: Result<String, PhotoEditError>) { results.withLock { $0[i] = r } }
    var all: [Result<String, PhotoEditError>?] { results.withLock { $0 } }
}

/// `photoedit bench-requests`: in-process figures for bench/thumbs-benchmark.py
/// (hidden from help). Prints one JSON object.
struct BenchRequestsCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "bench-requests", abstract: "Measure image requests in-process (for bench/).", shouldDisplay: false)
    @OptionGroup var options: LibraryOptions
    @Option var size: Int = 256
    @Option(help: "Warm hits to time.") var hits: Int = 2000
    @Flag(help: "Prefetch every photo with startCaching and report the peak memory.") var prefetch = false
    @Argument var ids: [String] = []

    /// A benchmark of the synchronous image requests: it times them on
    /// the command's own task (nothing else runs in this process).
    func run() async throws {
        try await PhotoEdit_run {
            let library = try options.open()
            let ids = try self.ids.isEmpty ? library.assets().map(\.id) : self.ids.map { try library.resolve($0) }
            let target = ImageSize(side: size)
            let request = ImageRequestOptions(deliveryMode: .highQuality, resizeMode: .exact, isSynchronous: true)
            var out: [String: JSONValue] = ["photos": .number(Double(ids.count)), "size": .number(Double(size))]
            func now() -> Double { Double(DispatchTime.now().uptimeNanoseconds) / 1e9 }
            func rssMB() -> Double {
                var usage = rusage()
                getrusage(RUSAGE_SELF.rawValue, &usage)
                return Double(usage.ru_maxrss) / 1024
            }
            if prefetch {
                let manager = ImageManager(library: library)
                let start = now()
                try manager.startCaching(ids, targetSize: target, options: ImageRequestOptions(resizeMode: .exact))
                await manager.waitForCaching()
                out["prefetchSeconds"] = .number(now() - start)
                out["prefetched"] = .number(Double(manager.statistics.prefetched))
                out["renders"] = .number(Double(manager.statistics.renders))
                out["memoryCacheMB"] = .number(Double(manager.statistics.memoryCacheBytes) / 1_048_576)
                out["peakRSSMB"] = .number(rssMB())
                Output.json(.object(out))
                return
            }
            // Fill the cache, then time hits: memory (same manager), disk (a new manager each round).
            let manager = ImageManager(library: library)
            for id in ids { _ = try manager.requestImage(for: id, targetSize: target, options: request) }
            var memory: [Double] = []
            for i in 0..<hits {
                let t = now()
                let r = try manager.requestImage(for: ids[i % ids.count], targetSize: target, options: request)
                guard r.finalResult?.info.isFromCache == true else { throw PhotoEditError.library("warm request missed the cache") }
                memory.append(now() - t)
            }
            // The same through the AsyncSequence, as an app iterates it.
            var streamed: [Double] = []
            let async = ImageRequestOptions(deliveryMode: .opportunistic, resizeMode: .exact)
            for i in 0..<hits {
                let t = now()
                guard let r = try? manager.requestImage(for: ids[i % ids.count], targetSize: target, options: async) else { break }
                for await _ in r {}
                streamed.append(now() - t)
            }
            var disk: [Double] = []
            for id in ids {
                let fresh = ImageManager(library: library)
                let t = now()
                let r = try fresh.requestImage(for: id, targetSize: target, options: request)
                guard r.finalResult?.info.isFromCache == true else { throw PhotoEditError.library("disk request missed the cache") }
                disk.append(now() - t)
            }
            func summary(_ values: [Double]) -> JSONValue {
                let sorted = values.sorted()
                guard !sorted.isEmpty else { return .null }
                return .object(["medianMs": .number(sorted[sorted.count / 2] * 1000), "p99Ms": .number(sorted[min(sorted.count - 1, sorted.count * 99 / 100)] * 1000),
                                "maxMs": .number(sorted.last! * 1000), "count": .number(Double(sorted.count))])
            }
            out["memoryHit"] = summary(memory)
            out["memoryHitAsyncSequence"] = summary(streamed)
            out["diskHit"] = summary(disk)
            out["peakRSSMB"] = .number(rssMB())
            Output.json(.object(out))
        }
    }
}

