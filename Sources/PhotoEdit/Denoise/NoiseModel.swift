import Foundation

/// A Poisson–Gaussian noise model: per channel (R, G, B), the variance of a
/// linear value x (1 = white) is `a·x + b` — darktable's noise profiles'
/// model. `a` is the signal-dependent (shot) part, `b` the constant (read) part.
public struct NoiseModel: Sendable, Hashable, Codable {
    /// Signal-dependent variance per channel (R, G, B), ≥ 0.
    public var a: [Double]
    /// Constant variance per channel (R, G, B), ≥ 0.
    public var b: [Double]

    /// A model with three channels each; negative values (a few measured
    /// profiles have them) are taken as 0.
    public init(a: [Double], b: [Double]) {
        precondition(a.count == 3 && b.count == 3)
        self.a = a.map { $0.isFinite ? max(0, $0) : 0 }
        self.b = b.map { $0.isFinite ? max(0, $0) : 0 }
    }

    /// No noise.
    public static let zero = NoiseModel(a: [0, 0, 0], b: [0, 0, 0])

    /// True when the model says nothing (all zero).
    public var isZero: Bool { a.allSatisfy { $0 == 0 } && b.allSatisfy { $0 == 0 } }

    /// The noise's standard deviation at linear value `x`, averaged over the
    /// channels (18 % grey by default).
    public func sigma(at x: Double = 0.18) -> Double {
        (0..<3).map { (a[$0] * x + b[$0]).squareRoot() }.reduce(0, +) / 3
    }

    /// The model of the same image reduced by `scale` (< 1): averaging
    /// 1/scale² pixels divides the variance by as much.
    func reduced(by scale: Double) -> NoiseModel {
        let s2 = min(1, max(0, scale)) * min(1, max(0, scale))
        return NoiseModel(a: a.map { $0 * s2 }, b: b.map { $0 * s2 })
    }
}
