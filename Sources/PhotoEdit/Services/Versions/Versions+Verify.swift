import Foundation

extension Maintenance {
    /// `verify`'s check of shared originals: every original (and RAW) is
    /// used by one master and its virtual copies only, each copy's master
    /// is in the library, is a master, and has the same files. The number
    /// of photos using each shared file is its reference count: purge
    /// removes the file with the last of them.
    func verifyVersions(_ assets: [AssetRecord], _ report: inout VerificationReport, snapshots: [String: [SnapshotRecord]]) {
        let byID = Dictionary(assets.map { ($0.id, $0) }, uniquingKeysWith: { a, _ in a })
        var users: [String: [AssetRecord]] = [:]
        for a in assets {
            users[a.originalPath, default: []].append(a)
            if let alternate = a.alternatePath { users[alternate, default: []].append(a) }
        }
        var shared = 0
        for (path, list) in users where list.count > 1 {
            shared += 1
            let masters = Set(list.map { $0.masterId ?? $0.id })
            if masters.count > 1 {
                report.problems.append("\(path): used by \(list.count) photos of \(masters.count) different masters (\(masters.sorted().joined(separator: ", ")))")
            }
        }
        var copies = 0
        for a in assets {
            for s in snapshots[a.id] ?? [] where s.revision > a.revision {
                report.problems.append("\(a.id): snapshot '\(s.name)' names revision \(s.revision), after its latest (\(a.revision))")
            }
            guard let masterID = a.masterId else { continue }
            copies += 1
            guard let master = byID[masterID] else {
                report.problems.append("\(a.id): virtual copy of \(masterID), which is not in the library")
                continue
            }
            if let masterOfMaster = master.masterId {
                report.problems.append("\(a.id): virtual copy of \(masterID), which is itself a copy (of \(masterOfMaster))")
            }
            if master.originalPath != a.originalPath || master.sha256 != a.sha256 || master.alternatePath != a.alternatePath {
                report.problems.append("\(a.id): virtual copy of \(masterID) with other files than its master's")
            }
        }
        if copies > 0 {
            report.notes.append("\(copies) virtual cop\(copies == 1 ? "y shares" : "ies share") \(shared) original file(s) with their masters")
        }
    }
}
