import Foundation

/// Exporting: a photo's current version as a file shaped by
/// `ExportSettings` (this file), export presets (ExportPresets.swift) and
/// batch exports (BatchExport.swift). It reads the library and writes only
/// into the folder it is given.
struct Exporting: LibraryService, FilesUser, RenderUser {
    let catalogPart: CatalogPart
    let filesPart: FilesPart
    let renderPart: RenderPart
    let registry: FilterRegistry
    let queries: Queries
}

extension Exporting {
    /// The current version of `idOrPrefix`, exported (the façade's `exportImage`).
    func exportImage(_ idOrPrefix: String, settings: ExportSettings) throws -> ExportedImage {
        try settings.validate()
        let id = try resolve(idOrPrefix)
        let (image, metadata) = try sourceImage(id, settings: settings)
        return try ExportEncoder.finish(image, settings: settings, metadata: metadata)
    }

    /// The version's pixels at the export's size (or full size, when the
    /// encoder resizes), in the output colour space, with the metadata the
    /// policy may draw from.
    func sourceImage(_ id: String, settings: ExportSettings) throws -> (Image, ExportMetadata) {
        let subject = try imageSubject(id, version: .current)
        let full = subject.fullSize
        let target = settings.size.pixels(width: full.width, height: full.height, enlarge: settings.enlarge)
        let defaultColour = settings.profile == .sRGB && settings.intent == .relative && settings.bitDepth == 8
        let lossless = settings.format.isAlwaysLossless || settings.lossless
        let image: Image
        if defaultColour && !(lossless && subject.showsAdjustments) {
            // As an image request: the stored render (or the original) with
            // shrink-on-load, resized once to the export's size.
            let shrink = target.width <= full.width && target.height <= full.height
            let geometry = ImageGeometry(fullWidth: full.width, fullHeight: full.height,
                                         target: shrink ? ImageSize(width: target.width, height: target.height) : ImageSize(width: full.width, height: full.height),
                                         contentMode: .aspectFit, resizeMode: .exact, crop: nil)
            image = try ImagePipeline.image(from: try ImagePipeline.finalSource(subject, registry: registry, renderer: renderer), geometry: geometry, resizeMode: .exact)
        } else {
            // From the recipe: another colour space or depth, or a lossless
            // file of an edit (never a decoded JPEG render).
            let output = RenderOptions(profile: settings.profile, intent: settings.intent, bitDepth: settings.bitDepth)
            if subject.showsAdjustments {
                guard let data = subject.adjustmentData, Recipe.canHandle(data) else {
                    throw PhotoEditError.library("photo \(id) was edited by another tool ('\(subject.adjustmentData?.formatIdentifier ?? "?")'); only its stored JPEG render can be exported: use 8-bit sRGB and a lossy format")
                }
                let recipe = try Recipe(adjustmentData: data, registry: registry)
                image = try renderer.render(recipe: recipe, originalPath: subject.basePath ?? subject.originalPath, output: output)
            } else {
                image = try renderer.render(recipe: .empty, originalPath: subject.rawPath ?? subject.originalPath, output: output)
            }
        }
        return (image, try metadata(subject))
    }

    /// The original's EXIF and the library's descriptive metadata.
    func metadata(_ subject: ImageSubject) throws -> ExportMetadata {
        try metadata(subject, exif: ExportMetadata.originalExif(subject))
    }

    /// `exif` (the original's) and the library's descriptive metadata.
    func metadata(_ subject: ImageSubject, exif: Data?) throws -> ExportMetadata {
        let asset = try queries.asset(subject.id)
        let descriptive = DescriptiveMetadata(rating: asset.rating == 0 ? nil : asset.rating, keywords: asset.keywords.isEmpty ? nil : asset.keywords,
                                              title: asset.title, caption: asset.caption)
        return ExportMetadata(exif: exif, descriptive: descriptive)
    }

    /// Writes the export of `idOrPrefix` to `path`: staged beside it, then
    /// renamed (never half-written).
    func export(_ idOrPrefix: String, settings: ExportSettings, to path: String) throws -> ExportedImage {
        let folder = (path as NSString).deletingLastPathComponent
        guard folder.isEmpty || FileIO.isDirectory(folder) else {
            throw PhotoEditError.invalidOutput("cannot write \(path): folder \(folder) does not exist")
        }
        let result = try exportImage(idOrPrefix, settings: settings)
        try Exporting.write(result.data, to: path, attribute: nil)
        return result
    }
}
