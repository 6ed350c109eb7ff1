import Foundation

/// A failure of the catalog's SQLite database, with SQLite's own result code
/// and message (see https://sqlite.org/rescode.html).
public struct CatalogFailure: Error, Equatable, Sendable {
    /// SQLite's extended result code (e.g. 2067, SQLITE_CONSTRAINT_UNIQUE).
    public let resultCode: Int32
    /// SQLite's message.
    public let message: String
    /// What the engine was doing ("catalog", "catalog /path/catalog.sqlite",
    /// "cannot build the new catalog").
    public let context: String

    public init(resultCode: Int32, message: String, context: String) {
        self.resultCode = resultCode
        self.message = message
        self.context = context
    }

    /// The primary result code (the low byte of `resultCode`).
    public var primaryResultCode: Int32 { resultCode & 0xFF }
    /// Another connection holds the lock (SQLITE_BUSY, SQLITE_LOCKED): retry later.
    public var isBusy: Bool { primaryResultCode == 5 || primaryResultCode == 6 }
    /// The disk or the database is full (SQLITE_FULL).
    public var isFull: Bool { primaryResultCode == 13 }
    /// The file is damaged or not a database (SQLITE_CORRUPT, SQLITE_NOTADB).
    public var isCorrupt: Bool { primaryResultCode == 11 || primaryResultCode == 26 }
    /// The database cannot be written (SQLITE_READONLY, SQLITE_PERM, SQLITE_CANTOPEN).
    public var isNotWritable: Bool { [8, 3, 14].contains(primaryResultCode) }
    /// A constraint of the catalog refused the change (SQLITE_CONSTRAINT).
    public var isConstraint: Bool { primaryResultCode == 19 }
    /// Reading or writing the file failed (SQLITE_IOERR).
    public var isIOError: Bool { primaryResultCode == 10 }
}

/// Every error the engine throws. Each case renders as one line naming the
/// problem (and, where it helps, the valid values), suitable for a CLI.
public enum PhotoEditError: Error, Equatable, Sendable, CustomStringConvertible, LocalizedError {
    /// A C library (libvips, libraw, lcms2) failed; `message` is its own text.
    case native(library: String, operation: String, message: String)
    /// The chain or recipe names a filter the registry does not know.
    case unknownFilter(name: String, known: [String])
    /// A filter parameter is unknown, malformed or out of range.
    case invalidParameter(filter: String, parameter: String, problem: String)
    /// The chain text cannot be parsed.
    case invalidChain(chain: String, problem: String)
    /// Adjustment data that cannot be decoded (malformed or from a newer engine).
    case invalidAdjustmentData(String)
    /// No photo has this id (or id prefix).
    case unknownAsset(String)
    /// More than one photo id starts with this prefix.
    case ambiguousAsset(prefix: String, candidates: [String])
    /// An id that contains characters an id never has (e.g. `../`).
    case malformedIdentifier(String)
    /// A file or folder that cannot be used as an image.
    case unreadableFile(path: String, reason: String)
    /// A LUT name (`lut=NAME.cube`) that is in none of the LUT folders
    /// (`searched`, for the CLI's message; a server names only the LUT).
    case unknownLUT(name: String, searched: [String])
    /// The image is larger than the configured pixel limit.
    case imageTooLarge(path: String, width: Int, height: Int, limit: Int)
    /// A revision number that does not exist for the photo.
    case unknownRevision(asset: String, revision: Int, latest: Int)
    /// The photo changed since the caller read it (optimistic concurrency).
    case conflict(asset: String, expected: Int, actual: Int)
    /// The library folder or catalog is unusable.
    case library(String)
    /// An output option that cannot be honoured (format, size, quality).
    case invalidOutput(String)
    /// A change request that cannot be committed.
    case invalidChange(String)
    /// No album has this title or id.
    case unknownAlbum(String)
    /// A query (predicate, sort keys, fetch options) that cannot be run.
    case invalidQuery(String)
    /// The catalog's database failed; the failure keeps SQLite's result
    /// code (`catch PhotoEditError.catalog(let f) where f.isBusy`).
    case catalog(CatalogFailure)

    /// The error as one line of text (line breaks in user text escaped).
    public var description: String {
        // User text (chains, paths) may hold line breaks: escape them so
        // every error stays one line.
        var text = ""
        for scalar in rawDescription.unicodeScalars {
            switch scalar {
            case "\n": text += "\\n"
            case "\r": text += "\\r"
            case "\t": text += "\\t"
            default:
                if scalar.value < 0x20 || scalar.value == 0x7f { text += String(format: "\\x%02x", scalar.value) }
                else { text.unicodeScalars.append(scalar) }
            }
        }
        return text
    }

    private var rawDescription: String {
        switch self {
        case let .native(library, operation, message):
            let text = message.split(whereSeparator: \.isNewline).map { $0.trimmingCharacters(in: .whitespaces) }
                .filter { !$0.isEmpty }.joined(separator: "; ")
            return "\(library) \(operation) failed: \(text.isEmpty ? "unknown error" : text)"
        case let .unknownFilter(name, known):
            return "unknown filter '\(name)'\(Spelling.didYouMean(name, among: known)) (known filters: \(known.joined(separator: ", ")))"
        case let .invalidParameter(filter, parameter, problem):
            return parameter.isEmpty ? "\(filter): \(problem)" : "\(filter).\(parameter): \(problem)"
        case let .invalidChain(chain, problem):
            return "invalid chain '\(chain)': \(problem)"
        case let .invalidAdjustmentData(problem):
            return "invalid adjustment data: \(problem)"
        case let .unknownAsset(id):
            return "no photo with id '\(id)'"
        case let .ambiguousAsset(prefix, candidates):
            let shown = candidates.prefix(5).joined(separator: ", ")
            return "id prefix '\(prefix)' is ambiguous: it matches \(candidates.count) photos (\(shown)\(candidates.count > 5 ? ", …" : ""))"
        case let .malformedIdentifier(id):
            return "malformed id '\(id)': ids are hexadecimal (0-9, a-f)"
        case let .unreadableFile(path, reason):
            return "\(path): \(reason)"
        case let .unknownLUT(name, searched):
            return "\(name): no such LUT in the LUT folders (\(searched.joined(separator: ", ")))"
        case let .imageTooLarge(path, width, height, limit):
            return "\(path): image is \(width)×\(height) = \(width * height) pixels, above the limit of \(limit) pixels (set PHOTOEDIT_MAX_PIXELS to change it)"
        case let .unknownRevision(asset, revision, latest):
            return "photo \(asset) has no revision \(revision) (revisions are 0…\(latest))"
        case let .conflict(asset, expected, actual):
            return "conflict: photo \(asset) changed while editing (read at revision \(expected), now at \(actual)); read it again and retry"
        case let .library(problem):
            return "library: \(problem)"
        case let .invalidOutput(problem):
            return "output: \(problem)"
        case let .invalidChange(problem):
            return "change refused: \(problem)"
        case let .unknownAlbum(name):
            return "no album called '\(name)'"
        case let .invalidQuery(problem):
            return "invalid query: \(problem)"
        case let .catalog(failure):
            return "library: \(failure.context): \(failure.message)"
        }
    }

    /// For a `native` error from libvips, the domain of its first message
    /// that names one ("VipsJpeg", "vipspng", "VipsForeignLoad"…): which
    /// part of libvips failed. Nil for other errors. (libvips has one error
    /// buffer per process: under load the message may hold another
    /// operation's line too, see errors.md.)
    public var nativeDomain: String? {
        guard case let .native(_, _, message) = self else { return nil }
        for line in message.split(whereSeparator: \.isNewline) {
            guard let colon = line.firstIndex(of: ":") else { continue }
            let domain = line[..<colon]
            if !domain.isEmpty, domain.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "_" }) { return String(domain) }
        }
        return nil
    }

    /// Foundation's `LocalizedError` text: the same one line.
    public var errorDescription: String? { description }
}

/// What a mistyped name most likely meant, for error messages: `sharpn` is
/// `sharpen`, `Exposure` is `exposure`, `temp` is `temperature`.
enum Spelling {
    /// The known names closest to `name`, ignoring case: those at the
    /// fewest edits (a letter added, dropped, changed, or two neighbours
    /// swapped) when that is at most 2 and under half of `name`'s letters;
    /// else the one name `name` begins (3 letters at least); else none.
    static func closest(to name: String, among known: [String]) -> [String] {
        let typed = Array(name.lowercased())
        guard !typed.isEmpty, typed.count <= 64 else { return [] }
        let scored = known.map { ($0, editDistance(typed, Array($0.lowercased()))) }
        if let best = scored.map(\.1).min(), best <= 2, 2 * best < typed.count {
            return scored.filter { $0.1 == best }.map(\.0)
        }
        let extended = known.filter { $0.lowercased().hasPrefix(name.lowercased()) }
        return typed.count >= 3 && extended.count == 1 ? extended : []
    }

    /// ` — did you mean 'sharpen'?` (up to three names), or empty.
    static func didYouMean(_ name: String, among known: [String]) -> String {
        let names = closest(to: name, among: known).prefix(3).map { "'\($0)'" }
        return names.isEmpty ? "" : " — did you mean \(names.joined(separator: " or "))?"
    }

    /// The optimal string alignment distance: insertions, deletions,
    /// substitutions and swaps of two neighbours.
    static func editDistance(_ a: [Character], _ b: [Character]) -> Int {
        if a.isEmpty || b.isEmpty { return max(a.count, b.count) }
        var before = [Int](repeating: 0, count: b.count + 1)
        var previous = Array(0...b.count)
        var current = [Int](repeating: 0, count: b.count + 1)
        for i in 1...a.count {
            current[0] = i
            for j in 1...b.count {
                let cost = a[i - 1] == b[j - 1] ? 0 : 1
                current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + cost)
                if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] {
                    current[j] = min(current[j], before[j - 2] + 1)
                }
            }
            (before, previous, current) = (previous, current, before)
        }
        return previous[b.count]
    }

    /// The problem of a parameter name `name` that `known` does not hold.
    static func unknownParameter(_ name: String, known: [String]) -> String {
        "unknown parameter\(didYouMean(name, among: known)) (known: \(known.joined(separator: ", ")))"
    }
}
