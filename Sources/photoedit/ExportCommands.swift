import ArgumentParser
import Foundation
import PhotoEdit

/// The export settings `render` and `export` share, each option's help and
/// value name from `ExportSettings.options` (the declaration); values are
/// kept as text and checked by `ExportSettings(values:)`, so the CLI, HTTP
/// and presets refuse the same values with the same lines.
struct ExportShapeArguments: ParsableArguments {
    static func help(_ name: String) -> ArgumentHelp {
        let option = ExportSettings.option(name)!
        return ArgumentHelp(option.help, valueName: option.valueName)
    }

    @Flag(help: help("lossless")) var lossless = false
    @Option(help: help("effort")) var effort: String?
    @Option(name: .customLong("long-edge"), help: help("long-edge")) var longEdge: String?
    @Option(name: .customLong("short-edge"), help: help("short-edge")) var shortEdge: String?
    @Option(help: help("megapixels")) var megapixels: String?
    @Option(help: help("percent")) var percent: String?
    @Flag(help: help("enlarge")) var enlarge = false
    @Option(name: .customLong("max-bytes"), help: help("max-bytes")) var maxBytes: String?
    @Option(help: help("sharpen")) var sharpen: String?
    @Option(help: help("metadata")) var metadata: String?
    @Option(help: help("watermark")) var watermark: String?
    @Option(name: .customLong("watermark-size"), help: help("watermark-size")) var watermarkSize: String?
    @Option(name: .customLong("watermark-opacity"), help: help("watermark-opacity")) var watermarkOpacity: String?
    @Option(name: .customLong("watermark-position"), help: help("watermark-position")) var watermarkPosition: String?
    @Option(name: .customLong("watermark-inset"), help: help("watermark-inset")) var watermarkInset: String?

    /// The options given, by declared name.
    var values: [String: String] {
        var v: [String: String] = [:]
        if lossless { v["lossless"] = "true" }
        if enlarge { v["enlarge"] = "true" }
        let pairs: [(String, String?)] = [("effort", effort), ("long-edge", longEdge), ("short-edge", shortEdge), ("megapixels", megapixels),
                                          ("percent", percent), ("max-bytes", maxBytes), ("sharpen", sharpen), ("metadata", metadata),
                                          ("watermark", watermark), ("watermark-size", watermarkSize), ("watermark-opacity", watermarkOpacity),
                                          ("watermark-position", watermarkPosition), ("watermark-inset", watermarkInset)]
        for (name, value) in pairs { if let value { v[name] = value } }
        return v
    }
}

/// The file options of `export` (render has its own, older, of the same names).
struct ExportFileArguments: ParsableArguments {
    @Option(help: ExportShapeArguments.help("format")) var format: String?
    @Option(help: ExportShapeArguments.help("quality")) var quality: String?
    @Option(help: ExportShapeArguments.help("depth")) var depth: String?
    @Option(help: ExportShapeArguments.help("profile")) var profile: String?
    @Option(help: ExportShapeArguments.help("intent")) var intent: String?
    @Option(help: ExportShapeArguments.help("compression")) var compression: String?
    @Option(help: ExportShapeArguments.help("size")) var size: String?

    var values: [String: String] {
        var v: [String: String] = [:]
        let pairs: [(String, String?)] = [("format", format), ("quality", quality), ("depth", depth), ("profile", profile),
                                          ("intent", intent), ("compression", compression), ("size", size)]
        for (name, value) in pairs { if let value { v[name] = value } }
        return v
    }
}

extension RenderCommand {
    /// Does this render need the export path (an option or format only it has)?
    var usesExport: Bool {
        if !shape.values.isEmpty { return true }
        let named = format.flatMap { ExportFormat(rawValue: $0.lowercased()) ?? ExportFormat(pathExtension: $0) }
            ?? ExportFormat(pathExtension: (output as NSString).pathExtension)
        return named == .avif || named == .jxl || named == .heic
    }

    /// `render` through the exporter: the current version, shaped by the settings.
    func runExport() throws {
        if mode != nil || resize != nil || crop != nil {
            throw PhotoEditError.invalidOutput("--mode, --resize and --crop do not combine with export options (--long-edge, --metadata, --sharpen…); use --size WxH")
        }
        if version != "current" { throw PhotoEditError.invalidOutput("export options render the current version only (got --version \(version))") }
        var values = shape.values
        let ext = (output as NSString).pathExtension
        if let format {
            guard let f = ExportFormat(rawValue: format.lowercased()) ?? ExportFormat(pathExtension: format) else {
                throw PhotoEditError.invalidOutput("unknown format '\(format)' (\(ExportFormat.allCases.map(\.rawValue).joined(separator: ", ")))")
            }
            values["format"] = f.rawValue
        } else if ext.isEmpty {
            values["format"] = "jpeg"
        } else {
            guard let f = ExportFormat(pathExtension: ext) else {
                throw PhotoEditError.invalidOutput("unknown file extension '.\(ext)' (use .jpg, .png, .tif, .webp, .avif, .jxl or .heic, or --format)")
            }
            values["format"] = f.rawValue
        }
        if let quality { values["quality"] = String(quality) }
        values["profile"] = profile
        values["intent"] = intent
        values["depth"] = String(depth)
        values["compression"] = compression
        if let size { values["size"] = size }
        let settings = try ExportSettings(values: values)
        let library = try options.open()
        let result = try library.export(id, settings: settings, to: output)
        if settings.maxBytes != nil {
            Output.note("\(output): \(result.data.count) bytes at quality \(result.quality ?? 100) (\(result.encodes) encodes)")
        }
    }
}

/// `photoedit export [--preset NAME] [settings] IDS… -o DIR`: the batch form.
struct ExportBatchArguments: ParsableArguments {
    @Option(help: ArgumentHelp("Export preset (see export-presets); the settings given override it.", valueName: "NAME")) var preset: String?
    @Option(name: .customLong("where"), help: ArgumentHelp("Also every photo matching this filter (as `list --where`).", valueName: "QUERY"))
    var filter: String?
    @Option(help: ArgumentHelp("Also every photo of this album (title or id).", valueName: "NAME")) var album: String?
    @Flag(help: "Export again even the files that are already current.") var force = false
    @Option(help: ExportShapeArguments.help("name")) var name: String?
    @OptionGroup var file: ExportFileArguments
    @OptionGroup var shape: ExportShapeArguments

    var isUsed: Bool {
        preset != nil || filter != nil || album != nil || force || name != nil || !file.values.isEmpty || !shape.values.isEmpty
    }

    func validate(ids: [String]) throws {
        if ids.isEmpty && filter == nil && album == nil { throw ValidationError("give photo ids, --where QUERY or --album NAME") }
    }

    /// The settings: the preset's (or the defaults), then the options given.
    func settings(_ library: PhotoLibrary) throws -> ExportSettings {
        let base = try preset.map { try library.exportPreset($0).settings } ?? ExportSettings()
        var values = file.values.merging(shape.values) { a, _ in a }
        if let name { values["name"] = name }
        return try ExportSettings(values: values, base: base)
    }

    func run(ids: [String], into folder: String, options: LibraryOptions) throws {
        let library = try options.open()
        let settings = try settings(library)
        var photos = try ids.map { try library.resolve($0) }
        func matching(_ query: String) throws -> [String] {
            try library.fetchAssets(FetchOptions(predicate: try AssetPredicate(parsing: query))).identifiers
        }
        if let filter { photos += try matching(filter) }
        if let album {
            let quoted = "\"" + album.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"") + "\""
            let found = try matching("album=\(quoted)")
            if found.isEmpty { throw PhotoEditError.invalidQuery("album '\(album)' has no photos (or does not exist)") }
            photos += found
        }
        var seen = Set<String>()
        photos = photos.filter { seen.insert($0).inserted }
        if photos.isEmpty { throw PhotoEditError.invalidQuery("no photo to export") }
        let bar = ProgressBar("exporting")
        let items = try library.exportBatch(photos, settings: settings, to: folder, force: force, progress: bar.handler)
        bar.finish()
        var failed = 0, written = 0, encodes = 0
        for item in items {
            switch item.outcome {
            case .written(_, _, let made):
                written += 1
                encodes += made
                Output.line("\(item.id)\t\(Output.field(item.path))\twritten")
            case .skipped: Output.line("\(item.id)\t\(Output.field(item.path))\tcurrent")
            case .failed(let error):
                failed += 1
                Output.error("\(item.id): \(error.description)")
            }
        }
        // The quality search's cost, as `render --max-bytes` notes it per file.
        if let limit = settings.maxBytes, written > 0 {
            let mean = String(format: "%.2f", Double(encodes) / Double(written))
            Output.note("max-bytes \(limit): \(written) written with \(encodes) encodes (\(mean) per photo)")
        }
        if failed > 0 { throw ExitCode(1) }
    }
}

/// `photoedit export-presets`: list, create or remove export presets.
struct ExportPresetsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "export-presets",
        abstract: "List export presets (built in and the library's), or create or remove one.",
        subcommands: [List.self, Create.self, Remove.self], defaultSubcommand: List.self)

    struct List: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "List export presets: NAME<TAB>built-in|library<TAB>SUMMARY<TAB>SETTINGS.")
        @OptionGroup var options: LibraryOptions
        @Flag(help: "Print JSON.") var json = false
        func run() throws {
            try PhotoEdit_run {
                let presets = try options.open().exportPresets()
                if json { return Output.json(.array(presets.map(\.json))) }
                for p in presets {
                    let settings = p.settings.values.sorted { $0.key < $1.key }.map { "--\($0.key) \($0.value)" }.joined(separator: " ")
                    Output.line("\(p.name)\t\(p.isBuiltIn ? "built-in" : "library")\t\(Output.field(p.summary))\t\(Output.field(settings))")
                }
            }
        }
    }

    struct Create: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Store an export preset in the library from export options (e.g. --format avif --long-edge 1600).")
        @OptionGroup var options: LibraryOptions
        @Argument(help: "Preset name: 1-64 letters, digits, - or _.") var name: String
        @Option(help: "One line saying what it is for.") var summary: String = ""
        @Option(help: ArgumentHelp("Start from this preset's settings.", valueName: "NAME")) var from: String?
        @Option(name: .customLong("name-template"), help: ExportShapeArguments.help("name")) var template: String?
        @OptionGroup var file: ExportFileArguments
        @OptionGroup var shape: ExportShapeArguments
        func run() throws {
            try PhotoEdit_run {
                let library = try options.open()
                let base = try from.map { try library.exportPreset($0).settings } ?? ExportSettings()
                var values = file.values.merging(shape.values) { a, _ in a }
                if let template { values["name"] = template }
                let preset = try library.addExportPreset(named: name, summary: summary, settings: try ExportSettings(values: values, base: base))
                Output.line(preset.name)
            }
        }
    }

    struct Remove: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Remove an export preset stored in the library.")
        @OptionGroup var options: LibraryOptions
        @Argument(help: "Preset name.") var name: String
        func run() throws {
            try PhotoEdit_run { try options.open().removeExportPreset(named: name) }
        }
    }
}
