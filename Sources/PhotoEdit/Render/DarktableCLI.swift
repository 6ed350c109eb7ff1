import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// darktable's command-line exporter (`darktable-cli`, Debian's `darktable`
/// package), which renders a photo with a darktable history
/// (``DarktableHistory``). photoedit cannot read darktable's module
/// parameters; as in PhotoKit's model, the editor that can handle the
/// adjustment data makes the render, and photoedit keeps both.
///
/// Each run is isolated: a fresh configuration, cache and in-memory library
/// in a temporary folder (removed afterwards), the user's presets and
/// styles not applied, no sidecar written anywhere, the output in sRGB.
public struct DarktableCLI: Sendable, Hashable {
    /// The executable.
    public let executable: String
    /// Seconds a render may take before it is stopped and refused.
    public var timeout: Double = 300

    /// The executable at `path` (nil when it is not an executable file).
    public init?(path: String) {
        guard access(path, X_OK) == 0, !FileManager.default.isDirectoryPath(path) else { return nil }
        executable = path
    }

    /// The one the environment names: `$PHOTOEDIT_DARKTABLE_CLI` (a path;
    /// `none` turns darktable rendering off), else `darktable-cli` on `$PATH`.
    /// Nil when there is none.
    public static func located(environment: [String: String] = ProcessInfo.processInfo.environment) -> DarktableCLI? {
        if let named = environment["PHOTOEDIT_DARKTABLE_CLI"], !named.isEmpty {
            return named == "none" ? nil : DarktableCLI(path: named)
        }
        for folder in (environment["PATH"] ?? "/usr/bin:/bin").split(separator: ":") where !folder.isEmpty {
            if let found = DarktableCLI(path: "\(folder)/darktable-cli") { return found }
        }
        return nil
    }

    /// Renders `original` with the darktable sidecar `sidecar` into a JPEG at
    /// `output` (full size, sRGB). `work` is a folder for the run's
    /// temporary files. Throws `PhotoEditError.native` (library `darktable`) with darktable's
    /// last line of complaint when it fails, exits without an image, or runs
    /// past `timeout`.
    public func render(original: String, sidecar: Data, to output: String, work: String) throws {
        let folder = work + "/darktable-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: folder + "/config", withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let xmp = folder + "/history.xmp", exported = folder + "/render.jpg", log = folder + "/darktable.log"
        try sidecar.write(to: URL(fileURLWithPath: xmp))
        guard FileManager.default.createFile(atPath: log, contents: nil) else {
            throw PhotoEditError.native(library: "darktable", operation: "darktable-cli", message: "cannot create its log in \(work)")
        }

        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = [original, xmp, exported, "--icc-type", "SRGB", "--apply-custom-presets", "false", "--hq", "true",
                             "--core", "--configdir", folder + "/config", "--cachedir", folder + "/cache", "--library", ":memory:",
                             "--conf", "write_sidecar_files=never", "--conf", "plugins/imageio/format/jpeg/quality=95"]
        var environment = ProcessInfo.processInfo.environment
        for key in ["HOME", "XDG_CONFIG_HOME", "XDG_CACHE_HOME", "XDG_DATA_HOME"] { environment[key] = folder }
        environment["DISPLAY"] = nil
        environment["WAYLAND_DISPLAY"] = nil
        process.environment = environment
        process.standardInput = FileHandle.nullDevice
        let logHandle = try FileHandle(forWritingTo: URL(fileURLWithPath: log))
        defer { try? logHandle.close() }
        process.standardOutput = logHandle
        process.standardError = logHandle
        do {
            try process.runWithNoSignalBlocked()
        } catch {
            throw PhotoEditError.native(library: "darktable", operation: "darktable-cli", message: "could not be started (\(executable)): \(error.localizedDescription)")
        }
        let deadline = Date().addingTimeInterval(timeout)
        while process.isRunning && Date() < deadline { usleep(10_000) }
        if process.isRunning {
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
            throw PhotoEditError.native(library: "darktable", operation: "darktable-cli", message: "did not finish within \(Int(timeout)) s")
        }
        process.waitUntilExit()
        guard process.terminationStatus == 0, FileManager.default.fileExists(atPath: exported) else {
            throw PhotoEditError.native(library: "darktable", operation: "darktable-cli", message: "made no image (exit \(process.terminationStatus)): \(Self.complaint(in: log))")
        }
        unlink(output)
        try FileManager.default.moveItem(atPath: exported, toPath: output)
    }

    /// darktable's last line that is not a warning about running as root, a
    /// few hundred characters at most (the log holds messages, never the photo).
    static func complaint(in log: String) -> String {
        guard let handle = FileHandle(forReadingAtPath: log) else { return "no message" }
        defer { try? handle.close() }
        let end = (try? handle.seekToEnd()) ?? 0
        try? handle.seek(toOffset: end > 4096 ? end - 4096 : 0)
        let text = String(decoding: (try? FileIO.readToEnd(handle.fileDescriptor, what: log)) ?? Data(), as: UTF8.self)
        let lines = text.split(whereSeparator: \.isNewline).map { $0.trimmingCharacters(in: .whitespaces) }
            .filter { !$0.isEmpty && !$0.contains("running darktable as root") }
        guard let last = lines.last else { return "no message" }
        let clean = String(last.unicodeScalars.filter { $0.properties.generalCategory != .control }.map(Character.init))
        return clean.count > 300 ? String(clean.prefix(300)) + "…" : clean
    }
}

extension FileManager {
    fileprivate func isDirectoryPath(_ path: String) -> Bool {
        var isDirectory: ObjCBool = false
        return fileExists(atPath: path, isDirectory: &isDirectory) && isDirectory.boolValue
    }
}
