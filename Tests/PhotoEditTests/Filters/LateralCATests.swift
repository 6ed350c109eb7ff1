import Foundation
import Testing
@testable import PhotoEdit

/// The `ca` filter: lateral chromatic aberration measured on the photo (or
/// set), and Lightroom's `AutoLateralCA` read into it when no lens profile is known.
@Suite("Lateral chromatic aberration")
struct LateralCATests {
    let detail = FilterBench()

    /// A grey photo (chelsea's luminance in all three channels: no aberration of its own).
    func grey() throws -> Image {
        let y = try detail.working("chelsea.jpg").luminance()
        return try Vips.image("bandjoin", [("in", .images([y, y, y]))]).call("copy", [("interpretation", .string("scrgb"))])
    }

    /// The grey photo with red magnified by 1 − 3 ‰ and blue by 1 + 2 ‰ (a lens's lateral CA).
    func aberrated() throws -> Image { try LateralCA.magnify(grey(), red: 0.997, blue: 1.002) }

    @Test func theMeasurementFindsAKnownAberration() throws {
        let clean = try LateralCA.measure(grey())
        #expect(abs(clean.red - 1) < 2e-4 && abs(clean.blue - 1) < 2e-4, "no aberration: \(clean)")
        let found = try LateralCA.measure(aberrated())
        // The correction undoes the magnification: 1 / 0.997 and 1 / 1.002, within 0.3 ‰.
        #expect(abs(found.red - 1 / 0.997) < 3e-4, "red \(found.red)")
        #expect(abs(found.blue - 1 / 1.002) < 3e-4, "blue \(found.blue)")
    }

    @Test func autoCorrectsTheFringesAndNeutralIsTheSameImage() throws {
        let image = try aberrated(), truth = try grey()
        // What is left to correct, measured again: within 0.3 ‰ of none (it was 3 ‰ and 2 ‰).
        let left = try LateralCA.measure(detail.run("ca", on: image))
        #expect(abs(left.red - 1) < 3e-4 && abs(left.blue - 1) < 3e-4, "after ca: \(left)")
        // A photo without aberration is left alone (nothing measured, the same image).
        let untouched = try detail.run("ca", on: truth)
        #expect(try Pixels.maxAbsDifference(untouched, truth) < 1e-3)
        #expect(try Filters.ca.render(image, Filters.ca.defaults, RenderContext()) === image)
        // Set by hand: the same correction.
        let manual = try LateralCA.measure(detail.run("ca=+3.009:-1.996", on: image))
        #expect(abs(manual.red - 1) < 3e-4 && abs(manual.blue - 1) < 3e-4, "after ca=+3.009:-1.996: \(manual)")
    }

    /// Remove Chromatic Aberration in a packet that names no lens lensfun
    /// knows (a preset): translation 7 measures it (`ca` auto); 6 lists it.
    @Test func autoLateralCAWithoutAKnownLensIsMeasured() throws {
        let t = try LightroomPackets.translate(#"crs:AutoLateralCA="1" crs:Exposure2012="+0.3""#)
        #expect(t.recipe.node("ca")?.parameters.text("mode") == "auto" && t.recipe.node("lens") == nil, "\(t.recipe)")
        #expect(t.unmapped.isEmpty && t.applied.contains("AutoLateralCA"), "\(t.unmapped)")
        #expect(try LightroomPackets.writtenBack(t).recipe.node("ca") == t.recipe.node("ca"))
        let v6 = try LightroomPackets.translate(#"crs:AutoLateralCA="1""#, version: 6)
        #expect(v6.recipe.node("ca") == nil && v6.unmapped.contains { $0.hasPrefix("AutoLateralCA (") }, "\(v6.unmapped)")
    }
}
