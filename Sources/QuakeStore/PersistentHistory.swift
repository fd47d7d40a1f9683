import QuakeModel
import Foundation
import QuakeTime

/// One changed quake in a history transaction.
public struct HistoryChange: Hashable, Sendable {
    public enum Kind: Int, Sendable { case insert = 0, update = 1, delete = 2 }
    public let code: String
    public let kind: Kind
    /// Where the row sorted before the change; nil for inserts (and in histories that predate it).
    public let old: RowKeys?
    /// How many agencies had reported the event before the change, where association rewrote
    /// its row (a report joined or left it, or its preferred report changed); nil for the other
    /// changes, and in histories before schema 17. `watch` prints an event whose count changed.
    public let oldAgencies: Int?
    public init(code: String, kind: Kind, old: RowKeys? = nil, oldAgencies: Int? = nil) {
        self.code = code
        self.kind = kind
        self.old = old
        self.oldAgencies = oldAgencies
    }
}

/// One committed write transaction as the history records it.
public struct HistoryTransaction: Hashable, Sendable {
    public let token: HistoryToken
    public let timestamp: Date
    public let author: String
    /// The process that committed it (`StoreOrigin.current` of that process).
    public let origin: String
    /// Too many changes to list: readers must refetch everything.
    public let isBulk: Bool
    /// The changed codes (empty when `isBulk`, or when `history(after:listingAtMost:)` found
    /// more changes than it was asked to list).
    public let changes: [HistoryChange]
    /// Whether `changes` names every changed code (false for bulk entries, and for entries
    /// `history(after:listingAtMost:)` left unlisted).
    public let isListed: Bool

    public init(token: HistoryToken, timestamp: Date, author: String, origin: String, isBulk: Bool,
                changes: [HistoryChange], isListed: Bool? = nil) {
        self.token = token
        self.timestamp = timestamp
        self.author = author
        self.origin = origin
        self.isBulk = isBulk
        self.changes = changes
        self.isListed = isListed ?? !isBulk
    }
}

/// What `history(after:)` finds.
public enum HistoryFetch: Sendable, Equatable {
    /// The transactions after the token, oldest first (possibly none), and the newest token.
    case transactions([HistoryTransaction], latest: HistoryToken)
    /// History after the token was purged: the reader missed changes and must refetch everything.
    case expired(latest: HistoryToken)

    public var latest: HistoryToken {
        switch self {
        case .transactions(_, let latest), .expired(let latest): latest
        }
    }
}

/// Identifies this process's writes in the history, so a reader can skip its own changes.
public enum StoreOrigin {
    public static let current = "\(ProcessInfo.processInfo.processIdentifier)-\(UUID().uuidString.prefix(8))"
}

extension Connection {
    /// The newest history token (`.zero` for a store nothing was ever written to).
    public func currentHistoryToken() throws(SQLiteError) -> HistoryToken {
        let latest = try scalar("SELECT max(token) FROM history").int64 ?? 0
        return HistoryToken(rawValue: max(latest, try purgedThrough().rawValue))
    }

    /// The transactions committed after `token`, oldest first.
    ///
    /// - Parameters:
    ///   - excludingOrigin: skip transactions this origin committed (pass `StoreOrigin.current`
    ///     to ignore this process's own writes).
    ///   - excludingAuthors: skip transactions by these authors.
    ///   - limit: list the changes only while the insert, update and delete counts of the
    ///     transactions it would list (not `excludingOrigin`'s) add up to at most this many; past
    ///     it every transaction comes back unlisted (a reader that reloads past a limit then never
    ///     decodes thousands of rows it would throw away).
    public func history(
        after token: HistoryToken, excludingOrigin: String? = nil, excludingAuthors: Set<String> = [],
        listingAtMost limit: Int? = nil
    ) throws(SQLiteError) -> HistoryFetch {
        let purged = try purgedThrough()
        let latest = try currentHistoryToken()
        if token < purged { return .expired(latest: latest) }
        var listing = true
        if let limit {
            let total = try scalar(
                "SELECT coalesce(sum(inserted + updated + deleted), 0) FROM history WHERE token > ? AND origin IS NOT ?",
                [.integer(token.rawValue), excludingOrigin.map { .text($0) } ?? .null]).int64 ?? 0
            listing = total <= Int64(limit)
        }
        let statement = try prepare(
            "SELECT token, timestamp, author, origin, isBulk FROM history WHERE token > ? ORDER BY token")
        try statement.bind(token.rawValue, at: 1)
        var transactions: [HistoryTransaction] = []
        // Prepared when a change is listed: a read-only store from before `oldDepth` (schema 5,
        // which `Schema.oldestReadableVersion` still reads) has no column for it, and nothing to
        // list. One from before `oldAgencies` (schema 16, read-only) may list a scene's changes
        // from before it was made read-only: it reads none.
        var preparedChanges: Statement?
        while try statement.step() {
            let origin = statement.text(at: 3)
            let author = statement.text(at: 2)
            if origin == excludingOrigin || excludingAuthors.contains(author) { continue }
            let txToken = statement.int64(at: 0)
            let isBulk = statement.int64(at: 4) != 0
            var changes: [HistoryChange] = []
            if !isBulk, listing {
                if preparedChanges == nil {
                    let listsAgencies = try hasSchema(Schema.agencyChangesListed)
                    preparedChanges = try prepare(
                        "SELECT code, kind, oldId, oldTime, oldMagnitude, oldRegionKey, oldPlaceKey, oldDepth, \(listsAgencies ? "oldAgencies" : "NULL") FROM history_change WHERE token = ?")
                }
                guard let changeStatement = preparedChanges else { break }
                changeStatement.reset()
                try changeStatement.bind(txToken, at: 1)
                while try changeStatement.step() {
                    changes.append(HistoryChange(
                        code: changeStatement.text(at: 0),
                        kind: HistoryChange.Kind(rawValue: Int(changeStatement.int64(at: 1))) ?? .update,
                        old: changeStatement.isNull(at: 2) ? nil : RowKeys(changeStatement, from: 2),
                        oldAgencies: changeStatement.optionalInt(at: 8)))
                }
            }
            transactions.append(HistoryTransaction(
                token: HistoryToken(rawValue: txToken),
                timestamp: Date(timeIntervalSince1970: Double(statement.int64(at: 1)) / 1000),
                author: author, origin: origin, isBulk: isBulk, changes: changes, isListed: !isBulk && listing))
        }
        return .transactions(transactions, latest: latest)
    }

    /// Every token at or below this one has been purged.
    /// How many rows the transactions after `token` inserted, when inserting is all they did; nil
    /// when one of them updated or deleted a row, or is a bulk entry that counted nothing (raw SQL
    /// marked bulk), or the history since was purged. Without a delete since `token`, those rows
    /// are the ones with the largest ids: SQLite gives a new row a larger id than any stored one.
    func rowsOnlyInserted(after token: HistoryToken) throws(SQLiteError) -> Int? {
        guard token >= (try purgedThrough()) else { return nil }
        let statement = try prepare("""
            SELECT coalesce(sum(inserted), 0), coalesce(sum(updated + deleted + (isBulk AND inserted = 0)), 0)
            FROM history WHERE token > ?
            """)
        try statement.bind(token.rawValue, at: 1)
        guard try statement.step(), statement.int64(at: 1) == 0 else { return nil }
        return Int(statement.int64(at: 0))
    }

    /// Whether a row may have been deleted after `token`: a transaction since counts a delete
    /// (or, bulk, counted nothing: raw SQL marked bulk), or the history since was purged.
    public func mayHaveDeletedRows(after token: HistoryToken) throws(SQLiteError) -> Bool {
        guard token >= (try purgedThrough()) else { return true }
        return try scalar("SELECT EXISTS (SELECT 1 FROM history WHERE token > ? AND (deleted > 0 OR (isBulk AND inserted + updated = 0)))",
                          [.integer(token.rawValue)]).int64 == 1
    }

    func purgedThrough() throws(SQLiteError) -> HistoryToken {
        HistoryToken(rawValue: try scalar("SELECT value FROM meta WHERE key = 'history.purgedThrough'").int64 ?? 0)
    }

    /// Deletes the history recorded before `date` and remembers how far it went, so that a
    /// reader whose token is older learns it must refetch (see `HistoryFetch.expired`).
    /// Must run inside a write transaction.
    /// - Returns: the number of transactions purged.
    @discardableResult
    public func purgeHistory(before date: Date) throws(SQLiteError) -> Int {
        let cutoff = Int64(date.timeIntervalSince1970 * 1000)
        guard let last = try scalar("SELECT max(token) FROM history WHERE timestamp < ?", [.integer(cutoff)]).int64 else {
            return 0
        }
        try execute("DELETE FROM history_change WHERE token <= ?", [.integer(last)])
        try execute("DELETE FROM history WHERE token <= ?", [.integer(last)])
        let count = changes
        try execute("INSERT INTO meta (key, value) VALUES ('history.purgedThrough', ?) ON CONFLICT DO UPDATE SET value = max(value, excluded.value)",
                    [.integer(last)])
        return count
    }
}

/// Purges history older than `retention` now and then, after a commit: one per container
/// (not per process), reading the container's clock, so tests move time instead of waiting.
final class HistoryPurge: Sendable {
    static let retention: TimeInterval = 7 * 24 * 3600
    static let interval: TimeInterval = 3600
    let clock: AppClock
    private let lastRun = LockedValue<Date?>(nil)

    init(clock: AppClock) { self.clock = clock }

    func runIfDue(_ db: Connection) {
        let now = clock.now()
        let due = lastRun.withLock { last -> Bool in
            if let last, now.timeIntervalSince(last) < Self.interval { return false }
            last = now
            return true
        }
        guard due else { return }
        // Best effort: a purge that fails (busy, read-only) is retried after the next interval.
        _ = try? db.transaction(.immediate) { try db.purgeHistory(before: now.addingTimeInterval(-Self.retention)) }
    }
}
