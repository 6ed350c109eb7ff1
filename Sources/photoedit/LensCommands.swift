import ArgumentParser
import Foundation
import PhotoEdit

/// `photoedit lens ID`: what the `lens` filter finds in a photo's EXIF.
struct LensCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "lens",
        abstract: "Show the camera and lens a photo's EXIF names, and the lensfun profile the lens filter would use (or why none).",
        discussion: "Nothing is written. `photoedit apply lens ID` stores what is found in the recipe; `photoedit lenses --search TEXT` lists the database."
    )
    @OptionGroup var options: LibraryOptions
    @Flag(help: "Print JSON.") var json = false
    @Argument(help: "Photo id or unambiguous prefix.") var id: String

    func run() throws {
        try PhotoEdit_run {
            let found = try options.open().lensIdentification(for: id)
            if json {
                func number(_ x: Double?) -> JSONValue { x.map { .number($0) } ?? .null }
                func text(_ s: String?) -> JSONValue { s.map { .string($0) } ?? .null }
                Output.json(.object([
                    "exif": .object(["make": .string(found.exifMake), "model": .string(found.exifModel), "lens": .string(found.exifLens),
                                     "focalLength": number(found.focal), "fNumber": number(found.aperture), "distance": number(found.distance)]),
                    "camera": text(found.camera), "lens": text(found.lens), "cropFactor": number(found.cropFactor),
                    "corrections": .array(found.corrections.map { .string($0) }), "database": .string(found.database),
                    "problem": text(found.problem),
                ]))
                return
            }
            let exif = [found.exifMake, found.exifModel].filter { !$0.isEmpty }.joined(separator: " ")
            Output.line("exif      \(exif.isEmpty ? "-" : exif); lens \(found.exifLens.isEmpty ? "-" : found.exifLens); "
                        + "\(found.focal.map { JSONValue.format($0) + " mm" } ?? "- mm") f/\(found.aperture.map { JSONValue.format($0) } ?? "-")")
            Output.line("camera    \(found.camera ?? "-")")
            Output.line("lens      \(found.lens ?? "-")")
            Output.line("crop      \(found.cropFactor.map { JSONValue.format(($0 * 1000).rounded() / 1000) } ?? "-")")
            Output.line("profile   \(found.corrections.isEmpty ? "-" : found.corrections.joined(separator: ", "))")
            Output.line("database  lensfun \(found.database)")
            if let problem = found.problem { Output.line("no lens correction: \(problem)") }
        }
    }

    /// After `apply`: one note when the chain asked for `lens` and no lens was found.
    static func noteIfUnidentified(_ library: PhotoLibrary, id: String, steps: [ChainStep], revision: Revision) {
        guard steps.contains(where: { $0.filter == Filters.lens.id }), let data = revision.adjustmentData,
              let recipe = try? Recipe(adjustmentData: data, registry: library.registry),
              let node = recipe.node(Filters.lens.id), node.parameters.text("lens").isEmpty else { return }
        let why = (try? library.lensIdentification(for: id).problem) ?? nil
        Output.note("\(id): lens leaves the photo unchanged: \(why ?? "no lens profile found")")
    }
}

/// `photoedit lenses --search TEXT`: lensfun's cameras and lenses.
struct LensesCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "lenses",
        abstract: "List the cameras and lens profiles of lensfun's database (the names lens.camera= and lens.lens= take).",
        discussion: "One line each: camera<TAB>maker<TAB>model<TAB>mount<TAB>crop factor, lens<TAB>maker<TAB>model<TAB>focal range<TAB>corrections."
    )
    /// Taken as by every command (the database is the system's, not the library's).
    @OptionGroup var options: LibraryOptions
    @Option(help: ArgumentHelp("Only names containing this text (case-insensitive).", valueName: "TEXT")) var search: String = ""
    @Flag(help: "Only lenses.") var lensesOnly = false
    @Flag(help: "Only cameras.") var camerasOnly = false

    func validate() throws {
        if lensesOnly && camerasOnly { throw ValidationError("use either --lenses-only or --cameras-only") }
        if search.count > 200 { throw ValidationError("--search is at most 200 characters") }
    }

    func run() throws {
        try PhotoEdit_run {
            let db = try LensIdentification.database(matching: search)
            if !lensesOnly { for line in db.cameras { Output.line("camera\t" + line) } }
            if !camerasOnly { for line in db.lenses { Output.line("lens\t" + line) } }
            if db.cameras.isEmpty && db.lenses.isEmpty { Output.note("nothing in lensfun's database \(db.version) matches '\(search)'") }
        }
    }
}
