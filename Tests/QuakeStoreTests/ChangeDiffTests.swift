import Foundation
@testable import QuakeModel
@testable import QuakeStore
import QuakeTestSupport
import Testing

/// From the changed rows' old and new places to `ResultChanges`, without SQLite, compared as
/// whole values.
@Suite struct ChangeDiffTests {
    static func keys(_ id: Int64, time: Int64, region: String, magnitude: Double? = 3) -> RowKeys {
        RowKeys(id: id, time: time, magnitude: magnitude, regionKey: region, placeKey: region)
    }

    static func sectionOf(_ keys: RowKeys) -> SectionKey { .region(keys.regionKey) }

    /// Newest first within a region, as `QueryPlan` orders a region sort.
    static func newestFirst(_ a: RowKeys, _ b: RowKeys) -> Bool { (a.time, a.id) > (b.time, b.id) }

    static func expected(codes: Set<String>, sectionsDeleted: [Int] = [], sectionsInserted: [Int] = [], deleted: [Int] = [],
                         inserted: [Int] = [], moved: [(Int, Int)] = [], updated: [(Int, Int)] = []) -> ResultChanges {
        var changes = ResultChanges(codes: codes)
        changes.sectionsDeleted = sectionsDeleted
        changes.sectionsInserted = sectionsInserted
        changes.deleted = deleted
        changes.inserted = inserted
        changes.moved = moved.map { ResultChanges.Move(from: $0.0, to: $0.1) }
        changes.updated = updated.map { ResultChanges.Move(from: $0.0, to: $0.1) }
        return changes
    }

    static let one = SectionIndex([QuakeSection.region("a", 5)])

    /// Rows held before a merge are placed after it from the changed rows' ranks alone, as the
    /// merged list itself places them: random lists, random deletes, inserts and moves.
    @Test func heldRowsArePlacedWhereTheMergedListHasThem() {
        var rng = SeededGenerator(seed: 41)
        for round in 0..<300 {
            let before = (0..<Int.random(in: 1...40, using: &rng)).map { "r\($0)" }
            var after = before
            var codes: Set<String> = []
            for change in 0..<Int.random(in: 0...8, using: &rng) {
                switch Int.random(in: 0..<3, using: &rng) {
                case 0 where !after.isEmpty:  // gone
                    codes.insert(after.remove(at: Int.random(in: 0..<after.count, using: &rng)))
                case 1:  // arrived
                    let code = "n\(change)"
                    after.insert(code, at: Int.random(in: 0...after.count, using: &rng))
                    codes.insert(code)
                case 2 where !after.isEmpty:  // moved
                    let code = after.remove(at: Int.random(in: 0..<after.count, using: &rng))
                    after.insert(code, at: Int.random(in: 0...after.count, using: &rng))
                    codes.insert(code)
                default: break
                }
            }
            let oldRank = Dictionary(uniqueKeysWithValues: before.enumerated().filter { codes.contains($1) }.map { ($1, $0) })
            let newRank = Dictionary(uniqueKeysWithValues: after.enumerated().filter { codes.contains($1) }.map { ($1, $0) })
            let window = before.indices.filter { _ in Bool.random(using: &rng) }
            let held = Dictionary(uniqueKeysWithValues: window.map { (before[$0], $0) })
            let diff = ChangeDiff(codes: codes, oldMatched: [:], newMatched: [:])
            let expected = held.keys.reduce(into: [String: Int]()) { $0[$1] = after.firstIndex(of: $1) }
            #expect(diff.places(of: held, oldRank: oldRank, newRank: newRank) == expected, "round \(round)")
        }
    }

    /// Rows a b c d e; b changes and keeps its place among the others: an update.
    @Test func aRowKeepingItsPlaceIsAnUpdate() {
        let diff = ChangeDiff(codes: ["b"], oldMatched: ["b": Self.keys(2, time: 40, region: "a")],
                              newMatched: ["b": Self.keys(2, time: 39, region: "a")])
        #expect(diff.changes(oldRank: ["b": 1], newRank: ["b": 1], old: Self.one, new: Self.one)
                == Self.expected(codes: ["b"], updated: [(1, 1)]))
    }

    /// Rows a b c d e become a c d b e: b moved from 1 to 3.
    @Test func aRowPassingOthersIsAMove() {
        let diff = ChangeDiff(codes: ["b"], oldMatched: [:], newMatched: [:])
        #expect(diff.changes(oldRank: ["b": 1], newRank: ["b": 3], old: Self.one, new: Self.one)
                == Self.expected(codes: ["b"], moved: [(1, 3)]))
    }

    /// Rows a b c d become a c b d: both changed, and among the unchanged rows each keeps its
    /// place, so both are updates (the list needs no move animation).
    @Test func changedRowsSwappingAmongThemselvesAreUpdates() {
        let diff = ChangeDiff(codes: ["b", "c"], oldMatched: [:], newMatched: [:])
        let index = SectionIndex([QuakeSection.region("a", 4)])
        #expect(diff.changes(oldRank: ["b": 1, "c": 2], newRank: ["b": 2, "c": 1], old: index, new: index)
                == Self.expected(codes: ["b", "c"], updated: [(2, 1), (1, 2)]))
    }

    /// Sections [a: 2, b: 1] become [c: 1, a: 2]: b's row deleted (and b with it), c's row
    /// inserted in a new first section, and a code that never matched listed but placed nowhere.
    @Test func insertsDeletesAndSectionsAreListedInOrder() {
        let old = SectionIndex([QuakeSection.region("a", 2), QuakeSection.region("b", 1)])
        let new = SectionIndex([QuakeSection.region("c", 1), QuakeSection.region("a", 2)])
        let diff = ChangeDiff(codes: ["gone", "new", "never"], oldMatched: [:], newMatched: [:])
        #expect(diff.changes(oldRank: ["gone": 2], newRank: ["new": 0], old: old, new: new)
                == Self.expected(codes: ["gone", "new", "never"], sectionsDeleted: [1], sectionsInserted: [0], deleted: [2], inserted: [0]))
    }

    @Test func manyChangesAreSortedByTheirPlaces() {
        let index = SectionIndex([QuakeSection.region("a", 10)])
        let diff = ChangeDiff(codes: ["p", "q", "r", "s", "t", "u"], oldMatched: [:], newMatched: [:])
        let changes = diff.changes(oldRank: ["p": 8, "q": 2, "r": 5, "s": 0], newRank: ["r": 9, "s": 1, "t": 4, "u": 0],
                                   old: index, new: index)
        // s: 0 → 1 with u inserted before it: an update. r: 5 → 9, past unchanged rows: a move.
        #expect(changes == Self.expected(codes: ["p", "q", "r", "s", "t", "u"], deleted: [2, 8], inserted: [0, 4],
                                         moved: [(5, 9)], updated: [(0, 1)]))
    }

    @Test func countDeltasFollowTheChangedRowsBetweenSections() {
        let diff = ChangeDiff(
            codes: ["x", "y", "z"],
            oldMatched: ["x": Self.keys(1, time: 10, region: "a"), "z": Self.keys(3, time: 10, region: "a")],
            newMatched: ["x": Self.keys(1, time: 10, region: "b"), "y": Self.keys(2, time: 10, region: "b")])
        #expect(diff.countDeltas(sectionOf: Self.sectionOf) == [.region("a"): -2, .region("b"): 2])
        #expect(diff.newSectionKeys(sectionOf: Self.sectionOf) == [.region("b")])
    }

    /// A row's old place within its section, from the rows before its old keys now: less the
    /// changed rows now before it there (y, and x itself at its new time), plus those before it
    /// there before (z, since gone); rows elsewhere (w) do not count.
    @Test func anOldPlaceUndoesTheChangedRowsAroundIt() {
        let x = Self.keys(1, time: 100, region: "a")
        let diff = ChangeDiff(
            codes: ["x", "y", "z", "w"],
            oldMatched: ["x": x, "z": Self.keys(3, time: 150, region: "a"), "w": Self.keys(4, time: 500, region: "b")],
            newMatched: ["x": Self.keys(1, time: 300, region: "a"), "y": Self.keys(2, time: 200, region: "a"),
                         "w": Self.keys(4, time: 90, region: "a")])
        let places = diff.oldPlaces(sectionOf: Self.sectionOf, precedes: Self.newestFirst)
        #expect(places.place(of: x, in: .region("a"), nowBefore: 5) == 4)
    }

    /// Random changes: every old place equals the count over every changed row (the definition),
    /// and `changes` equals its definition (a rank's changed rows before it, counted one by one).
    @Test(arguments: 0..<20)
    func placesAndChangesEqualTheirDefinitionsOnRandomMerges(seed: Int) {
        var random = SeededGenerator(seed: UInt64(seed))
        let regions = ["a", "b", "c", "d"]
        func row(_ id: Int) -> RowKeys {
            Self.keys(Int64(id), time: Int64.random(in: 0..<60, using: &random), region: regions.randomElement(using: &random)!)
        }
        let codes = (0..<150).map { "q\($0)" }
        var oldMatched: [String: RowKeys] = [:], newMatched: [String: RowKeys] = [:]
        for (id, code) in codes.enumerated() {
            if Bool.random(using: &random) { oldMatched[code] = row(id) }
            if Bool.random(using: &random) { newMatched[code] = row(id) }
        }
        let diff = ChangeDiff(codes: Set(codes), oldMatched: oldMatched, newMatched: newMatched)
        let places = diff.oldPlaces(sectionOf: Self.sectionOf, precedes: Self.newestFirst)
        for keys in oldMatched.values {
            let key = Self.sectionOf(keys)
            func before(_ rows: [String: RowKeys]) -> Int {
                rows.values.filter { Self.sectionOf($0) == key && Self.newestFirst($0, keys) }.count
            }
            #expect(places.place(of: keys, in: key, nowBefore: 1_000) == 1_000 - before(newMatched) + before(oldMatched))
        }
        // Distinct ranks, as offsets in a list are.
        let oldRank = Dictionary(uniqueKeysWithValues: zip(oldMatched.keys, Array(0..<400).shuffled(using: &random)))
        let newRank = Dictionary(uniqueKeysWithValues: zip(newMatched.keys, Array(0..<400).shuffled(using: &random)))
        let changes = diff.changes(oldRank: oldRank, newRank: newRank, old: Self.one, new: Self.one)
        var moved = 0, updated = 0
        for code in codes {
            guard let from = oldRank[code], let to = newRank[code] else { continue }
            let same = from - oldRank.values.filter { $0 < from }.count == to - newRank.values.filter { $0 < to }.count
            if same { updated += 1 } else { moved += 1 }
            #expect((same ? changes.updated : changes.moved).contains(.init(from: from, to: to)))
        }
        #expect(changes.moved.count == moved && changes.updated.count == updated)
        #expect(changes.deleted.count == oldRank.keys.filter { newRank[$0] == nil }.count)
        #expect(changes.inserted.count == newRank.keys.filter { oldRank[$0] == nil }.count)
    }

    /// A merge of n listed changes computes each changed row's section once, not once per pair:
    /// 2,000 changes (`FetchedResultsController.maxListedChanges`) were four million section
    /// computations, seconds of a frozen browser (a fetch onto the sample, 1,558 changes).
    @Test func oldPlacesComputeEachRowsSectionOnce() {
        let count = 2_000
        let rows = (0..<count).map { Self.keys(Int64($0), time: Int64($0 % 97), region: "r\($0 % 7)") }
        let diff = ChangeDiff(codes: Set((0..<count).map { "q\($0)" }),
                              oldMatched: Dictionary(uniqueKeysWithValues: rows.enumerated().map { ("q\($0)", $1) }),
                              newMatched: Dictionary(uniqueKeysWithValues: rows.enumerated().map { ("q\($0)", $1) }))
        nonisolated(unsafe) var calls = 0
        let places = diff.oldPlaces(sectionOf: { calls += 1; return Self.sectionOf($0) }, precedes: Self.newestFirst)
        for keys in rows { _ = places.place(of: keys, in: Self.sectionOf(keys), nowBefore: 0) }
        #expect(calls == 2 * count)
    }
}
