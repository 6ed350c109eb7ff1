import CPhotoEditShim
import CVips
import Foundation

/// The `denoise` filter's pixel work (Sources/CPhotoEditShim/photoedit_denoise.c):
/// variance stabilisation by the noise model, à-trous wavelet shrinkage of
/// luminance and colour, inverse transform; and the estimate of a noise
/// model from a photo's flat regions.
enum Denoiser {
    /// Settings of one run (each 0…1 but the strengths, 0…1.5).
    struct Settings: Sendable {
        var luma = 0.0, lumaDetail = 0.5, lumaContrast = 0.0
        var chroma = 0.0, chromaDetail = 0.5, chromaSmoothness = 0.5
    }

    /// Threads for the pixel passes (the machine's cores, at most 16).
    static var threads: Int { min(16, max(1, ProcessInfo.processInfo.activeProcessorCount)) }

    /// Denoises a 3-band linear float image with `model` (nil: estimated
    /// from the image itself). The image is computed into memory once.
    /// With `matrix` (a RAW's camera RGB → working space, row-major 3×3),
    /// the result is then turned by it and clipped to 0…1, as libraw's own
    /// conversion does, and comes out in the working space (scRGB).
    /// `scale` is the image's size against the full-size photo (a preview's
    /// is below 1): the wavelet scales follow the full size's, so the
    /// full render's finest scales, below the reduced image's pixels, are
    /// skipped and a preview looks like the full render reduced.
    static func apply(_ image: Image, model: NoiseModel?, settings: Settings, scale: Double = 1, matrix: [Double]? = nil) throws -> Image {
        let input = try image.formatName == "float" ? image : image.cast("float")
        guard input.bands == 3 else { throw PhotoEditError.native(library: "photoedit", operation: "denoise", message: "needs 3 bands, got \(input.bands)") }
        let interpretation = input.interpretationName
        var length = 0
        guard let raw = vips_image_write_to_memory(input.pointer, &length) else { throw Vips.error("write_to_memory") }
        defer { g_free(raw) }
        let pixels = raw.assumingMemoryBound(to: Float.self)
        let width = input.width, height = input.height
        guard length == width * height * 3 * MemoryLayout<Float>.size else {
            throw PhotoEditError.native(library: "photoedit", operation: "denoise", message: "unexpected buffer size")
        }
        let used = try model ?? estimate(pixels: pixels, width: width, height: height).model
        var s = pe_denoise_settings()
        _ = withUnsafeMutableBytes(of: &s.a) { $0.bindMemory(to: Double.self).update(from: used.a) }
        _ = withUnsafeMutableBytes(of: &s.b) { $0.bindMemory(to: Double.self).update(from: used.b) }
        s.luma = settings.luma; s.luma_detail = settings.lumaDetail; s.luma_contrast = settings.lumaContrast
        s.chroma = settings.chroma; s.chroma_detail = settings.chromaDetail; s.chroma_smoothness = settings.chromaSmoothness
        s.scale = scale.isFinite ? min(1, max(0, scale)) : 1
        s.threads = Int32(threads)
        guard pe_denoise_rgb(pixels, Int32(width), Int32(height), &s) == 0 else {
            throw PhotoEditError.native(library: "photoedit", operation: "denoise", message: "out of memory for \(width)×\(height) pixels")
        }
        if let matrix {
            precondition(matrix.count == 9)
            matrix.withUnsafeBufferPointer { pe_denoise_matrix(pixels, width * height, $0.baseAddress, Int32(threads)) }
        }
        guard let out = vips_image_new_from_memory_copy(raw, length, Int32(width), Int32(height), 3, VIPS_FORMAT_FLOAT) else {
            throw Vips.error("new_from_memory_copy")
        }
        return try Image(owning: out).call("copy", [("interpretation", .string(matrix == nil ? interpretation : "scrgb"))])
    }

    /// A noise model estimated from the flattest 16 × 16 blocks of a 3-band
    /// linear image (decoded whole), and how many blocks per channel said it.
    static func estimate(_ image: Image) throws -> (model: NoiseModel, blocks: Int) {
        let input = try image.formatName == "float" ? image : image.cast("float")
        var length = 0
        guard let raw = vips_image_write_to_memory(input.pointer, &length) else { throw Vips.error("write_to_memory") }
        defer { g_free(raw) }
        return try estimate(pixels: raw.assumingMemoryBound(to: Float.self), width: input.width, height: input.height)
    }

    private static func estimate(pixels: UnsafePointer<Float>, width: Int, height: Int) throws -> (model: NoiseModel, blocks: Int) {
        var a = [0.0, 0.0, 0.0], b = [0.0, 0.0, 0.0]
        let blocks = a.withUnsafeMutableBufferPointer { pa in
            b.withUnsafeMutableBufferPointer { pb in
                pe_denoise_estimate(pixels, Int32(width), Int32(height), pa.baseAddress, pb.baseAddress)
            }
        }
        return (NoiseModel(a: a, b: b), Int(blocks))
    }
}
