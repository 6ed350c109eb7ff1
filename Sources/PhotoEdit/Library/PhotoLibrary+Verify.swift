import Foundation
import GRDB

/// What `verify` found.
public struct VerificationReport: Sendable {
    /// One line per problem still present.
    public var problems: [String] = []
    /// One line per problem that `repair` fixed.
    public var repaired: [String] = []
    /// Remarks that are not problems.
    public var notes: [String] = []
    /// No problem left.
    public var isClean: Bool { problems.isEmpty }
}

extension PhotoLibrary {
    /// Checks the whole library: the catalog's integrity, every original
    /// against its hash and decoded whole, every revision's adjustment data, render and base,
    /// and files that no catalog row references. With `repair`, rebuilds
    /// missing or damaged renders from adjustment data this engine reads and
    /// removes unreferenced files; it never touches an original.
    public func verify(repair: Bool = false) throws -> VerificationReport {
        var report = VerificationReport()
        let (integrity, foreignKeys, assets, revisions) = try read { db in
            (try String.fetchAll(db, sql: "PRAGMA integrity_check"),
             try Row.fetchAll(db, sql: "PRAGMA foreign_key_check").count,
             try AssetRecord.fetchAll(db),
             try RevisionRecord.order(Column("assetId"), Column("number")).fetchAll(db))
        }
        if integrity != ["ok"] { report.problems += integrity.map { "catalog: \($0)" } }
        if foreignKeys > 0 { report.problems.append("catalog: \(foreignKeys) rows break foreign keys") }
        let byAsset = Dictionary(grouping: revisions, by: \.assetId)
        var referenced = Set<String>()
        for a in assets {
            referenced.insert(a.originalPath)
            let path = layout.absolute(a.originalPath)
            if !FileIO.exists(path) {
                report.problems.append("\(a.id): original \(a.originalPath) is missing")
            } else if (try? FileIO.sha256(of: path)) != a.sha256 {
                report.problems.append("\(a.id): original \(a.originalPath) does not match its SHA-256")
            } else if let problem = Importer.decodeProblem(path: path) {
                // Bytes as imported, but they do not decode (let in by an
                // older, less strict import): every render of it would fail.
                report.problems.append("\(a.id): original \(a.originalPath) does not decode: \(problem)")
            }
            if let alternate = a.alternatePath {
                referenced.insert(alternate)
                let path = layout.absolute(alternate)
                if !FileIO.exists(path) {
                    report.problems.append("\(a.id): alternate \(alternate) is missing")
                } else if (try? FileIO.sha256(of: path)) != a.alternateSha256 {
                    report.problems.append("\(a.id): alternate \(alternate) does not match its SHA-256")
                }
            }
            let revs = byAsset[a.id] ?? []
            if revs.map(\.number) != Array(0...a.revision) {
                report.problems.append("\(a.id): revisions \(revs.map(\.number)) are not 0…\(a.revision)")
            }
            for r in revs {
                let label = "\(a.id) revision \(r.number)"
                if let data = r.adjustmentData, data.formatIdentifier == Recipe.formatIdentifier, Recipe.canHandle(data) {
                    do {
                        let recipe = try Recipe(adjustmentData: data, registry: registry)
                        report.problems += recipe.bindingProblems(registry: registry).map { "\(label): \($0)" }
                    } catch let e as PhotoEditError {
                        report.problems.append("\(label): recipe does not decode: \(e.description)")
                    }
                }
                if let base = r.basePath {
                    referenced.insert(base)
                    if !FileIO.exists(layout.absolute(base)) { report.problems.append("\(label): base image \(base) is missing") }
                }
                guard let render = r.renderPath else {
                    if r.adjustmentData != nil { report.problems.append("\(label): has adjustments but no render") }
                    continue
                }
                referenced.insert(render)
                if let problem = renderProblem(render) {
                    if repair, let fixed = try? rebuildRender(a, r) {
                        referenced.insert(fixed)
                        report.repaired.append("\(label): \(problem); rebuilt as \(fixed)")
                    } else {
                        report.problems.append("\(label): \(problem)\(repair ? " (cannot rebuild: not photoedit's format or its base is missing)" : "")")
                    }
                }
            }
        }
        // Stray files. Order matters: list the files first, then the pending
        // journals, then the catalog. A file in place but not yet committed
        // was named by its journal before it was moved, and its journal is
        // removed only after its transaction committed.
        var present: [String] = []
        for folder in ["originals", "renders"] {
            let base = layout.absolute(folder)
            present += Self.filesInFolder(base).map { folder + "/" + String($0.dropFirst(base.count + 1)) }
        }
        let (_, inFlight) = IntentJournal.pendingPaths(in: layout.tmp)
        let referencedNow = try referencedPaths().union(referenced)
        for relative in present where !referencedNow.contains(relative) && !inFlight.contains(relative) {
            if repair, relative.hasPrefix("renders/") {
                unlink(layout.absolute(relative))
                report.repaired.append("\(relative): unreferenced render removed")
            } else if relative.hasPrefix("originals/") {
                report.problems.append("\(relative): original not referenced by the catalog (import it again to keep it)")
            } else {
                report.problems.append("\(relative): file not referenced by the catalog")
            }
        }
        return report
    }

    private func renderProblem(_ relative: String) -> String? {
        let path = layout.absolute(relative)
        guard FileIO.exists(path) else { return "render \(relative) is missing" }
        do {
            _ = try Image.load(path: path, sequential: true).average()
            return nil
        } catch let e as PhotoEditError {
            return "render \(relative) is damaged (\(e.description))"
        } catch {
            return "render \(relative) is damaged"
        }
    }

    /// Renders a revision again from its recipe and points the revision at the new file.
    private func rebuildRender(_ a: AssetRecord, _ r: RevisionRecord) throws -> String {
        guard let data = r.adjustmentData, Recipe.canHandle(data) else { throw PhotoEditError.invalidAdjustmentData("foreign") }
        let recipe = try Recipe(adjustmentData: data, registry: registry)
        let base = layout.absolute(r.basePath ?? a.originalPath)
        let image = try renderer.render(recipe: recipe, originalPath: base)
        let staged = layout.temporary(".jpg")
        defer { unlink(staged) }
        try Renderer.save(image, to: staged, format: .jpeg, quality: Renderer.renderQuality)
        try FileIO.flush(staged)
        let relative = LibraryLayout.renderPath(asset: a.id, revision: r.number)
        let journal = IntentJournal(layout: layout)
        try journal.record(relative)
        defer { journal.finish() }
        try FileIO.moveIntoPlace(from: staged, to: layout.absolute(relative), readOnly: true)
        do {
            try write { db in
                // A new render file: the feed says the content changed, so
                // whoever keeps images of it requests them again.
                let recorder = ChangeRecorder()
                try recorder.asset(a.id, db, aspects: .content)
                try db.execute(sql: "UPDATE revision SET renderPath = ? WHERE assetId = ? AND number = ?",
                               arguments: [relative, a.id, r.number])
                try recorder.record(db)
            }
        } catch {
            unlink(layout.absolute(relative))
            throw error
        }
        if let old = r.renderPath { unlink(layout.absolute(old)) }
        return relative
    }
}
