import Foundation

/// Queries: reading the library — photos, revisions, albums, resources
/// and metadata; nothing it does writes.
struct Queries: LibraryService, FilesUser {
    let catalogPart: CatalogPart
    let filesPart: FilesPart
    let registry: FilterRegistry

    func asset(_ idOrPrefix: String) throws -> Asset {
        try read { db in try CatalogModels.asset(try CatalogModels.assetRecord(idOrPrefix, db), db) }
    }

    func assets(includeHidden: Bool = false, includeDeleted: Bool = false, onlyDeleted: Bool = false) throws -> [Asset] {
        try fetchAssets(FetchOptions(predicate: onlyDeleted ? .has(.deleted) : nil, includeHiddenAssets: includeHidden,
                                     includeRecentlyDeleted: includeDeleted || onlyDeleted)).allObjects()
    }

    func history(_ idOrPrefix: String) throws -> [Revision] {
        try read { db in try db.revisions(of: try CatalogModels.resolve(idOrPrefix, db)).map(CatalogModels.revision) }
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
