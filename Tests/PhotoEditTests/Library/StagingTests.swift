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

    /// Issue 41: an output leaves `tmp/` as soon as `performChanges`
    /// returns, with the library still open, whether it was committed or
    /// refused: stale, another photo's change request (a foreign base), no
    /// adjustment data. (Refused ones stayed behind: 6 after one client run.)
    @Test func refusedOrCommittedOutputsLeaveNothingStaged() throws {
        let temp = TemporaryDirectory("photoedit-staging")
        let library = try PhotoLibrary(url: temp.url.appendingPathComponent("library"))
        let ids = try library.importItems([Paths.sample("coffee.jpg"), Paths.sample("chelsea.jpg")]).compactMap(\.id)
        let (a, b) = (ids[0], ids[1])
        #expect(try Self.staged(library).isEmpty)

        let ofA = try Self.greyOutput(library, a)
        #expect(FileIO.exists(ofA.renderedContentURL.path))
        #expect(throws: PhotoEditError.self) { try library.performChanges { try $0.changeRequest(for: b).contentEditingOutput = ofA } }
        #expect(try Self.staged(library).isEmpty, "refused: another photo's change request")
        let retried = try Self.greyOutput(library, a)
        try library.performChanges { try $0.changeRequest(for: a).contentEditingOutput = retried }
        #expect(try Self.staged(library).isEmpty, "made again for its own photo: committed")

        let stale = try Self.greyOutput(library, a)
        try library.apply(chain: "exposure=+0.3", to: a)
        #expect(throws: PhotoEditError.self) { try library.performChanges { try $0.changeRequest(for: a).contentEditingOutput = stale } }
        #expect(try Self.staged(library).isEmpty, "refused: stale")

        var noData = try Self.greyOutput(library, a)
        noData.adjustmentData = nil
        #expect(throws: PhotoEditError.self) { try library.performChanges { try $0.changeRequest(for: a).contentEditingOutput = noData } }
        #expect(try Self.staged(library).isEmpty, "refused: no adjustment data")
        // An output never given to performChanges: the sweep takes it once an hour old.
        let abandoned = try Self.greyOutput(library, a)
        try FileManager.default.setAttributes([.modificationDate: Date().addingTimeInterval(-2 * 3600)], ofItemAtPath: abandoned.renderedContentURL.path)
        #expect(library.committing.sweepStaging() == [abandoned.renderedContentURL.lastPathComponent])
        #expect(try Self.staged(library).isEmpty)

        let good = try Self.greyOutput(library, a)
        try library.performChanges { try $0.changeRequest(for: a).contentEditingOutput = good }
        #expect(try library.asset(a).revision == 3)
        #expect(try Self.staged(library).isEmpty, "committed")
        #expect(try library.verify().isClean)
    }

    /// `verify` reports what is left in `tmp/`: a dead process's file and
    /// this process's editing output abandoned over an hour ago are
    /// problems (`--repair` removes them); a recent output is a note.
    @Test func verifyReportsLeftoverStagingFiles() throws {
        let temp = TemporaryDirectory("photoedit-staging-verify")
        let library = try PhotoLibrary(url: temp.url.appendingPathComponent("library"))
        let id = try #require(try library.importItems([Paths.sample("coffee.jpg")]).first?.id)
        #expect(try library.verify().isClean)
        let child = Process()
        child.executableURL = URL(fileURLWithPath: "/bin/true")
        try child.run()
        child.waitUntilExit()
        let left = "\(child.processIdentifier)-left.upload"
        try Data("x".utf8).write(to: URL(fileURLWithPath: library.layout.tmp + "/" + left))
        try FileManager.default.setAttributes([.modificationDate: Date().addingTimeInterval(-3600)], ofItemAtPath: library.layout.tmp + "/" + left)
        let abandoned = try Self.greyOutput(library, id)
        try FileManager.default.setAttributes([.modificationDate: Date().addingTimeInterval(-2 * 3600)], ofItemAtPath: abandoned.renderedContentURL.path)
        let recent = try Self.greyOutput(library, id)

        let report = try library.verify()
        #expect(report.problems.count == 2, "\(report.problems)")
        #expect(report.problems.contains { $0.hasPrefix("tmp/\(left): staging file left by a process that is gone") })
        #expect(report.problems.contains { $0.hasPrefix("tmp/\(abandoned.renderedContentURL.lastPathComponent): editing output staged 2 h ago") })
        #expect(report.notes.contains { $0.hasPrefix("1 staging file(s) in tmp/") }, "\(report.notes)")

        let repaired = try library.verify(repair: true)
        #expect(repaired.repaired.count == 2 && repaired.isClean, "\(repaired.repaired) \(repaired.problems)")
        #expect(try Self.staged(library) == [recent.renderedContentURL.lastPathComponent])
        try library.performChanges { try $0.changeRequest(for: id).contentEditingOutput = recent }
        #expect(try library.verify().isClean && (try Self.staged(library)).isEmpty)
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

        let removed = library.committing.sweepStaging()
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
        library.parts.commitHooks.stagingSweep.withLock { $0 = .distantPast }
        try library.performChanges { try $0.changeRequest(for: id).isFavorite = true }
        #expect(!FileIO.exists(path))
    }
}
