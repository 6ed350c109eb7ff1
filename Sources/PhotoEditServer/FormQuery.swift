import Foundation
import Hummingbird

extension Request {
    /// The query string read as `application/x-www-form-urlencoded`, as
    /// browsers (`URLSearchParams`, forms) and HTTP libraries (Python's
    /// `requests`, `urllib.parse.urlencode`) write it: `+` is a space,
    /// `%2B` a plus, and keys are decoded as values are. A malformed
    /// percent escape is a 400 naming the parameter.
    func formQuery() throws -> Hummingbird.Parameters {
        try FormQuery.parse(uri.query ?? "")
    }
}

/// Parsing of form-encoded query strings (see `Request.formQuery`).
enum FormQuery {
    /// The key–value pairs of `query`, in order (a key without `=` has the empty value).
    static func parse(_ query: String) throws -> Hummingbird.Parameters {
        var pairs: [(key: Substring, value: Substring)] = []
        for item in query.split(separator: "&", omittingEmptySubsequences: true) {
            let parts = item.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            let key = try decode(parts[0], name: nil)
            let value = parts.count > 1 ? try decode(parts[1], name: key) : ""
            pairs.append((key: Substring(key), value: Substring(value)))
        }
        return Hummingbird.Parameters(pairs)
    }

    /// One form-encoded component: `+` → space, then percent escapes.
    static func decode(_ text: Substring, name: String?) throws -> String {
        let spaced = text.replacingOccurrences(of: "+", with: " ")
        guard let decoded = spaced.removingPercentEncoding else {
            let what = name.map { "the value of '\(String($0.prefix(64)))'" } ?? "a parameter name"
            throw Problem(.badRequest, code: "invalid-parameter", "\(what) has a malformed percent escape (%XX with two hex digits)")
        }
        return decoded
    }
}
