import CPhotoEditShim

/// A render reduced while the engine wrote it: each pixel the mean of a
/// `block` × `block` block of the render (`pe_reducing_pass`), enough to
/// make its preview without keeping or decoding the full-size pixels.
struct RenderReduction {
    /// ceil(width / block) × ceil(height / block), in memory, the render's
    /// bands and interpretation.
    let image: Image
    /// The size of the render it was reduced from.
    let width: Int, height: Int
}

extension Image {
    /// This 8-bit image handed on unchanged to whatever reads it (an
    /// encoder), its pixels added into `block` × `block` sums on the way;
    /// `reduction()` gives their means once it was read.
    func reducingPass(block: Int) throws -> Image {
        guard let out = pe_reducing_pass(pointer, Int32(block)) else { throw Vips.error("reducing pass") }
        return Image(owning: out)
    }

    /// The block means of a `reducingPass`, if every pixel went through it
    /// exactly once (an encoder read it whole); nil otherwise.
    func reduction() -> RenderReduction? {
        guard let out = pe_reduction_of(pointer) else {
            _ = Vips.takeError()
            return nil
        }
        return RenderReduction(image: Image(owning: out), width: width, height: height)
    }
}
