import Foundation

/// Rendering: pixels out of the library — the photo behind an image
/// request (`ImageSubject`), the stored previews (Rendering+Previews.swift),
/// a version written to a file (Rendering+Render.swift) and the preview of
/// an uncommitted edit (Rendering+Preview.swift). It writes nothing but
/// previews and derived files.
struct Rendering: LibraryService {
    let parts: LibraryParts
}

extension Rendering {
    /// The photo behind `idOrPrefix`, for the version asked.
    func imageSubject(_ idOrPrefix: String, version: ImageVersion) throws -> ImageSubject {
        let full = idOrPrefix.count == 32 && idOrPrefix.allSatisfy { $0.isHexDigit && !$0.isUppercase }
        let id = full ? idOrPrefix : try resolve(idOrPrefix)
        let (asset, revision) = try read { db -> (AssetRecord, RevisionRecord?) in
            guard let a = try db.asset(id) else { throw PhotoEditError.unknownAsset(idOrPrefix) }
            return (a, try db.revision(a.revision, of: id))
        }
        return ImageSubject(id: id, revision: asset.revision, version: version, format: asset.format,
                            originalFile: asset.originalPath,
                            originalWidth: asset.originalPixelWidth, originalHeight: asset.originalPixelHeight,
                            adjustmentData: revision?.adjustmentData, renderFile: revision?.renderPath,
                            baseFile: revision?.basePath,
                            currentWidth: revision?.pixelWidth ?? asset.originalPixelWidth,
                            currentHeight: revision?.pixelHeight ?? asset.originalPixelHeight,
                            alternateFile: asset.alternatePath, localize: { [self] in readablePath($0) })
    }
}

