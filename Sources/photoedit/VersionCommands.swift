import ArgumentParser
import Foundation
import PhotoEdit

// Many versions of one photo: virtual copies and named snapshots
// (Services/Versions in the engine).

struct DuplicateCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "duplicate",
        abstract: "Make a virtual copy of a photo: a new photo sharing its original (no second copy of the file).",
        discussion: """
        The copy starts from the photo's current edit (--fresh: from the original) and gets its rating, label, \
        keywords, title, caption and favorite flag; from then on its history, metadata, albums and renders are its own. \
        A copy of a copy is a copy of the same master. Deleting a copy never deletes the original while another photo \
        uses it; purging the last one does. Prints the copy's ID<TAB>NAME<TAB>REVISION.
        """)
    @OptionGroup var options: LibraryOptions
    @Option(help: ArgumentHelp("The copy's name (default: Copy N).", valueName: "NAME")) var name: String?
    @Flag(help: "Start the copy from the original, not from the current edit.") var fresh = false
    @Argument(help: "Photo id or unambiguous prefix.") var id: String

    func run() throws {
        try PhotoEdit_run {
            let library = try options.open()
            let copy = try library.duplicate(id, name: name, fresh: fresh)
            Output.line("\(copy.id)\t\(Output.field(copy.copyName ?? ""))\t\(copy.revision)")
        }
    }
}

struct SnapshotCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "snapshot",
        abstract: "Name a photo's current revision (a snapshot), go back to one, or list them.",
        usage: """
        photoedit snapshot ID NAME           name the current revision
          photoedit snapshot ID --to NAME      make that revision current again (as a new revision)
          photoedit snapshot ID --list         list the snapshots: NAME<TAB>REVISION<TAB>DATE
          photoedit snapshot ID --remove NAME  forget a snapshot (its revision stays)
        """)
    @OptionGroup var options: LibraryOptions
    @Option(name: .customLong("to"), help: ArgumentHelp("Go back to this snapshot.", valueName: "NAME")) var to: String?
    @Option(help: ArgumentHelp("Remove this snapshot.", valueName: "NAME")) var remove: String?
    @Flag(help: "List the photo's snapshots.") var list = false
    @Flag(help: "Print JSON (with --list).") var json = false
    @Argument(help: "Photo id or unambiguous prefix.") var id: String
    @Argument(help: "The snapshot's name.") var name: String?

    func validate() throws {
        let modes = [name != nil, to != nil, remove != nil, list].filter { $0 }.count
        guard modes == 1 else { throw ValidationError("give one of: NAME, --to NAME, --remove NAME, --list") }
    }

    func run() throws {
        try PhotoEdit_run {
            let library = try options.open()
            if let name {
                let snapshot = try library.addSnapshot(name, of: id)
                Output.line("\(try library.resolve(id))\t\(Output.field(snapshot.name))\t\(snapshot.revision)")
            } else if let to {
                let revision = try library.restoreSnapshot(to, of: id)
                Output.line("\(try library.resolve(id))\t\(revision.number)")
            } else if let remove {
                let resolved = try library.resolve(id)
                try library.performChanges { changes in try changes.changeRequest(for: resolved).removeSnapshot(named: remove) }
                Output.line("\(resolved)\tremoved")
            } else {
                let snapshots = try library.snapshots(of: id)
                if json {
                    Output.json(.array(snapshots.map {
                        .object(["name": .string($0.name), "revision": .number(Double($0.revision)), "date": .string(Output.date($0.date))])
                    }))
                    return
                }
                for s in snapshots { Output.line("\(Output.field(s.name))\t\(s.revision)\t\(Output.date(s.date))") }
            }
        }
    }
}

extension Output {
    /// A photo's versions as `show` lists them: the master, then its copies (one line each).
    static func versionLines(_ versions: [Asset], current: String) -> [(String, String)] {
        guard versions.count > 1 else { return [] }
        return versions.map { v in
            let name = v.copyName.map { " \"\($0)\"" } ?? ""
            return (v.isVirtualCopy ? "copy" : "master", "\(v.id)\(name)\(v.id == current ? " (this photo)" : "")\(v.deletedDate != nil ? " (deleted)" : "")")
        }
    }
}

extension PresetsCommand {
    struct Save: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "save",
            abstract: "Save the groups of a photo's edit as the library's preset NAME (Lightroom's New Preset).",
            discussion: """
            Groups (--only, comma-separated; default all but geometry and local): \
            \(RecipeGroup.allCases.map(\.rawValue).joined(separator: ", ")). --amount scales every setting from its neutral \
            value (0-2, Lightroom's Amount; 1: as it is). The preset is a Lightroom preset in the library's presets/ \
            (never replaced: an existing name is refused), listed by `photoedit presets --library`, applied with \
            `apply --preset NAME`, exported with `presets export`. Prints NAME<TAB>CHAIN; filters a Lightroom preset \
            cannot hold are named on stderr.
            """)
        @OptionGroup var options: LibraryOptions
        @Option(help: ArgumentHelp("Only these groups.", valueName: "GROUPS")) var only: String?
        @Option(help: ArgumentHelp("Scale the settings (0-2).", valueName: "A")) var amount: Double = 1
        @Argument(help: "The preset's name.") var name: String
        @Argument(help: "Photo id or unambiguous prefix.") var id: String

        func run() throws {
            try PhotoEdit_run {
                let groups = try only.map(RecipeGroup.parse) ?? RecipeGroup.defaultSync
                let library = try options.open()
                let (preset, notExported) = try library.savePreset(named: name, from: id, groups: groups, amount: amount)
                for what in notExported { Output.note("not in the preset (no Lightroom equivalent): \(what)") }
                Output.line("\(Output.field(preset.name))\t\(Output.field(preset.chain))")
            }
        }
    }

    struct Export: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "export",
            abstract: "Write a preset of the library as a Lightroom preset file (.xmp) that import-xmp and Lightroom read.")
        @OptionGroup var options: LibraryOptions
        @Option(name: .shortAndLong, help: ArgumentHelp("The file to write (FILE.xmp).", valueName: "FILE")) var output: String
        @Argument(help: "The preset's name.") var name: String

        func run() throws {
            try PhotoEdit_run {
                let library = try options.open()
                let preset = try library.presets().preset(named: name)
                guard case .lightroom = preset.content, let data = FileManager.default.contents(atPath: preset.path) else {
                    throw PhotoEditError.invalidChange("preset \(name) is not a Lightroom preset (a chain or recipe file): nothing to export")
                }
                do {
                    try data.write(to: URL(fileURLWithPath: output), options: .withoutOverwriting)
                } catch {
                    throw PhotoEditError.library("cannot write \(output): \((error as NSError).localizedDescription) (an existing file is never replaced)")
                }
                Output.line(output)
            }
        }
    }
}
