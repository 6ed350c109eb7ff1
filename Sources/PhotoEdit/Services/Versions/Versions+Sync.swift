import Foundation

/// A group of a recipe's settings, as Lightroom's "New Preset" and "Sync
/// Settings" checklists offer them, made from the filters' pipeline stages.
public enum RecipeGroup: String, CaseIterable, Sendable, Codable {
    /// White balance: temperature, tint.
    case wb
    /// Exposure and tone: exposure, contrast, highlights, shadows, whites,
    /// blacks, levels, curves, clarity, texture, dehaze.
    case tone
    /// Colour: saturation, vibrance, HSL, black and white, split toning, LUTs, calibration.
    case colour
    /// Detail: noise reduction, sharpening, blur.
    case detail
    /// Effects: vignette, grain.
    case effects
    /// Lens corrections and perspective (Lightroom's Lens Corrections and Transform).
    case optics
    /// Geometry: rotate, straighten, flip, crop. Not synced unless named.
    case geometry
    /// Local corrections and spot retouching. Not synced unless named.
    case local
    /// RAW development settings (libraw).
    case raw
    /// Output size (resize).
    case output

    /// The group's name as Lightroom's New Preset and Sync Settings
    /// checklists show it ("White balance").
    public var title: String {
        switch self {
        case .wb: return "White balance"
        case .tone: return "Tone"
        case .colour: return "Colour"
        case .detail: return "Detail"
        case .effects: return "Effects"
        case .optics: return "Lens corrections and transform"
        case .geometry: return "Crop and rotate"
        case .local: return "Local corrections and spots"
        case .raw: return "RAW development"
        case .output: return "Output size"
        }
    }

    /// The filters of `registry` in the group, in pipeline order.
    public static func filters(of group: RecipeGroup, registry: FilterRegistry) -> [String] {
        registry.ids.filter { of($0, registry: registry) == group }
    }

    /// The groups a sync copies when none is named: all but geometry and
    /// local corrections (as Lightroom leaves out crop and local adjustments).
    public static let defaultSync: Set<RecipeGroup> = Set(allCases).subtracting([.geometry, .local])

    /// The group of a filter of `registry` (nil for a filter it does not know).
    public static func of(_ filter: String, registry: FilterRegistry) -> RecipeGroup? {
        switch filter {
        case "local", "retouch": return .local
        case "lens", "perspective": return .optics
        case "calibration": return .colour
        default: break
        }
        guard let stage = registry.filter(filter)?.stage else { return nil }
        switch stage {
        case .development: return .raw
        case .whiteBalance: return .wb
        case .exposure, .tone: return .tone
        case .denoise, .detail: return .detail
        case .colour: return .colour
        case .geometry: return .geometry
        case .effects: return .effects
        case .output: return .output
        }
    }

    /// Parses a comma-separated list of group names (`wb,tone`; `color` is
    /// `colour`); an unknown name fails with the list of known ones.
    public static func parse(_ text: String) throws -> Set<RecipeGroup> {
        var out = Set<RecipeGroup>()
        for part in text.split(separator: ",", omittingEmptySubsequences: false) {
            let name = part.trimmingCharacters(in: .whitespaces).lowercased()
            guard let group = RecipeGroup(rawValue: name == "color" ? "colour" : name) else {
                let shown = name.count > 40 ? String(name.prefix(40)) + "…" : name
                throw PhotoEditError.invalidChange("unknown group '\(shown)' (groups: \(allCases.map(\.rawValue).joined(separator: ", ")))")
            }
            out.insert(group)
        }
        return out
    }
}

extension Versions {
    /// Selective sync (Lightroom's Sync Settings, darktable's selective
    /// paste): the source's settings of `groups` onto each target, as a new
    /// revision of each. In each synced group the target takes the source's
    /// filters exactly (one the source lacks is removed); its other groups
    /// stay as they are. Each photo is its own commit (all or nothing for
    /// that photo; merged again on a conflict, so no concurrent update is lost).
    func sync(from source: String, to targets: [String], groups: Set<RecipeGroup>,
              progress: ProgressHandler? = nil) throws -> [Revision] {
        guard !groups.isEmpty else { throw PhotoEditError.invalidChange("no group to sync") }
        let from = try resolve(source)
        let ids = try targets.map { try resolve($0) }
        if ids.contains(from) {
            throw PhotoEditError.invalidChange("photo \(from) is the source of the sync; it cannot be a target too")
        }
        let registry = self.registry
        return try editing.copyRecipe(from: from, to: ids, replace: true, progress: progress) { filter in
            RecipeGroup.of(filter, registry: registry).map(groups.contains) ?? false
        }
    }
}
