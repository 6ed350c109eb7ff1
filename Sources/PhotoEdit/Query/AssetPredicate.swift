import Foundation

/// A property of a photo that queries filter and sort on. The raw value is
/// its name in the text filter syntax (`photoedit list --where`, see
/// docs/queries.md); each field is declared once in `AssetField.spec`
/// (Catalog/CatalogPredicates.swift: its kind, summary and column).
public enum AssetField: String, CaseIterable, Sendable, Hashable, Codable {
    case id, name, format, type, media, raw, pair
    case width, height, megapixels, orientation, size
    case created, imported, revision, edited
    case favorite, hidden, deleted
    case location, latitude, longitude
    case cameraMake = "camera.make", cameraModel = "camera.model", cameraLens = "camera.lens"
    case iso, exposure, aperture, focal
    case album
    case rating, label, keyword, title, caption
    case copy, master

    /// What kind of value a field holds.
    public enum Kind: String, Sendable {
        /// Text: `=` and `!=` ignore ASCII case, `~` is "contains" (ignoring case), `<`… compare bytes.
        case text
        /// A number.
        case number
        /// A date, compared at the precision it is written with (`2024`, `2024-06`, `2024-06-15`, `2024-06-15T10:30`).
        case date
        /// True or false: written bare (`favorite`, `not favorite`) or `=true`/`=false`.
        case bool
    }

    /// The kind of value the field holds.
    public var kind: Kind { spec.kind }
    /// One line saying what the field is.
    public var summary: String { spec.summary }
    /// Whether results can be sorted by this field (every field but `album` and `keyword`).
    public var isSortable: Bool { self != .album && self != .keyword }
}

/// How a field is compared with a value.
public enum Comparison: String, Sendable, Hashable, CaseIterable {
    case equal = "=", notEqual = "!=", less = "<", lessOrEqual = "<=", greater = ">", greaterOrEqual = ">="
    /// Text contains the value, ignoring ASCII case.
    case contains = "~"
}

/// A value a field is compared with. Literals convert: `AssetField.width >= 3000`.
public enum PredicateValue: Sendable, Hashable, ExpressibleByStringLiteral, ExpressibleByIntegerLiteral,
    ExpressibleByFloatLiteral, ExpressibleByBooleanLiteral {
    /// Text; for a date field, a date written `YYYY[-MM[-DD[THH:MM[:SS]]]]`.
    case text(String)
    case number(Double)
    case bool(Bool)
    /// A point in time (compared to the second, in UTC).
    case date(Date)

    public init(stringLiteral value: String) { self = .text(value) }
    public init(integerLiteral value: Int) { self = .number(Double(value)) }
    public init(floatLiteral value: Double) { self = .number(value) }
    public init(booleanLiteral value: Bool) { self = .bool(value) }
}

/// A condition on a photo's properties (PhotoKit's `NSPredicate` in
/// `PHFetchOptions`), compiled to parameterised SQL: values are always bound,
/// never written into the SQL text. Build one in Swift
/// (`.has(.favorite) && AssetField.width >= 3000`) or parse the text syntax
/// with `AssetPredicate(parsing:)`.
public indirect enum AssetPredicate: Sendable, Hashable {
    /// Every photo.
    case all
    /// All of them hold.
    case and([AssetPredicate])
    /// Any of them holds.
    case or([AssetPredicate])
    /// It does not hold.
    case not(AssetPredicate)
    /// The field compared with a value.
    case compare(AssetField, Comparison, PredicateValue)
    /// A true/false field is true; any other field has a value (`album`: the
    /// photo is in at least one album).
    case has(AssetField)

    /// Photos in the album with this title (ignoring ASCII case).
    public static func inAlbum(_ title: String) -> AssetPredicate { .compare(.album, .equal, .text(title)) }

    /// Both hold (`a && b && c` is one `.and` of three).
    public static func && (lhs: AssetPredicate, rhs: AssetPredicate) -> AssetPredicate {
        if case .and(let parts) = lhs { return .and(parts + [rhs]) }
        return .and([lhs, rhs])
    }

    /// Either holds (`a || b || c` is one `.or` of three).
    public static func || (lhs: AssetPredicate, rhs: AssetPredicate) -> AssetPredicate {
        if case .or(let parts) = lhs { return .or(parts + [rhs]) }
        return .or([lhs, rhs])
    }

    /// It does not hold.
    public static prefix func ! (operand: AssetPredicate) -> AssetPredicate { .not(operand) }
}

extension AssetField {
    public static func == (lhs: AssetField, rhs: PredicateValue) -> AssetPredicate { .compare(lhs, .equal, rhs) }
    public static func != (lhs: AssetField, rhs: PredicateValue) -> AssetPredicate { .compare(lhs, .notEqual, rhs) }
    public static func < (lhs: AssetField, rhs: PredicateValue) -> AssetPredicate { .compare(lhs, .less, rhs) }
    public static func <= (lhs: AssetField, rhs: PredicateValue) -> AssetPredicate { .compare(lhs, .lessOrEqual, rhs) }
    public static func > (lhs: AssetField, rhs: PredicateValue) -> AssetPredicate { .compare(lhs, .greater, rhs) }
    public static func >= (lhs: AssetField, rhs: PredicateValue) -> AssetPredicate { .compare(lhs, .greaterOrEqual, rhs) }
}

/// One sort key of a fetch (PhotoKit's `NSSortDescriptor`).
public struct AssetSortDescriptor: Sendable, Hashable {
    /// The field to sort by (any field but `album`).
    public var field: AssetField
    /// Smallest first (false: largest first).
    public var ascending: Bool

    /// Sorts by `field`, smallest first unless `ascending` is false.
    public init(_ field: AssetField, ascending: Bool = true) {
        self.field = field
        self.ascending = ascending
    }
}
