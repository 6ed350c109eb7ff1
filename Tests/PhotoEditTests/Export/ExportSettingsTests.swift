import Foundation
import Testing
@testable import PhotoEdit
import PhotoEditTestSupport

/// The export settings' declaration, parsing, sizes, file-name templates,
/// the EXIF rewriter and the max-bytes search, on real encodes.
@Suite("Export: settings")
struct ExportSettingsTests {
    @Test func declarationIsWhole() throws {
        let names = ExportSettings.options.map(\.name)
        #expect(Set(names).count == names.count, "option names are unique")
        for option in ExportSettings.options {
            #expect(!option.help.isEmpty && !option.help.contains("\n"), "\(option.name): one line of help")
            #expect(!option.valueName.isEmpty)
        }
        // Every declared default parses, and the defaults are what ExportSettings() holds.
        var defaults: [String: String] = [:]
        for option in ExportSettings.options { if let d = option.defaultValue { defaults[option.name] = d } }
        #expect(try ExportSettings(values: defaults) == ExportSettings())
    }

    @Test func valuesRoundTrip() throws {
        let values = ["format": "avif", "quality": "55", "long-edge": "2048", "sharpen": "matte:high", "metadata": "no-location",
                      "watermark": "© Jane", "watermark-position": "top-left", "watermark-opacity": "0.3", "max-bytes": "500KB",
                      "name": "{date:%Y}-{seq:3}"]
        let settings = try ExportSettings(values: values)
        #expect(settings.format == .avif && settings.quality == 55 && settings.size == .longEdge(2048))
        #expect(settings.sharpening == ExportSharpening(medium: .matte, amount: .high))
        #expect(settings.metadata == .noLocation && settings.maxBytes == 500_000)
        #expect(settings.watermark?.text == "© Jane" && settings.watermark?.position == .topLeft && settings.watermark?.opacity == 0.3)
        #expect(try ExportSettings(values: settings.values) == settings)
        #expect(settings.canonicalText == (try ExportSettings(values: settings.values)).canonicalText)
    }

    @Test(arguments: [
        (["format": "bmp"], "format 'bmp' is not jpeg, png, tiff, webp, avif, jxl, heic"),
        (["long-edge": "0"], "long-edge '0' is not a whole number in 1…65535"),
        (["size": "0"], "size '0' is not WxH or N"),
        (["size": "100x0"], "size '100x0' is not WxH or N"),
        (["megapixels": "0"], "megapixels '0' is not a number"),
        (["percent": "-5"], "percent '-5' is not a number"),
        (["long-edge": "100", "short-edge": "50"], "give one size option"),
        (["quality": "101"], "quality '101' is not a whole number in 1…100"),
        (["max-bytes": "0"], "max-bytes '0' is not a positive size"),
        (["max-bytes": "12parsecs"], "is not a positive size"),
        (["format": "png", "max-bytes": "1MB"], "max-bytes searches a lossy quality"),
        (["format": "jpeg", "depth": "16"], "jpeg holds 8 bits per channel"),
        (["sharpen": "paper"], "sharpen 'paper' is not none or screen|matte|glossy"),
        (["metadata": "some"], "metadata 'some' is not all, copyright, no-location, none"),
        (["name": "../{name}"], "has a '/'"),
        (["name": "/etc/{name}"], "is an absolute path"),
        (["name": "..{name}"], "has '..'"),
        (["name": "{name}-{camera}"], "unknown placeholder {camera}"),
        (["watermark": "@/nonexistent/mark.png"], "watermark file /nonexistent/mark.png does not exist"),
        (["colour": "red"], "unknown export setting 'colour'"),
    ])
    func badValuesAreOneLine(_ values: [String: String], _ message: String) {
        #expect {
            _ = try ExportSettings(values: values)
        } throws: { error in
            let text = "\(error)"
            return text.contains(message) && !text.contains("\n")
        }
    }

    @Test func sizesNeverEnlargeUnlessAsked() {
        #expect(ExportSize.longEdge(2048).pixels(width: 6000, height: 4000, enlarge: false) == (2048, 1365))
        #expect(ExportSize.shortEdge(1000).pixels(width: 6000, height: 4000, enlarge: false) == (1500, 1000))
        #expect(ExportSize.box(width: 1000, height: 1000).pixels(width: 4000, height: 6000, enlarge: false) == (667, 1000))
        let eight = ExportSize.megapixels(8).pixels(width: 6000, height: 4000, enlarge: false)
        #expect(abs(eight.width * eight.height - 8_000_000) < 8000)
        #expect(ExportSize.percent(25).pixels(width: 6000, height: 4000, enlarge: false) == (1500, 1000))
        #expect(ExportSize.longEdge(9000).pixels(width: 600, height: 400, enlarge: false) == (600, 400))
        #expect(ExportSize.longEdge(1200).pixels(width: 600, height: 400, enlarge: true) == (1200, 800))
    }

    @Test func templatesStayInTheFolder() throws {
        let date = try #require(ISO8601DateFormatter().date(from: "2026-03-04T05:06:07Z"))
        let values = ExportNameTemplate.Values(name: "IMG_0001", date: date, sequence: 7, title: "../../etc/passwd", rating: 4, id: "abc")
        #expect(try ExportNameTemplate("{date:%Y-%m-%d}_{seq:4}_{name}").fileName(values) == "2026-03-04_0007_IMG_0001")
        #expect(try ExportNameTemplate("{rating}-{id}").fileName(values) == "4-abc")
        let title = try ExportNameTemplate("{title}").fileName(values)
        #expect(!title.contains("/") && !title.contains("..") && !title.hasPrefix("."), "\(title)")
        #expect(try ExportNameTemplate("{title}").fileName(.init(name: "x", date: nil, sequence: 1, title: nil, rating: nil, id: "id1")) == "id1")
        #expect(throws: PhotoEditError.self) { try ExportNameTemplate("{date:%s}") }
        #expect(throws: PhotoEditError.self) { try ExportNameTemplate("{seq:12}") }
        #expect(throws: PhotoEditError.self) { try ExportNameTemplate("{name") }
    }

    /// The rewriter keeps what a policy allows and nothing else, on a block
    /// written by exiftool.
    @Test func exifRewriterFollowsThePolicy() throws {
        let temp = TemporaryDirectory("photoedit-export")
        let photo = try ExportTestPhoto.make(in: temp)
        let exif = try #require(try Image.load(path: photo, sequential: true).blob("exif-data"))
        let copyright = try #require(ExifRewriter.rewrite(exif, policy: .copyright))
        #expect(ExifRewriter.asciiFields(copyright, tags: [ExifRewriter.copyrightTag]) == [ExifRewriter.copyrightTag: ExportTestPhoto.copyright])
        #expect(ExifRewriter.asciiFields(copyright, tags: [0x010F]) == [:], "no Make under copyright")
        let all = try #require(ExifRewriter.rewrite(exif, policy: .all))
        #expect(ExifRewriter.asciiFields(all, tags: [0x010F])?[0x010F] == "Canon")
        #expect(ExifRewriter.rewrite(exif, policy: .none) == nil)
        #expect(ExifRewriter.rewrite(Data("Exif\0\0MM\0*\0\0\0\u{8}\u{FF}\u{FF}".utf8), policy: .all) == nil, "a damaged block gives no EXIF")
        #expect(ExifRewriter.rewrite(Data([0x49, 0x49, 42, 0, 0xFF, 0xFF, 0xFF, 0x7F]), policy: .all) == nil)
    }

    /// The max-bytes search fits in a few encodes and fails clearly.
    @Test func maxBytesSearch() throws {
        let image = try Image.load(path: Paths.sample("astronaut.jpg"), sequential: false).inMemory()
        var settings = try ExportSettings(values: ["max-bytes": "40KB", "metadata": "none"])
        let fitted = try ExportEncoder.finish(image, settings: settings, metadata: nil)
        #expect(fitted.data.count <= 40_000 && fitted.encodes <= 5, "\(fitted.data.count) bytes, \(fitted.encodes) encodes")
        #expect((fitted.quality ?? 0) < 90)
        settings.maxBytes = 1024
        settings.size = .full
        #expect {
            _ = try ExportEncoder.finish(image, settings: settings, metadata: nil)
        } throws: { "\($0)".contains("no quality fits max-bytes 1024") }
    }

    /// Over eight limits spaced evenly (in log) from just above the file at
    /// quality 1 to just below the file at the format's default quality, the search averages at most 4 encodes (issue 38's bound) for
    /// JPEG and WebP, never returns a file over the limit, and fills at
    /// least 85 % of it unless no quality lies between the fit and the next
    /// one up.
    @Test(arguments: [ExportFormat.jpeg, .webp])
    func maxBytesSearchEncodesFew(format: ExportFormat) throws {
        let image = try Image.load(path: Paths.sample("astronaut.jpg"), sequential: false).inMemory()
        let settings = try ExportSettings(values: ["format": format.rawValue, "metadata": "none"])
        let full = Double(try ExportEncoder.encoded(image, settings, quality: settings.effectiveQuality).count) * 0.95
        let least = Double(try ExportEncoder.encoded(image, settings, quality: 1).count) * 1.1
        var counts: [Int] = []
        for step in 0..<8 {
            let limit = Int(least * pow(full / least, Double(step) / 7))
            var encodes = 0
            var sizes: [Int: Int] = [:]
            let result = try QualitySearch.run(limit: limit, start: settings.effectiveQuality) { q in
                encodes += 1
                let data = try ExportEncoder.encoded(image, settings, quality: q)
                sizes[q] = data.count
                return data
            }
            let fit = try #require(result.fit, "nothing fits \(limit)")
            #expect(fit.data.count <= limit)
            let nextUp = sizes[fit.quality + 1].map { $0 > limit } ?? false
            #expect(Double(fit.data.count) >= 0.85 * Double(limit) || nextUp,
                    "\(format) \(limit): \(fit.data.count) bytes at q\(fit.quality)")
            counts.append(encodes)
        }
        let mean = Double(counts.reduce(0, +)) / Double(counts.count)
        #expect(mean <= 4, "\(format): \(counts)")
        #expect(counts.allSatisfy { $0 >= 2 }, "every limit is below the default quality's size: \(counts)")
    }

    /// Output sharpening raises local contrast on luminance; the numbers
    /// grow with the amount.
    @Test func sharpeningSharpens() throws {
        let image = try Image.load(path: Paths.sample("astronaut.jpg"), sequential: false)
        let plain = try ExportEncoder.finish(image, settings: try ExportSettings(values: ["format": "png", "long-edge": "256"]), metadata: nil)
        let sharp = try ExportEncoder.finish(image, settings: try ExportSettings(values: ["format": "png", "long-edge": "256", "sharpen": "screen:high"]), metadata: nil)
        // Sharpening steepens edges: the mean distance from a 3×3 box blur grows.
        func edges(_ data: Data) throws -> Double {
            let grey = try Image.load(data: data).colourspace("b-w").cast("float")
            let box = try Vips.image("black", [("width", .number(3)), ("height", .number(3))]).linear(multiply: [0], add: [1.0 / 9])
            let blurred = try grey.call("conv", [("mask", .image(box))])
            return try Vips.image("subtract", [("left", .image(grey)), ("right", .image(blurred))]).call("abs").average()
        }
        #expect(try edges(sharp.data) > edges(plain.data))
        #expect(try Image.load(data: sharp.data).deltaE2000(Image.load(data: plain.data)).average() > 0.2)
        let low = ExportEncoder.sharpeningParameters(.init(medium: .screen, amount: .low), longEdge: 2048)
        let high = ExportEncoder.sharpeningParameters(.init(medium: .screen, amount: .high), longEdge: 2048)
        #expect(low.amount < high.amount)
        #expect(ExportEncoder.sharpeningParameters(.init(medium: .matte), longEdge: 6000).sigma > ExportEncoder.sharpeningParameters(.init(medium: .matte), longEdge: 2048).sigma)
    }
}
