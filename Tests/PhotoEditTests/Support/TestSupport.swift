import Foundation
import Testing
@testable import PhotoEdit
import PhotoEditTestSupport

// The package's paths, temporary folders and the `photoedit` runner are
// PhotoEditTestSupport's, shared by every test target; these names make them
// this module's without an import in every file.
typealias Paths = PhotoEditTestSupport.Paths
typealias TemporaryDirectory = PhotoEditTestSupport.TemporaryDirectory
typealias CLIResult = PhotoEditTestSupport.CLIResult
typealias CLIError = PhotoEditTestSupport.TestFailure
typealias Tool = PhotoEditTestSupport.Tool

/// Hashes files with the engine's own streamed SHA-256.
enum Hashing {
    static func sha256(_ path: String) throws -> String { try FileIO.sha256(of: path) }

    /// Relative path → SHA-256 of every regular file under `folder`, except
    /// names in `excluding` (e.g. SQLite's shared-memory index).
    static func tree(_ folder: String, excluding: Set<String> = ["catalog.sqlite-shm"]) throws -> [String: String] {
        let base = URL(fileURLWithPath: folder).standardizedFileURL
        var out: [String: String] = [:]
        guard let e = FileManager.default.enumerator(at: base, includingPropertiesForKeys: [.isRegularFileKey]) else { return out }
        for case let url as URL in e where (try? url.resourceValues(forKeys: [.isRegularFileKey]).isRegularFile) == true {
            let relative = String(url.standardizedFileURL.path.dropFirst(base.path.count + 1))
            if excluding.contains(url.lastPathComponent) { continue }
            out[relative] = try sha256(url.path)
        }
        return out
    }
}

/// Pixel comparisons on the engine's own libvips images.
enum Pixels {
    static func load(_ path: String) throws -> Image {
        try Image.load(path: path, sequential: false)
    }

    /// (max, mean) CIEDE2000 difference of two images of the same size.
    static func deltaE(_ a: Image, _ b: Image) throws -> (max: Double, mean: Double) {
        let map = try a.deltaE2000(b)
        return (try map.maximum(), try map.average())
    }

    static func deltaE(_ a: String, _ b: String) throws -> (max: Double, mean: Double) {
        try deltaE(load(a), load(b))
    }

    /// Largest absolute difference of any band of any pixel.
    static func maxAbsDifference(_ a: Image, _ b: Image) throws -> Double {
        let diff = try Vips.image("subtract", [("left", .image(a)), ("right", .image(b))])
        return try diff.call("abs").maximum()
    }

    /// Mean of each band over the whole image.
    static func bandMeans(_ image: Image) throws -> [Double] {
        try (0..<image.bands).map { try image.extractBands($0, count: 1).average() }
    }

    /// Writes a small synthetic sRGB PNG: a horizontal ramp plus `seed`,
    /// so each seed gives different bytes.
    static func writeSyntheticPNG(to path: String, seed: Int, width: Int = 24, height: Int = 16) throws {
        let ramp = try Vips.image("xyz", [("width", .number(Double(width))), ("height", .number(Double(height)))])
            .extractBands(0, count: 1)
            .linear(multiply: [3], add: [Double(seed * 7 % 200)])
        let rgb = try Vips.image("bandjoin", [("in", .images([ramp, ramp, ramp]))])
            .linear(multiply: [1, 0.5, 0.25], add: [0, Double(seed), 40])
            .cast("uchar")
        let out = try rgb.copyForMetadata()
        try out.save(to: path, format: "png")
    }
}

/// A value shared between threads under a lock.
final class Locked<Value>: @unchecked Sendable {
    private var stored: Value
    private let lock = NSLock()
    init(_ value: Value) { stored = value }
    var value: Value { lock.lock(); defer { lock.unlock() }; return stored }
    func mutate(_ body: (inout Value) -> Void) { lock.lock(); defer { lock.unlock() }; body(&stored) }
}
