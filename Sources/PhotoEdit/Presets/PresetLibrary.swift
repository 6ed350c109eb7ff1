import Foundation

/// A named edit kept as a file: `NAME.chain` (a chain in the grammar; lines
/// starting with `#` are comments, the first one describes the preset; the
/// other lines are joined with commas), `NAME.json` (a recipe) or
/// `NAME.xmp` (a Lightroom / Camera Raw develop preset, translated).
public struct Preset: Sendable {
    /// What a preset holds: a chain, a whole recipe, or Lightroom develop settings.
    public enum Content: Sendable {
        case chain(String)
        case recipe(Recipe)
        /// A Lightroom preset: its settings, translated for the photo it is
        /// applied to (a RAW's development or a rendered file).
        case lightroom(LightroomSettings)
    }

    /// The preset name (its file name without extension).
    public let name: String
    /// The file it was read from.
    public let path: String
    /// Its description (the first comment line), or its chain.
    public let summary: String
    /// The chain or recipe.
    public let content: Content

    /// The preset as a chain (recipes written back in the grammar; a
    /// Lightroom preset as it translates for a rendered file, which applies
    /// to any photo: its white balance a relative shift).
    public var chain: String {
        switch content {
        case .chain(let text): return text
        case .recipe(let recipe): return Chain.format(recipe)
        case .lightroom(let settings): return (try? settings.targeting(rendered: true).translation()).map { Chain.format($0.recipe) } ?? ""
        }
    }

    /// The filters the preset sets, for a photo that develops a RAW or not
    /// (a Lightroom preset's white balance depends on it); nil for a chain.
    /// `unmapped`: a Lightroom preset's settings that are not applied.
    public func recipe(developsRaw: Bool, registry: FilterRegistry = .standard) throws -> (recipe: Recipe, unmapped: [String])? {
        switch content {
        case .chain: return nil
        case .recipe(let recipe): return (recipe, [])
        case .lightroom(let settings):
            do {
                let translation = try settings.targeting(rendered: !developsRaw).translation(registry: registry)
                return (translation.recipe, translation.unmapped)
            } catch {
                throw PhotoEditError.unreadableFile(path: path, reason: "bad preset: \(error)")
            }
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

    /// `NAME.xmp` (a Lightroom preset named with its file's extension): NAME; else nil.
    static func xmpName(_ name: String) -> String? {
        guard name.lowercased().hasSuffix(".xmp") else { return nil }
        let base = String(name.dropLast(4))
        return isValidName(base) ? base : nil
    }

    /// A preset's name: letters, digits, `-`, `_` (at most 64), or such a name and `.xmp`.
    static func isPresetName(_ name: String) -> Bool { isValidName(name) || xmpName(name) != nil }

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
                guard ["chain", "json", "xmp"].contains(ext), Self.isValidName(name), !seen.contains(name) else { continue }
                seen.insert(name)
                out.append(try load(folder + "/" + file, name: name))
            }
        }
        return out.sorted { $0.name < $1.name }
    }

    /// The preset called `name` (`NAME.chain`, `NAME.json` or `NAME.xmp`, the
    /// first found); `NAME.xmp` names the Lightroom preset file only.
    public func preset(named name: String) throws -> Preset {
        let named = Self.xmpName(name)
        for folder in folders {
            for ext in named == nil ? ["chain", "json", "xmp"] : ["xmp"] {
                let path = folder + "/" + (named ?? name) + "." + ext
                if FileIO.exists(path) { return try load(path, name: named ?? name) }
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
            if path.hasSuffix(".xmp") {
                let settings: LightroomSettings
                do {
                    guard let data = try XMPPacket.loadData(SystemPath(path)) else { throw XMPProblem("no such file") }
                    settings = try LightroomSettings(packet: data)
                } catch {
                    throw PhotoEditError.invalidAdjustmentData("not Lightroom develop settings: \(error)")
                }
                guard settings.isToApply else { throw PhotoEditError.invalidAdjustmentData("no Lightroom develop settings to apply") }
                do {
                    // Checked now: settings that cannot be read refuse the preset.
                    _ = try settings.translation(registry: registry)
                } catch {
                    throw PhotoEditError.invalidAdjustmentData("Lightroom develop settings: \(error)")
                }
                let summary = settings.presetName.flatMap { $0.count <= 200 ? "Lightroom preset \($0)" : nil } ?? "Lightroom preset"
                return Preset(name: name, path: path, summary: summary, content: .lightroom(settings))
            }
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
            if !steps.contains(where: { $0.preset != nil }) { _ = try Chain.apply(steps, to: .empty, registry: registry, auto: { $0 }, upright: { r, _ in r }) }
            return Preset(name: name, path: path, summary: comments.first ?? chain, content: .chain(chain))
        } catch let error as PhotoEditError {
            throw PhotoEditError.unreadableFile(path: path, reason: "bad preset: \(error.description)")
        }
    }
}
