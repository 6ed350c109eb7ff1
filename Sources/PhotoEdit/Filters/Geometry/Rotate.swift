import Foundation

extension Filters {
    /// The parameters of `rotate`, read through these keys.
    enum RotateKeys {
        static let degrees = ParameterKey.number("degrees", -270...270, default: 0, unit: "°", step: 90, "clockwise rotation; -90 is a quarter turn anticlockwise")
    }

    /// Rotation by quarter turns, clockwise. Exact (no resampling).
    public static let rotate = FilterDefinition(
        id: "rotate", version: 1, stage: .geometry, order: 10,
        summary: "rotates by quarter turns, clockwise (lossless)",
        colourSpace: "any",
        keys: [RotateKeys.degrees],
        forms: [
            ChainForm(["degrees"], "e.g. rotate=90 or rotate=-90"),
            ChainForm([], fixed: ["degrees": .number(90)], "rotate alone turns a quarter clockwise"),
        ],
        normalize: { p in
            var q = p
            let d = p[RotateKeys.degrees].truncatingRemainder(dividingBy: 360)
            q.values[RotateKeys.degrees.name] = .number(d < 0 ? d + 360 : d)
            return q
        },
        needsRandomAccess: { $0[RotateKeys.degrees] != 0 }
    ) { image, p, _ in
        try image.rotate(quarterTurns: Int(p[RotateKeys.degrees] / 90))
    }
}
