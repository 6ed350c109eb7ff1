import Foundation
import Hummingbird
import PhotoEdit

/// Presets as data, for editors' preset menus: `GET /v1/presets` —
/// `{"presets": [{"name", "summary", "chain"}]}`, by name, from the standard
/// search path (`photoedit presets`). A preset is applied as a chain step,
/// `preset:NAME` (POST …/edits, …/preview). Where the file lives is not said.
func addPresetRoutes(_ v1: RouterGroup<ServerContext>, state: ServerState) {
    v1.get("presets") { _, _ -> Response in
        let presets = try await blocking { try PresetLibrary.standard().all() }
        return jsonResponse(.object(["presets": .array(presets.map { preset in
            .object(["name": .string(preset.name), "summary": .string(preset.summary), "chain": .string(preset.chain)])
        })]))
    }
}
