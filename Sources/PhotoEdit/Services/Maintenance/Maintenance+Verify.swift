import Foundation

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

extension Maintenance {
    func verify(repair: Bool = false, gracePeriod: TimeInterval = PhotoLibrary.defaultGracePeriod,
                       progress: ProgressHandler? = nil) throws -> VerificationReport {
        var report = VerificationReport()
        let (integrity, foreignKeys, assets, revisions) = try read { db in
            // SQLite checks its file and foreign keys on request; a
            // PostgreSQL server enforces foreign keys on every change and
            // checks its own pages.
            (try db.integrityCheck(), try db.foreignKeyViolations(),
             try db.allAssets(),
             try db.allRevisions())
        }
        if integrity != ["ok"] { report.problems += integrity.map { "catalog: \($0)" } }
        if foreignKeys > 0 { report.problems.append("catalog: \(foreignKeys) rows break foreign keys") }
        let byAsset = Dictionary(grouping: revisions, by: \.assetId)
        var referenced = Set<String>()
        var withoutSidecar = 0
        for (n, a) in assets.enumerated() {
            defer { progress?(n + 1, assets.count) }
            referenced.insert(a.originalPath)
            let path = readablePath(a.originalPath)
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
                let path = readablePath(alternate)
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
                if let sidecar = r.sidecarPath { referenced.insert(sidecar) }
                if let problem = sidecarProblem(a, r) {
                    if repair, let fixed = try? replaceSidecar(a.id, r.number) {
                        referenced.insert(fixed)
                        report.repaired.append("\(label): \(problem); written as \(fixed)")
                    } else if r.sidecarPath == nil {
                        withoutSidecar += 1
                    } else {
                        report.problems.append("\(label): \(problem)")
                    }
                }
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
                    if (try? files.exists(base)) != true { report.problems.append("\(label): base image \(base) is missing") }
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
                        report.problems.append("\(label): \(problem)\(repair ? " (cannot rebuild: another editor's format or its base is missing)" : "")")
                    }
                }
            }
        }
        // Shared originals (virtual copies) and snapshots.
        verifyVersions(assets, &report, snapshots: try read { db in try db.allSnapshots() })
        // Each photo's metadata record against its row.
        try verifyMetadataRecords(assets, repair: repair, &report, referenced: &referenced)
        // Previews: rebuildable, so a missing one is a note (made on first
        // use), which `repair` makes now.
        var withoutPreview = 0
        for a in assets where (try? previews.hasPreview(a.id)) == false {
            if repair, (try? previews.ensurePreview(a.id)) == true {
                report.repaired.append("\(a.id): preview made")
            } else {
                withoutPreview += 1
            }
        }
        if withoutPreview > 0 {
            report.notes.append("\(withoutPreview) photo(s) have no preview (made on first display; `photoedit verify --repair` makes them now)")
        }
        if withoutSidecar > 0 {
            report.notes.append("\(withoutSidecar) revision(s) committed by an older photoedit have no record under revisions/: "
                                + "`photoedit verify --repair` writes them, so that `verify --rebuild-catalog` can recover them")
        }
        // Stray files. Order matters: list the files first, then the pending
        // journals, then the catalog. A file in place but not yet committed
        // was named by its journal before it was moved, and its journal is
        // removed only after its transaction committed.
        var present: [LibraryFileInfo] = []
        for folder in ["originals", "renders", "revisions"] { present += try files.list(folder) }
        let previews = try files.list("previews")
        let (_, inFlight) = IntentJournal.pendingPaths(in: layout.tmp)
        let referencedNow = try referencedPaths().union(referenced)
        let now = Date()
        var young = 0
        for file in present where !referencedNow.contains(file.relative) && !inFlight.contains(file.relative) {
            let relative = file.relative
            if files.isShared {
                // Another node's commit may be in flight: its blobs are put
                // before its transaction. Only old leftovers are problems.
                if let modified = file.modified, now.timeIntervalSince(modified) < gracePeriod {
                    young += 1
                } else if repair {
                    files.remove(relative)
                    report.repaired.append("\(relative): unreferenced blob removed (older than the \(Self.durationText(gracePeriod)) grace period)")
                } else {
                    report.problems.append("\(relative): blob not referenced by the catalog (left by an interrupted commit; `verify --repair` removes it)")
                }
            } else if repair, relative.hasPrefix("renders/") {
                files.remove(relative)
                report.repaired.append("\(relative): unreferenced render removed")
            } else if repair, relative.hasPrefix("revisions/") {
                files.remove(relative)
                report.repaired.append("\(relative): unreferenced revision record removed")
            } else if relative.hasPrefix("originals/") {
                report.problems.append("\(relative): original not referenced by the catalog (import it again to keep it)")
            } else {
                report.problems.append("\(relative): file not referenced by the catalog")
            }
        }
        // A preview whose file is gone (an interrupted commit's, or left
        // by a crash between removing a file and its preview).
        var strayPreviews = 0
        for preview in previews {
            if let file = Previews.file(ofPreview: preview.relative), referencedNow.contains(file) || inFlight.contains(file) { continue }
            if files.isShared, let modified = preview.modified, now.timeIntervalSince(modified) < gracePeriod { continue }
            if repair {
                files.remove(preview.relative)
                report.repaired.append("\(preview.relative): preview of a file no longer in the library removed")
            } else {
                strayPreviews += 1
            }
        }
        if strayPreviews > 0 {
            report.notes.append("\(strayPreviews) preview(s) of files no longer in the library (`photoedit verify --repair` removes them)")
        }
        if young > 0 {
            report.notes.append("\(young) unreferenced blob(s) younger than the \(Self.durationText(gracePeriod)) grace period left alone "
                                + "(possibly a commit in flight on another node)")
        }
        verifyStaging(repair: repair, now: now, into: &report)
        return report
    }

    /// Files left in the staging folder (`tmp/`, intent journals aside).
    /// A problem (nothing will ever use it; `repair` removes it): one whose
    /// process is gone (its name starts with its pid) or that names no
    /// process, once older than `Committing.deadProcessStagingAge` (a younger
    /// one may be another machine's process on a shared folder), and an
    /// editing output a running process staged over
    /// `Committing.abandonedOutputAge` ago (`Committing.stagedFile`, the
    /// sweep's rule). A running process's other files are its work in
    /// progress: a note.
    private func verifyStaging(repair: Bool, now: Date, into report: inout VerificationReport) {
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: layout.tmp) else { return }
        var inProgress = 0
        for name in names.sorted() where !name.hasPrefix(IntentJournal.prefix) {
            let path = layout.tmp + "/" + name
            var info = stat()
            guard lstat(path, &info) == 0 else { continue }
            let age = now.timeIntervalSince1970 - TimeInterval(info.st_mtim.tv_sec)
            let why: String
            switch committing.stagedFile(named: name, age: age) {
            case .inProgress:
                inProgress += 1
                continue
            case .abandonedOutput:
                why = "editing output staged \(Self.durationText((age / 60).rounded(.down) * 60)) ago and never committed"
            case .leftBehind(let owner):
                why = owner == nil ? "staging file of no process" : "staging file left by a process that is gone"
            }
            let isFile = (info.st_mode & S_IFMT) == S_IFREG
            if repair, isFile, unlink(path) == 0 {
                report.repaired.append("tmp/\(name): \(why), removed")
            } else {
                report.problems.append("tmp/\(name): \(why)" + (isFile ? " (`verify --repair` removes it)" : ""))
            }
        }
        if inProgress > 0 {
            report.notes.append("\(inProgress) staging file(s) in tmp/ are recent or belong to running processes (work in progress)")
        }
    }

    static func durationText(_ seconds: TimeInterval) -> String {
        if seconds >= 3600, seconds.truncatingRemainder(dividingBy: 3600) == 0 { return "\(Int(seconds / 3600)) h" }
        if seconds >= 60, seconds.truncatingRemainder(dividingBy: 60) == 0 { return "\(Int(seconds / 60)) min" }
        return "\(Int(seconds)) s"
    }

    /// What is wrong with a revision's sidecar, nil when it describes the
    /// revision as the catalog has it.
    private func sidecarProblem(_ a: AssetRecord, _ r: RevisionRecord) -> String? {
        guard let relative = r.sidecarPath else { return "no revision record" }
        return RevisionSidecar.problem(relative, at: readablePath(relative)) { $0.matches(a, r) }
    }

    /// Writes a revision's sidecar again from the catalog; the old one goes
    /// once the new one is referenced.
    func replaceSidecar(_ id: String, _ number: Int) throws -> String {
        let journal = IntentJournal(layout: layout)
        defer { journal.finish() }
        var placed: String?
        do {
            let old: String? = try write { db in
                guard let a = try db.asset(id),
                      let r = try db.revision(number, of: id) else {
                    throw PhotoEditError.unknownRevision(asset: id, revision: number, latest: -1)
                }
                placed = try placeSidecar(a, r, journal: journal)
                try db.setSidecarPath(placed, ofRevision: number, of: id)
                if let old = r.sidecarPath { try journal.record(old) }
                return r.sidecarPath
            }
            if let old { files.remove(old) }
        } catch {
            if let placed { files.remove(placed) }
            throw error
        }
        return placed!
    }

    private func renderProblem(_ relative: String) -> String? {
        let path = readablePath(relative)
        guard FileIO.exists(path) else { return "render \(relative) is missing" }
        do {
            try Image.load(path: path, sequential: true).decodeEveryPixel()
            return nil
        } catch let e as PhotoEditError {
            return "render \(relative) is damaged (\(e.description))"
        } catch {
            return "render \(relative) is damaged"
        }
    }

    /// Renders a revision again from its recipe and points the revision at
    /// the new file. A darktable history is rendered again by darktable (or,
    /// without it, as the photo unedited, as it was kept); other foreign
    /// formats cannot be rendered again.
    private func rebuildRender(_ a: AssetRecord, _ r: RevisionRecord) throws -> String {
        guard let data = r.adjustmentData else { throw PhotoEditError.invalidAdjustmentData("foreign") }
        let base = readablePath(r.basePath ?? a.originalPath)
        let staged = layout.temporary(".jpg")
        defer { unlink(staged) }
        if Recipe.canHandle(data) {
            let image = try renderer.render(recipe: try Recipe(adjustmentData: data, registry: registry), originalPath: base)
            try Renderer.save(image, to: staged, format: .jpeg, quality: Renderer.renderQuality)
        } else if DarktableHistory(adjustmentData: data) != nil {
            if let darktable = darktable.current {
                try darktable.render(original: base, sidecar: data.data, to: staged, work: layout.tmp)
            } else {
                let unedited = Recipe(nodes: [], base: r.basePath == nil ? .original : .alternate, registry: registry)
                try Renderer.save(try renderer.render(recipe: unedited, originalPath: base), to: staged, format: .jpeg, quality: Renderer.renderQuality)
            }
        } else {
            throw PhotoEditError.invalidAdjustmentData("foreign")
        }
        try FileIO.flush(staged)
        let relative = LibraryLayout.renderPath(asset: a.id, revision: r.number)
        let journal = IntentJournal(layout: layout)
        try journal.record(relative)
        defer { journal.finish() }
        try files.publish(staged, as: relative)
        var sidecar: String?
        var oldSidecar: String?
        do {
            try write { db in
                // A new render file: the feed says the content changed, so
                // whoever keeps images of it requests them again.
                let recorder = ChangeRecorder()
                try recorder.asset(a.id, db, aspects: .content)
                try db.setRenderPath(relative, ofRevision: r.number, of: a.id)
                // Its sidecar names the render: written again.
                var updated = r
                updated.renderPath = relative
                // (The current one: verify may have just rewritten it.)
                oldSidecar = try db.revision(r.number, of: a.id)?.sidecarPath
                sidecar = try placeSidecar(a, updated, journal: journal)
                try db.setSidecarPath(sidecar, ofRevision: r.number, of: a.id)
                if let oldSidecar { try journal.record(oldSidecar) }
                try recorder.record(db)
            }
        } catch {
            files.remove(relative)
            if let sidecar { files.remove(sidecar) }
            throw error
        }
        if let old = r.renderPath { files.remove(old) }
        if let oldSidecar { files.remove(oldSidecar) }
        return relative
    }
}
