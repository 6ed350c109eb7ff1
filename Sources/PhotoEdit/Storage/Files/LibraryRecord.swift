import Foundation

/// A JSON document the library keeps beside its catalog, from which
/// `verify --rebuild-catalog` rebuilds it: revision records
/// (`RevisionSidecar`) and metadata records (`MetadataRecord`). One
/// encoding for both, and one bounded reader that never quotes the file.
protocol LibraryRecord: Codable {
    /// The value of its `format` member.
    static var formatName: String { get }
    /// Larger files are not records this engine wrote.
    static var maxBytes: Int64 { get }
    /// What it is called in messages: `revision record`, `metadata record`.
    static var noun: String { get }
    var format: String { get }
    var version: Int { get }
    /// Reads a record, every member checked; the reason when it is not one this engine reads.
    static func read(_ path: String) -> Result<Self, PhotoEditError>
}

extension LibraryRecord {
    func encoded() throws -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .prettyPrinted, .withoutEscapingSlashes]
        encoder.dateEncodingStrategy = .secondsSince1970
        return try encoder.encode(self) + Data("\n".utf8)
    }

    /// What `verify` says of the record `relative` (read from `path`):
    /// missing, unusable, or saying something else than the catalog
    /// (`matches`); nil when it agrees.
    static func problem(_ relative: String, at path: String, matches: (Self) -> Bool) -> String? {
        switch read(path) {
        case .failure(.unreadableFile(_, let reason)) where reason == "missing":
            return "\(noun) \(relative) is missing"
        case .failure(let error):
            return "\(noun) \(relative) is unusable (\(error.description))"
        case .success(let record):
            return matches(record) ? nil : "\(noun) \(relative) does not match the catalog"
        }
    }

    /// Reads the file at `path` as a record of version 1 of this format
    /// (within `maxBytes`); the reason, never the file's content, when it is not one.
    static func decoded(_ path: String) -> Result<Self, PhotoEditError> {
        guard let size = FileIO.size(path) else { return .failure(.unreadableFile(path: path, reason: "missing")) }
        guard size <= maxBytes, let data = FileManager.default.contents(atPath: path) else {
            return .failure(.unreadableFile(path: path, reason: size > maxBytes ? "too large for a \(noun)" : "unreadable"))
        }
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .secondsSince1970
        guard let record = try? decoder.decode(Self.self, from: data), record.format == formatName else {
            return .failure(.unreadableFile(path: path, reason: "not a photoedit \(noun)"))
        }
        guard record.version == 1 else {
            return .failure(.unreadableFile(path: path, reason: "\(noun) version \(record.version) is newer than this photoedit reads"))
        }
        return .success(record)
    }
}
