/// Which magnitude of an event to show when the event does not flag one (QuakeML without
/// `preferredMagnitudeID`, or with one that names no magnitude of the file).
///
/// The rule, as a seismologist reads a bulletin: the moment magnitude family first, in the
/// order ComCat prefers it (`Mww`, `Mwc`, `Mwb`, `Mwr`, `Mw`, then other `Mw…` such as `Mwp`),
/// because it does not saturate; then surface-wave `Ms` (`Ms_BB`, `MS`, `Ms_20`), broadband
/// body-wave `mB`, short-period body-wave `mb`, local `ML` (and `mbLg`), duration/coda `Md`,
/// then anything else. Within one kind the largest value wins (two agencies' `mb` of one
/// event: the larger is the less saturated). ISC lists `mb` 7.1 before `Mw` 9.1 for Tohoku;
/// this picks `Mw` 9.1. Magnitudes without a value are never chosen.
public enum MagnitudePreference {
    /// The rank of a magnitude type: lower is preferred. Case is ignored except for `mB`
    /// (broadband) versus `mb` (short-period), which the standard tells apart by case alone.
    public static func rank(_ type: String?) -> Int {
        guard let type, !type.isEmpty else { return 12 }
        if type == "mB" || type == "mB_BB" { return 7 }
        let lower = type.lowercased()
        switch lower {
        case "mww": return 0
        case "mwc": return 1
        case "mwb": return 2
        case "mwr": return 3
        case "mw": return 4
        case "ms", "ms_bb", "ms_20", "msz", "m_s": return 6
        case "mb", "mb_bb", "mbb": return 8
        case "ml", "mlv", "mlh", "mbl", "mblg", "mb_lg", "mlg", "mlr": return 9
        case "md", "mc", "mcd", "mlc": return 10
        default:
            if lower.hasPrefix("mw") { return 5 }
            if lower.hasPrefix("ms") { return 6 }
            if lower.hasPrefix("ml") { return 9 }
            return 11
        }
    }

    /// The index of the preferred one among `(value, type)` pairs, or nil when none has a value.
    public static func choose<C: Collection>(_ candidates: C) -> C.Index? where C.Element == (value: Double?, type: String?) {
        var best: (index: C.Index, rank: Int, value: Double)?
        var index = candidates.startIndex
        for candidate in candidates {
            defer { index = candidates.index(after: index) }
            guard let value = candidate.value, value.isFinite else { continue }
            let rank = rank(candidate.type)
            if let current = best, current.rank < rank || (current.rank == rank && current.value >= value) { continue }
            best = (index, rank, value)
        }
        return best?.index
    }
}
