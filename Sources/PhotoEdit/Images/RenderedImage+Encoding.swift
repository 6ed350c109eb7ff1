import Foundation

/// The formats an image request's result can be re-encoded in (what a web
/// service offers: `image/jpeg`, `image/png`, `image/webp`, `image/avif`).
public enum ImageEncoding: String, Sendable, CaseIterable {
    case jpeg, png, webp, avif

    /// The media type (`image/jpeg`, …).
    public var mediaType: String { "image/\(rawValue)" }

    /// Does the format take a quality (1…100)? PNG is lossless.
    public var hasQuality: Bool { self != .png }
}

extension RenderedImage {
    /// The image encoded as `encoding` (sRGB profile kept, orientation 1).
    /// `quality` is 1…100 for the lossy formats and ignored for PNG. A JPEG
    /// asked at the quality it already has is returned as it is.
    public func encoded(as encoding: ImageEncoding, quality: Int, currentQuality: Int? = nil) throws -> Data {
        guard (1...100).contains(quality) else { throw PhotoEditError.invalidOutput("quality \(quality) is out of range (1…100)") }
        if encoding == .jpeg && quality == currentQuality { return data }
        let decoded = try image()
        switch encoding {
        case .jpeg: return try decoded.encoded(format: "jpeg", options: [("Q", .number(Double(quality)))])
        case .png: return try decoded.encoded(format: "png")
        case .webp: return try decoded.encoded(format: "webp", options: [("Q", .number(Double(quality)))])
        case .avif:
            // AV1 in HEIF; effort 2 of 0…9 keeps a thumbnail's encode in milliseconds.
            return try decoded.encoded(format: "heif", options: [("Q", .number(Double(quality))), ("compression", .string("av1")),
                                                                 ("effort", .number(2))])
        }
    }
}
