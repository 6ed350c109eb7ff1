import ArgumentParser
import Dispatch
import Foundation
import PhotoEdit
import Synchronization

/// One line per change-feed entry: `SEQ TIME KIND TYPE ID WHAT`, or a JSON object.
enum FeedOutput {
    static func print(_ e: ChangeEntry, json: Bool) {
        if json {
            Output.json(.object([
                "seq": .number(Double(e.seq)), "time": .string(Output.date(e.date)), "kind": .string(e.kind.rawValue),
                "type": .string(e.objectType.rawValue), "id": .string(e.identifier),
                "changes": .array(e.aspects.names.map { .string($0) }),
            ]))
        } else {
            let what = e.aspects.isEmpty ? "-" : e.aspects.names.joined(separator: ",")
            Output.line("\(e.seq)\t\(Output.date(e.date))\t\(e.kind.rawValue)\t\(e.objectType.rawValue)\t\(e.identifier)\t\(what)")
        }
    }
}

struct ChangesCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "changes",
        abstract: "Print the change feed after a sequence number, then exit.",
        discussion: """
        One line per changed object: SEQ<TAB>TIME<TAB>KIND<TAB>TYPE<TAB>ID<TAB>WHAT, where KIND is insert, update or \
        delete, TYPE asset or album, and WHAT the aspects that changed (content, favorite, hidden, deleted, metadata, \
        albums, title, assets, rating, label, keywords, caption; - for inserts and deletes). Every commit has its own SEQ. --json: one JSON object a line.
        """)
    @OptionGroup var options: LibraryOptions
    @Option(help: ArgumentHelp("Only changes after this sequence number (default 0: all).", valueName: "N")) var since: Int = 0
    @Option(help: ArgumentHelp("At most N changes (commits).", valueName: "N")) var limit: Int?
    @Flag(help: "Print JSON lines.") var json = false
    @Flag(help: "Print only the latest sequence number.") var latest = false

    func run() throws {
        try PhotoEdit_run {
            guard since >= 0 else { throw PhotoEditError.invalidQuery("--since \(since) must be 0 or more") }
            if let limit, limit < 1 { throw PhotoEditError.invalidQuery("--limit \(limit) must be at least 1") }
            let library = try options.open()
            if latest {
                Output.line(String(try library.latestChangeSequence()))
                return
            }
            for entry in try library.changeEntries(since: since, limit: limit) { FeedOutput.print(entry, json: json) }
        }
    }
}

struct WatchCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "watch",
        abstract: "Print changes to the library as they happen, by any process, until interrupted.",
        discussion: """
        Lines as `photoedit changes` prints them. With --since N, the changes after N are printed first. \
        Ends with status 0 on SIGINT or SIGTERM.
        """)
    @OptionGroup var options: LibraryOptions
    @Option(help: ArgumentHelp("Print the changes after this sequence number first (default: only new ones).", valueName: "N"))
    var since: Int?
    @Flag(help: "Print JSON lines.") var json = false

    func run() async throws {
        try await PhotoEdit_run {
            if let since, since < 0 { throw PhotoEditError.invalidQuery("--since \(since) must be 0 or more") }
            let (options, since, json) = (self.options, self.since, self.json)
            let (library, stream) = try await BlockingExecutor.run {
                let library = try options.open()
                return (library, try library.changeSets(since: since))
            }
            let task = Task { () -> (any Error)? in
                do {
                    for try await set in stream {
                        for entry in set.entries { FeedOutput.print(entry, json: json) }
                        Output.flush()
                    }
                    return nil
                } catch {
                    return error
                }
            }
            // SIGINT/SIGTERM end the watch cleanly: the task is cancelled,
            // which stops the watcher, and the command exits 0.
            let failure = await valueCancellingOnSignals(task)
            withExtendedLifetime(library) {}
            Output.flush()
            if let failure {
                throw failure as? PhotoEditError ?? PhotoEditError.library(failure.localizedDescription)
            }
        }
    }
}

/// `task`'s value, cancelling the task on SIGINT or SIGTERM (a
/// long-running command then ends cleanly, with status 0).
func valueCancellingOnSignals<T: Sendable>(_ task: Task<T, Never>) async -> T {
    var sources: [DispatchSourceSignal] = []
    for sig in [SIGINT, SIGTERM] {
        signal(sig, SIG_IGN)
        let source = DispatchSource.makeSignalSource(signal: sig, queue: .global())
        source.setEventHandler { task.cancel() }
        source.resume()
        sources.append(source)
    }
    let value = await task.value
    sources.forEach { $0.cancel() }
    return value
}

/// The error that ended a task (a watch, the service, a job worker),
/// handed from the task to the command waiting for it.
final class Outcome: Sendable {
    private let stored = Mutex<(any Error)?>(nil)
    var error: (any Error)? { stored.withLock { $0 } }
    func set(_ error: any Error) { stored.withLock { $0 = error } }
}
