import Foundation
import Testing
@testable import PhotoEdit

/// Issue 41: the web editor's panels, as photographers know them, come from
/// the filter declarations (`editor` in `/v1/filters`).
@Suite("Editor panels from the filter declarations")
struct EditorPanelTests {
    let registry = FilterRegistry.standard

    func panel(_ id: String) throws -> EditorPlacement {
        try #require(registry.filters.first { $0.id == id }).editorPlacement
    }

    @Test("each filter is in the panel a photographer looks for it in, not its pipeline stage's")
    func placements() throws {
        // White balance runs in its own stage, but is the top of Basic.
        #expect(try panel("temperature") == EditorPlacement(.basic, section: "White balance"))
        #expect(try panel("tint") == EditorPlacement(.basic, section: "White balance"))
        #expect(try panel("exposure") == EditorPlacement(.basic, section: "Tone"))
        #expect(try panel("highlights") == EditorPlacement(.basic, section: "Tone"))
        for presence in ["texture", "clarity", "dehaze", "vibrance", "saturation"] {
            #expect(try panel(presence) == EditorPlacement(.basic, section: "Presence"), "\(presence)")
        }
        #expect(try panel("curve").panel == .toneCurve)
        #expect(try panel("levels").panel == .toneCurve)
        for colour in ["hsl", "mono", "splittone", "lut"] { #expect(try panel(colour).panel == .colour, "\(colour)") }
        for detail in ["sharpen", "denoise", "noise", "blur"] { #expect(try panel(detail).panel == .detail, "\(detail)") }
        // Lens runs in the white balance stage, but belongs with perspective.
        #expect(try panel("lens") == EditorPlacement(.optics, section: "Lens corrections"))
        #expect(try panel("perspective") == EditorPlacement(.optics, section: "Transform"))
        for effect in ["vignette", "grain"] { #expect(try panel(effect).panel == .effects, "\(effect)") }
        #expect(try panel("calibration").panel == .calibration)
        // Masks and healing are tools drawn on the photo, above the panels.
        #expect(try panel("local").panel == .tools)
        #expect(try panel("retouch").panel == .tools)
        #expect(try panel("raw").panel == .development)
    }

    @Test("a filter declared in a stage without a panel of its own lands in that stage's panel")
    func newFilterLandsByStage() throws {
        // As a future `denoise` filter in the noise reduction stage would.
        let declared = FilterDefinition(id: "example-denoise", version: 1, stage: .denoise, order: 50, summary: "an example",
                                        colourSpace: "linear RGB", parameters: [.number("amount", 0...100, default: 0, "how much")],
                                        forms: []) { image, _, _ in image }
        #expect(declared.editorPlacement == EditorPlacement(.detail))
        #expect(FilterDefinition(id: "example-effect", version: 1, stage: .effects, order: 50, summary: "an example",
                                 colourSpace: "any", parameters: [], forms: []) { image, _, _ in image }.editorPlacement.panel == .effects)
        // Every stage has a panel, and the panels are in Lightroom's order.
        for stage in PipelineStage.allCases { _ = EditorPlacement.default(for: stage) }
        #expect(EditorPanel.allCases.filter { $0 != .tools && $0 != .development && $0 != .output }.map(\.title)
                == ["Basic", "Tone Curve", "Colour", "Detail", "Optics", "Effects", "Calibration"])
    }

    @Test("the JSON an editor reads: editor (panel, title, position, section) and recorded parameters")
    func json() throws {
        let filters = registry.filters.map(\.jsonDescription)
        for case let .object(filter) in filters {
            guard case let .object(editor)? = filter["editor"], case let .string(id)? = editor["panel"],
                  let panel = EditorPanel(rawValue: id) else {
                Issue.record("no editor placement in \(filter["id"] ?? .null)"); continue
            }
            #expect(editor["title"] == .string(panel.title))
            #expect(editor["position"] == .number(Double(panel.position)))
            guard case .array? = filter["recorded"] else { Issue.record("no recorded list in \(filter["id"] ?? .null)"); continue }
        }
        let lut = try #require(filters.first { if case let .object(f) = $0 { f["id"] == .string("lut") } else { false } })
        guard case let .object(object) = lut else { return }
        #expect(object["recorded"] == .array([.string("sha256")]))
        guard case let .object(editor)? = object["editor"] else { Issue.record("lut has no editor placement"); return }
        #expect(editor["panel"] == .string("colour") && editor["section"] == nil)
    }
}
