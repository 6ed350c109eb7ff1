import Foundation

/// A file-name template of a batch export: `{name}`, `{date:%Y-%m-%d}`,
/// `{seq:4}`, `{title}`, `{rating}`, `{id}` and literal text. It names a
/// file inside the output folder, never outside: `..`, absolute paths and
/// unknown placeholders are refused when the template is read, and every
/// value put in is made a safe file name (no `/`, no leading dot, no
/// control characters).
public struct ExportNameTemplate: Sendable, Hashable {
    /// `{name}`: the original's file name without its extension.
    public static let defaultTemplate = "{name}"
    /// The longest template and the longest name it may give.
    public static let maxLength = 200

    enum Part: Hashable {
        case literal(String)
        case name, title, rating, id
        case date(String)
        case seq(Int)
    }

    let parts: [Part]
    /// The template as written.
    public let text: String

    /// What a template is filled with, for one photo.
    public struct Values: Sendable {
        public var name: String
        public var date: Date?
        public var sequence: Int
        public var title: String?
        public var rating: Int?
        public var id: String

        public init(name: String, date: Date?, sequence: Int, title: String?, rating: Int?, id: String) {
            (self.name, self.date, self.sequence, self.title, self.rating, self.id) = (name, date, sequence, title, rating, id)
        }
    }

    /// Reads a template; one-line errors name what is wrong.
    public init(_ text: String) throws {
        func bad(_ why: String) -> PhotoEditError { .invalidOutput("name template '\(text.prefix(100))' \(why)") }
        guard !text.isEmpty, text.count <= Self.maxLength else { throw bad("is empty or longer than \(Self.maxLength) characters") }
        guard !text.hasPrefix("/") else { throw bad("is an absolute path; it names a file inside the output folder") }
        guard !text.contains("/") else { throw bad("has a '/'; it names a file inside the output folder, not a sub-folder") }
        guard text != "..", !text.contains("..") else { throw bad("has '..'; it names a file inside the output folder") }
        guard !text.unicodeScalars.contains(where: { $0.value < 0x20 || $0 == "\\" }) else { throw bad("has a control character or a backslash") }
        var parts: [Part] = []
        var literal = ""
        var rest = Substring(text)
        while let c = rest.first {
            rest = rest.dropFirst()
            if c == "}" { throw bad("has a '}' without its '{'") }
            guard c == "{" else { literal.append(c); continue }
            guard let close = rest.firstIndex(of: "}") else { throw bad("has a '{' without its '}'") }
            let body = String(rest[..<close])
            rest = rest[rest.index(after: close)...]
            if !literal.isEmpty { parts.append(.literal(literal)); literal = "" }
            let (key, argument) = body.firstIndex(of: ":").map { (String(body[..<$0]), String(body[body.index(after: $0)...])) } ?? (body, nil)
            switch (key, argument) {
            case ("name", nil): parts.append(.name)
            case ("title", nil): parts.append(.title)
            case ("rating", nil): parts.append(.rating)
            case ("id", nil): parts.append(.id)
            case ("date", let format):
                let f = format ?? "%Y-%m-%d"
                guard f.count <= 50, Self.isSafeDateFormat(f) else { throw bad("has a date format other than %Y %m %d %H %M %S %y %j and - _ . letters") }
                parts.append(.date(f))
            case ("seq", let digits):
                guard let n = Int(digits ?? "1"), (1...9).contains(n) else { throw bad("has {seq:N} with N outside 1…9") }
                parts.append(.seq(n))
            default:
                throw bad("has an unknown placeholder {\(body.prefix(40))} (name, date:FORMAT, seq:N, title, rating, id)")
            }
        }
        if !literal.isEmpty { parts.append(.literal(literal)) }
        self.parts = parts
        self.text = text
    }

    static func isSafeDateFormat(_ f: String) -> Bool {
        var chars = Array(f)[...]
        while let c = chars.first {
            chars = chars.dropFirst()
            if c == "%" {
                guard let d = chars.first, "YmdHMSyj".contains(d) else { return false }
                chars = chars.dropFirst()
            } else if !(c.isLetter || c.isNumber || "-_. ".contains(c)) {
                return false
            }
        }
        return true
    }

    /// The file name (without extension) for one photo.
    public func fileName(_ v: Values) -> String {
        var out = ""
        for part in parts {
            switch part {
            case .literal(let s): out += s
            case .name: out += Self.safe(v.name)
            case .title: out += Self.safe(v.title ?? "")
            case .rating: out += v.rating.map(String.init) ?? "0"
            case .id: out += v.id
            case .seq(let digits):
                let s = String(v.sequence)
                out += String(repeating: "0", count: max(0, digits - s.count)) + s
            case .date(let format): out += Self.safe(v.date.map { Self.format($0, format) } ?? "undated")
            }
        }
        var name = Self.safe(out)
        if name.isEmpty { name = v.id }
        if name.count > Self.maxLength { name = String(name.prefix(Self.maxLength)) }
        return name
    }

    /// A value made a file name: separators and control characters become
    /// `_`, no leading dots, no `..`.
    static func safe(_ text: String) -> String {
        var s = String(text.unicodeScalars.map { $0.value < 0x20 || $0 == "/" || $0 == "\\" || $0 == "\u{7F}" ? "_" : Character($0) })
        while s.contains("..") { s = s.replacingOccurrences(of: "..", with: "_") }
        while s.hasPrefix(".") { s.removeFirst() }
        return s.trimmingCharacters(in: .whitespaces)
    }

    /// strftime-like formatting of the placeholders `isSafeDateFormat` allows (UTC).
    static func format(_ date: Date, _ f: String) -> String {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = .gmt
        let c = calendar.dateComponents([.year, .month, .day, .hour, .minute, .second], from: date)
        let dayOfYear = calendar.ordinality(of: .day, in: .year, for: date) ?? 1
        func pad(_ n: Int?, _ width: Int) -> String {
            let s = String(n ?? 0)
            return String(repeating: "0", count: max(0, width - s.count)) + s
        }
        var out = ""
        var chars = Array(f)[...]
        while let ch = chars.first {
            chars = chars.dropFirst()
            guard ch == "%", let d = chars.first else { out.append(ch); continue }
            chars = chars.dropFirst()
            switch d {
            case "Y": out += pad(c.year, 4)
            case "y": out += pad((c.year ?? 0) % 100, 2)
            case "m": out += pad(c.month, 2)
            case "d": out += pad(c.day, 2)
            case "H": out += pad(c.hour, 2)
            case "M": out += pad(c.minute, 2)
            case "S": out += pad(c.second, 2)
            case "j": out += pad(dayOfYear, 3)
            default: out.append(d)
            }
        }
        return out
    }
}
