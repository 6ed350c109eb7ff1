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

    /// Is this photo a RAW+JPEG pair?
    public var isRawPlusJPEG: Bool { alternate != nil }
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
}
