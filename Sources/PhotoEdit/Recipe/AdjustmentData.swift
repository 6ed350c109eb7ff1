import Foundation

/// The recipe of an edit, as PhotoKit's `PHAdjustmentData`: who wrote it
/// (`formatIdentifier`), in which version of their format, and the bytes.
///
/// photoedit's own format is `Recipe.formatIdentifier`; any other format is
/// stored as it is and never interpreted.
public struct AdjustmentData: Hashable, Sendable, Codable {
    /// Who wrote the data, e.g. "org.photoedit.recipe" (reverse-DNS, as PhotoKit).
    public let formatIdentifier: String
    /// The version of that format.
    public let formatVersion: String
    /// The recipe itself; opaque unless the format is understood.
    public let data: Data

    /// Adjustment data with its three fields.
    public init(formatIdentifier: String, formatVersion: String, data: Data) {
        self.formatIdentifier = formatIdentifier
        self.formatVersion = formatVersion
        self.data = data
    }

    /// The three fields as a JSON document: `data` as UTF-8 text, or base64
    /// when it is not UTF-8 (said by `dataEncoding`). Used by `show --json`
    /// and by the exported `adjustmentData` resource.
    public var document: JSONValue {
        let text = String(data: data, encoding: .utf8)
        return .object([
            "formatIdentifier": .string(formatIdentifier),
            "formatVersion": .string(formatVersion),
            "data": .string(text ?? data.base64EncodedString()),
            "dataEncoding": .string(text == nil ? "base64" : "utf8"),
        ])
    }
}
