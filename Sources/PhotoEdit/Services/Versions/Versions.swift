import Foundation

/// Versions: many versions of one photo — virtual copies (a photo of its
/// own sharing its master's original), named snapshots of a photo's
/// revisions, presets saved from an edit and selective sync of a recipe's
/// groups onto other photos. Every change goes through Committing.
struct Versions: LibraryService {
    let parts: LibraryParts

    /// The longest name a copy or a snapshot may have, in characters.
    static let maxNameLength = 200

    /// A copy's or a snapshot's name, trimmed: 1–200 characters on one line,
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

extension LibraryService {
    var versions: Versions { Versions(parts: parts) }
}
