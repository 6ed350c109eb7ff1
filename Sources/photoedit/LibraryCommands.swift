import ArgumentParser
import Foundation
import PhotoEdit
import PhotoEditLocation

struct LibraryCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "library",
        abstract: "Whole-library operations: copy a library between backends.",
        subcommands: [Copy.self])

    struct Copy: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Copy a library into another (a folder into postgres://…?blobs=…, or back), verified; prints one summary line.",
            discussion: """
            Every photo (original and RAW), every revision (adjustment data, render, revision record), flags, dates and \
            albums, under the same ids. One photo at a time, all or nothing: an interrupted copy leaves whole photos, and \
            running it again carries on. The target must be empty or a previous partial copy of the same source. \
            Everything copied is verified at the end (originals against their SHA-256, every other file against the source's bytes).
            """)
        @Option(help: ArgumentHelp("The library to copy: a folder, postgres://…?blobs=…, or a config file.", valueName: "LIBRARY"))
        var from: String
        @Option(help: ArgumentHelp("The library to copy into (created when it is a new folder; a PostgreSQL database must exist).", valueName: "LIBRARY"))
        var to: String

        func run() throws {
            try PhotoEdit_run {
                let (source, target) = (try LibraryLocation.named(from), try LibraryLocation.named(to))
                guard source != target else { throw PhotoEditError.library("library copy: --from and --to name the same library") }
                if case let .folder(url) = source, !FileManager.default.fileExists(atPath: url.path) {
                    throw PhotoEditError.library("no library at \(url.path)")
                }
                let sourceLibrary = try source.open(create: false)
                let targetLibrary = try target.open(create: true)
                let bar = ProgressBar("copying")
                defer { bar.finish() }
                let report = try sourceLibrary.copy(to: targetLibrary, progress: bar.handler)
                bar.finish()
                Output.line(report.summary)
            }
        }
    }
}
