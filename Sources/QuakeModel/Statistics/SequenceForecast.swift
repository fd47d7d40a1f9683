import Foundation

/// Reasenberg & Jones (1989): the rate of aftershocks of magnitude `M` or more at `t` days after
/// a mainshock of magnitude `Mm` is `λ(t, M) = 10^(a + b (Mm − M)) (t + c)^−p`. The number
/// expected from `t1` to `t2` is `N = 10^(a + b (Mm − M)) ∫ from t1 to t2 of (t + c)^−p dt`, and
/// the probability of at least one, a Poisson process's, `P = 1 − e^−N`.
///
/// ```swift
/// let rj = ReasenbergJones.generic
/// rj.expected(magnitude: 5, mainshock: 7, from: 1, days: 7)    // aftershocks of M 5+ in the week after day 1
/// rj.probability(magnitude: 5, mainshock: 7, from: 1, days: 7)
/// ```
public struct ReasenbergJones: Sendable, Equatable {
    public var a: Double
    public var b: Double
    public var p: Double
    /// Days.
    public var c: Double

    public init(a: Double, b: Double, p: Double, c: Double) {
        (self.a, self.b, self.p, self.c) = (a, b, p, c)
    }

    /// Reasenberg & Jones's (1989) generic California parameters: `a = −1.67`, `b = 0.91`,
    /// `p = 1.08`, `c = 0.05` days.
    public static let generic = ReasenbergJones(a: -1.67, b: 0.91, p: 1.08, c: 0.05)

    /// A sequence's own parameters: its Omori fit counts the aftershocks at or above `Mc`, so
    /// `K = 10^(a + b (Mm − Mc))`, `a = log10 K − b (Mm − Mc)`.
    public init(_ fit: OmoriLaw, b: Double, completeness: Double, mainshock: Double) {
        self.init(a: log10(fit.k) - b * (mainshock - completeness), b: b, p: fit.p, c: fit.c)
    }

    /// The number of aftershocks of `magnitude` or more expected from `start` days after a
    /// mainshock of magnitude `mainshock` for `days` days.
    public func expected(magnitude: Double, mainshock: Double, from start: Double, days: Double) -> Double {
        pow(10, a + b * (mainshock - magnitude)) * OmoriLaw.integral(from: start, to: start + days, c: c, p: p)
    }

    /// The probability of at least one: `1 − e^−N`.
    public func probability(magnitude: Double, mainshock: Double, from start: Double, days: Double) -> Double {
        -expm1(-expected(magnitude: magnitude, mainshock: mainshock, from: start, days: days))
    }
}

/// How far from a mainshock its sequence is looked for: the surface rupture length of Wells &
/// Coppersmith (1994, table 2A, all slip types), `log10 L = −3.22 + 0.69 M` km, and never less
/// than ``minimumKm`` (a small quake's few-km rupture is within a catalogue's location errors).
public enum SequenceRadius {
    public static let minimumKm = 10.0

    /// The radius in km for a mainshock of `magnitude`.
    public static func kilometres(magnitude: Double) -> Double {
        max(minimumKm, pow(10, -3.22 + 0.69 * magnitude))
    }
}
