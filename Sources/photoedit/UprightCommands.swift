import ArgumentParser
import Foundation
import PhotoEdit

/// `photoedit upright ID`: the perspective `upright` finds in a photo, or why none.
struct UprightCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "upright",
        abstract: "Show the straight lines upright finds in a photo and the perspective values it would write (or why none).",
        discussion: "Nothing is written. `photoedit apply upright=MODE ID` stores the values in the recipe (docs/filters.md, \"upright\")."
    )
    @OptionGroup var options: LibraryOptions
    @Option(help: ArgumentHelp("level, vertical, full or auto.", valueName: "MODE")) var mode: String = "auto"
    @Flag(help: "Print JSON.") var json = false
    @Argument(help: "Photo id or unambiguous prefix.") var id: String

    func validate() throws {
        if UprightMode(rawValue: mode.lowercased()) == nil {
            throw ValidationError("--mode is one of \(UprightMode.allCases.map(\.rawValue).joined(separator: ", ")), not '\(mode)'")
        }
    }

    func run() throws {
        try PhotoEdit_run {
            let found = try options.open().uprightAdjustment(for: id, mode: UprightMode(rawValue: mode.lowercased()) ?? .auto)
            if json {
                Output.json(found.json)
                return
            }
            Output.line("mode      \(found.mode.rawValue)\(found.solvedAs.map { $0 == found.mode ? "" : " (as \($0.rawValue))" } ?? "")")
            Output.line("lines     \(found.verticalLines) vertical, \(found.horizontalLines) horizontal; \(found.usedLines) used")
            if let problem = found.problem {
                Output.line("no correction: \(problem)")
            } else {
                Output.line("solution  \(found.chain) (residual \(JSONValue.format(((found.residual ?? 0) * 100).rounded() / 100))°)")
                Output.line("constrain \(Self.constrain(found))")
            }
        }
    }

    /// After `apply`: one note saying what an `upright` step of the chain found, or why nothing.
    static func note(_ library: PhotoLibrary, id: String, steps: [ChainStep]) {
        guard let step = steps.last(where: { $0.preset == nil && $0.filter == Chain.uprightStep }) else { return }
        let mode = step.values.first.flatMap { UprightMode(rawValue: $0.lowercased()) } ?? .auto
        guard let found = try? library.uprightAdjustment(for: id, mode: mode) else { return }
        let constrained = step.values.count == 2 && found.isSolved ? " (constrain: \(constrain(found)))" : ""
        Output.note("\(id): \(found.note)\(constrained)")
    }

    /// What `:constrain` sets: `scale 107.3 %`, or why the scale stays.
    static func constrain(_ found: UprightAdjustment) -> String {
        guard let scale = found.constrainedScale else { return "-" }
        return scale <= 150 ? "scale \(JSONValue.format(scale)) %" : "needs scale \(JSONValue.format(scale)) %, beyond 150 % — scale unchanged"
    }
}
