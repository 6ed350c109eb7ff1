import Foundation

/// The noise profile a Lightroom import's noise reduction uses (issue 39),
/// recorded with the packet.
///
/// A revision made from a packet keeps the packet as its adjustment data and
/// derives its recipe from it each time; the photo's camera profile
/// (darktable's `noiseprofiles.json`, for the RAW's make, model and ISO) is
/// not in the packet. So at import (translation 9 on), when the translation
/// has a `denoise` node and the camera has a profile, the profile's name,
/// ISO and values are added to the stored packet as one property in
/// photoedit's XMP namespace, `photoedit:denoise` — a JSON object, the
/// values a chain-made `denoise` records (`profile`, `iso`, `a_r`…`b_b`),
/// in an `rdf:Description` of its own before `</rdf:RDF>`; every `crs:`
/// byte stays as it was. The translation reads it back into the node
/// (source `profile`), so the recipe renders the same when the profile file
/// changes, and the revision's recipe (`photoedit show`, the library API,
/// HTTP) names the profile. Without a profile nothing is added: the noise
/// is estimated on each render, as a chain's `denoise=estimate`.
extension LightroomSettings {
    /// The property's local name in photoedit's namespace (`XMPSidecar.namespace`).
    static let recordedDenoiseName = "denoise"
    /// The keys the property holds (the `denoise` filter's recorded parameters).
    static let recordedDenoiseKeys: Set<String> = ["profile", "iso", "a_r", "a_g", "a_b", "b_r", "b_g", "b_b"]

    /// The recorded profile of a packet, checked: nil when the packet has
    /// none; a property that is not such an object is left out (listed).
    static func recordedDenoise(_ packet: XMPPacket) -> Result<[String: ParameterValue], XMPProblem>? {
        guard let text = packet.value(XMPSidecar.namespace, recordedDenoiseName)?.defaultText else { return nil }
        let fail = Result<[String: ParameterValue], XMPProblem>.failure(XMPProblem("photoedit:denoise is not a recorded noise profile"))
        guard text.utf8.count <= 4096, let json = try? JSONValue.parse(Data(text.utf8)), case .object(let object) = json,
              Set(object.keys) == recordedDenoiseKeys else { return fail }
        var values: [String: ParameterValue] = ["source": .text("profile")]
        for (key, value) in object {
            switch value {
            case .string(let s) where key == "profile": values[key] = .text(s)
            case .number(let n) where key != "profile": values[key] = .number(n)
            default: return fail
            }
        }
        // The filter's own ranges decide (a name too long, a variance out of range…).
        guard (try? Filters.denoise.validated(values)) != nil else { return fail }
        return .success(values)
    }

    /// `packet` with `values` (a resolved `denoise` node's parameters)
    /// recorded as `photoedit:denoise`; nil when the packet has no
    /// `</rdf:RDF>` to put it before, or is not UTF-8.
    static func recordingDenoise(_ packet: Data, _ values: [String: ParameterValue]) -> Data? {
        guard let text = String(data: packet, encoding: .utf8), let end = text.range(of: "</rdf:RDF>", options: .backwards) else { return nil }
        var object: [String: JSONValue] = [:]
        for key in recordedDenoiseKeys {
            switch values[key] {
            case .text(let s)?: object[key] = .string(s)
            case .number(let n)?: object[key] = .number(n)
            default: return nil
            }
        }
        let json = String(decoding: JSONValue.object(object).canonicalData, as: UTF8.self)
        let description = "<rdf:Description rdf:about=\"\" xmlns:photoedit=\"\(XMPSidecar.namespace)\" photoedit:\(recordedDenoiseName)=\"\(XMPSidecar.escaped(json))\"/>"
        return Data((text[..<end.lowerBound] + description + text[end.lowerBound...]).utf8)
    }

    /// The camera profile of the RAW at `path` (its make, model and ISO in
    /// `database`), as the parameters a `denoise` node records; nil when the
    /// RAW names no camera or ISO, or the camera has no profile.
    static func cameraDenoise(rawPath path: String, database: NoiseProfileDatabase = .installed) -> [String: ParameterValue]? {
        guard let info = RawDecoder.identify(path), let iso = info.iso else { return nil }
        return cameraDenoise(make: info.make, model: info.model, iso: iso, database: database)
    }

    /// The profile of a camera at `iso`, as the parameters a `denoise` node records.
    static func cameraDenoise(make: String, model: String, iso: Double, database: NoiseProfileDatabase) -> [String: ParameterValue]? {
        guard database.problem == nil, !make.isEmpty, let profile = database.profile(make: make, model: model, iso: iso) else { return nil }
        var values: [String: ParameterValue] = ["source": .text("profile"), "profile": .text(profile.name), "iso": .number(min(10_000_000, profile.iso))]
        for (i, c) in ["r", "g", "b"].enumerated() {
            values["a_" + c] = .number(min(0.1, profile.noise.a[i]))
            values["b_" + c] = .number(min(0.1, profile.noise.b[i]))
        }
        return values
    }
}
