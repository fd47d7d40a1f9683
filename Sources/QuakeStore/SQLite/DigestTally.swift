import CQuakeSQL

/// The scalars of `CatalogueStatistics.Tally` that the statistics' pass over the digest counts
/// into in C (`quaketui_tally`, CQuakeSQL.h): the quakes and their time range, the day and hour
/// runs, the smallest of the largest quakes kept.
typealias TallyRuns = quaketui_tally

extension TallyRuns {
    /// Before the first quake.
    static let empty = quaketui_tally(count: 0, earliest: .max, latest: .min, hasDay: 0, dayStart: 0, dayEnd: 0, dayCount: 0,
                                      countsHours: 1, hasHour: 0, hourStart: 0, hourCount: 0,
                                      keepsLargest: 0, smallestLargestMagnitude: 0, smallestLargestTime: 0)
}

extension CatalogueStatistics.Tally {
    /// M -6.4 … 19.1: every real magnitude.
    static let tenthBase = Int(QUAKETUI_TALLY_TENTH_BASE)
    static let tenthSlots = Int(QUAKETUI_TALLY_TENTHS)
    /// Ten 10 km bins from -100 km to 100 km, then nine 100 km bins to 1000 km.
    static let depthSlots = Int(QUAKETUI_TALLY_DEPTHS)
    /// Under this span (ms) the timeline is per hour: three days.
    static let hourlySpan = Int64(QUAKETUI_TALLY_HOURLY_SPAN)

    /// Counts the rows of `chunk` from `index` that `query` takes (`quaketui_digest_tally`),
    /// their regions in `regions` by text id, up to the first one left to
    /// `CatalogueStatistics.add`, decoded into `row`. Returns its index, or the chunk's count.
    mutating func add(_ chunk: UnsafePointer<quaketui_digest_chunk>, _ query: UnsafePointer<quaketui_digest_query>,
                      from index: Int64, regions: inout [Int], row: inout quaketui_digest_row) -> Int64 {
        isEmpty = false
        return tenths.withUnsafeMutableBufferPointer { tenths in
            depths.withUnsafeMutableBufferPointer { depths in
                regions.withUnsafeMutableBufferPointer { regions in
                    tenths.withMemoryRebound(to: Int64.self) { tenths in
                        depths.withMemoryRebound(to: Int64.self) { depths in
                            regions.withMemoryRebound(to: Int64.self) { regions in
                                quaketui_digest_tally(chunk, query, index, &runs, tenths.baseAddress, depths.baseAddress,
                                                      regions.baseAddress, Int64(regions.count), &row)
                            }
                        }
                    }
                }
            }
        }
    }
}

extension CatalogueStatistics {
    /// Adds the rows of a digest chunk of `count` rows that `query` takes, their regions counted
    /// in `regions` by text id; `title` gives a region's title for one of the largest quakes.
    /// `quaketui_digest_tally` counts the rows in C; each one it leaves (in a new day, perhaps
    /// one of the largest, …) is added here.
    mutating func add(_ chunk: UnsafePointer<quaketui_digest_chunk>, _ query: UnsafePointer<quaketui_digest_query>, count: Int64,
                      regions: inout [Int], title: (UInt32) -> String) {
        var row = quaketui_digest_row()
        var index = tally.add(chunk, query, from: 0, regions: &regions, row: &row)
        while index < count {
            add(magnitude: row.magnitude.isNaN ? nil : row.magnitude, depth: row.depth.isNaN ? nil : row.depth,
                band: row.depthBucket, time: row.time) { title(row.region) }
            if Int(row.region) < regions.count { regions[Int(row.region)] += 1 }
            index = tally.add(chunk, query, from: index + 1, regions: &regions, row: &row)
        }
    }
}
