import Foundation

/// Per-pixel arithmetic shared by the filters. Every one is a point
/// operation (no image statistics). A one-band operand applies to every
/// band of the other.
extension Image {
    /// Rec. 709 luminance of linear RGB, as one band.
    func luminance() throws -> Image {
        try call("recomb", [("m", .image(try Image.matrix1x3(ColourMath.luminance)))])
    }

    /// self + other.
    package func adding(_ other: Image) throws -> Image { try binary("add", other) }

    /// self − other.
    package func subtracting(_ other: Image) throws -> Image { try binary("subtract", other) }

    /// self × other.
    package func multiplied(by other: Image) throws -> Image { try binary("multiply", other) }

    /// self ÷ other.
    func divided(by other: Image) throws -> Image { try binary("divide", other) }

    /// max(0, x) per band, as (x + |x|) / 2.
    func clampedAtZero() throws -> Image {
        try adding(call("abs")).linear(multiply: [0.5], add: [0])
    }

    /// x clamped to `low…high` per band: low + max(0, x − low) − max(0, x − high).
    func clamped(_ low: Double, _ high: Double) throws -> Image {
        let above = try linear(multiply: [1], add: [-low]).clampedAtZero()
        let over = try linear(multiply: [1], add: [-high]).clampedAtZero()
        return try above.subtracting(over).linear(multiply: [1], add: [low])
    }

    /// x clamped to 0…1 per band.
    func clamped01() throws -> Image { try clamped(0, 1) }

    /// min(self, other) per band, as (a + b − |a − b|) / 2.
    func minimum(_ other: Image) throws -> Image {
        try adding(other).subtracting(try subtracting(other).call("abs")).linear(multiply: [0.5], add: [0])
    }

    private func binary(_ op: String, _ other: Image) throws -> Image {
        try Vips.image(op, [("left", .image(self)), ("right", .image(other))])
    }
}
