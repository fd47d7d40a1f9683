import QuakeModel
/// The changes of one write transaction, bounded: past `bulkThreshold` codes it keeps only the
/// counts and marks the transaction "bulk", which tells readers to refetch everything.
struct ChangeTracker {
    /// The most changes any reader lists (`Connection.maxListedArrivals`; a results controller
    /// lists up to `FetchedResultsController.maxListedChanges` and reloads past it): a longer
    /// list is written for nobody. Past it, a reader reloads or scans the new ids as it would
    /// past its own limit (a month into 1M quakes spent ~20 ms writing its 12,569 changes).
    static let bulkThreshold = Connection.maxListedArrivals

    private(set) var codes: [String: HistoryChange.Kind] = [:]
    /// The keys each changed row had before this transaction first touched it (absent: it did not exist).
    private(set) var oldKeys: [String: RowKeys] = [:]
    /// How many agencies each event association changed had reported it before this
    /// transaction first changed that count (`HistoryChange.oldAgencies`).
    private(set) var oldAgencies: [String: Int] = [:]
    private(set) var isBulk = false
    private(set) var inserted = 0
    private(set) var updated = 0
    private(set) var deleted = 0
    var unchanged = 0
    /// Whether a row change was listed (association may change rows no report count says).
    private(set) var listed = false

    var hasChanges: Bool { inserted + updated + deleted > 0 || isBulk || listed }

    /// Whether changes are still listed one by one (callers skip reading old keys otherwise).
    var isTrackingCodes: Bool { !isBulk }

    mutating func record(_ kind: HistoryChange.Kind, code: String, old: RowKeys? = nil) {
        count(kind)
        list(kind, code: code, old: old)
    }

    /// Counts a change of a report (what an import says it did) without listing a row.
    mutating func count(_ kind: HistoryChange.Kind) {
        switch kind {
        case .insert: inserted += 1
        case .update: updated += 1
        case .delete: deleted += 1
        }
    }

    /// Counts an insert of this transaction that a delete took back as an unchanged record: an
    /// older view of a stored event (``WriteTransaction/mergeComCatAliases(_:)``).
    mutating func takeBackInsert() {
        inserted -= 1
        deleted -= 1
        unchanged += 1
    }

    /// Lists a change of a row for readers without counting it: the event rows association
    /// rewrites (the reports it moved were counted as they came), with how many agencies had
    /// reported the event before (`agencies`, the row's count as association found it).
    mutating func list(_ kind: HistoryChange.Kind, code: String, old: RowKeys? = nil, agencies: Int? = nil) {
        listed = true
        guard !isBulk else { return }
        // What readers need is the net change from before the transaction to after it.
        switch (codes[code], kind) {
        case (.insert?, .update): return                      // still new to readers
        case (.insert?, .delete): codes[code] = nil; return   // never existed for readers
        case (.delete?, .insert): codes[code] = .update; return // existed before, exists after
        default: break
        }
        if codes[code] == nil, let old { oldKeys[code] = old }
        if oldAgencies[code] == nil, let agencies { oldAgencies[code] = agencies }
        codes[code] = kind
        if codes.count > Self.bulkThreshold { markBulk() }
    }

    mutating func markBulk() {
        isBulk = true
        codes = [:]
        oldKeys = [:]
        oldAgencies = [:]
    }
}

/// The keys that decide where a row sorts and whether it matches a predicate.
public struct RowKeys: Hashable, Sendable {
    public var id: Int64
    public var time: Int64
    public var magnitude: Double?
    public var regionKey: String
    public var placeKey: String
    /// km; the key of a depth sort.
    public var depth: Double?

    public init(id: Int64, time: Int64, magnitude: Double?, regionKey: String, placeKey: String, depth: Double? = nil) {
        self.id = id
        self.time = time
        self.magnitude = magnitude
        self.regionKey = regionKey
        self.placeKey = placeKey
        self.depth = depth
    }

    static let columns = "id, time, magnitude, regionKey, placeKey, depth"
    /// How many columns `columns` names.
    static let columnCount: Int32 = 6

    /// Reads `columns` starting at `first` from the current row.
    init(_ s: Statement, from first: Int32 = 0) {
        self.init(id: s.int64(at: first), time: s.int64(at: first + 1), magnitude: s.optionalDouble(at: first + 2),
                  regionKey: s.text(at: first + 3), placeKey: s.text(at: first + 4), depth: s.optionalDouble(at: first + 5))
    }
}
