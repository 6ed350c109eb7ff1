import ArgumentParser
import Foundation
import PhotoEdit
import PhotoEditLocation

struct ImportCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "import",
        abstract: "Import photos (files and folders, recursively).",
        discussion: "Prints one line per imported file: ID<TAB>PATH. Files already in the library (same bytes) print their existing id and are noted on stderr. Bad files are reported on stderr; the others are imported and the exit status is 1."
    )
    @OptionGroup var options: LibraryOptions
    @Flag(help: "Print a JSON array of {id, path, duplicate}.") var json = false
    @Option(help: "Files imported at once (default: the number of cores).") var jobs: Int = ProcessInfo.processInfo.activeProcessorCount
    @Argument(help: ArgumentHelp("Files or folders to import.", valueName: "PATH")) var paths: [String]

    func run() throws {
        try PhotoEdit_run {
            guard (1...64).contains(jobs) else { throw PhotoEditError.invalidOutput("jobs \(jobs) is out of range (1…64)") }
            let library = try options.open()
            let bar = ProgressBar("importing", json: json)
            let results = try library.importItems(fileSystemPaths: paths.map(Self.argumentBytes), jobs: jobs, progress: bar.handler)
            bar.finish()
            var entries: [JSONValue] = []
            var failed = 0
            for r in results {
                if let id = r.id {
                    if json {
                        entries.append(.object(["id": .string(id), "path": .string(r.path), "duplicate": .bool(r.duplicate)]))
                    } else {
                        Output.line("\(id)\t\(Output.field(r.path))")
                    }
                    if r.duplicate { Output.note("\(r.path): already in the library as \(id)") }
                    for warning in r.warnings { Output.note("\(r.path): \(warning)") }
                    if r.joinedPair { Output.note("\(r.path): joined photo \(id) as a RAW+JPEG pair") }
                    if let lr = r.lightroom { Output.note("\(r.path): \(ImportXMPCommand.describe(lr))") }
                    if let dt = r.darktable { Output.note("\(r.path): \(ImportXMPCommand.describe(dt))") }
                } else if let error = r.error {
                    failed += 1
                    Output.error(error.description)
                }
            }
            if json { Output.json(.array(entries)) }
            if failed > 0 { throw ExitCode(1) }
        }
    }
}

extension ImportCommand {
    /// The bytes an argument was given as. Swift decodes arguments as UTF-8,
    /// each invalid byte becoming U+FFFD, so a file name that is not UTF-8
    /// (`caf\xE9.jpg`) could not be opened: the raw `argv` entry that decodes
    /// to the argument is used instead.
    static func argumentBytes(_ argument: String) -> [UInt8] {
        guard argument.unicodeScalars.contains("\u{FFFD}") else { return Array(argument.utf8) }
        for i in 1..<Int(CommandLine.argc) {
            guard let c = CommandLine.unsafeArgv[i] else { continue }
            let bytes = Array(UnsafeBufferPointer(start: UnsafeRawPointer(c).assumingMemoryBound(to: UInt8.self), count: strlen(c)))
            if String(decoding: bytes, as: UTF8.self) == argument { return bytes }
        }
        return Array(argument.utf8)
    }
}

struct ListCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "list",
        abstract: "List the photos in the library: ID, revision, size, format, file name.",
        discussion: """
        Hidden and recently deleted photos are left out unless --hidden or --deleted.
        --where filters (see docs/queries.md), e.g.
          --where 'favorite and width>=3000 and created>=2024-01-01 and camera.make="Canon" and album="Trip"'
        Keys: \(AssetField.allCases.map(\.rawValue).joined(separator: ", ")).
        --sort takes keys separated by commas, '-' for largest first: --sort -created,name
        """)
    @OptionGroup var options: LibraryOptions
    @Flag(help: "Print JSON.") var json = false
    @Flag(help: "Include hidden photos.") var hidden = false
    @Flag(help: "List only the recently deleted photos.") var deleted = false
    @Option(name: .customLong("where"), help: ArgumentHelp("Only the photos matching this filter.", valueName: "EXPR"))
    var filter: String?
    @Option(parsing: .unconditional, help: ArgumentHelp("Sort keys, e.g. -created,name (default: import order; album order with --album).", valueName: "KEYS"))
    var sort: String?
    @Option(help: ArgumentHelp("At most N photos.", valueName: "N")) var limit: Int?
    @Option(help: ArgumentHelp("Only the photos of this album (title or id), in album order.", valueName: "ALBUM")) var album: String?

    func run() throws {
        try PhotoEdit_run {
            // Check the query before opening (or creating) the library.
            var predicate = try filter.map { try AssetPredicate(parsing: $0) }
            if deleted { predicate = predicate.map { .has(.deleted) && $0 } ?? .has(.deleted) }
            let sortDescriptors = try sort.map { try AssetSortDescriptor.parseList($0) } ?? []
            if let limit, limit < 1 { throw PhotoEditError.invalidQuery("--limit \(limit) must be at least 1") }
            let fetchOptions = FetchOptions(predicate: predicate, sortDescriptors: sortDescriptors, fetchLimit: limit ?? 0,
                                            includeHiddenAssets: hidden || deleted, includeRecentlyDeleted: deleted)
            let library = try options.open()
            let result = try album.map { try library.fetchAssets(in: $0, options: fetchOptions) } ?? library.fetchAssets(fetchOptions)
            let assets = try result.allObjects()
            if json {
                Output.json(.array(assets.map { Output.json($0, chain: Output.chain($0.adjustmentData, registry: library.registry)) }))
                return
            }
            for a in assets {
                Output.line("\(a.id)\t\(a.revision)\t\(a.pixelWidth)x\(a.pixelHeight)\t\(a.format)\t\(Output.field(a.originalFilename))")
            }
        }
    }
}

struct ShowCommand: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "show", abstract: "Show one photo's metadata and current recipe.")
    @OptionGroup var options: LibraryOptions
    @Flag(help: "Print JSON.") var json = false
    @Argument(help: "Photo id or unambiguous prefix.") var id: String

    func run() throws {
        try PhotoEdit_run {
            let library = try options.open()
            let a = try library.asset(id)
            let chain = Output.chain(a.adjustmentData, registry: library.registry)
            if json { Output.json(Output.json(a, chain: chain)); return }
            var lines: [(String, String)] = [
                ("id", a.id), ("file", a.originalFilename), ("format", "\(a.format) (\(a.uniformTypeIdentifier))"),
                ("size", "\(a.pixelWidth)x\(a.pixelHeight) (original \(a.originalPixelWidth)x\(a.originalPixelHeight))"),
                ("orientation", String(a.orientation)), ("sha256", a.sha256), ("bytes", String(a.fileSize)),
                ("created", a.creationDate ?? "-"),
                ("location", a.location.map { "\($0.latitude), \($0.longitude)" } ?? "-"),
                ("imported", Output.date(a.importDate)), ("revision", String(a.revision)),
                ("favorite", a.isFavorite ? "yes" : "no"), ("hidden", a.isHidden ? "yes" : "no"),
                ("deleted", a.deletedDate.map { "yes, \(Output.date($0))" } ?? "no"),
                ("albums", a.albums.isEmpty ? "-" : a.albums.joined(separator: ", ")),
                ("rating", a.isRejected ? "rejected" : a.rating == 0 ? "-" : String(repeating: "*", count: a.rating)),
                ("label", a.colorLabel?.rawValue ?? "-"),
                ("keywords", a.keywords.isEmpty ? "-" : a.keywords.map { $0.replacingOccurrences(of: ",", with: "\\,") }.joined(separator: ", ")),
                ("title", a.title ?? "-"), ("caption", a.caption ?? "-"),
            ]
            lines += Output.versionLines(try library.versions(of: a.id), current: a.id)
            if let data = a.adjustmentData {
                lines.append(("adjustments", "\(data.formatIdentifier) \(data.formatVersion)"))
                lines.append(("chain", chain ?? "(not readable by this engine)"))
                if let recipe = try? Recipe(adjustmentData: data, registry: library.registry) {
                    for f in recipe.frozenNodes(registry: library.registry) {
                        lines.append(("version", "\(f.filter) \(f.version) (current \(f.current); renders as version \(f.version) until `photoedit upgrade`)"))
                    }
                }
            } else {
                lines.append(("adjustments", "none"))
            }
            for (k, v) in lines { Output.line(k.padding(toLength: 12, withPad: " ", startingAt: 0) + Output.field(v)) }
        }
    }
}

struct FiltersCommand: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "filters", abstract: "List the filters, in pipeline order, with their parameters.")
    @Flag(help: "Print JSON.") var json = false

    func run() throws {
        let registry = FilterRegistry.standard
        if json {
            Output.json(.array(registry.filters.map(\.jsonDescription)))
            return
        }
        Output.line(FilterHelp.text(registry))
    }
}

struct ApplyCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "apply",
        abstract: "Apply a chain of filters to photos, as a new revision of each.",
        usage: "photoedit apply [options] CHAIN ID...\n  photoedit apply [options] --recipe FILE.json ID...",
        discussion: """
        CHAIN is filters separated by commas: name, name=value, name=v1:v2, name.param=value.
        A filter already in the photo's recipe takes the new parameters (it never stacks).
        Filters always run in the canonical pipeline order (see `photoedit filters`).
        Examples: crop,exposure=+0.3   crop=16:9   crop=0.1:0.1:0.8:0.8   rotate=-90,flip
        With --recipe, the photo's recipe is replaced by the recipe file (docs/recipe-format.md).
        --where EXPR adds every photo matching the filter. On a library shared through PostgreSQL, --as-job \
        enqueues the work for every node's worker and prints the batch id (`photoedit jobs status BATCH`).
        """
    )
    @OptionGroup var options: LibraryOptions
    @OptionGroup var batch: BatchOptions
    @Flag(help: "Start from the original instead of the current recipe.") var reset = false
    @Option(help: ArgumentHelp("For a RAW+JPEG pair, the file to edit from: raw or jpeg (the filters carry over). Default: the current edit's; the JPEG for a photo never edited, unless the chain sets the raw stage.", valueName: "raw|jpeg"))
    var base: String?
    @Option(name: .customLong("remove"), help: ArgumentHelp("Remove this filter from the recipe (repeatable).", valueName: "FILTER"))
    var remove: [String] = []
    @Option(help: ArgumentHelp("Replace the recipe with this recipe JSON file.", valueName: "FILE")) var recipe: String?
    @Option(help: ArgumentHelp("Apply a preset (see `photoedit presets`); then every argument is a photo id.", valueName: "NAME"))
    var preset: String?
    @OptionGroup var presetOptions: PresetOptions
    @Argument(help: ArgumentHelp("The chain (unless --recipe or --preset), then photo ids or unambiguous prefixes.", valueName: "CHAIN ID"))
    var arguments: [String] = []

    func validate() throws {
        if recipe != nil && preset != nil { throw ValidationError("use either --recipe or --preset") }
        let ids = batch.filter == nil ? 1 : 0
        if recipe == nil && preset == nil && arguments.count < 1 + ids { throw ValidationError("give a chain and at least one photo id (or --where)") }
        if (recipe != nil || preset != nil) && arguments.count < ids { throw ValidationError("give at least one photo id (or --where)") }
        if batch.asJob && recipe != nil { throw ValidationError("--as-job takes a chain or --preset, not --recipe") }
        if let base, !["raw", "jpeg"].contains(base.lowercased()) { throw ValidationError("--base is raw or jpeg, not '\(base)'") }
        if base != nil && recipe != nil { throw ValidationError("--base does not go with --recipe (the recipe's own \"base\" says it)") }
    }

    /// The engine's work — opening the library, the checks, each photo's
    /// edit — runs on the `BlockingExecutor`, awaited; with `--as-job` the
    /// enqueue is awaited too.
    func run() async throws {
        try await PhotoEdit_run {
            if batch.asJob { _ = try JobsCommand.distributed(options, for: "--as-job") }
            let plan = try await BlockingExecutor.run { try self.plan() }
            #if Server
            if batch.asJob {
                let edit = try await BlockingExecutor.run { try self.batchEdit(plan) }
                let perJob = batch.photosPerJob
                try await batch.enqueue(options, library: plan.library) { try await $0.enqueueApply(edit, to: plan.ids, photosPerJob: perJob) }
                return
            }
            #endif
            try await BlockingExecutor.run { try self.apply(plan) }
        }
    }

    /// What `apply` was asked, every part checked before anything changes.
    private struct Plan: Sendable {
        let library: PhotoLibrary
        let presets: PresetLibrary
        let steps: [ChainStep]
        let recipe: Recipe?
        let ids: [String]
    }

    /// Opens the library and checks the recipe file or the chain, the
    /// filters to remove and the photos.
    private func plan() throws -> Plan {
        let library = try options.open()
        let presets = presetOptions.library(for: library)
        var steps: [ChainStep] = []
        var fileRecipe: Recipe?
        var ids = arguments
        if let recipe {
            guard let data = FileManager.default.contents(atPath: recipe) else {
                throw PhotoEditError.unreadableFile(path: recipe, reason: "cannot read the recipe file")
            }
            do {
                fileRecipe = try Recipe(json: JSONValue.parse(data), registry: library.registry)
            } catch let error as PhotoEditError {
                throw PhotoEditError.unreadableFile(path: recipe, reason: error.description)
            }
        } else {
            steps = try Chain.parse(preset.map { "preset:" + $0 } ?? ids.removeFirst())
            _ = try Chain.apply(steps, to: .empty, registry: library.registry, presets: presets, auto: { $0 }, upright: { r, _ in r })
        }
        for name in remove { _ = try library.registry.require(name) }
        let resolved = try batch.photos(ids, in: library)
        if resolved.isEmpty { throw PhotoEditError.invalidQuery("no photo matches --where") }
        return Plan(library: library, presets: presets, steps: steps, recipe: fileRecipe, ids: resolved)
    }

    #if Server
    /// `--as-job`'s edit: the chain with its presets expanded (read from their files).
    private func batchEdit(_ plan: Plan) throws -> BatchEdit {
        BatchEdit(chain: try BatchEdit.expanding(plan.steps.map(\.description).joined(separator: ","), presets: plan.presets),
                  reset: reset, remove: remove, base: base?.lowercased())
    }
    #endif

    /// Edits each photo in turn, printing ID<TAB>REVISION.
    private func apply(_ plan: Plan) throws {
        let library = plan.library
        let bar = ProgressBar("applying")
        defer { bar.finish() }
        for (i, id) in plan.ids.enumerated() {
            let revision = try plan.recipe.map { try library.apply(recipe: $0, to: id) }
                ?? library.apply(steps: plan.steps, to: id, reset: reset, removing: remove, presets: plan.presets,
                                 fromRAW: base.map { $0.lowercased() == "raw" })
            bar.finish()
            LensCommand.noteIfUnidentified(library, id: id, steps: plan.steps, revision: revision)
            UprightCommand.note(library, id: id, steps: plan.steps)
            Output.line("\(id)\t\(revision.number)")
            bar.update(i + 1, of: plan.ids.count)
        }
    }
}

struct RenderCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "render",
        abstract: "Write a version of a photo to a file.",
        discussion: """
        The format follows the file's extension (.jpg .png .tif .webp .avif .jxl .heic) unless --format says otherwise. \
        The export options (--long-edge, --metadata, --sharpen, --watermark, --max-bytes…, and the avif, jxl and heic formats) \
        render the current version through the exporter (docs/export.md). Without them a render keeps every EXIF field of \
        the original (--metadata all); --metadata no-location leaves out GPS, people and serial numbers.
        """
    )
    @OptionGroup var options: LibraryOptions
    @Argument(help: "Photo id or unambiguous prefix.") var id: String
    @Option(name: .shortAndLong, help: ArgumentHelp("Output file.", valueName: "FILE")) var output: String
    @Option(help: "current, unadjusted or original.") var version: String = "current"
    @Option(help: ArgumentHelp("Fit inside (or with --mode fill, cover) this box, e.g. 1024x768 or 1024 (never enlarges).", valueName: "WxH")) var size: String?
    @Option(help: ArgumentHelp("fit (inside the box, default) or fill (cover the box).", valueName: "MODE")) var mode: String?
    @Option(help: ArgumentHelp("none (full size), fast (at least the box, by shrink-on-load) or exact (default).", valueName: "MODE"))
    var resize: String?
    @Option(help: ArgumentHelp("Only this part, normalized 0-1 from the top left, e.g. 0.25:0.25:0.5:0.5 (needs --resize exact).", valueName: "X:Y:W:H"))
    var crop: String?
    @Option(help: "jpeg, png, tiff, webp, avif, jxl or heic.") var format: String?
    @Option(help: "Quality, 1-100 (default 92 for JPEG and WebP; export options: the format's default).") var quality: Int?
    @Option(help: ArgumentHelp("Output colour space: srgb, display-p3, adobe-rgb or a PATH.icc (embedded).", valueName: "PROFILE"))
    var profile: String = "srgb"
    @Option(help: "Rendering intent: perceptual, relative, saturation or absolute.") var intent: String = "relative"
    @Option(help: "Bits per channel: 8, or 16 for PNG and TIFF.") var depth: Int = 8
    @Option(help: "TIFF compression: none, lzw or deflate.") var compression: String = "lzw"
    @OptionGroup(title: "Export options") var shape: ExportShapeArguments

    func run() throws {
        try PhotoEdit_run {
            if usesExport { return try runExport() }
            guard let v = ImageVersion(rawValue: version) else {
                throw PhotoEditError.invalidOutput("unknown version '\(version)' (current, unadjusted or original)")
            }
            var opts = RenderOptions(quality: quality ?? Renderer.renderQuality)
            guard let p = OutputProfile(name: profile) else {
                throw PhotoEditError.invalidOutput("unknown profile '\(profile)' (srgb, display-p3, adobe-rgb or a .icc file)")
            }
            guard let i = RenderingIntent(rawValue: intent.lowercased()) else {
                throw PhotoEditError.invalidOutput("unknown intent '\(intent)' (perceptual, relative, saturation or absolute)")
            }
            opts.profile = p
            opts.intent = i
            opts.bitDepth = depth
            guard let tiff = TIFFCompression(rawValue: compression.lowercased()) else {
                throw PhotoEditError.invalidOutput("TIFF compression '\(compression)' is not none, lzw or deflate")
            }
            opts.tiffCompression = tiff
            if let format {
                guard let f = OutputFormat(rawValue: format.lowercased()) ?? OutputFormat(pathExtension: format) else {
                    throw PhotoEditError.invalidOutput("unknown format '\(format)' (jpeg, png, tiff or webp)")
                }
                opts.format = f
            }
            if let size {
                let box = try RequestArguments.size(size)
                opts.maxWidth = box.width
                opts.maxHeight = box.height
            }
            if let mode { opts.contentMode = try RequestArguments.contentMode(mode) }
            if let resize { opts.resizeMode = try RequestArguments.resizeMode(resize) }
            if let crop { opts.normalizedCropRect = try RequestArguments.crop(crop) }
            let library = try options.open()
            try library.render(id, version: v, to: output, options: opts)
        }
    }
}

struct RevertCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "revert",
        abstract: "Return a photo to its original (or, with --to, to an earlier revision) as a new revision. Nothing is deleted."
    )
    @OptionGroup var options: LibraryOptions
    @Option(name: .customLong("to"), help: ArgumentHelp("Make revision N current again.", valueName: "N")) var to: Int?
    @Argument(help: "Photo ids or unambiguous prefixes.") var ids: [String]

    func validate() throws {
        if ids.isEmpty { throw ValidationError("give at least one photo id") }
    }

    func run() throws {
        try PhotoEdit_run {
            let library = try options.open()
            let resolved = try ids.map { try library.resolve($0) }
            for id in resolved {
                let revision = try library.revert(id, to: to)
                Output.line("\(id)\t\(revision.number)")
            }
        }
    }
}

struct HistoryCommand: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "history", abstract: "List a photo's revisions.")
    @OptionGroup var options: LibraryOptions
    @Flag(help: "Print JSON.") var json = false
    @Argument(help: "Photo id or unambiguous prefix.") var id: String

    func run() throws {
        try PhotoEdit_run {
            let library = try options.open()
            let revisions = try library.history(id)
            let current = revisions.last?.number
            let named = Dictionary(grouping: try library.snapshots(of: id), by: \.revision).mapValues { $0.map(\.name) }
            if json {
                Output.json(.array(revisions.map { r in
                    .object([
                        "number": .number(Double(r.number)), "date": .string(Output.date(r.date)), "kind": .string(r.kind.rawValue),
                        "adjustmentData": Output.json(r.adjustmentData),
                        "chain": Output.chain(r.adjustmentData, registry: library.registry).map { .string($0) } ?? .null,
                        "pixelWidth": .number(Double(r.pixelWidth)), "pixelHeight": .number(Double(r.pixelHeight)),
                        "current": .bool(r.number == current),
                        "snapshots": .array((named[r.number] ?? []).map { .string($0) }),
                        "base": .string(r.baseRevision.map { "render of revision \($0)" } ?? (r.isBasedOnAlternate ? "alternate" : "original")),
                        "fromLightroom": .bool(r.lightroomUnmapped != nil),
                        "unmapped": r.lightroomUnmapped.map { .array($0.map { .string($0) }) } ?? .null,
                        "darktableModules": r.darktableHistory.map { .array($0.activeModules.map { .string($0) }) } ?? .null,
                    ])
                }))
                return
            }
            for r in revisions {
                let format = r.adjustmentData.map { "\($0.formatIdentifier) \($0.formatVersion)" } ?? "-"
                var chain = r.adjustmentData == nil ? "(original)" : Output.chain(r.adjustmentData, registry: library.registry) ?? "(foreign)"
                if r.isBasedOnAlternate { chain += "  [from the RAW]" }
                if let unmapped = r.lightroomUnmapped {
                    chain += "  [from Lightroom" + (unmapped.isEmpty ? "]" : "; not mapped: \(unmapped.joined(separator: ", "))]")
                }
                if r.darktableHistory != nil, let note = r.editorNote { chain = "(\(note))" }
                if let names = named[r.number] { chain += "  [snapshot: " + names.joined(separator: ", ") + "]" }
                Output.line("\(r.number == current ? "*" : " ") \(r.number)\t\(Output.date(r.date))\t\(r.kind.rawValue)\t\(Output.field(format))\t\(Output.field(chain))")
            }
        }
    }
}

struct UpgradeCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "upgrade",
        abstract: "Bring recipes written by older filter versions to the current versions (re-rendered, as a new revision).",
        discussion: """
        Without it, a recipe keeps rendering exactly as the filter version that wrote it did. Prints \
        ID<TAB>REVISION<TAB>filter old→new, or ID<TAB>up to date. --where EXPR adds every photo matching the filter; \
        --as-job (a library shared through PostgreSQL) enqueues the work for every node's worker and prints the batch id.
        """)
    @OptionGroup var options: LibraryOptions
    @OptionGroup var batch: BatchOptions
    @Argument(help: "Photo ids or unambiguous prefixes.") var ids: [String] = []

    func validate() throws {
        if ids.isEmpty && batch.filter == nil { throw ValidationError("give at least one photo id (or --where)") }
    }

    /// As `apply`: the engine's work on the `BlockingExecutor`, awaited;
    /// with `--as-job` the enqueue awaited.
    func run() async throws {
        try await PhotoEdit_run {
            if batch.asJob { _ = try JobsCommand.distributed(options, for: "--as-job") }
            let (library, resolved) = try await BlockingExecutor.run {
                let library = try options.open()
                let resolved = try batch.photos(ids, in: library)
                if resolved.isEmpty { throw PhotoEditError.invalidQuery("no photo matches --where") }
                return (library, resolved)
            }
            #if Server
            if batch.asJob {
                let perJob = batch.photosPerJob
                try await batch.enqueue(options, library: library) { try await $0.enqueueUpgrade(resolved, photosPerJob: perJob) }
                return
            }
            #endif
            try await BlockingExecutor.run { try Self.upgrade(resolved, in: library) }
        }
    }

    /// Upgrades each photo in turn, printing what changed.
    private static func upgrade(_ ids: [String], in library: PhotoLibrary) throws {
        let bar = ProgressBar("upgrading")
        defer { bar.finish() }
        for (i, id) in ids.enumerated() {
            defer { bar.update(i + 1, of: ids.count) }
            bar.finish()
            if let (revision, upgraded) = try library.upgrade(id) {
                Output.line("\(id)\t\(revision.number)\t" + upgraded.map { "\($0.filter) \($0.from)→\($0.to)" }.joined(separator: ", "))
            } else {
                Output.line("\(id)\tup to date")
            }
        }
    }
}

/// Where presets are looked up.
struct PresetOptions: ParsableArguments {
    @Option(name: .customLong("presets"), help: ArgumentHelp("Also look for presets in this folder, first (repeatable; also $PHOTOEDIT_PRESETS).", valueName: "DIR"))
    var folders: [String] = []

    /// The presets; their folders are LUT folders too (a preset's LUT sits beside it).
    var library: PresetLibrary {
        LUTFolders.add(folders)
        return PresetLibrary.standard(extra: folders)
    }

    /// The presets an edit of `photos` sees: `--presets` folders, then the
    /// presets uploaded to the library (`PUT /v1/presets/NAME`), then the
    /// standard search path.
    func library(for photos: PhotoLibrary) -> PresetLibrary {
        LUTFolders.add(folders)
        return PresetLibrary(folders: folders + photos.presets().folders, registry: photos.registry)
    }
}

struct PresetsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "presets",
        abstract: "List the presets; save one from a photo's edit, export one (presets save, presets export).",
        subcommands: [List.self, Save.self, Export.self], defaultSubcommand: List.self)

    struct List: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "list",
        abstract: "List the presets: NAME<TAB>CHAIN<TAB>DESCRIPTION.",
        discussion: "Search order: --presets DIR, $PHOTOEDIT_PRESETS, ~/.config/photoedit/presets, the shipped filters/presets/; with --library, the library's own presets (saved or uploaded) after the --presets folders. A preset is NAME.chain (a chain; # comment lines, the first describes it), NAME.json (a recipe) or NAME.xmp (a Lightroom develop preset).")
    @OptionGroup var presetOptions: PresetOptions
    @Flag(help: "Print JSON.") var json = false
    @Option(help: ArgumentHelp("Also list this library's presets.", valueName: "LIBRARY")) var library: String?

    func run() throws {
        try PhotoEdit_run {
            let library = try self.library.map { presetOptions.library(for: try LibraryLocation.named($0).open()) } ?? presetOptions.library
            let presets = try library.all()
            if json {
                Output.json(.array(presets.map {
                    .object(["name": .string($0.name), "chain": .string($0.chain), "summary": .string($0.summary), "path": .string($0.path)])
                }))
                return
            }
            if presets.isEmpty { Output.note("no presets found (looked in: \(library.folders.joined(separator: ", ")))") }
            for p in presets { Output.line("\(Output.field(p.name))\t\(Output.field(p.chain))\t\(Output.field(p.summary))") }
        }
    }
    }
}

struct CopyRecipeCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "copy-recipe",
        abstract: "Copy one photo's edits onto others (copy and paste), each as a new revision.",
        discussion: """
        Geometry (rotate, straighten, flip, crop) is not copied unless --geometry; each target keeps its own. The copied \
        filters replace the target's filters of the same kind; --replace drops the target's other filters too.

        Selective sync (Lightroom's Sync Settings): --only GROUPS copies only those groups, --except GROUPS all but \
        those (and but geometry and local); in each synced group the target takes the source's settings exactly, and \
        keeps the rest of its recipe. Groups: \(RecipeGroup.allCases.map(\.rawValue).joined(separator: ", ")). \
        Crop (geometry) and local corrections are synced only when named.
        """)
    @OptionGroup var options: LibraryOptions
    @Flag(help: "Also copy rotate, straighten, flip and crop.") var geometry = false
    @Flag(help: "Drop the target's other (non-geometry) filters.") var replace = false
    @Option(help: ArgumentHelp("Sync only these groups (comma-separated).", valueName: "GROUPS")) var only: String?
    @Option(name: .customLong("except"), help: ArgumentHelp("Sync every group but these (and but geometry and local).", valueName: "GROUPS"))
    var except: String?
    @Argument(help: "The photo to copy from.") var from: String
    @Argument(help: "The photos to paste onto.") var to: [String]

    func validate() throws {
        if to.isEmpty { throw ValidationError("give at least one photo to paste onto") }
    }

    func run() throws {
        try PhotoEdit_run {
            if only != nil || except != nil {
                guard only == nil || except == nil, !geometry, !replace else {
                    throw PhotoEditError.invalidChange("--only and --except go alone (without each other, --geometry or --replace)")
                }
            }
            let groups = try only.map(RecipeGroup.parse) ?? except.map { RecipeGroup.defaultSync.subtracting(try RecipeGroup.parse($0)) }
            let library = try options.open()
            let targets = try to.map { try library.resolve($0) }
            let bar = ProgressBar("copying")
            let revisions = try groups.map { try library.syncRecipe(from: from, to: targets, groups: $0, progress: bar.handler) }
                ?? library.copyRecipe(from: from, to: targets, includeGeometry: geometry, replace: replace, progress: bar.handler)
            bar.finish()
            for (id, revision) in zip(targets, revisions) { Output.line("\(id)\t\(revision.number)") }
        }
    }
}
