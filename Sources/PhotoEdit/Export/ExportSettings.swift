import Foundation

/// The file formats an export writes.
public enum ExportFormat: String, Sendable, CaseIterable, Codable {
    case jpeg, png, tiff, webp, avif, jxl, heic

    /// The file name extension (without the dot).
    public var fileExtension: String {
        switch self {
        case .jpeg: return "jpg"
        case .tiff: return "tif"
        default: return rawValue
        }
    }

    /// The media type, e.g. `image/jpeg`.
    public var mediaType: String { "image/\(rawValue)" }

    /// PNG and TIFF are always lossless; WebP, AVIF, HEIC and JPEG XL can be.
    public var isAlwaysLossless: Bool { self == .png || self == .tiff }
    /// Formats with a lossless mode (`lossless: true`).
    public var canBeLossless: Bool { self != .jpeg }
    /// Formats that hold 16 bits per channel here.
    public var holds16Bits: Bool { self == .png || self == .tiff || self == .jxl }
    /// The quality used when the settings name none.
    public var defaultQuality: Int {
        switch self {
        case .jpeg: return 90
        case .webp: return 85
        case .avif, .heic: return 60
        case .jxl: return 85
        case .png, .tiff: return 100
        }
    }

    /// The format a file name extension names, if any.
    public init?(pathExtension ext: String) {
        switch ext.lowercased() {
        case "jpg", "jpeg", "jpe": self = .jpeg
        case "png": self = .png
        case "tif", "tiff": self = .tiff
        case "webp": self = .webp
        case "avif": self = .avif
        case "jxl": self = .jxl
        case "heic", "heif": self = .heic
        default: return nil
        }
    }
}

/// Which metadata an export keeps (docs/export.md, "Metadata").
public enum ExportMetadataPolicy: String, Sendable, CaseIterable, Codable {
    /// Every EXIF field of the original (but its maker note and thumbnail),
    /// and the library's title, caption, keywords and rating as XMP.
    case all
    /// The copyright and the creator only.
    case copyright
    /// As `all`, without GPS, people and regions, owner or serial numbers.
    case noLocation = "no-location"
    /// No EXIF, IPTC or XMP at all (the ICC profile stays).
    case none
}

/// The medium output sharpening is tuned for, as Lightroom's Export dialog offers.
public enum SharpeningMedium: String, Sendable, CaseIterable, Codable {
    case screen, matte, glossy
}

/// How much output sharpening.
public enum SharpeningAmount: String, Sendable, CaseIterable, Codable {
    case low, standard, high
}

/// Output sharpening: an unsharp mask on luminance after the resize.
public struct ExportSharpening: Sendable, Hashable, Codable {
    public var medium: SharpeningMedium
    public var amount: SharpeningAmount

    public init(medium: SharpeningMedium, amount: SharpeningAmount = .standard) {
        self.medium = medium
        self.amount = amount
    }

    /// `screen`, `matte:high`, … (`none` is no sharpening: nil).
    public static func parse(_ text: String) throws -> ExportSharpening? {
        let lower = text.lowercased()
        if lower == "none" || lower == "off" { return nil }
        let parts = lower.split(separator: ":", omittingEmptySubsequences: false).map(String.init)
        guard (1...2).contains(parts.count), let medium = SharpeningMedium(rawValue: parts[0]),
              let amount = parts.count == 2 ? SharpeningAmount(rawValue: parts[1]) : .standard else {
            throw PhotoEditError.invalidOutput("sharpen '\(text)' is not none or screen|matte|glossy[:low|standard|high]")
        }
        return ExportSharpening(medium: medium, amount: amount)
    }

    /// `medium:amount`.
    public var text: String { "\(medium.rawValue):\(amount.rawValue)" }
}

/// Where a watermark sits.
public enum WatermarkPosition: String, Sendable, CaseIterable, Codable {
    case topLeft = "top-left", top, topRight = "top-right", left, center, right
    case bottomLeft = "bottom-left", bottom, bottomRight = "bottom-right"
}

/// How big an export is (docs/export.md, "Size").
public enum ExportSize: Sendable, Hashable {
    /// The version's full size.
    case full
    /// Fit inside this box.
    case box(width: Int, height: Int)
    /// The long edge is this many pixels.
    case longEdge(Int)
    /// The short edge is this many pixels.
    case shortEdge(Int)
    /// This many million pixels.
    case megapixels(Double)
    /// This percentage of each side.
    case percent(Double)

    /// The output size for a version of `width`×`height`; never larger than
    /// it unless `enlarge`.
    public func pixels(width: Int, height: Int, enlarge: Bool) -> (width: Int, height: Int) {
        let w = Double(width), h = Double(height)
        var scale: Double
        switch self {
        case .full: scale = 1
        case let .box(bw, bh): scale = min(Double(bw) / w, Double(bh) / h)
        case .longEdge(let n): scale = Double(n) / max(w, h)
        case .shortEdge(let n): scale = Double(n) / min(w, h)
        case .megapixels(let mp): scale = (mp * 1_000_000 / (w * h)).squareRoot()
        case .percent(let p): scale = p / 100
        }
        if !enlarge { scale = min(scale, 1) }
        if scale == 1 { return (width, height) }
        return (max(1, Int((w * scale).rounded())), max(1, Int((h * scale).rounded())))
    }
}

/// A watermark: a line of text or an image file, scaled to the output.
public struct ExportWatermark: Sendable, Hashable {
    /// The text, or nil for an image watermark.
    public var text: String?
    /// The image file (PNG with alpha is best), or nil for a text watermark.
    public var imagePath: String?
    /// Text height, or the image's width, as a percentage of the output's short edge (text) or width (image).
    public var size: Double = 4
    /// 0 (invisible) … 1 (opaque).
    public var opacity: Double = 0.6
    public var position: WatermarkPosition = .bottomRight
    /// Distance from the edges, as a percentage of the output's short edge.
    public var inset: Double = 2

    public init(text: String? = nil, imagePath: String? = nil) {
        self.text = text
        self.imagePath = imagePath
    }
}

/// Everything that shapes an exported file: format, quality, size, output
/// sharpening, metadata, watermark and the file-name template. Declared
/// once in `ExportSettings.options`; the CLI's options and help, the JSON
/// of presets and HTTP, and validation all come from that declaration.
public struct ExportSettings: Sendable, Hashable {
    public var format: ExportFormat = .jpeg
    /// 1…100; nil: the format's default (`ExportFormat.defaultQuality`).
    public var quality: Int?
    /// Lossless WebP, AVIF, HEIC or JPEG XL.
    public var lossless = false
    /// Encoder effort 0 (fastest) … 9 (smallest); nil: the format's default.
    public var effort: Int?
    /// 8, or 16 for PNG, TIFF and JPEG XL.
    public var bitDepth = 8
    /// The output colour space; its ICC profile is always embedded.
    public var profile: OutputProfile = .sRGB
    public var intent: RenderingIntent = .relative
    public var size: ExportSize = .full
    /// Allow the size to exceed the version's own.
    public var enlarge = false
    /// The largest file allowed: the quality is searched until it fits.
    public var maxBytes: Int?
    public var sharpening: ExportSharpening?
    public var metadata: ExportMetadataPolicy = .all
    public var watermark: ExportWatermark?
    /// TIFF compression.
    public var tiffCompression: TIFFCompression = .lzw
    /// The file-name template of batch exports (`ExportNameTemplate`).
    public var nameTemplate = ExportNameTemplate.defaultTemplate

    public init() {}

    /// The quality in effect.
    public var effectiveQuality: Int { quality ?? format.defaultQuality }
}

/// One option of the export settings, declared once.
public struct ExportOption: Sendable {
    /// What values the option takes.
    public enum Kind: Sendable {
        case choice([String])
        case integer(ClosedRange<Int>)
        case number(ClosedRange<Double>)
        case text
        case flag
    }
    /// The name: the CLI's `--name`, the JSON key, the query parameter.
    public let name: String
    public let kind: Kind
    /// The default as text, nil when there is none (the option is unset).
    public let defaultValue: String?
    /// One line of help.
    public let help: String
    /// The value's name in `--help` (`N`, `FORMAT`…).
    public let valueName: String
}

extension ExportSettings {
    /// The option names that give the size; at most one may be set.
    public static let sizeOptionNames = ["size", "long-edge", "short-edge", "megapixels", "percent"]
    /// The longest side a size option may ask for.
    public static let maxSide = 65_535
    /// The smallest max-bytes (1 KB, as the units count: 1000 bytes).
    public static let minByteLimit = 1_000
    /// The largest max-bytes (1 GB: 10⁹ bytes).
    public static let maxByteLimit = 1_000_000_000

    /// Every export option, in the order `--help` lists them.
    public static let options: [ExportOption] = [
        ExportOption(name: "format", kind: .choice(ExportFormat.allCases.map(\.rawValue)), defaultValue: "jpeg",
                     help: "File format (heic only where libheif has an HEVC encoder).", valueName: "FORMAT"),
        ExportOption(name: "quality", kind: .integer(1...100), defaultValue: nil,
                     help: "Quality 1-100 (default: jpeg 90, webp 85, jxl 85, avif/heic 60).", valueName: "Q"),
        ExportOption(name: "lossless", kind: .flag, defaultValue: "false", help: "Lossless WebP, AVIF, HEIC or JPEG XL.", valueName: "BOOL"),
        ExportOption(name: "effort", kind: .integer(0...9), defaultValue: nil,
                     help: "Encoder effort 0 (fast) - 9 (small) for webp, avif, heic, jxl and png.", valueName: "N"),
        ExportOption(name: "depth", kind: .choice(["8", "16"]), defaultValue: "8", help: "Bits per channel: 8, or 16 for png, tiff and jxl.", valueName: "BITS"),
        ExportOption(name: "profile", kind: .text, defaultValue: "srgb",
                     help: "Colour space: srgb, display-p3, adobe-rgb or a PATH.icc (always embedded).", valueName: "PROFILE"),
        ExportOption(name: "intent", kind: .choice(RenderingIntent.allCases.map(\.rawValue)), defaultValue: "relative",
                     help: "Rendering intent for colours the profile cannot hold.", valueName: "INTENT"),
        ExportOption(name: "size", kind: .text, defaultValue: nil, help: "Fit inside this box, WxH or N (N×N).", valueName: "WxH"),
        ExportOption(name: "long-edge", kind: .integer(1...maxSide), defaultValue: nil, help: "Long edge in pixels.", valueName: "N"),
        ExportOption(name: "short-edge", kind: .integer(1...maxSide), defaultValue: nil, help: "Short edge in pixels.", valueName: "N"),
        ExportOption(name: "megapixels", kind: .number(0.01...1000), defaultValue: nil, help: "Size in million pixels.", valueName: "MP"),
        ExportOption(name: "percent", kind: .number(0.1...1000), defaultValue: nil, help: "Size as a percentage of the full size.", valueName: "P"),
        ExportOption(name: "enlarge", kind: .flag, defaultValue: "false", help: "Allow a size larger than the photo's own (never by default).", valueName: "BOOL"),
        ExportOption(name: "max-bytes", kind: .text, defaultValue: nil,
                     help: "At most this file size, N, NKB or NMB: the quality is searched until it fits.", valueName: "N[KB|MB]"),
        ExportOption(name: "sharpen", kind: .text, defaultValue: "none",
                     help: "Output sharpening after the resize: none or screen|matte|glossy[:low|standard|high].", valueName: "MEDIUM[:AMOUNT]"),
        ExportOption(name: "metadata", kind: .choice(ExportMetadataPolicy.allCases.map(\.rawValue)), defaultValue: "all",
                     help: "Metadata kept: all, copyright, no-location or none (orientation baked in, ICC always embedded).", valueName: "POLICY"),
        ExportOption(name: "watermark", kind: .text, defaultValue: nil, help: "A text, or @FILE for an image, drawn on the output.", valueName: "TEXT|@FILE"),
        ExportOption(name: "watermark-size", kind: .number(0.5...50), defaultValue: "4",
                     help: "Text height (% of the short edge) or image width (% of the width).", valueName: "P"),
        ExportOption(name: "watermark-opacity", kind: .number(0...1), defaultValue: "0.6", help: "Watermark opacity, 0-1.", valueName: "A"),
        ExportOption(name: "watermark-position", kind: .choice(WatermarkPosition.allCases.map(\.rawValue)), defaultValue: "bottom-right",
                     help: "Where the watermark sits.", valueName: "POSITION"),
        ExportOption(name: "watermark-inset", kind: .number(0...25), defaultValue: "2", help: "Distance from the edges, % of the short edge.", valueName: "P"),
        ExportOption(name: "compression", kind: .choice(TIFFCompression.allCases.map(\.rawValue)), defaultValue: "lzw", help: "TIFF compression.", valueName: "METHOD"),
        ExportOption(name: "name", kind: .text, defaultValue: ExportNameTemplate.defaultTemplate,
                     help: "File-name template of batch exports: {name} {date:%Y-%m-%d} {seq:4} {title} {rating} {id}.", valueName: "TEMPLATE"),
    ]

    /// The option called `name`.
    public static func option(_ name: String) -> ExportOption? { options.first { $0.name == name } }

    /// Settings from option values by name (the CLI's, a query's, a
    /// preset's): every value is checked against its declaration; unknown
    /// names, bad values and conflicting sizes are one-line errors.
    public init(values: [String: String], base: ExportSettings = ExportSettings()) throws {
        self = base
        for name in Self.sizeOptionNames where values[name] != nil { self.size = .full }
        let sizes = Self.sizeOptionNames.filter { values[$0] != nil }
        if sizes.count > 1 { throw PhotoEditError.invalidOutput("give one size option, not \(sizes.map { "--" + $0 }.joined(separator: " and "))") }
        for (name, value) in values.sorted(by: { $0.key < $1.key }) {
            guard let option = Self.option(name) else {
                throw PhotoEditError.invalidOutput("unknown export setting '\(name)' (\(Self.options.map(\.name).joined(separator: ", ")))")
            }
            try apply(option, value)
        }
        try validate()
    }

    private mutating func apply(_ option: ExportOption, _ raw: String) throws {
        let text = raw.trimmingCharacters(in: .whitespaces)
        func bad(_ what: String) -> PhotoEditError { .invalidOutput("\(option.name) '\(raw.prefix(100))' \(what)") }
        var int: Int?, number: Double?, flag = false
        switch option.kind {
        case .choice(let allowed):
            guard allowed.contains(text.lowercased()) else { throw bad("is not \(allowed.joined(separator: ", "))") }
        case .integer(let range):
            guard let n = Int(text), range.contains(n) else { throw bad("is not a whole number in \(range.lowerBound)…\(range.upperBound)") }
            int = n
        case .number(let range):
            guard let n = Double(text), n.isFinite, range.contains(n) else { throw bad("is not a number in \(range.lowerBound)…\(range.upperBound)") }
            number = n
        case .flag:
            switch text.lowercased() {
            case "true", "1", "yes", "": flag = true
            case "false", "0", "no": flag = false
            default: throw bad("is not true or false")
            }
        case .text:
            guard text.count <= 1000, !text.contains("\0") else { throw bad("is too long or holds a NUL") }
        }
        let lower = text.lowercased()
        // The value as the option's kind read it (checked above).
        func choice<T: RawRepresentable>(_: T.Type) throws -> T where T.RawValue == String {
            guard let value = T(rawValue: lower) else { throw bad("is not one of its choices") }
            return value
        }
        func whole() throws -> Int {
            guard let int = int ?? Int(lower) else { throw bad("is not a whole number") }
            return int
        }
        func real() throws -> Double {
            guard let number else { throw bad("is not a number") }
            return number
        }
        switch option.name {
        case "format": format = try choice(ExportFormat.self)
        case "quality": quality = int
        case "lossless": lossless = flag
        case "effort": effort = int
        case "depth": bitDepth = try whole()
        case "profile":
            guard let p = OutputProfile(name: text) else { throw bad("is not srgb, display-p3, adobe-rgb or a .icc file") }
            profile = p
        case "intent": intent = try choice(RenderingIntent.self)
        case "size":
            let parts = lower.split(separator: "x", omittingEmptySubsequences: false)
            guard (1...2).contains(parts.count), let w = Int(parts[0]), let h = parts.count == 2 ? Int(parts[1]) : w,
                  (1...Self.maxSide).contains(w), (1...Self.maxSide).contains(h) else {
                throw bad("is not WxH or N with sides 1…\(Self.maxSide)")
            }
            size = .box(width: w, height: h)
        case "long-edge": size = .longEdge(try whole())
        case "short-edge": size = .shortEdge(try whole())
        case "megapixels": size = .megapixels(try real())
        case "percent": size = .percent(try real())
        case "enlarge": enlarge = flag
        case "max-bytes": maxBytes = try Self.parseBytes(text)
        case "sharpen": sharpening = try ExportSharpening.parse(text)
        case "metadata": metadata = try choice(ExportMetadataPolicy.self)
        case "watermark":
            if text.isEmpty || lower == "none" { watermark = nil; break }
            var mark = watermark ?? ExportWatermark()
            if text.hasPrefix("@") {
                guard text.count > 1 else { throw bad("names no file after @") }
                (mark.text, mark.imagePath) = (nil, String(text.dropFirst()))
            } else {
                guard text.count <= 200 else { throw bad("is longer than 200 characters") }
                (mark.text, mark.imagePath) = (text, nil)
            }
            watermark = mark
        // Applied after "watermark" (names in order); without a watermark they change nothing.
        case "watermark-size": watermark?.size = try real()
        case "watermark-opacity": watermark?.opacity = try real()
        case "watermark-position": watermark?.position = try choice(WatermarkPosition.self)
        case "watermark-inset": watermark?.inset = try real()
        case "compression": tiffCompression = try choice(TIFFCompression.self)
        case "name":
            _ = try ExportNameTemplate(text)
            nameTemplate = text
        default: throw bad("is not handled")
        }
    }

    /// "500000", "500KB", "1.5MB", "1GB" (KB = 1000 bytes, KiB = 1024), 1 KB to 1 GB.
    public static func parseBytes(_ text: String) throws -> Int {
        let upper = text.uppercased().replacingOccurrences(of: " ", with: "")
        let units: [(String, Double)] = [("KIB", 1024), ("MIB", 1_048_576), ("GIB", 1_073_741_824), ("KB", 1000), ("MB", 1_000_000),
                                         ("GB", 1_000_000_000), ("K", 1000), ("M", 1_000_000), ("G", 1_000_000_000), ("B", 1)]
        var multiplier = 1.0
        var digits = Substring(upper)
        for (suffix, m) in units where upper.hasSuffix(suffix) {
            multiplier = m
            digits = upper.dropLast(suffix.count)
            break
        }
        guard let n = Double(digits), n.isFinite, n > 0 else {
            throw PhotoEditError.invalidOutput("max-bytes '\(text.prefix(100))' is not a positive size like 500000, 500KB or 2MB")
        }
        let bytes = Int((n * multiplier).rounded())
        guard (minByteLimit...maxByteLimit).contains(bytes) else {
            throw PhotoEditError.invalidOutput("max-bytes '\(text.prefix(100))' is \(bytes) bytes, outside 1KB…1GB (\(minByteLimit) to \(maxByteLimit) bytes)")
        }
        return bytes
    }

    /// The settings as option values by name: what differs from the
    /// defaults (the inverse of `init(values:)`; presets store these).
    public var values: [String: String] {
        var out: [String: String] = [:]
        let d = ExportSettings()
        if format != d.format { out["format"] = format.rawValue }
        if let quality { out["quality"] = String(quality) }
        if lossless { out["lossless"] = "true" }
        if let effort { out["effort"] = String(effort) }
        if bitDepth != 8 { out["depth"] = String(bitDepth) }
        switch profile {
        case .sRGB: break
        case .displayP3: out["profile"] = "display-p3"
        case .adobeRGB: out["profile"] = "adobe-rgb"
        case .file(let path): out["profile"] = path
        }
        if intent != d.intent { out["intent"] = intent.rawValue }
        switch size {
        case .full: break
        case let .box(w, h): out["size"] = "\(w)x\(h)"
        case .longEdge(let n): out["long-edge"] = String(n)
        case .shortEdge(let n): out["short-edge"] = String(n)
        case .megapixels(let mp): out["megapixels"] = Self.number(mp)
        case .percent(let p): out["percent"] = Self.number(p)
        }
        if enlarge { out["enlarge"] = "true" }
        if let maxBytes { out["max-bytes"] = String(maxBytes) }
        if let sharpening { out["sharpen"] = sharpening.text }
        if metadata != d.metadata { out["metadata"] = metadata.rawValue }
        if let mark = watermark {
            out["watermark"] = mark.text ?? "@" + (mark.imagePath ?? "")
            let m = ExportWatermark()
            if mark.size != m.size { out["watermark-size"] = Self.number(mark.size) }
            if mark.opacity != m.opacity { out["watermark-opacity"] = Self.number(mark.opacity) }
            if mark.position != m.position { out["watermark-position"] = mark.position.rawValue }
            if mark.inset != m.inset { out["watermark-inset"] = Self.number(mark.inset) }
        }
        if tiffCompression != d.tiffCompression { out["compression"] = tiffCompression.rawValue }
        if nameTemplate != d.nameTemplate { out["name"] = nameTemplate }
        return out
    }

    private static func number(_ n: Double) -> String {
        n == n.rounded() && abs(n) < 1e9 ? String(Int(n)) : String(n)
    }

    /// A stable text of every setting (sorted `name=value` lines), for hashes
    /// that decide whether an exported file is current.
    public var canonicalText: String {
        values.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(separator: "\n")
    }

    /// Checks the combination of settings (each value was checked alone).
    public func validate() throws {
        if bitDepth == 16 && !format.holds16Bits {
            throw PhotoEditError.invalidOutput("\(format.rawValue) holds 8 bits per channel here; 16 needs png, tiff or jxl")
        }
        if lossless && !format.canBeLossless { throw PhotoEditError.invalidOutput("jpeg has no lossless mode; use png, tiff, webp, avif, heic or jxl") }
        if maxBytes != nil && (format.isAlwaysLossless || lossless) {
            throw PhotoEditError.invalidOutput("max-bytes searches a lossy quality; \(lossless ? "lossless " : "")\(format.rawValue) has none")
        }
        if case .file(let path) = profile, !FileManager.default.fileExists(atPath: path) {
            throw PhotoEditError.invalidOutput("no ICC profile at \(path)")
        }
        if let mark = watermark, let path = mark.imagePath, !FileManager.default.fileExists(atPath: path) {
            throw PhotoEditError.invalidOutput("watermark file \(path) does not exist")
        }
        if format == .heic && !ExportEncoder.canEncodeHEIC {
            throw PhotoEditError.invalidOutput("heic cannot be written here: libheif has no HEVC encoder (use avif)")
        }
    }
}
