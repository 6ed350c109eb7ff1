// Only with the `Server` trait (Package.swift): without it the module is empty.
#if Server
import Foundation
import Hummingbird
import NIOCore
import PhotoEdit

/// Presets as data, for editors' preset menus: `GET /v1/presets` —
/// `{"presets": [{"name", "summary", "chain"}]}`, by name: the library's
/// uploaded presets, then the standard search path (`photoedit presets`). A
/// preset is applied as a chain step, `preset:NAME` (POST …/edits,
/// …/preview). Where the file lives is not said.
///
/// `PUT /v1/presets/{name}` (edit scope; body: a Lightroom .xmp preset, at
/// most 1 MiB) adds `NAME.xmp` to the library (`PhotoLibrary.addPreset`):
/// 201 with the preset; 400 `invalid-preset-name` / `invalid-preset`, 409
/// `preset-exists` (never replaced), 413 `preset-too-large`.
func addPresetRoutes(_ v1: RouterGroup<ServerContext>, state: ServerState) {
    let library = state.library
    v1.get("presets") { _, _ -> Response in
        let presets = try await blocking { try library.presets().all() }
        return jsonResponse(.object(["presets": .array(presets.map(presetJSON))]))
    }
    v1.put("presets/:name") { request, context -> Response in
        let name = try context.parameters.require("name")
        var request = request
        let buffer: ByteBuffer
        do {
            buffer = try await request.collectBody(upTo: PhotoLibrary.maxPresetBytes)
        } catch let error where error is NIOTooManyBytesError || (error as? HTTPError)?.status == .contentTooLarge {
            throw Problem(.contentTooLarge, code: "preset-too-large", "the preset is larger than \(PhotoLibrary.maxPresetBytes) bytes")
        }
        let data = Data(buffer.readableBytesView)
        do {
            let preset = try await blocking { try library.addPreset(named: name, lightroom: data) }
            return jsonResponse(presetJSON(preset), status: .created)
        } catch let error as PresetUploadError {
            throw presetProblem(error)
        }
    }
}

/// The problem of a preset that cannot be added (uploaded or saved from an edit).
func presetProblem(_ error: PresetUploadError) -> Problem {
    switch error {
    case .invalidName: return Problem(.badRequest, code: "invalid-preset-name", error.description)
    case .notAPreset: return Problem(.badRequest, code: "invalid-preset", error.description)
    case .exists: return Problem(.conflict, code: "preset-exists", error.description)
    case .tooLarge: return Problem(.contentTooLarge, code: "preset-too-large", error.description)
    }
}

/// A preset as `GET /v1/presets` lists it.
func presetJSON(_ preset: Preset) -> JSONValue {
    .object(presetMembers(preset))
}

/// A preset's members, for answers that add their own.
func presetMembers(_ preset: Preset) -> [String: JSONValue] {
    ["name": .string(preset.name), "summary": .string(preset.summary), "chain": .string(preset.chain)]
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
#endif
