import Foundation

/// Why an uploaded preset was not added (`PhotoLibrary.addPreset`).
public enum PresetUploadError: Error, Sendable, CustomStringConvertible {
    /// The name is not ASCII letters, digits, `-`, `_` (at most 64), optionally with `.xmp`.
    case invalidName(String)
    /// The bytes are not a Lightroom / Camera Raw develop preset (one line saying why).
    case notAPreset(String)
    /// A preset of that name exists already (uploaded presets are never replaced).
    case exists(String)
    /// More bytes than `PhotoLibrary.maxPresetBytes`.
    case tooLarge(Int)

    public var description: String {
        switch self {
        case .invalidName: return "a preset name is 1 to 64 ASCII letters, digits, '-' or '_' (optionally followed by .xmp)"
        case let .notAPreset(reason): return "not a Lightroom preset: \(reason)"
        case let .exists(name): return "a preset called '\(name)' exists already"
        case let .tooLarge(size): return "the preset is \(size) bytes; the limit is \(PhotoLibrary.maxPresetBytes)"
        }
    }
}

/// Presets uploaded to a library (the web editor's "Upload Lightroom preset"):
/// `presets/NAME.xmp` in the library folder, or the blob `presets/NAME.xmp`
/// of a distributed library (copied into the node's work folder to be read),
/// so every process and node of the library sees the same presets. They are
/// written once and never replaced, like the library's other files.
struct UploadedPresets: LibraryService, FilesUser {
    let catalogPart: CatalogPart
    let filesPart: FilesPart
    let registry: FilterRegistry
}

extension PhotoLibrary {
    /// The largest preset file `addPreset` accepts (1 MiB).
    public static let maxPresetBytes = 1 << 20
}

extension UploadedPresets {
    /// The folder (relative to the library) holding uploaded presets.
    static let presetsFolder = "presets"

    /// The façade's `presets(environment:)`.
    func presets(environment: [String: String] = ProcessInfo.processInfo.environment) -> PresetLibrary {
        let folder = layout.absolute(Self.presetsFolder)
        if files.isShared { syncSharedPresets(into: folder) }
        let standard = PresetLibrary.standard(environment: environment, registry: registry)
        return PresetLibrary(folders: [folder] + standard.folders, registry: registry)
    }

    /// The façade's `addPreset(named:lightroom:)`.
    func addPreset(named requested: String, lightroom data: Data) throws -> Preset {
        let name = PresetLibrary.xmpName(requested) ?? requested
        guard PresetLibrary.isValidName(name), name.unicodeScalars.allSatisfy(\.isASCII) else { throw PresetUploadError.invalidName(requested) }
        guard data.count <= PhotoLibrary.maxPresetBytes else { throw PresetUploadError.tooLarge(data.count) }
        try requireWritable()
        let library = presets()
        let relative = Self.presetsFolder + "/" + name + ".xmp"
        let taken = library.folders.contains { folder in ["chain", "json", "xmp"].contains { FileIO.exists(folder + "/" + name + "." + $0) } }
        if try taken || files.exists(relative) { throw PresetUploadError.exists(name) }
        try FileManager.default.createDirectory(atPath: layout.tmp, withIntermediateDirectories: true)
        let staged = layout.temporary(".xmp")
        try FileIO.writeFlushed(data, to: staged)
        defer { unlink(staged) }
        let preset: Preset
        do {
            preset = try library.load(staged, name: name)
        } catch let error as PhotoEditError {
            throw PresetUploadError.notAPreset(Self.oneLine(error, staged: staged))
        }
        if files.isShared {
            // Put if absent: a node that raced us keeps its bytes.
            try files.publish(staged, as: relative)
            syncSharedPresets(into: layout.absolute(Self.presetsFolder))
        } else {
            // link(2) never replaces: the loser of a race hears `exists`.
            let target = layout.absolute(relative)
            try FileManager.default.createDirectory(atPath: (target as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
            chmod(staged, 0o444)
            guard link(staged, target) == 0 else {
                if errno == EEXIST { throw PresetUploadError.exists(name) }
                throw PhotoEditError.library("cannot add the preset \(name): \(String(cString: strerror(errno)))")
            }
            FileIO.flushDirectory((target as NSString).deletingLastPathComponent)
        }
        return Preset(name: name, path: layout.absolute(relative), summary: preset.summary, content: preset.content)
    }

    /// The reason of a preset that did not load, on one line, without the staging path.
    static func oneLine(_ error: PhotoEditError, staged: String) -> String {
        var text: String
        if case let .unreadableFile(_, reason) = error { text = reason } else { text = error.description }
        if text.hasPrefix("bad preset: ") { text = String(text.dropFirst("bad preset: ".count)) }
        text = text.replacingOccurrences(of: staged, with: "the upload")
            .split(whereSeparator: \.isNewline).first.map(String.init) ?? "unreadable"
        return text.count > 200 ? String(text.prefix(200)) + "…" : text
    }

    /// Copies the shared library's preset blobs missing from `folder` (presets
    /// are never replaced, so a copy once made stays right). Best effort: a
    /// store that cannot be listed leaves the presets already copied.
    func syncSharedPresets(into folder: String) {
        guard let listed = try? files.list(Self.presetsFolder) else { return }
        for info in listed {
            let file = (info.relative as NSString).lastPathComponent
            guard file.hasSuffix(".xmp"), PresetLibrary.isValidName(String(file.dropLast(4))) else { continue }
            let target = folder + "/" + file
            guard !FileIO.exists(target), let source = files.existingLocalPath(info.relative) else { continue }
            try? FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
            try? FileIO.copyFile(from: source, to: target)
        }
    }
}
