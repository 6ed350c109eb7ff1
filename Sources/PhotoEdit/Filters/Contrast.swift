import Foundation

extension Filters {
    /// Contrast: an S-curve in a perceptual encoding that keeps black, white
    /// and middle grey fixed and changes the slope through middle grey.
    public static let contrast = FilterDefinition(
        id: "contrast", version: 1, stage: .tone, order: 10,
        summary: "S-curve around middle grey that keeps black and white fixed",
        colourSpace: "perceptual (linear RGB ^ 1/2.2, per channel), back to linear",
        parameters: [
            .number("amount", -100...100, default: 0, "contrast: +100 doubles the slope at middle grey, -100 halves it"),
        ],
        forms: [ChainForm(["amount"], "e.g. contrast=+20")]
    ) { image, p, _ in
        let amount = p.number("amount")
        if amount == 0 { return image }
        let k = Foundation.pow(2.0, amount / 100)
        let gamma = 1 / 2.2
        let m = Foundation.pow(0.18, gamma)  // middle grey in the perceptual encoding
        let perceptual = try image.signedPower(gamma)
        // Below middle grey: m·(p/m)^k. Above: 1 − (1−m)·((1−p)/(1−m))^k.
        let low = try perceptual.linear(multiply: [1 / m], add: [0]).signedPower(k).linear(multiply: [m], add: [0])
        let high = try perceptual.linear(multiply: [-1 / (1 - m)], add: [1 / (1 - m)]).signedPower(k)
            .linear(multiply: [-(1 - m)], add: [1])
        return try perceptual.select(lessThan: m, then: low, otherwise: high).signedPower(1 / gamma)
    }
}
