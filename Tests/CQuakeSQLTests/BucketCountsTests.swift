import CQuakeSQL
import QuakeModel
import Testing

/// `quaketui_buckets`, the per-bucket counts gathered by a match set's scan: against a Swift
/// dictionary while the span grows on either side, and giving up (never miscounting) past its limit.
@Suite struct BucketCountsTests {
    static func counts(_ buckets: quaketui_buckets) -> [Int64: Int] {
        var result: [Int64: Int] = [:]
        for index in 0..<Int(buckets.length) where buckets.counts[index] > 0 {
            result[buckets.base + Int64(index)] = Int(buckets.counts[index])
        }
        return result
    }

    @Test(arguments: [1, 2, 3] as [UInt64])
    func agreesWithADictionaryAsTheSpanGrowsBothWays(seed: UInt64) {
        var random = SplitMix64(seed: seed)
        var buckets = quaketui_buckets()
        defer { quaketui_buckets_free(&buckets) }
        var model: [Int64: Int] = [:]
        // Time buckets around 2025 (15-minute buckets since 1970), visited in no order, some far out.
        for _ in 0..<20_000 {
            let bucket = 1_950_000 + Int64(random.next() % 4_000) - (random.next() % 50 == 0 ? 100_000 : 0)
            quaketui_buckets_add(&buckets, bucket)
            model[bucket, default: 0] += 1
        }
        #expect(buckets.overflow == 0)
        #expect(Self.counts(buckets) == model)
        #expect(buckets.length <= QUAKETUI_BUCKETS_LIMIT)
    }

    /// The span is measured over the buckets counted, not over the array: doubling it towards
    /// later buckets must not make one on the other side, within the limit of the counted ones,
    /// give up (the digest's scan visits rows by id, in no order of time).
    @Test func theRoomLeftByDoublingDoesNotCountAsSpan() {
        var buckets = quaketui_buckets()
        defer { quaketui_buckets_free(&buckets) }
        for bucket: Int64 in [0, 600_000, 600_001, -1_000_000] { quaketui_buckets_add(&buckets, bucket) }
        #expect(buckets.overflow == 0)
        #expect(Self.counts(buckets) == [0: 1, 600_000: 1, 600_001: 1, -1_000_000: 1])
        #expect(buckets.length <= QUAKETUI_BUCKETS_LIMIT)
    }

    @Test func negativeBucketsCountToo() {
        var buckets = quaketui_buckets()
        defer { quaketui_buckets_free(&buckets) }
        for bucket: Int64 in [-3, 5, -3, -70, 0] { quaketui_buckets_add(&buckets, bucket) }
        #expect(Self.counts(buckets) == [-70: 1, -3: 2, 0: 1, 5: 1])
    }

    @Test func aSpanTooWideGivesUpUntilFreed() {
        var buckets = quaketui_buckets()
        defer { quaketui_buckets_free(&buckets) }
        quaketui_buckets_add(&buckets, 0)
        quaketui_buckets_add(&buckets, QUAKETUI_BUCKETS_LIMIT - 1)  // exactly the limit: still counted
        #expect(buckets.overflow == 0 && Self.counts(buckets) == [0: 1, QUAKETUI_BUCKETS_LIMIT - 1: 1])
        quaketui_buckets_add(&buckets, QUAKETUI_BUCKETS_LIMIT)  // one past
        #expect(buckets.overflow == 1 && buckets.counts == nil && buckets.length == 0)
        quaketui_buckets_add(&buckets, 1)  // ignored once given up
        #expect(buckets.overflow == 1 && buckets.counts == nil)
        quaketui_buckets_free(&buckets)
        #expect(buckets.overflow == 0)
        quaketui_buckets_add(&buckets, (1 << 62) - 1)  // the farthest buckets counted, one at a time
        #expect(buckets.overflow == 0 && Self.counts(buckets) == [(1 << 62) - 1: 1])
        quaketui_buckets_free(&buckets)
        quaketui_buckets_add(&buckets, -(1 << 62))
        #expect(buckets.overflow == 0 && Self.counts(buckets) == [-(1 << 62): 1])
    }

    /// Buckets near the ends of Int64 (a store edited by hand) give up instead of overflowing the
    /// span's arithmetic.
    @Test(arguments: [Int64.max, .min, 1 << 62, -(1 << 62) - 1])
    func aBucketNearTheEndsOfInt64GivesUp(_ far: Int64) {
        var buckets = quaketui_buckets()
        defer { quaketui_buckets_free(&buckets) }
        quaketui_buckets_add(&buckets, 10)
        quaketui_buckets_add(&buckets, far)
        #expect(buckets.overflow == 1 && buckets.counts == nil)
    }
}
