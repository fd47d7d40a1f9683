/// One version of a report (issue 53, revisions): what its agency said at one time and when
/// quaketui saw it. A report's versions are kept once it changes for the first time: the version
/// stored before (seen at an unknown time: `seen` nil, shown at its `updated`), then each new one.
public struct ReportRevision: Sendable, Hashable {
    public var code: String
    /// When the import that stored this version ran (ms since the epoch); nil: stored before the
    /// report's first revision, when versions were not yet kept apart.
    public var seen: Int64?
    /// The agency's `updated` time of this version (ms since the epoch).
    public var updated: Int64
    public var magnitude: Double?
    public var magType: String?
    public var time: Int64
    public var latitude: Double
    public var longitude: Double
    public var depth: Double?
    /// `automatic`, `reviewed`, `deleted` (the agency withdrew it) … as the feed spells it.
    public var status: String?

    public init(code: String, seen: Int64?, updated: Int64, magnitude: Double?, magType: String?, time: Int64,
                latitude: Double, longitude: Double, depth: Double?, status: String?) {
        self.code = code
        self.seen = seen
        self.updated = updated
        self.magnitude = magnitude
        self.magType = magType
        self.time = time
        self.latitude = latitude
        self.longitude = longitude
        self.depth = depth
        self.status = status
    }

    /// The time the version is shown at: when its agency made it (`updated`), as a seismologist
    /// reads a catalogue's revisions; a `withdrawn` version, which quaketui writes when a refreshed
    /// feed no longer lists the report, when that refresh saw it. (A feed of 2014 imported today
    /// shows its revisions in 2014, not today.)
    public var shownTime: Int64 { status == Self.withdrawn ? seen ?? updated : updated }

    /// The status quaketui gives a report a refreshed summary feed no longer lists, inside the
    /// feed's window and above its floor.
    public static let withdrawn = "withdrawn"
}
