/// A quake as stored: the feed record plus the user-owned notes and the row id.
public struct StoredQuake: Sendable, Hashable {
    public var id: Int64
    public var record: QuakeRecord
    public var notes: String?

    public init(id: Int64, record: QuakeRecord, notes: String?) {
        self.id = id
        self.record = record
        self.notes = notes
    }
}
