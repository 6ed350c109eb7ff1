import ArgumentParser
import Foundation
import PhotoEdit

/// `photoedit denoise ID`: the noise profile the `denoise` filter would use, and the noise measured.
struct DenoiseCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "denoise",
        abstract: "Show a photo's camera and ISO, the noise profile the denoise filter would use (or why none), and the noise measured on it.",
        discussion: "Nothing is written. `photoedit apply denoise ID` records the profile in the recipe; without one the noise is estimated on each render."
    )
    @OptionGroup var options: LibraryOptions
    @Flag(help: "Print JSON.") var json = false
    @Argument(help: "Photo id or unambiguous prefix.") var id: String

    func run() throws {
        try PhotoEdit_run {
            let found = try options.open().denoiseIdentification(for: id)
            func model(_ m: NoiseModel) -> JSONValue {
                .object(["a": .array(m.a.map { .number($0) }), "b": .array(m.b.map { .number($0) }), "sigma18": .number(m.sigma())])
            }
            if json {
                let profile: JSONValue = found.profile.map {
                    .object(["name": .string($0.name), "maker": .string($0.maker), "model": .string($0.model), "iso": .number($0.iso), "noise": model($0.noise)])
                } ?? .null
                Output.json(.object([
                    "make": .string(found.make), "model": .string(found.model), "iso": found.iso.map { .number($0) } ?? .null,
                    "profile": profile, "working": found.working.map(model) ?? .null, "estimated": model(found.estimated), "estimatedBlocks": .number(Double(found.estimatedBlocks)),
                    "note": found.note.map { .string($0) } ?? .null, "database": found.database.map { .string($0) } ?? .null,
                    "recorded": found.recorded.map { .string($0) } ?? .null,
                ]))
                return
            }
            func sigma(_ m: NoiseModel) -> String { "σ=" + String(format: "%.5f", m.sigma()) + " at 18% grey (linear)" }
            let camera = [found.make, found.model].filter { !$0.isEmpty }.joined(separator: " ")
            Output.line("camera    \(camera.isEmpty ? "-" : camera); ISO \(found.iso.map { JSONValue.format($0) } ?? "-")")
            if let profile = found.profile {
                Output.line("profile   \(profile.name) (\(profile.maker)): \(sigma(profile.noise)) of the raw values")
                if let working = found.working { Output.line("working   \(sigma(working)) after white balance and colour matrix (recorded)") }
            } else {
                Output.line("profile   - (estimated: \(sigma(found.estimated)))")
            }
            Output.line("measured  \(sigma(found.estimated)) from \(found.estimatedBlocks) blocks of 16×16")
            if let recorded = found.recorded { Output.line("recorded  \(recorded) (the current edit's denoise renders with it)") }
            if let note = found.note { Output.line("note: \(note)") }
        }
    }
}
