import Foundation
import QuakeModel

extension Connection {
    /// The first gap between consecutive stored quakes, from the quake at `start` (ms since the
    /// epoch) on, that is too long for the store's own rate to be chance
    /// (``CatalogueCoverage``); nil when the store covers everything from `start` to its newest quake.
    ///
    /// The store's count is the sum of its 15-minute time buckets (`quake_count`, kept in every
    /// write's transaction). When the longest chance gap is 15 minutes or more, no gap inside a
    /// bucket can exceed it: the walk reads the buckets in order and looks at the quakes only
    /// around two non-empty buckets far enough apart. Otherwise (a store denser than about four
    /// thousand quakes a day) it steps along the time index, each step to the newest quake within
    /// the longest chance gap of the last.
    ///
    /// `through` (ms) stops the walk at the first gap that starts after it: what a caller
    /// interested in the time before a quake reads (`coverageStart`), not the rest of the store.
    public func coverageGap(from start: Int64, through end: Int64 = .max) throws(SQLiteError) -> CatalogueCoverage.Gap? {
        // The magnitude buckets' counts: a few rows, where the time buckets are one a quarter hour.
        let count = try keptQuakeCount()
        guard let oldest = try scalar("SELECT min(time) FROM quake").int64,
              let newest = try scalar("SELECT max(time) FROM quake").int64, newest > start else { return nil }
        // A store edited by hand can hold times at Int64's ends: their span saturates.
        let span = newest.subtractingReportingOverflow(oldest)
        guard let longest = CatalogueCoverage.longestChanceGap(count: Int(count), span: span.overflow ? .max : span.partialValue)
        else { return nil }
        let next = try prepare("SELECT time FROM quake INDEXED BY quake_time WHERE time > ? ORDER BY time LIMIT 1")
        /// The first quake after `time`, nil after the newest.
        func first(after time: Int64) throws(SQLiteError) -> Int64? {
            next.reset()
            try next.bind(time, at: 1)
            return try next.step() ? next.int64(at: 0) : nil
        }
        let bucket = 900_000 as Int64
        if longest < bucket {
            let within = try prepare("SELECT time FROM quake INDEXED BY quake_time WHERE time > ? AND time <= ? ORDER BY time DESC LIMIT 1")
            var last = start
            while last <= end {
                within.reset()
                try within.bind(last, at: 1)
                try within.bind(last > Int64.max - longest ? Int64.max : last + longest, at: 2)
                if try within.step() {
                    last = within.int64(at: 0)
                    continue
                }
                guard let after = try first(after: last) else { return nil }
                return CatalogueCoverage.Gap(from: last, to: after)
            }
            return nil
        }
        // Consecutive non-empty buckets whose quakes may be further apart than `longest`: at most
        // (current − previous + 1) buckets less 1 ms. SQLite pairs them (`lag`), so only those
        // pairs come back to be looked at.
        let buckets = try prepare("""
            SELECT previous, bucket FROM (
                SELECT bucket, lag(bucket) OVER (ORDER BY bucket) AS previous FROM quake_count
                WHERE kind = 0 AND typeof(bucket) = 'integer' AND bucket >= ?1 AND bucket <= ?3)
            WHERE previous IS NOT NULL AND (bucket - previous + 1.0) * \(bucket) - 1 > ?2
            """)
        try buckets.bind(Self.floorDivide(start, bucket), at: 1)
        try buckets.bind(longest, at: 2)
        // Through `end`'s bucket and the first non-empty one after it (a gap across `end`).
        let following = try prepare("SELECT bucket FROM quake_count WHERE kind = 0 AND typeof(bucket) = 'integer' AND bucket > ? ORDER BY bucket LIMIT 1")
        try following.bind(Self.floorDivide(end, bucket), at: 1)
        try buckets.bind(try following.step() ? following.int64(at: 0) : Int64.max, at: 3)
        let latest = try prepare("SELECT time FROM quake INDEXED BY quake_time WHERE time >= ? AND time < ? ORDER BY time DESC LIMIT 1")
        while try buckets.step() {
            let previous = buckets.int64(at: 0)
            latest.reset()
            try latest.bind(max(start, Self.bucketStart(previous)), at: 1)
            try latest.bind(Self.bucketStart(previous + 1), at: 2)
            guard try latest.step() else { continue }
            let last = latest.int64(at: 0)
            if let after = try first(after: last), Double(after) - Double(last) > Double(longest) {
                return CatalogueCoverage.Gap(from: last, to: after)
            }
        }
        return nil
    }

    /// Where the time the store covers before `time` (ms since the epoch) starts, looking back no
    /// further than `earliest`: the later of `earliest` and the store's oldest quake, moved on
    /// past every coverage gap (``coverageGap(from:)``) that ends at or before `time`; and whether
    /// it is a gap's end. Walked forward from the last quake at or before `earliest`, so a gap
    /// across `earliest` counts.
    ///
    /// ```swift
    /// let start = try db.coverageStart(before: main.time, notBefore: main.time - year)   // (june19, false)
    /// ```
    public func coverageStart(before time: Int64, notBefore earliest: Int64) throws(SQLiteError) -> (time: Int64, afterGap: Bool) {
        guard let oldest = try scalar("SELECT min(time) FROM quake").int64 else { return (time, false) }
        var start = (time: max(earliest, oldest), afterGap: false)
        let anchor = try prepare("SELECT max(time) FROM quake INDEXED BY quake_time WHERE time <= ?")
        try anchor.bind(start.time, at: 1)
        _ = try anchor.step()
        var from = anchor.isNull(at: 0) ? oldest : anchor.int64(at: 0)
        while from < time, let gap = try coverageGap(from: from, through: time), gap.to <= time {
            if gap.to > start.time { start = (gap.to, true) }
            from = gap.to
        }
        return start
    }

    /// The first ms of the 15-minute bucket `bucket`, saturating at Int64's ends.
    private static func bucketStart(_ bucket: Int64) -> Int64 {
        let (start, overflow) = bucket.multipliedReportingOverflow(by: 900_000)
        return overflow ? (bucket < 0 ? .min : .max) : start
    }

    private static func floorDivide(_ value: Int64, _ divisor: Int64) -> Int64 {
        let (quotient, remainder) = value.quotientAndRemainder(dividingBy: divisor)
        return remainder < 0 ? quotient - 1 : quotient
    }
}
