/// A magnitude as quaketui shows it and tests it: to a tenth, rounded half up, the bin of the
/// magnitude–frequency distribution. A quake of M 2.96 shows `3.0`, sorts into the section `M 3`,
/// passes `--mag 3`, `:mag 3-4` and `m` at 3, and counts in the bin 2.95 … 3.05; one of M 2.94
/// shows `2.9` and does none of those. USGS's summary feeds choose alike (the M 2.5+ feed holds
/// M 2.45), and so do ZMAP and SeismoStats when they bin a catalogue before a fit.
///
/// The store keeps the catalogue's value; a threshold becomes a bound on it here
/// (``lowestStored(shownAtLeast:)``, ``highestStored(shownAtMost:)``), so SQL, the C digest and
/// Swift test `magnitude >= bound` and agree with what the list shows.
public enum MagnitudeBin {
    /// The bin of `magnitude`, in whole tenths: `floor(m × 10 + 0.5)`, stepped to the bin whose
    /// edges (``lowerEdge(_:)``, ``upperEdge(_:)``) hold `m` where the product `m × 10` rounds
    /// across an edge; nil past what an `Int` holds (and for NaN). The C digest
    /// (`magnitude_tenth` in `digest.c`) bins alike.
    public static func tenth(of magnitude: Double) -> Int? {
        guard var tenth = Int(exactly: (magnitude * 10 + 0.5).rounded(.down)) else { return nil }
        if tenth > Int.min + 1, magnitude < lowerEdge(tenth) {
            tenth -= 1
        } else if tenth < Int.max - 1, magnitude >= upperEdge(tenth) {
            tenth += 1
        }
        return tenth
    }

    /// The smallest magnitude of the bin of `tenth` tenths: `(2t − 1) / 20`, the double nearest
    /// `t/10 − 0.05` (one correctly rounded division: the same double as the literal `2.95`).
    public static func lowerEdge(_ tenth: Int) -> Double { (Double(tenth) * 2 - 1) / 20 }
    /// The magnitude just past the bin of `tenth` tenths: `(2t + 1) / 20`.
    public static func upperEdge(_ tenth: Int) -> Double { (Double(tenth) * 2 + 1) / 20 }

    /// `6.1`, `-0.3`, `0.0`: the magnitude as every view and command shows it (its bin).
    public static func text(_ magnitude: Double) -> String {
        guard let tenth = tenth(of: magnitude), abs(tenth) < 1_000_000 else {
            return magnitude.isNaN ? "NaN" : (magnitude > 0 ? "∞" : "-∞")
        }
        return "\(tenth < 0 ? "-" : "")\(abs(tenth) / 10).\(abs(tenth) % 10)"
    }

    /// A minimum as the list applies it, shown: the first tenth it takes (`2.5` → `2.5`,
    /// `2.44` → `2.5`, which is what a minimum of 2.44 lets through).
    public static func threshold(_ minimum: Double) -> String { text(lowestStored(shownAtLeast: minimum)) }

    /// The whole magnitude a quake is sectioned under (`M 3` holds the quakes shown 3.0 … 3.9,
    /// M 2.95 ..< 3.95), clamped to `0` (`M <1`) … `6` (`M 6+`); nil for no magnitude.
    public static func whole(of magnitude: Double?) -> Int? {
        guard let magnitude, !magnitude.isNaN else { return nil }
        guard let tenth = tenth(of: magnitude) else { return magnitude > 0 ? 6 : 0 }
        return max(0, min(6, tenth / 10))
    }

    /// The lowest stored magnitude shown at `threshold` or more: `lowerEdge` of the first tenth at
    /// or above it (2.5 → 2.45; 2.47 → 2.45, as 2.5 is shown; 2.43 → 2.45). A threshold beyond
    /// every bin (`:mag 5+`'s upper end) is its own bound.
    public static func lowestStored(shownAtLeast threshold: Double) -> Double {
        guard var first = tenth(of: threshold), first < Int.max - 1 else { return threshold }
        if Double(first) / 10 < threshold { first += 1 }
        return lowerEdge(first)
    }

    /// The highest stored magnitude shown at `threshold` or less: just below `upperEdge` of the
    /// last tenth at or below it (5 → the double before 5.05).
    public static func highestStored(shownAtMost threshold: Double) -> Double {
        guard var last = tenth(of: threshold), last > Int.min + 1 else { return threshold }
        if Double(last) / 10 > threshold { last -= 1 }
        return upperEdge(last).nextDown
    }

    /// Whether `magnitude` is shown at `threshold` or more (an unknown one never is).
    public static func isShown(_ magnitude: Double?, atLeast threshold: Double) -> Bool {
        guard let magnitude else { return false }
        return magnitude >= lowestStored(shownAtLeast: threshold)
    }

    /// The stored magnitudes shown within `range`, `low ≤ M ≤ high` (`:mag 4-5`: M 3.95 up to
    /// just below 5.05). A range between two tenths (`4.01-4.04`) holds none: `low > high`.
    public static func storedBounds(shown range: ClosedRange<Double>) -> (low: Double, high: Double) {
        (lowestStored(shownAtLeast: range.lowerBound), highestStored(shownAtMost: range.upperBound))
    }
}
