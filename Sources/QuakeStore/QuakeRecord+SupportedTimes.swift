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
