import Foundation

/// Queries: reading the library — photos, revisions, albums, resources
/// and metadata; nothing it does writes.
struct Queries: LibraryService {
    let parts: LibraryParts

    func asset(_ idOrPrefix: String) throws -> Asset {
        try read { db in try Self.asset(try Self.assetRecord(idOrPrefix, db), db) }
    }

    func assets(includeHidden: Bool = false, includeDeleted: Bool = false, onlyDeleted: Bool = false) throws -> [Asset] {
        try fetchAssets(FetchOptions(predicate: onlyDeleted ? .has(.deleted) : nil, includeHiddenAssets: includeHidden,
                                     includeRecentlyDeleted: includeDeleted || onlyDeleted)).allObjects()
    }

    func history(_ idOrPrefix: String) throws -> [Revision] {
        try read { db in try db.revisions(of: try Self.resolve(idOrPrefix, db)).map(Self.revision) }
    }

    func currentRecipe(_ idOrPrefix: String) throws -> Recipe {
        let a = try asset(idOrPrefix)
        guard let data = a.adjustmentData else { return .empty }
        return try Recipe(adjustmentData: data, registry: registry)
    }

    func keywordCounts() throws -> [(keyword: String, count: Int)] {
        let rows = try read { db in
            try db.keywordCounts()
        }
        // Grouped again here: PostgreSQL groups by exact text, SQLite ignoring case.
        var counts: [String: (keyword: String, count: Int)] = [:]
        for (keyword, n) in rows {
            counts[Keyword.folded(keyword), default: (keyword, 0)].count += n
        }
        return counts.sorted { $0.key < $1.key }.map(\.value)
    }
}
