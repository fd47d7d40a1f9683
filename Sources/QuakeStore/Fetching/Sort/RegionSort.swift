import QuakeModel
import Foundation

/// The `region` order: A→Z by default, sections by region, newest first inside a region in
/// both directions.
struct RegionSort: SegmentedSort {
    let ascending: Bool

    func sectionIdentifier(timeZone: TimeZone) -> SectionIdentifier { .region }

    // Newest first inside a region in both directions, ties by id as the index quake_region
    // (regionKey, time, rowid) holds them, so a region's rows are read from the index in order.
    // With `id ASC` SQLite sorted the whole region in a temp B-tree for every window: 420 ms
    // for a 92,000-row region at 1M quakes.
    var orderBy: String { ascending ? "regionKey ASC, time DESC, id DESC" : "regionKey DESC, time DESC, id DESC" }

    func inSection(_ keys: RowKeys, km: Double?, before: Bool) -> (String, [SQLiteValue]) {
        // A region is newest first in both directions.
        Self.timeKeyset(keys, keysetOperator(descending: true, before: before))
    }

    func precedesInSection(_ a: RowKeys, _ b: RowKeys) -> Bool { (a.time, a.id) > (b.time, b.id) }

    func sectionPrecedes(_ a: SectionKey, _ b: SectionKey) -> Bool {
        guard case .region(let x) = a, case .region(let y) = b else { preconditionFailure("sections of different kinds compared") }
        // SQLite's BINARY collation compares UTF-8 bytes.
        return ascending ? x.utf8.lexicographicallyPrecedes(y.utf8) : y.utf8.lexicographicallyPrecedes(x.utf8)
    }


    // MARK: Sections

    func sectionKey(of keys: RowKeys, km: Double?, days: DayCalendar) -> SectionKey { .region(keys.regionKey) }

    func section(of keys: RowKeys, days: DayCalendar, regionTitle: String) -> SectionLabel {
        (.region(keys.regionKey), keys.regionKey, regionTitle)
    }

    func newSection(_ db: Connection, _ key: SectionKey, days: DayCalendar) throws -> QuakeSection {
        guard case .region(let regionKey) = key else { preconditionFailure("a region key") }
        return QuakeSection(id: regionKey, title: try Self.title(db, of: regionKey), count: 0, key: key)
    }

    /// The title of a region's section: the region name of one of its quakes (its key without one).
    static func title(_ db: Connection, of regionKey: String) throws -> String {
        try db.scalar("SELECT region FROM quake WHERE regionKey = ? LIMIT 1", [.text(regionKey)]).string ?? regionKey
    }


    // MARK: Counts

    var countingKind: Int? { nil }

    func countedSections(_ db: Connection, days: DayCalendar, source: SectionCounts.Source) throws -> [QuakeSection]? {
        let next = try SectionCounts.buckets(db, kind: 2, source: source, ascending: ascending)
        let title = try db.prepare("SELECT region FROM quake WHERE regionKey = ? LIMIT 1")
        var result: [QuakeSection] = []
        while let (value, count) = try next() {
            let regionKey = value.string ?? ""
            title.reset()
            try title.bind(regionKey, at: 1)
            let name = try title.step() ? title.text(at: 0) : regionKey
            result.append(QuakeSection(id: regionKey, title: name, count: count, key: .region(regionKey)))
        }
        return result
    }

    /// Jumps from region to region along `quake_region`: one seek and one range count each.
    func walkedSections(_ db: Connection, plan: QueryPlan, days: DayCalendar,
                        countRows: (SectionKey) throws -> Int) throws -> [QuakeSection] {
        let (predicate, predicateArgs) = plan.matchedWhere
        var result: [QuakeSection] = []
        let direction = ascending ? "ASC" : "DESC"
        var next = try db.scalar("SELECT regionKey FROM quake WHERE \(predicate) ORDER BY regionKey \(direction) LIMIT 1", predicateArgs).string
        while let regionKey = next {
            let key = SectionKey.region(regionKey)
            result.append(QuakeSection(id: regionKey, title: try Self.title(db, of: regionKey), count: try countRows(key), key: key))
            next = try db.scalar(
                "SELECT regionKey FROM quake WHERE regionKey \(ascending ? ">" : "<") ? AND \(predicate) ORDER BY regionKey \(direction) LIMIT 1",
                [.text(regionKey)] + predicateArgs).string
        }
        return result
    }


    // MARK: Provisional window

    /// A region is newest first in both directions (`orderBy`).
    private func region(_ db: Connection, _ key: String) throws -> ProvisionalSegment {
        ProvisionalSegment(filter: "regionKey = ?", arguments: [.text(key)], columns: ["time", "id"], descending: true,
                           regionKey: key, regionTitle: try Self.title(db, of: key))
    }

    /// The next region in reading order holding a matching row: one walk of `quake_region`.
    private func nextRegion(_ db: Connection, after key: String?, forward: Bool, reader: ProvisionalReader) throws -> ProvisionalSegment? {
        let (predicate, arguments) = reader.plan.rowWhere
        let up = ascending == forward
        let bound = key == nil ? "" : " AND regionKey \(up ? ">" : "<") ?"
        let statement = try db.cachedStatement(
            "SELECT regionKey FROM quake WHERE regionKey IS NOT NULL\(bound) AND \(predicate) ORDER BY regionKey \(up ? "ASC" : "DESC") LIMIT 1")
        try statement.bind((key.map { [SQLiteValue.text($0)] } ?? []) + arguments)
        return try statement.step() ? region(db, statement.text(at: 0)) : nil
    }

    func segment(_ db: Connection, of keys: RowKeys, reader: ProvisionalReader) throws -> ProvisionalSegment? {
        try region(db, keys.regionKey)
    }

    func firstSegment(_ db: Connection, forward: Bool, reader: ProvisionalReader) throws -> ProvisionalSegment? {
        try nextRegion(db, after: nil, forward: forward, reader: reader)
    }

    func segment(_ db: Connection, after segment: ProvisionalSegment, forward: Bool,
                 reader: ProvisionalReader) throws -> ProvisionalSegment? {
        try nextRegion(db, after: segment.regionKey, forward: forward, reader: reader)
    }

    /// A region is its whole segment.
    func keys(past key: SectionKey, descending: Bool) -> RowKeys { keys(pastSegment: descending) }
}
