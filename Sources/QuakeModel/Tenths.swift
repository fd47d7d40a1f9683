/// A value as quaketui shows it and tests it, to a tenth rounded half up: a magnitude
/// (``MagnitudeBin``) and a depth in km (``DepthBins``). Rows keep the catalogue's value; a
/// threshold on what is shown becomes a bound on the stored value here
/// (``lowestStored(shownAtLeast:)``, ``highestStored(shownAtMost:)``), so SQL, the C digest and
/// Swift test `value >= bound` and agree with what the list shows.
///
/// ```swift
/// Tenths.text(2.25)                           // "2.3"
/// Tenths.storedBounds(shown: 0...10)          // (-0.05, the double before 10.05)
/// ```
public enum Tenths {
    /// The tenth that shows `value`, in whole tenths: `floor(v × 10 + 0.5)`, stepped to the tenth
    /// whose edges (``lowerEdge(_:)``, ``upperEdge(_:)``) hold `v` where the product `v × 10`
    /// rounds across an edge; nil past what an `Int` holds (and for NaN). The C digest
    /// (`magnitude_tenth` in `digest.c`) rounds alike.
    public static func tenth(of value: Double) -> Int? {
        guard var tenth = Int(exactly: (value * 10 + 0.5).rounded(.down)) else { return nil }
        if tenth > Int.min + 1, value < lowerEdge(tenth) {
            tenth -= 1
        } else if tenth < Int.max - 1, value >= upperEdge(tenth) {
            tenth += 1
        }
        return tenth
    }

    /// The smallest value shown as `tenth` tenths: `(2t − 1) / 20`, the double nearest
    /// `t/10 − 0.05` (one correctly rounded division: the same double as the literal `2.95`, and as
    /// SQLite's `(2 * t - 1) / 20.0`).
    public static func lowerEdge(_ tenth: Int) -> Double { (Double(tenth) * 2 - 1) / 20 }
    /// The value just past those shown as `tenth` tenths: `(2t + 1) / 20`.
    public static func upperEdge(_ tenth: Int) -> Double { (Double(tenth) * 2 + 1) / 20 }

    /// `6.1`, `-0.3`, `0.0`: `value` as shown (its tenth); `∞`, `-∞` or `NaN` from 100,000 on.
    public static func text(_ value: Double) -> String {
        guard let tenth = tenth(of: value), abs(tenth) < 1_000_000 else {
            return value.isNaN ? "NaN" : (value > 0 ? "∞" : "-∞")
        }
        return "\(tenth < 0 ? "-" : "")\(abs(tenth) / 10).\(abs(tenth) % 10)"
    }

    /// The lowest stored value shown at `threshold` or more: `lowerEdge` of the first tenth at or
    /// above it (2.5 → 2.45; 2.47 → 2.45, as 2.5 is shown; 2.43 → 2.45). A threshold beyond every
    /// tenth (an open range's end) is its own bound.
    public static func lowestStored(shownAtLeast threshold: Double) -> Double {
        guard var first = tenth(of: threshold), first < Int.max - 1 else { return threshold }
        if Double(first) / 10 < threshold { first += 1 }
        return lowerEdge(first)
    }

    /// The highest stored value shown at `threshold` or less: just below `upperEdge` of the last
    /// tenth at or below it (5 → the double before 5.05).
    public static func highestStored(shownAtMost threshold: Double) -> Double {
        guard var last = tenth(of: threshold), last > Int.min + 1 else { return threshold }
        if Double(last) / 10 > threshold { last -= 1 }
        return upperEdge(last).nextDown
    }

    /// The stored values shown within `range`, `low ≤ v ≤ high` (`:mag 4-5`: M 3.95 up to just
    /// below 5.05). A range between two tenths (`4.01-4.04`) holds none: `low > high`.
    public static func storedBounds(shown range: ClosedRange<Double>) -> (low: Double, high: Double) {
        (lowestStored(shownAtLeast: range.lowerBound), highestStored(shownAtMost: range.upperBound))
    }
}
