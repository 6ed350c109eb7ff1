import Foundation

// The catalog layer's SQL for queries: the two dialects (`SQLDialect`, every
// place where SQLite's and PostgreSQL's text differ), bound values, and the
// compilation of a fetch (`FetchOptions` with its `AssetPredicate` and sort
// descriptors) into one statement, and the one declaration of every query
// field (`AssetField.spec`: kind, summary, column expression — constants,
// never user text).

/// The SQL dialects the catalog is written in: SQLite (the embedded default)
/// and PostgreSQL (a catalog shared by many nodes).
package enum SQLDialect: Sendable, Hashable {
    case sqlite, postgres

    var trueLiteral: String { self == .postgres ? "TRUE" : "1" }
    var falseLiteral: String { self == .postgres ? "FALSE" : "0" }

    /// `expression` is true (a 0/1 integer in SQLite, a boolean in PostgreSQL; NULL is false).
    /// A NOT NULL boolean column is written bare in PostgreSQL, so that a
    /// partial index `WHERE favorite` serves `favorite`.
    func isTrue(_ expression: String, notNull: Bool = false) -> String {
        if self == .postgres { return notNull ? expression : "COALESCE(\(expression), FALSE)" }
        return "COALESCE(\(expression), 0) != 0"
    }

    /// Equality ignoring case (SQLite's NOCASE folds ASCII only; PostgreSQL's lower() folds Unicode).
    func equalIgnoringCase(_ expression: String, _ op: String) -> String {
        self == .postgres ? "lower(\(expression)) \(op) lower(?)" : "\(expression) \(op) ? COLLATE NOCASE"
    }

    /// "Contains, ignoring case" with a `%…%` pattern whose `\` escapes.
    func contains(_ expression: String) -> String {
        self == .postgres ? "\(expression) ILIKE ? ESCAPE '\\'" : "\(expression) LIKE ? ESCAPE '\\'"
    }

    /// Text ordered by bytes, as SQLite's BINARY collation does.
    func bytewise(_ expression: String) -> String {
        self == .postgres ? "\(expression) COLLATE \"C\"" : expression
    }

    /// A sort key; NULLs first when ascending, as SQLite orders them. A key
    /// that is never NULL is written without NULLS in PostgreSQL, so that an
    /// ascending index also serves it descending (scanned backwards).
    func order(_ expression: String, ascending: Bool, notNull: Bool = false) -> String {
        if self == .postgres && !notNull { return expression + (ascending ? " ASC NULLS FIRST" : " DESC NULLS LAST") }
        return expression + (ascending ? " ASC" : " DESC")
    }

    /// An INSERT that does nothing when the row would break a unique key
    /// (`rest`: `table (columns) VALUES (…)`).
    func insertIgnoringDuplicates(_ rest: String) -> String {
        self == .postgres ? "INSERT INTO \(rest) ON CONFLICT DO NOTHING" : "INSERT OR IGNORE INTO \(rest)"
    }

    /// Appended to a SELECT of rows the transaction is about to change: in
    /// PostgreSQL it locks them until the transaction ends, so that a
    /// concurrent writer waits and then reads the new values (optimistic
    /// concurrency: the revision check sees the other commit). SQLite has
    /// one writer at a time: nothing to add.
    var forUpdate: String { self == .postgres ? " FOR UPDATE" : "" }

    /// The placeholder of a JSON value bound as text (PostgreSQL keeps it as jsonb).
    var jsonPlaceholder: String { self == .postgres ? "?::jsonb" : "?" }

    /// Whether `needle` occurs in `haystack` (both text expressions).
    func containsText(_ haystack: String, _ needle: String) -> String {
        self == .postgres ? "strpos(\(haystack), \(needle)) > 0" : "instr(\(haystack), \(needle)) > 0"
    }

    /// A keyword as compared (ignoring case): SQLite's column has the NOCASE
    /// collation; PostgreSQL compares `lower()`, bytewise (the expression
    /// of its index).
    var keywordColumn: String {
        let keyword = CatalogSchema.assetKeyword.keyword
        return self == .postgres ? "(lower(\(keyword)) COLLATE \"C\")" : keyword.name
    }
    /// A bound keyword, folded as `keywordColumn` is.
    var keywordValue: String { self == .postgres ? "lower(?)" : "?" }
    /// `keyword` is the bound keyword, ignoring case.
    var keywordEquals: String { "\(keywordColumn) = \(keywordValue)" }

    /// The order of a change set's entries: the order the commit touched
    /// the objects (SQLite's rowid; PostgreSQL has none, its schema numbers
    /// the entries in an identity column).
    var changeEntryOrder: String {
        self == .postgres ? CatalogSchema.changeEntry.qualified(\.entryOrder) : "\(CatalogSchema.changeEntry).rowid"
    }
}

/// A value bound to a statement, in either dialect.
package enum SQLValue: Sendable, Hashable {
    case null
    case integer(Int64)
    case real(Double)
    case text(String)
    /// A point in time written as UTC text (`YYYY-MM-DD HH:MM[:SS]`); PostgreSQL casts it to a timestamp.
    case timestamp(String)
    /// SQLite: the integer 0 or 1; PostgreSQL: a boolean.
    case bool(Bool)
    /// SQLite: a blob; PostgreSQL: bytea.
    case blob(Data)
}

/// SQL text with its bound values (`?` placeholders, in order).
package struct SQLFragment: Sendable {
    package var sql: String
    package var arguments: [SQLValue]

    package init(sql: String, arguments: [SQLValue] = []) {
        self.sql = sql
        self.arguments = arguments
    }
}

extension AssetPredicate {
    /// The predicate as a SQL condition over `asset`. Throws
    /// `PhotoEditError.invalidQuery` for a value of the wrong kind or a
    /// comparison the field does not have.
    package func sql(_ dialect: SQLDialect = .sqlite) throws -> SQLFragment {
        switch self {
        case .all:
            return SQLFragment(sql: dialect.trueLiteral)
        case .and(let parts):
            return try Self.join(parts, with: " AND ", empty: dialect.trueLiteral, dialect)
        case .or(let parts):
            return try Self.join(parts, with: " OR ", empty: dialect.falseLiteral, dialect)
        case .not(let inner):
            let f = try inner.sql(dialect)
            return SQLFragment(sql: "NOT (" + f.sql + ")", arguments: f.arguments)
        case .has(let field):
            let spec = field.spec
            let (a, m, k) = (CatalogSchema.asset, CatalogSchema.albumAsset, CatalogSchema.assetKeyword)
            if field == .album { return SQLFragment(sql: "\(a.qualified(\.id)) IN (SELECT \(m.assetId) FROM \(m))") }
            if field == .keyword { return SQLFragment(sql: "\(a.qualified(\.id)) IN (SELECT \(k.assetId) FROM \(k))") }
            if spec.kind == .bool { return SQLFragment(sql: dialect.isTrue(spec.expression(dialect), notNull: spec.isNotNullColumn)) }
            guard spec.nullable else {
                throw Self.problem("'\(field.rawValue)' always has a value: compare it (e.g. \(field.rawValue)\(spec.kind == .text ? "~x" : ">0"))")
            }
            return SQLFragment(sql: "\(spec.expression(dialect)) IS NOT NULL")
        case let .compare(field, op, value):
            return try Self.compare(field, op, value, dialect)
        }
    }

    static func problem(_ text: String) -> PhotoEditError { .invalidQuery(text) }

    private static func join(_ parts: [AssetPredicate], with joiner: String, empty: String, _ dialect: SQLDialect) throws -> SQLFragment {
        if parts.isEmpty { return SQLFragment(sql: empty) }
        var out = SQLFragment(sql: "")
        for (i, part) in parts.enumerated() {
            let f = try part.sql(dialect)
            out.sql += (i == 0 ? "" : joiner) + "(" + f.sql + ")"
            out.arguments += f.arguments
        }
        return out
    }

    private static func compare(_ field: AssetField, _ op: Comparison, _ value: PredicateValue, _ dialect: SQLDialect) throws -> SQLFragment {
        let spec = field.spec
        let expression = spec.expression(dialect)
        let key = field.rawValue
        func allow(_ ops: [Comparison]) throws {
            guard ops.contains(op) else {
                throw problem("'\(key)' cannot be compared with \(op.rawValue) (use \(ops.map(\.rawValue).joined(separator: " ")))")
            }
        }
        func wrongValue(_ wanted: String) -> PhotoEditError {
            problem("'\(key)' wants \(wanted), not \(describe(value))")
        }
        switch spec.kind {
        case .bool:
            try allow([.equal, .notEqual])
            guard case .bool(let b) = value else { throw wrongValue("true or false") }
            let condition = dialect.isTrue(expression, notNull: spec.isNotNullColumn)
            return SQLFragment(sql: (b == (op == .equal)) ? condition : "NOT (\(condition))")
        case .number:
            try allow([.equal, .notEqual, .less, .lessOrEqual, .greater, .greaterOrEqual])
            guard case .number(let n) = value, n.isFinite else { throw wrongValue("a number") }
            return SQLFragment(sql: "\(expression) \(op.rawValue) ?", arguments: [.real(n)])
        case .text:
            guard case .text(let text) = value else { throw wrongValue("text") }
            let (a, al, m, k) = (CatalogSchema.asset, CatalogSchema.album, CatalogSchema.albumAsset, CatalogSchema.assetKeyword)
            if field == .album {
                try allow([.equal, .notEqual, .contains])
                let title = al.qualified(\.title)
                let condition = op == .contains ? dialect.contains(title) : dialect.equalIgnoringCase(title, "=")
                let bound = op == .contains ? likePattern(text) : text
                // Not correlated: the album's id set is built once.
                let members = "\(a.qualified(\.id)) IN (SELECT \(m.qualified(\.assetId)) FROM \(m) JOIN \(al) ON \(al.qualified(\.id)) = \(m.qualified(\.albumId)) WHERE \(condition))"
                return SQLFragment(sql: op == .notEqual ? "NOT " + members : members, arguments: [.text(bound)])
            }
            if field == .keyword {
                try allow([.equal, .notEqual, .contains])
                let condition: String, bound: [SQLValue]
                if op == .contains {
                    (condition, bound) = (dialect.contains(k.keyword.name), [.text(likePattern(text))])
                } else {
                    // The keyword, and every keyword below it: `Trips/Iceland`
                    // and `Trips/Iceland/…`, the range ["Trips/Iceland/",
                    // "Trips/Iceland0") ('0' follows '/'), so the index serves both.
                    let keyword: String
                    do { keyword = try Keyword.normalized(text) } catch { throw problem("'keyword' wants a keyword such as Trips/Iceland: no empty level or control character") }
                    let folded = dialect.keywordColumn
                    condition = "\(dialect.keywordEquals) OR (\(folded) >= \(dialect.keywordValue) AND \(folded) < \(dialect.keywordValue))"
                    bound = [.text(keyword), .text(keyword + "/"), .text(keyword + "0")]
                }
                let members = "\(a.qualified(\.id)) IN (SELECT \(k.assetId) FROM \(k) WHERE \(condition))"
                return SQLFragment(sql: op == .notEqual ? "NOT " + members : members, arguments: bound)
            }
            if field == .label {
                try allow([.equal, .notEqual])
                let label: ColorLabel?
                do { label = try ColorLabel.parse(text) } catch { throw problem("'label' is red, yellow, green, blue, purple or none, not \(describe(value))") }
                guard let label else { return SQLFragment(sql: "\(expression) IS \(op == .equal ? "" : "NOT ")NULL") }
                let condition = "\(expression) = ?"
                // `label!=red`: every photo not labelled red, unlabelled ones too.
                return SQLFragment(sql: op == .equal ? condition : "(NOT (\(condition)) OR \(expression) IS NULL)", arguments: [.text(label.rawValue)])
            }
            switch op {
            case .equal, .notEqual:
                return SQLFragment(sql: dialect.equalIgnoringCase(expression, op.rawValue), arguments: [.text(text)])
            case .contains:
                return SQLFragment(sql: dialect.contains(expression), arguments: [.text(likePattern(text))])
            default:
                return SQLFragment(sql: "\(dialect.bytewise(expression)) \(op.rawValue) ?", arguments: [.text(text)])
            }
        case .date:
            try allow([.equal, .notEqual, .less, .lessOrEqual, .greater, .greaterOrEqual])
            let bounds: DateBounds
            switch value {
            case .text(let text):
                guard let b = DateBounds(text, separator: spec.dateSeparator) else {
                    throw problem("'\(key)' wants a date (YYYY, YYYY-MM, YYYY-MM-DD or YYYY-MM-DDTHH:MM[:SS]), not \(describe(value))")
                }
                bounds = b
            case .date(let date):
                bounds = DateBounds(date, separator: spec.dateSeparator)
            default:
                throw wrongValue("a date")
            }
            // A stored timestamp (import time) compares as a time in PostgreSQL;
            // a capture date is text in both (the camera's local time).
            let isTimestamp = spec.dateSeparator == " "
            let lo: SQLValue = isTimestamp ? .timestamp(bounds.start) : .text(bounds.start)
            let hi: SQLValue = isTimestamp ? .timestamp(bounds.end) : .text(bounds.end)
            let e = isTimestamp ? expression : dialect.bytewise(expression)
            switch op {
            case .equal: return SQLFragment(sql: "(\(e) >= ? AND \(e) < ?)", arguments: [lo, hi])
            case .notEqual: return SQLFragment(sql: "NOT (\(e) >= ? AND \(e) < ?)", arguments: [lo, hi])
            case .less: return SQLFragment(sql: "\(e) < ?", arguments: [lo])
            case .lessOrEqual: return SQLFragment(sql: "\(e) < ?", arguments: [hi])
            case .greater: return SQLFragment(sql: "\(e) >= ?", arguments: [hi])
            default: return SQLFragment(sql: "\(e) >= ?", arguments: [lo])
            }
        }
    }

    private static func describe(_ value: PredicateValue) -> String {
        switch value {
        case .text(let t): return "'\(t)'"
        case .number(let n): return n == n.rounded() && abs(n) < 1e15 ? String(Int64(n)) : String(n)
        case .bool(let b): return String(b)
        case .date(let d): return d.formatted(.iso8601)
        }
    }

    /// `%text%` for LIKE, with `%`, `_` and `\` escaped.
    private static func likePattern(_ text: String) -> String {
        var out = "%"
        for c in text {
            if c == "%" || c == "_" || c == "\\" { out.append("\\") }
            out.append(c)
        }
        return out + "%"
    }
}

extension AssetField {
    struct Spec {
        var kind: Kind
        /// SQL over the `asset` table; a constant, never user text.
        var sql: String
        var nullable: Bool
        var summary: String
        /// For dates: the separator between day and time in the stored text.
        var dateSeparator: String = "T"
        /// The PostgreSQL expression when it is not `sql`.
        var postgres: String? = nil
        /// The declared column when the field is one column of `asset` as it
        /// is (not an expression of columns).
        var column: CatalogSchema.Column? = nil
    }

    // The one declaration of every field, its columns named through the
    // declared schema (CatalogSchema) and the camera JSON's keys through
    // CameraInfo's: a column renamed or removed there fails to compile here.
    var spec: Spec {
        let a = CatalogSchema.asset
        func c<V>(_ field: KeyPath<CatalogSchema.Asset, CatalogSchema.Field<V>>) -> String { a.qualified(field) }
        // One column as it is: it has a value when its declaration says NOT NULL.
        func column<V>(_ field: KeyPath<CatalogSchema.Asset, CatalogSchema.Field<V>>, _ kind: Kind, _ summary: String,
                       dateSeparator: String = "T") -> Spec {
            let declared = a[keyPath: field].column
            return Spec(kind: kind, sql: c(field), nullable: !declared.notNull, summary: summary, dateSeparator: dateSeparator, column: declared)
        }
        // Whether a nullable column has a value.
        func isSet<V>(_ field: KeyPath<CatalogSchema.Asset, CatalogSchema.Field<V>>, _ summary: String) -> Spec {
            Spec(kind: .bool, sql: "(\(c(field)) IS NOT NULL)", nullable: false, summary: summary)
        }
        func camera(_ key: CameraInfo.CodingKeys, _ kind: Kind, _ summary: String) -> Spec {
            // PostgreSQL keeps camera as jsonb; numbers are cast to compare as numbers.
            let value = "(\(c(\.camera)) ->> '\(key.rawValue)')"
            return Spec(kind: kind, sql: "json_extract(\(c(\.camera)), '$.\(key.rawValue)')", nullable: true, summary: summary,
                        postgres: kind == .number ? "(\(value)::double precision)" : value)
        }
        switch self {
        case .id: return column(\.id, .text, "the photo's id (32 hex digits)")
        case .name: return column(\.originalFilename, .text, "the original file name")
        case .format: return column(\.format, .text, "jpeg, png, tiff, webp, heif, avif, jxl, gif, jpeg2000, raw")
        case .type: return column(\.uniformTypeIdentifier, .text, "uniform type identifier (public.jpeg, …)")
        case .media: return column(\.mediaType, .text, "media type (image)")
        case .raw: return Spec(kind: .bool, sql: "(\(c(\.format)) = 'raw' OR \(c(\.alternateFormat)) = 'raw')", nullable: false,
                               summary: "a camera RAW original, alone or as the RAW of a RAW+JPEG pair")
        case .pair: return isSet(\.alternatePath, "a RAW+JPEG pair")
        case .width: return column(\.pixelWidth, .number, "width of the current version as displayed")
        case .height: return column(\.pixelHeight, .number, "height of the current version as displayed")
        case .megapixels: return Spec(kind: .number, sql: "(\(c(\.pixelWidth)) * \(c(\.pixelHeight)) / 1e6)", nullable: false,
                                      summary: "width × height of the current version, in millions",
                                      postgres: "(\(c(\.pixelWidth))::double precision * \(c(\.pixelHeight)) / 1e6)")
        case .orientation: return column(\.orientation, .number, "EXIF orientation of the original (1…8)")
        case .size: return column(\.fileSize, .number, "size of the original file in bytes")
        case .created: return column(\.creationDate, .date, "capture date (as the camera recorded it)")
        case .imported: return column(\.importDate, .date, "import time (UTC)", dateSeparator: " ")
        case .revision: return column(\.revision, .number, "latest revision number (0 = as imported)")
        case .edited: return column(\.adjusted, .bool, "the current version has adjustments")
        case .favorite: return column(\.favorite, .bool, "marked as a favorite")
        case .hidden: return column(\.hidden, .bool, "hidden (listed only when hidden photos are included)")
        case .deleted: return isSet(\.trashedDate, "recently deleted (listed only when those are included)")
        case .location: return isSet(\.latitude, "has a GPS position")
        case .latitude: return column(\.latitude, .number, "degrees north (negative: south)")
        case .longitude: return column(\.longitude, .number, "degrees east (negative: west)")
        case .cameraMake: return camera(.make, .text, "camera maker")
        case .cameraModel: return camera(.model, .text, "camera model")
        case .cameraLens: return camera(.lens, .text, "lens")
        case .iso: return camera(.iso, .number, "ISO speed")
        case .exposure: return camera(.exposureTime, .number, "shutter time in seconds")
        case .aperture: return camera(.fNumber, .number, "f-number")
        case .focal: return camera(.focalLength, .number, "focal length in mm")
        case .album: return Spec(kind: .text, sql: "", nullable: true, summary: "title of an album the photo is in (not a sort key)")
        case .rating: return column(\.rating, .number, "1-5 stars, 0 unrated, -1 rejected")
        case .label: return column(\.colorLabel, .text, "colour label: red, yellow, green, blue, purple (none: no label)")
        case .keyword: return Spec(kind: .text, sql: "", nullable: true,
                                   summary: "a keyword of the photo; Trips/Iceland also matches the keywords below it, Trips/Iceland/Reykjavik (not a sort key)")
        case .title: return column(\.title, .text, "the photo's title")
        case .caption: return column(\.caption, .text, "the photo's caption")
        case .copy: return isSet(\.masterId, "a virtual copy (photoedit duplicate)")
        case .master: return Spec(kind: .text, sql: "COALESCE(\(c(\.masterId)), \(c(\.id)))", nullable: false,
                                  summary: "the id of the photo's master (its own for a master): master=ID lists a master and its virtual copies")
        }
    }
}

extension AssetField.Spec {
    /// The field's expression in `dialect`.
    func expression(_ dialect: SQLDialect) -> String {
        dialect == .postgres ? (postgres ?? sql) : sql
    }

    /// A column declared NOT NULL (not an expression, which can be NULL
    /// even when the field "always has a value"): its conditions and sort
    /// keys need no NULL handling, which lets PostgreSQL match them to
    /// partial and descending indexes.
    var isNotNullColumn: Bool { column?.notNull == true }
}

extension FetchOptions {
    /// The SQL of a fetch with these options, ids only, in `dialect`: the
    /// photos of `album` (an album id) or of the whole library.
    package func sql(album: String?, _ dialect: SQLDialect) throws -> SQLFragment {
        guard fetchLimit >= 0 else { throw PhotoEditError.invalidQuery("fetch limit \(fetchLimit) is negative") }
        let (a, m) = (CatalogSchema.asset, CatalogSchema.albumAsset)
        var query = SQLFragment(sql: "SELECT \(a.qualified(\.id)) FROM \(a)")
        var conditions: [String] = []
        if let album {
            query.sql += " JOIN \(m) ON \(m.qualified(\.assetId)) = \(a.qualified(\.id))"
            conditions.append("\(m.qualified(\.albumId)) = ?")
            query.arguments.append(.text(album))
        }
        if !includeHiddenAssets { conditions.append("NOT \(a.qualified(\.hidden))") }
        if !includeRecentlyDeleted { conditions.append("\(a.qualified(\.trashedDate)) IS NULL") }
        if let predicate {
            let f = try predicate.sql(dialect)
            conditions.append("(" + f.sql + ")")
            query.arguments += f.arguments
        }
        if !conditions.isEmpty { query.sql += " WHERE " + conditions.joined(separator: " AND ") }
        var order: [String] = []
        for d in sortDescriptors {
            guard d.field.isSortable else { throw PhotoEditError.invalidQuery("cannot sort by '\(d.field.rawValue)'") }
            let spec = d.field.spec
            let key = spec.kind == .text || (spec.kind == .date && spec.dateSeparator != " ")
                ? dialect.bytewise(spec.expression(dialect)) : spec.expression(dialect)
            order.append(dialect.order(key, ascending: d.ascending, notNull: spec.isNotNullColumn))
        }
        if sortDescriptors.isEmpty {
            order.append(album != nil ? m.qualified(\.position) : a.qualified(\.importDate))
        }
        order.append(dialect.bytewise(a.qualified(\.id)))
        query.sql += " ORDER BY " + order.joined(separator: ", ")
        if fetchLimit > 0 {
            query.sql += " LIMIT ?"
            query.arguments.append(.integer(Int64(fetchLimit)))
        }
        return query
    }
}

/// The half-open range of stored date texts a date value stands for, at the
/// precision it was written with: `2024-06` is [`2024-06`, `2024-07`).
/// Stored dates are ISO 8601 texts, so comparing texts compares dates.
struct DateBounds {
    var start: String
    var end: String

    private static let calendar: Calendar = {
        var c = Calendar(identifier: .gregorian)
        c.timeZone = .gmt
        return c
    }()

    init?(_ text: String, separator: String) {
        // YYYY[-MM[-DD[(T| )HH:MM[:SS]]]]
        let scalars = Array(text.utf8)
        func digits(_ from: Int, _ count: Int) -> Int? {
            guard from + count <= scalars.count else { return nil }
            var n = 0
            for b in scalars[from..<(from + count)] {
                guard b >= 48 && b <= 57 else { return nil }
                n = n * 10 + Int(b - 48)
            }
            return n
        }
        let layout: [(at: Int, sep: UInt8?, count: Int, unit: Calendar.Component)] = [
            (0, nil, 4, .year), (4, UInt8(ascii: "-"), 2, .month), (7, UInt8(ascii: "-"), 2, .day),
            (10, nil, 2, .hour), (13, UInt8(ascii: ":"), 2, .minute), (16, UInt8(ascii: ":"), 2, .second),
        ]
        var values: [Int] = []
        var position = 0
        for part in layout {
            if position == scalars.count { break }
            if part.at == 10 {
                guard scalars[position] == UInt8(ascii: "T") || scalars[position] == UInt8(ascii: " ") else { return nil }
            } else if let sep = part.sep {
                guard scalars[position] == sep else { return nil }
            }
            let start = part.at == 0 ? 0 : position + 1
            guard let n = digits(start, part.count) else { return nil }
            values.append(n)
            position = start + part.count
        }
        guard position == scalars.count, !values.isEmpty, values.count != 4 else { return nil }  // an hour alone is not a precision
        var c = DateComponents(year: values[0], month: values.count > 1 ? values[1] : 1, day: values.count > 2 ? values[2] : 1,
                               hour: values.count > 3 ? values[3] : 0, minute: values.count > 4 ? values[4] : 0,
                               second: values.count > 5 ? values[5] : 0)
        c.calendar = Self.calendar
        c.timeZone = Self.calendar.timeZone
        guard (1...12).contains(c.month!), (1...31).contains(c.day!), c.hour! < 24, c.minute! < 60, c.second! < 60,
              c.isValidDate, let date = c.date else { return nil }
        let unit = layout[values.count - 1].unit
        guard let next = Self.calendar.date(byAdding: unit, value: 1, to: date) else { return nil }
        start = Self.format(date, precision: values.count, separator: separator)
        end = Self.format(next, precision: values.count, separator: separator)
    }

    init(_ date: Date, separator: String) {
        start = Self.format(date, precision: 6, separator: separator)
        end = Self.format(date.addingTimeInterval(1), precision: 6, separator: separator)
    }

    private static func format(_ date: Date, precision: Int, separator: String) -> String {
        let c = calendar.dateComponents([.year, .month, .day, .hour, .minute, .second], from: date)
        var text = String(format: "%04d", c.year!)
        if precision > 1 { text += String(format: "-%02d", c.month!) }
        if precision > 2 { text += String(format: "-%02d", c.day!) }
        if precision > 4 { text += separator + String(format: "%02d:%02d", c.hour!, c.minute!) }
        if precision > 5 { text += String(format: ":%02d", c.second!) }
        return text
    }
}
