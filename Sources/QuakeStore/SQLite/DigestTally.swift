import Foundation
import QuakeModel
import CQuakeSQL

extension quaketui_tally {
    /// The C tally of `runs`, for a pass in C.
    init(_ runs: TallyRuns) {
        self.init(count: runs.count, earliest: runs.earliest, latest: runs.latest, hasDay: runs.hasDay, dayStart: runs.dayStart,
                  dayEnd: runs.dayEnd, dayCount: runs.dayCount, countsHours: runs.countsHours, hasHour: runs.hasHour,
                  hourStart: runs.hourStart, hourCount: runs.hourCount, keepsLargest: runs.keepsLargest,
                  smallestLargestMagnitude: runs.smallestLargestMagnitude, smallestLargestTime: runs.smallestLargestTime)
    }
}

extension TallyRuns {
    /// `tally` back in Swift after a pass in C.
    init(_ tally: quaketui_tally) {
        self.init()
        (count, earliest, latest, hasDay, dayStart, dayEnd, dayCount) =
            (tally.count, tally.earliest, tally.latest, tally.hasDay, tally.dayStart, tally.dayEnd, tally.dayCount)
        (countsHours, hasHour, hourStart, hourCount) = (tally.countsHours, tally.hasHour, tally.hourStart, tally.hourCount)
        (keepsLargest, smallestLargestMagnitude, smallestLargestTime) =
            (tally.keepsLargest, tally.smallestLargestMagnitude, tally.smallestLargestTime)
    }
}

extension CatalogueStatistics.Tally {
    /// Whether Swift's bins are C's (`QUAKETUI_TALLY_*`): the pass in C counts into them.
    static var agreesWithC: Bool {
        tenthBase == Int(QUAKETUI_TALLY_TENTH_BASE) && tenthSlots == Int(QUAKETUI_TALLY_TENTHS)
            && depthSlots == Int(QUAKETUI_TALLY_DEPTHS) && hourlySpan == Int64(QUAKETUI_TALLY_HOURLY_SPAN)
    }

    /// Counts the rows of `chunk` from `index` that `query` takes (`quaketui_digest_tally`),
    /// their regions in `regions` by text id, up to the first one left to
    /// `CatalogueStatistics.add`, decoded into `row`; and each in `composition` unless it is nil.
    /// Returns its index, or the chunk's count.
    mutating func add(_ chunk: UnsafePointer<quaketui_digest_chunk>, _ query: UnsafePointer<quaketui_digest_query>,
                      from index: Int64, regions: TextTally, row: inout quaketui_digest_row,
                      composition: UnsafeMutablePointer<quaketui_composition>?) -> Int64 {
        isEmpty = false
        var cRuns = quaketui_tally(runs)
        defer { runs = TallyRuns(cRuns) }
        return tenths.withUnsafeMutableBufferPointer { tenths in
            depths.withUnsafeMutableBufferPointer { depths in
                tenths.withMemoryRebound(to: Int64.self) { tenths in
                    depths.withMemoryRebound(to: Int64.self) { depths in
                        quaketui_digest_tally(chunk, query, index, &cRuns, tenths.baseAddress, depths.baseAddress,
                                              regions.counts.baseAddress, Int64(regions.counts.count), &row, composition)
                    }
                }
            }
        }
    }
}

extension CatalogueStatistics {
    /// Adds the rows of a digest chunk of `count` rows that `query` takes, their regions counted
    /// in `regions` by text id, and each in `composition` unless it is nil; `title` gives a
    /// region's title for one of the largest quakes. `quaketui_digest_tally` counts the rows in C;
    /// each one it leaves (in a new day, perhaps one of the largest, …) is added here.
    mutating func add(_ chunk: UnsafePointer<quaketui_digest_chunk>, _ query: UnsafePointer<quaketui_digest_query>, count: Int64,
                      regions: TextTally, composition: UnsafeMutablePointer<quaketui_composition>?,
                      title: (UInt32) -> String) {
        var row = quaketui_digest_row()
        var index = tally.add(chunk, query, from: 0, regions: regions, row: &row, composition: composition)
        while index < count {
            add(magnitude: row.magnitude.isNaN ? nil : row.magnitude, depth: row.depth.isNaN ? nil : row.depth,
                band: row.depthBucket, time: row.time) { title(row.region) }
            if Int(row.region) < regions.counts.count { regions.counts[Int(row.region)] += 1 }
            index = tally.add(chunk, query, from: index + 1, regions: regions, row: &row, composition: composition)
        }
    }
}

/// A count per text id of the store's dictionary (half a million at 5M, places among them) for
/// the regions a pass meets, in memory the kernel zeroes (`calloc`): the pages of ids no row
/// counts (most: the places) are never written, so never resident. A zero-filled array took
/// 2 MB at 5M beside the time order, at the statistics' peak of memory.
final class TextTally {
    let counts: UnsafeMutableBufferPointer<UInt32>

    init(texts: Int) {
        let count = max(0, texts)
        guard let memory = calloc(max(1, count), MemoryLayout<UInt32>.stride) else { fatalError("out of memory: \(count) text counts") }
        counts = UnsafeMutableBufferPointer(start: memory.assumingMemoryBound(to: UInt32.self), count: count)
    }

    deinit { free(counts.baseAddress) }

    /// Each id counted, with its count, in id order.
    func forEachCounted(_ body: (UInt32, Int) -> Void) {
        for (id, count) in counts.enumerated() where count > 0 { body(UInt32(id), Int(count)) }
    }
}
