import Foundation

/// The panels an editor shows a filter's controls in, as photographers know
/// them from Lightroom's Develop module, in the order they are shown. The
/// pipeline stage says when a filter runs; the panel says where a
/// photographer looks for it (white balance runs in its own stage, but is
/// the top of Basic; lens correction runs early, but belongs with the
/// perspective controls in Optics).
public enum EditorPanel: String, Sendable, CaseIterable {
    /// Tools drawn on the photo (local corrections, healing spots), shown
    /// above the panels.
    case tools
    /// RAW development (libraw's settings), for camera RAW photos only.
    case development
    /// White balance, tone and presence.
    case basic
    /// Curves and levels.
    case toneCurve
    /// HSL, black and white mix, colour grading, LUTs.
    case colour
    /// Sharpening and noise reduction.
    case detail
    /// Lens corrections and the photo's geometry (perspective, straighten,
    /// rotate, flip, crop).
    case optics
    /// Vignette and grain.
    case effects
    /// The camera's primaries.
    case calibration
    /// The output size.
    case output

    /// The panel's heading.
    public var title: String {
        switch self {
        case .tools: return "Tools"
        case .development: return "RAW development"
        case .basic: return "Basic"
        case .toneCurve: return "Tone Curve"
        case .colour: return "Colour"
        case .detail: return "Detail"
        case .optics: return "Optics"
        case .effects: return "Effects"
        case .calibration: return "Calibration"
        case .output: return "Output"
        }
    }

    /// Its place in the order panels are shown (0 first).
    public var position: Int { Self.allCases.firstIndex(of: self)! }
}

/// Where an editor shows a filter: its panel, and a heading inside the
/// panel when the panel has several parts (Basic's "White balance",
/// "Tone", "Presence").
public struct EditorPlacement: Sendable, Hashable {
    public let panel: EditorPanel
    public let section: String?

    public init(_ panel: EditorPanel, section: String? = nil) {
        self.panel = panel
        self.section = section
    }

    /// Where a filter of `stage` goes unless its declaration says otherwise
    /// (`FilterDefinition.inPanel`): a filter added to a stage lands in the
    /// panel a photographer looks for that stage's work in.
    public static func `default`(for stage: PipelineStage) -> EditorPlacement {
        switch stage {
        case .development: return EditorPlacement(.development)
        case .whiteBalance: return EditorPlacement(.basic, section: "White balance")
        case .exposure, .tone: return EditorPlacement(.basic, section: "Tone")
        case .denoise, .detail: return EditorPlacement(.detail)
        case .colour: return EditorPlacement(.colour)
        case .geometry: return EditorPlacement(.optics, section: "Transform")
        case .effects: return EditorPlacement(.effects)
        case .output: return EditorPlacement(.output)
        }
    }
}

extension FilterDefinition {
    /// Where an editor shows this filter: what its declaration says
    /// (`inPanel`), else the tools for a filter that holds lists (masks,
    /// spots), else its stage's panel (`EditorPlacement.default(for:)`).
    public var editorPlacement: EditorPlacement {
        if let placement { return placement }
        if structure != nil { return EditorPlacement(.tools) }
        return .default(for: stage)
    }

    /// The same declaration, shown in `panel` (under `section`) rather
    /// than in its stage's panel.
    func inPanel(_ panel: EditorPanel, section: String? = nil) -> FilterDefinition {
        var copy = self
        copy.placement = EditorPlacement(panel, section: section)
        return copy
    }

    /// The placement as JSON (`editor` in `/v1/filters`): the panel's id,
    /// title and position, and the section when there is one.
    var editorDescription: JSONValue {
        let placement = editorPlacement
        var o: [String: JSONValue] = ["panel": .string(placement.panel.rawValue), "title": .string(placement.panel.title),
                                      "position": .number(Double(placement.panel.position))]
        if let section = placement.section { o["section"] = .string(section) }
        return .object(o)
    }
}
