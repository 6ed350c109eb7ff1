import ArgumentParser
import Foundation
import PhotoEdit

struct ImportXMPCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "import-xmp",
        abstract: "Read Lightroom develop settings (crs:) or a darktable history of photos already in the library as a new revision.",
        discussion: """
        The packet is --sidecar FILE when given, else the first sidecar with crs: settings beside the file each photo was \
        imported from (IMG_1.CR2.xmp, IMG_1.xmp, ...), else the XMP embedded in the photo. Its translation is rendered and \
        committed with the packet kept verbatim (com.adobe.crs); a packet already in the photo's history adds nothing. \
        Prints ID<TAB>REVISION<TAB>new|unchanged<TAB>not mapped: ..., or ID<TAB>no develop settings. \
        Without crs: settings, a darktable history in that sidecar (darktable:history) is kept verbatim as \
        org.darktable.history and rendered by darktable-cli when it is installed ($PHOTOEDIT_DARKTABLE_CLI names another, \
        or none), else kept with the photo's unedited render; it prints ID<TAB>REVISION<TAB>new|unchanged<TAB>darktable: .... \
        A packet that cannot be used is an error (exit 1), the photos before it keeping their revision.
        """)
    @OptionGroup var options: LibraryOptions
    @Option(help: ArgumentHelp("An XMP sidecar to read for every photo named.", valueName: "FILE")) var sidecar: String?
    @Argument(help: "Photo ids or unambiguous prefixes.") var ids: [String]

    func run() throws {
        try PhotoEdit_run {
            let library = try options.open()
            let resolved = try ids.map { try library.resolve($0) }
            for id in resolved {
                guard let result = try library.importDevelopSettings(id, sidecar: sidecar) else {
                    guard let dt = try library.importDarktableHistory(id, sidecar: sidecar) else {
                        Output.line("\(id)\tno develop settings")
                        continue
                    }
                    Output.line("\(id)\t\(dt.revision)\t\(dt.isNew ? "new" : "unchanged")\t" + Output.field("darktable: " + dt.history.summary))
                    if dt.isNew && !dt.renderedByDarktable { Output.note("\(id): \(Self.notRendered)") }
                    continue
                }
                let unmapped = result.unmapped.isEmpty ? "" : "\t" + Output.field("not mapped: " + result.unmapped.joined(separator: ", "))
                Output.line("\(id)\t\(result.revision)\t\(result.isNew ? "new" : "unchanged")\(unmapped)")
            }
        }
    }

    static let notRendered = "darktable-cli not found: the darktable history is kept, rendered as the photo unedited (install darktable, then run import-xmp again to see its edit)"

    /// One line about a darktable history read at import.
    static func describe(_ dt: DarktableImport) -> String {
        guard dt.isNew else { return "darktable history (\(dt.source)) already in revision \(dt.revision)" }
        return "darktable history (\(dt.source), \(dt.history.summary)) kept as revision \(dt.revision), "
            + (dt.renderedByDarktable ? "rendered by darktable" : "not rendered: " + notRendered)
    }

    /// One line about develop settings read at import.
    static func describe(_ lr: LightroomImport) -> String {
        let what = lr.isPhotoeditRecipe ? "photoedit recipe" : "Lightroom develop settings"
        var text = lr.isNew ? "\(what) (\(lr.source)) applied as revision \(lr.revision)" : "\(what) (\(lr.source)) already in revision \(lr.revision)"
        if !lr.unmapped.isEmpty { text += "; not mapped: " + lr.unmapped.joined(separator: ", ") }
        return text
    }
}
