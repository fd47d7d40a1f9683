/// A well-formed feature (or CSV row) that could not become a `QuakeRecord`, and why.
///
/// ``FeedReader`` keeps the first ``FeedReader/skippedListLimit`` of these and counts the rest.
public struct SkippedFeature: Sendable, Equatable, CustomStringConvertible {
    /// GeoJSON: the 0-based index in the `features` array. CSV: the 1-based line the row starts on.
    public var index: Int
    /// The 1-based line where the feature or row starts.
    public var line: Int
    /// Why it was skipped, e.g. `no "time"` or `latitude 95.5 is outside -90…90`.
    public var reason: String
    /// A record of a format of one record a line (CSV, FDSN text), named by its line alone.
    public var isLine: Bool

    /// A feature of a document (GeoJSON, QuakeML): its 0-based index and the line it starts on.
    public init(index: Int, line: Int, reason: String) {
        (self.index, self.line, self.reason, isLine) = (index, line, reason, false)
    }

    /// A record of a format of one record a line, on `line`.
    public init(line: Int, reason: String) {
        (index, self.line, self.reason, isLine) = (line, line, reason, true)
    }

    /// `feature 3 (line 14): no "time"` (the third feature: counted from 1, as the lines) or,
    /// for a format of one record a line, `line 3: no Time`.
    public var description: String { isLine ? "line \(line): \(reason)" : "feature \(index + 1) (line \(line)): \(reason)" }
}
