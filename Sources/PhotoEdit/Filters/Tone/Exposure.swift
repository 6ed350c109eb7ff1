extension Filters {
    /// The parameters of `exposure`, read through these keys.
    enum ExposureKeys {
        static let ev = ParameterKey.number("ev", -5...5, default: 0, unit: "EV", "exposure change in stops")
    }

    /// Exposure: scales linear light by 2^EV, like opening the aperture.
    public static let exposure = FilterDefinition(
        id: "exposure", version: 1, stage: .exposure, order: 10,
        summary: "brightens or darkens by stops, in linear light (+1 doubles the light)",
        colourSpace: "linear RGB (scene-referred)",
        keys: [ExposureKeys.ev],
        forms: [ChainForm(["ev"], "e.g. exposure=+0.3")]
    ) { image, p, _ in
        let ev = p[ExposureKeys.ev]
        if ev == 0 { return image }
        let gain = Foundation.pow(2.0, ev)
        return try image.linear(multiply: [gain, gain, gain], add: [0, 0, 0])
    }
}

import Foundation
