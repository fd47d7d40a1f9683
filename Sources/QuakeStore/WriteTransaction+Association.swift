import QuakeModel
import Foundation
/// Association in the store (issue 53): which agencies' reports are one event.
///
/// The `quake` table stays one row per event, carrying its preferred solution's columns, so the
/// list, its indexes, counts and digest read events as they read quakes. An event of one report
/// is only its `quake` row (what a single agency's import writes, as before); an event of two or
/// more keeps its other reports in `report`, and `quake.agencies` says how many. The preferred
/// report is the row itself, never copied (the copy was half the writes of another agency's
/// catalogue joining one's own). Every write notes the times where reports came, changed or went
/// (`touched`); before commit, in the same transaction, ``associate()`` takes each stretch of
/// reports around them (a *segment*: reports whose times are chained by gaps of at most
/// `Association.window`; no report associates across a longer gap) and, where two agencies or
/// an event of several meet,
/// computes the segment's events with `Association.events(of:preference:)` from its reports alone
/// and rewrites the rows that differ. So the store is a function of its reports, whatever the
/// order they came in, and finding the events near a report is a seek of the time indexes
/// (`quake_time`, `report_time`), never a scan. Notes belong to the event: they stay with its
/// row, and an event merged into another brings them along.
extension WriteTransaction {
    /// Times (ms) where reports came, changed or went, for ``associate()``; past
    /// `listedLimit` they are kept as one span (a bulk import: one pass over its stretch).
    struct TouchedTimes {
        static let listedLimit = 100_000
        private(set) var times: [Int64] = []
        private(set) var span: (low: Int64, high: Int64)?
        private var spanned = false

        var isEmpty: Bool { span == nil }

        mutating func add(_ time: Int64) {
            span = span.map { (min($0.low, time), max($0.high, time)) } ?? (time, time)
            guard !spanned else { return }
            times.append(time)
            if times.count > Self.listedLimit {
                spanned = true
                times = []
            }
        }

        /// Every time from `low` through `high` (a migration's whole store).
        mutating func addSpan(_ low: Int64, _ high: Int64) {
            add(low)
            add(high)
            spanned = true
            times = []
        }

        /// The stretches to look at: the sorted times, or the one span.
        var starts: [(Int64, Int64)] {
            if spanned, let span { return [span] }
            return times.sorted().map { ($0, $0) }
        }
    }

    // MARK: - Reports of shared events, row by row

    /// Upserts a record whose code is a report of an event of several agencies kept in `report`,
    /// as `upsert` does a row: replaced when newer, or as new but different. Nil: not such a
    /// report; then `sharedRowTime` is the time of the event row the code names when that row is
    /// an event of several (its preferred report, which `upsert` updates in place, and where
    /// association must look again if it changes).
    func upsertReportOfSharedEvent(_ record: QuakeRecord, sharedRowTime: inout Int64?) throws(SQLiteError) -> UpsertOutcome? {
        let find = try connection.cachedStatement("""
            SELECT time, 1 FROM report WHERE code = ?1
            UNION ALL SELECT time, 0 FROM quake WHERE code = ?1 AND agencies > 1 LIMIT 1
            """)
        try find.bind(record.code, at: 1)
        guard try find.step() else { return nil }
        let oldTime = find.int64(at: 0)
        let inReportTable = find.int64(at: 1) == 1
        find.reset()
        guard inReportTable else {
            sharedRowTime = oldTime
            return nil
        }
        let update = try connection.cachedStatement(Self.reportUpdateSQL)
        try bindReport(record, to: update, first: 1)
        try update.step()
        guard connection.changes > 0 else {
            changes.unchanged += 1
            return .unchanged
        }
        changes.count(.update)
        touched.add(oldTime)
        touched.add(record.time)
        return .updated
    }

    /// Deletes the report `code` of an event of several agencies; false when no such report.
    /// A report in `report` goes from there; the preferred one, the event's row, gives the row
    /// to another of the event's reports (the row keeps its id and notes), which association
    /// then replaces with the event's preferred one.
    func deleteReportOfSharedEvent(code: String) throws(SQLiteError) -> Bool {
        let statement = try connection.prepare(
            "DELETE FROM report WHERE code = ? RETURNING time, (SELECT time FROM quake WHERE id = report.event)")
        try statement.bind(code, at: 1)
        if try statement.step() {
            touched.add(statement.int64(at: 0))
            if !statement.isNull(at: 1) { touched.add(statement.int64(at: 1)) }
            while try statement.step() {}
            changes.count(.delete)
            return true
        }
        let row = try connection.prepare("SELECT \(StoredQuake.columns), agencies FROM quake WHERE code = ? AND agencies > 1")
        try row.bind(code, at: 1)
        guard try row.step() else { return false }
        let old = EventRow(quake: StoredQuake(row), agencies: Int(row.int64(at: 21)))
        row.reset()
        let other = try connection.prepare("SELECT \(Self.reportColumns) FROM report WHERE event = ? LIMIT 1")
        try other.bind(old.quake.id, at: 1)
        guard try other.step() else {
            // An event of several with no other report left (not a state association leaves):
            // the row is the report, and goes as a lone event's does.
            return false
        }
        let (heir, _) = Self.report(other)
        other.reset()
        try connection.execute("DELETE FROM report WHERE code = ?", [.text(heir.code)])
        let writeRow = try held(.writeRow)
        writeRow.reset()
        try bindEventRow(heir, agencies: old.agencies - 1, notes: old.quake.notes, to: writeRow)
        try writeRow.bind(old.quake.id, at: 25)
        try writeRow.step()
        changes.count(.delete)
        changes.list(.delete, code: code, old: listedKeys(old), agencies: old.agencies)
        changes.list(.insert, code: heir.code)
        touched.add(old.quake.record.time)
        touched.add(heir.time)
        return true
    }

    /// Deletes the reports of deleted events of several agencies; the events near them may
    /// associate anew (one of these events may have kept a report from joining another).
    func deleteReports(ofEvents events: [(id: Int64, time: Int64)]) throws(SQLiteError) {
        guard !events.isEmpty else { return }
        let statement = try connection.cachedStatement("DELETE FROM report WHERE event = ?")
        for event in events {
            statement.reset()
            try statement.bind(event.id, at: 1)
            try statement.step()
            touched.add(event.time)
        }
    }

    /// The code of the event whose report is `code` (itself for the event's own code), nil when
    /// `code` is no report of a shared event.
    func eventCode(ofReport code: String) throws(SQLiteError) -> String? {
        let statement = try connection.cachedStatement(
            "SELECT quake.code FROM report JOIN quake ON quake.id = report.event WHERE report.code = ?")
        try statement.bind(code, at: 1)
        return try statement.step() ? statement.text(at: 0) : nil
    }

    // MARK: - Association before commit

    /// Associates the reports around every touched time (and every shared event's, when the
    /// agency preference changed since the last write). Called once, before the commit.
    func associate() throws(SQLiteError) {
        guard associates else { return }
        let stored = try connection.scalar("SELECT value FROM meta WHERE key = 'agencyPreference'")
        let current = agencyPreference.text
        let storedText: String? = if case .text(let t) = stored { t } else { nil }
        if storedText ?? AgencyPreference.standard.text != current {
            // Another preference picks other solutions: every shared event is looked at again.
            let times = try connection.prepare("SELECT time FROM report")
            while try times.step() { touched.add(times.int64(at: 0)) }
            try connection.execute("INSERT OR REPLACE INTO meta (key, value) VALUES ('agencyPreference', ?)", [.text(current)])
        }
        guard !touched.isEmpty else { return try materializeAllStaged() }
        // No event of several and at most one agency (an import into an empty store or into
        // its own agency's): every segment is its own events already, and the walk over the
        // touched stretch would read it all to find that (0.9 s of 1,000,000 quakes).
        if try !reportsMayExist(), staged.isEmpty, let storedAgencies, storedAgencies.count <= 1 {
            touched = TouchedTimes()
            return
        }
        // It writes reports and rewrites event rows all over a large store: the import's page
        // cache keeps what it dirties from spilling to the WAL before the commit (with SQLite's
        // 2 MB, 7% of another agency's month into 1M was such writes, perf).
        let rows = Int(try connection.scalar("SELECT coalesce(max(id), 0) FROM quake").int64 ?? 0)
        let cacheKiB = Self.importCacheKiB(rowsBefore: rows)
        if cacheKiB != Self.defaultCacheKiB { try connection.execute("PRAGMA cache_size = -\(cacheKiB)") }
        defer { if cacheKiB != Self.defaultCacheKiB { try? connection.execute("PRAGMA cache_size = -\(Self.defaultCacheKiB)") } }
        let ranges = touched.starts
        touched = TouchedTimes()
        var gone = Set<Int64>()
        var next = 0
        while next < ranges.count {
            let (segments, reached) = try segmentsToAssociate(ranges, from: next)
            next = reached
            // The walk's segments are closed (no report within a window beyond either end) for
            // as long as no segment's writes reach beyond the stretch it was given.
            var closed = true
            for segment in segments {
                let reachedBeyond = try associateSegment(from: segment.low, through: segment.high, closed: closed, gone: &gone)
                if reachedBeyond { closed = false }
            }
            if gone.count >= Self.goneBatch { try delete(gone); gone = [] }
        }
        try delete(gone)
        // Staged reports no segment took (a neighbour went since) are rows of their own.
        try materializeAllStaged()
    }

    /// Deletes the rows no event keeps, `goneBatch` to a statement. A delete fires the search
    /// index's trigger, and FTS5 writes what it holds to disk at every later statement's
    /// savepoint (https://www.sqlite.org/fts5.html): a delete per row, each followed by that
    /// flush, was 60% of a month of another agency's reports into 1M. A statement of a
    /// thousand keeps its statement journal (the pages it changes) small.
    private func delete(_ gone: Set<Int64>) throws(SQLiteError) {
        // A staged report's row was never written: it is only no longer there.
        let ids = gone.filter { !staged.remove(id: $0) }.sorted()
        if !ids.isEmpty { try willDeleteRows() }
        var start = 0
        while start < ids.count {
            let chunk = ids[start..<min(ids.count, start + Self.goneBatch)]
            start += chunk.count
            let delete = try connection.cachedStatement("DELETE FROM quake WHERE id IN (SELECT value FROM json_each(?1))")
            try delete.bind("[" + chunk.map(String.init).joined(separator: ",") + "]", at: 1)
            try delete.step()
        }
    }

    /// How many rows association deletes in one statement.
    static let goneBatch = 1_000

    /// How far ahead (ms) the next touched time must lie for the walk to seek it through the
    /// time indexes rather than step through the rows before it: 8 windows.
    static let reseekGap: Int64 = 8 * Association.window

    /// One walk of the time indexes, in time order, from the stretch of `ranges[first]` on and
    /// through the ranges after it while they lie near (within ``reseekGap``): the segments it
    /// passes where association may join anything (two agencies, or an event of several) and
    /// that hold a report within a window of a touched time, and the index of the first range it
    /// did not reach. A segment of one agency's lone reports is its own events already. Reads
    /// each row's time, agency count and agency, nothing else, one statement for the walk.
    private func segmentsToAssociate(_ ranges: [(Int64, Int64)], from first: Int)
        throws(SQLiteError) -> (segments: [(low: Int64, high: Int64)], next: Int) {
        let window = Association.window
        let walk = try held(.walk)
        defer { walk.reset() }
        let from = try extendDown(ranges[first].0)
        try walk.bind(from, at: 1)
        var found: [(low: Int64, high: Int64)] = []
        // `i`: the first range whose reach (its end plus a window) the walk has not passed.
        var i = first
        var start: Int64 = 0, last: Int64 = 0, agency = "", shared = false, near = false, open = false
        // The staged reports' rows in time order beside the statement's (`position`: the next one's).
        var position = staged.isEmpty ? nil : staged.firstPresent(atOrAfter: from)
        var stepped = try walk.step()
        while stepped || position != nil {
            var stagedIndex: Int?
            if let p = position, !stepped || staged.records[staged.index(atPosition: p)].time < walk.int64(at: 0) {
                stagedIndex = staged.index(atPosition: p)
            }
            let time = stagedIndex.map { staged.records[$0].time } ?? walk.int64(at: 0)
            let agencies = stagedIndex == nil ? walk.int64(at: 1) : 1
            func rowAgency() -> String { stagedIndex.map { Association.agency(of: staged.records[$0]) } ?? walk.text(at: 2) }
            defer {
                if stagedIndex != nil { position = staged.nextPresent(after: position!) }
            }
            if open, (Association.gap(time, last) ?? .max) > window {
                if shared && near { found.append((start, last)) }
                open = false
                while i < ranges.count, Association.widened(ranges[i].1, by: window) < time { i += 1 }
                // Every range passed, or the next one far ahead: this walk is done.
                if i == ranges.count || Association.widened(ranges[i].0, by: -Self.reseekGap) > time { return (found, i) }
            }
            if !open {
                (start, agency, shared, near, open) = (time, rowAgency(), false, false, true)
            }
            if !shared, agencies != 1 || rowAgency() != agency { shared = true }
            while i < ranges.count, Association.widened(ranges[i].1, by: window) < time { i += 1 }
            if !near, i < ranges.count, Association.widened(ranges[i].0, by: -window) <= time { near = true }
            last = time
            if stagedIndex == nil { stepped = try walk.step() }
        }
        if open, shared, near { found.append((start, last)) }
        return (found, ranges.count)
    }

    /// The earliest time reached from `time` down through reports at most a window apart.
    private func extendDown(_ time: Int64) throws(SQLiteError) -> Int64 {
        let statement = try held(.extendDown)
        // Reset once read: a statement left stepping keeps its cursors open, and every write to
        // the same tables then saves their positions (the segment's writes come next).
        defer { statement.reset() }
        var low = time
        while true {
            statement.reset()
            try statement.bind(Association.widened(low, by: -Association.window), at: 1)
            try statement.bind(low, at: 2)
            let below = Association.widened(low, by: -Association.window)
            let stagedTime = staged.isEmpty ? nil : staged.minTime(from: below, before: low)
            guard try statement.step(), !statement.isNull(at: 0) else {
                guard let stagedTime else { return low }
                low = stagedTime
                continue
            }
            low = min(statement.int64(at: 0), stagedTime ?? .max)
        }
    }

    /// The latest time reached from `time` up through reports at most a window apart.
    private func extendUp(_ time: Int64) throws(SQLiteError) -> Int64 {
        let statement = try held(.extendUp)
        defer { statement.reset() }  // (as in `extendDown`)
        var high = time
        while true {
            statement.reset()
            try statement.bind(high, at: 1)
            try statement.bind(Association.widened(high, by: Association.window), at: 2)
            let above = Association.widened(high, by: Association.window)
            let stagedTime = staged.isEmpty ? nil : staged.maxTime(after: high, through: above)
            guard try statement.step(), !statement.isNull(at: 0) else {
                guard let stagedTime else { return high }
                high = stagedTime
                continue
            }
            high = max(statement.int64(at: 0), stagedTime ?? .min)
        }
    }

    /// One event row as association found it. A class: the segment's dictionaries and sorts
    /// hand rows around, and copying a struct of some twenty strings retained each of them
    /// (152,000 copies in another agency's month into 5M, 5% of its instructions, callgrind).
    private final class EventRow {
        let quake: StoredQuake
        let agencies: Int
        init(quake: StoredQuake, agencies: Int) {
            self.quake = quake
            self.agencies = agencies
        }
        var keys: RowKeys {
            RowKeys(id: quake.id, time: quake.record.time, magnitude: quake.record.magnitude,
                    regionKey: TextFolding.fold(quake.record.region), placeKey: TextFolding.fold(quake.record.place),
                    depth: quake.record.depth)
        }
    }

    /// A row's keys for the history, only while changes are listed (folding its place and region
    /// for a bulk entry that keeps none was 4% of another agency's month into 1M).
    private func listedKeys(_ row: EventRow) -> RowKeys? { changes.isTrackingCodes ? row.keys : nil }

    /// Computes the events of the segment around `[low, high]` from its reports and rewrites
    /// the rows and reports that differ; true when the segment reached beyond `[low, high]`.
    /// Rows no event keeps any more are set aside (their codes renamed) and added to `gone`, for
    /// ``associate()`` to delete together; a later segment reads past them.
    /// - Parameter closed: no report lies within a window beyond either end (the walk found the
    ///   stretch so): the first look for one is skipped (2 of a segment's 6 reads).
    private func associateSegment(from givenLow: Int64, through givenHigh: Int64, closed: Bool,
                                  gone: inout Set<Int64>) throws(SQLiteError) -> Bool {
        // The segment's rows, closed over: an event's reports and a report's event, wherever
        // a revision left them, and what lies within a window of any of them.
        var low = givenLow, high = givenHigh
        var extends = !closed
        var rows: [Int64: EventRow] = [:]
        var reports: [String: (record: QuakeRecord, event: Int64)] = [:]
        // Prepared once per connection (a month of another agency's reports is ~10k segments).
        let rowsByTime = try held(.rowsByTime)
        let rowByID = try held(.rowByID)
        let reportsByTime = try held(.reportsByTime)
        let reportsByEvent = try held(.reportsByEvent)
        defer { rowsByTime.reset(); rowByID.reset(); reportsByTime.reset(); reportsByEvent.reset() }
        func readRow(_ s: Statement) {
            guard !gone.contains(s.int64(at: 0)) else { return }
            let row = EventRow(quake: StoredQuake(s), agencies: Int(s.int64(at: 21)))
            rows[row.quake.id] = row
        }
        func readReport(_ s: Statement) {
            let (record, event) = Self.report(s)
            reports[record.code] = (record, event)
        }
        while true {
            if extends {
                low = try extendDown(low)
                high = try extendUp(high)
            }
            extends = true
            rowsByTime.reset()
            try rowsByTime.bind([.integer(low), .integer(high)])
            while try rowsByTime.step() { readRow(rowsByTime) }
            // A staged report stands for the row it would have had (its id, one agency, no notes).
            if !staged.isEmpty {
                for index in staged.presentIndexes(from: low, through: high) where !gone.contains(staged.ids[index]) {
                    let quake = StoredQuake(id: staged.ids[index], record: staged.records[index], notes: nil)
                    rows[quake.id] = EventRow(quake: quake, agencies: 1)
                }
            }
            reportsByTime.reset()
            try reportsByTime.bind([.integer(low), .integer(high)])
            while try reportsByTime.step() { readReport(reportsByTime) }
            for event in Set(reports.values.map(\.event)) where rows[event] == nil {
                rowByID.reset()
                try rowByID.bind(event, at: 1)
                if try rowByID.step() { readRow(rowByID) }
                rowByID.reset()  // (as in `extendDown`)
            }
            for row in rows.values where row.agencies > 1 {
                reportsByEvent.reset()
                try reportsByEvent.bind(row.quake.id, at: 1)
                while try reportsByEvent.step() { readReport(reportsByEvent) }
            }
            let times = rows.values.map(\.quake.record.time) + reports.values.map(\.record.time)
            let (newLow, newHigh) = (times.min() ?? low, times.max() ?? high)
            if newLow >= low && newHigh <= high { break }
            (low, high) = (min(low, newLow), max(high, newHigh))
        }

        // The reports: those of shared events from `report`, a lone event's from its row.
        var records: [QuakeRecord] = [], oldEvent: [Int64] = [], inReportTable: [Bool] = []
        for (_, report) in reports.sorted(by: { $0.key < $1.key }) {
            records.append(report.record); oldEvent.append(report.event); inReportTable.append(true)
        }
        // A row is a report too: a lone event's, or a shared event's preferred one.
        for row in rows.values.sorted(by: { $0.quake.id < $1.quake.id }) where reports[row.quake.record.code] == nil {
            records.append(row.quake.record); oldEvent.append(row.quake.id); inReportTable.append(false)
        }
        let events = Association.events(of: records, preference: agencyPreference)

        // Each event keeps a row: the one that showed its preferred report, else the one most of
        // its reports came from (then the oldest).
        var candidates: [(event: Int, row: Int64, score: Int)] = []
        for (e, event) in events.enumerated() {
            var counts: [Int64: Int] = [:]
            for m in event.members where rows[oldEvent[m]] != nil { counts[oldEvent[m], default: 0] += 1 }
            for (row, count) in counts {
                let showsPreferred = rows[row]!.quake.record.code == records[event.preferred].code
                candidates.append((e, row, (showsPreferred ? 1_000_000 : 0) + count))
            }
        }
        candidates.sort { ($0.score, -$0.row, -$0.event) > ($1.score, -$1.row, -$1.event) }
        var rowOfEvent: [Int: Int64] = [:], eventOfRow: [Int64: Int] = [:]
        for candidate in candidates where rowOfEvent[candidate.event] == nil && eventOfRow[candidate.row] == nil {
            rowOfEvent[candidate.event] = candidate.row
            eventOfRow[candidate.row] = candidate.event
        }
        let eventOfCode = Dictionary(uniqueKeysWithValues: events.enumerated().flatMap { e, event in
            event.members.map { (records[$0].code, e) }
        })
        // A staged report's row an event keeps is written now, with its id, as the import would
        // have written it; the rows staged reports would have had and no event keeps never are.
        for id in rowOfEvent.values.sorted() where staged.isPresent(id: id) {
            try materializeStaged(code: rows[id]!.quake.record.code)
        }

        // Rows no event keeps go; their notes go with the report they showed (else any of theirs).
        var extraNotes: [Int: [String]] = [:]
        let setCode = try held(.setCode)
        // The codes the segment's event rows will show: only a going row's code among them must be
        // freed before the rows are written.
        let shownCodes = Set(events.map { records[$0.preferred].code })
        for row in rows.values.sorted(by: { $0.quake.id < $1.quake.id }) where eventOfRow[row.quake.id] == nil {
            if let notes = row.quake.notes, !notes.isEmpty {
                let heir = eventOfCode[row.quake.record.code]
                    ?? records.indices.first { oldEvent[$0] == row.quake.id }.flatMap { eventOfCode[records[$0].code] }
                if let heir { extraNotes[heir, default: []].append(notes) }
            }
            // The row goes at the end; its code is freed at once if another row is to show it
            // (codes are unique). Most going rows are a second agency's reports joining another
            // agency's event, whose codes no row shows: renaming them was 5% of such an import.
            if shownCodes.contains(row.quake.record.code) {
                setCode.reset()
                try setCode.bind([.text("\u{1}gone \(row.quake.id)"), .integer(row.quake.id)])
                try setCode.step()
            }
            gone.insert(row.quake.id)
            changes.list(.delete, code: row.quake.record.code, old: listedKeys(row), agencies: row.agencies)
        }
        // Codes that move to another row are set aside first (codes are unique).
        for (e, row) in rowOfEvent where rows[row]!.quake.record.code != records[events[e].preferred].code {
            setCode.reset()
            try setCode.bind([.text("\u{1}moving \(row)"), .integer(row)])
            try setCode.step()
        }
        // The reports this transaction inserted (rows from its first inserted id on) that joined
        // a quake: every one in an event with a report stored before, and all but the preferred
        // one in an event of new reports alone (that one is the new quake).
        let firstNewID = firstInsertedID ?? .max
        for event in events {
            let inserted = event.members.filter { !inReportTable[$0] && oldEvent[$0] >= firstNewID }
            for m in inserted {
                if inserted.count == event.members.count && m == event.preferred {
                    joinedCodes.remove(records[m].code)
                } else {
                    joinedCodes.insert(records[m].code)
                }
            }
        }
        let writeRow = try held(.writeRow)
        let setCount = try held(.setCount)
        let insertRow = try held(.insertRow)
        for (e, event) in events.enumerated() {
            let preferred = records[event.preferred]
            let agencies = event.members.count
            if let id = rowOfEvent[e] {
                let old = rows[id]!
                var notes = old.quake.notes
                if let extra = extraNotes[e] { notes = ([notes].compactMap { $0 }.filter { !$0.isEmpty } + extra).joined(separator: "\n") }
                guard old.quake.record != preferred || old.agencies != agencies || old.quake.notes != notes else { continue }
                if old.quake.record == preferred {
                    // The same solution, another count or notes: no indexed column changes.
                    setCount.reset()
                    try setCount.bind([.integer(Int64(agencies)), notes.map { .text($0) } ?? .null, .integer(id)])
                    try setCount.step()
                    changes.list(.update, code: preferred.code, old: listedKeys(old), agencies: old.agencies)
                    continue
                }
                writeRow.reset()
                try bindEventRow(preferred, agencies: agencies, notes: notes, to: writeRow)
                try writeRow.bind(id, at: 25)
                try writeRow.step()
                if old.quake.record.code == preferred.code {
                    changes.list(.update, code: preferred.code, old: listedKeys(old), agencies: old.agencies)
                } else {
                    changes.list(.delete, code: old.quake.record.code, old: listedKeys(old), agencies: old.agencies)
                    changes.list(.insert, code: preferred.code)
                }
            } else {
                let notes = extraNotes[e]?.joined(separator: "\n")
                insertRow.reset()
                try bindEventRow(preferred, agencies: agencies, notes: notes, to: insertRow)
                try insertRow.bind(try newRowID(), at: 25)
                try insertRow.step()
                rowOfEvent[e] = connection.lastInsertRowID
                pendingRowIndexing?.noteInserted(id: connection.lastInsertRowID)
                changes.list(.insert, code: preferred.code)
            }
        }

        // `report` holds the reports of shared events but their preferred ones (their rows).
        let putReport = try held(.putReport)
        knownReportsMayExist = true
        let dropReport = try held(.dropReport)
        for (e, event) in events.enumerated() {
            let id = rowOfEvent[e]!
            for m in event.members {
                if event.members.count > 1 && m != event.preferred {
                    guard !(inReportTable[m] && oldEvent[m] == id) else { continue }
                    putReport.reset()
                    try bindReport(records[m], to: putReport, first: 1)
                    try putReport.bind(id, at: 20)
                    try putReport.bind(Association.agency(of: records[m]), at: 21)
                    try putReport.step()
                } else if inReportTable[m] {
                    dropReport.reset()
                    try dropReport.bind(records[m].code, at: 1)
                    try dropReport.step()
                }
            }
        }
        return low < givenLow || high > givenHigh
    }

    // MARK: - SQL

    /// The walk of `segmentsToAssociate`: every row's and report's time, agency count and agency.
    static let walkSQL = """
        SELECT time, agencies, coalesce(source, 'usgs') FROM quake WHERE time >= ?1
        UNION ALL SELECT time, 0, agency FROM report WHERE time >= ?1
        ORDER BY 1
        """
    /// The earliest time in ?1 ..< ?2 (`extendDown`).
    static let extendDownSQL = """
        SELECT min(t) FROM (SELECT min(time) AS t FROM quake WHERE time >= ?1 AND time < ?2
                            UNION ALL SELECT min(time) FROM report WHERE time >= ?1 AND time < ?2)
        """
    /// The latest time in ?1 <.. ?2 (`extendUp`).
    static let extendUpSQL = """
        SELECT max(t) FROM (SELECT max(time) AS t FROM quake WHERE time > ?1 AND time <= ?2
                            UNION ALL SELECT max(time) FROM report WHERE time > ?1 AND time <= ?2)
        """

    static let rowsByTimeSQL = "SELECT \(StoredQuake.columns), agencies FROM quake WHERE time BETWEEN ? AND ?"
    static let rowByIDSQL = "SELECT \(StoredQuake.columns), agencies FROM quake WHERE id = ?"
    static let reportsByTimeSQL = "SELECT \(reportColumns) FROM report WHERE time BETWEEN ? AND ?"
    static let reportsByEventSQL = "SELECT \(reportColumns) FROM report WHERE event = ?"

    /// `report`'s columns as ``report(_:)`` reads them.
    static let reportColumns = "code, magnitude, magType, place, time, updated, latitude, longitude, depth, status, type, tsunami, felt, alert, sig, net, url, title, source, event"

    static func report(_ s: Statement) -> (QuakeRecord, Int64) {
        let record = QuakeRecord(
            code: s.text(at: 0), magnitude: s.optionalDouble(at: 1), magType: s.optionalText(at: 2),
            place: s.text(at: 3), time: s.int64(at: 4), updated: s.int64(at: 5),
            latitude: s.double(at: 6), longitude: s.double(at: 7), depth: s.optionalDouble(at: 8),
            status: s.optionalText(at: 9), type: s.optionalText(at: 10), tsunami: s.optionalInt(at: 11),
            felt: s.optionalInt(at: 12), alert: s.optionalText(at: 13), sig: s.optionalInt(at: 14),
            net: s.optionalText(at: 15), url: s.optionalText(at: 16), title: s.optionalText(at: 17),
            source: s.optionalText(at: 18))
        return (record, s.int64(at: 19))
    }

    /// Binds a report's 19 feed columns as ?first… in `reportColumns` order, without event, with
    /// the typed binds (an array of `SQLiteValue`s built for each report was 2% of another
    /// agency's month into 5M, perf).
    private func bindReport(_ r: QuakeRecord, to s: Statement, first: Int32) throws(SQLiteError) {
        try s.bind(r.code, at: first)
        try s.bind(r.magnitude, at: first + 1)
        try s.bind(r.magType, at: first + 2)
        try s.bind(r.place, at: first + 3)
        try s.bind(r.time, at: first + 4)
        try s.bind(r.updated, at: first + 5)
        try s.bind(r.latitude, at: first + 6)
        try s.bind(r.longitude, at: first + 7)
        try s.bind(r.depth, at: first + 8)
        try s.bind(r.status, at: first + 9)
        try s.bind(r.type, at: first + 10)
        try s.bind(r.tsunami, at: first + 11)
        try s.bind(r.felt, at: first + 12)
        try s.bind(r.alert, at: first + 13)
        try s.bind(r.sig, at: first + 14)
        try s.bind(r.net, at: first + 15)
        try s.bind(r.url, at: first + 16)
        try s.bind(r.title, at: first + 17)
        try s.bind(r.source, at: first + 18)
    }

    /// Binds an event row's columns ?1…?24 (`eventRowColumns` order).
    private func bindEventRow(_ r: QuakeRecord, agencies: Int, notes: String?, to s: Statement) throws(SQLiteError) {
        try bindReport(r, to: s, first: 1)
        let region = r.region
        try s.bind(region, at: 20)
        try s.bind(TextFolding.fold(region), at: 21)
        try s.bind(TextFolding.fold(r.place), at: 22)
        try s.bind(Int64(agencies), at: 23)
        try s.bind(notes, at: 24)
    }

    private static let eventRowColumns = "code, magnitude, magType, place, time, updated, latitude, longitude, depth, status, type, tsunami, felt, alert, sig, net, url, title, source, region, regionKey, placeKey, agencies, notes"

    /// ?25: the row id (NULL: SQLite's next).
    static let eventRowInsertSQL = "INSERT INTO quake (\(eventRowColumns), id) VALUES (\((1...25).map { "?\($0)" }.joined(separator: ", ")))"

    static let eventRowUpdateSQL = "UPDATE quake SET "
        + eventRowColumns.split(separator: ",").enumerated().map { "\($0.element.trimmingCharacters(in: .whitespaces)) = ?\($0.offset + 1)" }
            .joined(separator: ", ")
        + " WHERE id = ?25"

    /// A report of a shared event replaced as `upsertSQL` replaces a row: when newer, or as new but different.
    static let reportUpdateSQL = """
        UPDATE report SET magnitude = ?2, magType = ?3, place = ?4, time = ?5, updated = ?6, latitude = ?7,
            longitude = ?8, depth = ?9, status = ?10, type = ?11, tsunami = ?12, felt = ?13, alert = ?14, sig = ?15,
            net = ?16, url = ?17, title = ?18, source = ?19
        WHERE code = ?1 AND (?6 > updated OR (?6 = updated AND (
                magnitude IS NOT ?2 OR magType IS NOT ?3 OR place IS NOT ?4 OR time IS NOT ?5
             OR latitude IS NOT ?7 OR longitude IS NOT ?8 OR depth IS NOT ?9 OR status IS NOT ?10
             OR type IS NOT ?11 OR tsunami IS NOT ?12 OR felt IS NOT ?13 OR alert IS NOT ?14 OR sig IS NOT ?15
             OR net IS NOT ?16 OR url IS NOT ?17 OR title IS NOT ?18 OR source IS NOT ?19)))
        """

    /// A report put into its shared event (inserted, or moved there).
    static let reportPutSQL = """
        INSERT INTO report (\(reportColumns), agency) VALUES (\((1...21).map { "?\($0)" }.joined(separator: ", ")))
        ON CONFLICT(code) DO UPDATE SET event = excluded.event
        """
}
