import Foundation
import Testing
@testable import PhotoEdit
import PhotoEditTestSupport

/// `photoedit render` with export options, through the real binary:
/// formats, the metadata policy proven with exiftool, watermark, max-bytes,
/// and bad input (one line, non-zero exit, nothing written).
@Suite("Export: render CLI")
struct ExportRenderCLITests {
    /// A library holding the tagged photo, edited (so it has a stored render).
    static func library() throws -> (CLILibrary, String) {
        let lib = CLILibrary()
        let id = try lib.importFiles([try ExportTestPhoto.make(in: lib.temp)])[0]
        try lib.succeed(["apply", "exposure=+0.3", id])
        return (lib, id)
    }

    @Test func metadataPolicies() throws {
        let (lib, id) = try Self.library()
        func render(_ policy: String) throws -> [String: String] {
            let out = lib.temp.file("\(policy).jpg")
            try lib.succeed(["render", id, "-o", out, "--metadata", policy, "--long-edge", "320"])
            let tags = try ExportTestPhoto.tags(out)
            #expect(tags["ICC_Profile:ProfileDescription"] != nil, "\(policy): the ICC profile is always embedded")
            #expect(tags["File:ImageWidth"] == "320")
            return tags
        }
        let none = try render("none")
        #expect(ExportTestPhoto.groups(none, ["EXIF", "IPTC", "XMP"]).isEmpty, "none: \(ExportTestPhoto.groups(none, ["EXIF", "IPTC", "XMP"]))")

        let noLocation = try render("no-location")
        #expect(ExportTestPhoto.groups(noLocation, ["GPS"]).isEmpty && !noLocation.keys.contains { $0.contains("GPS") }, "no GPS tag")
        for tag in ["EXIF:SerialNumber", "EXIF:LensSerialNumber", "EXIF:OwnerName", "XMP:PersonInImage", "XMP:RegionName", "XMP:RegionType"] {
            #expect(noLocation[tag] == nil, "no-location leaves out \(tag)")
        }
        #expect(!noLocation.keys.contains { $0.hasPrefix("XMP:Region") || $0.contains("Serial") })
        #expect(noLocation["EXIF:Copyright"] == ExportTestPhoto.copyright && noLocation["XMP:Rights"] == ExportTestPhoto.copyright)
        #expect(noLocation["EXIF:Model"] == "EOS R5" && noLocation["EXIF:Orientation"] == "Horizontal (normal)")

        let copyright = try render("copyright")
        #expect(copyright["EXIF:Copyright"] == ExportTestPhoto.copyright && copyright["EXIF:Artist"] == "Jane Doe")
        #expect(copyright["EXIF:Model"] == nil && copyright["EXIF:GPSLatitude"] == nil)

        let all = try render("all")
        #expect(all["EXIF:GPSLatitude"] != nil && all["EXIF:SerialNumber"] == "SN12345" && all["EXIF:Model"] == "EOS R5")
    }

    /// `none` in HEIF (AVIF, HEIC) keeps the ICC profile (a Display P3 one
    /// here, so it cannot be the nclx box's sRGB) and writes no EXIF or XMP
    /// item: exiftool and `vipsheader -a` read the files.
    @Test(arguments: ["avif", "heic"])
    func heifNoneKeepsTheProfile(_ ext: String) throws {
        let (lib, id) = try Self.library()
        let out = lib.temp.file("p3.\(ext)")
        try lib.succeed(["render", id, "-o", out, "--metadata", "none", "--profile", "display-p3", "--long-edge", "200"])
        let tags = try ExportTestPhoto.tags(out)
        #expect(tags["ICC_Profile:ProfileDescription"]?.contains("P3") == true, "\(tags.filter { $0.key.hasPrefix("ICC") })")
        #expect(ExportTestPhoto.groups(tags, ["EXIF", "IPTC", "XMP"]).isEmpty, "\(ExportTestPhoto.groups(tags, ["EXIF", "IPTC", "XMP"]))")
        let header = try ExportTestPhoto.tool("/usr/bin/vipsheader", ["-a", out]).stdout
        // The container still decodes whole (its items moved when the Exif item left).
        let decoded = try Image.load(path: out, sequential: false).inMemory()
        #expect(max(decoded.width, decoded.height) == 200 && decoded.bands == 3)
        #expect(header.contains("icc-profile-data") && !header.contains("exif-data") && !header.contains("xmp-data"), "\(header)")
        // The copyright policy, same format: the EXIF and XMP items are written.
        let kept = lib.temp.file("kept.\(ext)")
        try lib.succeed(["render", id, "-o", kept, "--metadata", "copyright", "--profile", "display-p3", "--long-edge", "200"])
        let keptTags = try ExportTestPhoto.tags(kept)
        #expect(keptTags["EXIF:Copyright"] == ExportTestPhoto.copyright && keptTags["ICC_Profile:ProfileDescription"]?.contains("P3") == true)
    }

    /// The library's title, caption, keywords and rating go out as XMP.
    @Test func libraryMetadataAsXMP() throws {
        let (lib, id) = try Self.library()
        try lib.succeed(["title", "Morning coffee", id])
        try lib.succeed(["caption", "At the café", id])
        try lib.succeed(["rate", "4", id])
        try lib.succeed(["tag", "Drinks/Coffee", id])
        let out = lib.temp.file("meta.webp")
        try lib.succeed(["render", id, "-o", out, "--metadata", "no-location", "--long-edge", "200"])
        let tags = try ExportTestPhoto.tags(out)
        #expect(tags["XMP:Title"] == "Morning coffee" && tags["XMP:Description"] == "At the café" && tags["XMP:Rating"] == "4")
        #expect(tags["XMP:Subject"] == "Coffee" && tags["XMP:HierarchicalSubject"] == "Drinks|Coffee")
    }

    @Test(arguments: ["avif", "jxl", "heic", "webp", "png", "tif", "jpg"])
    func formats(_ ext: String) throws {
        let (lib, id) = try Self.library()
        let out = lib.temp.file("out.\(ext)")
        try lib.succeed(["render", id, "-o", out, "--long-edge", "240", "--sharpen", "screen"])
        let image = try Image.load(path: out, sequential: false)
        #expect(max(image.width, image.height) == 240)
        let loader = try #require(Vips.loader(for: out))
        #expect(loader.hasPrefix(["avif": "heif", "heic": "heif", "tif": "tiff", "jpg": "jpeg"][ext] ?? ext))
    }

    @Test func sixteenBitTIFFFromTheRecipe() throws {
        let (lib, id) = try Self.library()
        let out = lib.temp.file("print.tif")
        try lib.succeed(["render", id, "-o", out, "--depth", "16", "--profile", "adobe-rgb", "--metadata", "copyright", "--long-edge", "300"])
        let image = try Image.load(path: out, sequential: false)
        #expect(image.formatName == "ushort" && max(image.width, image.height) == 300)
        let profile = try #require(try ExportTestPhoto.tags(out)["ICC_Profile:ProfileDescription"])
        #expect(!profile.lowercased().contains("srgb"), "the Adobe RGB profile is embedded: \(profile)")
    }

    @Test func watermarkTextAndImage() throws {
        let (lib, id) = try Self.library()
        let plain = lib.temp.file("plain.png"), text = lib.temp.file("text.png"), mark = lib.temp.file("mark.png")
        try lib.succeed(["render", id, "-o", plain, "--long-edge", "400", "--metadata", "none"])
        try lib.succeed(["render", id, "-o", text, "--long-edge", "400", "--metadata", "none", "--watermark", "© Jane Doe",
                         "--watermark-opacity", "1", "--watermark-size", "8"])
        try lib.succeed(["render", id, "-o", mark, "--long-edge", "400", "--metadata", "none", "--watermark", "@" + Paths.sample("chart.png"),
                         "--watermark-position", "top-left", "--watermark-size", "20"])
        let a = try Image.load(path: plain, sequential: false), b = try Image.load(path: text, sequential: false)
        let c = try Image.load(path: mark, sequential: false)
        let w = a.width, h = a.height
        func corner(_ i: Image, left: Bool, top: Bool) throws -> Image {
            try i.extractArea(left: left ? 0 : w / 2, top: top ? 0 : h / 2, width: w / 2, height: h / 2)
        }
        // Text in the bottom right only; the image in the top left only.
        #expect(try corner(a, left: false, top: false).deltaE2000(corner(b, left: false, top: false)).maximum() > 20)
        #expect(try corner(a, left: true, top: true).deltaE2000(corner(b, left: true, top: true)).maximum() == 0)
        #expect(try corner(a, left: true, top: true).deltaE2000(corner(c, left: true, top: true)).maximum() > 10)
        #expect(try corner(a, left: false, top: false).deltaE2000(corner(c, left: false, top: false)).maximum() == 0)
    }

    /// `--resize none` to PNG renders from the recipe, as the default full
    /// size does, not from the stored JPEG render.
    @Test func resizeNoneIsLossless() throws {
        let (lib, id) = try Self.library()
        let none = lib.temp.file("none.png"), plain = lib.temp.file("plain.png"), stored = lib.temp.file("stored.jpg")
        try lib.succeed(["render", id, "-o", none, "--resize", "none"])
        try lib.succeed(["render", id, "-o", plain])
        try lib.succeed(["render", id, "-o", stored])
        let a = try Image.load(path: none, sequential: false), b = try Image.load(path: plain, sequential: false)
        #expect(a.width == b.width && a.height == b.height)
        #expect(try a.deltaE2000(b).maximum() == 0, "--resize none PNG equals the recipe's full-size PNG")
        #expect(try a.deltaE2000(try Image.load(path: stored, sequential: false)).maximum() > 0, "and is not the stored JPEG")
    }

    @Test func maxBytesFits() throws {
        let (lib, id) = try Self.library()
        let out = lib.temp.file("small.jpg")
        let r = try lib.succeed(["render", id, "-o", out, "--max-bytes", "20KB"])
        let size = try #require(try FileManager.default.attributesOfItem(atPath: out)[.size] as? Int)
        #expect(size <= 20_000 && size > 10_000, "\(size) bytes")
        #expect(r.stderr.contains("encodes"))
    }

    @Test(arguments: [
        (["--format", "bmp"], "unknown format 'bmp'"),
        (["--long-edge", "0"], "long-edge '0' is not a whole number"),
        (["--size", "0", "--metadata", "none"], "size '0' is not WxH or N"),
        (["--metadata", "partial"], "metadata 'partial' is not all, copyright, no-location, none"),
        (["--watermark", "@{NOTIMAGE}"], "watermark file not-an-image.txt is not an image"),
        (["--max-bytes", "2KB", "--long-edge", "2000"], "no quality fits max-bytes 2000"),
        (["--sharpen", "canvas"], "sharpen 'canvas' is not none or screen|matte|glossy"),
        (["--long-edge", "300", "--crop", "0:0:0.5:0.5"], "--mode, --resize and --crop do not combine with export options"),
    ])
    func badInputWritesNothing(_ arguments: [String], _ message: String) throws {
        let (lib, id) = try Self.library()
        let folder = lib.temp.file("out")
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let args = arguments.map { $0.replacingOccurrences(of: "{NOTIMAGE}", with: Paths.bad("not-an-image.txt")) }
        let r = try lib.run(["render", id, "-o", folder + "/out.jpg"] + args)
        #expect(r.status != 0, "\(r)")
        #expect(r.stderrLines.count == 1 && r.stderr.contains(message), "\(r.stderr)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder).isEmpty, "nothing left in the output folder")
    }
}
