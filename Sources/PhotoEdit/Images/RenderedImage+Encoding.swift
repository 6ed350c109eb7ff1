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
    /// asked at the quality it already has is returned as it is; any other
    /// answer decodes this JPEG and encodes it again (a second lossy
    /// generation): a service answering many formats uses
    /// `ImageManager.requestEncodedImage`, which encodes the pixels once.
    public func encoded(as encoding: ImageEncoding, quality: Int, currentQuality: Int? = nil) throws -> Data {
        try ImageEncoding.check(quality: quality)
        if encoding == .jpeg && quality == currentQuality { return data }
        return try encoding.encode(try image(), quality: quality)
    }
}

extension ImageEncoding {
    static func check(quality: Int) throws {
        guard (1...100).contains(quality) else { throw PhotoEditError.invalidOutput("quality \(quality) is out of range (1…100)") }
    }

    /// `image`'s pixels encoded in this format at `quality`.
    func encode(_ image: Image, quality: Int) throws -> Data {
        switch self {
        case .jpeg: return try image.encoded(format: "jpeg", options: [("Q", .number(Double(quality)))])
        case .png: return try image.encoded(format: "png")
        case .webp: return try image.encoded(format: "webp", options: [("Q", .number(Double(quality)))])
        case .avif:
            // AV1 in HEIF; effort 2 of 0…9 keeps a thumbnail's encode in milliseconds.
            return try image.encoded(format: "heif", options: [("Q", .number(Double(quality))), ("compression", .string("av1")),
                                                               ("effort", .number(2))])
        }
    }
}
