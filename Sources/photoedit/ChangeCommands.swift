import ArgumentParser
import Foundation
import PhotoEdit

/// One command per simple photo change: favorite, unfavorite, hide, unhide,
/// delete, restore, purge. All ids are resolved first and changed in one
/// all-or-nothing commit.
struct AssetFlagCommand {
    static func run(_ options: LibraryOptions, ids: [String], verb: String,
                    _ change: @escaping (AssetChangeRequest) throws -> Void) throws {
        try PhotoEdit_run { try Self.change(options, ids: ids, verb: verb, change) }
    }

    /// `run` inside a command's own `PhotoEdit_run` (one that checks its
    /// arguments first): prints ID<TAB>VERB for each photo once committed.
    static func change(_ options: LibraryOptions, ids: [String], verb: String,
                       _ change: @escaping (AssetChangeRequest) throws -> Void) throws {
        let library = try options.open()
        let resolved = try ids.map { try library.resolve($0) }
        try library.performChanges { changes in
            for id in resolved { try change(try changes.changeRequest(for: id)) }
        }
        for id in resolved { Output.line("\(id)\t\(verb)") }
    }
}

struct FavoriteCommand: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "favorite", abstract: "Mark photos as favorites.")
    @OptionGroup var options: LibraryOptions
    @Argument(help: "Photo ids or prefixes.") var ids: [String]
    func run() throws { try AssetFlagCommand.run(options, ids: ids, verb: "favorite") { $0.isFavorite = true } }
}

struct UnfavoriteCommand: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "unfavorite", abstract: "Unmark favorite photos.")
    @OptionGroup var options: LibraryOptions
    @Argument(help: "Photo ids or prefixes.") var ids: [String]
    func run() throws { try AssetFlagCommand.run(options, ids: ids, verb: "unfavorite") { $0.isFavorite = false } }
}

struct HideCommand: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "hide", abstract: "Hide photos (list leaves them out unless --hidden).")
    @OptionGroup var options: LibraryOptions
    @Argument(help: "Photo ids or prefixes.") var ids: [String]
    func run() throws { try AssetFlagCommand.run(options, ids: ids, verb: "hidden") { $0.isHidden = true } }
}

struct UnhideCommand: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "unhide", abstract: "Show hidden photos again.")
    @OptionGroup var options: LibraryOptions
    @Argument(help: "Photo ids or prefixes.") var ids: [String]
    func run() throws { try AssetFlagCommand.run(options, ids: ids, verb: "unhidden") { $0.isHidden = false } }
}

struct DeleteCommand: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "delete", abstract: "Move photos to recently deleted (restore brings them back).")
    @OptionGroup var options: LibraryOptions
    @Argument(help: "Photo ids or prefixes.") var ids: [String]
    func run() throws { try AssetFlagCommand.run(options, ids: ids, verb: "deleted") { try $0.delete() } }
}

struct RestoreCommand: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "restore", abstract: "Bring recently deleted photos back.")
    @OptionGroup var options: LibraryOptions
    @Argument(help: "Photo ids or prefixes.") var ids: [String]
    func run() throws { try AssetFlagCommand.run(options, ids: ids, verb: "restored") { try $0.restore() } }
}

struct PurgeCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "purge",
        abstract: "Remove recently deleted photos for good, with their originals, renders and history.")
    @OptionGroup var options: LibraryOptions
    @Argument(help: "Photo ids or prefixes (each must be deleted first).") var ids: [String]
    func run() throws { try AssetFlagCommand.run(options, ids: ids, verb: "purged") { try $0.purge() } }
}

struct AlbumCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "album", abstract: "Create, fill, order, rename, list and delete albums.",
        subcommands: [Create.self, Add.self, Remove.self, Move.self, Rename.self, List.self, Show.self, Delete.self])

    struct Create: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Create an album (titles are unique). Prints its id.")
        @OptionGroup var options: LibraryOptions
        @Argument(help: "Album title.") var name: String
        func run() throws {
            try PhotoEdit_run {
                let library = try options.open()
                var placeholder: ObjectPlaceholder?
                try library.performChanges { placeholder = $0.createAlbum(title: name) }
                guard let placeholder else { throw PhotoEditError.library("the album change made no album") }
                Output.line("\(placeholder.localIdentifier)\t\(Output.field(name))")
            }
        }
    }

    struct Add: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Append photos to an album.")
        @OptionGroup var options: LibraryOptions
        @Argument(help: "Album title or id.") var name: String
        @Argument(help: "Photo ids or prefixes.") var ids: [String]
        func run() throws {
            try PhotoEdit_run {
                let library = try options.open()
                let resolved = try ids.map { try library.resolve($0) }
                try library.performChanges { try $0.albumChangeRequest(for: name).addAssets(resolved) }
            }
        }
    }

    struct Remove: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Remove photos from an album (the photos stay in the library).")
        @OptionGroup var options: LibraryOptions
        @Argument(help: "Album title or id.") var name: String
        @Argument(help: "Photo ids or prefixes.") var ids: [String]
        func run() throws {
            try PhotoEdit_run {
                let library = try options.open()
                let resolved = try ids.map { try library.resolve($0) }
                try library.performChanges { try $0.albumChangeRequest(for: name).removeAssets(resolved) }
            }
        }
    }

    struct Move: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Move a photo to a position in an album (0 = first).")
        @OptionGroup var options: LibraryOptions
        @Argument(help: "Album title or id.") var name: String
        @Argument(help: "Photo id or prefix.") var id: String
        @Argument(help: "New position, 0 = first.") var position: Int
        func run() throws {
            try PhotoEdit_run {
                let library = try options.open()
                let resolved = try library.resolve(id)
                try library.performChanges { try $0.albumChangeRequest(for: name).moveAsset(resolved, to: position) }
            }
        }
    }

    struct Rename: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Rename an album.")
        @OptionGroup var options: LibraryOptions
        @Argument(help: "Album title or id.") var name: String
        @Argument(help: "New title.") var title: String
        func run() throws {
            try PhotoEdit_run {
                let library = try options.open()
                try library.performChanges { try $0.albumChangeRequest(for: name).rename(to: title) }
            }
        }
    }

    struct List: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "List albums: ID, number of photos, title.")
        @OptionGroup var options: LibraryOptions
        @Flag(help: "Print JSON.") var json = false
        func run() throws {
            try PhotoEdit_run {
                let albums = try options.open().albums()
                if json {
                    Output.json(.array(albums.map(Output.json)))
                } else {
                    for a in albums { Output.line("\(a.id)\t\(a.assetIdentifiers.count)\t\(Output.field(a.title))") }
                }
            }
        }
    }

    struct Show: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "List an album's photos, in order.")
        @OptionGroup var options: LibraryOptions
        @Flag(help: "Print JSON.") var json = false
        @Argument(help: "Album title or id.") var name: String
        func run() throws {
            try PhotoEdit_run {
                let album = try options.open().album(name)
                if json { Output.json(Output.json(album)); return }
                for id in album.assetIdentifiers { Output.line(id) }
            }
        }
    }

    struct Delete: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Delete an album (its photos stay in the library).")
        @OptionGroup var options: LibraryOptions
        @Argument(help: "Album title or id.") var name: String
        func run() throws {
            try PhotoEdit_run {
                let library = try options.open()
                try library.performChanges { try $0.albumChangeRequest(for: name).delete() }
            }
        }
    }
}

struct ExportCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "export",
        abstract: "Export photos into a folder (-o DIR, with a --preset or settings), or write the files behind one photo (--resource, --all).",
        discussion: """
        Batch export: photoedit export [--preset NAME] [settings] IDS… [--where QUERY] [--album NAME] -o DIR renders each \
        photo's current version with the export settings (docs/export.md), several at a time, with a progress bar; prints \
        ID<TAB>FILE<TAB>written|current per photo, and a failed photo on stderr while the others are still written. A file \
        already holding the same photo, revision and settings is skipped unless --force; a file the exporter did not write \
        for that photo is never replaced (NAME-2.jpg…). Resources: --resource TYPE -o PATH writes one file behind a photo, \
        --all DIR every one, and with neither -o nor --all the resources are listed. Types: photo (the original), \
        alternatePhoto, fullSizePhoto (current render), adjustmentData, adjustmentBasePhoto.
        """)
    @OptionGroup var options: LibraryOptions
    @Argument(help: "Photo ids or prefixes (one with --resource, --all or to list resources).") var ids: [String] = []
    @Option(help: "Resource type.") var resource: String?
    @Option(name: .shortAndLong, help: ArgumentHelp("Output folder of a batch export, or the file of --resource.", valueName: "DIR|PATH")) var output: String?
    @Option(name: .customLong("all"), help: ArgumentHelp("Write every resource into this folder.", valueName: "DIR")) var all: String?
    @Flag(help: "List as JSON.") var json = false
    @Flag(help: "Also write an XMP sidecar beside the exported files (NAME.xmp: metadata, Lightroom crs: equivalents, the recipe).")
    var xmp = false

    @OptionGroup(title: "Batch export") var batchExport: ExportBatchArguments

    /// The resources form (--resource, --all, --xmp, --json, or one id without -o).
    var isResourceForm: Bool { resource != nil || all != nil || xmp || json || output == nil }
    /// The photo of the resources form.
    var id: String { ids.first ?? "" }

    func validate() throws {
        if !isResourceForm { return try batchExport.validate(ids: ids) }
        if batchExport.isUsed { throw ValidationError("batch export options need -o DIR (and no --resource, --all, --xmp or --json)") }
        if ids.count != 1 { throw ValidationError("give one photo id (a batch export needs -o DIR)") }
        if all != nil && (resource != nil || output != nil) { throw ValidationError("use either --all DIR or --resource TYPE -o PATH") }
        if (resource == nil) != (output == nil) { throw ValidationError("--resource and -o go together") }
        if xmp && all == nil && output == nil { throw ValidationError("--xmp writes beside exported files: use it with --all DIR or --resource TYPE -o PATH") }
    }

    /// Writes the photo's XMP sidecar as `path` (staged, then renamed); notes what has no crs: equivalent.
    func writeSidecar(_ library: PhotoLibrary, to path: String, applied: Bool = false) throws {
        let sidecar = try library.xmpSidecar(for: id, applied: applied)
        let temp = path + ".photoedit-\(UUID().uuidString.prefix(8))"
        do {
            try sidecar.data.write(to: URL(fileURLWithPath: temp))
        } catch {
            unlink(temp)
            throw PhotoEditError.invalidOutput("cannot write \(path): \(error.localizedDescription)")
        }
        guard rename(temp, path) == 0 else {
            unlink(temp)
            throw PhotoEditError.invalidOutput("cannot write \(path): \(String(cString: strerror(errno)))")
        }
        if !sidecar.notExported.isEmpty { Output.note("\(path): no Lightroom equivalent (kept in photoedit:recipe): \(sidecar.notExported.joined(separator: ", "))") }
    }

    func run() throws {
        try PhotoEdit_run {
            if !isResourceForm, let output { return try batchExport.run(ids: ids, into: output, options: options) }
            let library = try options.open()
            let resources = try library.resources(for: id)
            if let all {
                guard FileIO_isDirectory(all) else { throw PhotoEditError.invalidOutput("\(all) is not a folder") }
                for r in resources {
                    let path = (all as NSString).appendingPathComponent(r.originalFilename)
                    try library.writeResource(r, to: path)
                    Output.line("\(r.type.rawValue)\t\(Output.field(path))")
                }
                if xmp, let photo = resources.first(where: { $0.type == .photo }) {
                    let path = (all as NSString).appendingPathComponent(((photo.originalFilename as NSString).deletingPathExtension) + ".xmp")
                    try writeSidecar(library, to: path)
                    Output.line("xmp\t\(Output.field(path))")
                }
            } else if let resource, let output {
                guard let type = AssetResourceType(rawValue: resource) else {
                    throw PhotoEditError.invalidOutput("unknown resource type '\(resource)' (\(AssetResourceType.allCases.map(\.rawValue).joined(separator: ", ")))")
                }
                guard let r = resources.first(where: { $0.type == type }) else {
                    throw PhotoEditError.invalidOutput("photo has no \(resource) resource (it has: \(resources.map(\.type.rawValue).joined(separator: ", ")))")
                }
                try library.writeResource(r, to: output)
                if xmp {
                    let sidecar = (output as NSString).deletingPathExtension + ".xmp"
                    guard sidecar != output else { throw PhotoEditError.invalidOutput("\(output) would be overwritten by its own sidecar; name the output otherwise") }
                    // Beside the current render, the edit is already in its pixels.
                    try writeSidecar(library, to: sidecar, applied: type == .fullSizePhoto)
                }
            } else if json {
                Output.json(.array(resources.map { r in
                    .object(["type": .string(r.type.rawValue), "originalFilename": .string(r.originalFilename),
                             "uniformTypeIdentifier": .string(r.uniformTypeIdentifier), "fileSize": .number(Double(r.fileSize))])
                }))
            } else {
                for r in resources { Output.line("\(r.type.rawValue)\t\(r.fileSize)\t\(r.uniformTypeIdentifier)\t\(Output.field(r.originalFilename))") }
            }
        }
    }
}

func FileIO_isDirectory(_ path: String) -> Bool {
    var isDir: ObjCBool = false
    return FileManager.default.fileExists(atPath: path, isDirectory: &isDir) && isDir.boolValue
}

struct VerifyCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "verify",
        abstract: "Check every original, revision and the catalog; --repair rebuilds renders (never touches originals).",
        discussion: """
        --rebuild-catalog rebuilds a lost, empty or damaged catalog.sqlite from the files (originals, the revision \
        and metadata records under revisions/, renders), keeps the old catalog beside it as catalog.sqlite.before-rebuild-TIME, \
        then verifies the library. Recently deleted, albums, edited dates or locations and the change history live only \
        in the catalog and are not recovered (docs/library-layout.md).
        """)
    @OptionGroup var options: LibraryOptions
    @Flag(help: "Rebuild missing or damaged renders from adjustment data, remove unreferenced renders.") var repair = false
    @Flag(help: "Rebuild the catalog from the files on disk (no other process may have the library open).") var rebuildCatalog = false
    @Option(help: ArgumentHelp("In a library shared by many nodes (S3), unreferenced blobs younger than this are left alone (another node's commit may be in flight): 90s, 30m, 1h, 2d.",
                               valueName: "DURATION"))
    var grace: String = "1h"

    func run() throws {
        try PhotoEdit_run {
            if rebuildCatalog {
                let rebuilt = try PhotoLibrary.rebuildCatalog(url: options.folder(for: "--rebuild-catalog"))
                if let kept = rebuilt.previousCatalog { Output.note("the previous catalog is kept as \(kept)") }
                Output.note("rebuilt the catalog: \(rebuilt.photos) photos (\(rebuilt.photosFromRecords) from revision records, "
                            + "\(rebuilt.photosWithoutRecords) from originals alone), \(rebuilt.revisions) revisions, \(rebuilt.renders) renders; "
                            + "\(rebuilt.photosWithMetadata) with their metadata")
                for line in rebuilt.problems { Output.line("not recovered: \(Output.field(line))") }
                for line in rebuilt.notes { Output.note(line) }
            }
            guard let gracePeriod = Self.seconds(grace) else {
                throw PhotoEditError.library("--grace takes a duration such as 90s, 30m, 1h or 2d, at most 365d (got '\(Output.field(grace))')")
            }
            let bar = ProgressBar("verifying")
            let report = try options.open().verify(repair: repair, gracePeriod: gracePeriod, progress: bar.handler)
            bar.finish()
            for line in report.repaired { Output.line("repaired: \(Output.field(line))") }
            for line in report.problems { Output.line("problem: \(Output.field(line))") }
            for line in report.notes { Output.note(line) }
            if report.isClean {
                Output.note("library is consistent")
            } else {
                throw ExitCode(1)
            }
        }
    }

    /// `90s`, `30m`, `1h`, `2d`, or seconds alone; nil when malformed or over a year.
    static func seconds(_ text: String) -> TimeInterval? {
        let units: [Character: Double] = ["s": 1, "m": 60, "h": 3600, "d": 86400]
        var number = Substring(text)
        var factor = 1.0
        if let last = text.last, let unit = units[last] {
            number = text.dropLast()
            factor = unit
        }
        guard !number.isEmpty, number.count <= 9, number.allSatisfy(\.isASCII), number.allSatisfy(\.isNumber),
              let value = Double(number) else { return nil }
        let seconds = value * factor
        return seconds <= 365 * 86400 ? seconds : nil
    }
}
