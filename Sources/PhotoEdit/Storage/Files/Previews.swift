import Foundation
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// Previews: a smaller JPEG of each large file a photo shows (an original,
/// a RAW's neutral development, a revision's render), stored beside it in
/// the library's files (`previews/<the file's path>.jpg`) so that every
/// node of a distributed library shares them.
///
/// Image requests (thumbnails, the server's render URLs) whose result fits
/// inside the preview are made from it instead of decoding the whole
/// original: a 24 MP JPEG costs ~120 ms of entropy decoding even with
/// shrink-on-load, its 1440-pixel preview a few milliseconds. Photos and
/// Lightroom make such previews at import; so does photoedit, and at each
/// edit's commit. A preview is rebuildable: one that is missing (a library
/// from before previews, a crash between placing a render and its preview)
/// is made on first use, and `verify --repair` makes the missing ones and
/// removes those whose file is gone.
///
/// A result is always made from the preview when it fits inside it, never
/// sometimes from the preview and sometimes from the original: the same
/// request gives the same bytes (render URLs are immutable).
///
/// A lower part, not a service: Committing (at import and commit),
/// Maintenance (verify, recovery) and image requests (through the façade's
/// `storedPreview`) share it, and it reaches no service.
struct Previews: FilesUser, RenderUser {
    let catalogPart: CatalogPart
    let filesPart: FilesPart
    let renderPart: RenderPart
    let registry: FilterRegistry


    /// The preview's long edge, in pixels (Immich's preview size).
    static let longEdge = 1440
    /// JPEG quality of a preview.
    static let quality = 90

    /// The preview of `file` (relative to the library).
    static func path(of file: String) -> String { "previews/" + file + ".jpg" }

    /// The file a preview is of, nil for a path that is not a preview's.
    static func file(ofPreview preview: String) -> String? {
        guard preview.hasPrefix("previews/"), preview.hasSuffix(".jpg") else { return nil }
        let file = String(preview.dropFirst("previews/".count).dropLast(4))
        return file.isEmpty ? nil : file
    }

    /// Whether a file of this size (and kind) gets a preview: a RAW always
    /// (developing it is the slow part), anything else when its long edge
    /// is more than twice the preview's (smaller files decode with
    /// shrink-on-load about as fast as their preview would).
    static func wanted(width: Int, height: Int, raw: Bool) -> Bool {
        raw || max(width, height) > 2 * longEdge
    }

    /// The preview's size for a version of this size (aspect kept, never enlarged).
    static func size(width: Int, height: Int) -> (width: Int, height: Int) {
        let g = geometry(width: width, height: height)
        return (g.width, g.height)
    }

    static func geometry(width: Int, height: Int) -> ImageGeometry {
        ImageGeometry(fullWidth: width, fullHeight: height, target: ImageSize(width: longEdge, height: longEdge),
                      contentMode: .aspectFit, resizeMode: .exact, crop: nil)
    }

    /// Whether a result of geometry `g` can be made from the preview of a
    /// version of `g`'s full size: the whole version at the result's scale
    /// fits inside the preview.
    static func covers(_ g: ImageGeometry) -> Bool {
        let preview = size(width: g.fullWidth, height: g.fullHeight)
        let needed = g.scaledFullSize
        return needed.width <= preview.width && needed.height <= preview.height
    }

    /// Previews being made in this process: a second request for the same
    /// one waits for the first instead of making it again.
    static let inFlight = Mutex<[String: InFlightWork<String>]>([:])
}

extension Previews {
    /// A local path of the preview a result of geometry `g` of `s` can be
    /// made from, made now when it is missing; nil when the version has no
    /// preview (a small file, a missing render) or the result is larger
    /// than the preview.
    func storedPreview(for s: ImageSubject, covering g: ImageGeometry) throws -> String? {
        guard let file = s.shownFile else { return nil }
        let full = s.fullSize
        guard Previews.wanted(width: full.width, height: full.height, raw: s.rawFile != nil), Previews.covers(g) else { return nil }
        let relative = Previews.path(of: file)
        if let path = files.existingLocalPath(relative) { return path }
        // Only a library that can be written makes previews; a render that
        // is missing is rebuilt from its recipe by the caller, full size.
        if isReadOnly { return nil }
        if s.showsAdjustments, !((try? files.exists(file)) ?? false) { return nil }
        let (registry, renderer) = (self.registry, self.renderer)
        return try makePreview(of: file, width: full.width, height: full.height, raw: s.rawPath) {
            try ImagePipeline.finalSource(s, registry: registry, renderer: renderer)
        }
    }

    /// Makes and stores the preview of the library file `file` (a version
    /// of `width` × `height` pixels), when it gets one; returns its local
    /// path. `raw` is a local path of the RAW when the version is its
    /// neutral development. `source` gives the version's pixels (for a RAW,
    /// only used when its half-size development is smaller than the preview).
    @discardableResult
    func makePreview(of file: String, width: Int, height: Int, raw: String?,
                     source: () throws -> ImageSource) throws -> String? {
        guard Previews.wanted(width: width, height: height, raw: raw != nil) else { return nil }
        let relative = Previews.path(of: file)
        let key = layout.root.path + "\u{0}" + relative
        let (work, owner) = Previews.inFlight.withLock { table -> (InFlightWork<String>, Bool) in
            if let w = table[key] { return (w, false) }
            let w = InFlightWork<String>()
            table[key] = w
            return (w, true)
        }
        guard owner else { return try work.wait().get() }
        let result: Result<String, PhotoEditError>
        do {
            result = .success(try writePreview(relative, width: width, height: height, raw: raw, source: source))
        } catch let error as PhotoEditError {
            result = .failure(error)
        } catch {
            result = .failure(.library("\(error)"))
        }
        Previews.inFlight.withLock { _ = $0.removeValue(forKey: key) }
        work.finish(result)
        return try result.get()
    }

    private func writePreview(_ relative: String, width: Int, height: Int, raw: String?, source: () throws -> ImageSource) throws -> String {
        let g = Previews.geometry(width: width, height: height)
        let input: ImageSource
        if let raw, width / 2 >= g.width, height / 2 >= g.height {
            // The half-size development (no demosaicing: 4× faster) is at
            // least the preview's size.
            let renderer = self.renderer
            input = .image {
                var settings = RawSettings.neutral
                settings.halfSize = true
                return try renderer.outputImage(try RawDecoder.develop(raw, settings: settings))
            }
        } else {
            input = try source()
        }
        // During a burst of uploads the preview's pixels — its decode and
        // reduction, nearly all of its work — are computed by one thread on
        // the background lane (render hits get the cores first), and the
        // small JPEG is then encoded from memory. A lone import (or the CLI)
        // lets libvips' workers compute them while encoding: sooner alone
        // (a 24 MP upload 170-186 ms against 214-217 ms single-threaded).
        let pipeline = try ImagePipeline.image(from: input, geometry: g, resizeMode: .exact)
        let image = BlockingExecutor.bulkLaneIsBusy ? try BlockingExecutor.inBackground { try pipeline.materializedHere() } : pipeline
        let staged = layout.temporary(".jpg")
        defer { unlink(staged) }
        try Renderer.save(image, to: staged, format: .jpeg, quality: Previews.quality)
        try FileIO.flush(staged)
        try files.publish(staged, as: relative)
        return try files.localPath(relative)
    }

    /// Makes the preview of a file just staged for the library (an
    /// original being imported, a render being committed), from its local
    /// copy, before the file is moved into place; from `reduction` when
    /// given (the file's upright sRGB 8-bit pixels reduced while the engine
    /// encoded them: no decode). A preview that cannot be made is not an
    /// error: it is made on first use.
    func makePreview(ofStaged staged: String, as file: String, width: Int, height: Int, raw: Bool,
                     reduction: RenderReduction? = nil) {
        let renderer = self.renderer
        _ = try? makePreview(of: file, width: width, height: height, raw: raw ? staged : nil) {
            if let reduction { return .image { reduction.image } }
            return raw ? .image { try renderer.outputImage(try RawDecoder.develop(staged)) } : .file(staged)
        }
    }

    /// Whether photo `id`'s current version has its preview, or needs none.
    func hasPreview(_ id: String) throws -> Bool {
        let s = try imageSubject(id, version: .current)
        guard let file = s.shownFile else { return true }
        let full = s.fullSize
        guard Previews.wanted(width: full.width, height: full.height, raw: s.rawFile != nil) else { return true }
        return try files.exists(Previews.path(of: file))
    }

    /// Makes photo `id`'s current version's preview if it is missing;
    /// whether it has one afterwards (or needs none). Idempotent: a preview
    /// is made from its file, the same bytes each time.
    func ensurePreview(_ id: String) throws -> Bool {
        let s = try imageSubject(id, version: .current)
        let full = s.fullSize
        guard Previews.wanted(width: full.width, height: full.height, raw: s.rawFile != nil) else { return true }
        return try storedPreview(for: s, covering: Previews.geometry(width: full.width, height: full.height)) != nil
    }

    /// Removes a file of the library and its preview.
    func removeFileAndPreview(_ relative: String) {
        files.remove(relative)
        if relative.hasPrefix("originals/") || relative.hasPrefix("renders/") { files.remove(Previews.path(of: relative)) }
    }
}
