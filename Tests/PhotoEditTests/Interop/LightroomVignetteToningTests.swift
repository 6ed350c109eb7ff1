import Foundation
import Testing
@testable import PhotoEdit

/// The corpus' last picture-changing settings, mapped by translation 9: the
/// local colour swatch, lens vignetting beside a post-crop vignette, and
/// the post-crop vignette's Highlights.
@Suite("Lightroom vignettes and local colour (translation 9)")
struct LightroomVignetteToningTests {
    static func translate(_ attributes: String, version: Int = LightroomSettings.translationVersion) throws -> LightroomTranslation {
        let xml = LightroomPackets.packet(#"crs:ProcessVersion="11.0" "# + attributes)
        return try LightroomSettings(packet: XMPPacket(data: Data(xml.utf8)), version: version, rendered: true).translation()
    }

    /// A photo to render: grey (L* ≈ 50) with a white square in each corner.
    static func cornersPhoto(_ temp: TemporaryDirectory) throws -> String {
        let (w, h) = (300, 200)
        var pixels = [Float](repeating: 118, count: w * h * 3)
        for y in 0..<h { for x in 0..<w where (x < 30 || x >= w - 30) && (y < 30 || y >= h - 30) {
            for c in 0..<3 { pixels[(y * w + x) * 3 + c] = 250 }
        } }
        let path = temp.file("corners.png")
        try BrushCanvas.floatImage(pixels, width: w, height: h, bands: 3).cast("uchar").call("copy", [("interpretation", .string("srgb"))])
            .save(to: path, format: "png")
        return path
    }

    /// The mean of band 0 (8-bit sRGB) over a rectangle of a render.
    static func mean(_ recipe: Recipe, _ path: String, _ box: (Int, Int, Int, Int)) throws -> Double {
        let image = try Renderer(registry: .standard).render(recipe: recipe, originalPath: path).sRGB8()
        return try image.extractArea(left: box.0, top: box.1, width: box.2, height: box.3).extractBands(0, count: 1).average()
    }

    @Test func lensVignettingBesideAPostCropVignetteIsALocalCorrection() throws {
        let attributes = #"crs:PostCropVignetteAmount="-30" crs:VignetteAmount="-60" crs:VignetteMidpoint="40""#
        let t = try Self.translate(attributes)
        #expect(t.applied.contains("VignetteAmount") && t.unmapped.isEmpty, "\(t.unmapped)")
        let correction = try #require(t.recipe.node("local").flatMap { node -> LocalCorrection? in
            if case .corrections(let c)? = node.parameters.content { return c.first }
            return nil
        })
        #expect(correction.amounts == [.exposure: -1.8])
        guard case .radial(let r) = correction.mask.components[0].shape else { Issue.record("not radial"); return }
        #expect(!r.inside && abs(r.centre.x - 0.5) < 1e-9 && abs(r.radiusX - 0.65 / 2.squareRoot()) < 1e-4, "\(r)")
        // Rendered: the corners darker than with the post-crop vignette alone, the centre as it was.
        let temp = TemporaryDirectory("photoedit-lr-vignette")
        let photo = try Self.cornersPhoto(temp)
        let alone = try Self.translate(#"crs:PostCropVignetteAmount="-30""#).recipe
        let corner = (35, 35, 20, 20), centre = (140, 90, 20, 20)
        let (both, one) = (try Self.mean(t.recipe, photo, corner), try Self.mean(alone, photo, corner))
        print("lens vignetting −60 beside a post-crop −30: corner \(both) vs \(one) without it")
        #expect(both < one - 10, "lens vignetting darkens the corners: \(both) vs \(one)")
        #expect(abs(try Self.mean(t.recipe, photo, centre) - Self.mean(alone, photo, centre)) < 1)
        // Translation 8 listed it.
        let eight = try Self.translate(attributes, version: 8)
        #expect(eight.unmapped.contains { $0.hasPrefix("VignetteAmount") } && eight.recipe.node("local") == nil)
    }

    @Test func theVignettesHighlightsKeepItsBrightAreasBright() throws {
        let attributes = #"crs:PostCropVignetteAmount="-80" crs:PostCropVignetteStyle="1" crs:PostCropVignetteHighlightContrast="80""#
        let t = try Self.translate(attributes)
        #expect(t.applied.contains("PostCropVignetteHighlightContrast") && t.unmapped.isEmpty, "\(t.unmapped)")
        let temp = TemporaryDirectory("photoedit-lr-vignette-highlights")
        let photo = try Self.cornersPhoto(temp)
        let plain = try Self.translate(#"crs:PostCropVignetteAmount="-80""#).recipe
        let white = (2, 2, 20, 20), grey = (40, 2, 10, 10)
        let (kept, darkened) = (try Self.mean(t.recipe, photo, white), try Self.mean(plain, photo, white))
        print("post-crop vignette −80, highlights 80: white corner \(kept) vs \(darkened) without")
        #expect(kept > darkened + 20, "the highlights stay brighter: \(kept) vs \(darkened)")
        #expect(abs(try Self.mean(t.recipe, photo, grey) - Self.mean(plain, photo, grey)) < 3, "mid-grey is darkened as before")
        // Paint Overlay (style 3) has no Highlights; a brightening vignette neither: nothing added, nothing listed.
        for other in [#"crs:PostCropVignetteAmount="-80" crs:PostCropVignetteStyle="3" crs:PostCropVignetteHighlightContrast="80""#,
                      #"crs:PostCropVignetteAmount="40" crs:PostCropVignetteHighlightContrast="80""#] {
            let o = try Self.translate(other)
            #expect(o.recipe.node("local") == nil && o.unmapped.isEmpty, "\(o.unmapped)")
        }
        #expect(try Self.translate(attributes, version: 8).unmapped.contains { $0.hasPrefix("PostCropVignetteHighlightContrast") })
    }

    @Test func theLocalColourSwatchIsATemperatureAndTintShift() throws {
        func correction(_ amounts: String, translation: Int = LightroomSettings.translationVersion) throws -> (LocalCorrection?, [String]) {
            let body = LightroomPackets.correctionList("GradientBasedCorrections", amounts: amounts,
                                               masks: #"<rdf:li crs:What="Mask/Gradient" crs:ZeroX="0.5" crs:ZeroY="0" crs:FullX="0.5" crs:FullY="0.4"/>"#)
            let r = try LightroomLocalCorrections.read(XMPPacket(data: LightroomPackets.maskPacket(body)), orientation: 1,
                                                       storedSize: (width: 6000, height: 4000), translation: translation)
            return (r.corrections.first, r.unmapped)
        }
        // Yellow (60°) at half saturation: warmer by 50, no tint; blue (240°) cooler.
        let (yellow, u1) = try correction(#"crs:LocalExposure2012="0.25" crs:LocalToningHue="60" crs:LocalToningSaturation="0.5""#)
        #expect(abs((yellow?.amounts[.temperature] ?? 0) - 50) < 1e-6 && abs(yellow?.amounts[.tint] ?? 0) < 1e-6 && u1.isEmpty, "\(String(describing: yellow)) \(u1)")
        let (blue, _) = try correction(#"crs:LocalToningHue="240" crs:LocalToningSaturation="0.5" crs:LocalTemperature="0.2""#)
        #expect(abs((blue?.amounts[.temperature] ?? 0) - (20 - 50)) < 1e-6, "added to the correction's own temperature")
        // Magenta-ish (330°): tint only.
        let (magenta, _) = try correction(#"crs:LocalToningHue="330" crs:LocalToningSaturation="0.3""#)
        #expect(abs((magenta?.amounts[.tint] ?? 0) - 30) < 1e-6 && abs(magenta?.amounts[.temperature] ?? 0) < 1e-6)
        // A hue without saturation changes nothing: not listed.
        let (_, none) = try correction(#"crs:LocalExposure2012="0.25" crs:LocalToningHue="196.7" crs:LocalToningSaturation="0""#)
        #expect(none.isEmpty, "\(none)")
        // Translation 8 listed the swatch.
        let (_, old) = try correction(#"crs:LocalToningHue="60" crs:LocalToningSaturation="0.5""#, translation: 8)
        #expect(old.contains { $0.contains("LocalToningSaturation") }, "\(old)")
    }
}
