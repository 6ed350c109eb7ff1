import Foundation

/// Where the catalog lives: the SQL the engine runs, behind one seam with
/// an implementation per database — SQLite through GRDB (the embedded
/// default, SQLiteCatalogStore.swift) and PostgreSQL through postgres-nio
/// (a catalog shared by many nodes, in PhotoEditPostgres).
///
/// The engine is synchronous: `read` and `write` run their body on the
/// caller's thread and return when the transaction has ended. Statements
/// are written once, with `?` placeholders; where the dialects differ, a
/// small `SQLDialect` helper writes the difference (never two copies of a
/// statement).
package protocol CatalogStore: Sendable {
    /// The SQL the store speaks.
    var dialect: SQLDialect { get }
    /// Runs `body` in a read transaction (a consistent snapshot).
    func read<T>(_ body: (any CatalogConnection) throws -> T) throws -> T
    /// Runs `body` in one write transaction: committed when it returns,
    /// rolled back when it throws (all-or-nothing).
    func write<T>(_ body: (any CatalogConnection) throws -> T) throws -> T
    /// A new wake-up for one change feed reader, or nil when the library
    /// folder's files tell of commits (SQLite: inotify). A shared catalog
    /// returns one woken by every node's commits.
    func changeSignal() -> (any CatalogChangeSignal)?
}

extension CatalogStore {
    /// The library folder is watched (the SQLite catalog is a file in it).
    package func changeSignal() -> (any CatalogChangeSignal)? { nil }
}

/// A connection inside one of a store's transactions.
package protocol CatalogConnection {
    /// The SQL the connection speaks.
    var dialect: SQLDialect { get }
    /// Runs a statement that returns no rows.
    func execute(_ sql: String, _ arguments: [SQLValue]) throws
    /// The rows of a query.
    func rows(_ sql: String, _ arguments: [SQLValue]) throws -> [CatalogRow]
    /// The first column of every row, as text (NULLs left out): the ids of
    /// a fetch, so a store may read them without building rows.
    func texts(_ sql: String, _ arguments: [SQLValue]) throws -> [String]
}

extension CatalogConnection {
    /// Runs a statement that returns no rows.
    package func execute(_ sql: String, _ arguments: any CatalogValue...) throws {
        try execute(sql, arguments.map(\.sqlValue))
    }

    /// The rows of a query.
    package func rows(_ sql: String, _ arguments: any CatalogValue...) throws -> [CatalogRow] {
        try rows(sql, arguments.map(\.sqlValue))
    }

    /// The first row of a query, nil when it has none.
    package func row(_ sql: String, _ arguments: [SQLValue]) throws -> CatalogRow? {
        try rows(sql, arguments).first
    }

    /// The first row of a query, nil when it has none.
    package func row(_ sql: String, _ arguments: any CatalogValue...) throws -> CatalogRow? {
        try row(sql, arguments.map(\.sqlValue))
    }

    /// The first column of the first row, nil when there is no row or it is NULL.
    package func value<T: CatalogValue>(_ type: T.Type = T.self, _ sql: String, _ arguments: [SQLValue]) throws -> T? {
        guard let row = try row(sql, arguments), row.count > 0 else { return nil }
        let value: T? = try row.get(0)
        return value
    }

    /// The first column of the first row, nil when there is no row or it is NULL.
    package func value<T: CatalogValue>(_ type: T.Type = T.self, _ sql: String, _ arguments: any CatalogValue...) throws -> T? {
        try value(type, sql, arguments.map(\.sqlValue))
    }

    /// The first column of the first row as an integer.
    package func int(_ sql: String, _ arguments: any CatalogValue...) throws -> Int? {
        try value(Int.self, sql, arguments.map(\.sqlValue))
    }

    /// The first column of every row, as text (NULLs left out).
    package func texts(_ sql: String, _ arguments: [SQLValue]) throws -> [String] {
        try rowTexts(sql, arguments)
    }

    /// `texts` through `rows`.
    package func rowTexts(_ sql: String, _ arguments: [SQLValue]) throws -> [String] {
        try rows(sql, arguments).compactMap { row -> String? in try row.get(0) }
    }

    /// The first column of every row, as text (NULLs left out).
    package func texts(_ sql: String, _ arguments: any CatalogValue...) throws -> [String] {
        try texts(sql, arguments.map(\.sqlValue))
    }
}

// MARK: Rows

/// The columns of a query's rows, shared by all of them. Names are found as
/// written and lower-cased (PostgreSQL folds unquoted identifiers).
package final class CatalogColumns: Sendable {
    package let names: [String]
    private let index: [String: Int]

    package init(_ names: [String]) {
        self.names = names
        var index: [String: Int] = [:]
        for (i, name) in names.enumerated().reversed() {
            index[name] = i
            index[name.lowercased()] = i
        }
        self.index = index
    }

    func position(_ name: String) -> Int? { index[name] ?? index[name.lowercased()] }
}

/// One row of a query's result: values by column name or position.
package struct CatalogRow: Sendable {
    package let columns: CatalogColumns
    package let values: [SQLValue]

    package init(columns: CatalogColumns, values: [SQLValue]) {
        self.columns = columns
        self.values = values
    }

    /// The number of columns.
    package var count: Int { values.count }

    /// The value of a column, converted (throws for a missing column, a
    /// NULL read as a non-optional, or a value of another kind).
    package func get<T: CatalogValue>(_ name: String) throws -> T {
        guard let i = columns.position(name) else { throw PhotoEditError.library("catalog: a query has no column \(name)") }
        return try convert(values[i], name)
    }

    /// The value of the column at `position` (0 = first), converted.
    package func get<T: CatalogValue>(_ position: Int) throws -> T {
        guard values.indices.contains(position) else { throw PhotoEditError.library("catalog: a query has no column \(position)") }
        return try convert(values[position], columns.names[position])
    }

    private func convert<T: CatalogValue>(_ value: SQLValue, _ name: String) throws -> T {
        guard let out = T(catalog: value) else {
            throw PhotoEditError.library("catalog: column \(name) holds \(value.kindName), not \(T.self)")
        }
        return out
    }

    package func text(_ name: String) throws -> String { try get(name) }
    package func int(_ name: String) throws -> Int { try get(name) }
    package func double(_ name: String) throws -> Double { try get(name) }
    package func bool(_ name: String) throws -> Bool { try get(name) }
    package func data(_ name: String) throws -> Data { try get(name) }
    package func date(_ name: String) throws -> Date { try get(name) }
}

// MARK: Values

/// A Swift value the catalog stores: how it is bound, and how it is read
/// back from either store's storage (SQLite: 0/1 booleans and GRDB's
/// `YYYY-MM-DD HH:MM:SS.SSS` UTC text dates; PostgreSQL: booleans and timestamps).
package protocol CatalogValue: Sendable {
    /// The value as bound to a statement.
    var sqlValue: SQLValue { get }
    /// The value read from a column; nil when it cannot be one (a NULL, or another kind).
    init?(catalog value: SQLValue)
}

extension SQLValue: CatalogValue {
    package var sqlValue: SQLValue { self }
    package init?(catalog value: SQLValue) { self = value }

    /// What kind of value it is, for messages (never the value).
    var kindName: String {
        switch self {
        case .null: return "NULL"
        case .integer: return "an integer"
        case .real: return "a number"
        case .text: return "text"
        case .timestamp: return "a time"
        case .bool: return "a boolean"
        case .blob: return "bytes"
        }
    }
}

extension String: CatalogValue {
    package var sqlValue: SQLValue { .text(self) }
    package init?(catalog value: SQLValue) {
        switch value {
        case .text(let t), .timestamp(let t): self = t
        case .blob(let d): self = String(decoding: d, as: UTF8.self)
        default: return nil
        }
    }
}

extension Int64: CatalogValue {
    package var sqlValue: SQLValue { .integer(self) }
    package init?(catalog value: SQLValue) {
        switch value {
        case .integer(let i): self = i
        case .bool(let b): self = b ? 1 : 0
        case .real(let d): guard let i = Int64(exactly: d) else { return nil }; self = i
        default: return nil
        }
    }
}

extension Int: CatalogValue {
    package var sqlValue: SQLValue { .integer(Int64(self)) }
    package init?(catalog value: SQLValue) {
        guard let i = Int64(catalog: value) else { return nil }
        self = Int(i)
    }
}

extension Double: CatalogValue {
    package var sqlValue: SQLValue { .real(self) }
    package init?(catalog value: SQLValue) {
        switch value {
        case .real(let d): self = d
        case .integer(let i): self = Double(i)
        default: return nil
        }
    }
}

extension Bool: CatalogValue {
    package var sqlValue: SQLValue { .bool(self) }
    package init?(catalog value: SQLValue) {
        switch value {
        case .bool(let b): self = b
        case .integer(let i): self = i != 0
        case .real(let d): self = d != 0
        default: return nil
        }
    }
}

extension Data: CatalogValue {
    package var sqlValue: SQLValue { .blob(self) }
    package init?(catalog value: SQLValue) {
        switch value {
        case .blob(let d): self = d
        case .text(let t): self = Data(t.utf8)
        default: return nil
        }
    }
}

extension Date: CatalogValue {
    /// A time is stored as UTC text `YYYY-MM-DD HH:MM:SS.SSS` (milliseconds,
    /// truncated), the format GRDB has always written to the SQLite catalog;
    /// PostgreSQL reads it into a `timestamp(3)`.
    package var sqlValue: SQLValue { .timestamp(CatalogTime.text(self)) }
    package init?(catalog value: SQLValue) {
        switch value {
        case .text(let t), .timestamp(let t):
            guard let d = CatalogTime.date(t) else { return nil }
            self = d
        case .integer(let i): self = Date(timeIntervalSince1970: Double(i))
        case .real(let d): self = Date(timeIntervalSince1970: d)
        default: return nil
        }
    }
}

extension Optional: CatalogValue where Wrapped: CatalogValue {
    package var sqlValue: SQLValue { self?.sqlValue ?? .null }
    package init?(catalog value: SQLValue) {
        if case .null = value { self = .none; return }
        guard let w = Wrapped(catalog: value) else { return nil }
        self = .some(w)
    }
}

/// The catalog's text form of a point in time (UTC).
package enum CatalogTime {
    /// `YYYY-MM-DD HH:MM:SS.SSS`, milliseconds truncated (as GRDB's formatter
    /// does); the time is first rounded to the microsecond, so that a time
    /// read back from the catalog (`….123` held as `….122999…`) is written
    /// again as it was.
    package static func text(_ date: Date) -> String {
        let us = Int64(((date.timeIntervalSinceReferenceDate + 978_307_200) * 1_000_000).rounded())
        return text(millisecondsSince1970: floorDiv(us, 1000))
    }

    /// `YYYY-MM-DD HH:MM:SS.SSS` of a time in milliseconds since 1970 (UTC).
    package static func text(millisecondsSince1970 ms: Int64) -> String {
        let (seconds, milli) = (floorDiv(ms, 1000), ms - floorDiv(ms, 1000) * 1000)
        let days = floorDiv(seconds, 86_400)
        let inDay = seconds - days * 86_400
        let (y, m, d) = civil(days)
        return String(format: "%04lld-%02lld-%02lld %02lld:%02lld:%02lld.%03lld",
                      y, m, d, inDay / 3600, inDay % 3600 / 60, inDay % 60, milli)
    }

    /// Parses `YYYY-MM-DD`, optionally followed by ` HH:MM`, `:SS` and a
    /// fraction (a space or `T` between; a trailing `Z` allowed), as UTC.
    package static func date(_ text: String) -> Date? {
        var digits = Array(text.utf8)
        if digits.last == UInt8(ascii: "Z") { digits.removeLast() }
        func number(_ range: Range<Int>) -> Int64? {
            guard range.upperBound <= digits.count else { return nil }
            var n: Int64 = 0
            for c in digits[range] {
                guard c >= 48 && c <= 57 else { return nil }
                n = n * 10 + Int64(c - 48)
            }
            return n
        }
        guard digits.count >= 10, digits[4] == UInt8(ascii: "-"), digits[7] == UInt8(ascii: "-"),
              let y = number(0..<4), let m = number(5..<7), let d = number(8..<10), (1...12).contains(m), (1...31).contains(d) else {
            return nil
        }
        var seconds = days(y, m, d) * 86_400
        var fraction = 0.0
        if digits.count > 10 {
            guard digits[10] == UInt8(ascii: " ") || digits[10] == UInt8(ascii: "T"), digits.count >= 16, digits[13] == UInt8(ascii: ":"),
                  let h = number(11..<13), let min = number(14..<16), h < 24, min < 60 else { return nil }
            seconds += h * 3600 + min * 60
            if digits.count > 16 {
                guard digits.count >= 19, digits[16] == UInt8(ascii: ":"), let s = number(17..<19), s < 62 else { return nil }
                seconds += s
                if digits.count > 19 {
                    guard digits[19] == UInt8(ascii: "."), digits.count > 20, let f = number(20..<digits.count) else { return nil }
                    fraction = Double(f) / pow(10, Double(digits.count - 20))
                }
            }
        }
        return Date(timeIntervalSince1970: Double(seconds) + fraction)
    }

    private static func floorDiv(_ a: Int64, _ b: Int64) -> Int64 { a >= 0 ? a / b : -((-a + b - 1) / b) }

    /// Days since 1970-01-01 of a proleptic Gregorian date (H. Hinnant's algorithm).
    private static func days(_ y0: Int64, _ m: Int64, _ d: Int64) -> Int64 {
        let y = m <= 2 ? y0 - 1 : y0
        let era = floorDiv(y, 400)
        let yoe = y - era * 400
        let doy = (153 * (m > 2 ? m - 3 : m + 9) + 2) / 5 + d - 1
        let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy
        return era * 146_097 + doe - 719_468
    }

    /// The date of a day number (the inverse of `days`).
    private static func civil(_ z0: Int64) -> (Int64, Int64, Int64) {
        let z = z0 + 719_468
        let era = floorDiv(z, 146_097)
        let doe = z - era * 146_097
        let yoe = (doe - doe / 1460 + doe / 36524 - doe / 146_096) / 365
        let doy = doe - (365 * yoe + yoe / 4 - yoe / 100)
        let mp = (5 * doy + 2) / 153
        let d = doy - (153 * mp + 2) / 5 + 1
        let m = mp < 10 ? mp + 3 : mp - 9
        return (yoe + era * 400 + (m <= 2 ? 1 : 0), m, d)
    }
}

/// `count` placeholders for an `IN (…)` list: `?, ?, ?`.
func placeholders(_ count: Int) -> String {
    Array(repeating: "?", count: count).joined(separator: ", ")
}
