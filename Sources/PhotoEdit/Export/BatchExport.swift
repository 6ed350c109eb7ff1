import CPhotoEditShim
import Foundation
import Synchronization

/// What happened to one photo of a batch export.
public struct ExportBatchItem: Sendable {
    public enum Outcome: Sendable {
        /// Written: its size in bytes, the quality and the encodes made.
        case written(bytes: Int, quality: Int?, encodes: Int)
        /// The file was already current (same photo, revision and settings).
        case skipped
        /// This photo failed; the others were still written.
        case failed(PhotoEditError)
    }
    public let id: String
    /// The file (in the output folder).
    public let path: String
    public let outcome: Outcome
}

extension Exporting {
    /// The extended attribute that records what an exported file holds:
    /// `ID REVISION SETTINGS-HASH`. It is set on the staged file before the
    /// rename, so a file and its record appear together.
    static let exportAttribute = "user.photoedit.export"

    /// Exports `ids` into `folder` (the façade's `exportBatch`).
    func exportBatch(_ ids: [String], settings: ExportSettings, to folder: String, force: Bool,
                     progress: ProgressHandler?) throws -> [ExportBatchItem] {
        try settings.validate()
        let template = try ExportNameTemplate(settings.nameTemplate)
        // Every id is checked before anything is written (or a folder made).
        let resolved = try ids.map { try resolve($0) }
        let assets = try resolved.map { try queries.asset($0) }
        try Self.makeFolder(folder)
        guard access(folder, W_OK) == 0 else { throw PhotoEditError.invalidOutput("cannot export into \(folder): not writable") }
        Self.removeStaleStaging(in: folder)
        let hash = Self.settingsHash(settings)
        // Names first, in order: {seq} follows the order given, and two
        // photos never get one name.
        var taken = Set<String>()
        var planned: [(id: String, path: String, record: String, current: Bool)] = []
        for (i, asset) in assets.enumerated() {
            let base = template.fileName(.init(name: (asset.originalFilename as NSString).deletingPathExtension,
                                               date: Self.date(asset.creationDate) ?? asset.importDate, sequence: i + 1,
                                               title: asset.title, rating: asset.rating, id: asset.id))
            // The library's title, caption… are written by some policies and change without a revision.
            let descriptive = ExportMetadata.usesLibraryMetadata(settings.metadata) ? "." + ExportMetadata.digest(of: asset) : ""
            let record = "\(asset.id) \(asset.revision) \(hash)\(descriptive)"
            var n = 1
            while true {
                let name = (n == 1 ? base : "\(base)-\(n)") + "." + settings.format.fileExtension
                n += 1
                guard !taken.contains(name) else { continue }
                let path = (folder as NSString).appendingPathComponent(name)
                if FileIO.exists(path) {
                    // Only a file this exporter wrote for the same photo is
                    // replaced (or skipped when current); any other file stays.
                    guard let existing = Self.attribute(path), existing.split(separator: " ").first.map(String.init) == asset.id else { continue }
                    taken.insert(name)
                    planned.append((asset.id, path, record, existing == record))
                } else {
                    taken.insert(name)
                    planned.append((asset.id, path, record, false))
                }
                break
            }
        }
        let plans = planned
        let results = Mutex([ExportBatchItem?](repeating: nil, count: plans.count))
        let done = Mutex(0)
        let total = plans.count
        DispatchQueue.concurrentPerform(iterations: plans.count) { i in
            let plan = plans[i]
            let item: ExportBatchItem
            if plan.current && !force {
                item = ExportBatchItem(id: plan.id, path: plan.path, outcome: .skipped)
            } else {
                do {
                    let out = try exportImage(plan.id, settings: settings)
                    try Self.write(out.data, to: plan.path, attribute: plan.record)
                    item = ExportBatchItem(id: plan.id, path: plan.path, outcome: .written(bytes: out.data.count, quality: out.quality, encodes: out.encodes))
                } catch {
                    item = ExportBatchItem(id: plan.id, path: plan.path, outcome: .failed(error as? PhotoEditError ?? .library("\(error)")))
                }
            }
            results.withLock { $0[i] = item }
            done.withLock { count in
                count += 1
                progress?(count, total)
            }
        }
        return results.withLock { $0.compactMap { $0 } }
    }

    /// The most folders an export makes for its output folder (`mkdir -p`).
    static let maxNewFolders = 16

    /// Makes the output folder and its missing parents, as `mkdir -p`: only
    /// the folders the path names, at most `maxNewFolders`; a part that is a
    /// file is refused.
    static func makeFolder(_ folder: String) throws {
        if FileIO.isDirectory(folder) { return }
        var missing: [String] = []
        var path = (folder as NSString).standardizingPath
        while !path.isEmpty && path != "/" && !FileIO.exists(path) {
            missing.append(path)
            path = (path as NSString).deletingLastPathComponent
        }
        if let existing = path.isEmpty ? nil : path, !FileIO.isDirectory(existing) {
            throw PhotoEditError.invalidOutput("cannot export into \(folder): \(existing) is not a folder")
        }
        guard missing.count <= maxNewFolders else {
            throw PhotoEditError.invalidOutput("cannot export into \(folder): it would make \(missing.count) folders (at most \(maxNewFolders))")
        }
        for part in missing.reversed() where mkdir(part, 0o777) != 0 && errno != EEXIST {
            throw PhotoEditError.invalidOutput("cannot make \(part): \(String(cString: strerror(errno)))")
        }
        guard FileIO.isDirectory(folder) else { throw PhotoEditError.invalidOutput("cannot export into \(folder): not a folder") }
    }

    /// `data` staged in `path`'s folder (with the export record, if any),
    /// flushed, renamed: never half-written.
    static func write(_ data: Data, to path: String, attribute: String?) throws {
        let folder = (path as NSString).deletingLastPathComponent
        let staged = (folder.isEmpty ? "." : folder) + "/.photoedit-export-\(UUID().uuidString.prefix(8)).tmp"
        defer { unlink(staged) }
        do {
            try FileIO.writeFlushed(data, to: staged)
        } catch {
            throw PhotoEditError.invalidOutput("cannot write \(path): \(error)")
        }
        // Without extended attributes (some file systems), files are simply
        // exported again on the next run.
        // An export is a file for the user, not a library file: rw-r--r-- under the umask.
        let mask = umask(0)
        umask(mask)
        chmod(staged, 0o666 & ~mask)
        if let attribute { _ = pe_set_xattr(staged, exportAttribute, attribute) }
        guard rename(staged, path) == 0 else {
            throw PhotoEditError.invalidOutput("cannot write \(path): \(String(cString: strerror(errno)))")
        }
    }

    /// The export record of a file, if it has one.
    static func attribute(_ path: String) -> String? {
        var buffer = [CChar](repeating: 0, count: 256)
        let n = Int(pe_get_xattr(path, exportAttribute, &buffer, 255))
        guard n > 0 else { return nil }
        return String(decoding: buffer.prefix(n).map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// Staged files of an export killed more than an hour ago.
    static func removeStaleStaging(in folder: String) {
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: folder) else { return }
        for name in names where name.hasPrefix(".photoedit-export-") && name.hasSuffix(".tmp") {
            let path = (folder as NSString).appendingPathComponent(name)
            if let modified = (try? FileManager.default.attributesOfItem(atPath: path))?[.modificationDate] as? Date,
               Date().timeIntervalSince(modified) > 3600 {
                unlink(path)
            }
        }
    }

    /// FNV-1a 64 of the settings' canonical text and the watermark file's
    /// content (SHA-256: a file replaced by another of the same size and
    /// date still makes the exports stale).
    static func settingsHash(_ settings: ExportSettings) -> String {
        var text = settings.canonicalText
        if let path = settings.watermark?.imagePath {
            let content = (try? FileIO.sha256(of: path)) ?? UUID().uuidString   // unreadable: never current
            text += "\n" + content
        }
        var h: UInt64 = 0xcbf29ce484222325
        for byte in text.utf8 { h = (h ^ UInt64(byte)) &* 0x100000001b3 }
        return String(h, radix: 16)
    }

    static func date(_ text: String?) -> Date? {
        guard let text else { return nil }
        let f = ISO8601DateFormatter()
        if let d = f.date(from: text) { return d }
        f.formatOptions = [.withFullDate, .withTime, .withColonSeparatorInTime, .withDashSeparatorInDate]
        return f.date(from: String(text.prefix(19)))
    }
}
