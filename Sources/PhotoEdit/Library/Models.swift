import Foundation

/// A GPS position in decimal degrees (south and west negative).
public struct Location: Hashable, Sendable, Codable {
    /// Degrees north (negative: south).
    public let latitude: Double
    /// Degrees east (negative: west).
    public let longitude: Double

    /// A position in signed decimal degrees (latitude −90…90, longitude
    /// −180…180; a change request refuses others when it commits).
    public init(latitude: Double, longitude: Double) {
        self.latitude = latitude
        self.longitude = longitude
    }
}

/// Camera and exposure metadata of a photo (from libraw for RAW files).
public struct CameraInfo: Hashable, Sendable, Codable {
    public let make: String
    public let model: String
    public let lens: String?
    /// ISO speed.
    public let iso: Double?
    /// Shutter time in seconds.
    public let exposureTime: Double?
    /// Aperture (f-number).
    public let fNumber: Double?
    /// Focal length in mm.
    public let focalLength: Double?

    /// Its JSON's keys: the catalog keeps a photo's CameraInfo as this JSON
    /// (`asset.camera`), and its query fields and index read these keys, as
    /// do the generated sample catalogs (PhotoEditSampleCatalog).
    package enum CodingKeys: String, CodingKey, CaseIterable {
        case make, model, lens, iso, exposureTime, fNumber, focalLength
    }
}

/// One photo in the library: metadata only, an immutable value (PhotoKit's
/// `PHAsset`). Pixels are rendered separately.
public struct Asset: Hashable, Sendable, Codable {
    /// Stable id: 32 lowercase hex digits. Commands accept any unambiguous prefix.
    public let id: String
    /// The original file's name at import.
    public let originalFilename: String
    /// SHA-256 of the original file's bytes.
    public let sha256: String
    /// Size of the original file in bytes.
    public let fileSize: Int64
    /// "jpeg", "png", "tiff", "webp", "heif", "avif", "jxl", "gif", "jpeg2000".
    public let format: String
    /// Uniform type identifier of the original ("public.jpeg", …).
    public let uniformTypeIdentifier: String
    /// "image".
    public let mediaType: String
    /// Size of the current version as displayed (after orientation and edits).
    public let pixelWidth: Int
    /// Height of the current version as displayed.
    public let pixelHeight: Int
    /// Size of the original as displayed (orientation applied).
    public let originalPixelWidth: Int
    /// Height of the original as displayed.
    public let originalPixelHeight: Int
    /// EXIF orientation of the original file (1…8; 1 = upright).
    public let orientation: Int
    /// Capture time from EXIF, ISO 8601, with its offset when the file records one.
    public let creationDate: String?
    /// GPS position from EXIF, if any.
    public let location: Location?
    /// When the photo was imported.
    public let importDate: Date
    /// The latest revision number (0 = as imported).
    public let revision: Int
    /// The adjustment data of the latest revision, nil when unadjusted.
    public let adjustmentData: AdjustmentData?
    /// Marked as a favorite.
    public let isFavorite: Bool
    /// Hidden from default listings.
    public let isHidden: Bool
    /// When the photo was moved to "recently deleted" (nil when it was not).
    public let deletedDate: Date?
    /// Titles of the albums the photo is in.
    public let albums: [String]
    /// Camera metadata, when the file records it (RAW files).
    public let camera: CameraInfo?
    /// For a RAW+JPEG pair, the RAW (PhotoKit's `alternatePhoto` resource);
    /// nil for a single file.
    public let alternate: AlternateFile?
    /// −1 rejected (`Rating.rejected`), 0 unrated, 1–5 stars.
    public let rating: Int
    /// The colour label, nil for none.
    public let colorLabel: ColorLabel?
    /// Keywords in photoedit's syntax (`Trips/Iceland`, see `Keyword`),
    /// sorted (ignoring ASCII case).
    public let keywords: [String]
    /// The title (XMP's `dc:title`), nil for none.
    public let title: String?
    /// The caption (XMP's `dc:description`), nil for none.
    public let caption: String?
    /// For a virtual copy (Lightroom's), the id of its master: the photo
    /// whose original it shares. Nil for a master or a single photo.
    public let masterIdentifier: String?
    /// A virtual copy's name ("B&W", "Copy 1"); nil for a master.
    public let copyName: String?

    /// Whether the photo is a virtual copy of another (`masterIdentifier`).
    public var isVirtualCopy: Bool { masterIdentifier != nil }

    /// Is this photo a RAW+JPEG pair?
    public var isRawPlusJPEG: Bool { alternate != nil }

    /// Whether the photo is rejected (rating −1).
    public var isRejected: Bool { rating == Rating.rejected }
}

extension Asset {
    private enum CodingKeys: String, CodingKey {
        case id, originalFilename, sha256, fileSize, format, uniformTypeIdentifier, mediaType, pixelWidth, pixelHeight
        case originalPixelWidth, originalPixelHeight, orientation, creationDate, location, importDate, revision, adjustmentData
        case isFavorite, isHidden, deletedDate, albums, camera, alternate, rating, colorLabel, keywords, title, caption
        case masterIdentifier, copyName
    }

    /// Decodes a photo's JSON; a snapshot written before ratings, labels,
    /// keywords, titles and captions existed (the change feed keeps them)
    /// reads as unrated, without label, keywords, title or caption.
    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        id = try c.decode(String.self, forKey: .id)
        originalFilename = try c.decode(String.self, forKey: .originalFilename)
        sha256 = try c.decode(String.self, forKey: .sha256)
        fileSize = try c.decode(Int64.self, forKey: .fileSize)
        format = try c.decode(String.self, forKey: .format)
        uniformTypeIdentifier = try c.decode(String.self, forKey: .uniformTypeIdentifier)
        mediaType = try c.decode(String.self, forKey: .mediaType)
        pixelWidth = try c.decode(Int.self, forKey: .pixelWidth)
        pixelHeight = try c.decode(Int.self, forKey: .pixelHeight)
        originalPixelWidth = try c.decode(Int.self, forKey: .originalPixelWidth)
        originalPixelHeight = try c.decode(Int.self, forKey: .originalPixelHeight)
        orientation = try c.decode(Int.self, forKey: .orientation)
        creationDate = try c.decodeIfPresent(String.self, forKey: .creationDate)
        location = try c.decodeIfPresent(Location.self, forKey: .location)
        importDate = try c.decode(Date.self, forKey: .importDate)
        revision = try c.decode(Int.self, forKey: .revision)
        adjustmentData = try c.decodeIfPresent(AdjustmentData.self, forKey: .adjustmentData)
        isFavorite = try c.decode(Bool.self, forKey: .isFavorite)
        isHidden = try c.decode(Bool.self, forKey: .isHidden)
        deletedDate = try c.decodeIfPresent(Date.self, forKey: .deletedDate)
        albums = try c.decode([String].self, forKey: .albums)
        camera = try c.decodeIfPresent(CameraInfo.self, forKey: .camera)
        alternate = try c.decodeIfPresent(AlternateFile.self, forKey: .alternate)
        rating = try c.decodeIfPresent(Int.self, forKey: .rating) ?? 0
        colorLabel = try c.decodeIfPresent(ColorLabel.self, forKey: .colorLabel)
        keywords = try c.decodeIfPresent([String].self, forKey: .keywords) ?? []
        title = try c.decodeIfPresent(String.self, forKey: .title)
        caption = try c.decodeIfPresent(String.self, forKey: .caption)
        masterIdentifier = try c.decodeIfPresent(String.self, forKey: .masterIdentifier)
        copyName = try c.decodeIfPresent(String.self, forKey: .copyName)
    }
}

/// The second file of a RAW+JPEG pair.
public struct AlternateFile: Hashable, Sendable, Codable {
    /// The file's name at import.
    public let filename: String
    /// "raw".
    public let format: String
    /// Uniform type identifier ("com.adobe.raw-image", "public.camera-raw-image").
    public let uniformTypeIdentifier: String
    /// Size in bytes.
    public let fileSize: Int64
    /// SHA-256 of its bytes.
    public let sha256: String
}

/// One entry of a photo's history. Revision 0 is the photo as imported; every
/// edit, revert or checkout adds the next number. Nothing is ever deleted.
public struct Revision: Hashable, Sendable {
    /// How a revision came about.
    public enum Kind: String, Sendable {
        case imported = "import"
        case edit
        case revert
    }

    /// Revision number: 0 is the photo as imported.
    public let number: Int
    /// When the revision was committed.
    public let date: Date
    /// Import, edit or revert.
    public let kind: Kind
    /// nil when the revision has no adjustments.
    public let adjustmentData: AdjustmentData?
    /// Size of the rendered output.
    public let pixelWidth: Int
    /// Height of the rendered output.
    public let pixelHeight: Int
    /// Whether a full-size render is stored for this revision.
    public let hasRender: Bool
    /// The revision whose render the adjustments were applied to (an edit
    /// on top of another tool's edit); nil when applied to the original.
    public let baseRevision: Int?
    /// The adjustments were applied to the RAW of a RAW+JPEG pair (the
    /// `alternatePhoto`), not to the JPEG.
    public let isBasedOnAlternate: Bool
}

/// The outcome of importing one file.
public struct ImportResult: Sendable {
    /// The file that was imported (as given).
    public let path: String
    /// The photo's id, or nil when the file was refused (see `error`).
    public let id: String?
    /// True when the same bytes were already in the library.
    public let duplicate: Bool
    /// Why the file was refused (nil when imported).
    public let error: PhotoEditError?
    /// True when the file joined an existing photo as the other half of a
    /// RAW+JPEG pair (same folder and name) instead of making a new photo.
    public let joinedPair: Bool
    /// What the import noticed without refusing the file, one line each
    /// (an XMP sidecar that was not used, and why).
    public var warnings: [String] = []
    /// The Lightroom develop settings read for the photo, when it had some
    /// (set on the result of the file that created or completed the photo).
    public var lightroom: LightroomImport?
    /// The darktable history read from the file's sidecar, when it has one
    /// (set on the same result as `lightroom`; a sidecar has one or the other).
    public var darktable: DarktableImport?
}
