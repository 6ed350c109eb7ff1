import Foundation
import Synchronization

/// The package's folders and test data, found from this source file: one
/// place for every test target (and the benchmarks) to find `samples/`,
/// `filters/` and `Tests/Fixtures/`.
package enum Paths {
    /// The package root (the folder holding Package.swift).
    package static let root: URL = {
        var url = URL(fileURLWithPath: #filePath)
        // Sources/PhotoEditTestSupport/Paths.swift → package root.
        for _ in 0..<3 { url.deleteLastPathComponent() }
        return url
    }()

    /// The sample photos (samples/, with their licences).
    package static let samples = root.appendingPathComponent("samples")
    /// Files that must be refused (Tests/Fixtures/bad).
    package static let badFixtures = root.appendingPathComponent("Tests/Fixtures/bad")
    /// photoedit's own golden suite.
    package static let filters = root.appendingPathComponent("filters")
    /// Where failing golden cases leave their images.
    package static let goldenFailures = root.appendingPathComponent(".golden-failures")

    /// The path of sample photo `name`.
    package static func sample(_ name: String) -> String { samples.appendingPathComponent(name).path }
    /// The path of bad fixture `name`.
    package static func bad(_ name: String) -> String { badFixtures.appendingPathComponent(name).path }
}

/// A test's own failure (a missing tool, a server that did not start, an
/// unexpected answer): one line.
package struct TestFailure: Error, CustomStringConvertible {
    package let message: String
    package init(_ message: String) { self.message = message }
    package var description: String { message }
}

/// A temporary folder, removed with everything in it when the value is
/// released, and again when the test process exits: work that outlives the
/// value — a library's renders, journals and catalog closed later, a child
/// process, a job closure an executor thread still holds — may write into it
/// after the first removal.
package final class TemporaryDirectory: Sendable {
    package let url: URL
    package var path: String { url.path }

    /// A new folder `<label>-<random>` in the system's temporary folder.
    package init(_ label: String = "photoedit-tests") {
        url = FileManager.default.temporaryDirectory
            .appendingPathComponent("\(label)-\(UUID().uuidString.prefix(12).lowercased())")
        try! FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        removedAtExit.withLock { $0.append(url.path) }
        _ = removalAtExitRegistered
    }

    /// The path of `name` in the folder.
    package func file(_ name: String) -> String { url.appendingPathComponent(name).path }

    deinit {
        // Originals are read-only files; their folders are not, so removal works.
        try? FileManager.default.removeItem(at: url)
    }
}

/// Every `TemporaryDirectory` of the process, removed once more at exit.
private let removedAtExit = Mutex<[String]>([])

/// The exit handler that removes them, registered once.
private let removalAtExitRegistered: Void = {
    atexit {
        for path in removedAtExit.withLock({ $0 }) { try? FileManager.default.removeItem(atPath: path) }
    }
}()
