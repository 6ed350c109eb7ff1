import Foundation

/// Export (docs/export.md): a photo's current version as a file shaped by
/// `ExportSettings` — format, size, output sharpening, watermark, metadata
/// policy, max-bytes — export presets, and batch exports.
extension PhotoLibrary {

    /// The current version of a photo, exported in memory.
    ///
    /// - Throws: `PhotoEditError.invalidOutput` for settings that cannot be
    ///   met (an unreadable watermark, a max-bytes limit no quality reaches),
    ///   `.unknownAsset`, or the C library's error.
    public func exportImage(_ idOrPrefix: String, settings: ExportSettings) throws -> ExportedImage {
        try exporting.exportImage(idOrPrefix, settings: settings)
    }

    /// Writes the export of a photo to `path` (staged, then renamed: an
    /// interrupted export leaves no half-written file). The format is the
    /// settings', whatever the extension.
    @discardableResult
    public func export(_ idOrPrefix: String, settings: ExportSettings, to path: String) throws -> ExportedImage {
        try exporting.export(idOrPrefix, settings: settings, to: path)
    }

    /// Exports photos into `folder`, several at a time (every core), named
    /// by the settings' template. A photo that fails is reported in its
    /// item and the others are still written; a file already holding the
    /// same photo, revision and settings is skipped unless `force`; a file
    /// this exporter did not write for the same photo is never replaced
    /// (the name gets `-2`, `-3`…). Every id is checked first.
    public func exportBatch(_ ids: [String], settings: ExportSettings, to folder: String, force: Bool = false,
                            progress: ProgressHandler? = nil) throws -> [ExportBatchItem] {
        try exporting.exportBatch(ids, settings: settings, to: folder, force: force, progress: progress)
    }

    /// The built-in export presets, then the library's (`export-presets/NAME.json`).
    public func exportPresets() throws -> [ExportPreset] { try exporting.exportPresets() }

    /// The export preset called `name`.
    public func exportPreset(_ name: String) throws -> ExportPreset { try exporting.exportPreset(name) }

    /// Stores an export preset in the library (a name in use is refused).
    @discardableResult
    public func addExportPreset(named name: String, summary: String = "", settings: ExportSettings) throws -> ExportPreset {
        try exporting.addExportPreset(named: name, summary: summary, settings: settings)
    }

    /// Removes a stored export preset (built-in ones cannot be removed).
    public func removeExportPreset(named name: String) throws { try exporting.removeExportPreset(named: name) }
}
