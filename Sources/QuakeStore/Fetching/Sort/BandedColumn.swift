import QuakeModel
/// A `quake` column that an order sorts by and sections in bands of its values (magnitude,
/// depth; `MagnitudeBands`, `DepthBands`): everything those orders differ in, so that how they
/// read, rank, count and section their rows is written once, in `ColumnSort`.
///
/// A row whose column is NULL is in the unknown band, which sorts first ascending and last
/// descending, as NULL is the smallest value in SQLite and so first in the column's index.
protocol BandedColumn {
    /// The column's name in `quake`, its index and the order's keyset terms (`magnitude`).
    static var name: String { get }
    /// How the order's rows are grouped.
    static var sectionIdentifier: SectionIdentifier { get }
    /// The schema version from which the column's index leads with the row's block (`IDBlocks`).
    static var blockLedSince: Int { get }
    /// The `quake_count` kind counting rows per band (`SectionCounts.bucketSQL`).
    static var countingKind: Int { get }
    /// The column's value in a row's keys (nil: unknown).
    static func value(of keys: RowKeys) -> Double?
    /// The column as the digest holds it (`DigestAnchor`).
    static var digestKey: DigestAnchor.Key { get }
    /// Keys at `value` that bound a segment's comparison (no row has them).
    static func bound(_ value: Double) -> RowKeys
    /// The band of a row whose column holds `value` (nil: unknown).
    static func key(of value: Double?) -> SectionKey
    /// The band a bucket of `quake_count` (of `countingKind`) counts.
    static func key(ofBucket bucket: SQLiteValue) -> SectionKey
    /// A band's key, stable identifier (saved with collapsed sections) and title.
    static func label(_ key: SectionKey) -> SectionLabel
    /// Where a band sorts ascending: its lower edge, `-infinity` for the unknown one.
    static func rank(_ key: SectionKey) -> Double
    /// The edges of a known band in the column's values, `lower ..< upper` (the outermost bands
    /// open); nil for the unknown band.
    static func edges(_ key: SectionKey) -> (lower: Double, upper: Double)?
    /// Every known band in ascending order, when they are few enough for a walk to count each;
    /// nil: a walk finds the bands that hold rows by seeking along the column's index.
    static var everyKnownBand: [SectionKey]? { get }
}
