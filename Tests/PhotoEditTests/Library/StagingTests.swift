import Foundation
import Testing
@testable import PhotoEdit

/// Issue 10 §3: a long-running process does not let staged files pile up in
/// `tmp/` until the next exclusive open.
@Suite("Staging files")
struct StagingTests {
    /// What `tmp/` holds, intent journals aside.
    static func staged(_ library: PhotoLibrary) throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: library.layout.tmp).filter { !$0.hasPrefix(IntentJournal.prefix) }.sorted()
    }

    static func greyOutput(_ library: PhotoLibrary, _ id: String) throws -> ContentEditingOutput {
        let input = try library.requestContentEditingInput(for: id)
        var output = ContentEditingOutput(contentEditingInput: input)
        try ForeignEditor.writeGrey(of: input, to: output.renderedContentURL.path)
        output.adjustmentData = AdjustmentData(formatIdentifier: ForeignEditor.formatIdentifier, formatVersion: "1", data: Data("grey".utf8))
        return output
    }

    /// An output that can never commit (committed, stale) leaves `tmp/` at
    /// once, with the library still open (a refused one stayed until the next
    /// exclusive open); one refused for a mistake its caller can fix (another
    /// photo's change request, no adjustment data) is kept for the retry.
    @Test func outputsThatCanNeverCommitLeaveNothingStaged() throws {
        let temp = TemporaryDirectory("photoedit-staging")
        let library = try PhotoLibrary(url: temp.url.appendingPathComponent("library"))
        let ids = try library.importItems([Paths.sample("coffee.jpg"), Paths.sample("chelsea.jpg")]).compactMap(\.id)
        let (a, b) = (ids[0], ids[1])
        #expect(try Self.staged(library).isEmpty)

        let ofA = try Self.greyOutput(library, a)
        #expect(FileIO.exists(ofA.renderedContentURL.path))
        #expect(throws: PhotoEditError.self) { try library.performChanges { try $0.changeRequest(for: b).contentEditingOutput = ofA } }
        #expect(try Self.staged(library) == [ofA.renderedContentURL.lastPathComponent], "refused, fixable: kept")
        try library.performChanges { try $0.changeRequest(for: a).contentEditingOutput = ofA }
        #expect(try Self.staged(library).isEmpty, "retried on its own photo: committed")

        let stale = try Self.greyOutput(library, a)
        try library.apply(chain: "exposure=+0.3", to: a)
        #expect(throws: PhotoEditError.self) { try library.performChanges { try $0.changeRequest(for: a).contentEditingOutput = stale } }
        #expect(try Self.staged(library).isEmpty, "refused: stale")

        var noData = try Self.greyOutput(library, a)
        noData.adjustmentData = nil
        #expect(throws: PhotoEditError.self) { try library.performChanges { try $0.changeRequest(for: a).contentEditingOutput = noData } }
        #expect(try Self.staged(library) == [noData.renderedContentURL.lastPathComponent], "refused, fixable: kept")
        // Never retried: the sweep takes it once an hour old.
        try FileManager.default.setAttributes([.modificationDate: Date().addingTimeInterval(-2 * 3600)], ofItemAtPath: noData.renderedContentURL.path)
        #expect(library.editing.sweepStaging() == [noData.renderedContentURL.lastPathComponent])
        #expect(try Self.staged(library).isEmpty)

        let good = try Self.greyOutput(library, a)
        try library.performChanges { try $0.changeRequest(for: a).contentEditingOutput = good }
        #expect(try library.asset(a).revision == 3)
        #expect(try Self.staged(library).isEmpty, "committed")
        #expect(try library.verify().isClean)
    }

    /// The sweep removes what dead processes staged (once older than ten
    /// minutes) and this process's abandoned outputs (after an hour); it
    /// keeps what a live process stages, young files, and intent journals.
    @Test func sweepRemovesOnlyWhatNobodyWillUse() throws {
        let temp = TemporaryDirectory("photoedit-staging-sweep")
        let library = try PhotoLibrary(url: temp.url.appendingPathComponent("library"))
        let id = try #require(try library.importItems([Paths.sample("coffee.jpg")]).first?.id)
        // A pid that is surely dead: a child that has exited and been reaped.
        let child = Process()
        child.executableURL = URL(fileURLWithPath: "/bin/true")
        try child.run()
        child.waitUntilExit()
        let dead = child.processIdentifier
        let live = getppid()
        let tmp = library.layout.tmp
        let hourAgo = Date().addingTimeInterval(-3600), weekAgo = Date().addingTimeInterval(-7 * 86400)
        func stage(_ name: String, modified: Date) throws {
            try Data("x".utf8).write(to: URL(fileURLWithPath: tmp + "/" + name))
            try FileManager.default.setAttributes([.modificationDate: modified], ofItemAtPath: tmp + "/" + name)
        }
        try stage("\(dead)-old.import", modified: hourAgo)             // dead, old: removed
        try stage("\(dead)-young.upload", modified: Date())            // dead but young: kept
        try stage("\(live)-old.import", modified: weekAgo)             // a live process's: kept
        try stage("\(IntentJournal.prefix)\(dead)-x", modified: weekAgo) // a journal: recovery's
        let abandoned = try Self.greyOutput(library, id)               // ours, abandoned a week ago
        try FileManager.default.setAttributes([.modificationDate: weekAgo], ofItemAtPath: abandoned.renderedContentURL.path)
        let recent = try Self.greyOutput(library, id)                  // ours, being edited

        let removed = library.editing.sweepStaging()
        #expect(Set(removed) == ["\(dead)-old.import", abandoned.renderedContentURL.lastPathComponent])
        let left = Set(try FileManager.default.contentsOfDirectory(atPath: tmp))
        #expect(left == ["\(dead)-young.upload", "\(live)-old.import", "\(IntentJournal.prefix)\(dead)-x",
                         recent.renderedContentURL.lastPathComponent])
        // The recent output still commits.
        try library.performChanges { try $0.changeRequest(for: id).contentEditingOutput = recent }
        #expect(try library.asset(id).revision == 1)
    }

    /// performChanges sweeps on its own (at most every five minutes): a
    /// server that never reopens the library still loses dead processes' files.
    @Test func performChangesSweeps() throws {
        let temp = TemporaryDirectory("photoedit-staging-auto")
        let library = try PhotoLibrary(url: temp.url.appendingPathComponent("library"))
        let id = try #require(try library.importItems([Paths.sample("coffee.jpg")]).first?.id)
        let child = Process()
        child.executableURL = URL(fileURLWithPath: "/bin/true")
        try child.run()
        child.waitUntilExit()
        let name = "\(child.processIdentifier)-left.import"
        let path = library.layout.tmp + "/" + name
        try Data("x".utf8).write(to: URL(fileURLWithPath: path))
        try FileManager.default.setAttributes([.modificationDate: Date().addingTimeInterval(-3600)], ofItemAtPath: path)
        library.parts.stagingSweep.withLock { $0 = .distantPast }
        try library.performChanges { try $0.changeRequest(for: id).isFavorite = true }
        #expect(!FileIO.exists(path))
    }
}
