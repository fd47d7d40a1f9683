import CQuakeSQL
import Foundation
import QuakeModel

/// The usable magnitudes of the rows a digest query takes, in time order (the lower id first on
/// equal times, as `ORDER BY time, id` reads them), in two bytes a row: what the moments per day
/// and hour and b-positive walk (`catalogueSummaryFromDigest`, issue 52).
///
/// A pass over the digest places each row as it reads it (in id order, in C:
/// `quaketui_time_order_place`) in the room of its run of 30 minutes (`TimeRunRoom`): the store's
/// count of the run, which holds every list's rows there (the pages a narrower list does not
/// reach are never written). A row is its magnitude's code (11 bits, `MagnitudeCodes`) and
/// whether its time equals the row's before it in the run; its milliseconds are not kept. Each
/// run remembers its shape instead: rows that come in time order (ids follow times) or in reverse
/// (a feed read newest first) need no milliseconds to be put in order, and a run lies in one hour
/// and, in most zones, one day. Only the runs in no order, and those a day starts inside (a zone
/// 45 minutes off UTC, local mean time), are marked (`markRuns`) and their rows' milliseconds read
/// in a second pass (`fillingMarks`). Four bytes a row (20 MB at 5,000,000 quakes) held the
/// in-process browser over 64 MB with the statistics view open; 22 bytes, reading the rows'
/// times and magnitudes whole, took 150 MB.
struct MagnitudesInTimeOrder {
    static let runMilliseconds = Int64(QUAKETUI_RUN_MS)
    static let codeBits = UInt32(QUAKETUI_CODE_BITS)
    static let codeMask: UInt16 = (1 << UInt16(codeBits)) - 1

    /// The first run: its 30 minutes counted from 1970, floored (`quaketui_time_order_place`).
    private let first: Int64
    /// Where each run's room starts, and one more: where the last one's ends.
    private let starts: [Int32]
    /// Where each run's rows end, as they are placed.
    private var ends: [Int32]
    /// Each run's shape and last milliseconds as rows are placed; a marked run's mark after `markRuns`.
    private var states: [UInt32]
    private var rows: [UInt16]
    /// The marked runs, where each one's milliseconds start in `milliseconds` (and one more: the
    /// end), and how many are filled.
    private(set) var markedRuns: [Int32] = []
    private var markStarts: [Int32] = [0], markEnds: [Int32] = []
    private var milliseconds: [UInt32] = []
    private(set) var codes = MagnitudeCodes()
    /// A row that could not be kept (more distinct magnitudes than codes, more rows in a run than
    /// the store holds there: none, the counts and the digest are of one snapshot): the caller
    /// reads the rows instead.
    private(set) var failed = false
    /// The rows the C placement leaves to `codes` (magnitudes not in hundredths), a chunk's at most.
    private var deferred: [Int32], deferredMagnitudes: [Double], deferredTenths: [Int16]

    /// Room for the rows `room` allows; nil when there are too many to address.
    init?(_ room: TimeRunRoom) {
        guard room.total < Int(Int32.max) else { return nil }
        first = room.first
        // Most runs are empty (a century spans 1.75 million): plain loops over the buffers.
        starts = room.counts.withUnsafeBufferPointer { counts in
            [Int32](unsafeUninitializedCapacity: counts.count + 1) { starts, count in
                var start: Int32 = 0
                for run in counts.indices {
                    starts[run] = start
                    start += counts[run]
                }
                starts[counts.count] = start
                count = counts.count + 1
            }
        }
        ends = Array(starts.dropLast())
        states = [UInt32](repeating: 0, count: ends.count)
        // Only the rows placed are read (`ends`): no zeros written first.
        rows = [UInt16](unsafeUninitializedCapacity: room.total) { buffer, count in
            HugePages.advise(UnsafeMutableRawBufferPointer(buffer))
            count = buffer.count
        }
        let rows = Int(QUAKETUI_DIGEST_CHUNK)
        (deferred, deferredMagnitudes, deferredTenths) = (Array(repeating: 0, count: rows), Array(repeating: 0, count: rows),
                                                          Array(repeating: 0, count: rows))
    }

    /// Runs `body` with the C view of the runs (`quaketui_time_order`).
    private mutating func withOrder(_ body: (inout quaketui_time_order) -> Void) {
        var order = quaketui_time_order()
        let first = first
        starts.withUnsafeBufferPointer { starts in ends.withUnsafeMutableBufferPointer { ends in
            rows.withUnsafeMutableBufferPointer { rows in states.withUnsafeMutableBufferPointer { states in
                deferred.withUnsafeMutableBufferPointer { deferred in
                    deferredMagnitudes.withUnsafeMutableBufferPointer { magnitudes in deferredTenths.withUnsafeMutableBufferPointer { tenths in
                        markStarts.withUnsafeBufferPointer { markStarts in markEnds.withUnsafeMutableBufferPointer { markEnds in
                            milliseconds.withUnsafeMutableBufferPointer { milliseconds in
                                order = quaketui_time_order(first: first, runCount: Int64(ends.count), starts: starts.baseAddress,
                                                            ends: ends.baseAddress, rows: rows.baseAddress, states: states.baseAddress,
                                                            deferred: deferred.baseAddress, deferredMagnitudes: magnitudes.baseAddress,
                                                            deferredTenths: tenths.baseAddress, deferredCount: 0, failed: 0,
                                                            markCount: Int64(markEnds.count), markStarts: markStarts.baseAddress,
                                                            markEnds: markEnds.baseAddress, milliseconds: milliseconds.baseAddress)
                                body(&order)
                            }
                        } }
                    } }
                }
            } }
        } }
        if order.failed != 0 { failed = true }
    }

    /// Lets `body` place up to a chunk's rows through the C view of the runs
    /// (`quaketui_time_order_place`), rows in id order; then codes those it left.
    mutating func placing(_ body: (UnsafeMutablePointer<quaketui_time_order>) -> Void) {
        guard !failed else { return }
        var deferredCount = 0
        withOrder { order in
            body(&order)
            deferredCount = Int(order.deferredCount)
        }
        precondition(deferredCount <= deferred.count, "more rows placed than a chunk holds")
        for k in 0 ..< deferredCount {
            guard let code = codes.code(ofOther: deferredMagnitudes[k], tenth: deferredTenths[k]) else { return failed = true }
            rows[Int(deferred[k])] |= UInt16(code)
        }
    }

    /// Places rows with usable magnitudes as the digest's pass places them, in id order, a
    /// chunk's worth at a time (tests).
    mutating func place(times: [Int64], magnitudes: [Double]) {
        let rows = Array(zip(times, magnitudes)), chunk = deferred.count
        for start in stride(from: 0, to: rows.count, by: chunk) {
            placing { order in
                for (time, magnitude) in rows[start ..< min(start + chunk, rows.count)] where Self.isUsable(magnitude) {
                    quaketui_time_order_place(order, time, magnitude, Int16(MagnitudeBin.tenth(of: magnitude)!))
                }
            }
        }
    }

    private static func isUsable(_ magnitude: Double) -> Bool {
        MagnitudeBin.tenth(of: magnitude).map(MagnitudeFrequency.usableTenths.contains) ?? false
    }

    /// Marks the runs whose rows need their milliseconds to be walked, after every row is placed:
    /// those in no order, and those a day (`dayRange`, as the moments count days) starts inside
    /// unless `timeZone`'s days all start on a run's edge over the runs placed. True when any is
    /// marked: `fillingMarks` must then give their milliseconds.
    mutating func markRuns(timeZone: TimeZone, dayRange: (Int64) -> (start: Int64, end: Int64)) -> Bool {
        guard !failed else { return false }
        let run = Self.runMilliseconds, shapeShift = UInt32(QUAKETUI_RUN_SHAPE_SHIFT)
        var marked: [Int32] = []
        func placed(_ index: Int) -> Bool { ends[index] > starts[index] }
        guard let firstPlaced = ends.indices.first(where: placed), let lastPlaced = ends.indices.last(where: placed)
        else { return false }
        let daysOnEdges = Self.daysStartOnRunEdges(timeZone, from: (first &+ Int64(firstPlaced)) &* run,
                                                   to: (first &+ Int64(lastPlaced) &+ 1) &* run)
        var day: (start: Int64, end: Int64)?
        for index in firstPlaced ... lastPlaced where placed(index) {
            let base = (first &+ Int64(index)) &* run
            var straddles = false
            if !daysOnEdges {
                if day == nil || base < day!.start || base >= day!.end { day = dayRange(base) }
                straddles = day!.start > base || day!.end < base &+ run
            }
            if straddles || states[index] >> shapeShift == QUAKETUI_RUN_MIXED { marked.append(Int32(index)) }

        }
        guard !marked.isEmpty else { return false }
        markedRuns = marked
        markStarts = [0]
        for (mark, index) in marked.enumerated() {
            markStarts.append(markStarts[mark] + ends[Int(index)] - starts[Int(index)])
            states[Int(index)] = QUAKETUI_RUN_MARKED | UInt32(mark)
        }
        markEnds = Array(markStarts.dropLast())
        milliseconds = [UInt32](repeating: 0, count: Int(markStarts.last!))
        return true
    }

    /// Whether every day of `timeZone` from `start` to `end` (ms) starts on an edge of a run of
    /// 30 minutes: its offsets from UTC, and the moments they change, are whole half hours.
    static func daysStartOnRunEdges(_ timeZone: TimeZone, from start: Int64, to end: Int64) -> Bool {
        func onEdge(_ date: Date) -> Bool { timeZone.secondsFromGMT(for: date) % 1800 == 0 }
        var date = Date(timeIntervalSince1970: Double(start) / 1000)
        guard onEdge(date) else { return false }
        while let next = timeZone.nextDaylightSavingTimeTransition(after: date), next.timeIntervalSince1970 * 1000 < Double(end) {
            guard onEdge(next), next.timeIntervalSince1970.truncatingRemainder(dividingBy: 1800) == 0 else { return false }
            date = next
        }
        return true
    }

    /// Lets `body` give the marked runs' milliseconds through the C view
    /// (`quaketui_time_order_fill`), rows in id order as they were placed.
    mutating func fillingMarks(_ body: (UnsafeMutablePointer<quaketui_time_order>) -> Void) {
        guard !failed else { return }
        withOrder { body(&$0) }
    }

    /// Puts each run in time order, the earlier-placed (lower id) row first on equal times: a
    /// falling run reversed, its ties put back; a marked run sorted by its milliseconds.
    mutating func sortRuns() {
        guard !failed else { return }
        // Every marked run's milliseconds given, no more: else the second pass took other rows.
        guard markEnds.indices.allSatisfy({ markEnds[$0] == markStarts[$0 + 1] }) else { return failed = true }
        let tie = UInt16(QUAKETUI_ROW_TIE), shapeShift = UInt32(QUAKETUI_RUN_SHAPE_SHIFT)
        let (starts, ends, states) = (starts, ends, states)
        starts.withUnsafeBufferPointer { starts in ends.withUnsafeBufferPointer { ends in rows.withUnsafeMutableBufferPointer { rows in
            for run in ends.indices where ends[run] - starts[run] > 1
                && states[run] & QUAKETUI_RUN_MARKED == 0 && states[run] >> shapeShift == QUAKETUI_RUN_FALLING {
                let (start, end) = (Int(starts[run]), Int(ends[run]))
                // Reversed, then each group of equal times (a row without the tie mark starts one
                // as placed, ends one reversed) back in placement order.
                rows[start ..< end].reverse()
                var group = start
                for i in start ..< end where rows[i] & tie == 0 {
                    if i > group { rows[group ... i].reverse() }
                    group = i + 1
                }
            }
        } } }
        // The marked runs: by milliseconds, then place in the run (unique keys: any sort is stable).
        var keys: [UInt64] = [], copy: [UInt16] = []
        for (mark, run) in markedRuns.enumerated() {
            let (start, end, from) = (Int(starts[Int(run)]), Int(ends[Int(run)]), Int(markStarts[mark]))
            keys.removeAll(keepingCapacity: true)
            for i in 0 ..< end - start { keys.append(UInt64(milliseconds[from + i]) << 32 | UInt64(i)) }
            keys.sort()
            copy.removeAll(keepingCapacity: true)
            copy.append(contentsOf: rows[start ..< end])
            for (offset, key) in keys.enumerated() {
                rows[start + offset] = copy[Int(key & 0xFFFF_FFFF)]
                milliseconds[from + offset] = UInt32(key >> 32)
            }
        }
    }

    /// Walks the rows in time order (after `sortRuns`) in C (`quaketui_time_order_walk`): each
    /// row's moment into `sums`, as `sums.add(time:magnitude:)` adds it, and its bin into
    /// `positive`, as `positive.add(tenth:)` does. C sums the rows within the open day and hour;
    /// `sums` opens the next ones.
    mutating func walk(_ sums: inout CatalogueStatistics.MomentSums, _ positive: inout BPositive) {
        let moments = (0 ..< codes.count).map { SeismicMoment.newtonMetres(magnitude: codes.magnitude(UInt32($0))) }
        let tenths = (0 ..< codes.count).map { codes.tenth(UInt32($0)) }
        var walk = quaketui_time_walk()
        let bins = positive.parts
        (walk.hasPrevious, walk.previous) = (bins.previous == nil ? 0 : 1, Int64(bins.previous ?? 0))
        (walk.count, walk.sum, walk.squares) = (Int64(bins.count), Int64(bins.sum), Int64(bins.squares))
        func carry(_ open: CatalogueStatistics.MomentSums.Open) {
            walk.hourly = open.hourly ? 1 : 0
            (walk.hasDay, walk.dayStart, walk.dayEnd) = (open.day == nil ? 0 : 1, open.day?.start ?? 0, open.day?.end ?? 0)
            (walk.hasHour, walk.hourStart) = (open.hour == nil ? 0 : 1, open.hour ?? 0)
            (walk.daySum, walk.hourSum) = (open.daySum, open.hourSum)
        }
        func opened(_ open: CatalogueStatistics.MomentSums.Open) -> CatalogueStatistics.MomentSums.Open {
            var open = open
            (open.daySum, open.hourSum) = (walk.daySum, walk.hourSum)
            return open
        }
        carry(sums.open)
        withOrder { order in
            while quaketui_time_order_walk(&order, moments, tenths, &walk) != 0 {
                sums.open = opened(sums.open)
                sums.add(time: walk.time, moment: moments[Int(walk.code)])
                carry(sums.open)
                walk.position += 1
            }
        }
        sums.open = opened(sums.open)
        positive.parts = (walk.hasPrevious != 0 ? Int(walk.previous) : nil, Int(walk.count), Int(walk.sum), Int(walk.squares))
    }

    /// Each row in order (after `sortRuns`): its time (a marked run's row's own; any other row's
    /// run's start, the day and hour it is counted in) and its magnitude's code (`codes`), the rows
    /// `walk` goes through, one by one (tests).
    func forEach(_ body: (_ time: Int64, _ code: Int) -> Void) {
        var mark = 0
        for run in ends.indices {
            let base = (first &+ Int64(run)) &* Self.runMilliseconds
            let marked = mark < markedRuns.count && markedRuns[mark] == Int32(run)
            for (i, row) in rows[Int(starts[run]) ..< Int(ends[run])].enumerated() {
                let offset = marked ? Int64(milliseconds[Int(markStarts[mark]) + i]) : 0
                body(base &+ offset, Int(row & Self.codeMask))
            }
            if marked { mark += 1 }
        }
    }
}

/// How many rows each 30-minute run of time (`MagnitudesInTimeOrder`) can hold: the store's quakes
/// in it, the sum of the two 15-minute buckets `quake_count` keeps (kind 0): every list's rows
/// are among them. Runs with no quake hold none.
struct TimeRunRoom {
    /// Runs spanned at most (about 239 years); a wider store's lists are read by their rows.
    static let maximumRuns = 1 << 22

    private(set) var first: Int64 = 0
    private(set) var counts: [Int32] = []
    private(set) var total = 0

    /// The runs of `buckets` (`quake_count`'s, in ascending order) with their counts; nil when
    /// they span too many runs or a run would hold more than an `Int32` counts.
    init?(buckets: [(bucket: Int64, count: Int64)]) {
        guard let firstBucket = buckets.first?.bucket, let lastBucket = buckets.last?.bucket else { return }
        first = firstBucket >> 1  // floored: two buckets a run, before 1970 too
        let last = lastBucket >> 1
        guard last >= first, last - first < Int64(Self.maximumRuns) else { return nil }
        counts = Array(repeating: 0, count: Int(last - first) + 1)
        for (bucket, count) in buckets {
            let run = bucket >> 1
            guard run >= first, run <= last, count >= 0, count < Int64(Int32.max) else { return nil }
            let (sum, overflow) = counts[Int(run - first)].addingReportingOverflow(Int32(count))
            guard !overflow else { return nil }
            counts[Int(run - first)] = sum
            total += Int(count)
        }
    }

    /// The store's: `quake_count`'s time buckets (kind 0); nil when they span too many runs.
    static func read(_ db: Connection) throws(SQLiteError) -> TimeRunRoom? {
        let statement = try db.prepare("SELECT bucket, count FROM quake_count WHERE kind = 0 AND typeof(bucket) = 'integer' ORDER BY bucket")
        var buckets: [(bucket: Int64, count: Int64)] = []
        while try statement.step() { buckets.append((statement.int64(at: 0), statement.int64(at: 1))) }
        return TimeRunRoom(buckets: buckets)
    }
}

/// Codes for the usable magnitudes (11 bits): every magnitude given in hundredths (all but a few
/// in real catalogues) has its own, coded in C as it is placed (`quaketui_time_order_place`), and
/// up to the rest of 2,048 others are numbered here as met.
struct MagnitudeCodes {
    static let capacity = 1 << Int(MagnitudesInTimeOrder.codeBits)
    /// −5.10 … 10.10 in hundredths: every usable bin (`MagnitudeFrequency.usableTenths`).
    static let lowestHundredth = Int(QUAKETUI_LOWEST_HUNDREDTH), hundredths = Int(QUAKETUI_HUNDREDTHS)

    private var others: [Double] = []
    private var otherCodes: [UInt64: UInt32] = [:]
    /// Each code's bin: the hundredths' from their value, the others' as the digest's pass gave it.
    private var tenths: [Int16] = (0 ..< capacity).map { code in
        guard code < hundredths, let tenth = MagnitudeBin.tenth(of: Double(code + lowestHundredth) / 100) else { return .min }
        return Int16(clamping: tenth)
    }

    /// The code of a magnitude C left uncoded (never NaN, never a hundredth: C codes those,
    /// `hundredth_code`), its bin `tenth`; the same magnitude gets the same code. nil when every
    /// code is taken.
    mutating func code(ofOther magnitude: Double, tenth: Int16) -> UInt32? {
        if let known = otherCodes[magnitude.bitPattern] { return known }
        guard Self.hundredths + others.count < Self.capacity else { return nil }
        let code = UInt32(Self.hundredths + others.count)
        others.append(magnitude)
        otherCodes[magnitude.bitPattern] = code
        tenths[Int(code)] = tenth
        return code
    }

    func magnitude(_ code: UInt32) -> Double {
        let code = Int(code)
        return code < Self.hundredths ? Double(code + Self.lowestHundredth) / 100 : others[code - Self.hundredths]
    }

    func tenth(_ code: UInt32) -> Int16 { tenths[Int(code)] }

    /// How many codes are given: the hundredths' and the others met.
    var count: Int { Self.hundredths + others.count }
}
