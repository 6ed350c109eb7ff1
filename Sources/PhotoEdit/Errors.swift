import Foundation

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
            return "unknown filter '\(name)' (known filters: \(known.joined(separator: ", ")))"
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
        }
    }

    /// Foundation's `LocalizedError` text: the same one line.
    public var errorDescription: String? { description }
}
