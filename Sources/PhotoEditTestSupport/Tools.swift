import Foundation
import PhotoEdit

/// Command-line tools tests compare the engine with (sha256sum, exiftool,
/// exiv2…), run to their end.
package enum Tool {
    /// The standard output of `tool arguments`; throws when it cannot start
    /// or exits non-zero (with its standard error).
    package static func output(_ tool: String, _ arguments: [String]) throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: tool)
        process.arguments = arguments
        // Standard error into a file, so a chatty tool cannot block on a full pipe.
        let temp = TemporaryDirectory("photoedit-tool")
        let errorFile = temp.file("stderr")
        guard FileManager.default.createFile(atPath: errorFile, contents: nil) else { throw TestFailure("cannot create \(errorFile)") }
        let out = Pipe()
        process.standardOutput = out
        guard let errors = FileHandle(forWritingAtPath: errorFile) else { throw TestFailure("cannot open \(errorFile)") }
        process.standardError = errors
        try process.run()
        let data = try FileIO.readToEnd(out.fileHandleForReading.fileDescriptor, what: "\(tool)'s output")
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            let errors = FileManager.default.contents(atPath: errorFile) ?? Data()
            throw TestFailure("\(tool) \(arguments) exited with \(process.terminationStatus): "
                              + String(decoding: errors.prefix(500), as: UTF8.self))
        }
        return String(decoding: data, as: UTF8.self)
    }

    /// Runs exiftool quietly (`-q -q`; Debian's libimage-exiftool-perl, which
    /// scripts/install-deps installs); throws when it fails.
    package static func exiftool(_ arguments: [String]) throws {
        _ = try output("/usr/bin/exiftool", ["-q", "-q"] + arguments)
    }
}

extension Paths {
    /// A file of `Tests/Fixtures/raw` (coffee.dng and the JPEG the camera wrote with it, truncated.dng…).
    package static func rawFixture(_ name: String) -> String {
        root.appendingPathComponent("Tests/Fixtures/raw/\(name)").path
    }

    /// A RAW+JPEG pair of one shot (IMG_0042.DNG, IMG_0042.JPG) and a
    /// single JPEG (IMG_0043.JPG), in a new temporary folder.
    package static func rawJPEGPairFolder() throws -> TemporaryDirectory {
        let folder = TemporaryDirectory("photoedit-pair")
        try FileManager.default.copyItem(atPath: rawFixture("coffee.dng"), toPath: folder.file("IMG_0042.DNG"))
        try FileManager.default.copyItem(atPath: rawFixture("coffee.jpg"), toPath: folder.file("IMG_0042.JPG"))
        try FileManager.default.copyItem(atPath: sample("chelsea.jpg"), toPath: folder.file("IMG_0043.JPG"))
        return folder
    }
}
