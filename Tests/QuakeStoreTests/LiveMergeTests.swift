import Foundation
import QuakeModel
import QuakeStore
import QuakeTestSupport
import Testing

/// Random changes from another process, merged one transaction at a time.
@Suite struct LiveMergeTests {
    let probe = BuildProducts.executable("store-probe")

    /// Applies reported changes to the old rows as the documentation of `ResultChanges` says.
    static func apply(_ changes: ResultChanges, to old: [QuakeRow], new: [QuakeRow]) -> [QuakeRow] {
        var rows = old
        for offset in (changes.deleted + changes.moved.map(\.from)).sorted(by: >) { rows.remove(at: offset) }
        for offset in (changes.inserted + changes.moved.map(\.to)).sorted() { rows.insert(new[offset], at: offset) }
        for update in changes.updated { rows[update.to] = new[update.to] }
        return rows
    }

    @Test(arguments: [
        (1, SectionedFetchRequest(timeZone: TimeZone(identifier: "UTC")!)),
        (2, SectionedFetchRequest(sortDescriptor: .init(.magnitude, ascending: true), timeZone: TimeZone(identifier: "UTC")!)),
        (3, SectionedFetchRequest(predicate: QuakePredicate(searchText: "ic"), sortDescriptor: .init(.region))),
        (4, SectionedFetchRequest(predicate: QuakePredicate(searchText: "mexico", minimumMagnitude: 2), sortDescriptor: .init(.time, ascending: true))),
        (5, SectionedFetchRequest(sortDescriptor: .init(.magnitude), timeZone: TimeZone(identifier: "Pacific/Chatham")!)),
    ])
    func mergedChangesApplyToTheOldContentsAndEqualAFreshFetch(seed: Int, request: SectionedFetchRequest) throws {
        let store = try TestStore()
        defer { store.remove() }
        try store.upsert(ExpectedResults.variedRecords(count: 150))
        let controller = try FetchedResultsController(container: store.container, request: request)
        defer { controller.close() }
        var old = try controller.rows(in: 0..<controller.count)
        for round in 0..<12 {
            let mutate = try ChildProcess.run(probe, ["mutate", store.directory.path, "\(seed * 1000 + round)"])
            #expect(mutate.status == 0, "\(mutate.stderr)")
            let changes = try controller.merge() ?? ResultChanges()
            let fresh = try FetchedResultsController(container: store.container, request: request)
            defer { fresh.close() }
            // The rows held before the merge and still listed are placed where the fresh fetch
            // has them (a listed merge places them from the changed rows' ranks, `ChangeDiff.places`).
            let freshRows = try fresh.rows(in: 0..<fresh.count)
            for (offset, row) in freshRows.enumerated() where old.contains(where: { $0.code == row.code }) {
                #expect(try controller.anchor(code: row.code) == offset, "round \(round): \(row.code)")
            }
            let new = try controller.rows(in: 0..<controller.count)
            #expect(freshRows == new, "round \(round): merged contents differ from a fresh fetch")
            #expect(fresh.sections == controller.sections, "round \(round): sections differ from a fresh fetch")
            if !changes.reloaded {
                #expect(Self.apply(changes, to: old, new: new) == new, "round \(round): \(changes)")
            }
            old = new
        }
    }
}

/// One commit that deletes and moves many rows of the same sections (a `delete`'s batch, a
/// re-import): every row's old place is counted in steps through its section, and the reported
/// changes still turn the old contents into a fresh fetch's.
@Suite struct ManyChangesInASectionMergeTests {
    @Test(arguments: [QuakeSortOrder.time, .magnitude, .region])
    func manyRowsOfOneSectionDeletedAndMovedInOneCommitMerge(order: QuakeSortOrder) throws {
        let store = try TestStore()
        defer { store.remove() }
        try store.upsert(ExpectedResults.variedRecords(count: 1_200))
        for ascending in [false, true] {
            let request = SectionedFetchRequest(sortDescriptor: .init(order, ascending: ascending), timeZone: TimeZone(identifier: "UTC")!)
            let controller = try FetchedResultsController(container: store.container, request: request)
            defer { controller.close() }
            let old = try controller.rows(in: 0..<controller.count)
            // Every other row of the three largest sections goes; every fifth of the rest moves.
            let largest = Set(controller.sections.sorted { $0.count > $1.count }.prefix(3).map(\.id))
            var going: [String] = [], moving: [QuakeRow] = []
            var offset = 0
            for section in controller.sections {
                for (index, row) in old[offset..<offset + section.count].enumerated() {
                    if largest.contains(section.id), index % 2 == 0 { going.append(row.code) } else if index % 5 == 0 { moving.append(row) }
                }
                offset += section.count
            }
            let context = try store.container.newBackgroundContext(author: "other")
            defer { context.close() }
            try context.performAndWait { tx in
                for code in going { _ = try tx.deleteQuake(code: code) }
                for (index, row) in moving.enumerated() {
                    try tx.upsert(.fixture(row.code, magnitude: Double(index % 60) / 10, place: row.place,
                                           time: row.time + Int64(index % 7) * 600_000,
                                           updated: 1_900_000_000_000 + Int64(index)))
                }
            }
            let changes = try #require(try controller.merge())
            #expect(!changes.reloaded, "\(going.count + moving.count) changes are within the listing limit")
            let new = try controller.rows(in: 0..<controller.count)
            let fresh = try FetchedResultsController(container: store.container, request: request)
            defer { fresh.close() }
            #expect(try fresh.rows(in: 0..<fresh.count) == new)
            #expect(fresh.sections == controller.sections)
            #expect(LiveMergeTests.apply(changes, to: old, new: new) == new)
        }
    }
}

/// Both sides of `maxListedChanges` (the other reload paths: ControllerReloadTests).
@Suite struct MergeReloadTests {
    static let utc = SectionedFetchRequest(timeZone: TimeZone(identifier: "UTC")!)

    func assertEqualsFreshFetch(_ controller: FetchedResultsController, _ store: TestStore) throws {
        let fresh = try FetchedResultsController(container: store.container, request: controller.request)
        defer { fresh.close() }
        #expect(fresh.sections == controller.sections)
        #expect(try fresh.rows(in: 0..<fresh.count) == (try controller.rows(in: 0..<controller.count)))
    }

    @Test(arguments: [FetchedResultsController.maxListedChanges, FetchedResultsController.maxListedChanges + 1])
    func anImportPastTheListingLimitReloadsAndOneWithinItMerges(newRows: Int) throws {
        let store = try TestStore()
        defer { store.remove() }
        // More stored rows than new ones, so the import stays exact (not "bulk": see
        // `WriteTransaction.shouldDeferSecondaryIndexes`) and only the listing limit decides.
        try store.upsert(ExpectedResults.variedRecords(count: 2_500))
        let controller = try FetchedResultsController(container: store.container, request: Self.utc)
        defer { controller.close() }
        let records = (0..<newRows).map { QuakeRecord.fixture("new\($0)", time: 1_700_000_000_000 + Int64($0) * 60_000) }
        try store.upsert(records)
        let changes = try #require(try controller.merge())
        #expect(changes.reloaded == (newRows > FetchedResultsController.maxListedChanges))
        if !changes.reloaded { #expect(changes.inserted.count == newRows) }
        #expect(controller.count == 2_500 + newRows)
        try assertEqualsFreshFetch(controller, store)
        #expect(try controller.merge() == nil)
    }
}
