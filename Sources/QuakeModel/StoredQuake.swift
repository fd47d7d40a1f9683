/// A quake as stored: the feed record plus the user-owned notes and the row id.
public struct StoredQuake: Sendable, Hashable {
    public var id: Int64
    public var record: QuakeRecord
    public var notes: String?
    /// The reports of an event several agencies reported, the preferred (`record`) first; empty
    /// when it is one agency's alone or when they were not read (issue 53).
    public var reports: [QuakeRecord] = []
    /// The kept versions of its reports (issue 53), each report's oldest first; empty when none
    /// changed or they were not read.
    public var revisions: [ReportRevision] = []

    public init(id: Int64, record: QuakeRecord, notes: String?) {
        self.id = id
        self.record = record
        self.notes = notes
    }
}
