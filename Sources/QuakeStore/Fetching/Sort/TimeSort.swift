import QuakeModel
import Foundation

/// The `time` order: newest first by default, sections by day (in the request's time zone).
struct TimeSort: SegmentedSort {
    let ascending: Bool

    func sectionIdentifier(timeZone: TimeZone) -> SectionIdentifier { .day(timeZone) }

    var orderBy: String { ascending ? "time ASC, id ASC" : "time DESC, id DESC" }

    func inSection(_ keys: RowKeys, km: Double?, before: Bool) -> (String, [SQLiteValue]) {
        Self.timeKeyset(keys, keysetOperator(descending: !ascending, before: before))
    }

    func precedesInSection(_ a: RowKeys, _ b: RowKeys) -> Bool { precedesByTime(a, b) }

    func sectionPrecedes(_ a: SectionKey, _ b: SectionKey) -> Bool {
        guard case .day(let x, _) = a, case .day(let y, _) = b else { preconditionFailure("sections of different kinds compared") }
        return ascending ? x < y : x > y
    }


    // MARK: Sections

    func sectionKey(of keys: RowKeys, km: Double?, days: DayCalendar) -> SectionKey { days.key(containing: keys.time) }

    func section(of keys: RowKeys, days: DayCalendar, regionTitle: String) -> SectionLabel { days.day(containing: keys.time) }

    func newSection(_ db: Connection, _ key: SectionKey, days: DayCalendar) throws -> QuakeSection {
        guard case .day(let start, _) = key else { preconditionFailure("a day key") }
        let day = days.day(containing: start)
        return QuakeSection(id: day.id, title: day.title, count: 0, key: key)
    }


    // MARK: Counts

    var countingKind: Int? { 0 }

    /// Whole days of 15-minute buckets; nil for a bucket of a time no calendar day holds, or a
    /// day whose bounds fall inside a bucket (a historical zone offset in seconds).
    func countedSections(_ db: Connection, days: DayCalendar, source: SectionCounts.Source) throws -> [QuakeSection]? {
        let next = try SectionCounts.buckets(db, kind: 0, source: source, ascending: ascending)
        var result: [QuakeSection] = []
        var current: (start: Int64, end: Int64)?
        while let (bucket, count) = try next() {
            // A bucket of a time no calendar day holds (ExtremeTimeTests): let the walk count it.
            let (start, overflow) = (bucket.int64 ?? 0).multipliedReportingOverflow(by: SectionCounts.timeBucket)
            guard !overflow else { return nil }
            if let day = current, day.start <= start, start < day.end {
                result[result.count - 1].count += count
                continue
            }
            let day = days.day(containing: start)
            // A day made of whole buckets; the open-ended sections before the year 1 and after
            // 9999 (and any zone whose day starts inside a bucket) are walked instead.
            guard case .day(let dayStart, let dayLast) = day.key,
                  dayStart % SectionCounts.timeBucket == 0, (dayLast &+ 1) % SectionCounts.timeBucket == 0 else { return nil }
            current = (dayStart, dayLast + 1)
            result.append(QuakeSection(id: day.id, title: day.title, count: count, key: day.key))
        }
        return result
    }

    /// Jumps from day to day: one indexed seek for the next day's first row, one indexed range count.
    func walkedSections(_ db: Connection, plan: QueryPlan, days: DayCalendar,
                        countRows: (SectionKey) throws -> Int) throws -> [QuakeSection] {
        let (predicate, predicateArgs) = plan.matchedWhere
        var result: [QuakeSection] = []
        let direction = ascending ? "ASC" : "DESC"
        var next = try db.scalar("SELECT time FROM quake WHERE \(predicate) ORDER BY time \(direction) LIMIT 1", predicateArgs).int64
        // Advances by construction: each day holds its `time` (DayCalendar), and the next seek
        // starts strictly past it; a day ending at Int64.max (or starting at min) is the last.
        while let time = next {
            let day = days.day(containing: time)
            result.append(QuakeSection(id: day.id, title: day.title, count: try countRows(day.key), key: day.key))
            guard case .day(let start, let last) = day.key, start <= time, time <= last else { break }
            if ascending {
                guard last < .max else { break }
                next = try db.scalar("SELECT time FROM quake WHERE time > ? AND \(predicate) ORDER BY time ASC LIMIT 1", [.integer(last)] + predicateArgs).int64
            } else {
                guard start > .min else { break }
                next = try db.scalar("SELECT time FROM quake WHERE time < ? AND \(predicate) ORDER BY time DESC LIMIT 1", [.integer(start)] + predicateArgs).int64
            }
        }
        return result
    }


    // MARK: Provisional window

    /// One segment, `(time, id)`.
    func segment(_ db: Connection, of keys: RowKeys, reader: ProvisionalReader) throws -> ProvisionalSegment? { timeSegment }

    func firstSegment(_ db: Connection, forward: Bool, reader: ProvisionalReader) throws -> ProvisionalSegment? { timeSegment }

    func segment(_ db: Connection, after segment: ProvisionalSegment, forward: Bool,
                 reader: ProvisionalReader) throws -> ProvisionalSegment? { nil }

    func keys(past key: SectionKey, descending: Bool) -> RowKeys {
        guard case .day(let start, let last) = key else { return keys(pastSegment: descending) }
        return descending ? .bound(time: start, id: .min) : .bound(time: last, id: .max)
    }
}
