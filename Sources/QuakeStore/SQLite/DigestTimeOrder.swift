import Foundation

/// The usable magnitudes of the rows a digest query takes, in time order (the lower id first on
/// equal times, as `ORDER BY time, id` reads them), in four bytes a row: what the moments per day
/// and hour and b-positive walk (`catalogueSummaryFromDigest`, issue 52).
///
/// A counting sort by runs of 2^21 ms (about 35 minutes): a first pass counts the rows of each run
/// (`TimeRunCounts`), a second places each row, in id order, in its run (`add`), and each run is
/// then put in order by its milliseconds, keeping id order on equal ones (`sortRuns`). A row is its
/// milliseconds within its run (21 bits) and its magnitude's code (11 bits, `MagnitudeCodes`).
/// Reading the rows' times and magnitudes whole and sorting their positions took 22 bytes a row:
/// 150 MB at 5,000,000 quakes, with the statistics view open.
struct MagnitudesInTimeOrder {
    static let runBits: Int64 = 21
    static let codeBits: UInt32 = 11
    static let codeMask: UInt32 = (1 << codeBits) - 1

    /// The first run (`run(of:)`).
    private let first: Int64
    /// Before `add`: where each run starts; after every row is added, where each ends.
    private var ends: [Int32]
    private var rows: [UInt32]
    private var added = 0
    private var codes = MagnitudeCodes()
    /// A row that could not be kept (more distinct magnitudes than codes, a time outside the runs
    /// counted): the caller reads the rows instead.
    private(set) var failed = false

    /// Room for the rows `counts` counted; nil when there are too many to address.
    init?(_ counts: TimeRunCounts) {
        guard !counts.isTooWide, counts.total < Int(Int32.max) else { return nil }
        first = counts.first
        var start: Int32 = 0
        ends = counts.counts.map { count in
            defer { start += count }
            return start
        }
        // Every row is written before it is read (`isComplete`): no zeros written first.
        rows = [UInt32](unsafeUninitializedCapacity: counts.total) { buffer, count in
            HugePages.advise(UnsafeMutableRawBufferPointer(buffer))
            count = buffer.count
        }
    }

    /// The run of `time`: its 2^21 ms, counted from 1970 (also before: an arithmetic shift floors).
    static func run(of time: Int64) -> Int64 { time >> runBits }

    /// Places a row with a usable magnitude; rows must come in id order.
    mutating func add(time: Int64, magnitude: Double, tenth: Int16) {
        guard !failed else { return }
        let run = Self.run(of: time) &- first
        guard run >= 0, run < Int64(ends.count), let code = codes.code(of: magnitude, tenth: tenth) else { return failed = true }
        let position = Int(ends[Int(run)])
        guard position < rows.count else { return failed = true }
        let milliseconds = UInt32(truncatingIfNeeded: time & (1 << Self.runBits - 1))
        rows[position] = milliseconds << Self.codeBits | code
        ends[Int(run)] += 1
        added += 1
    }

    /// Whether each run got the rows `counts` counted in it, so every row is written (one
    /// snapshot: the two passes take the same rows).
    func isComplete(_ counts: TimeRunCounts) -> Bool {
        guard !failed, added == rows.count, counts.counts.count == ends.count else { return false }
        var end: Int32 = 0
        for (run, count) in counts.counts.enumerated() {
            end += count
            guard ends[run] == end else { return false }
        }
        return true
    }

    /// Puts each run in order of its milliseconds, the earlier-added (lower id) first on equal ones.
    mutating func sortRuns() {
        var keys: [UInt64] = []
        var copy: [UInt32] = []
        var start = 0
        let ends = ends
        rows.withUnsafeMutableBufferPointer { rows in
            func milliseconds(_ i: Int) -> UInt32 { rows[i] >> Self.codeBits }
            for end in ends.lazy.map(Int.init) {
                defer { start = end }
                guard end - start > 1, (start + 1 ..< end).contains(where: { milliseconds($0) < milliseconds($0 - 1) })
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
        }
    }

    /// Each row in order (after `sortRuns`): its time, magnitude and magnitude bin (tenth).
    func forEach(_ body: (_ time: Int64, _ magnitude: Double, _ tenth: Int16) -> Void) {
        var start = 0
        for (run, end) in ends.enumerated() {
            let base = (first &+ Int64(run)) << Self.runBits
            for row in rows[start ..< Int(end)] {
                let code = row & Self.codeMask
                body(base &+ Int64(row >> Self.codeBits), codes.magnitude(code), codes.tenth(code))
            }
            start = Int(end)
        }
    }
}

/// How many rows fall in each run of time (`MagnitudesInTimeOrder.run(of:)`), the runs growing at
/// either end as the rows come: the first pass of the counting sort.
struct TimeRunCounts {
    /// Runs spanned at most (about 279 years); a list wider than that is read by its rows.
    static let maximumRuns = 1 << 22

    private(set) var first: Int64 = 0
    private(set) var counts: [Int32] = []
    private(set) var total = 0
    private(set) var isTooWide = false
    /// The earliest and latest runs of a row (the counts may reach past them at the start).
    private var earliest = Int64.max, latest = Int64.min

    mutating func count(_ time: Int64) {
        guard !isTooWide else { return }
        let run = MagnitudesInTimeOrder.run(of: time)
        if run < earliest || run > latest {
            (earliest, latest) = (min(earliest, run), max(latest, run))
            guard latest - earliest < Self.maximumRuns else { return isTooWide = true }
        }
        if counts.isEmpty {
            first = run
            counts = [0]
        } else if run < first {
            // Room below for as many runs again as there are (up to a million): rows that come
            // out of order (an older catalogue imported after a newer one) move the runs a few times only.
            let added = Int(first - run) + min(counts.count, 1 << 20)
            counts.insert(contentsOf: repeatElement(0, count: added), at: 0)
            first -= Int64(added)
        } else if run - first >= Int64(counts.count) {
            counts.append(contentsOf: repeatElement(0, count: Int(run - first) - counts.count + 1))
        }
        counts[Int(run - first)] += 1
        total += 1
    }
}

/// Codes for the usable magnitudes (11 bits): every magnitude given in hundredths (all but a few
/// in real catalogues) has its own, and up to the rest of 2,048 others are numbered as met.
struct MagnitudeCodes {
    static let capacity = 1 << Int(MagnitudesInTimeOrder.codeBits)
    /// −5.10 … 10.10 in hundredths: every usable bin (`MagnitudeFrequency.usableTenths`).
    static let lowestHundredth = -510, hundredths = 1_521

    private var others: [Double] = []
    private var otherCodes: [UInt64: UInt32] = [:]
    /// Each code's bin, as the digest's pass gave it (a function of the magnitude).
    private var tenths = [Int16](repeating: .min, count: capacity)
    /// The codes last found, by a hash of the magnitude's bits (a catalogue holds a few hundred
    /// magnitudes: nearly every row is found here, without a division).
    private var memoBits = [UInt64](repeating: Double.nan.bitPattern, count: 4096)
    private var memoCodes = [UInt32](repeating: 0, count: 4096)

    /// The code of `magnitude` (never NaN); nil when every code is taken.
    mutating func code(of magnitude: Double, tenth: Int16) -> UInt32? {
        let bits = magnitude.bitPattern
        let slot = Int(truncatingIfNeeded: (bits &* 0x9E37_79B9_7F4A_7C15) >> 52)  // 12 bits
        if memoBits[slot] == bits { return memoCodes[slot] }
        guard let code = newCode(of: magnitude, tenth: tenth) else { return nil }
        (memoBits[slot], memoCodes[slot]) = (bits, code)
        return code
    }

    private mutating func newCode(of magnitude: Double, tenth: Int16) -> UInt32? {
        let scaled = (magnitude * 100).rounded()
        var code: UInt32
        if scaled >= Double(Self.lowestHundredth), scaled < Double(Self.lowestHundredth + Self.hundredths),
           Double(Int(scaled)) / 100 == magnitude {
            code = UInt32(Int(scaled) - Self.lowestHundredth)
        } else if let known = otherCodes[magnitude.bitPattern] {
            code = known
        } else {
            guard Self.hundredths + others.count < Self.capacity else { return nil }
            code = UInt32(Self.hundredths + others.count)
            others.append(magnitude)
            otherCodes[magnitude.bitPattern] = code
        }
        tenths[Int(code)] = tenth
        return code
    }

    func magnitude(_ code: UInt32) -> Double {
        let code = Int(code)
        return code < Self.hundredths ? Double(code + Self.lowestHundredth) / 100 : others[code - Self.hundredths]
    }

    func tenth(_ code: UInt32) -> Int16 { tenths[Int(code)] }
}
