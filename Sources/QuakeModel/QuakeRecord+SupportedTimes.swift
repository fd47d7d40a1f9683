extension QuakeRecord {
    /// The origin and update times the store accepts, in ms since the epoch: from
    /// 0001-01-01T00:00:00Z to 9999-12-31T23:59:59.999Z, the four-digit years of ISO 8601.
    ///
    /// Every reader skips a record outside this range with a reason (the calendar that draws
    /// day sections clamps dates before 4713 BC, and times near ±2^63 ms overflow date
    /// arithmetic), so the rest of the app never meets such a time. Rows written before this
    /// rule still sort and section correctly: they fall into the open-ended sections
    /// ``outOfRangeTitle(before:)`` names.
    public static let supportedTimes: ClosedRange<Int64> = -62_135_596_800_000 ... 253_402_300_799_999

    /// Why `time` (named `field`) is not accepted, or nil when it is.
    public static func timeProblem(_ time: Int64, field: String = "time") -> String? {
        guard !supportedTimes.contains(time) else { return nil }
        return "\"\(field)\" \(time) is outside the supported years 0001…9999"
    }
}

extension QuakeRecord {
    /// The magnitudes the store accepts: M −5 … 10. No quake has been measured outside (the
    /// smallest laboratory-scale events reach about −4, the largest recorded M 9.5); a feed's
    /// 1e308 is an error, and it would stretch the histogram over 10^309 bins.
    public static let supportedMagnitudes: ClosedRange<Double> = -5 ... 10
    /// The depths the store accepts, in km: −10 (above sea level, a summit's height) … 800 (the
    /// deepest quakes are near 700 km).
    public static let supportedDepths: ClosedRange<Double> = -10 ... 800

    /// Why `magnitude` is not accepted, or nil when it is (or there is none). Every reader skips
    /// a record with such a magnitude with this reason, as it does an out-of-range latitude.
    public static func magnitudeProblem(_ magnitude: Double?) -> String? {
        guard let magnitude, !supportedMagnitudes.contains(magnitude) else { return nil }
        return magnitude.isFinite ? "magnitude \(magnitude) is outside -5…10" : "magnitude \(magnitude) is not a finite number"
    }

    /// Why `depth` (km) is not accepted, or nil when it is (or there is none).
    public static func depthProblem(_ depth: Double?) -> String? {
        guard let depth, !supportedDepths.contains(depth) else { return nil }
        return depth.isFinite ? "depth \(depth) km is outside -10…800 km" : "depth \(depth) is not a finite number"
    }
}
