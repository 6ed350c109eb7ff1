import Foundation
import GRDB

extension PhotoLibrary {
    /// Removes what an interrupted commit can leave behind: staged files in
    /// `tmp/`, and originals or renders that no catalog row references (moved
    /// into place, then the process died before its transaction committed).
    /// Runs only while this process holds the library lock exclusively.
    func recover() throws {
        let fm = FileManager.default
        for name in (try? fm.contentsOfDirectory(atPath: layout.tmp)) ?? [] {
            unlink(layout.tmp + "/" + name)
        }
        let (originals, renders) = try read { db in
            (Set(try String.fetchAll(db, sql: "SELECT originalPath FROM asset")),
             Set(try String.fetchAll(db, sql: "SELECT renderPath FROM revision WHERE renderPath IS NOT NULL")))
        }
        for (folder, referenced) in [("originals", originals), ("renders", renders)] {
            let base = layout.absolute(folder)
            for file in Self.filesInFolder(base) {
                let relative = folder + "/" + String(file.dropFirst(base.count + 1))
                if !referenced.contains(relative) { unlink(file) }
            }
        }
    }
}
