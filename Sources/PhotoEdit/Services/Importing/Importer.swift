import Foundation

/// What the engine learns about an image file before accepting it.
package struct ProbedImage: Sendable {
    var loader: String
    package var format: String
    var uniformTypeIdentifier: String
    /// Size as stored (before orientation).
    var storedWidth: Int
    var storedHeight: Int
    var orientation: Int
    var creationDate: String?
    var latitude: Double?
    var longitude: Double?
    /// Camera metadata (RAW files, from libraw).
    var camera: CameraInfo?

    /// For RAW files, the extension the original is stored under.
    var rawExtension: String?
    /// The embedded XMP packet (libvips' `xmp-data`), if any.
    var xmp: Data?
    /// The embedded IPTC-IIM data (libvips' `iptc-data`), if any.
    var iptc: Data?

    /// Size as displayed (orientation applied).
    var width: Int { orientation >= 5 ? storedHeight : storedWidth }
    var height: Int { orientation >= 5 ? storedWidth : storedHeight }
}

/// Reads and checks image files for import.
package enum Importer {
    /// Loaders of photo formats the engine accepts, with their format name,
    /// file extension and uniform type identifier. Text-based and
    /// document loaders (csv, matrix, svg, pdf, ImageMagick's) are refused.
    static let formats: [String: (format: String, ext: String, uti: String)] = [
        "jpegload": ("jpeg", "jpg", "public.jpeg"),
        "pngload": ("png", "png", "public.png"),
        "tiffload": ("tiff", "tif", "public.tiff"),
        "webpload": ("webp", "webp", "org.webmproject.webp"),
        "heifload": ("heif", "heic", "public.heic"),
        "jxlload": ("jxl", "jxl", "public.jpeg-xl"),
        "gifload": ("gif", "gif", "com.compuserve.gif"),
        "jp2kload": ("jpeg2000", "jp2", "public.jpeg-2000"),
    ]

    /// The largest image accepted, in pixels: `PHOTOEDIT_MAX_PIXELS`, else
    /// 120 MP (above every current camera, below decompression bombs).
    static var maxPixels: Int {
        if let text = ProcessInfo.processInfo.environment["PHOTOEDIT_MAX_PIXELS"], let n = Int(text), n > 0 { return n }
        return 120_000_000
    }

    /// Pixels one byte of JPEG data can describe at most, with margin: flat
    /// colour with optimised tables measures ~250 (libvips 8.14, libjpeg-turbo).
    static let minimumJPEGPixelsPerByte: Int64 = 1024

    static func fileSize(_ path: String) -> Int64? {
        var info = stat()
        return stat(path, &info) == 0 ? Int64(info.st_size) : nil
    }

    /// The largest file imported, in bytes: `PHOTOEDIT_MAX_FILE_SIZE` (bytes,
    /// or with a K, M or G suffix), else 2 GiB (above the largest camera
    /// RAWs and 16-bit scans; checked while the file is read, so a file that
    /// grows, or `/dev/zero`, stops there).
    static var maxFileBytes: Int64 {
        if let text = ProcessInfo.processInfo.environment["PHOTOEDIT_MAX_FILE_SIZE"], let n = parseSize(text), n > 0 { return n }
        return 2 << 30
    }

    /// `123`, `64K`, `500M`, `2G` (powers of 1024).
    static func parseSize(_ text: String) -> Int64? {
        let t = text.trimmingCharacters(in: .whitespaces).uppercased()
        let units: [Character: Int64] = ["K": 1 << 10, "M": 1 << 20, "G": 1 << 30]
        if let last = t.last, let unit = units[last] {
            guard let n = Int64(t.dropLast()), n > 0, n <= Int64.max / unit else { return nil }
            return n * unit
        }
        return Int64(t)
    }

    /// Checks that `path` is a whole, decodable image of an accepted format
    /// within the pixel limit, and reads its metadata. `displayPath` names the
    /// file in errors.
    ///
    /// - Parameter decodeAll: decode every pixel to rule out truncated or
    ///   corrupt data. Only files the engine itself just wrote skip it.
    package static func probe(path: String, displayPath: String, decodeAll: Bool = true) throws -> ProbedImage {
        try Vips.ensureStarted()
        guard FileIO.exists(path) else { throw PhotoEditError.unreadableFile(path: displayPath, reason: "no such file") }
        if let attributes = try? FileManager.default.attributesOfItem(atPath: path),
           (attributes[.size] as? NSNumber)?.intValue == 0 {
            throw PhotoEditError.unreadableFile(path: displayPath, reason: "empty file")
        }
        // Camera RAW first, by content: libvips would open many RAWs (TIFF
        // containers) as their small embedded preview.
        if let raw = RawDecoder.identify(path) {
            return try probeRaw(path: path, displayPath: displayPath, info: raw, decodeAll: decodeAll)
        }
        let loader = Vips.loader(for: path)?.replacingOccurrences(of: "_source", with: "")
        guard let loader, var format = formats[loader] else {
            let named = (displayPath as NSString).pathExtension.lowercased()
            if RawDecoder.extensions.contains(named) && named != "raw" {
                // Named as a camera RAW, read by neither libraw nor, as a photo, by libvips.
                throw PhotoEditError.unreadableFile(path: displayPath, reason: "a damaged or unsupported camera RAW (libraw: \(RawDecoder.identifyProblem(path)))")
            }
            throw PhotoEditError.unreadableFile(path: displayPath, reason: loader.map { "not a photo format photoedit accepts (libvips loader \($0))" }
                                                ?? "not an image (libvips recognises no format)")
        }
        let header: Image
        do {
            // Strict: any decoder warning (libjpeg's "corrupt data", a short
            // read) fails the decode below, so a damaged file is refused
            // instead of entering the library half grey.
            header = try Image.load(path: path, sequential: true, strict: decodeAll)
        } catch PhotoEditError.unreadableFile(_, let reason) {
            throw PhotoEditError.unreadableFile(path: displayPath, reason: reason)
        }
        let (w, h) = (header.width, header.height)
        guard w * h <= maxPixels else {
            throw PhotoEditError.imageTooLarge(path: displayPath, width: w, height: h, limit: maxPixels)
        }
        // A scan bomb: a header that claims far more pixels than the bytes
        // could hold. The densest real JPEG (one flat colour, optimised
        // Huffman tables) needs about 1 byte per 250 pixels.
        if loader == "jpegload", let bytes = fileSize(path), bytes * minimumJPEGPixelsPerByte < Int64(w) * Int64(h) {
            throw PhotoEditError.unreadableFile(path: displayPath,
                                                reason: "damaged: its header claims \(w)×\(h) pixels, more than \(bytes) bytes of JPEG can hold")
        }
        // Decode every pixel once, failing on truncated or corrupt data, so a
        // damaged file never enters the library. On one thread and without
        // shrink-on-load: libvips 8.14 loses the decoder's error when several
        // threads read the failing tile (see decodeEveryPixel).
        do {
            // At a lower priority when an upload is imported on the bulk
            // lane: the longest pure computation of an import.
            if decodeAll { try BlockingExecutor.inBackground { try header.decodeEveryPixel() } }
        } catch let PhotoEditError.native(_, _, message) {
            throw PhotoEditError.unreadableFile(path: displayPath, reason: "damaged or truncated (\(oneLine(message)))")
        }
        if loader == "heifload", let compression = header.string("heif-compression"), compression.hasPrefix("av1") {
            format = ("avif", "avif", "public.avif")
        }
        var probed = ProbedImage(loader: loader, format: format.format, uniformTypeIdentifier: format.uti,
                                 storedWidth: w, storedHeight: h, orientation: 1)
        if let o = header.int("orientation"), (1...8).contains(o) { probed.orientation = o }
        probed.creationDate = creationDate(header)
        (probed.latitude, probed.longitude) = location(header)
        probed.xmp = header.blob("xmp-data")
        probed.iptc = header.blob("iptc-data")
        return probed
    }

    /// Why a file already in the library no longer decodes whole (every
    /// pixel, strictly, as at import), or nil if it does.
    static func decodeProblem(path: String) -> String? {
        do {
            if RawDecoder.identify(path) != nil {
                var check = RawSettings.neutral
                check.halfSize = true
                _ = try RawDecoder.develop(path, settings: check, displayPath: (path as NSString).lastPathComponent).average()
            } else {
                try Image.load(path: path, sequential: true, strict: true).decodeEveryPixel()
            }
            return nil
        } catch let error as PhotoEditError {
            return oneLine(error.description)
        } catch {
            return "\(error)"
        }
    }

    /// A RAW file: metadata from libraw, and a half-size development to make
    /// sure the sensor data is whole.
    static func probeRaw(path: String, displayPath: String, info: RawInfo, decodeAll: Bool) throws -> ProbedImage {
        guard info.width * info.height <= maxPixels else {
            throw PhotoEditError.imageTooLarge(path: displayPath, width: info.width, height: info.height, limit: maxPixels)
        }
        if decodeAll {
            var check = RawSettings.neutral
            check.halfSize = true
            _ = try RawDecoder.develop(path, settings: check, displayPath: displayPath).average()
        }
        let ext = (displayPath as NSString).pathExtension.lowercased()
        let stored = RawDecoder.extensions.contains(ext) ? ext : (info.isDNG ? "dng" : "raw")
        var probed = ProbedImage(loader: "raw", format: "raw", uniformTypeIdentifier: info.isDNG ? "com.adobe.raw-image" : "public.camera-raw-image",
                                 storedWidth: info.width, storedHeight: info.height, orientation: 1)
        probed.rawExtension = stored
        probed.xmp = rawXMP(path)
        probed.creationDate = info.creationDate
        probed.camera = CameraInfo(make: info.make, model: info.model, lens: info.lens.isEmpty ? nil : info.lens, iso: info.iso,
                                   exposureTime: info.exposureTime, fNumber: info.fNumber, focalLength: info.focalLength)
        return probed
    }

    /// The XMP packet inside a camera RAW that is a TIFF container (DNG:
    /// Lightroom writes its settings and metadata there, tag 700 of the
    /// first directory), read by libvips' TIFF loader from the header only.
    /// Nil for other RAWs (libraw does not expose XMP) and when there is none.
    static func rawXMP(_ path: String) -> Data? {
        guard Vips.loader(for: path)?.hasPrefix("tiffload") == true else { return nil }
        return (try? Image.load(path: path, sequential: true, strict: false))?.blob("xmp-data")
    }

    static func fileExtension(forLoader loader: String, format: String, raw: String? = nil) -> String {
        if let raw { return raw }
        if format == "avif" { return "avif" }
        return formats[loader]?.ext ?? "img"
    }

    /// The value part of a libvips EXIF field ("2021:06:15 14:30:00 (…)").
    private static func exifValue(_ image: Image, _ field: String) -> String? {
        guard let text = image.string(field) else { return nil }
        if let paren = text.range(of: " (") { return String(text[..<paren.lowerBound]).trimmingCharacters(in: .whitespaces) }
        return text.trimmingCharacters(in: .whitespaces)
    }

    /// Capture time from EXIF as ISO 8601 (with the offset when recorded).
    static func creationDate(_ image: Image) -> String? {
        let candidates = [("exif-ifd2-DateTimeOriginal", "exif-ifd2-OffsetTimeOriginal"),
                          ("exif-ifd2-DateTimeDigitized", "exif-ifd2-OffsetTimeDigitized"),
                          ("exif-ifd0-DateTime", "exif-ifd2-OffsetTime")]
        for (field, offsetField) in candidates {
            guard let text = exifValue(image, field), text.count >= 19 else { continue }
            let s = Array(text.prefix(19))
            guard s[4] == ":", s[7] == ":", s[10] == " ", s[13] == ":", s[16] == ":" else { continue }
            let date = String(s[0..<4]) + "-" + String(s[5..<7]) + "-" + String(s[8..<10]) + "T" + String(s[11..<19])
            guard !date.hasPrefix("0000") else { continue }
            if let offset = exifValue(image, offsetField), offset.count == 6, offset.first == "+" || offset.first == "-" {
                return date + offset
            }
            return date
        }
        return nil
    }

    /// GPS position from EXIF, in signed decimal degrees.
    static func location(_ image: Image) -> (Double?, Double?) {
        func degrees(_ field: String, _ refField: String, negative: String) -> Double? {
            guard let text = exifValue(image, field) else { return nil }
            let parts = text.split(separator: " ").compactMap { part -> Double? in
                let r = part.split(separator: "/")
                if r.count == 2, let n = Double(r[0]), let d = Double(r[1]), d != 0 { return n / d }
                return Double(part)
            }
            guard parts.count == 3 else { return nil }
            var value = parts[0] + parts[1] / 60 + parts[2] / 3600
            if exifValue(image, refField)?.uppercased().hasPrefix(negative) == true { value = -value }
            return (value * 1e7).rounded() / 1e7
        }
        let lat = degrees("exif-ifd3-GPSLatitude", "exif-ifd3-GPSLatitudeRef", negative: "S")
        let lon = degrees("exif-ifd3-GPSLongitude", "exif-ifd3-GPSLongitudeRef", negative: "W")
        guard let lat, let lon, abs(lat) <= 90, abs(lon) <= 180 else { return (nil, nil) }
        return (lat, lon)
    }
}

/// Names and places of imported files, shared by Importing (finding and
/// pairing the files of a batch) and Committing (staging them), Maintenance
/// (rebuilding) and the files' listing.
extension Importer {
    /// Regular files under `folder`, recursively, hidden files skipped, sorted.
    static func filesInFolder(_ folder: String) -> [String] {
        SystemPath(folder).regularFilesInside().map(\.display)
    }

    /// The folder a file is imported from (absolute, symbolic links resolved).
    static func sourceFolder(of path: SystemPath) -> String {
        (path.parent.resolved() ?? path.parent).display
    }

    /// A file's name without its extension, lowercased: `IMG_0042.CR2` and
    /// `IMG_0042.JPG` are one shot.
    static func sourceStem(of path: SystemPath) -> String {
        (SystemPath.display(path.lastComponent) as NSString).deletingPathExtension.lowercased()
    }

    /// Formats that pair with a RAW of the same shot (the camera's JPEG or HEIF).
    static let pairableFormats: Set<String> = ["jpeg", "heif"]

    /// How an upload without a file name is named in errors.
    static let unnamedUpload = "uploaded data"

    static func checkedFilename(_ name: String?) throws -> String? {
        guard let name else { return nil }
        guard !name.isEmpty, name.utf8.count <= 255, name != ".", name != "..", !name.contains("/"),
              !name.unicodeScalars.contains(where: { $0.value < 0x20 || $0.value == 0x7f }) else {
            throw PhotoEditError.invalidChange("file name '\(name)' must be one path component of 1–255 bytes without control characters")
        }
        return name
    }
}
