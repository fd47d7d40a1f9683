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

/// How far from a mainshock its sequence is looked for: a rupture length, by the scaling
/// calibrated for the mainshock's magnitude.
///
/// - Up to M 8.1, the surface rupture length of Wells & Coppersmith (1994, BSSA 84, 974–1002,
///   table 2A, all slip types), `log10 L = −3.22 + 0.69 M` km, never less than ``minimumKm`` (a
///   small quake's few-km rupture is within a catalogue's location errors). Their data reach
///   M 8.1 (table 2A, surface rupture length: strike-slip M 5.6–8.1, reverse 5.4–7.4, normal
///   5.2–7.3); above it their line outruns real ruptures
///   (M 9.5 would give 2,163 km; Valdivia's was about 1,000).
/// - Above M 8.1, where nearly every earthquake is a subduction one, the rupture length of
///   interface events of Strasser, Arango & Bommer (2010, SRL 81(6), 941–950),
///   `log10 L = −2.477 + 0.585 M` km, fitted to interface events of M 6.3–9.4, but never less
///   than Wells & Coppersmith's length at M 8.1 (233.9 km; Strasser's line gives less up to
///   M 8.28), so that the radius never shrinks as the magnitude grows.
public enum SequenceRadius {
    public static let minimumKm = 10.0
    /// The top of Wells & Coppersmith's data (table 2A).
    public static let wellsCoppersmithTop = 8.1
    /// The top of Strasser et al.'s interface data.
    public static let strasserTop = 9.4

    /// Which scaling gave a radius.
    public enum Method: String, Sendable, Equatable {
        /// Wells & Coppersmith (1994), within their data.
        case wellsCoppersmith
        /// ``minimumKm``: Wells & Coppersmith give less.
        case minimum
        /// Above M 8.1, Wells & Coppersmith's length at M 8.1: Strasser et al. (2010) give less.
        case wellsCoppersmithTop
        /// Above M 8.1, Strasser et al.'s (2010) interface length.
        case strasserInterface
    }

    /// Wells & Coppersmith's (1994) surface rupture length, km.
    public static func wellsCoppersmithKm(magnitude: Double) -> Double { pow(10, -3.22 + 0.69 * magnitude) }

    /// Strasser, Arango & Bommer's (2010) rupture length of interface events, km.
    public static func strasserInterfaceKm(magnitude: Double) -> Double { pow(10, -2.477 + 0.585 * magnitude) }

    /// The radius in km for a mainshock of `magnitude`, and the scaling that gave it.
    public static func choice(magnitude: Double) -> (km: Double, method: Method) {
        if magnitude > wellsCoppersmithTop {
            let top = wellsCoppersmithKm(magnitude: wellsCoppersmithTop), strasser = strasserInterfaceKm(magnitude: magnitude)
            return strasser > top ? (strasser, .strasserInterface) : (top, .wellsCoppersmithTop)
        }
        let length = wellsCoppersmithKm(magnitude: magnitude)
        return length < minimumKm ? (minimumKm, .minimum) : (length, .wellsCoppersmith)
    }

    /// The radius in km for a mainshock of `magnitude`.
    public static func kilometres(magnitude: Double) -> Double { choice(magnitude: magnitude).km }
}
