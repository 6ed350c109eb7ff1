import Foundation

/// A photo's colour label, as Lightroom, Bridge and darktable offer them.
/// In XMP, Lightroom writes the label's name as `xmp:Label` text (`Red`);
/// darktable writes `darktable:colorlabels` numbers, 0 = red … 4 = purple.
public enum ColorLabel: String, CaseIterable, Sendable, Hashable, Codable {
    case red, yellow, green, blue, purple

    /// The label of Lightroom's `xmp:Label` text (`Red`, any case), nil for
    /// any other text (Lightroom lets a label set rename them; those are not
    /// guessed at).
    public init?(xmpLabel text: String) {
        self.init(rawValue: text.trimmingCharacters(in: .whitespaces).lowercased())
    }

    /// The label of a darktable `colorlabels` number (0 red, 1 yellow,
    /// 2 green, 3 blue, 4 purple), nil for any other.
    public init?(darktableNumber: Int) {
        guard Self.allCases.indices.contains(darktableNumber) else { return nil }
        self = Self.allCases[darktableNumber]
    }

    /// The label as Lightroom writes `xmp:Label`: `Red`, `Yellow`, ….
    public var xmpLabel: String { rawValue.prefix(1).uppercased() + rawValue.dropFirst() }

    /// darktable's number for the label (0 red … 4 purple).
    public var darktableNumber: Int { Self.allCases.firstIndex(of: self)! }

    /// Parses a label as the CLI and the query syntax write it: a name, any
    /// case; `none` (or an empty text) is no label.
    public static func parse(_ text: String) throws -> ColorLabel? {
        let t = text.trimmingCharacters(in: .whitespaces).lowercased()
        if t == "none" || t.isEmpty { return nil }
        guard let label = ColorLabel(rawValue: t) else {
            throw PhotoEditError.invalidChange("unknown colour label '\(text.prefix(40))' (\(allCases.map(\.rawValue).joined(separator: ", ")) or none)")
        }
        return label
    }
}

/// Ratings: 1–5 stars, 0 unrated, −1 rejected (XMP's `xmp:Rating`).
public enum Rating {
    /// A rejected photo (Lightroom's and darktable's "reject").
    public static let rejected = -1
    /// The ratings a photo can have.
    public static let range = -1...5

    static func checked(_ value: Int) throws -> Int {
        guard range.contains(value) else {
            throw PhotoEditError.invalidChange("rating \(value) is out of range (0–5 stars, -1 rejected)")
        }
        return value
    }
}

/// Keywords as photoedit writes them: one text per keyword; a hierarchical
/// keyword's levels are separated by `/` (`Trips/Iceland`), and a `/` or
/// `\` inside a level is written `\/` or `\\` (`Music/AC\/DC`). Lightroom's
/// `lr:hierarchicalSubject` writes the same keyword `Trips|Iceland`; a flat
/// `dc:subject` keyword is a keyword of one level.
public enum Keyword {
    /// The longest keyword accepted, in characters.
    public static let maxLength = 500
    /// The most levels one keyword may have.
    public static let maxLevels = 32
    /// The most keywords one photo may have.
    public static let maxPerPhoto = 1000

    /// A keyword's levels (`Music/AC\/DC` → `Music`, `AC/DC`), unescaped.
    public static func levels(_ keyword: String) -> [String] {
        var out: [String] = []
        var current = ""
        var escaped = false
        for c in keyword {
            if escaped { current.append(c); escaped = false; continue }
            if c == "\\" { escaped = true; continue }
            if c == "/" { out.append(current); current = ""; continue }
            current.append(c)
        }
        if escaped { current.append("\\") }
        out.append(current)
        return out
    }

    /// The keyword of these levels, each escaped (`AC/DC` → `AC\/DC`).
    public static func join(_ levels: [String]) -> String {
        levels.map { level in
            var out = ""
            for c in level {
                if c == "/" || c == "\\" { out.append("\\") }
                out.append(c)
            }
            return out
        }.joined(separator: "/")
    }

    /// A keyword as stored: each level trimmed of white space and escaped
    /// again, so that one keyword has one spelling. Throws for an empty
    /// level, a control character, or one beyond the limits.
    public static func normalized(_ keyword: String) throws -> String {
        let levels = levels(keyword).map { $0.trimmingCharacters(in: .whitespaces) }
        guard keyword.count <= maxLength, levels.count <= maxLevels, !levels.contains(where: \.isEmpty),
              !keyword.unicodeScalars.contains(where: { $0.value < 0x20 || (0x7f...0x9f).contains($0.value) }) else {
            throw PhotoEditError.invalidChange("keyword '\(printable(keyword))' must be 1–\(maxLength) characters without control characters, its levels (separated by /) not empty")
        }
        return join(levels)
    }

    /// The first characters of a text for a message, control characters as `?`.
    static func printable(_ text: String) -> String {
        String(String.UnicodeScalarView(text.unicodeScalars.prefix(60).map { $0.value < 0x20 || (0x7f...0x9f).contains($0.value) ? "?" : $0 }))
    }

    /// The keyword of a Lightroom `lr:hierarchicalSubject` entry (`A|B|C`).
    public static func fromLightroom(_ text: String) throws -> String {
        try normalized(join(text.split(separator: "|", omittingEmptySubsequences: false).map(String.init)))
    }

    /// A keyword's Lightroom `lr:hierarchicalSubject` spelling (`A|B|C`).
    public static func lightroom(_ keyword: String) -> String {
        levels(keyword).joined(separator: "|")
    }

    /// Splits a list of keywords written in one argument, separated by
    /// commas (as Lightroom's keyword field takes them); `\,` is a comma
    /// inside a keyword. Each keyword is normalized.
    public static func list(_ text: String) throws -> [String] {
        var out: [String] = []
        var current = ""
        var escaped = false
        for c in text {
            if escaped {
                if c != "," { current.append("\\") }
                current.append(c)
                escaped = false
            } else if c == "\\" {
                escaped = true
            } else if c == "," {
                out.append(current); current = ""
            } else {
                current.append(c)
            }
        }
        if escaped { current.append("\\") }
        out.append(current)
        let keywords = out.map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
        guard !keywords.isEmpty else { throw PhotoEditError.invalidChange("no keyword given") }
        return try keywords.map(normalized)
    }

    /// Keywords without duplicates (ignoring ASCII case, as queries compare
    /// them), the first spelling kept, in their order.
    static func unique(_ keywords: [String]) -> [String] {
        var seen = Set<String>()
        return keywords.filter { seen.insert(folded($0)).inserted }
    }

    /// A keyword folded as the catalog compares them (ASCII case).
    static func folded(_ keyword: String) -> String {
        String(decoding: keyword.utf8.map { (65...90).contains($0) ? $0 + 32 : $0 }, as: UTF8.self)
    }
}

/// Descriptive metadata every photo manager shares: rating, colour label,
/// keywords, title and caption. Read from XMP at import: a member is nil
/// when the source does not set it.
public struct DescriptiveMetadata: Sendable, Hashable {
    /// −1 rejected, 0 unrated, 1–5 stars.
    public var rating: Int?
    /// The colour label.
    public var colorLabel: ColorLabel?
    /// Keywords in photoedit's syntax (`Trips/Iceland`).
    public var keywords: [String]?
    /// The title (`dc:title`).
    public var title: String?
    /// The caption (`dc:description`).
    public var caption: String?

    /// Metadata setting nothing.
    public init(rating: Int? = nil, colorLabel: ColorLabel? = nil, keywords: [String]? = nil, title: String? = nil, caption: String? = nil) {
        self.rating = rating
        self.colorLabel = colorLabel
        self.keywords = keywords
        self.title = title
        self.caption = caption
    }

    /// Sets nothing.
    public var isEmpty: Bool { self == DescriptiveMetadata() }

    /// This metadata with every member `other` sets taken from `other`
    /// (a sidecar over the embedded packet).
    func overridden(by other: DescriptiveMetadata) -> DescriptiveMetadata {
        DescriptiveMetadata(rating: other.rating ?? rating, colorLabel: other.colorLabel ?? colorLabel,
                            keywords: other.keywords ?? keywords, title: other.title ?? title, caption: other.caption ?? caption)
    }

    /// The longest title or caption accepted, in characters.
    public static let maxTextLength = 10_000

    /// A title or caption as stored: trimmed, nil for none (an empty text
    /// clears it). Throws for one over `maxTextLength` characters or with a
    /// control character other than a line break or tab; `what` names it.
    public static func checkedText(_ text: String?, _ what: String) throws -> String? {
        guard let text else { return nil }
        let t = text.trimmingCharacters(in: .whitespacesAndNewlines)
        if t.isEmpty { return nil }
        guard t.count <= maxTextLength, !t.unicodeScalars.contains(where: { ($0.value < 0x20 && $0 != "\n" && $0 != "\t") || $0.value == 0x7f }) else {
            throw PhotoEditError.invalidChange("\(what) must be at most \(maxTextLength) characters without control characters (line breaks and tabs allowed)")
        }
        return t
    }

    /// The longest name a copy or a snapshot may have, in characters.
    static let maxNameLength = 200

    /// A copy's or a snapshot's name (Versions), trimmed: 1–200 characters on one line,
    /// no control characters; else an `invalidChange` naming `what`.
    static func checkedName(_ name: String, _ what: String) throws -> String {
        let t = name.trimmingCharacters(in: .whitespaces)
        guard !t.isEmpty, t.count <= maxNameLength,
              !t.unicodeScalars.contains(where: { $0.properties.generalCategory == .control || $0.properties.generalCategory == .lineSeparator
                  || $0.properties.generalCategory == .paragraphSeparator }) else {
            throw PhotoEditError.invalidChange("\(what) must be 1–\(maxNameLength) characters on one line, without control characters")
        }
        return t
    }
}
