import QuakeModel
/// The sections of a `magnitude` sort: one per whole magnitude as shown (`M <1`, `M 1`, …, `M 6+`;
/// `M 3` holds the quakes shown 3.0 … 3.9, M 2.95 ..< 3.95, `MagnitudeBin`; bucket 0 holds the
/// negatives, bucket 6 everything shown 6.0 or more, `SectionKey.bucket`), and `unknown`.
enum MagnitudeBands: BandedColumn {
    static let name = "magnitude"
    static let sectionIdentifier = SectionIdentifier.magnitude
    static let blockLedSince = Schema.magnitudeLedByBlock
    static let countingKind = 1
    /// Few enough for a walk to count each by range.
    static let everyKnownBand: [SectionKey]? = (0...6).map { .magnitude($0) }

    static func value(of keys: RowKeys) -> Double? { keys.magnitude }
    static var digestKey: DigestAnchor.Key { .magnitude }

    static func bound(_ value: Double) -> RowKeys { .bound(magnitude: value, time: .min, id: .min) }

    static func key(of value: Double?) -> SectionKey { .magnitude(SectionKey.bucket(of: value)) }

    /// -1 stands for unknown, which sorts first ascending (NULL is smallest in SQLite).
    static func key(ofBucket bucket: SQLiteValue) -> SectionKey {
        let raw = Int(bucket.int64 ?? -1)
        return .magnitude(raw < 0 ? nil : raw)
    }

    static func label(_ key: SectionKey) -> SectionLabel {
        let title = SectionKey.magnitudeTitle(bucket(key))
        return (key, title, title)
    }

    static func rank(_ key: SectionKey) -> Double { bucket(key).map(Double.init) ?? -.infinity }

    static func edges(_ key: SectionKey) -> (lower: Double, upper: Double)? {
        guard let bucket = bucket(key) else { return nil }
        return (bucket == 0 ? -.greatestFiniteMagnitude : lowerEdge(bucket), bucket == 6 ? .greatestFiniteMagnitude : lowerEdge(bucket + 1))
    }

    /// The lowest stored magnitude of the section of whole magnitude `bucket` (3 → 2.95).
    static func lowerEdge(_ bucket: Int) -> Double { MagnitudeBin.lowestStored(shownAtLeast: Double(bucket)) }

    private static func bucket(_ key: SectionKey) -> Int? {
        guard case .magnitude(let bucket) = key else { preconditionFailure("a magnitude key") }
        return bucket
    }
}
