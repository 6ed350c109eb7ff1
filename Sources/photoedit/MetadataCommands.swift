import ArgumentParser
import Foundation
import PhotoEdit

// Ratings, colour labels, keywords, titles and captions (docs/xmp.md): one
// command each, built as favorite/hide are (AssetFlagCommand): every id is
// resolved first, then all photos change in one all-or-nothing commit.

struct RateCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "rate", abstract: "Rate photos: 1-5 stars, 0 to clear, reject to reject (rating -1).")
    @OptionGroup var options: LibraryOptions
    @Argument(help: ArgumentHelp("0-5, or reject.", valueName: "N|reject")) var rating: String
    @Argument(help: "Photo ids or prefixes.") var ids: [String]

    func run() throws {
        try PhotoEdit_run {
            let value: Int
            if rating.lowercased() == "reject" {
                value = Rating.rejected
            } else if let n = Int(rating), (0...5).contains(n) || n == Rating.rejected {
                value = n
            } else {
                throw PhotoEditError.invalidChange("rating '\(Output.field(String(rating.prefix(40))))' must be 0-5 or reject")
            }
            try AssetFlagCommand.change(options, ids: ids, verb: value == Rating.rejected ? "rejected" : "rated \(value)") { try $0.setRating(value) }
        }
    }
}

struct LabelCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "label", abstract: "Set the colour label of photos: red, yellow, green, blue, purple, or none.")
    @OptionGroup var options: LibraryOptions
    @Argument(help: ArgumentHelp("red, yellow, green, blue, purple or none.", valueName: "COLOR")) var color: String
    @Argument(help: "Photo ids or prefixes.") var ids: [String]

    func run() throws {
        try PhotoEdit_run {
            let label = try ColorLabel.parse(color)
            try AssetFlagCommand.change(options, ids: ids, verb: "label \(label?.rawValue ?? "none")") { try $0.setColorLabel(label) }
        }
    }
}

struct TagCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "tag", abstract: "Add keywords to photos.",
        discussion: """
        KEYWORDS is one argument: keywords separated by commas ('Birds, Trips/Iceland'). A hierarchical keyword's \
        levels are separated by / (Lightroom's Trips|Iceland); write \\/ for a / inside a level and \\, for a comma.
        """)
    @OptionGroup var options: LibraryOptions
    @Argument(help: ArgumentHelp("Keywords, separated by commas.", valueName: "KEYWORDS")) var keywords: String
    @Argument(help: "Photo ids or prefixes.") var ids: [String]
    func run() throws { try AssetFlagCommand.run(options, ids: ids, verb: "tagged", keywords: keywords) { try $0.addKeywords($1) } }
}

struct UntagCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "untag", abstract: "Remove keywords from photos (only those named: untagging Trips leaves Trips/Iceland).",
        discussion: "KEYWORDS as for tag.")
    @OptionGroup var options: LibraryOptions
    @Argument(help: ArgumentHelp("Keywords, separated by commas.", valueName: "KEYWORDS")) var keywords: String
    @Argument(help: "Photo ids or prefixes.") var ids: [String]
    func run() throws { try AssetFlagCommand.run(options, ids: ids, verb: "untagged", keywords: keywords) { try $0.removeKeywords($1) } }
}

struct TitleCommand: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "title", abstract: "Set the title of photos ('' removes it).")
    @OptionGroup var options: LibraryOptions
    @Argument(help: "The title.") var text: String
    @Argument(help: "Photo ids or prefixes.") var ids: [String]
    func run() throws { try AssetFlagCommand.run(options, ids: ids, verb: "title") { [text] in try $0.setTitle(text) } }
}

struct CaptionCommand: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "caption", abstract: "Set the caption of photos ('' removes it).")
    @OptionGroup var options: LibraryOptions
    @Argument(help: "The caption.") var text: String
    @Argument(help: "Photo ids or prefixes.") var ids: [String]
    func run() throws { try AssetFlagCommand.run(options, ids: ids, verb: "caption") { [text] in try $0.setCaption(text) } }
}

extension AssetFlagCommand {
    /// `run` for a command that takes keywords: the list is checked first
    /// (a bad keyword changes nothing), then handed to `body` with each request.
    static func run(_ options: LibraryOptions, ids: [String], verb: String, keywords text: String,
                    _ body: @escaping (AssetChangeRequest, [String]) throws -> Void) throws {
        try PhotoEdit_run {
            let list = try Keyword.list(text)
            try change(options, ids: ids, verb: verb) { try body($0, list) }
        }
    }
}

struct KeywordsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "keywords", abstract: "List every keyword in the library: COUNT<TAB>KEYWORD.")
    @OptionGroup var options: LibraryOptions
    @Flag(help: "Print JSON.") var json = false

    func run() throws {
        try PhotoEdit_run {
            let counts = try options.open().keywordCounts()
            if json {
                Output.json(.array(counts.map { .object(["keyword": .string($0.keyword), "count": .number(Double($0.count))]) }))
            } else {
                for c in counts { Output.line("\(c.count)\t\(Output.field(c.keyword))") }
            }
        }
    }
}
