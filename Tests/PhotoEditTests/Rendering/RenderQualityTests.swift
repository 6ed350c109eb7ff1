import Foundation
import Testing
@testable import PhotoEdit

/// Renders that keep their quality (issue 10 §4): an output the stored q92
/// JPEG cannot serve losslessly renders from the recipe.
@Suite("Render quality of the current version")
struct RenderQualityTests {
    /// A real photo with an embedded Adobe RGB profile, edited with neutral
    /// filters only: its current version in PNG (8 and 16 bit) and TIFF is
    /// the unadjusted render (it was a decoded q92 JPEG, ΔE mean 1.7 on a
    /// camera photo). The JPEG at the render quality is still the stored file.
    @Test func neutralEditInPNGIsTheUnadjustedPhoto() throws {
        let temp = TemporaryDirectory("photoedit-quality")
        let library = try PhotoLibrary(url: temp.url.appendingPathComponent("library"))
        // chelsea.jpg in Adobe RGB at JPEG quality 98, its profile embedded.
        let adobe = temp.file("chelsea-adobergb.jpg")
        let source = try #require(try library.importItems([Paths.sample("chelsea.jpg")]).first?.id)
        try library.render(source, version: .unadjusted, to: adobe, options: RenderOptions(format: .jpeg, quality: 98, profile: .adobeRGB))
        #expect((try Image.load(path: adobe, sequential: false).blob("icc-profile-data")?.count ?? 0) > 0, "no embedded profile")
        let id = try #require(try library.importItems([adobe]).first?.id)
        try library.apply(chain: "exposure=0,contrast=0,saturation=0", to: id)
        for (name, options) in [("png", RenderOptions()), ("png16", RenderOptions(format: .png, bitDepth: 16)),
                                ("tif", RenderOptions(format: .tiff))] {
            let current = temp.file("current-\(name).\(name == "tif" ? "tif" : "png")")
            let unadjusted = temp.file("unadjusted-\(name).\(name == "tif" ? "tif" : "png")")
            try library.render(id, version: .current, to: current, options: options)
            try library.render(id, version: .unadjusted, to: unadjusted, options: options)
            let (max, mean) = try Pixels.deltaE(current, unadjusted)
            print(String(format: "neutral %@ vs unadjusted: ΔE00 max %.3f, mean %.3f", name, max, mean))
            #expect(mean <= 0.1, "\(name): mean ΔE00 \(mean)")
        }
        // The stored render still serves its own format byte for byte.
        let jpeg = temp.file("current.jpg")
        try library.render(id, version: .current, to: jpeg)
        let relative = try #require(try library.read { try $0.revision(1, of: id) }?.renderPath)
        let stored = library.url.appendingPathComponent(relative).path
        #expect(try Hashing.sha256(jpeg) == Hashing.sha256(stored))
    }
}
