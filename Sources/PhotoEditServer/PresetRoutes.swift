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

/// What this server was started with, for clients that adapt to it (the
/// web editor asks once): `GET /v1/capabilities` —
/// `{"urlSigning": bool, "tokens": bool, "maxUploadBytes": N, "maxRenderPixels": N}`.
/// Without signing keys a client fetches renders with its token (or
/// without one when the server has no tokens) instead of asking
/// `render-url`, which answers 409 `no-signing-keys` then.
func addCapabilitiesRoute(_ v1: RouterGroup<ServerContext>, state: ServerState) {
    v1.get("capabilities") { _, _ -> Response in
        let configuration = state.configuration
        return jsonResponse(.object([
            "urlSigning": .bool(!configuration.signer.keys.isEmpty),
            "tokens": .bool(!configuration.tokens.isEmpty),
            "maxUploadBytes": .number(Double(configuration.maxUploadBytes)),
            "maxRenderPixels": .number(Double(configuration.maxRenderPixels)),
        ]))
    }
}
