import CPhotoEditShim

/// A render reduced while the engine wrote it: an area average of it
/// (`pe_reducing_pass`; each pixel the mean of the render's pixels under
/// it, weighted by how much of each is), its preview made without keeping
/// or decoding the full-size pixels.
struct RenderReduction {
    /// The reduced pixels, in memory, the render's bands and interpretation.
    let image: Image
    /// The size of the render it was reduced from.
    let width: Int, height: Int
}

extension Image {
    /// This 8-bit image handed on unchanged to whatever reads it (an
    /// encoder), its pixels added into a `width` × `height` area average on
    /// the way (1 to 60 pixels per reduced pixel along each side);
    /// `reduction()` gives it once the image was read.
    func reducingPass(width: Int, height: Int) throws -> Image {
        guard let out = pe_reducing_pass(pointer, Int32(width), Int32(height)) else { throw Vips.error("reducing pass") }
        return Image(owning: out)
    }

    /// The area average of a `reducingPass`, if every pixel went through it
    /// exactly once (an encoder read it whole); nil otherwise.
    func reduction() -> RenderReduction? {
        guard let out = pe_reduction_of(pointer) else {
            _ = Vips.takeError()
            return nil
        }
        return RenderReduction(image: Image(owning: out), width: width, height: height)
    }
}
