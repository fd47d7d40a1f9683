import Foundation

/// The seismic moment of a moment magnitude, `M0 = 10^(1.5 Mw + 9.1)` N·m (Hanks & Kanamori 1979,
/// with the 9.1 of the IASPEI standard), the inverse of `Mw = (2/3)(log10 M0 − 9.1)`.
///
/// ```swift
/// SeismicMoment.newtonMetres(magnitude: 6.0)   // 1.26e18
/// ```
public enum SeismicMoment {
    /// M0 in N·m of magnitude `mw`: 10^(1.5 Mw + 9.1), as e^((1.5 Mw + 9.1) ln 10), which is
    /// within 1e-14 of it and takes half of `pow`'s time (the statistics sum one a quake).
    public static func newtonMetres(magnitude mw: Double) -> Double { exp((1.5 * mw + 9.1) * M_LN10) }

    /// The moment magnitude of `m0` N·m.
    public static func magnitude(newtonMetres m0: Double) -> Double { (log10(m0) - 9.1) / 1.5 }
}

extension SeismicMoment {
    /// `newtonMetres(magnitude:)` remembered for the magnitudes met last, a slot each by the
    /// magnitude's bits: a catalogue's magnitudes repeat (a few thousand values among millions of
    /// quakes), and `exp` was a tenth of the statistics' time at 5,000,000. The same values,
    /// bit for bit.
    struct Memo {
        private static let slots = 4096
        private var keys = [UInt64](repeating: Double.nan.bitPattern, count: slots)
        private var values = [Double](repeating: 0, count: slots)

        /// M0 of `magnitude`, which must not be NaN (NaN's bits mark an empty slot).
        mutating func newtonMetres(magnitude: Double) -> Double {
            let bits = magnitude.bitPattern
            let slot = Int(truncatingIfNeeded: (bits &* 0x9E37_79B9_7F4A_7C15) >> 52)  // 12 bits: 0 ..< 4096
            if keys[slot] == bits { return values[slot] }
            let moment = SeismicMoment.newtonMetres(magnitude: magnitude)
            (keys[slot], values[slot]) = (bits, moment)
            return moment
        }
    }
}
