import CQuakeSQL
import Foundation
import QuakeModel

/// The usable magnitudes of the rows a digest query takes, in time order (the lower id first on
/// equal times, as `ORDER BY time, id` reads them), in four bytes a row: what the moments per day
/// and hour and b-positive walk (`catalogueSummaryFromDigest`, issue 52).
///
/// A pass over the digest places each row as it reads it (in id order, in C:
/// `quaketui_time_order_place`) in the room of its run of 30 minutes (`TimeRunRoom`): the store's
/// count of the run, which holds every list's rows there (the pages a narrower list does not
/// reach are never written). Each run is then put in order by its milliseconds, keeping id order
/// on equal ones (`sortRuns`). A row is its milliseconds within its run (21 bits) and its magnitude's code (11
/// bits, `MagnitudeCodes`). Reading the rows' times and magnitudes whole and sorting their
/// positions took 22 bytes a row: 150 MB at 5,000,000 quakes, with the statistics view open.
struct MagnitudesInTimeOrder {
    static let runMilliseconds = Int64(QUAKETUI_RUN_MS)
    static let codeBits = UInt32(QUAKETUI_CODE_BITS)
    static let codeMask: UInt32 = (1 << codeBits) - 1

    /// The first run: its 30 minutes counted from 1970, floored (`quaketui_time_order_place`).
    private let first: Int64
    /// Where each run's room starts, and one more: where the last one's ends.
    private let starts: [Int32]
    /// Where each run's rows end, as they are placed.
    private var ends: [Int32]
    private var rows: [UInt32]
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
        // Only the rows placed are read (`ends`): no zeros written first.
        rows = [UInt32](unsafeUninitializedCapacity: room.total) { buffer, count in
            HugePages.advise(UnsafeMutableRawBufferPointer(buffer))
            count = buffer.count
        }
        let rows = Int(QUAKETUI_DIGEST_CHUNK)
        (deferred, deferredMagnitudes, deferredTenths) = (Array(repeating: 0, count: rows), Array(repeating: 0, count: rows),
                                                          Array(repeating: 0, count: rows))
    }

    /// Lets `body` place up to a chunk's rows through the C view of the runs
    /// (`quaketui_time_order_place`), rows in id order; then codes those it left.
    mutating func placing(_ body: (UnsafeMutablePointer<quaketui_time_order>) -> Void) {
        guard !failed else { return }
        var order = quaketui_time_order()
        starts.withUnsafeBufferPointer { starts in ends.withUnsafeMutableBufferPointer { ends in
            rows.withUnsafeMutableBufferPointer { rows in deferred.withUnsafeMutableBufferPointer { deferred in
                deferredMagnitudes.withUnsafeMutableBufferPointer { magnitudes in deferredTenths.withUnsafeMutableBufferPointer { tenths in
                    order = quaketui_time_order(first: first, runCount: Int64(ends.count), starts: starts.baseAddress,
                                                ends: ends.baseAddress, rows: rows.baseAddress, deferred: deferred.baseAddress,
                                                deferredMagnitudes: magnitudes.baseAddress, deferredTenths: tenths.baseAddress,
                                                deferredCount: 0, failed: 0)
                    body(&order)
                } }
            } }
        } }
        precondition(order.deferredCount <= deferred.count, "more rows placed than a chunk holds")
        for k in 0 ..< Int(order.deferredCount) {
            guard let code = codes.code(ofOther: deferredMagnitudes[k], tenth: deferredTenths[k]) else { return failed = true }
            rows[Int(deferred[k])] |= code
        }
        failed = order.failed != 0
    }

    /// Places rows with usable magnitudes as the digest's pass places them, in id order, a
    /// chunk's worth at a time (tests).
    mutating func place(times: [Int64], magnitudes: [Double]) {
        let rows = Array(zip(times, magnitudes)), chunk = deferred.count
        for start in stride(from: 0, to: rows.count, by: chunk) {
            placing { order in
                for (time, magnitude) in rows[start ..< min(start + chunk, rows.count)] {
                    guard let tenth = MagnitudeBin.tenth(of: magnitude), MagnitudeFrequency.usableTenths.contains(tenth)
                    else { continue }
                    quaketui_time_order_place(order, time, magnitude, Int16(tenth))
                }
            }
        }
    }

    /// Puts each run in order of its milliseconds, the earlier-added (lower id) first on equal ones.
    mutating func sortRuns() {
        var keys: [UInt64] = []
        var copy: [UInt32] = []
        let (starts, ends) = (starts, ends)
        starts.withUnsafeBufferPointer { starts in ends.withUnsafeBufferPointer { ends in rows.withUnsafeMutableBufferPointer { rows in
            func milliseconds(_ i: Int) -> UInt32 { rows[i] >> Self.codeBits }
            for run in ends.indices where ends[run] - starts[run] > 1 {
                let (start, end) = (Int(starts[run]), Int(ends[run]))
                guard (start + 1 ..< end).contains(where: { milliseconds($0) < milliseconds($0 - 1) })
                else { continue }  // in order already: ids follow times in most stores
                if (start + 1 ..< end).allSatisfy({ milliseconds($0) <= milliseconds($0 - 1) }) {
                    // In reverse (a feed read newest first): reversed, equal times back in id order.
                    rows[start ..< end].reverse()
                    var group = start
                    for i in start + 1 ... end where i == end || milliseconds(i) != milliseconds(group) {
                        rows[group ..< i].reverse()
                        group = i
                    }
                } else if end - start <= 32 {
                    // Insertion sort, moving only past strictly later rows: stable.
                    for i in start + 1 ..< end {
                        let row = rows[i]
                        var j = i
                        while j > start, milliseconds(j - 1) > row >> Self.codeBits {
                            rows[j] = rows[j - 1]
                            j -= 1
                        }
                        rows[j] = row
                    }
                } else {
                    // Milliseconds, then the place in the run: unique keys, so any sort is stable.
                    keys.removeAll(keepingCapacity: true)
                    for i in start ..< end { keys.append(UInt64(milliseconds(i)) << 32 | UInt64(i - start)) }
                    keys.sort()
                    copy.removeAll(keepingCapacity: true)
                    copy.append(contentsOf: rows[start ..< end])
                    for (offset, key) in keys.enumerated() { rows[start + offset] = copy[Int(key & 0xFFFF_FFFF)] }
                }
            }
        } } }
    }

    /// Walks the rows in time order (after `sortRuns`) in C (`quaketui_time_order_walk`): each
    /// row's moment into `sums`, as `sums.add(time:magnitude:)` adds it, and its bin into
    /// `positive`, as `positive.add(tenth:)` does. C sums the rows within the open day and hour;
    /// `sums` opens the next ones.
    func walk(_ sums: inout CatalogueStatistics.MomentSums, _ positive: inout BPositive) {
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
        starts.withUnsafeBufferPointer { starts in ends.withUnsafeBufferPointer { ends in rows.withUnsafeBufferPointer { rows in
            var order = quaketui_time_order(first: first, runCount: Int64(ends.count), starts: starts.baseAddress,
                                            ends: UnsafeMutablePointer(mutating: ends.baseAddress),
                                            rows: UnsafeMutablePointer(mutating: rows.baseAddress), deferred: nil,
                                            deferredMagnitudes: nil, deferredTenths: nil, deferredCount: 0, failed: 0)
            while quaketui_time_order_walk(&order, moments, tenths, &walk) != 0 {
                sums.open = opened(sums.open)
                sums.add(time: walk.time, moment: moments[Int(walk.code)])
                carry(sums.open)
                walk.position += 1
            }
        } } }
        sums.open = opened(sums.open)
        positive.parts = (walk.hasPrevious != 0 ? Int(walk.previous) : nil, Int(walk.count), Int(walk.sum), Int(walk.squares))
    }

    /// Each row in order (after `sortRuns`): its time and its magnitude's code (`codes`), the rows
    /// `walk` goes through, one by one (tests).
    func forEach(_ body: (_ time: Int64, _ code: Int) -> Void) {
        rows.withUnsafeBufferPointer { rows in
            for run in ends.indices {
                let base = (first &+ Int64(run)) &* Self.runMilliseconds
                for row in rows[Int(starts[run]) ..< Int(ends[run])] {
                    body(base &+ Int64(row >> Self.codeBits), Int(row & Self.codeMask))
                }
            }
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
