import Foundation

/// A lazy, live, sectioned result set over the store, like Core Data's
/// `NSFetchedResultsController`.
///
/// It holds the section index (identifier, title, count) and a small window of rows near what
/// is shown — never every row: rows are read on demand with indexed queries per section. It
/// merges the persistent history (any process's commits) into exact changes.
///
/// ```swift
/// let controller = try FetchedResultsController(container: container, request: request)
/// let visible = try controller.rows(in: 0..<40)
/// if let changes = try controller.merge() { … }
/// ```
///
/// Not thread-safe: use it from one thread (the UI's).
public final class FetchedResultsController {
    /// Merges listing more changes than this reload instead (cheaper than per-row ranks).
    public static let maxListedChanges = 2_000

    private let context: ViewContext
    public private(set) var request: SectionedFetchRequest
    public private(set) var sections: [QuakeSection] = []
    private var sectionStarts: [Int] = []
    private var sectionIndexByKey: [SectionKey: Int] = [:]
    public private(set) var count = 0
    /// The history token the results reflect.
    public private(set) var token: HistoryToken = .zero
    /// How many rows were read from SQLite so far (the laziness counter tests assert on).
    public private(set) var rowsMaterialized = 0
    /// Rows read around a requested range, so scrolling by a line does not query.
    public var windowMargin = 32
    /// Whether unfiltered section indexes come from the store's kept counts (tests turn it off
    /// to compare with the walk).
    var usesStoredCounts = true

    private var cache: (start: Int, rows: [QuakeRow])?
    private var days: DayCalendar
    private var sql: FetchSQL
    /// Keys of rows deleted by the last merge, so `anchor(code:)` can place a vanished selection.
    private var vanishedKeys: [String: RowKeys] = [:]
    /// Distances of those rows, for a distance sort (they have left `temp.fetch_distance`).
    private var vanishedKm: [Int64: Double] = [:]

    public init(container: PersistentContainer, request: SectionedFetchRequest = SectionedFetchRequest()) throws {
        context = try container.newViewContext(queryOnly: false)
        let request = request.normalized
        self.request = request
        days = DayCalendar(timeZone: request.timeZone)
        sql = FetchSQL(request: request, usesMatches: ResultMatches.isNeeded(for: request.predicate))
        do {
            try context.read { db in
                try ResultMatches.prepare(db)
                try DistanceTable.prepare(db)
            }
            try reload(rebuildDistances: true)
        } catch {
            context.close()
            throw error
        }
    }

    public func close() { context.close() }

    /// Applies a new predicate, sort and section identifier together and refetches the section index.
    ///
    /// A `distance` sort without a `distanceReference` is applied as a `time` sort (`request`
    /// then reads back as `time`).
    /// - Throws: what SQLite reported; the controller then keeps its previous request and sections
    ///   (the read's transaction rolls the match set back).
    public func configure(_ request: SectionedFetchRequest) throws {
        let request = request.normalized
        let matchesChanged = request.predicate.foldedSearch != self.request.predicate.foldedSearch
            || request.predicate.rowFilters != self.request.predicate.rowFilters
        let distancesChanged = request.sortDescriptor.order == .distance
            && (matchesChanged || self.request.sortDescriptor.order != .distance
                || request.distanceReference?.origin != self.request.distanceReference?.origin)
        let distancesUnneeded = request.sortDescriptor.order != .distance && self.request.sortDescriptor.order == .distance
        try keepingStateOnFailure {
            self.request = request
            if request.timeZone != days.calendar.timeZone { days = DayCalendar(timeZone: request.timeZone) }
            sql = FetchSQL(request: request, usesMatches: ResultMatches.isNeeded(for: request.predicate))
            if distancesUnneeded { try context.read { db in try DistanceTable.clear(db) } }
            try reload(rebuildMatches: matchesChanged, rebuildDistances: distancesChanged)
        }
    }

    /// Runs `body`; if it throws, puts the request, section index and token back as they were.
    /// The match set needs no care: it changes only inside a read, whose transaction rolls back.
    private func keepingStateOnFailure<T>(_ body: () throws -> T) throws -> T {
        let saved = (request: request, days: days, sql: sql, sections: sections, token: token, vanished: vanishedKeys)
        do {
            return try body()
        } catch {
            (request, days, sql, token, vanishedKeys) = (saved.request, saved.days, saved.sql, saved.token, saved.vanished)
            setSections(saved.sections)
            cache = nil
            throw error
        }
    }

    // MARK: Reading

    /// The rows at flat offsets `range` (clamped to `count`).
    ///
    /// Rows are values; the controller keeps only a window of them.
    public func rows(in range: Range<Int>) throws -> [QuakeRow] {
        let range = range.clamped(to: 0..<count)
        guard !range.isEmpty else { return [] }
        if let cache, cache.start <= range.lowerBound, range.upperBound <= cache.start + cache.rows.count {
            return Array(cache.rows[(range.lowerBound - cache.start)..<(range.upperBound - cache.start)])
        }
        let window = max(0, range.lowerBound - windowMargin)..<min(count, range.upperBound + windowMargin)
        let rows = try context.read { db in try fetchRows(db, window) }
        cache = (window.lowerBound, rows)
        // Counts and rows come from the same snapshot and agree; clamp anyway rather than trap.
        let lower = min(range.lowerBound - window.lowerBound, rows.count)
        return Array(rows[lower..<min(range.upperBound - window.lowerBound, rows.count)])
    }

    /// The section and row within it of a flat offset.
    public func indexPath(forOffset offset: Int) -> (section: Int, row: Int) {
        precondition(offset >= 0 && offset < count, "offset \(offset) out of 0..<\(count)")
        var low = 0, high = sectionStarts.count - 1
        while low < high {
            let mid = (low + high + 1) / 2
            if sectionStarts[mid] <= offset { low = mid } else { high = mid - 1 }
        }
        return (low, offset - sectionStarts[low])
    }

    /// The flat offset of the first row of a section.
    public func offset(ofSection section: Int) -> Int { sectionStarts[section] }

    /// The flat offset of the quake with `code`, or nil when it is not in the results.
    public func offset(ofCode code: String) throws -> Int? {
        try context.read { db in
            guard let keys = try rowKeys(db, code: code), try isMatch(db, keys) else { return nil }
            let offset = try rank(db, keys)
            try readWindow(db, around: keys, at: offset)
            return offset
        }
    }

    /// One quake with everything stored about it (for a detail view), read on this controller's connection.
    public func quake(code: String) throws -> StoredQuake? {
        try context.read { try $0.quake(code: code) }
    }

    /// Where a selection anchored on `code` lands: its own offset if it still matches, else its
    /// nearest neighbour (the row that now stands where it would sort), else nil for no rows.
    public func anchor(code: String) throws -> Int? {
        guard count > 0 else { return nil }
        return try context.read { db in
            guard let keys = try rowKeys(db, code: code) ?? vanishedKeys[code] else { return nil }
            let offset = try rank(db, keys, km: vanishedKm[keys.id])
            // The rows around it, read by keys (a distance sort's window comes by offset instead).
            if sql.request.sortDescriptor.order != .distance { try readWindow(db, around: keys, at: offset) }
            return min(offset, count - 1)
        }
    }

    /// Reads the rows around the place of a row with `keys` (flat offset `offset`) into the
    /// window, by walking the sort index from its keys both ways: the screen drawn next shows
    /// them, and reading them by OFFSET would step over every row above them in the section
    /// (tens of thousands in a big region or magnitude bucket at 1M quakes).
    private func readWindow(_ db: Connection, around keys: RowKeys, at offset: Int) throws {
        let key = sectionKey(of: keys)
        guard let index = sectionIndexByKey[key] else { return }
        let start = sectionStarts[index], end = start + sections[index].count
        guard start <= offset, offset < end else { return }
        let (range, rangeArgs) = key.rangeSQL
        let (predicate, predicateArgs) = sql.predicate
        func read(_ bound: (String, [SQLiteValue]), _ order: String, _ limit: Int) throws -> [QuakeRow] {
            let statement = try db.prepare(
                "SELECT \(QuakeRow.columns) FROM \(sql.from) WHERE \(range) AND \(predicate) AND \(bound.0) ORDER BY \(order) LIMIT ?")
            try statement.bind(rangeArgs + predicateArgs + bound.1 + [.integer(Int64(limit))])
            var rows: [QuakeRow] = []
            while try statement.step() { rows.append(QuakeRow(statement)) }
            rowsMaterialized += rows.count
            return rows
        }
        let above = min(windowMargin, offset - start), below = min(2 * windowMargin, end - offset)
        let before = try read(sql.beforeInSection(keys), sql.reversedOrderBy, above)
        let after = try read(sql.atOrAfterInSection(keys), sql.orderBy, below)
        // Counts and rows come from the same snapshot; if they ever disagree, keep no window.
        guard before.count == above, after.count == below else { return }
        cache = (offset - above, before.reversed() + after)
    }

    // MARK: Merging

    /// Merges what was committed since `token`, by any process, and reports it; nil when nothing
    /// changed the results.
    ///
    /// - Throws: what SQLite reported; the controller then keeps its sections and token, so the
    ///   next merge retries the same changes.
    public func merge() throws -> ResultChanges? {
        let changes = try keepingStateOnFailure { try context.read { db -> ResultChanges? in
            // Past the limit the changes are not even decoded: the reload reads what it needs.
            let fetch = try db.history(after: token, listingAtMost: Self.maxListedChanges)
            guard case .transactions(let transactions, let latest) = fetch else {
                try reloadLocked(db, rebuildMatches: true, rebuildDistances: true)
                return ResultChanges(reloaded: true)
            }
            guard !transactions.isEmpty else {
                token = latest
                return nil
            }
            // Without a row's previous keys its old position is unknown: reload rather than guess.
            let unplaceable = transactions.contains { $0.changes.contains { $0.kind != .insert && $0.old == nil } }
            if !transactions.allSatisfy(\.isListed) || unplaceable {
                try reloadLocked(db, rebuildMatches: true, rebuildDistances: true)
                return ResultChanges(reloaded: true, codes: Set(transactions.flatMap { $0.changes.map(\.code) }))
            }
            // The keys each code had before the first of these transactions touched it.
            var before: [String: RowKeys?] = [:]
            for change in transactions.flatMap(\.changes) where before[change.code] == nil {
                before[change.code] = change.kind == .insert ? .some(nil) : .some(change.old)
            }
            let result = sql.request.sortDescriptor.order == .distance
                ? try applyDistanceChanges(db, before: before.mapValues { $0 })
                : try applyChanges(db, before: before.mapValues { $0 })
            token = latest
            return result
        } }
        if changes != nil { cache = nil }
        return changes
    }

    // MARK: Fetching

    private func reload(rebuildMatches: Bool = true, rebuildDistances: Bool = false) throws {
        try context.read { db in try reloadLocked(db, rebuildMatches: rebuildMatches, rebuildDistances: rebuildDistances) }
        cache = nil
    }

    private func reloadLocked(_ db: Connection, rebuildMatches: Bool, rebuildDistances: Bool = false) throws {
        token = try db.currentHistoryToken()
        if rebuildMatches { try matches.rebuild(db) }
        if rebuildDistances || rebuildMatches, let origin = distanceOrigin {
            try DistanceTable.rebuild(db, origin: origin, usesMatches: sql.usesMatches)
        }
        setSections(try buildSections(db))
        cache = nil
    }

    private func setSections(_ new: [QuakeSection]) {
        sections = new
        sectionStarts = []
        sectionIndexByKey = [:]
        var total = 0
        for (index, section) in new.enumerated() {
            sectionStarts.append(total)
            sectionIndexByKey[section.key] = index
            total += section.count
        }
        count = total
    }

    private func buildSections(_ db: Connection) throws -> [QuakeSection] {
        guard usesStoredCounts else { return try walkSections(db) }
        // Unfiltered: the counts the store keeps answer without walking the rows.
        if request.predicate.minimumMagnitude == nil, !sql.usesMatches,
           let stored = try SectionCounts.sections(db, request: request, days: days) {
            return stored
        }
        // Filtered to a minority of the rows: group the matching rows (read through the match set
        // or the magnitude index) rather than walk every row of the sort index probing each.
        if let (clause, arguments) = try sparseFilter(db),
           let grouped = try SectionCounts.sections(db, request: request, days: days, source: .matching(clause, arguments)) {
            return grouped
        }
        return try walkSections(db)
    }

    /// The `WHERE` clause that reads only the matching rows, when they are few enough (under
    /// half the table) for that to beat the walk; nil otherwise. At 1M quakes, back to back on
    /// one store, grouping beat the walk's per-day queries for "al" (35 % of the rows) and
    /// "alaska" (19 %); an eighth as the limit made both slower (BENCHMARKS.md, issue 11 run).
    private func sparseFilter(_ db: Connection) throws -> (String, [SQLiteValue])? {
        var terms: [String] = [], arguments: [SQLiteValue] = []
        if sql.usesMatches {
            let matched = try db.scalar("SELECT count(*) FROM temp.fetch_matches").int64 ?? 0
            let rows = try db.scalar("SELECT sum(count) FROM quake_count WHERE kind = 1").int64 ?? 0  // ≤ 8 rows
            guard matched * 2 < rows else { return nil }
            terms.append("id IN temp.fetch_matches")
        }
        if let minimum = request.predicate.minimumMagnitude {
            terms.append("magnitude >= ?")
            arguments.append(.real(minimum))
        }
        return terms.isEmpty ? nil : (terms.joined(separator: " AND "), arguments)
    }

    /// The section index as the walk finds it, on this controller's connection (for tests that
    /// compare it with the counted one).
    func walkedSections() throws -> [QuakeSection] { try context.read { try walkSections($0) } }

    /// The section index by walking the sort index: a seek per section and a count over its range.
    private func walkSections(_ db: Connection) throws -> [QuakeSection] {
        let (predicate, predicateArgs) = sql.predicate
        let ascending = request.sortDescriptor.ascending
        var result: [QuakeSection] = []
        switch request.sortDescriptor.order {
        case .time:
            // Jump from day to day: one indexed seek for the next day's first row, one indexed range count.
            let direction = ascending ? "ASC" : "DESC"
            var next = try db.scalar("SELECT time FROM quake WHERE \(predicate) ORDER BY time \(direction) LIMIT 1", predicateArgs).int64
            // Advances by construction: each day holds its `time` (DayCalendar), and the next seek
            // starts strictly past it; a day ending at Int64.max (or starting at min) is the last.
            while let time = next {
                let day = days.day(containing: time)
                result.append(QuakeSection(id: day.id, title: day.title, count: try countRows(db, in: day.key), key: day.key))
                guard case .day(let start, let last) = day.key, start <= time, time <= last else { break }
                if ascending {
                    guard last < .max else { break }
                    next = try db.scalar("SELECT time FROM quake WHERE time > ? AND \(predicate) ORDER BY time ASC LIMIT 1", [.integer(last)] + predicateArgs).int64
                } else {
                    guard start > .min else { break }
                    next = try db.scalar("SELECT time FROM quake WHERE time < ? AND \(predicate) ORDER BY time DESC LIMIT 1", [.integer(start)] + predicateArgs).int64
                }
            }
        case .magnitude:
            let buckets: [Int?] = [nil, 0, 1, 2, 3, 4, 5, 6]
            for bucket in ascending ? buckets : buckets.reversed() {
                let key = SectionKey.magnitude(bucket)
                let count = try countRows(db, in: key)
                guard count > 0 else { continue }
                let title = SectionKey.magnitudeTitle(bucket)
                result.append(QuakeSection(id: title, title: title, count: count, key: key))
            }
        case .region:
            let direction = ascending ? "ASC" : "DESC"
            var next = try db.scalar("SELECT regionKey FROM quake WHERE \(predicate) ORDER BY regionKey \(direction) LIMIT 1", predicateArgs).string
            while let regionKey = next {
                result.append(try regionSection(db, regionKey))
                next = try db.scalar(
                    "SELECT regionKey FROM quake WHERE regionKey \(ascending ? ">" : "<") ? AND \(predicate) ORDER BY regionKey \(direction) LIMIT 1",
                    [.text(regionKey)] + predicateArgs).string
            }
        case .distance:
            // Five bands, counted on the distance table alone (DistanceTable.bandCounts).
            let bands = request.distanceReference?.bands ?? []
            let ordered = ascending ? bands : bands.reversed()
            let counts = try DistanceTable.bandCounts(db, bands: ordered.map(\.key.distanceBounds), minimumMagnitude: request.predicate.minimumMagnitude)
            for (band, count) in zip(ordered, counts) where count > 0 {
                result.append(QuakeSection(id: band.id, title: band.title, count: count, key: band.key))
            }
        }
        return result
    }

    private func regionSection(_ db: Connection, _ regionKey: String) throws -> QuakeSection {
        let key = SectionKey.region(regionKey)
        let title = try db.scalar("SELECT region FROM quake WHERE regionKey = ? LIMIT 1", [.text(regionKey)]).string ?? regionKey
        return QuakeSection(id: regionKey, title: title, count: try countRows(db, in: key), key: key)
    }

    private func countRows(_ db: Connection, in key: SectionKey, before keys: RowKeys? = nil, km: Double? = nil) throws -> Int {
        let (range, rangeArgs) = key.rangeSQL
        let distance = sql.request.sortDescriptor.order == .distance  // counted on the distance table alone
        let (predicate, predicateArgs) = distance ? DistanceTable.predicate(minimumMagnitude: request.predicate.minimumMagnitude) : sql.predicate
        var where_ = "\(range) AND \(predicate)"
        var args = rangeArgs + predicateArgs
        if let keys {
            let (before, beforeArgs) = sql.beforeInSection(keys, km: km)
            where_ += " AND \(before)"
            args += beforeArgs
        }
        return Int(try db.scalar("SELECT count(*) FROM \(distance ? "temp.fetch_distance" : sql.from) WHERE \(where_)", args).int64 ?? 0)
    }

    private func fetchRows(_ db: Connection, _ window: Range<Int>) throws -> [QuakeRow] {
        var rows: [QuakeRow] = []
        rows.reserveCapacity(window.count)
        var section = indexPath(forOffset: window.lowerBound).section
        let distance = sql.request.sortDescriptor.order == .distance  // stepped on the distance index alone
        let (predicate, predicateArgs) = distance ? DistanceTable.predicate(minimumMagnitude: request.predicate.minimumMagnitude) : sql.predicate
        while section < sections.count, sectionStarts[section] < window.upperBound {
            let start = sectionStarts[section]
            let local = max(window.lowerBound, start) - start
            let end = min(window.upperBound, start + sections[section].count) - start
            let (range, rangeArgs) = sections[section].key.rangeSQL
            // OFFSET steps over every row it skips: count from the nearer end of the section.
            let fromEnd = sections[section].count - end < local
            let statement = try db.cachedStatement(distance
                ? DistanceTable.windowSQL(range: range, predicate: predicate, orderBy: fromEnd ? sql.reversedOrderBy : sql.orderBy)
                : """
                SELECT \(QuakeRow.columns) FROM \(sql.from) WHERE \(range) AND \(predicate)
                ORDER BY \(fromEnd ? sql.reversedOrderBy : sql.orderBy) LIMIT ? OFFSET ?
                """)
            let skip = fromEnd ? sections[section].count - end : local
            try statement.bind(rangeArgs + predicateArgs + [.integer(Int64(end - local)), .integer(Int64(skip))])
            var part: [QuakeRow] = []
            while try statement.step() {
                part.append(QuakeRow(statement))
                rowsMaterialized += 1
            }
            rows += fromEnd ? part.reversed() : part
            section += 1
        }
        return rows
    }

    /// The match set of the current request.
    private var matches: ResultMatches { ResultMatches(predicate: request.predicate) }

    /// Whether a row with `keys` is in the results: its keys pass the predicate and, with a
    /// search or filters, its id is in the match set (as it stands: call before updating it
    /// for the old version of a row, after for the new one).
    private func isMatch(_ db: Connection, _ keys: RowKeys) throws -> Bool {
        guard request.predicate.matches(keys) else { return false }
        return try !sql.usesMatches || matches.contains(db, id: keys.id)
    }

    private func rowKeys(_ db: Connection, code: String) throws -> RowKeys? {
        let statement = try db.cachedStatement("SELECT \(RowKeys.columns) FROM quake WHERE code = ?")
        try statement.bind(code, at: 1)
        return try statement.step() ? RowKeys(statement) : nil
    }

    /// The section of a row with `keys` (and, for a distance sort, distance `km`).
    func sectionKey(of keys: RowKeys, km: Double? = nil) -> SectionKey {
        switch request.sortDescriptor.order {
        case .time: days.key(containing: keys.time)
        case .magnitude: .magnitude(SectionKey.bucket(of: keys.magnitude))
        case .region: .region(keys.regionKey)
        case .distance:
            request.distanceReference?.bands.first { band in
                guard case .distance(let lower, let upper) = band.key else { return false }
                return lower <= (km ?? 0) && (km ?? 0) < upper
            }?.key ?? .distance(lowerKm: 0, upperKm: .infinity)
        }
    }

    /// Where a row with `keys` sorts among the current results: the number of matching rows
    /// before it. A distance sort reads the row's distance from the table (or takes `km`, for
    /// a row that has left it).
    private func rank(_ db: Connection, _ keys: RowKeys, km: Double? = nil) throws -> Int {
        var km = km
        if sql.request.sortDescriptor.order == .distance, let stored = try DistanceTable.km(db, id: keys.id) { km = stored }
        let key = sectionKey(of: keys, km: km)
        let start = sectionIndexByKey[key].map { sectionStarts[$0] }
            ?? sections.filter { sql.sectionPrecedes($0.key, key) }.reduce(0) { $0 + $1.count }
        return start + (try countRows(db, in: key, before: keys, km: km))
    }

    /// The origin of a distance sort (nil for the other orders).
    private var distanceOrigin: GeoPoint? {
        request.sortDescriptor.order == .distance ? request.distanceReference?.origin : nil
    }

    /// A merge under a distance sort: the match set and the distance table follow each changed
    /// row, then the bands are recounted and the merge reports a reload. A row's old distance
    /// is not in history (its old coordinates are not), so old positions cannot be listed; the
    /// reload costs five range counts, not a refetch of the table.
    private func applyDistanceChanges(_ db: Connection, before: [String: RowKeys?]) throws -> ResultChanges {
        let origin = distanceOrigin ?? GeoPoint(latitude: 0, longitude: 0)
        vanishedKeys = [:]
        vanishedKm = [:]
        for (code, old) in before {
            let new = try rowKeys(db, code: code)
            if sql.usesMatches { try matches.update(db, oldID: old?.id, new: new) }
            if let old, new == nil {
                vanishedKeys[code] = old
                vanishedKm[old.id] = try DistanceTable.km(db, id: old.id)
            }
            let isCandidate = try new.map { try !sql.usesMatches || matches.contains(db, id: $0.id) } ?? false
            try DistanceTable.update(db, origin: origin, oldID: old?.id, newID: new?.id, isCandidate: isCandidate)
        }
        setSections(try walkSections(db))
        return ResultChanges(reloaded: true, codes: Set(before.keys))
    }

    // MARK: Merging changes

    /// Turns the changed codes (with the keys they had before) into section and row changes,
    /// and moves the controller to the new state. Runs inside the merge's read transaction.
    private func applyChanges(_ db: Connection, before: [String: RowKeys?]) throws -> ResultChanges {
        var after: [String: RowKeys] = [:]
        for code in before.keys { if let keys = try rowKeys(db, code: code) { after[code] = keys } }
        // Membership before the change decides where a row was: read it before updating the set.
        var oldMatched: [String: RowKeys] = [:]
        for (code, old) in before { if let old, try isMatch(db, old) { oldMatched[code] = old } }
        if sql.usesMatches {
            for (code, old) in before { try matches.update(db, oldID: old?.id, new: after[code]) }
        }
        var newMatched: [String: RowKeys] = [:]
        for (code, new) in after { if try isMatch(db, new) { newMatched[code] = new } }
        vanishedKeys = before.compactMapValues { $0 }.filter { after[$0.key] == nil }

        // Old positions (before the sections change).
        let oldSections = sections, oldStarts = sectionStarts, oldIndexByKey = sectionIndexByKey
        var oldRank: [String: Int] = [:]
        for (code, keys) in oldMatched {
            let key = sectionKey(of: keys)
            let within = try countRows(db, in: key, before: keys)
                - newMatched.values.filter { sectionKey(of: $0) == key && sql.precedesInSection($0, keys) }.count
                + oldMatched.values.filter { sectionKey(of: $0) == key && sql.precedesInSection($0, keys) }.count
            oldRank[code] = oldStarts[oldIndexByKey[key]!] + within
        }

        // New sections: adjust counts, drop emptied ones, insert new ones in order.
        var counts = Dictionary(uniqueKeysWithValues: oldSections.map { ($0.key, $0.count) })
        for keys in oldMatched.values { counts[sectionKey(of: keys), default: 0] -= 1 }
        for keys in newMatched.values { counts[sectionKey(of: keys), default: 0] += 1 }
        var newSections: [QuakeSection] = []
        for var section in oldSections {
            section.count = counts[section.key] ?? 0
            if section.count > 0 { newSections.append(section) }
        }
        let added = Set(newMatched.values.map { sectionKey(of: $0) }).subtracting(oldIndexByKey.keys)
        for key in added {
            let section: QuakeSection
            switch key {
            case .day(let start, _):
                let day = days.day(containing: start)
                section = QuakeSection(id: day.id, title: day.title, count: counts[key] ?? 0, key: key)
            case .magnitude(let bucket):
                let title = SectionKey.magnitudeTitle(bucket)
                section = QuakeSection(id: title, title: title, count: counts[key] ?? 0, key: key)
            case .region(let regionKey):
                var region = try regionSection(db, regionKey)
                region.count = counts[key] ?? 0
                section = region
            case .distance:
                preconditionFailure("a distance sort merges through applyDistanceChanges")
            }
            let index = newSections.firstIndex { sql.sectionPrecedes(key, $0.key) } ?? newSections.endIndex
            newSections.insert(section, at: index)
        }
        setSections(newSections)

        var newRank: [String: Int] = [:]
        for (code, keys) in newMatched { newRank[code] = try rank(db, keys) }

        var changes = ResultChanges(codes: Set(before.keys))
        changes.sectionsDeleted = oldSections.indices.filter { sectionIndexByKey[oldSections[$0].key] == nil }
        changes.sectionsInserted = sections.indices.filter { oldIndexByKey[sections[$0].key] == nil }
        for code in before.keys {
            switch (oldRank[code], newRank[code]) {
            case (let from?, nil): changes.deleted.append(from)
            case (nil, let to?): changes.inserted.append(to)
            case (let from?, let to?):
                // A move when its place among the unchanged rows differs; otherwise an update.
                let changedBeforeOld = oldRank.values.filter { $0 < from }.count
                let changedBeforeNew = newRank.values.filter { $0 < to }.count
                if from - changedBeforeOld == to - changedBeforeNew {
                    changes.updated.append(.init(from: from, to: to))
                } else {
                    changes.moved.append(.init(from: from, to: to))
                }
            case (nil, nil): break
            }
        }
        changes.deleted.sort()
        changes.inserted.sort()
        changes.moved.sort { $0.to < $1.to }
        changes.updated.sort { $0.to < $1.to }
        return changes
    }
}
