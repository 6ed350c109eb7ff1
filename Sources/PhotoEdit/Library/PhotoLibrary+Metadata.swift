import Foundation

/// Ratings, colour labels, keywords, titles and captions: read from XMP at
/// import (embedded, and sidecar files beside the imported file), stored in
/// the catalog, changed through `performChanges` (each change is a change
/// feed entry), queried with `rating>=4`, `keyword="Trips/Iceland"`, ….
extension PhotoLibrary {
    /// Rates photos: 1–5 stars, 0 unrated, −1 rejected (`Rating.rejected`).
    /// All photos change in one commit, or none (an unknown id or a rating
    /// out of range changes nothing).
    public func setRating(_ rating: Int, of ids: [String]) throws {
        try changeEach(ids) { try $0.setRating(rating) }
    }

    /// Sets the colour label of photos (nil: removes it), in one commit.
    public func setColorLabel(_ label: ColorLabel?, of ids: [String]) throws {
        try changeEach(ids) { try $0.setColorLabel(label) }
    }

    /// Adds keywords (photoedit's syntax: `Trips/Iceland`, see `Keyword`)
    /// to photos, in one commit. Keywords a photo has already stay as they are.
    public func addKeywords(_ keywords: [String], to ids: [String]) throws {
        try changeEach(ids) { try $0.addKeywords(keywords) }
    }

    /// Removes keywords from photos (ignoring ASCII case; only the keyword
    /// named, not those below it), in one commit.
    public func removeKeywords(_ keywords: [String], from ids: [String]) throws {
        try changeEach(ids) { try $0.removeKeywords(keywords) }
    }

    /// Sets the title of photos (nil or empty: removes it), in one commit.
    public func setTitle(_ title: String?, of ids: [String]) throws {
        try changeEach(ids) { try $0.setTitle(title) }
    }

    /// Sets the caption of photos (nil or empty: removes it), in one commit.
    public func setCaption(_ caption: String?, of ids: [String]) throws {
        try changeEach(ids) { try $0.setCaption(caption) }
    }

    /// Every keyword in the library with the number of photos that have it
    /// (recently deleted ones included), sorted ignoring ASCII case.
    public func keywordCounts() throws -> [(keyword: String, count: Int)] { try queries.keywordCounts() }

    /// Resolves every id first, then changes each photo in one commit.
    private func changeEach(_ ids: [String], _ change: (AssetChangeRequest) throws -> Void) throws {
        let resolved = try ids.map { try resolve($0) }
        try performChanges { changes in
            for id in resolved { try change(try changes.changeRequest(for: id)) }
        }
    }
}
