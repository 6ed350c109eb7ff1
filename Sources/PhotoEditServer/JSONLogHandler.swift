// Only with the `Server` trait (Package.swift): without it the module is empty.
#if Server
import Foundation
import Logging
import PhotoEdit

/// A swift-log handler writing one JSON object a line (`time`, `level`,
/// `label`, `message`, then the metadata: `request_id`, `method`, `route`,
/// `status`, `duration_ms` for requests), for log collectors:
/// `photoedit serve --log-format json`.
public struct JSONLogHandler: LogHandler {
    public var metadata: Logger.Metadata = [:]
    public var logLevel: Logger.Level = .info
    private let label: String
    private let write: @Sendable (String) -> Void

    /// A handler writing to standard error.
    public init(label: String) {
        self.init(label: label) { line in FileHandle.standardError.write(Data(line.utf8)) }
    }

    /// A handler writing each line (ending in a newline) with `write`.
    public init(label: String, write: @escaping @Sendable (String) -> Void) {
        self.label = label
        self.write = write
    }

    public subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    public func log(event: LogEvent) {
        var object: [String: JSONValue] = [:]
        for (key, value) in metadata.merging(event.metadata ?? [:], uniquingKeysWith: { $1 }) { object[key] = Self.json(value) }
        object["time"] = .string(ISO8601DateFormatter.string(from: Date(), timeZone: .gmt,
                                                             formatOptions: [.withInternetDateTime, .withFractionalSeconds]))
        object["level"] = .string(event.level.rawValue)
        object["label"] = .string(label)
        object["message"] = .string(event.message.description)
        write(JSONValue.object(object).canonicalText + "\n")
    }

    static func json(_ value: Logger.Metadata.Value) -> JSONValue {
        switch value {
        case let .string(text): return .string(text)
        case let .stringConvertible(value): return .string(value.description)
        case let .array(items): return .array(items.map(json))
        case let .dictionary(members): return .object(members.mapValues(json))
        }
    }
}
#endif
