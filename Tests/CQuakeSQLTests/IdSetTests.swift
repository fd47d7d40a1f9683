import CQuakeSQL
import CSQLite
import QuakeModel
import Testing

/// `quaketui_idset`, the bitmap of a search's matching row ids, through its C API: against Swift's
/// `Set` under seeded random operations, at the edges of its 64-bit words, and refusing the ids it
/// cannot hold without changing.
@Suite struct IdSetTests {
    /// The ids in ascending order, by `quaketui_idset_next`.
    static func ids(_ set: UnsafePointer<quaketui_idset>) -> [Int64] {
        var result: [Int64] = [], from: Int64 = 0
        while case let id = quaketui_idset_next(set, from), id >= 0 { result.append(id); from = id + 1 }
        return result
    }

    @Test(arguments: [1, 2, 3, 4, 5] as [UInt64])
    func agreesWithASwiftSetUnderSeededRandomOperations(seed: UInt64) {
        var random = SplitMix64(seed: seed)
        var set = quaketui_idset(), copy = quaketui_idset()
        defer { quaketui_idset_free(&set); quaketui_idset_free(&copy) }
        var model = Set<Int64>(), copied = Set<Int64>()
        for _ in 0..<5_000 {
            // Mostly small ids, now and then one far out (the bitmap grows) or at a word's edges.
            let id: Int64 = switch random.next() % 10 {
            case 0: Int64(random.next() % 1_000_000)
            case 1: Int64(random.next() % 4) * 64 + [0, 63][Int(random.next() % 2)]
            default: Int64(random.next() % 3_000)
            }
            switch random.next() % 20 {
            case 0..<9: #expect(quaketui_idset_insert(&set, id) == 0); model.insert(id)
            case 9..<16: quaketui_idset_remove(&set, id); model.remove(id)
            case 16..<19: #expect(quaketui_idset_copy(&copy, &set) == 0); copied = model
            default: quaketui_idset_clear(&set); model.removeAll()
            }
            #expect((quaketui_idset_contains(&set, id) != 0) == model.contains(id))
            #expect(set.count == Int64(model.count))
        }
        #expect(Self.ids(&set) == model.sorted())
        #expect(Self.ids(&copy) == copied.sorted())
        #expect(copy.count == Int64(copied.count))
    }

    @Test func walksAcrossTheEdgesOfItsWords() {
        var set = quaketui_idset()
        defer { quaketui_idset_free(&set) }
        #expect(quaketui_idset_next(&set, 0) == -1)  // empty, no memory yet
        for id: Int64 in [0, 63, 64, 127, 128, 65_535, 65_536] { #expect(quaketui_idset_insert(&set, id) == 0) }
        #expect(quaketui_idset_insert(&set, 64) == 0 && set.count == 7)  // a second insert counts once
        #expect(Self.ids(&set) == [0, 63, 64, 127, 128, 65_535, 65_536])
        #expect(quaketui_idset_next(&set, -5) == 0)
        #expect(quaketui_idset_next(&set, 1) == 63)
        #expect(quaketui_idset_next(&set, 65) == 127)
        #expect(quaketui_idset_next(&set, 129) == 65_535)
        #expect(quaketui_idset_next(&set, 65_537) == -1)
        #expect(quaketui_idset_next(&set, .max / 2) == -1)
        quaketui_idset_remove(&set, 1)  // not in the set: nothing changes
        quaketui_idset_remove(&set, 10_000_000)  // past the bitmap: nothing changes
        #expect(set.count == 7)
        quaketui_idset_clear(&set)
        #expect(set.count == 0 && set.wordCount > 0 && quaketui_idset_next(&set, 0) == -1)
    }

    @Test func refusesWhatItCannotHoldAndStaysUnchanged() {
        var set = quaketui_idset()
        defer { quaketui_idset_free(&set) }
        #expect(quaketui_idset_insert(&set, 5) == 0)
        for id: Int64 in [-1, .min, .max, QUAKETUI_IDSET_LIMIT] {
            #expect(quaketui_idset_insert(&set, id) == SQLITE_RANGE)
            #expect(quaketui_idset_contains(&set, id) == 0)
        }
        #expect(set.count == 1 && Self.ids(&set) == [5])
        #expect(quaketui_idset_insert(&set, QUAKETUI_IDSET_LIMIT - 1) == 0)  // the last id it holds
        #expect(Self.ids(&set) == [5, QUAKETUI_IDSET_LIMIT - 1])
    }

    /// A copy into a bigger set clears what the bigger one held past the source; a copy into a
    /// smaller one grows it.
    @Test func copiesLeaveNothingBehind() {
        var big = quaketui_idset(), small = quaketui_idset()
        defer { quaketui_idset_free(&big); quaketui_idset_free(&small) }
        #expect(quaketui_idset_insert(&big, 200_000) == 0 && quaketui_idset_insert(&big, 3) == 0)
        #expect(quaketui_idset_insert(&small, 7) == 0)
        var into = quaketui_idset()
        defer { quaketui_idset_free(&into) }
        #expect(quaketui_idset_copy(&into, &big) == 0)
        #expect(Self.ids(&into) == [3, 200_000] && into.count == 2)
        #expect(quaketui_idset_copy(&into, &small) == 0)
        #expect(Self.ids(&into) == [7] && into.count == 1)
        var empty = quaketui_idset()
        #expect(quaketui_idset_copy(&into, &empty) == 0)
        #expect(Self.ids(&into).isEmpty && into.count == 0)
        quaketui_idset_free(&into)
        #expect(into.words == nil && into.wordCount == 0 && quaketui_idset_insert(&into, 1) == 0)
    }
}
