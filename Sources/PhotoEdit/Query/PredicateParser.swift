import Foundation

/// The text filter syntax (docs/queries.md), parsed into an `AssetPredicate`:
///
///     favorite and width>=3000 and created>=2024-01-01 and camera.make="Canon" and album="Trip"
///
/// `expr := term ('or' term)*`, `term := factor ('and' factor)*`,
/// `factor := 'not' factor | '(' expr ')' | KEY | KEY OP VALUE`, where OP is
/// one of `= == != < <= > >= ~` and VALUE a bare word or a quoted string
/// (`"…"` or `'…'`, backslash escapes the next character).
extension AssetPredicate {
    /// Parses the text filter syntax. Throws `PhotoEditError.invalidQuery`
    /// naming the problem (an unknown key lists the known ones).
    public init(parsing text: String) throws {
        var parser = PredicateParser(text: text)
        self = try parser.parse()
    }
}

extension AssetSortDescriptor {
    /// Parses sort keys separated by commas, each with an optional `-`
    /// (largest first) or `+` prefix: `-created,name`.
    public static func parseList(_ text: String) throws -> [AssetSortDescriptor] {
        let parts = text.split(separator: ",", omittingEmptySubsequences: false).map { $0.trimmingCharacters(in: .whitespaces) }
        return try parts.map { part in
            var name = Substring(part)
            var ascending = true
            if name.hasPrefix("-") { ascending = false; name = name.dropFirst() } else if name.hasPrefix("+") { name = name.dropFirst() }
            guard !name.isEmpty else { throw PhotoEditError.invalidQuery("empty sort key in '\(text)'") }
            let field = try PredicateParser.field(String(name))
            guard field.isSortable else { throw PhotoEditError.invalidQuery("cannot sort by '\(field.rawValue)'") }
            return AssetSortDescriptor(field, ascending: ascending)
        }
    }
}

struct PredicateParser {
    /// The longest query accepted, in characters.
    static let maxLength = 4096
    /// The deepest nesting of `not` and parentheses accepted (SQLite's own
    /// parser refuses the SQL of some nestings from about 40).
    static let maxDepth = 32
    /// The most comparisons and keys one query may hold.
    static let maxTerms = 256

    enum Token: Equatable {
        case word(String)        // a key, a keyword or a bare value
        case string(String)      // a quoted value
        case op(Comparison)
        case open, close
    }

    let text: String
    private var tokens: [(token: Token, at: Int)] = []
    private var index = 0
    private var depth = 0
    private var terms = 0

    init(text: String) { self.text = text }

    static func field(_ name: String) throws -> AssetField {
        if let f = AssetField(rawValue: name.lowercased()) { return f }
        let keys = AssetField.allCases.map(\.rawValue)
        throw PhotoEditError.invalidQuery("unknown key '\(name)'\(Spelling.didYouMean(name, among: keys)) (keys: \(keys.joined(separator: ", ")))")
    }

    mutating func parse() throws -> AssetPredicate {
        guard text.count <= Self.maxLength else {
            throw PhotoEditError.invalidQuery("the query is \(text.count) characters long; at most \(Self.maxLength) are accepted")
        }
        tokens = try tokenize()
        guard !tokens.isEmpty else { throw PhotoEditError.invalidQuery("empty expression") }
        let result = try expression()
        if index < tokens.count { throw unexpected() }
        return result
    }

    private func peekKeyword(_ word: String) -> Bool {
        guard index < tokens.count, case .word(let w) = tokens[index].token else { return false }
        return w.lowercased() == word
    }

    private func unexpected() -> PhotoEditError {
        guard index < tokens.count else { return .invalidQuery("'\(text)' ends too early") }
        let at = tokens[index].at
        let rest = String(text[text.index(text.startIndex, offsetBy: at)...])
        return .invalidQuery("unexpected '\(rest.prefix(20))' at character \(at + 1) of '\(text)'")
    }

    /// `or` binds loosest (level 0), then `and` (level 1), then a factor.
    private mutating func expression(_ level: Int = 0) throws -> AssetPredicate {
        guard level < 2 else { return try factor() }
        let keyword = level == 0 ? "or" : "and"
        var parts = [try expression(level + 1)]
        while peekKeyword(keyword) {
            index += 1
            parts.append(try expression(level + 1))
        }
        return parts.count == 1 ? parts[0] : level == 0 ? .or(parts) : .and(parts)
    }

    /// Enters a `not` or a parenthesis; refuses nesting deeper than `maxDepth`
    /// (the parser recurses: unbounded nesting would overflow the stack).
    private mutating func nest() throws {
        depth += 1
        guard depth <= Self.maxDepth else {
            throw PhotoEditError.invalidQuery("the query nests 'not' and parentheses more than \(Self.maxDepth) deep")
        }
    }

    private mutating func factor() throws -> AssetPredicate {
        guard index < tokens.count else { throw unexpected() }
        if peekKeyword("not") {
            index += 1
            try nest()
            defer { depth -= 1 }
            return .not(try factor())
        }
        switch tokens[index].token {
        case .open:
            index += 1
            try nest()
            defer { depth -= 1 }
            let inner = try expression()
            guard index < tokens.count, tokens[index].token == .close else {
                throw index < tokens.count ? unexpected() : PhotoEditError.invalidQuery("missing ')' in '\(text)'")
            }
            index += 1
            return inner
        case .word(let name) where !["and", "or"].contains(name.lowercased()):
            index += 1
            terms += 1
            guard terms <= Self.maxTerms else {
                throw PhotoEditError.invalidQuery("the query has more than \(Self.maxTerms) conditions")
            }
            let field = try Self.field(name)
            guard index < tokens.count, case .op(let op) = tokens[index].token else {
                let predicate = AssetPredicate.has(field)
                _ = try predicate.sql()   // a bare key must be one that can stand alone
                return predicate
            }
            index += 1
            guard index < tokens.count else { throw PhotoEditError.invalidQuery("'\(name)\(op.rawValue)' wants a value") }
            let raw: String
            switch tokens[index].token {
            case .word(let w), .string(let w): raw = w
            default: throw unexpected()
            }
            index += 1
            let predicate = AssetPredicate.compare(field, op, try Self.value(raw, for: field))
            _ = try predicate.sql()   // report a comparison the field does not have now, with its key
            return predicate
        default:
            throw unexpected()
        }
    }

    static func value(_ raw: String, for field: AssetField) throws -> PredicateValue {
        switch field.kind {
        case .text, .date:
            return .text(raw)
        case .number:
            guard let n = Double(raw), n.isFinite else { throw PhotoEditError.invalidQuery("'\(field.rawValue)' wants a number, not '\(raw)'") }
            return .number(n)
        case .bool:
            switch raw.lowercased() {
            case "true", "yes", "1": return .bool(true)
            case "false", "no", "0": return .bool(false)
            default: throw PhotoEditError.invalidQuery("'\(field.rawValue)' is true or false, not '\(raw)'")
            }
        }
    }

    private func tokenize() throws -> [(token: Token, at: Int)] {
        var out: [(token: Token, at: Int)] = []
        let chars = Array(text)
        var i = 0
        func isSpecial(_ c: Character) -> Bool { c.isWhitespace || "()=!<>~\"'".contains(c) }
        while i < chars.count {
            let c = chars[i]
            if c.isWhitespace { i += 1; continue }
            let start = i
            switch c {
            case "(": out.append((.open, start)); i += 1
            case ")": out.append((.close, start)); i += 1
            case "=", "!", "<", ">", "~":
                let two = i + 1 < chars.count ? String([c, chars[i + 1]]) : ""
                let op: Comparison
                switch two {
                case "==": op = .equal; i += 2
                case "!=": op = .notEqual; i += 2
                case "<=": op = .lessOrEqual; i += 2
                case ">=": op = .greaterOrEqual; i += 2
                default:
                    switch c {
                    case "=": op = .equal
                    case "<": op = .less
                    case ">": op = .greater
                    case "~": op = .contains
                    default: throw PhotoEditError.invalidQuery("'!' at character \(i + 1) of '\(text)': write 'not' or '!='")
                    }
                    i += 1
                }
                out.append((.op(op), start))
            case "\"", "'":
                var value = ""
                i += 1
                var closed = false
                while i < chars.count {
                    if chars[i] == "\\", i + 1 < chars.count {
                        value.append(chars[i + 1]); i += 2; continue
                    }
                    if chars[i] == c { closed = true; i += 1; break }
                    value.append(chars[i]); i += 1
                }
                guard closed else { throw PhotoEditError.invalidQuery("unterminated string at character \(start + 1) of '\(text)'") }
                out.append((.string(value), start))
            default:
                var word = ""
                while i < chars.count, !isSpecial(chars[i]) { word.append(chars[i]); i += 1 }
                out.append((.word(word), start))
            }
        }
        return out
    }
}
