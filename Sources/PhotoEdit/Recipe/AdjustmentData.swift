import Foundation

/// The recipe of an edit, as PhotoKit's `PHAdjustmentData`: who wrote it
/// (`formatIdentifier`), in which version of their format, and the bytes.
///
/// photoedit's own format is `Recipe.formatIdentifier`; any other format is
/// stored as it is and never interpreted.
public struct AdjustmentData: Hashable, Sendable, Codable {
    public let formatIdentifier: String
    public let formatVersion: String
    public let data: Data

    public init(formatIdentifier: String, formatVersion: String, data: Data) {
        self.formatIdentifier = formatIdentifier
        self.formatVersion = formatVersion
        self.data = data
    }
}
