import Foundation

/// A named set of export settings: built in, or stored in the library as
/// `export-presets/NAME.json` (a file in the library folder, or the blob of
/// a distributed library), so every process and node sees the same ones.
public struct ExportPreset: Sendable, Hashable {
    public let name: String
    /// One line saying what it is for.
    public let summary: String
    public let settings: ExportSettings
    /// Built in (cannot be removed or replaced).
    public let isBuiltIn: Bool

    /// The preset file's JSON: `{"summary": …, "settings": {option: value…}}`
    /// with the settings as option values by declared name.
    public var json: JSONValue {
        .object(["name": .string(name), "summary": .string(summary), "builtIn": .bool(isBuiltIn),
                 "settings": .object(settings.values.mapValues { .string($0) })])
    }

    /// The presets every library has.
    public static let builtIn: [ExportPreset] = {
        func make(_ name: String, _ summary: String, _ values: [String: String]) -> ExportPreset {
            // The values are constants checked by the tests.
            ExportPreset(name: name, summary: summary, settings: try! ExportSettings(values: values), isBuiltIn: true)
        }
        return [
            make("web-avif", "AVIF for the web: long edge 2048 px, screen sharpening, copyright only",
                 ["format": "avif", "long-edge": "2048", "sharpen": "screen", "metadata": "copyright"]),
            make("print-tiff", "16-bit TIFF for print: full size, Adobe RGB, glossy sharpening, all metadata",
                 ["format": "tiff", "depth": "16", "profile": "adobe-rgb", "sharpen": "glossy", "compression": "deflate"]),
            make("share-jpeg", "JPEG to share: long edge 2048 px, quality 85, screen sharpening, no location",
                 ["format": "jpeg", "quality": "85", "long-edge": "2048", "sharpen": "screen", "metadata": "no-location"]),
        ]
    }()

    /// A preset name: 1 to 64 ASCII letters, digits, `-` or `_`.
    public static func isValidName(_ name: String) -> Bool {
        (1...64).contains(name.count) && name.unicodeScalars.allSatisfy { $0.isASCII && (CharacterSet.alphanumerics.contains($0) || $0 == "-" || $0 == "_") }
    }

    /// The largest preset file read.
    static let maxFileBytes = 65_536

    /// Reads a preset file's bytes (at most 64 KB): settings checked as the CLI's.
    static func decode(name: String, data: Data) throws -> ExportPreset {
        guard data.count <= maxFileBytes else { throw PhotoEditError.invalidOutput("export preset '\(name)' is larger than 64 KB") }
        guard case .object(let object)? = try? JSONDecoder().decode(JSONValue.self, from: data),
              case .object(let settings)? = object["settings"] else {
            throw PhotoEditError.invalidOutput("export preset '\(name)' is not a JSON object with \"settings\"")
        }
        var values: [String: String] = [:]
        for (key, value) in settings {
            switch value {
            case .string(let s): values[key] = s
            case .number(let n): values[key] = n == n.rounded() && abs(n) < 1e15 ? String(Int(n)) : String(n)
            case .bool(let b): values[key] = b ? "true" : "false"
            default: throw PhotoEditError.invalidOutput("export preset '\(name)': \(key) is not a string, number or boolean")
            }
        }
        var summary = ""
        if case .string(let s)? = object["summary"] { summary = String(s.prefix(200)) }
        return ExportPreset(name: name, summary: summary, settings: try ExportSettings(values: values), isBuiltIn: false)
    }
}

extension Exporting {
    /// The folder (relative to the library) of stored export presets.
    static let presetsFolder = "export-presets"

    /// Built-in presets, then the library's, by name.
    func exportPresets() throws -> [ExportPreset] {
        var out = ExportPreset.builtIn
        let listed = (try? files.list(Self.presetsFolder)) ?? []
        for info in listed.sorted(by: { $0.relative < $1.relative }) {
            let file = (info.relative as NSString).lastPathComponent
            guard file.hasSuffix(".json") else { continue }
            let name = String(file.dropLast(5))
            guard ExportPreset.isValidName(name), !out.contains(where: { $0.name == name }),
                  let data = try? files.currentContents(info.relative, limit: 1 << 20) else { continue }
            // A damaged file is skipped here; asking for it by name says why.
            if let preset = try? ExportPreset.decode(name: name, data: data) { out.append(preset) }
        }
        return out
    }

    /// The preset called `name`.
    func exportPreset(_ name: String) throws -> ExportPreset {
        if let p = ExportPreset.builtIn.first(where: { $0.name == name }) { return p }
        guard ExportPreset.isValidName(name) else {
            throw PhotoEditError.invalidOutput("unknown export preset '\(name.prefix(64))' (a name is 1-64 letters, digits, - or _)")
        }
        let relative = Self.presetsFolder + "/" + name + ".json"
        // From the store itself, never a node's cache: a preset removed and
        // made again on another node has new bytes under the same name.
        guard let data = try files.currentContents(relative, limit: 1 << 20) else {
            let known = ((try? exportPresets()) ?? ExportPreset.builtIn).map(\.name)
            throw PhotoEditError.invalidOutput("unknown export preset '\(name)'\(Spelling.didYouMean(name, among: known)) (\(known.joined(separator: ", ")))")
        }
        return try ExportPreset.decode(name: name, data: data)
    }

    /// Stores a preset (a name taken, built in or stored, is refused).
    func addExportPreset(named name: String, summary: String, settings: ExportSettings) throws -> ExportPreset {
        guard ExportPreset.isValidName(name) else {
            throw PhotoEditError.invalidOutput("export preset name '\(name.prefix(64))' is not 1-64 letters, digits, - or _")
        }
        try settings.validate()
        try requireWritable()
        let relative = Self.presetsFolder + "/" + name + ".json"
        let stored = try files.exists(relative)
        if stored || ExportPreset.builtIn.contains(where: { $0.name == name }) {
            throw PhotoEditError.invalidOutput("an export preset called '\(name)' exists already (remove it first)")
        }
        let preset = ExportPreset(name: name, summary: String(summary.prefix(200)), settings: settings, isBuiltIn: false)
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        let data = try encoder.encode(JSONValue.object(["summary": .string(preset.summary), "settings": .object(settings.values.mapValues { .string($0) })]))
        try FileManager.default.createDirectory(atPath: layout.tmp, withIntermediateDirectories: true)
        let staged = layout.temporary(".json")
        defer { unlink(staged) }
        try FileIO.writeFlushed(data, to: staged)
        if !files.isShared {
            try FileManager.default.createDirectory(atPath: layout.absolute(Self.presetsFolder), withIntermediateDirectories: true)
        }
        try files.publish(staged, as: relative)
        return preset
    }

    /// Removes a stored preset.
    func removeExportPreset(named name: String) throws {
        if ExportPreset.builtIn.contains(where: { $0.name == name }) {
            throw PhotoEditError.invalidOutput("export preset '\(name)' is built in and cannot be removed")
        }
        try requireWritable()
        let relative = Self.presetsFolder + "/" + name + ".json"
        guard ExportPreset.isValidName(name), try files.exists(relative) else {
            throw PhotoEditError.invalidOutput("no stored export preset called '\(name.prefix(64))'")
        }
        files.remove(relative)
    }
}
