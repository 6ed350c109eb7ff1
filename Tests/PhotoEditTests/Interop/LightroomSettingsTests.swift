import Foundation
import Testing
@testable import PhotoEdit
import PhotoEditGolden

/// Lightroom / Camera Raw develop settings (`crs:`): both shapes of packet,
/// the translation into a recipe, hostile packets, import (sidecars written
/// by exiftool on real photos, embedded packets, a RAW), the verbatim
/// packet as `com.adobe.crs` adjustment data, idempotence, `import-xmp`.
@Suite("Lightroom develop settings")
struct LightroomSettingsTests {
    static let fixtures = Paths.root.appendingPathComponent("Tests/Fixtures/lightroom")
    static func fixture(_ name: String) throws -> Data { try Data(contentsOf: fixtures.appendingPathComponent(name)) }

    static func translate(_ packet: String) throws -> LightroomTranslation {
        try LightroomSettings(packet: Data(packet.utf8)).translation()
    }

    /// exiftool's `-j -n` reading of a file: tag name → value.
    static func exiftoolJSON(_ arguments: [String]) throws -> [String: Any] {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/exiftool")
        process.arguments = ["-j", "-n"] + arguments
        let pipe = Pipe()
        process.standardOutput = pipe
        try process.run()
        let data = try FileIO.readToEnd(pipe.fileHandleForReading.fileDescriptor, what: "the tool's output")
        process.waitUntilExit()
        guard process.terminationStatus == 0, let list = try JSONSerialization.jsonObject(with: data) as? [[String: Any]],
              let first = list.first else { throw CLIError("exiftool \(arguments) failed with \(process.terminationStatus)") }
        return first
    }

    // MARK: Translation

    @Test func bothShapesTranslateTheSame() throws {
        let attributes = try LightroomSettings(packet: Self.fixture("attributes.xmp")).translation()
        let elements = try LightroomSettings(packet: Self.fixture("elements.xmp")).translation()
        #expect(attributes == elements, "attributes (Lightroom Classic) and elements (Lightroom 7+), other prefixes")
        let t = attributes
        #expect(LightroomPackets.number(t, "exposure", "ev") == 0.6)
        #expect(LightroomPackets.number(t, "contrast", "amount") == 15)
        #expect(LightroomPackets.number(t, "highlights", "amount") == -40)
        #expect(LightroomPackets.number(t, "shadows", "amount") == 35)
        #expect(LightroomPackets.number(t, "whites", "amount") == 10)
        #expect(LightroomPackets.number(t, "blacks", "amount") == -12)
        #expect(LightroomPackets.number(t, "temperature", "amount") == 12 && LightroomPackets.number(t, "tint", "amount") == -6)
        #expect(t.recipe.node("raw") == nil, "as shot: no RAW development")
        #expect(LightroomPackets.number(t, "vibrance", "amount") == 20 && LightroomPackets.number(t, "saturation", "amount") == -5)
        #expect(LightroomPackets.number(t, "hsl", "orange_h") == 6 && LightroomPackets.number(t, "hsl", "green_h") == -10)
        #expect(LightroomPackets.number(t, "hsl", "blue_s") == -25 && LightroomPackets.number(t, "hsl", "orange_l") == 10)
        #expect(LightroomPackets.number(t, "hsl", "red_h") == 0)
        let crop = try #require(t.recipe.node("crop"))
        #expect(crop.parameters.text("mode") == "rect")
        #expect(abs(crop.parameters.number("x") - 0.05) < 1e-9 && abs(crop.parameters.number("y") - 0.1) < 1e-9)
        #expect(abs(crop.parameters.number("w") - 0.9) < 1e-9 && abs(crop.parameters.number("h") - 0.8) < 1e-9)
        #expect(t.recipe.node("straighten") == nil)
        let curve = try #require(t.recipe.node("curve"))
        #expect(curve.parameters.text("channel") == "rgb" && curve.parameters.number("n") == 4)
        #expect(abs(curve.parameters.number("x2") - 64.0 / 255) < 1e-6 && abs(curve.parameters.number("y2") - 56.0 / 255) < 1e-6)
        #expect(LightroomPackets.number(t, "sharpen", "amount") == 40 && LightroomPackets.number(t, "sharpen", "radius") == 1.2)
        #expect(LightroomPackets.number(t, "sharpen", "threshold") == 4)
        #expect(LightroomPackets.number(t, "vignette", "amount") == -30 && LightroomPackets.number(t, "vignette", "midpoint") == 40)
        #expect(LightroomPackets.number(t, "vignette", "feather") == 60 && LightroomPackets.number(t, "vignette", "roundness") == 20)
        #expect(LightroomPackets.number(t, "grain", "amount") == 25 && LightroomPackets.number(t, "grain", "size") == 3.25)
        #expect(t.recipe.node("mono") == nil)
        #expect(LightroomPackets.number(t, "splittone", "shadow_hue") == 220 && LightroomPackets.number(t, "splittone", "shadow_sat") == 25)
        #expect(LightroomPackets.number(t, "splittone", "high_hue") == 45 && LightroomPackets.number(t, "splittone", "high_sat") == 20)
        #expect(LightroomPackets.number(t, "splittone", "balance") == 10)
        #expect(curve.parameters.number("blue_n") == 2 && abs(curve.parameters.number("blue_y1") - 10.0 / 255) < 1e-6,
                "the blue channel's curve is the curve filter's own blue curve")
        #expect(LightroomPackets.number(t, "clarity", "amount") == 18 && LightroomPackets.number(t, "dehaze", "strength") == 8 && t.recipe.node("texture") == nil)
        #expect(t.unmapped == ["MaskGroupBasedCorrections 1: no mask"],
                "set and not mapped, never dropped silently; defaults (Texture 0, ColorGradeBlending 50…) and bookkeeping are not listed")
        #expect(t.applied.contains("ToneCurvePV2012Blue") && t.applied.contains("Exposure2012") && !t.applied.contains("Texture"))
    }

    /// A camera profile other than Adobe's neutral one changes the look:
    /// listed, as every setting photoedit does not apply.
    @Test func cameraProfilesOtherThanTheNeutralOneAreListed() throws {
        #expect(try Self.translate(LightroomPackets.packet(#"crs:CameraProfile="Adobe Standard" crs:Exposure2012="+0.5""#)).unmapped.isEmpty)
        #expect(try Self.translate(LightroomPackets.packet(#"crs:CameraProfile="Camera Portrait""#)).unmapped == ["CameraProfile Camera Portrait"])
        let long = String(repeating: "x", count: 100)
        #expect(try Self.translate(LightroomPackets.packet("crs:CameraProfile=\"\(long)\"")).unmapped == ["CameraProfile (not Adobe Standard)"])
    }

    @Test func defaultsTranslateToNothing() throws {
        let t = try Self.translate(LightroomPackets.packet("""
            crs:Version="15.0" crs:ProcessVersion="11.0" crs:WhiteBalance="As Shot" crs:Exposure2012="0.00" crs:Contrast2012="0" \
            crs:Clarity2012="0" crs:Sharpness="0" crs:HasCrop="False" crs:CropLeft="0.2" crs:ConvertToGrayscale="False" \
            crs:GrainFrequency="50" crs:SharpenDetail="25"
            """, body: "<crs:ToneCurvePV2012><rdf:Seq><rdf:li>0, 0</rdf:li><rdf:li>255, 255</rdf:li></rdf:Seq></crs:ToneCurvePV2012>"))
        #expect(t.isDefault, "\(t.recipe) \(t.unmapped)")
    }

    @Test func whiteBalanceCropOrientationAndCurves() throws {
        // A RAW's custom white balance: kelvin → raw.wb, clamped to raw's 2000…25000 K.
        var t = try Self.translate(LightroomPackets.packet(#"crs:WhiteBalance="Custom" crs:Temperature="4650" crs:Tint="+12""#))
        #expect(t.recipe.node("raw")?.parameters.text("wb") == "kelvin" && LightroomPackets.number(t, "raw", "temperature") == 4650)
        #expect(LightroomPackets.number(t, "raw", "tint") == 12 && t.needsRaw)
        t = try Self.translate(LightroomPackets.packet(#"crs:WhiteBalance="Daylight" crs:Temperature="50000" crs:Tint="0""#))
        #expect(LightroomPackets.number(t, "raw", "temperature") == 25000)
        t = try Self.translate(LightroomPackets.packet(#"crs:WhiteBalance="Auto" crs:Temperature="5000""#))
        #expect(t.recipe.node("raw")?.parameters.text("wb") == "auto")
        t = try Self.translate(LightroomPackets.packet(#"crs:WhiteBalance="As Shot" crs:Temperature="5000" crs:Tint="+3""#))
        #expect(!t.needsRaw, "as shot is photoedit's default development")

        // The crop is in the frame as stored: orientation 6 (turned 90° clockwise) moves it.
        let crop = #"crs:HasCrop="True" crs:CropLeft="0.1" crs:CropTop="0.2" crs:CropRight="0.5" crs:CropBottom="0.9" crs:CropAngle="-3.5""#
        t = try Self.translate(LightroomPackets.packet(crop + #" xmlns:tiff="http://ns.adobe.com/tiff/1.0/" tiff:Orientation="6""#))
        let node = try #require(t.recipe.node("crop"))
        let rect = ["x", "y", "w", "h"].map { (node.parameters.number($0) * 1000).rounded() / 1000 }
        #expect(rect == [0.1, 0.1, 0.7, 0.4], "upright x = 1 − bottom, y = left")
        #expect(LightroomPackets.number(t, "straighten", "angle") == -3.5)
        t = try Self.translate(LightroomPackets.packet(crop + #" xmlns:tiff="http://ns.adobe.com/tiff/1.0/" tiff:Orientation="2""#))
        #expect(LightroomPackets.number(t, "straighten", "angle") == 3.5, "a mirrored frame turns the other way")

        // A curve of more than 8 points is resampled to 8; a channel curve is that channel's own curve.
        let many = (0...17).map { i in "<rdf:li>\(i * 15), \(min(255, i * 16))</rdf:li>" }.joined()
        t = try Self.translate(LightroomPackets.packet("", body: "<crs:ToneCurvePV2012Green><rdf:Seq>\(many)</rdf:Seq></crs:ToneCurvePV2012Green>"))
        let curve = try #require(t.recipe.node("curve"))
        #expect(curve.parameters.text("channel") == "rgb" && curve.parameters.number("n") == 2 && t.unmapped.isEmpty)
        #expect(curve.parameters.number("green_n") == 8 && curve.parameters.number("green_x1") == 0)
        #expect(curve.parameters.number("green_x8") == 1 && curve.parameters.number("green_y8") == 1)

        // Black and white with the grey mixer's red, green and blue.
        t = try Self.translate(LightroomPackets.packet(#"crs:ConvertToGrayscale="True" crs:GrayMixerRed="+40" crs:GrayMixerGreen="-20" crs:GrayMixerBlue="0" crs:GrayMixerAqua="-15""#))
        #expect(LightroomPackets.number(t, "mono", "amount") == 100)
        #expect(abs((LightroomPackets.number(t, "mono", "red") ?? 0) - 0.2126 * 1.4) < 1e-6 && abs((LightroomPackets.number(t, "mono", "green") ?? 0) - 0.7152 * 0.8) < 1e-6)
        #expect(LightroomPackets.number(t, "hsl", "aqua_l") == -15 && t.unmapped.isEmpty, "the mixer's other bands: their luminance before grey")
    }

    static let absurd = [
        (#"crs:Exposure2012="NaN""#, "Exposure2012 (not a number)"),
        (#"crs:Exposure2012="inf""#, "Exposure2012 (not a number)"),
        (#"crs:Exposure2012="1e400""#, "Exposure2012 (not a number)"),
        (#"crs:Contrast2012="+900""#, "Contrast2012 (beyond Lightroom's -100 to 100: clamped)"),
        (#"crs:Temperature="-5" crs:WhiteBalance="Custom""#, "Temperature (beyond Lightroom's 1000 to 60000: clamped)"),
        (#"crs:HasCrop="True" crs:CropLeft="0.8" crs:CropRight="0.2""#, "HasCrop (CropRight/CropBottom are not beyond CropLeft/CropTop)"),
        (#"crs:HasCrop="Maybe""#, "HasCrop (not True or False)"),
        (#"crs:SplitToningShadowHue="720""#, "SplitToningShadowHue (beyond Lightroom's 0 to 360: clamped)"),
        (#"crs:HasCrop="True" crs:CropLeft="0.5" xmlns:tiff="http://ns.adobe.com/tiff/1.0/" tiff:Orientation="9""#, "HasCrop (tiff:Orientation is not 1 to 8)"),
    ]

    /// A value that cannot be used leaves that one setting out (listed,
    /// never quoted); one beyond Lightroom's range is clamped as Lightroom
    /// does. The rest of the packet applies: no packet is refused for one setting.
    @Test(arguments: absurd)
    func absurdValuesAreLeftOutNotTheirPacket(_ attributes: String, _ listed: String) throws {
        let t = try Self.translate(LightroomPackets.packet(attributes + #" crs:Vibrance="+20""#))
        #expect(t.unmapped.contains(listed), "\(t.unmapped)")
        #expect(LightroomPackets.number(t, "vibrance", "amount") == 20, "the rest applies")
        #expect(!t.unmapped.joined().contains("900") && !t.unmapped.joined().contains("NaN") && !t.unmapped.joined().contains("720"))
    }

    /// Translation version 1 — revisions imported before version 2 — keeps
    /// reading packets as it did: the same refusals, one curve.
    @Test(arguments: absurd)
    func versionOneStillRefusesWhatItRefused(_ attributes: String, _ listed: String) throws {
        let data = AdjustmentData(formatIdentifier: LightroomSettings.formatIdentifier, formatVersion: "1",
                                  data: Data(LightroomPackets.packet(attributes).utf8))
        #expect {
            _ = try LightroomSettings(adjustmentData: data).translation()
        } throws: { error in
            "\(error)".contains("crs:") || "\(error)".contains("tiff:Orientation")
        }
    }

    /// Version 1 maps one tone curve and lists the others; version 2 maps them all.
    @Test func versionOneRevisionsRenderAsTheyDid() throws {
        let packet = Data(try Self.fixture("attributes.xmp"))
        let v1 = try LightroomSettings(adjustmentData: AdjustmentData(formatIdentifier: LightroomSettings.formatIdentifier, formatVersion: "1",
                                                                     data: packet)).translation()
        #expect(v1.unmapped == ["ToneCurvePV2012Blue (one tone curve is mapped: ToneCurvePV2012)", "Clarity2012 +18", "Dehaze +8",
                                "MaskGroupBasedCorrections"])
        let curve = try #require(v1.recipe.node("curve"))
        #expect(curve.version == 2 && curve.parameters.number("blue_n") == 2 && curve.parameters.number("blue_y1") == 0,
                "curve version 1, migrated: its channel curves at identity")
        let v2 = try LightroomSettings(packet: XMPPacket(data: packet), version: 2).translation()
        // Version 2 also maps clarity and dehaze (and every channel curve).
        let notInV1: Set<String> = ["curve", "clarity", "dehaze"]
        #expect(v1.recipe.nodes.filter { $0.filter != "curve" } == v2.recipe.nodes.filter { !notInV1.contains($0.filter) })
        #expect(v1.recipe.node("clarity") == nil && v2.recipe.node("clarity") != nil)
        #expect(LightroomSettings.canHandle(AdjustmentData(formatIdentifier: "com.adobe.crs", formatVersion: "2-rendered", data: packet)))
        #expect(!LightroomSettings.canHandle(AdjustmentData(formatIdentifier: "com.adobe.crs", formatVersion: "1-rendered", data: packet)))
        #expect(!LightroomSettings.canHandle(AdjustmentData(formatIdentifier: "com.adobe.crs", formatVersion: "\(LightroomSettings.translationVersion + 1)", data: packet)))
    }

    /// Version 3 maps Lightroom's Transform sliders to `perspective`
    /// (Vertical negated, Scale around 100); version 2 lists them.
    @Test func perspectiveSlidersFromVersionThree() throws {
        let packet = Data(LightroomPackets.packet(#"crs:PerspectiveVertical="-30" crs:PerspectiveHorizontal="+12" crs:PerspectiveRotate="-1.5" "#
                                      + #"crs:PerspectiveScale="90" crs:PerspectiveAspect="+20" crs:PerspectiveX="-5" crs:PerspectiveY="+8" "#
                                      + #"crs:PerspectiveUpright="0""#).utf8)
        let v3 = try LightroomSettings(packet: packet).translation()
        #expect(v3.unmapped.isEmpty, "\(v3.unmapped)")
        let node = try #require(v3.recipe.node("perspective"))
        #expect(node.version == 1)
        let p = node.parameters
        #expect(p.number("vertical") == 30 && p.number("horizontal") == 12 && p.number("rotate") == -1.5 && p.number("scale") == 90
                && p.number("aspect") == 20 && p.number("x") == -5 && p.number("y") == 8, "\(p)")
        let v2 = try LightroomSettings(adjustmentData: AdjustmentData(formatIdentifier: LightroomSettings.formatIdentifier, formatVersion: "2",
                                                                     data: packet)).translation()
        #expect(v2.recipe.node("perspective") == nil)
        #expect(v2.unmapped.contains("PerspectiveVertical -30") && v2.unmapped.contains("PerspectiveScale +90"), "\(v2.unmapped)")
        // Lightroom's Upright (its own line detection) is not repeated: listed.
        let upright = try LightroomSettings(packet: Data(LightroomPackets.packet(#"crs:PerspectiveUpright="2""#).utf8)).translation()
        #expect(upright.unmapped == ["PerspectiveUpright +2"], "\(upright.unmapped)")
        #expect(try LightroomSettings(packet: Data(LightroomPackets.packet(#"crs:PerspectiveScale="100""#).utf8)).translation().isDefault)
    }

    /// Lightroom's white balance: a RAW's kelvin is the raw stage (clamped to
    /// its 2000…25000 K); on a rendered file the relative sliders, else the
    /// kelvin's shift from daylight (5500 K) in mired.
    @Test func whiteBalanceOnRawAndOnRenderedFiles() throws {
        let custom = Data(LightroomPackets.packet(#"crs:WhiteBalance="Custom" crs:Temperature="4500" crs:Tint="+12" crs:Exposure2012="+0.5""#).utf8)
        var t = try LightroomSettings(packet: custom).translation()
        #expect(t.recipe.node("raw")?.parameters.text("wb") == "kelvin" && LightroomPackets.number(t, "raw", "temperature") == 4500)
        #expect(t.recipe.node("temperature") == nil)
        t = try LightroomSettings(packet: custom, rendered: true).translation()
        #expect(t.recipe.node("raw") == nil && t.unmapped.isEmpty && LightroomPackets.number(t, "exposure", "ev") == 0.5)
        let shift = try #require(LightroomPackets.number(t, "temperature", "amount"))
        #expect(abs(shift - (1e6 / 5500 - 1e6 / 4500)) < 1e-3 && shift < 0, "a warmer light than daylight: cooled")
        #expect(LightroomPackets.number(t, "tint", "amount") == 12)
        // A preset's relative sliders win on a rendered file; a RAW reads its kelvin.
        let both = Data(LightroomPackets.packet(#"crs:WhiteBalance="Custom" crs:Temperature="4500" crs:IncrementalTemperature="+20""#).utf8)
        #expect(LightroomPackets.number(try LightroomSettings(packet: both, rendered: true).translation(), "temperature", "amount") == 20)
        t = try LightroomSettings(packet: both).translation()
        #expect(t.recipe.node("temperature") == nil && LightroomPackets.number(t, "raw", "temperature") == 4500)
        // 50000 K: Lightroom's own limit; the raw stage's is 25000 K; a rendered file's shift is clamped to 100 mired.
        let hot = Data(LightroomPackets.packet(#"crs:WhiteBalance="Custom" crs:Temperature="50000" crs:Tint="0" crs:Contrast2012="+10""#).utf8)
        t = try LightroomSettings(packet: hot).translation()
        #expect(LightroomPackets.number(t, "raw", "temperature") == 25000 && LightroomPackets.number(t, "contrast", "amount") == 10)
        #expect(LightroomPackets.number(try LightroomSettings(packet: hot, rendered: true).translation(), "temperature", "amount") == 100)
        // Auto is a RAW's development: listed on a rendered file.
        t = try LightroomSettings(packet: Data(LightroomPackets.packet(#"crs:WhiteBalance="Auto""#).utf8), rendered: true).translation()
        #expect(t.unmapped == ["WhiteBalance Auto (a RAW's development)"])
    }

    /// "not mapped" lists only what changes the picture: preset metadata,
    /// digests, Upright's recorded transforms, unset point colours, the other
    /// process's sliders and curves are not listed.
    @Test func bookkeepingIsNotListed() throws {
        let t = try Self.translate(LightroomPackets.packet("""
            crs:PresetType="Normal" crs:SupportsAmount="True" crs:SupportsAmount2="True" crs:ShowInPresets="True"             crs:GrainSeed="1234" crs:ColorVariance="0" crs:LookTable="E1095149FDB39D7A057BAB208837E2E1"             crs:Table_E1095149FDB39D7A057BAB208837E2E1="+7" crs:UprightTransform_0="1.0 0 0 0 1 0 0 0 1"             crs:CameraProfileDigest="2DE3C8E3E7A6454D52ADD2F110A1ADA2" crs:ProcessVersion="11.0" crs:Exposure="+0.5"             crs:Brightness="+50" crs:Contrast="+25" crs:FillLight="0" crs:Shadows="5" crs:Clarity="0" crs:RequiresRenditionBehavior="True"             crs:Exposure2012="+0.3"
            """, body: """
            <crs:Description><rdf:Alt><rdf:li xml:lang="x-default">A film look</rdf:li></rdf:Alt></crs:Description>
            <crs:Name><rdf:Alt><rdf:li xml:lang="x-default">Film</rdf:li></rdf:Alt></crs:Name>
            <crs:PointColors><rdf:Seq><rdf:li>-1.000000, -1.000000, -1.000000, -1.000000, -1.000000, -1.000000</rdf:li></rdf:Seq></crs:PointColors>
            <crs:ToneCurve><rdf:Seq><rdf:li>0, 0</rdf:li><rdf:li>32, 22</rdf:li><rdf:li>64, 56</rdf:li><rdf:li>128, 128</rdf:li><rdf:li>192, 196</rdf:li><rdf:li>255, 255</rdf:li></rdf:Seq></crs:ToneCurve>
            """))
        #expect(t.unmapped.isEmpty, "\(t.unmapped)")
        #expect(Chain.format(t.recipe) == "exposure=+0.3", "process 2010's Exposure is left over in a 2012 packet")
    }

    /// The Calibration panel (primaries, shadow tint) is the calibration
    /// filter, slider for slider; grain roughness is grain version 2's.
    @Test func calibrationAndGrainRoughness() throws {
        let t = try Self.translate(LightroomPackets.packet("""
            crs:ProcessVersion="11.0" crs:RedHue="+15" crs:RedSaturation="-20" crs:GreenHue="-10" crs:GreenSaturation="0"             crs:BlueHue="+25" crs:BlueSaturation="+30" crs:ShadowTint="-8" crs:GrainAmount="35" crs:GrainSize="40" crs:GrainFrequency="80"
            """))
        #expect(t.unmapped.isEmpty, "\(t.unmapped)")
        #expect(LightroomPackets.number(t, "calibration", "red_hue") == 15 && LightroomPackets.number(t, "calibration", "red_sat") == -20)
        #expect(LightroomPackets.number(t, "calibration", "green_hue") == -10 && LightroomPackets.number(t, "calibration", "green_sat") == 0)
        #expect(LightroomPackets.number(t, "calibration", "blue_hue") == 25 && LightroomPackets.number(t, "calibration", "blue_sat") == 30)
        #expect(LightroomPackets.number(t, "calibration", "shadow_tint") == -8)
        #expect(LightroomPackets.number(t, "grain", "roughness") == 80 && t.recipe.node("grain")?.version == 2)
        #expect(Set(t.applied).isSuperset(of: ["RedHue", "RedSaturation", "GreenHue", "BlueHue", "BlueSaturation", "ShadowTint", "GrainFrequency"]))
        #expect(!t.applied.contains("GreenSaturation"), "at its default: nothing applied")
        // Grain roughness without grain changes nothing: neither applied nor listed.
        let off = try Self.translate(LightroomPackets.packet(#"crs:GrainAmount="0" crs:GrainFrequency="80" crs:RedHue="+200""#))
        #expect(off.unmapped == ["RedHue (beyond Lightroom's -100 to 100: clamped)"] && off.recipe.node("grain") == nil)
        #expect(LightroomPackets.number(off, "calibration", "red_hue") == 100)
        // A preset's amount scales them like any slider.
        let half = try Self.translate(LightroomPackets.packet(#"crs:PresetType="Normal" crs:SupportsAmount="True" crs:Amount="0.5" crs:RedHue="+40""#))
        #expect(LightroomPackets.number(half, "calibration", "red_hue") == 20)
    }

    /// Process 2010 (Lightroom 3, Camera Raw 6): Exposure, FillLight,
    /// HighlightRecovery, Brightness, Contrast, Blacks and the point curve of that process.
    @Test func process2010Settings() throws {
        let t = try Self.translate(LightroomPackets.packet("""
            crs:ProcessVersion="5.7" crs:Exposure="+0.80" crs:Brightness="+80" crs:Contrast="+45" crs:FillLight="30"             crs:HighlightRecovery="40" crs:Shadows="10" crs:Exposure2012="0" crs:Clarity="+20"
            """, body: "<crs:ToneCurve><rdf:Seq><rdf:li>0, 0</rdf:li><rdf:li>128, 140</rdf:li><rdf:li>255, 255</rdf:li></rdf:Seq></crs:ToneCurve>"))
        #expect(LightroomPackets.number(t, "exposure", "ev") == 0.8 && LightroomPackets.number(t, "contrast", "amount") == 20)
        #expect(LightroomPackets.number(t, "shadows", "amount") == 30 && LightroomPackets.number(t, "highlights", "amount") == -40)
        #expect(LightroomPackets.number(t, "blacks", "amount") == -10)
        let curve = try #require(t.recipe.node("curve"))
        #expect(curve.parameters.number("n") == 8, "Brightness then the point curve, as one curve sampled at 8 points")
        let mid = ToneCurve(Filters.curvePoints(curve.parameters, Filters.CurveKeys.main)).value(0.5)
        #expect(mid > 140.0 / 255, "brighter than the point curve alone: \(mid)")
        #expect(LightroomPackets.number(t, "clarity", "amount") == 20, "process 2010's clarity")
        #expect(t.unmapped.isEmpty, "\(t.unmapped)")
        #expect(Set(t.applied) == ["Exposure", "Brightness", "Contrast", "FillLight", "HighlightRecovery", "Shadows", "ToneCurve", "Clarity"])
    }

    /// The parametric curve (its four regions and three splits) becomes
    /// points of the main curve, composed with the point curve.
    @Test func parametricCurve() throws {
        var t = try Self.translate(LightroomPackets.packet(#"crs:ParametricShadows="+40" crs:ParametricHighlights="-30" crs:ParametricMidtoneSplit="60""#))
        var curve = try #require(t.recipe.node("curve"))
        let c = ToneCurve(Filters.curvePoints(curve.parameters, Filters.CurveKeys.main))
        #expect(c.value(0.125) > 0.15 && c.value(0.9) < 0.88 && abs(c.value(0) - 0) < 1e-9 && abs(c.value(1) - 1) < 1e-9)
        #expect(t.unmapped.isEmpty && Set(t.applied) == ["ParametricShadows", "ParametricHighlights", "ParametricMidtoneSplit"])
        // Splits alone, the regions at 0: nothing.
        t = try Self.translate(LightroomPackets.packet(#"crs:ParametricShadowSplit="30""#))
        #expect(t.isDefault)
        // With a point curve: the point curve applies after the parametric one.
        t = try Self.translate(LightroomPackets.packet(#"crs:ParametricDarks="+50""#,
                                           body: "<crs:ToneCurvePV2012><rdf:Seq><rdf:li>0, 40</rdf:li><rdf:li>255, 255</rdf:li></rdf:Seq></crs:ToneCurvePV2012>"))
        curve = try #require(t.recipe.node("curve"))
        #expect(abs(curve.parameters.number("y1") - 40.0 / 255) < 1e-6 && curve.parameters.number("n") == 8)
    }

    /// A preset's amount (`crs:Amount` with `crs:SupportsAmount`) scales its sliders and curves.
    @Test func presetAmount() throws {
        let body = "<crs:ToneCurvePV2012><rdf:Seq><rdf:li>0, 40</rdf:li><rdf:li>255, 255</rdf:li></rdf:Seq></crs:ToneCurvePV2012>"
        var t = try Self.translate(LightroomPackets.packet(#"crs:PresetType="Normal" crs:SupportsAmount="True" crs:Amount="0.5" crs:Exposure2012="+1" crs:Contrast2012="+40""#, body: body))
        #expect(LightroomPackets.number(t, "exposure", "ev") == 0.5 && LightroomPackets.number(t, "contrast", "amount") == 20)
        #expect(abs((LightroomPackets.number(t, "curve", "y1") ?? 0) - 20.0 / 255) < 1e-6)
        t = try Self.translate(LightroomPackets.packet(#"crs:PresetType="Normal" crs:SupportsAmount="False" crs:Amount="0.5" crs:Exposure2012="+1""#))
        #expect(LightroomPackets.number(t, "exposure", "ev") == 1, "a preset without SupportsAmount applies whole")
    }

    /// Curves that are not curves leave that curve out (listed); packets
    /// beyond the limits cannot be read at all and are refused.
    @Test func hostileCurvesAreLeftOutAndHugePacketsRefused() throws {
        let points = (0..<300).map { "<rdf:li>\(min($0, 255)), 0</rdf:li>" }.joined()
        for (body, what) in [("<crs:ToneCurvePV2012><rdf:Seq>\(points)</rdf:Seq></crs:ToneCurvePV2012>", "300 points"),
                             ("<crs:ToneCurvePV2012><rdf:Seq><rdf:li>128, 0</rdf:li><rdf:li>64, 255</rdf:li></rdf:Seq></crs:ToneCurvePV2012>", "x going back"),
                             ("<crs:ToneCurvePV2012Red><rdf:Seq><rdf:li>0, 0, 0</rdf:li><rdf:li>255, 255</rdf:li></rdf:Seq></crs:ToneCurvePV2012Red>", "not x, y")] {
            let t = try Self.translate(LightroomPackets.packet(#"crs:Exposure2012="+1""#, body: body))
            #expect(t.recipe.node("curve") == nil && LightroomPackets.number(t, "exposure", "ev") == 1, "\(what)")
            #expect(t.unmapped.count == 1 && t.unmapped[0].hasPrefix("ToneCurvePV2012"), "\(what): \(t.unmapped)")
        }
        let huge = LightroomPackets.packet(#"crs:Exposure2012="+1""#, body: String(repeating: "<!-- padding -->", count: (LightroomSettings.maxPacketBytes / 16) + 1))
        #expect(throws: XMPProblem.self, "over 2 MiB") { _ = try Self.translate(huge) }
        let deep = LightroomPackets.packet(#"crs:Exposure2012="+1""#, body: "<crs:Deep>" + String(repeating: "<a>", count: 100) + String(repeating: "</a>", count: 100) + "</crs:Deep>")
        #expect(throws: XMPProblem.self, "nested 100 deep") { _ = try Self.translate(deep) }
        let many = LightroomPackets.packet((0..<2100).map { "crs:Unknown\($0)=\"1\"" }.joined(separator: " "))
        #expect(throws: XMPProblem.self, "2100 settings") { _ = try Self.translate(many) }
    }

    // MARK: Import

    /// A real photo with a sidecar written by exiftool gets a revision: the
    /// recipe is the translation, the packet is kept byte for byte,
    /// unmapped settings are listed; importing the same sidecar again adds nothing.
    @Test func importWithExiftoolSidecar() throws {
        let temp = TemporaryDirectory("photoedit-crs")
        let photo = temp.file("IMG_1.jpg"), sidecar = temp.file("IMG_1.xmp")
        try FileManager.default.copyItem(atPath: Paths.sample("coffee.jpg"), toPath: photo)
        try Tool.exiftool(["-o", sidecar, "-XMP-crs:Exposure2012=+1.0", "-XMP-crs:HasCrop=True", "-XMP-crs:CropLeft=0.1",
                                       "-XMP-crs:CropTop=0.2", "-XMP-crs:CropRight=0.9", "-XMP-crs:CropBottom=0.8",
                                       "-XMP-crs:ColorGradeMidtoneSat=+20", "-XMP-crs:Vibrance=+25", "-XMP-xmp:Rating=4", photo])
        let library = try PhotoLibrary(url: temp.url.appendingPathComponent("library"))
        let result = try #require(try library.importItems([photo]).first)
        let id = try #require(result.id)
        #expect(result.warnings.isEmpty, "\(result.warnings)")
        let lr = try #require(result.lightroom)
        #expect(lr.isNew && lr.revision == 1 && lr.source == "sidecar IMG_1.xmp" && lr.unmapped == ["ColorGradeMidtoneSat +20"])

        let history = try library.history(id)
        #expect(history.map(\.number) == [0, 1])
        let data = try #require(history[1].adjustmentData)
        #expect(data.formatIdentifier == "com.adobe.crs" && data.formatVersion == "\(LightroomSettings.translationVersion)-rendered", "the current translation, for a rendered file")
        let sidecarBytes = try Data(contentsOf: URL(fileURLWithPath: sidecar))
        #expect(data.data == sidecarBytes, "the packet, verbatim")
        #expect(history[1].lightroomUnmapped == ["ColorGradeMidtoneSat +20"] && history[0].lightroomUnmapped == nil)
        #expect(history[1].hasRender && history[1].pixelWidth == 480 && history[1].pixelHeight == 240, "600×400 cropped to 80 %×60 %")
        let recipe = try Recipe(adjustmentData: data, registry: library.registry)
        #expect(Chain.format(recipe, registry: library.registry) == "exposure=+1,vibrance=+25,crop=0.1:0.2:0.8:0.6")
        #expect(try library.asset(id).rating == 4, "the metadata of the same sidecar")

        // The same sidecar again: no second revision.
        let again = try #require(try library.importDevelopSettings(id))
        let revisions = try library.history(id).count
        #expect(!again.isNew && again.revision == 1 && revisions == 2)
        let libraryPath = temp.url.appendingPathComponent("library").path
        var r = try CLI.run(["import-xmp", "--library", libraryPath, id, "--sidecar", sidecar])
        #expect(r.status == 0 && r.stdoutLines == ["\(id)\t1\tunchanged\tnot mapped: ColorGradeMidtoneSat +20"], "\(r)")

        // An edit on top edits the translated recipe (photoedit can handle it).
        try library.apply(chain: "saturation=-10", to: id)
        let edited = try #require(try library.history(id).last?.adjustmentData)
        #expect(Chain.format(try Recipe(adjustmentData: edited, registry: library.registry), registry: library.registry)
                == "exposure=+1,saturation=-10,vibrance=+25,crop=0.1:0.2:0.8:0.6")
        r = try CLI.run(["history", "--library", libraryPath, id])
        #expect(r.stdoutLines.count == 3 && r.stdoutLines[1].contains("[from Lightroom; not mapped: ColorGradeMidtoneSat +20]"), "\(r)")

        // Revert to the Lightroom revision renders it again from its translation.
        let reverted = try library.revert(id, to: 1)
        #expect(reverted.adjustmentData == data && reverted.pixelWidth == 480)
    }

    /// import-xmp for a photo already in the library: a hand-written packet
    /// (elements), then a bad one (an error naming the problem, nothing
    /// applied), and a photo without settings.
    @Test func importXMPCommand() throws {
        let cli = CLILibrary()
        let temp = cli.temp
        let photo = temp.file("chelsea.jpg")
        try FileManager.default.copyItem(atPath: Paths.sample("chelsea.jpg"), toPath: photo)
        var r = try cli.run(["import", photo])
        let id = try #require(r.stdoutLines.first?.split(separator: "\t").first.map(String.init))
        #expect(r.stderrLines.isEmpty, "\(r)")
        r = try cli.run(["import-xmp", id])
        #expect(r.status == 0 && r.stdoutLines == ["\(id)\tno develop settings"], "\(r)")

        r = try cli.run(["import-xmp", String(id.prefix(8)), "--sidecar", Self.fixtures.appendingPathComponent("elements.xmp").path])
        #expect(r.status == 0 && r.stdoutLines.count == 1 && r.stdoutLines[0].hasPrefix("\(id)\t1\tnew\tnot mapped: "), "\(r)")

        // One value that cannot be used: that setting is left out, listed, never quoted; the rest applies.
        let odd = temp.file("odd.xmp")
        try LightroomPackets.packet(#"crs:Exposure2012="NaN" crs:Contrast2012="+20""#).write(toFile: odd, atomically: true, encoding: .utf8)
        r = try cli.run(["import-xmp", id, "--sidecar", odd])
        #expect(r.status == 0 && r.stdoutLines == ["\(id)\t2\tnew\tnot mapped: Exposure2012 (not a number)"], "\(r)")
        #expect(!r.stdout.contains("NaN"), "never quotes the packet")
        // A packet that cannot be read at all is refused: one line, nothing applied.
        let bad = temp.file("bad.xmp")
        try #"<x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">"#
            .write(toFile: bad, atomically: true, encoding: .utf8)
        r = try cli.run(["import-xmp", id, "--sidecar", bad])
        #expect(r.status != 0 && r.stderrLines.count == 1 && !r.stderrLines.joined().contains("xmpmeta"), "\(r)")
        r = try cli.run(["import-xmp", id, "--sidecar", temp.file("missing.xmp")])
        #expect(r.status != 0 && r.stderrLines.count == 1, "\(r)")
        r = try cli.run(["history", id])
        #expect(r.stdoutLines.count == 3, "nothing applied from the bad packets: \(r)")
        #expect(r.stdoutLines.last?.contains("contrast=+20") == true, "\(r)")
    }

    /// Packets embedded in the photo (exiftool writes them into the JPEG);
    /// a hostile value leaves its setting out (listed), the rest applies; a
    /// RAW's kelvin white balance on a JPEG is its shift from daylight.
    @Test func embeddedPacketsAndWarnings() throws {
        let temp = TemporaryDirectory("photoedit-crs-embedded")
        let (embedded, hostile, rawWB) = (temp.file("A.jpg"), temp.file("B.jpg"), temp.file("C.jpg"))
        for (path, sample) in [(embedded, "coffee.jpg"), (hostile, "chelsea.jpg"), (rawWB, "astronaut.jpg")] {
            try FileManager.default.copyItem(atPath: Paths.sample(sample), toPath: path)
        }
        try Tool.exiftool(["-overwrite_original", "-XMP-crs:Exposure2012=-0.5", "-XMP-crs:ConvertToGrayscale=True", embedded])
        try LightroomPackets.packet(#"crs:Exposure2012="+1" crs:Shadows2012="1e300""#).write(toFile: temp.file("B.xmp"), atomically: true, encoding: .utf8)
        try LightroomPackets.packet(#"crs:WhiteBalance="Custom" crs:Temperature="3200" crs:Tint="0""#).write(toFile: temp.file("C.xmp"), atomically: true, encoding: .utf8)
        let library = try PhotoLibrary(url: temp.url.appendingPathComponent("library"))
        let results = try library.importItems([embedded, hostile, rawWB], jobs: 1)
        #expect(results.allSatisfy { $0.id != nil })

        let a = try #require(results[0].lightroom)
        #expect(a.source == "embedded XMP" && a.isNew && a.unmapped.isEmpty)
        let recipe = try library.editing.editableRecipe(try library.asset(results[0].id!))
        #expect(Chain.format(recipe, registry: library.registry) == "exposure=-0.5,mono")

        let b = try #require(results[1].lightroom, "\(results[1].warnings)")
        #expect(b.unmapped == ["Shadows2012 (beyond Lightroom's -100 to 100: clamped)"] && results[1].warnings.isEmpty, "\(b.unmapped)")
        #expect(Chain.format(try library.editing.editableRecipe(try library.asset(results[1].id!)), registry: library.registry) == "exposure=+1,shadows=+100")

        let c = try #require(results[2].lightroom, "\(results[2].warnings)")
        #expect(c.unmapped.isEmpty)
        #expect(Chain.format(try library.editing.editableRecipe(try library.asset(results[2].id!)), registry: library.registry) == "temperature=-100",
                "3200 K against daylight's 5500 K is beyond the relative slider's 100 mired")
    }

    /// A JPEG Lightroom exported carries the settings it was made with,
    /// marked `crs:AlreadyApplied`: they are in its pixels, and are never
    /// applied again (at import, by import-xmp, from a sidecar).
    @Test func settingsAlreadyAppliedAreNotAppliedAgain() throws {
        let cli = CLILibrary()
        let exported = cli.temp.file("exported.jpg"), sidecar = cli.temp.file("other.jpg")
        try FileManager.default.copyItem(atPath: Paths.sample("coffee.jpg"), toPath: exported)
        try FileManager.default.copyItem(atPath: Paths.sample("chelsea.jpg"), toPath: sidecar)
        try Tool.exiftool(["-overwrite_original", "-XMP-crs:AlreadyApplied=True", "-XMP-crs:Exposure2012=+1.5", exported])
        try LightroomPackets.packet(#"crs:AlreadyApplied="True" crs:Exposure2012="+1""#).write(toFile: cli.temp.file("other.xmp"), atomically: true, encoding: .utf8)
        var r = try cli.succeed(["import", exported, sidecar])
        let ids = r.stdoutLines.compactMap { $0.split(separator: "\t").first.map(String.init) }
        #expect(ids.count == 2 && r.stderrLines.isEmpty, "\(r)")
        for id in ids {
            r = try cli.succeed(["import-xmp", id])
            #expect(r.stdoutLines == ["\(id)\tno develop settings"], "\(r)")
            r = try cli.succeed(["history", id])
            #expect(r.stdoutLines.count == 1, "no revision: \(r)")
        }
        // Without the mark, the same embedded settings are an edit.
        let unmarked = cli.temp.file("unmarked.jpg")
        try FileManager.default.copyItem(atPath: Paths.sample("astronaut.jpg"), toPath: unmarked)
        try Tool.exiftool(["-overwrite_original", "-XMP-crs:Exposure2012=+1.5", unmarked])
        r = try cli.succeed(["import", unmarked])
        #expect(r.stderrLines.count == 1 && r.stderrLines[0].contains("applied as revision 1"), "\(r)")
    }

    /// An upload (the library API the server's `POST /v1/assets` streams
    /// into) reads the develop settings embedded in the file as an import does.
    @Test func uploadedFileWithEmbeddedSettings() async throws {
        let temp = TemporaryDirectory("photoedit-crs-upload")
        let file = temp.file("upload.jpg")
        try FileManager.default.copyItem(atPath: Paths.sample("coffee.jpg"), toPath: file)
        try Tool.exiftool(["-overwrite_original", "-XMP-crs:Exposure2012=+0.7", "-XMP-crs:ColorGradeMidtoneSat=+20", file])
        let library = try PhotoLibrary(url: temp.url.appendingPathComponent("library"))
        let bytes = try Data(contentsOf: URL(fileURLWithPath: file))
        func chunks(_ parts: [Data]) -> AsyncStream<Data> {
            AsyncStream { c in
                for part in parts { c.yield(part) }
                c.finish()
            }
        }
        let placeholder = try await library.createAsset(fromChunks: chunks([bytes.prefix(5000), bytes.dropFirst(5000)]), filename: "upload.jpg")
        let asset = try await BlockingExecutor.run { try library.asset(placeholder.localIdentifier) }
        #expect(asset.revision == 1 && asset.adjustmentData?.formatIdentifier == "com.adobe.crs")
        #expect(Chain.format(try library.editing.editableRecipe(asset), registry: library.registry) == "exposure=+0.7")
        let history = try await BlockingExecutor.run { try library.history(asset.id) }
        #expect(history.last?.lightroomUnmapped == ["ColorGradeMidtoneSat +20"])
        // The same bytes again: the photo it is, no second revision.
        let again = try await library.createAsset(fromChunks: chunks([bytes]), filename: "upload.jpg")
        let revision = try await BlockingExecutor.run { try library.asset(again.localIdentifier) }.revision
        #expect(again.existed && revision == 1)
    }

    /// A RAW: Lightroom's kelvin white balance becomes the `raw` stage.
    @Test func rawWhiteBalance() throws {
        let temp = TemporaryDirectory("photoedit-crs-raw")
        let raw = temp.file("IMG_7.dng")
        try FileManager.default.copyItem(atPath: Paths.root.appendingPathComponent("Tests/Fixtures/raw/coffee.dng").path, toPath: raw)
        try Tool.exiftool(["-o", temp.file("IMG_7.xmp"), "-XMP-crs:WhiteBalance=Custom", "-XMP-crs:ColorTemperature=3800",
                                       "-XMP-crs:Tint=+8", "-XMP-crs:Exposure2012=+0.3", raw])
        let library = try PhotoLibrary(url: temp.url.appendingPathComponent("library"))
        let result = try #require(try library.importItems([raw]).first)
        #expect(result.lightroom?.isNew == true, "\(result.warnings)")
        let recipe = try library.editing.editableRecipe(try library.asset(result.id!))
        #expect(Chain.format(recipe, registry: library.registry) == "raw.wb=3800:+8,exposure=+0.3")

        // Lightroom's 50000 K: the raw stage's 25000 K, which this camera's matrix
        // cannot balance, develops with the nearest light it can: applied, not refused.
        let hot = temp.file("IMG_8.dng")
        try FileManager.default.copyItem(atPath: Paths.root.appendingPathComponent("Tests/Fixtures/raw/rotated.dng").path, toPath: hot)
        try LightroomPackets.packet(#"crs:WhiteBalance="Custom" crs:Temperature="50000" crs:Tint="+40" crs:Exposure2012="+0.3""#)
            .write(toFile: temp.file("IMG_8.xmp"), atomically: true, encoding: .utf8)
        let hotResult = try #require(try library.importItems([hot]).first)
        #expect(hotResult.lightroom?.isNew == true && hotResult.warnings.isEmpty, "\(hotResult.warnings)")
        let hotID = try #require(hotResult.id)
        #expect(Chain.format(try library.editing.editableRecipe(try library.asset(hotID)), registry: library.registry) == "raw.wb=25000:+40,exposure=+0.3")
        #expect(try library.history(hotID).last?.hasRender == true)
        // Edited on top and reverted: the same development renders again from the packet.
        try library.apply(chain: "saturation=-5", to: hotID)
        #expect(try library.revert(hotID, to: 1).hasRender)
    }

    /// A DNG Lightroom wrote its settings and metadata into (XMP in the
    /// TIFF container, read by libvips' TIFF loader; libraw has none): read
    /// at import and by import-xmp like a JPEG's embedded packet.
    @Test func xmpInsideADNG() throws {
        let cli = CLILibrary()
        let raw = cli.temp.file("IMG_8.dng")
        try FileManager.default.copyItem(atPath: Paths.root.appendingPathComponent("Tests/Fixtures/raw/coffee.dng").path, toPath: raw)
        try Tool.exiftool(["-overwrite_original", "-XMP-crs:Exposure2012=+0.7", "-XMP-crs:Vibrance=+15",
                                       "-XMP-xmp:Rating=3", "-XMP-dc:Subject=Trips", raw])
        var r = try cli.succeed(["import", raw])
        let id = try #require(r.stdoutLines.first?.split(separator: "\t").first.map(String.init))
        #expect(r.stderrLines.count == 1 && r.stderrLines[0].contains("Lightroom develop settings (embedded XMP) applied as revision 1"), "\(r)")
        r = try cli.succeed(["history", id])
        #expect(r.stdoutLines.last?.contains("exposure=+0.7,vibrance=+15") == true, "\(r)")
        r = try cli.succeed(["list", "--where", "rating=3 and keyword=\"Trips\""])
        #expect(r.stdoutLines.count == 1, "the DNG's metadata: \(r)")
        r = try cli.succeed(["import-xmp", id])
        #expect(r.stdoutLines == ["\(id)\t1\tunchanged"], "\(r)")
    }

    // MARK: Presets

    /// A Lightroom preset file (`.xmp`, `crs:PresetType`) is a preset:
    /// `preset:NAME` or `preset:NAME.xmp` from the preset folders, listed by
    /// `photoedit presets`, its white balance the RAW's development on a RAW
    /// and a relative shift on a JPEG.
    @Test func lightroomPresetFiles() throws {
        let cli = CLILibrary()
        let folder = cli.temp.file("presets")
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let preset = LightroomPackets.packet(#"crs:PresetType="Normal" crs:SupportsAmount="False" crs:WhiteBalance="Custom" crs:Temperature="6500" crs:Tint="0" crs:Exposure2012="+0.40" crs:Contrast2012="+20""#,
                                 body: "<crs:Name><rdf:Alt><rdf:li xml:lang=\"x-default\">Warm Film</rdf:li></rdf:Alt></crs:Name>"
                                     + "<crs:ToneCurvePV2012Red><rdf:Seq><rdf:li>0, 10</rdf:li><rdf:li>255, 255</rdf:li></rdf:Seq></crs:ToneCurvePV2012Red>")
        try preset.write(toFile: folder + "/WarmFilm.xmp", atomically: true, encoding: .utf8)
        let presets = PresetLibrary(folders: [folder])
        let found = try presets.preset(named: "WarmFilm.xmp")
        #expect(found.name == "WarmFilm" && found.summary == "Lightroom preset Warm Film")
        #expect(try presets.all().map(\.name) == ["WarmFilm"])
        let onJPEG = try Chain.apply(Chain.parse("preset:WarmFilm.xmp"), to: .empty, presets: presets)
        let shift = 1e6 / 5500 - 1e6 / 6500
        #expect(onJPEG.node("raw") == nil && abs((onJPEG.node("temperature")?.parameters.number("amount") ?? 0) - JSONValue.canonicalNumber(shift)) < 1e-9)
        #expect(onJPEG.node("curve")?.parameters.number("red_y1") == JSONValue.canonicalNumber(10.0 / 255))
        let onRaw = try Chain.apply(Chain.parse("preset:WarmFilm"), to: .empty, presets: presets, developsRaw: true)
        #expect(onRaw.node("raw")?.parameters.number("temperature") == 6500 && onRaw.node("temperature") == nil)

        // The CLI, on a JPEG and on a RAW.
        let jpeg = try cli.importSample("chelsea.jpg")
        var r = try cli.succeed(["apply", "--presets", folder, "preset:WarmFilm.xmp,saturation=-10", jpeg])
        r = try cli.succeed(["history", jpeg])
        #expect(r.stdoutLines.last?.contains("exposure=+0.4") == true && r.stdoutLines.last?.contains("temperature=+") == true, "\(r)")
        let raw = cli.temp.file("IMG_9.dng")
        try FileManager.default.copyItem(atPath: Paths.root.appendingPathComponent("Tests/Fixtures/raw/coffee.dng").path, toPath: raw)
        r = try cli.succeed(["import", raw])
        let rawID = try #require(r.stdoutLines.first?.split(separator: "\t").first.map(String.init))
        try cli.succeed(["apply", "--presets", folder, "--preset", "WarmFilm", rawID])
        r = try cli.succeed(["history", rawID])
        #expect(r.stdoutLines.last?.contains("raw.wb=6500") == true, "\(r)")
        r = try CLI.run(["presets", "--presets", folder])
        #expect(r.stdoutLines.contains { $0.hasPrefix("WarmFilm\t") && $0.hasSuffix("Lightroom preset Warm Film") }, "\(r)")
        #expect(r.stdout.contains("temperature=+") && !r.stdout.contains("raw.wb"), "listed as it applies to any photo: \(r)")

        // Not a preset name, not a packet: clear one-line errors, nothing applied.
        try "<x:xmpmeta".write(toFile: folder + "/Broken.xmp", atomically: true, encoding: .utf8)
        r = try cli.run(["apply", "--presets", folder, "preset:Broken.xmp", jpeg])
        #expect(r.status != 0 && r.stderrLines.count == 1 && !r.stderrLines[0].contains("xmpmeta"), "\(r)")
        r = try cli.run(["apply", "--presets", folder, "preset:../etc/passwd.xmp", jpeg])
        #expect(r.status != 0 && r.stderrLines.count == 1, "\(r)")
        r = try cli.succeed(["history", jpeg])
        #expect(r.stdoutLines.count == 2, "\(r)")
    }

    // MARK: Writing

    /// ours → crs: → ours: a recipe using every filter with a crs:
    /// equivalent, on a photo turned by EXIF orientation 6, written as a
    /// sidecar and read back, keeps every parameter; the metadata too.
    @Test func sidecarRoundTrip() throws {
        let cli = CLILibrary()
        let id = try cli.importSample("rotated-exif.jpg")
        let library = try PhotoLibrary(url: URL(fileURLWithPath: cli.path))
        let chain = "temperature=+15,tint=-5,exposure=+0.7,contrast=+20,highlights=-30,shadows=+25,whites=+5,blacks=-8,"
            + "curve=0:0.2:0.4:0.6:1:0.8,saturation=-10,vibrance=+20,hsl.blue_s=-30,hsl.orange_l=+15,hsl.green_h=+40,"
            + "mono=0.3:0.6:0.1,splittone=220:30:40:25:+20,straighten=-2.5,crop=0.1:0.2:0.7:0.6,sharpen=80:1.5:4,"
            + "vignette=-30:40:+20:60,grain=25:2.8:0:70,clarity=+30,texture=-20,dehaze=+25,perspective=+20:-10:1.5,perspective.scale=90,"
            + "perspective.aspect=-15,perspective.x=+6,perspective.y=-4,calibration=+10:-20:+5:0:-15:+30:+8"
        try library.apply(chain: chain, to: id)
        try library.setRating(4, of: [id])
        try library.setColorLabel(.green, of: [id])
        try library.addKeywords(["Trips/Iceland", "Music/AC\\/DC", "Birds"], to: [id])
        try library.setTitle("Falls & <spray>", of: [id])
        try library.setCaption("Line one\nline \"two\"", of: [id])
        let ours = try library.editing.editableRecipe(try library.asset(id))

        let sidecar = try library.xmpSidecar(for: id)
        #expect(sidecar.notExported.isEmpty, "\(sidecar.notExported)")
        let back = try LightroomSettings(packet: sidecar.data).translation()
        #expect(back.unmapped.isEmpty, "\(back.unmapped)")
        #expect(Chain.format(back.recipe, registry: library.registry) == Chain.format(ours, registry: library.registry))
        #expect(back.recipe.nodes == ours.nodes, "every mapped parameter survives ours → crs: → ours")
        // exiftool reads the presence and Transform settings as Lightroom's names and values.
        let file = cli.temp.file("presence.xmp")
        try sidecar.data.write(to: URL(fileURLWithPath: file))
        let read = try Self.exiftoolJSON(["-XMP-crs:all", file])
        let expected: [String: Double] = ["Clarity2012": 30, "Texture": -20, "Dehaze": 25, "PerspectiveVertical": -20,
                                          "PerspectiveHorizontal": -10, "PerspectiveRotate": 1.5, "PerspectiveScale": 90,
                                          "PerspectiveAspect": -15, "PerspectiveX": 6, "PerspectiveY": -4]
        for (name, value) in expected {
            #expect(read[name].flatMap { Double("\($0)") } == value, "\(name): \(String(describing: read[name]))")
        }
        let packet = try XMPPacket(data: sidecar.data)
        let asset = try library.asset(id)
        #expect(try packet.descriptiveMetadata() == DescriptiveMetadata(rating: 4, colorLabel: .green, keywords: asset.keywords,
                                                                         title: "Falls & <spray>", caption: "Line one\nline \"two\""))
        let embedded = try #require(packet.value(XMPSidecar.namespace, "recipe")?.defaultText)
        #expect(try Recipe(json: JSONValue.parse(Data(embedded.utf8))) == ours, "our recipe, whole, in its own namespace")

        // Curve points off Lightroom's whole 0…255 steps come back within half a step.
        try library.apply(chain: "curve=0:0.1:0.5:0.55:1:0.9", to: id)
        let curve = try #require(try LightroomSettings(packet: library.xmpSidecar(for: id).data).translation().recipe.node("curve"))
        #expect(abs(curve.parameters.number("y1") - 0.1) <= 0.5 / 255 + 1e-6 && abs(curve.parameters.number("y2") - 0.55) <= 0.5 / 255 + 1e-6)

        // A filter without a crs: equivalent is said, and kept in photoedit:recipe.
        try library.apply(chain: "blur=2,mono=50", to: id)
        #expect(try library.xmpSidecar(for: id).notExported.contains("blur"))

        // The CLI writes it beside the exported files; importing them elsewhere gives the same edit and metadata.
        let out = cli.temp.file("out")
        try FileManager.default.createDirectory(atPath: out, withIntermediateDirectories: true)
        // photoedit reads its own recipe back whole (blur included), as an ordinary revision.
        try library.revert(id, to: 1)
        try library.apply(chain: "blur=2", to: id)
        let current = try library.editing.editableRecipe(try library.asset(id))
        let r = try cli.run(["export", id, "--all", out, "--xmp"])
        #expect(r.status == 0 && r.stdoutLines.contains("xmp\t\(out)/rotated-exif.xmp"), "\(r)")
        #expect(r.stderrLines.count == 1 && r.stderrLines[0].contains("no Lightroom equivalent (kept in photoedit:recipe): blur"), "\(r)")
        let other = try PhotoLibrary(url: cli.temp.url.appendingPathComponent("other"))
        let result = try #require(try other.importItems([out + "/rotated-exif.jpg"]).first)
        let lr = try #require(result.lightroom, "\(result.warnings)")
        #expect(lr.isNew && lr.isPhotoeditRecipe && lr.unmapped.isEmpty)
        let copy = try other.asset(result.id!)
        #expect(copy.rating == 4 && copy.colorLabel == .green && copy.keywords == asset.keywords && copy.title == asset.title)
        #expect(copy.adjustmentData?.formatIdentifier == Recipe.formatIdentifier)
        #expect(try other.editing.editableRecipe(copy) == current)
        #expect(try other.importDevelopSettings(copy.id)?.isNew == false, "the same sidecar again adds nothing")
        let refused = try cli.run(["export", id, "--resource", "photo", "-o", cli.temp.file("x.xmp"), "--xmp"])
        #expect(refused.status != 0 && refused.stderrLines.count == 1, "\(refused)")

        // Beside the current render the sidecar is a record, marked applied
        // (upright, crs:AlreadyApplied): imported, the render gets its
        // metadata and no second helping of the edit.
        let render = cli.temp.file("render.jpg")
        try cli.succeed(["export", id, "--resource", "fullSizePhoto", "-o", render, "--xmp"])
        let text = try String(contentsOfFile: cli.temp.file("render.xmp"), encoding: .utf8)
        #expect(text.contains(#"crs:AlreadyApplied="True""#) && text.contains(#"tiff:Orientation="1""#))
        let third = try PhotoLibrary(url: cli.temp.url.appendingPathComponent("third"))
        let imported = try #require(try third.importItems([render]).first)
        #expect(imported.lightroom == nil && imported.warnings.isEmpty, "\(imported.warnings)")
        let plain = try third.asset(imported.id!)
        #expect(plain.rating == 4 && plain.keywords == asset.keywords && plain.revision == 0)
    }

    // MARK: Golden cases

    /// `Tests/Fixtures/lightroom/goldens/crs/NNNN-case/`: a sample, Lightroom
    /// settings (`settings.xmp`) and, in `case.json`, the chain they must
    /// translate to. The case runs as any golden case (the chain applied,
    /// compared with expected.png by CIEDE2000), and the photo imported with
    /// the settings as its sidecar must translate to that chain and render
    /// the same image.
    static let goldenRoot = fixtures.appendingPathComponent("goldens")
    static let goldenCases = GoldenCase.load(root: goldenRoot)

    @Test func goldenCasesExist() { #expect(Self.goldenCases.count >= 5) }

    @Test(arguments: goldenCases)
    func golden(_ golden: GoldenCase) throws {
        let spec = try #require(golden.spec, "\(golden.id): \(golden.problem ?? "")")
        let chain = try #require(spec.chain)
        switch try GoldenRunner.run(golden).outcome {
        case let .passed(max, mean): print(String(format: "golden %@: max ΔE00 %.3f, mean %.3f", golden.id, max, mean))
        case .recorded: print("golden \(golden.id): RECORDED \(golden.expected.path)")
        case .missingExpected: Issue.record("\(golden.id): expected.png is missing; record it with PHOTOEDIT_RECORD_GOLDEN=1")
        case let .failed(problem, folder): Issue.record("\(golden.id): \(problem); see \(folder.path)")
        }

        let sample = try #require(GoldenSuite(root: Self.goldenRoot, sourceFolders: [Paths.samples, Paths.root]).sourcePath(for: golden))
        let temp = TemporaryDirectory("photoedit-crs-golden")
        let photo = temp.file("IMG." + (sample as NSString).pathExtension)
        try FileManager.default.copyItem(atPath: sample, toPath: photo)
        try FileManager.default.copyItem(at: golden.folder.appendingPathComponent("settings.xmp"), to: URL(fileURLWithPath: temp.file("IMG.xmp")))
        let library = try PhotoLibrary(url: temp.url.appendingPathComponent("library"))
        let result = try #require(try library.importItems([photo]).first)
        let id = try #require(result.id)
        #expect(result.lightroom?.isNew == true, "\(golden.id): \(result.warnings)")
        let recipe = try library.editing.editableRecipe(try library.asset(id))
        #expect(Chain.format(recipe, registry: library.registry) == chain, "\(golden.id): the translation")
        guard FileManager.default.fileExists(atPath: golden.expected.path) else { return }
        let actual = temp.file("imported.png")
        try library.render(id, version: .current, to: actual, options: RenderOptions(maxWidth: spec.size, maxHeight: spec.size))
        let difference = try GoldenRunner.compare(actual: actual, expected: golden.expected.path,
                                                  failureFolder: Paths.goldenFailures.appendingPathComponent("crs-import-\(golden.name)"))
        #expect(difference.passes, "\(golden.id): the imported photo renders differently: \(difference.problem ?? "")")
    }
}

/// Real packets Adobe software wrote (`Tests/Fixtures/lightroom/corpus/`,
/// sources and licences in its README), each imported as a sidecar beside a
/// JPEG and beside a RAW, as a photographer would bring them: none refused,
/// and the share of the settings that change the picture that photoedit applies.
@Suite("Lightroom corpus")
struct LightroomCorpusTests {
    static let folder = LightroomSettingsTests.fixtures.appendingPathComponent("corpus")
    static let packets: [String] = ((try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? [])
        .filter { $0.hasSuffix(".xmp") }.sorted()

    @Test func theCorpusIsThereWithItsSources() throws {
        #expect(Self.packets.count >= 20, "\(Self.packets.count) packets")
        let readme = try String(contentsOf: Self.folder.appendingPathComponent("README.md"), encoding: .utf8)
        for packet in Self.packets {
            #expect(readme.contains("`\(packet)`"), "\(packet) has a row (source, licence) in the README")
            let text = try String(contentsOf: Self.folder.appendingPathComponent(packet), encoding: .utf8)
            #expect(text.contains("Adobe XMP Core"), "\(packet) was written by Adobe software")
        }
    }

    /// The share of picture-changing settings applied over the corpus, on a
    /// rendered file and on a RAW; printed, and asserted at what this version reaches.
    @Test func everyPacketAppliesToAJPEGAndToARaw() throws {
        let temp = TemporaryDirectory("photoedit-crs-corpus")
        var files: [String] = []
        for (i, packet) in Self.packets.enumerated() {
            for (stem, source) in [("J", Paths.sample("coffee.jpg")),
                                   ("R", Paths.root.appendingPathComponent("Tests/Fixtures/raw/coffee.dng").path)] {
                // Bytes after the image's end make each copy another photo (the library keeps one of identical files).
                var bytes = try Data(contentsOf: URL(fileURLWithPath: source))
                bytes.append(contentsOf: Array("photoedit corpus \(i)".utf8))
                let photo = temp.file("\(stem)\(i).\((source as NSString).pathExtension)")
                try bytes.write(to: URL(fileURLWithPath: photo))
                try FileManager.default.copyItem(at: Self.folder.appendingPathComponent(packet), to: URL(fileURLWithPath: temp.file("\(stem)\(i).xmp")))
                files.append(photo)
            }
        }
        let library = try PhotoLibrary(url: temp.url.appendingPathComponent("library"))
        let results = try library.importItems(files, jobs: 2)
        #expect(results.count == files.count)
        var totals = ["JPEG": (applied: 0, unmapped: 0), "RAW": (applied: 0, unmapped: 0)]
        var left: [String: Int] = [:]
        for (result, file) in zip(results, files) {
            let name = (file as NSString).lastPathComponent
            let packet = Self.packets[Int(name.dropFirst().prefix { $0.isNumber })!]
            let kind = name.hasPrefix("J") ? "JPEG" : "RAW"
            #expect(result.id != nil && result.warnings.isEmpty, "\(packet) on a \(kind): \(result.warnings)")
            let lr = try #require(result.lightroom, "\(packet) on a \(kind) is applied")
            #expect(lr.isNew && lr.revision == 1)
            let settings = try LightroomSettings(packet: Data(contentsOf: Self.folder.appendingPathComponent(packet)), rendered: kind == "JPEG")
            let translation = try settings.translation()
            #expect(lr.unmapped == translation.unmapped)
            let history = try library.history(result.id!)
            #expect(history.last?.adjustmentData?.formatVersion == "\(LightroomSettings.translationVersion)" + (kind == "JPEG" ? "-rendered" : ""))
            #expect(history.last?.hasRender == true)
            totals[kind]!.applied += translation.applied.count
            totals[kind]!.unmapped += translation.unmapped.count
            for setting in translation.unmapped { left[String(setting.prefix { $0 != " " }), default: 0] += 1 }
        }
        for (kind, total) in totals.sorted(by: { $0.key < $1.key }) {
            let share = Double(total.applied) / Double(max(1, total.applied + total.unmapped))
            print(String(format: "Lightroom corpus on a %@: %d packets, %d settings applied, %d not, %.1f %% applied",
                         kind, Self.packets.count, total.applied, total.unmapped, share * 100))
            #expect(share >= Self.reached, "\(kind): \(share)")
        }
        print("Lightroom corpus, left out (packets × photo kinds): " + left.sorted { $0.value > $1.value }.map { "\($0.key) \($0.value)" }.joined(separator: ", "))
    }

    /// The share this version reaches on the corpus (docs/xmp.md gives the figure).
    static let reached = 0.99
}
