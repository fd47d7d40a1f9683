import Foundation

extension CatalogueStatistics {
    /// The counts of quakes added since the last `settle()`, kept where a million rows cost least
    /// (issue 32): magnitude tenths and depth bins in arrays, the current day and hour as a run (a
    /// list in time order meets each many times in a row), regions by their UTF-8 bytes. A depth
    /// the array does not cover goes straight to the statistics' dictionaries; a magnitude off the
    /// tenths (no real one is) counts as none (`tenthSlot(of:)`). A pass over the digest adds to
    /// the arrays and `runs` in C (QuakeStore's SQLite/DigestTally.swift), so both count alike: the
    /// bins and constants are C's (`QUAKETUI_TALLY_*`, CQuakeSQL.h), checked equal by a test.
    package struct Tally: Sendable {
        /// M -6.4 … 19.1: every real magnitude.
        package static let tenthBase = -64
        package static let tenthSlots = 256
        /// Ten 10 km bins from -100 km to 100 km, then nine 100 km bins to 1000 km.
        package static let depthSlots = 29
        /// Under this span (ms) the timeline is per hour: three days.
        package static let hourlySpan: Int64 = 259_200_000

        /// Quakes per tenth of magnitude, `tenths[t - tenthBase]`.
        package var tenths = [Int](repeating: 0, count: Tally.tenthSlots)
        /// Quakes per depth bin, by `depthSlot(of:)`.
        package var depths = [Int](repeating: 0, count: Tally.depthSlots)
        /// The quakes added (settled or not) and their time range, the day `dayStart` last
        /// returned and the hour the last quake fell in, each with how many quakes since fell in
        /// it, and the smallest of the largest quakes kept.
        package var runs = TallyRuns()
        package var regions = TextCounts()
        /// Whether every count above is zero.
        package var isEmpty = true

        /// The slot of a magnitude's tenth (`MagnitudeBin.tenth(of:)`), nil off the slots
        /// (and for NaN): what the statistics count as no magnitude.
        package static func tenthSlot(of magnitude: Double) -> Int? {
            guard let tenth = MagnitudeBin.tenth(of: magnitude) else { return nil }
            let slot = tenth &- tenthBase
            return slot >= 0 && slot < tenthSlots ? slot : nil
        }

        /// The slot of a depth bin's lower edge (`DepthBins.from`), nil outside -100 … 1000 km.
        /// The edges are whole multiples of 10 and 100, so the divisions are exact.
        package static func depthSlot(of from: Double) -> Int? {
            if from >= -100 && from < 100 { return Int(from / 10) + 10 }
            if from >= 100 && from < 1000 { return Int(from / 100) + 19 }
            return nil
        }

        /// `depthSlot(of:)` of a band's lower edge in whole km (`DepthBands.bucket`), in integers.
        package static func depthSlot(ofBand band: Int32) -> Int? {
            if band >= -100 && band < 100 { return Int(band / 10) + 10 }
            if band >= 100 && band < 1000 { return Int(band / 100) + 19 }
            return nil
        }

        package static func depthFrom(slot: Int) -> Double {
            slot < 20 ? Double(slot - 10) * 10 : Double(slot - 19) * 100
        }
    }
}

/// Counts per text, keyed by its UTF-8 bytes: the region of every row of a scan counted without
/// making a `String` of it (open addressing over FNV-1a hashes; the last text hit is tried first).
/// `strings` turns the counts into `String` keys, where titles that Swift holds equal (the same
/// text in another Unicode normalization) become one, as a `[String: Int]` counts them.
package struct TextCounts: Sendable {
    /// Every text's bytes, one after the other: text `i` is `bytes[starts[i] ..< starts[i + 1]]`.
    private var bytes: [UInt8] = []
    private var starts: [Int] = [0]
    private var hashes: [UInt64] = []
    private var counts: [Int] = []
    /// Indices into `counts`, -1 for an empty slot; a power of two, at most half full.
    private var slots = [Int32](repeating: -1, count: 64)
    private var last = -1

    package var isEmpty: Bool { counts.isEmpty }

    package mutating func add(_ text: UnsafeRawBufferPointer) {
        if last >= 0, matches(last, text) {
            counts[last] += 1
            return
        }
        let hash = fnv1a(text)
        let mask = slots.count - 1
        var slot = Int(truncatingIfNeeded: hash) & mask
        while slots[slot] >= 0 {
            let index = Int(slots[slot])
            if hashes[index] == hash, matches(index, text) {
                counts[index] += 1
                last = index
                return
            }
            slot = (slot + 1) & mask
        }
        slots[slot] = Int32(counts.count)
        last = counts.count
        bytes.append(contentsOf: text)
        starts.append(bytes.count)
        hashes.append(hash)
        counts.append(1)
        if counts.count * 2 > slots.count { grow() }
    }

    private func matches(_ index: Int, _ text: UnsafeRawBufferPointer) -> Bool {
        let start = starts[index], count = starts[index + 1] - start
        guard count == text.count else { return false }
        guard count > 0 else { return true }
        return bytes.withUnsafeBytes { memcmp($0.baseAddress! + start, text.baseAddress!, count) == 0 }
    }

    private mutating func grow() {
        slots = [Int32](repeating: -1, count: slots.count * 2)
        let mask = slots.count - 1
        for index in hashes.indices {
            var slot = Int(truncatingIfNeeded: hashes[index]) & mask
            while slots[slot] >= 0 { slot = (slot + 1) & mask }
            slots[slot] = Int32(index)
        }
    }

    /// The counts by `String`, added into `into`.
    package func add(into strings: inout [String: Int]) {
        for index in counts.indices {
            let text = String(decoding: bytes[starts[index] ..< starts[index + 1]], as: UTF8.self)
            strings[text, default: 0] += counts[index]
        }
    }
}

/// The scalars of the tally (`quaketui_tally` in C, which the pass over the digest counts into):
/// the quakes and their time range, the day and hour runs, the smallest of the largest quakes kept.
package struct TallyRuns: Sendable, Equatable {
    package var count: Int64 = 0
    /// `Int64.max` and `Int64.min` before the first quake.
    package var earliest: Int64 = .max, latest: Int64 = .min
    /// Quakes in `dayStart ..< dayEnd` count in `dayCount`.
    package var hasDay: Int32 = 0
    package var dayStart: Int64 = 0, dayEnd: Int64 = 0, dayCount: Int64 = 0
    /// The quakes span under the hourly span so far.
    package var countsHours: Int32 = 1
    /// Quakes in the hour from `hourStart` count in `hourCount`.
    package var hasHour: Int32 = 0
    package var hourStart: Int64 = 0, hourCount: Int64 = 0
    /// The largest are all kept: a quake must beat the smallest of them.
    package var keepsLargest: Int32 = 0
    package var smallestLargestMagnitude: Double = 0
    package var smallestLargestTime: Int64 = 0

    package init() {}
}
