/// The changes of one write transaction, bounded: past `bulkThreshold` codes it keeps only the
/// counts and marks the transaction "bulk", which tells readers to refetch everything.
struct ChangeTracker {
    static let bulkThreshold = 10_000

    private(set) var codes: [String: HistoryChange.Kind] = [:]
    private(set) var isBulk = false
    private(set) var inserted = 0
    private(set) var updated = 0
    private(set) var deleted = 0
    var unchanged = 0

    var hasChanges: Bool { inserted + updated + deleted > 0 || isBulk }

    mutating func record(_ kind: HistoryChange.Kind, code: String) {
        switch kind {
        case .insert: inserted += 1
        case .update: updated += 1
        case .delete: deleted += 1
        }
        guard !isBulk else { return }
        // Within one transaction, an insert then update is still an insert for readers,
        // and an insert then delete is a delete of something they never saw (harmless).
        if kind == .update, codes[code] == .insert { return }
        codes[code] = kind
        if codes.count > Self.bulkThreshold { markBulk() }
    }

    mutating func markBulk() {
        isBulk = true
        codes = [:]
    }
}
