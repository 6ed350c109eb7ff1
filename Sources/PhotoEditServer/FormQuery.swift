// Only with the `Server` trait (Package.swift): without it the module is empty.
#if Server
import Foundation
import Hummingbird

extension Request {
    /// The query string read as `application/x-www-form-urlencoded`, as
    /// browsers (`URLSearchParams`, forms) and HTTP libraries (Python's
    /// `requests`, `urllib.parse.urlencode`) write it: `+` is a space,
    /// `%2B` a plus, and keys are decoded as values are.
    func formQuery() -> Hummingbird.Parameters {
        FormQuery.parse(uri.query ?? "")
    }
}

/// Parsing of form-encoded query strings (see `Request.formQuery`), as the
/// WHATWG URL standard's `application/x-www-form-urlencoded` parser does it.
enum FormQuery {
    /// The key–value pairs of `query`, in order (a key without `=` has the empty value).
    static func parse(_ query: String) -> Hummingbird.Parameters {
        var pairs: [(key: Substring, value: Substring)] = []
        for item in query.split(separator: "&", omittingEmptySubsequences: true) {
            let parts = item.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            let value = parts.count > 1 ? decode(parts[1]) : ""
            pairs.append((key: Substring(decode(parts[0])), value: Substring(value)))
        }
        return Hummingbird.Parameters(pairs)
    }

    /// One form-encoded component: `+` is a space, `%XX` the byte XX; a `%`
    /// not followed by two hex digits stays as it is (as in browsers and
    /// Python), so the parameter's own check names what is wrong with it.
    static func decode(_ text: Substring) -> String {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(text.utf8.count)
        let utf8 = Array(text.utf8)
        var i = 0
        while i < utf8.count {
            let byte = utf8[i]
            if byte == UInt8(ascii: "+") {
                bytes.append(UInt8(ascii: " "))
            } else if byte == UInt8(ascii: "%"), i + 2 < utf8.count, let high = hexValue(utf8[i + 1]), let low = hexValue(utf8[i + 2]) {
                bytes.append(high << 4 | low)
                i += 2
            } else {
                bytes.append(byte)
            }
            i += 1
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
        default: nil
        }
    }
}
#endif
