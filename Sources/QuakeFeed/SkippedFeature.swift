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

    public init(index: Int, line: Int, reason: String) {
        self.index = index
        self.line = line
        self.reason = reason
    }

    public var description: String { "feature \(index) (line \(line)): \(reason)" }
}
