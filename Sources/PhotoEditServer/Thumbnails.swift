// Only with the `Server` trait (Package.swift): without it the module is empty.
#if Server
import Foundation
import Hummingbird
import PhotoEdit

/// Thumbnail URLs in a listing: `GET /v1/assets?thumbnail=SIZE` gives each
/// photo a `thumbnailURL`, so a grid of 60 photos costs one request, not 61.
///
/// The URL is the photo's render at its current revision (`rev=N`, so
/// immutable: browsers and CDNs keep it until the photo changes), covering a
/// SIZE×SIZE square (`fit=fill`: the short side is SIZE, nothing is cut off,
/// the grid's image view crops; `thumbnailFit=fit`: the long side is SIZE),
/// WebP unless `thumbnailFormat` says otherwise. With signing keys
/// it is signed and expires at the end of the next whole UTC day: between 24
/// and 48 hours, and the same URL all day long, so a listing made an hour
/// later gives URLs the browser already has.
struct ThumbnailRequest: Sendable {
    /// The sizes a listing signs: a thumbnail, not a full render.
    static let sizes = 16...1024
    /// The listing's parameters that shape thumbnails.
    static let parameters: Set = ["thumbnail", "thumbnailFit", "thumbnailFormat"]

    let size: Int
    let fit: ImageContentMode
    let format: ImageEncoding

    /// The thumbnails a listing asks for; nil when it asks for none.
    init?(_ query: Hummingbird.Parameters) throws {
        guard let size = try integer(query, "thumbnail", in: Self.sizes) else {
            if let other = Self.parameters.sorted().first(where: { query.get($0) != nil }) {
                throw Problem(.badRequest, code: "invalid-parameter", "\(other) needs thumbnail=SIZE (\(Self.sizes.lowerBound)…\(Self.sizes.upperBound))")
            }
            return nil
        }
        self.size = size
        switch query.get("thumbnailFit") {
        case nil, "fill": fit = .aspectFill
        case "fit": fit = .aspectFit
        default: throw Problem(.badRequest, code: "invalid-parameter", "thumbnailFit must be fill or fit")
        }
        if let text = query.get("thumbnailFormat") {
            guard let format = ImageEncoding(rawValue: text) else {
                throw Problem(.badRequest, code: "invalid-parameter",
                              "thumbnailFormat must be one of \(ImageEncoding.allCases.map(\.rawValue).joined(separator: ", "))")
            }
            self.format = format
        } else {
            format = .webp
        }
    }

    /// When the URLs signed at `now` expire: the end of the next whole UTC day.
    static func expiry(at now: Date) -> Date {
        let day = 86_400.0
        return Date(timeIntervalSince1970: ((now.timeIntervalSince1970 / day).rounded(.down) + 2) * day)
    }

    /// The members a photo's JSON gets: `thumbnailURL`, and
    /// `thumbnailURLExpires` (null when the URL is not signed).
    func members(for asset: Asset, signer: URLSigner, now: Date) -> [String: JSONValue] {
        let path = "/v1/assets/\(asset.id)/render?w=\(size)&h=\(size)&fit=\(fit.rawValue)&format=\(format.rawValue)&rev=\(asset.revision)"
        let expires = Self.expiry(at: now)
        if let signed = signer.sign(path, expires: expires) {
            return ["thumbnailURL": .string(signed), "thumbnailURLExpires": .string(ISO8601DateFormatter().string(from: expires))]
        }
        return ["thumbnailURL": .string(path), "thumbnailURLExpires": .null]
    }
}
#endif
