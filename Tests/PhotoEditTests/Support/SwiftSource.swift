import Foundation

/// Swift source read as text by the tests that check the package's shape
/// (ServiceDependencyTests, PackageHygieneTests).
enum SwiftSource {
    /// Code without comments and string literals (so a doc comment or a
    /// message that names a type is not a use of it), one entry per line.
    static func code(_ source: String) -> [String] {
        var text = source.replacing(/"""[\s\S]*?"""/, with: "\"\"")
        text = text.replacing(/\/\*[\s\S]*?\*\//, with: "")
        return text.split(separator: "\n", omittingEmptySubsequences: false).map { line in
            var out = String(line)
            if out.contains("\"") { out = out.replacing(/"(?:[^"\\]|\\.)*"/, with: "\"\"") }
            if let comment = out.range(of: "//") { out = String(out[..<comment.lowerBound]) }
            return out
        }
    }

    /// The first word of `line` that is one of `words` (whole: no letter,
    /// digit or `_` on either side; `Alpha.self` names `Alpha`).
    static func word(of words: [String], in line: String) -> String? {
        let isPart = { (c: Character) in c.isLetter || c.isNumber || c == "_" }
        for word in words {
            var from = line.startIndex
            while let r = line.range(of: word, range: from..<line.endIndex) {
                let before = r.lowerBound == line.startIndex ? nil : line[line.index(before: r.lowerBound)]
                let after = r.upperBound == line.endIndex ? nil : line[r.upperBound]
                if !(before.map(isPart) ?? false) && !(after.map(isPart) ?? false) { return word }
                from = r.upperBound
            }
        }
        return nil
    }

    /// Every `.swift` file under `folder` of the package (e.g. "Sources/PhotoEdit"):
    /// its path from the package root and its text, sorted by path.
    static func files(under folder: String) throws -> [(path: String, content: String)] {
        let root = Paths.root.appendingPathComponent(folder)
        let paths = try FileManager.default.subpathsOfDirectory(atPath: root.path).filter { $0.hasSuffix(".swift") }.sorted()
        return try paths.map { (folder + "/" + $0, try String(contentsOf: root.appendingPathComponent($0), encoding: .utf8)) }
    }
}
