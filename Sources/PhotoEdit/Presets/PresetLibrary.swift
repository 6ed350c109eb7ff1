import Foundation

/// A named edit kept as a file: `NAME.chain` (a chain in the grammar; lines
/// starting with `#` are comments, the first one describes the preset; the
/// other lines are joined with commas) or `NAME.json` (a recipe).
public struct Preset: Sendable {
    /// What a preset holds: a chain or a whole recipe.
    public enum Content: Sendable {
        case chain(String)
        case recipe(Recipe)
    }

    /// The preset name (its file name without extension).
    public let name: String
    /// The file it was read from.
    public let path: String
    /// Its description (the first comment line), or its chain.
    public let summary: String
    /// The chain or recipe.
    public let content: Content

    /// The preset as a chain (recipes written back in the grammar).
    public var chain: String {
        switch content {
        case .chain(let text): return text
        case .recipe(let recipe): return Chain.format(recipe)
        }
    }
}

/// Where presets are found, first match wins: folders given by the caller
/// (`--presets DIR`), then `$PHOTOEDIT_PRESETS` (folders separated by `:`),
/// then `$XDG_CONFIG_HOME/photoedit/presets` (`~/.config/photoedit/presets`),
/// then the presets shipped in the repository's `filters/presets/`.
public struct PresetLibrary: Sendable {
    /// Folders searched, first match wins.
    public let folders: [String]
    let registry: FilterRegistry

    /// A preset library over these folders.
    public init(folders: [String], registry: FilterRegistry = .standard) {
        self.folders = folders
        self.registry = registry
    }

    /// The standard search path, after `extra` folders.
    public static func standard(extra: [String] = [], environment: [String: String] = ProcessInfo.processInfo.environment,
                                registry: FilterRegistry = .standard) -> PresetLibrary {
        var folders = extra
        if let env = environment["PHOTOEDIT_PRESETS"] {
            folders += env.split(separator: ":").map(String.init).filter { !$0.isEmpty }
        }
        let config = environment["XDG_CONFIG_HOME"].flatMap { $0.isEmpty ? nil : $0 }
            ?? ((environment["HOME"] ?? NSHomeDirectory()) + "/.config")
        folders.append(config + "/photoedit/presets")
        if let builtIn = builtInFolder { folders.append(builtIn) }
        return PresetLibrary(folders: folders, registry: registry)
    }

    /// `filters/presets` of the checkout this engine was built from: found
    /// beside the executable's build folder, else from this source file.
    static let builtInFolder: String? = {
        var candidates: [URL] = []
        if let exe = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe") {
            var url = URL(fileURLWithPath: exe).deletingLastPathComponent()
            for _ in 0..<5 {
                candidates.append(url.appendingPathComponent("filters/presets"))
                url.deleteLastPathComponent()
            }
        }
        candidates.append(URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("filters/presets"))
        return candidates.first { FileIO.isDirectory($0.path) }?.standardizedFileURL.path
    }()

    static func isValidName(_ name: String) -> Bool {
        !name.isEmpty && name.count <= 64 && name.unicodeScalars.allSatisfy {
            CharacterSet.alphanumerics.contains($0) || $0 == "-" || $0 == "_"
        }
    }

    /// Every preset, by name; a name found in an earlier folder hides later ones.
    public func all() throws -> [Preset] {
        var seen = Set<String>()
        var out: [Preset] = []
        for folder in folders where FileIO.isDirectory(folder) {
            let names = ((try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []).sorted()
            for file in names {
                let ext = (file as NSString).pathExtension
                let name = (file as NSString).deletingPathExtension
                guard ext == "chain" || ext == "json", Self.isValidName(name), !seen.contains(name) else { continue }
                seen.insert(name)
                out.append(try load(folder + "/" + file, name: name))
            }
        }
        return out.sorted { $0.name < $1.name }
    }

    /// The preset called `name`.
    public func preset(named name: String) throws -> Preset {
        for folder in folders {
            for ext in ["chain", "json"] {
                let path = folder + "/" + name + "." + ext
                if FileIO.exists(path) { return try load(path, name: name) }
            }
        }
        let known = (try? all().map(\.name)) ?? []
        throw PhotoEditError.invalidChain(chain: "preset:" + name,
                                          problem: "no preset called '\(name)' (known: \(known.isEmpty ? "none" : known.joined(separator: ", ")))")
    }

    /// Reads and checks one preset file.
    func load(_ path: String, name: String) throws -> Preset {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw PhotoEditError.unreadableFile(path: path, reason: "cannot read the preset")
        }
        do {
            if path.hasSuffix(".json") {
                let recipe = try Recipe(json: JSONValue.parse(data), registry: registry)
                return Preset(name: name, path: path, summary: Chain.format(recipe, registry: registry), content: .recipe(recipe))
            }
            let text = String(decoding: data, as: UTF8.self)
            var comments: [String] = []
            var body: [String] = []
            for line in text.split(whereSeparator: \.isNewline).map({ $0.trimmingCharacters(in: .whitespaces) }) where !line.isEmpty {
                if line.hasPrefix("#") { comments.append(line.dropFirst().trimmingCharacters(in: .whitespaces)) } else { body.append(line) }
            }
            let chain = body.joined(separator: ",").replacingOccurrences(of: ",,", with: ",")
            // Check it parses and applies (presets it names are checked when used).
            let steps = try Chain.parse(chain)
            if !steps.contains(where: { $0.preset != nil }) { _ = try Chain.apply(steps, to: .empty, registry: registry, auto: { $0 }) }
            return Preset(name: name, path: path, summary: comments.first ?? chain, content: .chain(chain))
        } catch let error as PhotoEditError {
            throw PhotoEditError.unreadableFile(path: path, reason: "bad preset: \(error.description)")
        }
    }
}
