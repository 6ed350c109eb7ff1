import Foundation

extension Maintenance {
    /// Finishes what an interrupted commit left behind. For every intent
    /// journal in `tmp/` (see `IntentJournal`), the files it names that no
    /// catalog row references are removed — they were moved into place but
    /// their transaction never committed. Then `tmp/` is emptied. Files no
    /// journal names are left alone (verify reports them). Runs only while
    /// this process holds the library lock exclusively, so no journal belongs
    /// to a commit still in flight.
    func recover() throws {
        let (_, pending) = IntentJournal.pendingPaths(in: layout.tmp)
        // In a shared store another node may be committing a file of the
        // same name right now (an original's content address): only the
        // local work folder is cleaned; `verify --repair` removes what is
        // unreferenced after its grace period.
        if !pending.isEmpty, !files.isShared {
            let referenced = try referencedPaths()
            for path in pending where !referenced.contains(path) {
                previews.removeFileAndPreview(path)
            }
        }
        for name in (try? FileManager.default.contentsOfDirectory(atPath: layout.tmp)) ?? [] {
            unlink(layout.tmp + "/" + name)
        }
    }

    /// Every file path the catalog references: originals, renders, bases,
    /// revision and metadata records.
    func referencedPaths() throws -> Set<String> {
        try read { db in
            try db.referencedFiles()
        }
    }
}
