import QuakeModel
import Foundation

/// Summary figures of the store, for `quaketui info`.
public struct StoreStatistics: Sendable, Equatable {
    public var quakeCount: Int
    /// Origin times of the oldest and newest quake (nil for an empty store).
    public var oldest: Date?
    public var newest: Date?
    public var withNotes: Int
    public var historyToken: HistoryToken
    public var schemaVersion: Int
}

extension Connection {
    public func quakeCount() throws(SQLiteError) -> Int {
        Int(try scalar("SELECT count(*) FROM quake").int64 ?? 0)
    }

    /// The quakes the store's kept counts add up to (`quake_count`'s magnitude buckets, at most
    /// eight rows), where `quakeCount` reads every row: the same number in any snapshot.
    func keptQuakeCount() throws(SQLiteError) -> Int {
        Int(try scalar("SELECT sum(count) FROM quake_count WHERE kind = 1").int64 ?? 0)
    }

    /// Whether the store holds any quake: one index probe, where `quakeCount` reads every row.
    public func hasQuakes() throws(SQLiteError) -> Bool {
        try scalar("SELECT EXISTS (SELECT 1 FROM quake)").int64 == 1
    }

    public func statistics() throws(SQLiteError) -> StoreStatistics {
        let span = try prepare("SELECT min(time), max(time), count(*), count(notes) FROM quake")
        try span.step()
        func date(_ column: Int32) -> Date? {
            span.isNull(at: column) ? nil : Date(timeIntervalSince1970: Double(span.int64(at: column)) / 1000)
        }
        return StoreStatistics(
            quakeCount: Int(span.int64(at: 2)), oldest: date(0), newest: date(1),
            withNotes: Int(span.int64(at: 3)), historyToken: try currentHistoryToken(),
            schemaVersion: Int(try scalar("PRAGMA user_version").int64 ?? 0))
    }

    /// The largest stored magnitude, or nil when no quake has one (for "nothing matches" advice).
    public func largestMagnitude() throws(SQLiteError) -> Double? {
        try scalar("SELECT max(magnitude) FROM quake").double
    }

    /// A store-wide string setting (e.g. where the data came from).
    public func metaValue(_ key: String) throws(SQLiteError) -> String? {
        try scalar("SELECT value FROM meta WHERE key = ?", [.text(key)]).string
    }

    /// Sets a store-wide string setting; nil removes it. Must run inside a write transaction.
    public func setMetaValue(_ value: String?, for key: String) throws(SQLiteError) {
        if let value {
            try execute("INSERT INTO meta (key, value) VALUES (?, ?) ON CONFLICT DO UPDATE SET value = excluded.value",
                        [.text(key), .text(value)])
        } else {
            try execute("DELETE FROM meta WHERE key = ?", [.text(key)])
        }
    }

    /// The values of `values` stored quakes have, sorted (`eventTypes()`, `magnitudeTypes()`).
    public func storedValues(_ values: StoredValues) throws(SQLiteError) -> [String] {
        switch values {
        case .eventTypes: try eventTypes()
        case .magnitudeTypes: try magnitudeTypes()
        }
    }

    /// The magnitude types stored quakes have, trimmed and lower case (as `:magtype` compares
    /// them), sorted: from the digest's kinds when it is current and counts them (no pass over
    /// the rows), else from the rows.
    public func magnitudeTypes() throws(SQLiteError) -> [String] {
        var counted = try hasSchema(Schema.kindsCounted)
        if counted { counted = try SearchDigest.isCurrent(self) }
        let sql = counted
            ? "SELECT DISTINCT lower(trim(magType)) FROM quake_digest_kind WHERE (rows IS NULL OR rows > 0) AND trim(magType) <> '' ORDER BY 1"
            : "SELECT DISTINCT lower(trim(magType)) FROM quake WHERE trim(magType) <> '' ORDER BY 1"
        let statement = try prepare(sql)
        var types: [String] = []
        while try statement.step() { types.append(statement.text(at: 0)) }
        return types
    }

    /// The event types stored quakes have, lower case (ASCII, as `:type` compares them), sorted.
    public func eventTypes() throws(SQLiteError) -> [String] {
        let statement = try prepare("SELECT DISTINCT lower(type) FROM quake WHERE type IS NOT NULL ORDER BY 1")
        var types: [String] = []
        while try statement.step() { types.append(statement.text(at: 0)) }
        return types
    }

    /// One quake (event) by code, with its notes, or nil. Any of an event's reports' codes names
    /// it (issue 53): the event keeps its preferred report's code, the others find it too; so
    /// does a code ComCat merged into it (`WriteTransaction+Aliases.swift`).
    public func quake(code: String) throws(SQLiteError) -> StoredQuake? {
        // Most codes are an event's row: one lookup.
        let row = try cachedStatement("SELECT \(StoredQuake.columns) FROM quake WHERE code = ?")
        defer { row.reset() }
        try row.bind(code, at: 1)
        if try row.step() { return StoredQuake(row) }
        guard let id = try eventID(namingOther: code) else { return nil }
        let event = try cachedStatement("SELECT \(StoredQuake.columns) FROM quake WHERE id = ?")
        defer { event.reset() }
        try event.bind(id, at: 1)
        return try event.step() ? StoredQuake(event) : nil
    }

    /// The code of the event `code` names (as `quake(code:)` finds it): `code` itself for an
    /// event's row, else the row's code of the event it is a report of or was merged into.
    public func eventCode(naming code: String) throws(SQLiteError) -> String? {
        if try cachedScalar("SELECT 1 FROM quake WHERE code = ?", [.text(code)]) != .null { return code }
        guard let id = try eventID(namingOther: code) else { return nil }
        return try cachedScalar("SELECT code FROM quake WHERE id = ?", [.integer(id)]).string
    }

    /// The other codes ComCat lists for the event `code` (`quake_alias`, from its `ids`): the
    /// codes it was published under before it was merged into this one.
    public func aliases(ofEvent code: String) throws(SQLiteError) -> [String] {
        guard try hasTable("quake_alias") else { return [] }
        let statement = try cachedStatement("SELECT alias FROM quake_alias WHERE code = ? ORDER BY alias")
        defer { statement.reset() }
        try statement.bind(code, at: 1)
        var aliases: [String] = []
        while try statement.step() { aliases.append(statement.text(at: 0)) }
        return aliases
    }

    /// The `quake.id` of the event a code that is no event's row names: the event of its report,
    /// or the event of the code ComCat merged it into.
    private func eventID(namingOther code: String) throws(SQLiteError) -> Int64? {
        if let id = try eventID(ofReport: code) { return id }
        guard try hasTable("quake_alias") else { return nil }
        let alias = try cachedStatement("SELECT code FROM quake_alias WHERE alias = ?")
        defer { alias.reset() }
        try alias.bind(code, at: 1)
        guard try alias.step() else { return nil }
        let event = alias.text(at: 0)
        alias.reset()
        if let id = try cachedScalar("SELECT id FROM quake WHERE code = ?", [.text(event)]).int64 { return id }
        return try eventID(ofReport: event)
    }

    /// The `quake.id` of the event whose other report has the code `code` (schema 14's `report`).
    private func eventID(ofReport code: String) throws(SQLiteError) -> Int64? {
        guard try hasReportTable() else { return nil }
        return try cachedScalar("SELECT event FROM report WHERE code = ?", [.text(code)]).int64
    }

    /// Whether the store has schema 14's `report` table (a read-only store may be older).
    func hasReportTable() throws(SQLiteError) -> Bool { try hasTable("report") }

    /// Whether the store has the table `name` (a read-only store may be older than it).
    func hasTable(_ name: String) throws(SQLiteError) -> Bool {
        try cachedScalar("SELECT count(*) FROM sqlite_master WHERE type = 'table' AND name = ?", [.text(name)]).int64 == 1
    }

    /// The reports of the event whose code is `code` (any of its reports' codes): the preferred
    /// one (the event's row) first, the others in `preference`'s order. One report for an event
    /// of one agency, none when there is no such event.
    public func reports(ofEvent code: String, preference: AgencyPreference = .standard) throws(SQLiteError) -> [QuakeRecord] {
        guard let event = try quake(code: code) else { return [] }
        guard try hasReportTable() else { return [event.record] }
        let statement = try cachedStatement("SELECT \(WriteTransaction.reportColumns) FROM report WHERE event = ?")
        try statement.bind(event.id, at: 1)
        var others: [QuakeRecord] = []
        while try statement.step() {
            let (record, _) = WriteTransaction.report(statement)
            if record.code != event.record.code { others.append(record) }
        }
        return [event.record] + others.sorted { preference.precedes($0, $1) }
    }

    /// How many agencies reported the event `code` (any of its reports' codes): its row's
    /// `agencies`, the count the list's rows read (`QuakeRow.agencies`); 1 for a store before
    /// issue 53, 0 when there is no such event. One indexed read, no report built (`watch` asks
    /// it for every line it prints).
    public func agencies(ofEvent code: String) throws(SQLiteError) -> Int {
        guard try hasReportTable() else { return try quake(code: code) == nil ? 0 : 1 }
        let statement = try cachedStatement("""
            SELECT agencies FROM quake WHERE code = ?1
            UNION ALL SELECT agencies FROM quake WHERE id = (SELECT event FROM report WHERE code = ?1)
            LIMIT 1
            """)
        defer { statement.reset() }
        try statement.bind(code, at: 1)
        return try statement.step() ? Int(statement.int64(at: 0)) : 0
    }
}
