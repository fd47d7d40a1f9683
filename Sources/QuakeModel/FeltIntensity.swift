import Foundation

/// The shaking a quake is predicted to cause at a place (home): the Modified Mercalli intensity
/// of Allen, Wald & Worden (2012), "Intensity attenuation for active crustal regions", J. Seismol.
/// 16:409–433, the model in hypocentral distance (their equation 1 with table 2's coefficients):
///
///     MMI = c0 + c1·M + c2·ln(√(R² + Rm²))            (R ≤ 50 km)
///         + c4·ln(R / 50)                              (R > 50 km, added)
///     Rm  = m1 + m2·e^(M − 5)
///
/// with c0 = 2.085, c1 = 1.428, c2 = −1.402, c4 = 0.078, m1 = −0.209, m2 = 2.042, M the
/// magnitude and R the hypocentral distance in km: √(epicentral² + depth²), the epicentral
/// distance being `GeoPoint.distance(to:)` and an unknown depth taken as 0 (the largest
/// prediction), and R taken as 6 km where it is less (`Coefficients.nearest`). Its uncertainty
/// is the model's standard deviation in intensity units, σ = s1 + s2 / (1 + (R / s3)²) with
/// s1 = 0.82, s2 = 0.37, s3 = 22.9 (the hypocentral model's; checked against OpenQuake's
/// `AllenEtAl2012Rhypo` and ETH's Matlab `fct_GMPE_Allen2012`, which agree on form and values;
/// the paper's table itself was not at hand: README, "Felt at home").
///
/// *Predicted* means the median intensity on average ground at that distance: no site effect
/// (soft soil shakes more), no rupture extent or directivity, and one σ either side holds about
/// two thirds of what is felt.
///
/// The value is computed as `quaketui_intensity` in SQL computes it (CQuakeSQL/intensity.c: the
/// same operations in the same order through the same C library), so a sort, a filter and a
/// shown value never disagree at a boundary. Two roundings of `value` are shown, each taken from
/// the equation's value itself, as issue 55 words them: `tenths`, the value to one decimal
/// clamped to 1.0–10.0 (`list --json`'s `intensityAtHome`, compared with `alertIntensity`), and
/// `whole`, the nearest whole intensity clamped to I–X (`IV light`; the sort's bands and
/// `:intensity`). Rounding the one-decimal value again would show 4.45–4.499 as V, not IV: a
/// value of 4.47 is `IV light`, predicted 4.5.
///
/// ```swift
/// let felt = FeltIntensity(home: home, latitude: 38.4, longitude: 34.0, depth: 10, magnitude: 5.6)
/// felt?.label            // "VI strong"
/// felt?.oneDecimal       // 6.3
/// ```
public struct FeltIntensity: Hashable, Sendable {
    /// The equation's value, unrounded and unclamped (may be below 1).
    public let value: Double
    /// The hypocentral distance R in km.
    public let hypocentralKm: Double

    /// The coefficients of table 2, hypocentral model.
    public enum Coefficients {
        public static let c0 = 2.085, c1 = 1.428, c2 = -1.402, c4 = 0.078
        public static let m1 = -0.209, m2 = 2.042
        /// The distance past which the far-field term applies, km.
        public static let hinge = 50.0
        /// The least hypocentral distance the equation is evaluated at, km: a nearer quake is
        /// predicted as at 6 km, as ETH's implementation of the model does ("results are not
        /// reliable for distances ≤ 6 km": Landtwing 2012, `fct_GMPE_Allen2012`). Nearer, the
        /// equation leaves the distances its data hold: an M 2.3 0.3 km from home gave VII, and
        /// an M 2.72 under home, where Rm is 0, an infinite intensity.
        public static let nearest = 6.0
        /// σ = s1 + s2 / (1 + (R / s3)²).
        public static let s1 = 0.82, s2 = 0.37, s3 = 22.9
    }

    /// The S-wave speed for the arrival estimate, km/s (a crustal average).
    public static let sWaveSpeed = 3.5
    /// The farthest hypocentral distance for which an S-wave arrival is given, km.
    public static let sArrivalReach = 1_000.0

    /// The prediction for a quake of `magnitude` at `hypocentralKm`.
    public init(magnitude: Double, hypocentralKm: Double) {
        self.value = Self.equation(magnitude: magnitude, hypocentralKm: hypocentralKm)
        self.hypocentralKm = hypocentralKm
    }

    /// The prediction at `home` for a quake at `latitude`, `longitude`, `depth` km (nil: 0) of
    /// `magnitude`; nil without a magnitude.
    public init?(home: GeoPoint, latitude: Double, longitude: Double, depth: Double?, magnitude: Double?) {
        guard let magnitude else { return nil }
        let epicentral = home.distance(to: GeoPoint(latitude: latitude, longitude: longitude))
        self.init(magnitude: magnitude, hypocentralKm: Self.hypocentralKm(epicentralKm: epicentral, depth: depth))
    }

    /// √(epicentral² + depth²), as `quaketui_intensity` computes it.
    public static func hypocentralKm(epicentralKm: Double, depth: Double?) -> Double {
        let depth = depth ?? 0
        return sqrt(epicentralKm * epicentralKm + depth * depth)
    }

    /// The equation, term by term in `quaketui_intensity`'s order.
    public static func equation(magnitude m: Double, hypocentralKm distance: Double) -> Double {
        typealias C = Coefficients
        let r = distance <= C.nearest ? C.nearest : distance
        let rm = C.m1 + C.m2 * exp(m - 5)
        var mmi = C.c0 + C.c1 * m + C.c2 * log(sqrt(r * r + rm * rm))
        if r > C.hinge { mmi = mmi + C.c4 * log(r / C.hinge) }
        return mmi
    }

    /// Ten times the value, rounded half away from zero, clamped to 10…100 (1.0–10.0).
    public var tenths: Int { Self.tenths(value) }

    /// `tenths` of a value of the equation.
    public static func tenths(_ value: Double) -> Int {
        let scaled = value * 10
        if scaled.isNaN || scaled <= 10 { return 10 }
        if scaled >= 100 { return 100 }
        return Int(scaled.rounded())
    }

    /// The value to one decimal, 1.0–10.0 (`intensityAtHome`).
    public var oneDecimal: Double { Double(tenths) / 10 }

    /// The whole intensity shown, I–X: the nearest whole to the equation's value (half up),
    /// clamped; never `oneDecimal` rounded again.
    public var whole: Int { Self.whole(value) }

    /// `whole` of a value of the equation: `value ≥ n − 0.5` ⇔ `whole ≥ n` (for n in 2…10), the
    /// test `scaledFloor(whole:)` makes in SQL. A NaN is I, as `tenths` makes it 1.0.
    public static func whole(_ value: Double) -> Int {
        if value.isNaN || value < 1.5 { return 1 }
        if value >= 9.5 { return 10 }
        // Half away from zero, which for a value past 1.5 is half up.
        return Int(value.rounded(.toNearestOrAwayFromZero))
    }

    /// `VI strong`.
    public var label: String { Self.label(whole) }

    /// The standard deviation at this distance (6 km at least, as the equation), in intensity units.
    public var sigma: Double {
        typealias C = Coefficients
        let x = (hypocentralKm <= C.nearest ? C.nearest : hypocentralKm) / C.s3
        return C.s1 + C.s2 / (1 + x * x)
    }

    /// Seconds from the origin time to the S waves' arrival at home (R / 3.5 km/s), to one
    /// decimal; nil past `sArrivalReach`.
    public var sArrivalSeconds: Double? {
        guard hypocentralKm <= Self.sArrivalReach else { return nil }
        return (hypocentralKm / Self.sWaveSpeed * 10).rounded() / 10
    }

    /// The smallest value times ten shown as `whole` or more, for SQL over
    /// `quaketui_intensity(…) * 10`: `value ≥ whole − 0.5` ⇔ `value · 10 ≥ 10·whole − 5`, exactly
    /// in binary. Both bounds are doubles and rounding is monotonic; the double just below
    /// `whole − 0.5` (one spacing u), times ten, is 10u below `10·whole − 5`, more than half the
    /// spacing there (8u or 16u), so it rounds below (`IntensityTests` checks every whole). Only
    /// for whole 2…10: every quake with a magnitude is shown as I or more.
    public static func scaledFloor(whole: Int) -> Double { Double(10 * whole) - 5 }

    /// The smallest value times ten whose `tenths` reach `tenths` (round(x) ≥ t ⇔ x ≥ t − 0.5);
    /// for 10 (1.0) or less, −∞: `tenths` clamps every value to 1.0 or more, so every quake with a
    /// magnitude reaches it (`alertIntensity 1` alerts in `status` as in the browser).
    public static func scaledFloor(tenths: Int) -> Double { tenths <= 10 ? -.infinity : Double(tenths) - 0.5 }

    // MARK: Words

    /// Roman numerals I–X.
    public static let numerals = ["I", "II", "III", "IV", "V", "VI", "VII", "VIII", "IX", "X"]
    /// The USGS words of the Modified Mercalli scale ("Perceived shaking", as ShakeMap's legend
    /// and "Did You Feel It?" print them).
    public static let words = ["not felt", "weak", "weak", "light", "moderate", "strong", "very strong",
                               "severe", "violent", "extreme"]

    /// `IV light` for 4 (clamped to I–X).
    public static func label(_ whole: Int) -> String {
        let index = max(1, min(10, whole)) - 1
        return numerals[index] + " " + words[index]
    }

    /// The numeral alone (`IV`).
    public static func numeral(_ whole: Int) -> String { numerals[max(1, min(10, whole)) - 1] }

    /// A whole intensity from `4` or `IV` (any case); nil for anything else or outside 1–10.
    public static func parseWhole(_ text: String) -> Int? {
        if let number = Int(text), (1...10).contains(number) { return number }
        return numerals.firstIndex(of: text.uppercased()).map { $0 + 1 }
    }
}
