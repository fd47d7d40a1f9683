import Foundation
@testable import QuakeModel
@testable import QuakeStore
import QuakeTestSupport
import Testing

/// The section index as a value, without SQLite: offsets, lookups by key, and the next index a
/// merge's count deltas and new sections make.
@Suite struct SectionIndexTests {
    /// Regions in ascending byte order, as `QueryPlan.sectionPrecedes` orders them ascending.
    static func ascending(_ a: SectionKey, _ b: SectionKey) -> Bool {
        guard case .region(let x) = a, case .region(let y) = b else { preconditionFailure("regions only") }
        return x.utf8.lexicographicallyPrecedes(y.utf8)
    }

    static let index = SectionIndex([QuakeSection.region("alaska", 3), QuakeSection.region("chile", 1), QuakeSection.region("fiji", 4)])

    @Test func offsetsAndIndexPathsFollowTheCounts() {
        let index = Self.index
        #expect(index.count == 8)
        #expect(index.starts == [0, 3, 4])
        #expect((0..<3).map(index.offset(ofSection:)) == [0, 3, 4])
        let paths = (0..<8).map { index.indexPath(forOffset: $0) }
        #expect(paths.map(\.section) == [0, 0, 0, 1, 2, 2, 2, 2])
        #expect(paths.map(\.row) == [0, 1, 2, 0, 0, 1, 2, 3])
        #expect(SectionIndex().count == 0)
        #expect(SectionIndex().sections.isEmpty)
    }

    @Test func keysNameTheirSectionsAndTheirPlaces() {
        let index = Self.index
        #expect(index.index(of: .region("chile")) == 1)
        #expect(index.index(of: .region("nepal")) == nil)
        #expect(index.range(of: .region("fiji")) == 4..<8)
        #expect(index.range(of: .region("nepal")) == nil)
        // A key with a section starts at it; one without starts where it would be inserted.
        #expect(index.start(of: .region("chile"), precedes: Self.ascending) == 3)
        #expect(index.start(of: .region("aaa"), precedes: Self.ascending) == 0)
        #expect(index.start(of: .region("china"), precedes: Self.ascending) == 4)
        #expect(index.start(of: .region("zzz"), precedes: Self.ascending) == 8)
    }

    @Test func deltasMoveCountsDropEmptiedSectionsAndInsertNewOnesInOrder() {
        let next = Self.index.applying(
            [.region("alaska"): -1, .region("chile"): -1, .region("fiji"): 2, .region("china"): 2, .region("aaa"): 1],
            adding: [QuakeSection.region("china", 0), QuakeSection.region("aaa", 99)], precedes: Self.ascending)
        // The added sections' counts are their deltas, not what they came with.
        #expect(next == SectionIndex([QuakeSection.region("aaa", 1), QuakeSection.region("alaska", 2), QuakeSection.region("china", 2), QuakeSection.region("fiji", 6)]))
        #expect(next.starts == [0, 1, 3, 5])
        #expect(next.count == 11)
    }

    @Test func noDeltasKeepTheIndexAndAnAlreadyPresentSectionIsNotAddedTwice() {
        #expect(Self.index.applying([:], adding: [], precedes: Self.ascending) == Self.index)
        let next = Self.index.applying([.region("chile"): 1], adding: [QuakeSection.region("chile", 5)], precedes: Self.ascending)
        #expect(next == SectionIndex([QuakeSection.region("alaska", 3), QuakeSection.region("chile", 2), QuakeSection.region("fiji", 4)]))
    }

    @Test func everySectionEmptiedLeavesAnEmptyIndex() {
        let next = Self.index.applying([.region("alaska"): -3, .region("chile"): -1, .region("fiji"): -4], adding: [],
                                       precedes: Self.ascending)
        #expect(next == SectionIndex())
        #expect(next.count == 0)
    }

    /// Descending days: a new day lands between its neighbours, with the precedence the fetch gives.
    @Test func newDaysLandInTheRequestsDirection() {
        let day = 86_400_000 as Int64
        func section(_ n: Int64, _ count: Int) -> QuakeSection {
            QuakeSection(id: "d\(n)", title: "day \(n)", count: count, key: .day(start: n * day, last: (n + 1) * day - 1))
        }
        let sql = QueryPlan(SectionedFetchRequest(sortDescriptor: QuakeSortDescriptor(.time, ascending: false)))
        let index = SectionIndex([section(9, 2), section(5, 1)])
        let next = index.applying([section(7, 0).key: 3, section(3, 0).key: 1], adding: [section(7, 0), section(3, 0)],
                                  precedes: sql.sectionPrecedes)
        #expect(next.sections == [section(9, 2), section(7, 3), section(5, 1), section(3, 1)])
    }
}
