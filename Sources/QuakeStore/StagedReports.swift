import QuakeModel
/// New reports an import held back from `quake` until association decides them
/// (`WriteTransaction+Staging.swift`): each with the row id its `quake` row would have taken.
///
/// Association reads a staged report wherever it would read its row (the walk, the stretches,
/// the segment's rows) for as long as that row would be in the table: until it is written
/// (`materialized`) or association's batched delete would have removed it (`deleted`).
struct StagedReports {
    /// At most this many reports are held (a few MB); past it an import writes rows as before.
    static let limit = 32_768

    private(set) var records: [QuakeRecord] = []
    /// The row id each would have taken, increasing.
    private(set) var ids: [Int64] = []
    /// Whether it stands in for its row still (not written, not deleted).
    private var present: [Bool] = []
    private var indexOfCode: [String: Int] = [:]
    /// The indexes in time order (then id), built on the first query after an append.
    private var byTime: [Int]?
    private(set) var presentCount = 0

    var isEmpty: Bool { presentCount == 0 }
    var count: Int { records.count }

    mutating func append(_ record: QuakeRecord, id: Int64) {
        if records.isEmpty {
            // Growing from nothing reallocated (and copied) a month's records 14 times; from
            // 4,096 still twice, 2% of another agency's month into 5M (perf). Reserved memory is
            // not resident until used.
            let capacity = Self.limit
            records.reserveCapacity(capacity)
            ids.reserveCapacity(capacity)
            present.reserveCapacity(capacity)
            indexOfCode.reserveCapacity(capacity)
        }
        indexOfCode[record.code] = records.count
        records.append(record)
        ids.append(id)
        present.append(true)
        presentCount += 1
        byTime = nil
    }

    /// The index of the report whose row id is `id` (the ids increase: a binary search).
    private func index(ofID id: Int64) -> Int? {
        var low = 0, high = ids.count
        while low < high {
            let mid = (low + high) / 2
            if ids[mid] < id { low = mid + 1 } else { high = mid }
        }
        return low < ids.count && ids[low] == id ? low : nil
    }

    /// The index of the present report `code`, if one is held.
    func index(ofCode code: String) -> Int? {
        indexOfCode[code].flatMap { present[$0] ? $0 : nil }
    }

    /// Whether `id` is a present report's row id.
    func isPresent(id: Int64) -> Bool {
        index(ofID: id).map { present[$0] } ?? false
    }

    /// The largest row id a present report stands for.
    var maxPresentID: Int64? {
        guard presentCount > 0 else { return nil }
        var i = ids.count - 1
        while !present[i] { i -= 1 }
        return ids[i]
    }

    /// Takes the report at `index` out (its row was written, or deleted).
    mutating func remove(at index: Int) {
        guard present[index] else { return }
        present[index] = false
        presentCount -= 1
        indexOfCode[records[index].code] = nil
    }

    /// Takes the report whose row id is `id` out, if it is present; false otherwise.
    @discardableResult
    mutating func remove(id: Int64) -> Bool {
        guard let index = index(ofID: id), present[index] else { return false }
        remove(at: index)
        return true
    }

    /// The present reports' indexes, in row id order.
    var presentIndexes: [Int] { records.indices.filter { present[$0] } }

    // MARK: - In time order

    private mutating func sorted() -> [Int] {
        if let byTime { return byTime }
        let order = records.indices.sorted { (records[$0].time, ids[$0]) < (records[$1].time, ids[$1]) }
        byTime = order
        return order
    }

    /// The position (in time order) of the first present report at or after `time`.
    mutating func firstPresent(atOrAfter time: Int64) -> Int? {
        let order = sorted()
        var low = 0, high = order.count
        while low < high {
            let mid = (low + high) / 2
            if records[order[mid]].time < time { low = mid + 1 } else { high = mid }
        }
        return nextPresent(from: low)
    }

    /// The position of the first present report after position `position`.
    mutating func nextPresent(after position: Int) -> Int? { nextPresent(from: position + 1) }

    private mutating func nextPresent(from position: Int) -> Int? {
        let order = sorted()
        var p = position
        while p < order.count, !present[order[p]] { p += 1 }
        return p < order.count ? p : nil
    }

    /// The index of the report at `position` in time order.
    mutating func index(atPosition position: Int) -> Int { sorted()[position] }

    /// The earliest present time in `low ..< high`.
    mutating func minTime(from low: Int64, before high: Int64) -> Int64? {
        guard let p = firstPresent(atOrAfter: low) else { return nil }
        let time = records[sorted()[p]].time
        return time < high ? time : nil
    }

    /// The latest present time in `low <.. high` (after `low`, through `high`).
    mutating func maxTime(after low: Int64, through high: Int64) -> Int64? {
        let order = sorted()
        var lo = 0, hi = order.count
        while lo < hi {
            let mid = (lo + hi) / 2
            if records[order[mid]].time <= high { lo = mid + 1 } else { hi = mid }
        }
        var p = lo - 1
        while p >= 0, !present[order[p]] { p -= 1 }
        guard p >= 0 else { return nil }
        let time = records[order[p]].time
        return time > low ? time : nil
    }

    /// The present reports' indexes whose times lie in `low ... high`.
    mutating func presentIndexes(from low: Int64, through high: Int64) -> [Int] {
        var result: [Int] = []
        var p = firstPresent(atOrAfter: low)
        while let position = p {
            let index = sorted()[position]
            guard records[index].time <= high else { break }
            result.append(index)
            p = nextPresent(after: position)
        }
        return result
    }
}
