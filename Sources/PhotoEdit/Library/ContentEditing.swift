import Foundation

/// Options of `requestContentEditingInput`, as PhotoKit's
/// `PHContentEditingInputRequestOptions`.
public struct ContentEditingInputRequestOptions: Sendable {
    /// Does the editor understand this adjustment data? If it does, the input's
    /// base image is the version *before* the last edit, so the editor can
    /// re-apply and change the recipe; if not, the base is the *current*
    /// render, and the editor builds on top of it.
    public var canHandleAdjustmentData: @Sendable (AdjustmentData) -> Bool
    /// Start from the original whatever the current version is (for an editor
    /// that wants to discard every earlier edit).
    public var startFromOriginal: Bool
    /// Long edge of `displaySizeImageURL`; nil to skip making it.
    public var displaySize: Int?
    /// For a RAW+JPEG pair, start from the RAW (the `alternatePhoto`)
    /// instead of the JPEG, discarding the current base; nil keeps the base
    /// of the current edit (the JPEG for a photo never edited).
    public var useAlternate: Bool?
    /// Checked on the photo as the input's read finds it, inside that read's
    /// transaction (a server's whole-ETag `If-Match`, at no extra transaction);
    /// what it throws ends the request.
    package var precondition: (@Sendable (Asset) throws -> Void)?

    /// Options with the editor's `canHandleAdjustmentData` test.
    public init(canHandleAdjustmentData: @escaping @Sendable (AdjustmentData) -> Bool = { _ in false },
                startFromOriginal: Bool = false, displaySize: Int? = 2048) {
        self.canHandleAdjustmentData = canHandleAdjustmentData
        self.startFromOriginal = startFromOriginal
        self.displaySize = displaySize
    }

    /// The same options, starting from the RAW (`true`) or the JPEG (`false`) of a RAW+JPEG pair.
    public func startingFrom(alternate: Bool?) -> ContentEditingInputRequestOptions {
        var copy = self
        copy.useAlternate = alternate
        return copy
    }
}

/// The image an edit starts from.
public enum ContentEditingBase: Hashable, Sendable {
    /// The original file (apply `fullSizeImageOrientation` to see it upright).
    case original
    /// The rendered output of revision `revision` (upright).
    case render(revision: Int)
    /// The other file of a RAW+JPEG pair: the RAW.
    case alternate
}

/// What an editor needs to edit a photo, as PhotoKit's `PHContentEditingInput`.
public struct ContentEditingInput: Sendable {
    /// The photo being edited.
    public let assetIdentifier: String
    /// The revision this input was read at. An output made from it commits
    /// only if the photo is still at this revision.
    public let revision: Int
    /// The adjustment data of that revision (nil when unadjusted).
    public let adjustmentData: AdjustmentData?
    /// Whether the editor said it can handle `adjustmentData`.
    public let canHandleAdjustmentData: Bool
    /// Which image `fullSizeImageURL` is.
    public let base: ContentEditingBase
    /// The base image, full size, inside the library: read it, never write it.
    public let fullSizeImageURL: URL
    /// EXIF orientation of `fullSizeImageURL` (1 for renders).
    public let fullSizeImageOrientation: Int
    /// A JPEG of the base, upright, fitting `displaySize` (nil if not asked).
    public let displaySizeImageURL: URL?
    /// Type of the base image file ("public.jpeg", …).
    public let uniformTypeIdentifier: String
    /// "image".
    public let mediaType: String
    /// Capture time from EXIF (ISO 8601), if known.
    public let creationDate: String?
    /// GPS position, if known.
    public let location: Location?
    /// Where `ContentEditingOutput` stages its rendered file.
    let stagingDirectory: URL
    let baseRelativePath: String?
}

/// The result of an edit, as PhotoKit's `PHContentEditingOutput`: set
/// `adjustmentData`, write the rendered image (upright, JPEG preferred) to
/// `renderedContentURL`, then commit it in `performChanges` through
/// `changeRequest(for:).contentEditingOutput`.
public struct ContentEditingOutput: Sendable {
    /// The photo the output edits.
    public let assetIdentifier: String
    /// The revision the input was read at.
    public let baseRevision: Int
    /// The image the edit was made on.
    public let base: ContentEditingBase
    /// The recipe of this edit (required).
    public var adjustmentData: AdjustmentData?
    /// Write the rendered full-size image here (a staging file in the library).
    public let renderedContentURL: URL
    let baseRelativePath: String?
    /// How the revision is recorded in the history.
    var kind: Revision.Kind = .edit
    /// The size of the JPEG the engine rendered into `renderedContentURL`
    /// itself (libvips wrote it without error, upright), or nil for any
    /// other render. The commit takes the size from here instead of probing
    /// the file it just wrote (libraw's identify, libvips' loader search, a
    /// header read), which it does for every other editor's render.
    var engineRender: (width: Int, height: Int)?
    /// The render reduced while the engine wrote `renderedContentURL`: the
    /// commit makes the render's preview from it instead of decoding the
    /// JPEG it just wrote.
    var renderedReduction: RenderReduction?

    /// An output for an edit of `input`.
    public init(contentEditingInput input: ContentEditingInput) {
        assetIdentifier = input.assetIdentifier
        baseRevision = input.revision
        base = input.base
        baseRelativePath = input.baseRelativePath
        renderedContentURL = input.stagingDirectory
            .appendingPathComponent("\(getpid())-\(UUID().uuidString.lowercased())-render.jpg")
    }
}

extension ContentEditingBase {
    /// What a recipe made on this base says its base is.
    var recipeBase: Recipe.Base {
        switch self {
        case .original: return .original
        case .render: return .render
        case .alternate: return .alternate
        }
    }

    var cacheKey: String {
        switch self {
        case .original: return "o"
        case .render(let r): return "r\(r)"
        case .alternate: return "a"
        }
    }
}
