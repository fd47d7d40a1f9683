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
    /// The bin of `magnitude`, in whole tenths (``Tenths/tenth(of:)``).
    public static func tenth(of magnitude: Double) -> Int? { Tenths.tenth(of: magnitude) }

    /// The smallest magnitude of the bin of `tenth` tenths: `(2t − 1) / 20` (``Tenths/lowerEdge(_:)``).
    public static func lowerEdge(_ tenth: Int) -> Double { Tenths.lowerEdge(tenth) }
    /// The magnitude just past the bin of `tenth` tenths: `(2t + 1) / 20`.
    public static func upperEdge(_ tenth: Int) -> Double { Tenths.upperEdge(tenth) }

    /// `6.1`, `-0.3`, `0.0`: the magnitude as every view and command shows it (its bin).
    public static func text(_ magnitude: Double) -> String { Tenths.text(magnitude) }

    /// A bin's edges as a table labels them: `4.45–4.55`; with a negative edge, `−5.05 to −4.95`
    /// and `−0.05 to 0.05` (a true minus, and words where a dash beside a minus would read as
    /// `-5.05–-4.95`).
    public static func rangeText(from lower: Double, to upper: Double) -> String {
        func edge(_ value: Double) -> String {
            let text = String(format: "%.2f", abs(value))
            return value < 0 && text != "0.00" ? "−" + text : text
        }
        return lower < 0 || upper < 0 ? edge(lower) + " to " + edge(upper) : edge(lower) + "–" + edge(upper)
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

    /// The lowest stored magnitude shown at `threshold` or more (``Tenths/lowestStored(shownAtLeast:)``).
    public static func lowestStored(shownAtLeast threshold: Double) -> Double { Tenths.lowestStored(shownAtLeast: threshold) }

    /// The highest stored magnitude shown at `threshold` or less (``Tenths/highestStored(shownAtMost:)``).
    public static func highestStored(shownAtMost threshold: Double) -> Double { Tenths.highestStored(shownAtMost: threshold) }

    /// Whether `magnitude` is shown at `threshold` or more (an unknown one never is).
    public static func isShown(_ magnitude: Double?, atLeast threshold: Double) -> Bool {
        guard let magnitude else { return false }
        return magnitude >= lowestStored(shownAtLeast: threshold)
    }

    /// The stored magnitudes shown within `range` (`:mag 4-5`: M 3.95 up to just below 5.05;
    /// ``Tenths/storedBounds(shown:)``).
    public static func storedBounds(shown range: ClosedRange<Double>) -> (low: Double, high: Double) {
        Tenths.storedBounds(shown: range)
    }
}
