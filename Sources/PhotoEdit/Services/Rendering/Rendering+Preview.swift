import Foundation
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

extension Rendering {
    /// A preview of an uncommitted edit (the façade's `preview(_:steps:longEdge:reset:presets:quality:)`).
    func preview(_ idOrPrefix: String, steps: [ChainStep], longEdge: Int, reset: Bool = false,
                        presets: PresetLibrary? = nil, quality: Int = 85) throws -> RenderedImage {
        guard (16...8192).contains(longEdge) else { throw PhotoEditError.invalidOutput("a preview's long edge must be 16…8192 pixels (got \(longEdge))") }
        guard (1...100).contains(quality) else { throw PhotoEditError.invalidOutput("quality \(quality) is out of range (1…100)") }
        let id = try resolve(idOrPrefix)
        let registry = self.registry
        let canHandle: @Sendable (AdjustmentData) -> Bool = { Recipe.canHandle($0) && (try? Recipe(adjustmentData: $0, registry: registry)) != nil }
        let input = try editing.requestContentEditingInput(for: id, options: ContentEditingInputRequestOptions(
            canHandleAdjustmentData: canHandle, startFromOriginal: reset, displaySize: nil))
        var recipe: Recipe
        if let data = input.adjustmentData, input.canHandleAdjustmentData, !reset {
            recipe = try Recipe(adjustmentData: data, registry: registry)
        } else {
            recipe = input.base == .original ? .empty : .emptyOnRender
        }
        let base = input.fullSizeImageURL.path
        recipe = try Chain.apply(steps, to: recipe.rebased(input.base.recipeBase, registry: registry), registry: registry, presets: presets,
                                 developsRaw: Renderer.isRaw(base),
                                 auto: { try self.editing.autoAdjustment(base: base, recipe: $0).applied(to: $0, registry: registry) },
                                 upright: { try self.editing.uprightAdjustment(base: base, recipe: $0, id: id, mode: $1.mode)
                                     .applied(to: $0, registry: registry, constrain: $1.constrain) })
        recipe = try editing.identifyingLens(recipe, id: id)

        let path = input.fullSizeImageURL.path
        let definitions = try recipe.nodes.map { try registry.require($0.filter) }
        var working: Image
        let scale: Double
        var denoised = false
        if Renderer.isRaw(path) {
            (working, scale, denoised) = try renderer.rawPreview(path: path, recipe: recipe, longEdge: longEdge)
        } else {
            let decoded = try renderPart.previewBases.base(path: path, longEdge: longEdge)
            scale = decoded.scale
            working = try renderer.workingImage(upright: decoded.image)
        }
        let context = RenderContext(scale: scale)
        for (definition, node) in zip(definitions, recipe.nodes) where !(denoised && definition.id == Filters.denoise.id) {
            working = try definition.renderer(for: node.version)(working, node.parameters, context)
        }
        // A preview is a working image, not a delivery: no EXIF, IPTC or
        // XMP of the original (its location above all); the ICC profile stays.
        let output = try ExportEncoder.withMetadata(try renderer.outputImage(working), nil, policy: .none)
        let data = ExportContainers.jpegWithoutExif(try output.encoded(format: "jpeg", options: [("Q", .number(Double(quality)))]))
        return RenderedImage(width: output.width, height: output.height, data: data)
    }
}

/// The last few preview bases decoded (``PhotoLibrary/preview(_:steps:longEdge:reset:presets:quality:)``),
/// so a slider's next preview of the same photo starts from pixels in
/// memory instead of decoding the file again. Keyed by the base file's
/// path and the long edge asked for; a base file never changes under its
/// name (originals are never modified, renders have unique names), and its
/// size and modification time are part of the key all the same. Bounded:
/// `capacity` bases of at most 8192² pixels, typically 1440 px (4 MB each).
final class PreviewBases: Sendable {
    struct Base: Sendable {
        /// The decoded, upright base in memory (libvips images are immutable).
        let image: Image
        /// Its long edge over the file's.
        let scale: Double
    }
    private struct Key: Hashable {
        let path: String
        let longEdge: Int
        let size: Int64
        let modified: Int64
    }
    private let entries = Mutex<[(key: Key, base: Base)]>([])
    let capacity: Int

    init(capacity: Int = 4) {
        self.capacity = capacity
    }

    /// How many bases are kept now.
    var count: Int { entries.withLock { $0.count } }

    /// The base of `path` decoded to fit `longEdge` (libvips' thumbnail:
    /// JPEG and WebP shrink while decoding), from memory when it was the
    /// base of a recent preview.
    func base(path: String, longEdge: Int) throws -> Base {
        var info = stat()
        let statted = stat(path, &info) == 0
        let key = Key(path: path, longEdge: longEdge, size: statted ? Int64(info.st_size) : -1,
                      modified: statted ? Int64(info.st_mtim.tv_sec) * 1_000_000_000 + Int64(info.st_mtim.tv_nsec) : -1)
        if let hit = entries.withLock({ entries -> Base? in
            guard let i = entries.firstIndex(where: { $0.key == key }) else { return nil }
            let entry = entries.remove(at: i)
            entries.append(entry)
            return entry.base
        }) { return hit }
        let header = try Image.load(path: path, sequential: true)
        let fullLong = max(header.width, header.height)
        let thumbnail = try Vips.image("thumbnail", [
            ("filename", .string(path)), ("width", .number(Double(longEdge))), ("height", .number(Double(longEdge))),
            ("size", .string("down")), ("fail_on", .string("truncated")),
        ])
        // In memory (at most longEdge², small): filters that read around a
        // pixel (sharpen, clarity) read out of order, which the thumbnail's
        // sequential decode refuses ("out of order read").
        let base = Base(image: try thumbnail.inMemory(), scale: Double(max(thumbnail.width, thumbnail.height)) / Double(fullLong))
        guard statted, capacity > 0 else { return base }
        entries.withLock { entries in
            entries.removeAll { $0.key == key }
            entries.append((key, base))
            if entries.count > capacity { entries.removeFirst(entries.count - capacity) }
        }
        return base
    }
}
