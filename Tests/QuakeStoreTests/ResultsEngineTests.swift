import Dispatch
import Foundation
@testable import QuakeModel
@testable import QuakeStore
import QuakeTestSupport
import Testing

/// Never wait on a key: the provisional window shows exactly the rows the exact results show
/// around the selection, and once the background count settles, the results equal a fresh
/// fetch — after superseded requests and merges from another writer too.
@Suite struct ResultsEngineTests {
    static let utc = TimeZone(identifier: "UTC")!

    /// Seeded random requests over every order, direction, search and filter kind.
    static func randomRequest(_ rng: inout SeededGenerator) -> SectionedFetchRequest {
        let searches = ["", "", "a", "al", "fiji", "zz", "ísl", "ALASKA", "\"", "hawaii"]
        let orders: [QuakeSortOrder] = [.time, .magnitude, .region]
        var predicate = QuakePredicate(searchText: searches[Int.random(in: 0..<searches.count, using: &rng)],
                                       minimumMagnitude: Bool.random(using: &rng) ? nil : 2.5)
        if Int.random(in: 0..<4, using: &rng) == 0 { predicate.rowFilters = [.depth(0...2.5)] }
        let order = orders[Int.random(in: 0..<orders.count, using: &rng)]
        var request = SectionedFetchRequest(predicate: predicate,
                                            sortDescriptor: QuakeSortDescriptor(order, ascending: Bool.random(using: &rng)),
                                            timeZone: utc)
        if Int.random(in: 0..<4, using: &rng) == 0 {
            // A distance sort from a random home (the rows lie all over the globe).
            request.sortDescriptor = QuakeSortDescriptor(.distance, ascending: Bool.random(using: &rng))
            request.distanceReference = DistanceReference(origin: GeoPoint(latitude: Double.random(in: -80...80, using: &rng),
                                                                           longitude: Double.random(in: -180...180, using: &rng)))
        }
        return request
    }

    static func makeStore(count: Int = 500) throws -> TestStore {
        let store = try TestStore()
        var records = ExpectedResults.variedRecords(count: count, seed: 7)
        for index in stride(from: 0, to: records.count, by: 3) { records[index].depth = 9 }
        // Epicentres all over the globe, so a distance sort has every band (and ties: every
        // seventh quake shares a place).
        var rng = SeededGenerator(seed: 99)
        for index in records.indices {
            records[index].latitude = index % 7 == 0 ? 10 : Double.random(in: -85...85, using: &rng)
            records[index].longitude = index % 7 == 0 ? 20 : Double.random(in: -180...180, using: &rng)
        }
        try store.upsert(records)
        return store
    }

    /// Results on `store` that take the provisional path on every request, whole windows (no
    /// time limit, however loaded the machine), and their counts' answers.
    static func provisionalResults(_ store: TestStore) throws -> (ResultsEngine, CountAnswers) {
        let results = try ResultsEngine(container: store.container, request: SectionedFetchRequest(timeZone: utc))
        results.alwaysProvisional = true
        results.windowLimit = nil
        return (results, CountAnswers(results))
    }

    /// The first count starts while the engine is made, before its owner can listen: at a
    /// relaunch into a search that matches nothing it ended first, its answer went nowhere, and
    /// the screen said `… quakes` for good (the provisional tmux walk, about 1 run in 4 to 1 in
    /// 47 under load). An answer nobody heard waits for `onCounted` and settles as any other.
    @Test func aCountThatEndsBeforeItsOwnerListensIsHeardWhenItDoes() throws {
        let store = try Self.makeStore(count: 3_000)
        defer { store.remove() }
        let request = SectionedFetchRequest(predicate: QuakePredicate(searchText: "zz@none", minimumMagnitude: 2.5),
                                            sortDescriptor: QuakeSortDescriptor(.depth, ascending: true), timeZone: Self.utc)
        let results = try ResultsEngine(container: store.container, request: request, budget: .zero)
        defer { results.close() }
        let pending = try #require(results.pendingCount, "the first request is counted in the background")
        #expect(eventually(timeout: 30) { results.unheardAnswers > 0 })
        let answers = CountAnswers(results)
        #expect(results.unheardAnswers == 0)
        let answer = try #require(answers.next())
        #expect(answer.generation == pending)
        #expect(try results.settle(answer) != nil)
        #expect(results.pendingCount == nil && results.count == 0)
    }

    /// Waits (on the condition, not a clock) until the pending count settles.
    static func settle(_ results: ResultsEngine, _ signal: CountAnswers) throws {
        while results.pendingCount != nil {
            let answer = try #require(signal.next(), "the background count never finished")
            _ = try results.settle(answer)
        }
    }

    static func expectExact(_ results: ResultsEngine, _ store: TestStore, anchor code: String?) throws {
        let fresh = try FetchedResultsController(container: store.container, request: results.request)
        defer { fresh.close() }
        #expect(!results.isProvisional)
        #expect(results.sections == fresh.sections)
        #expect(try results.rows(in: 0..<results.count) == fresh.rows(in: 0..<fresh.count))
        if let code { #expect(try results.anchor(code: code) == fresh.anchor(code: code)) }
    }

    @Test func theWindowShowsTheExactRowsAroundTheSelection() throws {
        let store = try Self.makeStore()
        defer { store.remove() }
        let (results, _) = try Self.provisionalResults(store)
        defer { results.close() }
        results.provisionalMargin = 25
        var rng = SeededGenerator(seed: 11)
        for _ in 0..<60 {
            let request = Self.randomRequest(&rng)
            let code: String? = Bool.random(using: &rng) ? "v\(Int.random(in: 0..<500, using: &rng))" : nil
            try results.configure(request, around: code)
            #expect(results.isProvisional)
            let fresh = try FetchedResultsController(container: store.container, request: request)
            defer { fresh.close() }
            let all = try fresh.rows(in: 0..<fresh.count)
            let window = try results.rows(in: 0..<results.count)
            guard let code, let exact = try fresh.anchor(code: code) else {
                #expect(window == Array(all.prefix(window.count)), "\(request)")
                #expect(window.count == min(all.count, 50))
                continue
            }
            let anchor = try #require(try results.anchor(code: code), "\(request) \(code)")
            let start = exact - anchor
            #expect(start >= 0 && start + window.count <= all.count, "\(request) \(code)")
            guard start >= 0, start + window.count <= all.count else { continue }
            #expect(window == Array(all[start..<start + window.count]), "\(request) \(code)")
            // Each section of the window is the exact section of its rows, its count pending.
            for (index, section) in results.sections.enumerated() {
                let first = start + results.offset(ofSection: index)
                let exactSection = fresh.sections[fresh.indexPath(forOffset: first).section]
                #expect(section.id == exactSection.id && section.title == exactSection.title)
                #expect(section.isCountPending)
            }
        }
        // Leave no count running behind the test.
        try results.configure(SectionedFetchRequest(timeZone: Self.utc), around: nil)
    }

    /// Folded sections: the window keeps the first row it meets of each (for the header) and
    /// reads on past the rest, in both directions and every order. The oracle walks the exact
    /// rows the same way: the anchor, then row by row, jumping over a folded section's rest.
    @Test func theWindowReadsPastFoldedSections() throws {
        let store = try Self.makeStore()
        defer { store.remove() }
        let (results, _) = try Self.provisionalResults(store)
        defer { results.close() }
        results.provisionalMargin = 15
        var rng = SeededGenerator(seed: 31)
        for round in 0..<50 {
            let request = Bool.random(using: &rng) ? Self.randomDistanceRequest(&rng) : Self.randomRequest(&rng)
            let fresh = try FetchedResultsController(container: store.container, request: request)
            defer { fresh.close() }
            let all = try fresh.rows(in: 0..<fresh.count)
            let sectionOf = (0..<all.count).map { fresh.indexPath(forOffset: $0).section }
            let folded = Set(fresh.sections.indices.filter { _ in Int.random(in: 0..<3, using: &rng) == 0 })
            try results.setCollapsedSections(Set(folded.map { fresh.sections[$0].id }))
            let code: String? = Bool.random(using: &rng) && !all.isEmpty ? all[Int.random(in: 0..<all.count, using: &rng)].code : nil
            try results.configure(request, around: code)
            // The oracle: `below` rows from the anchor on (the anchor itself first), `above` before it.
            func walk(from start: Int, step: Int, limit: Int) -> [Int] {
                var taken: [Int] = [], index = start
                while taken.count < limit, all.indices.contains(index) {
                    taken.append(index)
                    let section = sectionOf[index]
                    if folded.contains(section) {
                        let first = fresh.offset(ofSection: section)
                        index = step > 0 ? first + fresh.sections[section].count : first - 1
                    } else {
                        index += step
                    }
                }
                return taken
            }
            var expected: [Int]
            if let code, let anchor = all.firstIndex(where: { $0.code == code }) {
                expected = walk(from: anchor - 1, step: -1, limit: 15).reversed() + [anchor] + walk(from: anchor + 1, step: 1, limit: 29)
            } else {
                expected = walk(from: 0, step: 1, limit: 30)
            }
            let window = try results.rows(in: 0..<results.count)
            #expect(window.map(\.code) == expected.map { all[$0].code }, "round \(round): \(request), folded \(folded), anchor \(code ?? "none")")
        }
        try results.setCollapsedSections([])
        try results.configure(SectionedFetchRequest(timeZone: Self.utc), around: nil)
    }

    @Test func aSettledCountEqualsAFreshFetch() throws {
        let store = try Self.makeStore()
        defer { store.remove() }
        let (results, signal) = try Self.provisionalResults(store)
        defer { results.close() }
        var rng = SeededGenerator(seed: 5)
        for _ in 0..<12 {
            let request = Self.randomRequest(&rng)
            let code = "v\(Int.random(in: 0..<500, using: &rng))"
            try results.configure(request, around: code)
            try Self.settle(results, signal)
            try Self.expectExact(results, store, anchor: code)
        }
    }

    @Test func aNewerRequestSupersedesTheRunningCount() throws {
        let store = try Self.makeStore(count: 3_000)
        defer { store.remove() }
        let (results, signal) = try Self.provisionalResults(store)
        defer { results.close() }
        // Typed quickly: each letter replaces the count of the one before.
        var typed = ""
        for letter in "alaska" {
            typed.append(letter)
            try results.configure(SectionedFetchRequest(predicate: QuakePredicate(searchText: typed), timeZone: Self.utc),
                                  around: "v10")
        }
        try Self.settle(results, signal)
        #expect(results.request.predicate.searchText == "alaska")
        try Self.expectExact(results, store, anchor: "v10")
    }

    @Test func mergesWhileACountRunsStayExact() throws {
        let store = try Self.makeStore()
        defer { store.remove() }
        let (results, signal) = try Self.provisionalResults(store)
        defer { results.close() }
        var rng = SeededGenerator(seed: 3)
        for round in 0..<6 {
            try results.configure(Self.randomRequest(&rng), around: "v\(round * 40)")
            // Another process writes while the count runs (or just after it finished).
            try store.upsert((0..<5).map {
                .fixture("m\(round)-\($0)", magnitude: Double($0), place: "\($0) km N of Hilo, Hawaii", time: 1_700_000_000_000 + Int64($0))
            } + [.fixture("v\(round)", magnitude: 6.1, place: "Fiji region", time: 1_700_000_500_000, updated: 1_900_000_000_000 + Int64(round))])
            _ = try results.merge()
            try Self.settle(results, signal)
            _ = try results.merge()
            try Self.expectExact(results, store, anchor: "v\(round * 40)")
        }
    }

    /// More commits than the history lists (a `delete`'s, an import's) are not merged by reading
    /// every row on the caller's thread: the results are counted again in the background, a
    /// provisional window around the selection answering meanwhile, and settle exact — from
    /// settled results and while a count runs.
    @Test func aMergeTheHistoryCannotListIsCountedAgain() throws {
        let store = try Self.makeStore()
        defer { store.remove() }
        let (results, signal) = try Self.provisionalResults(store)
        defer { results.close() }
        var rng = SeededGenerator(seed: 11)
        for round in 0..<4 {
            // The last round is the plain list, which a reload reads from the kept counts.
            let request = round == 3 ? SectionedFetchRequest(timeZone: Self.utc) : Self.randomRequest(&rng)
            try results.configure(request, around: "v\(round * 60)")
            if round != 1 { try Self.settle(results, signal) }
            let many = FetchedResultsController.maxListedChanges + 10
            try store.upsert((0..<many).map {
                .fixture("big\(round)-\($0)", magnitude: Double($0 % 70) / 10, place: "\($0 % 50) km N of Hilo, Hawaii",
                         time: 1_700_000_000_000 + Int64($0) * 1_000)
            })
            let plain = results.request.normalized == SectionedFetchRequest(timeZone: Self.utc).normalized
            let changes = try #require(try results.merge(around: "v\(round * 60)"))
            #expect(changes.reloaded)
            // The plain list reloads from the kept counts at once; any other request is counted
            // in the background (while a count runs, it stays provisional either way).
            #expect(results.isProvisional == (!plain || round == 1), "round \(round), plain \(plain)")
            try Self.settle(results, signal)
            try Self.expectExact(results, store, anchor: "v\(round * 60)")
            // Nothing committed since: nothing to merge.
            #expect(try results.merge(around: "v\(round * 60)") == nil)
        }
    }

    /// A merge that would hold the caller's thread past `mergeBudget` is counted again in the
    /// background instead: here every new quake's place in its magnitude or depth section is
    /// one the digest would count in a pass over every row (as in a depth band holding half of
    /// 5,000,000 quakes, ~0.1 s). Meanwhile the results stay as they were, exact as of the
    /// commits before (no window to read), waiting for the count; then they settle exact, the
    /// new quakes in their places. With the walk counting them (a small section), the same
    /// merge is exact at once.
    @Test func aMergeOverItsBudgetIsCountedAgain() throws {
        let store = try Self.makeStore()
        defer { store.remove() }
        let (results, signal) = try Self.provisionalResults(store)
        defer { results.close() }
        // A budget no merge here reaches: what stops one is the pass it would make, not a clock.
        results.mergeBudget = .seconds(10)
        var rng = SeededGenerator(seed: 23)
        for round in 0..<8 {
            let overBudget = round % 4 != 3
            results.digestCountedSection = overBudget ? 0 : 50_000
            var request = SectionedFetchRequest(timeZone: Self.utc)
            request.sortDescriptor = QuakeSortDescriptor(round % 2 == 0 ? .depth : .magnitude, ascending: Bool.random(using: &rng))
            let code = "v\(round * 50)"
            try results.configure(request, around: code)
            try Self.settle(results, signal)
            try store.upsert((0..<30).map {
                var record = QuakeRecord.fixture("new\(round)-\($0)", magnitude: Double($0 % 7), place: "\($0) km N of Hilo, Hawaii",
                                                 time: 1_700_000_000_000 + Int64(round * 100 + $0) * 1_000)
                record.depth = [9, 10, 35, 120][$0 % 4]
                return record
            })
            let before = try results.rows(in: 0..<results.count)
            let changes = try #require(try results.merge(around: code))
            #expect(!results.isProvisional && !changes.reloaded, "round \(round)")
            #expect((results.pendingCount != nil) == overBudget, "round \(round)")
            if overBudget {
                #expect(changes.codes.isEmpty && results.count == before.count)
                #expect(try results.rows(in: 0..<results.count) == before)
                // Another commit meanwhile: the count merges it when it settles.
                try store.upsert([.fixture("late\(round)", magnitude: 4.4, place: "Fiji region", time: 1_700_000_900_000)])
                #expect(try results.merge(around: code) == nil)
            }
            try Self.settle(results, signal)
            try Self.expectExact(results, store, anchor: code)
            #expect(try results.merge(around: code) == nil)
        }
    }

    /// When the count catching up with a merge over its budget fails, the merge is made on the
    /// caller's thread instead, whatever it costs: the results are exact, and nothing is thrown
    /// (nothing the user sees failed). The count's own late answer is then dropped.
    @Test func aFailedCatchUpCountMergesOnTheCallersThread() throws {
        let store = try Self.makeStore()
        defer { store.remove() }
        let (results, signal) = try Self.provisionalResults(store)
        defer { results.close() }
        results.mergeBudget = .seconds(10)
        results.digestCountedSection = 0
        let request = SectionedFetchRequest(sortDescriptor: QuakeSortDescriptor(.depth, ascending: true), timeZone: Self.utc)
        try results.configure(request, around: "v40")
        try Self.settle(results, signal)
        try store.upsert((0..<12).map { .fixture("late\($0)", magnitude: 3, place: "Fiji region", time: 1_700_000_000_000 + Int64($0) * 1_000) })
        _ = try #require(try results.merge(around: "v40"))
        let count = try #require(results.pendingCount)
        #expect(!results.isProvisional)
        let failure = SQLiteError(extendedCode: SQLiteError.ioError, message: "disk I/O error")
        #expect(try results.settle(.failed(generation: count, failure)) != nil)
        #expect(results.pendingCount == nil)
        try Self.expectExact(results, store, anchor: "v40")
        // The real count's answer, whenever it comes, answers nothing now.
        if let late = signal.next() { #expect(try results.settle(late) == nil) }
    }

    /// A random request sorted by distance from a random home, which no table built so far fits.
    static func randomDistanceRequest(_ rng: inout SeededGenerator) -> SectionedFetchRequest {
        var request = randomRequest(&rng)
        request.sortDescriptor = QuakeSortDescriptor(.distance, ascending: Bool.random(using: &rng))
        request.distanceReference = DistanceReference(origin: GeoPoint(latitude: Double.random(in: -80...80, using: &rng),
                                                                       longitude: Double.random(in: -180...180, using: &rng)),
                                                      unit: Bool.random(using: &rng) ? .km : .mi)
        return request
    }

    /// A distance sort that builds its table counts its bands first (one pass in the same
    /// read): a settle gives the window's sections the whole result's counts and the total,
    /// the window itself unchanged, and the source stays provisional until the order settles
    /// exact. Every search, filter, direction and unit.
    @Test func aDistanceSortsCountsArriveBeforeItsOrder() throws {
        let store = try Self.makeStore()
        defer { store.remove() }
        let (results, signal) = try Self.provisionalResults(store)
        defer { results.close() }
        var rng = SeededGenerator(seed: 17)
        for round in 0..<16 {
            let request = Self.randomDistanceRequest(&rng)
            let code = "v\(Int.random(in: 0..<500, using: &rng))"
            try results.configure(request, around: code)
            let window = try results.rows(in: 0..<results.count)
            let windowSections = results.sections
            #expect(results.countedTotal == nil && windowSections.allSatisfy(\.isCountPending))
            let answer = try #require(signal.next())
            #expect(try results.settle(answer) != nil, "round \(round): the counts did not come first")
            let fresh = try FetchedResultsController(container: store.container, request: results.request)
            defer { fresh.close() }
            #expect(results.isProvisional)
            #expect(results.countedTotal == fresh.count, "round \(round): \(request)")
            #expect(try results.rows(in: 0..<results.count) == window)
            #expect(results.sections.map(\.count) == windowSections.map(\.count))
            for section in results.sections {
                let exact = fresh.sections.first { $0.id == section.id }
                #expect(section.totalCount == exact?.count && !section.isCountPending, "round \(round): \(section)")
            }
            try Self.settle(results, signal)
            try Self.expectExact(results, store, anchor: code)
            #expect(results.sections.allSatisfy { $0.totalCount == nil })
        }
    }

    /// Nearest first from Tokyo.
    static var fromTokyo: SectionedFetchRequest {
        var distance = SectionedFetchRequest(timeZone: utc)
        distance.sortDescriptor = QuakeSortDescriptor(.distance, ascending: true)
        distance.distanceReference = DistanceReference(origin: GeoPoint(latitude: 35.68, longitude: 139.69))
        return distance
    }

    /// A distance sort chosen again is counted on the table the exact results kept (lent to the
    /// count, back with its results), however many other orders came between (an even and an odd
    /// number, a commit caught up): the table is built once, and the results are exact.
    @Test func aDistanceSortChosenAgainIsCountedOnItsKeptTable() throws {
        let store = try Self.makeStore()
        defer { store.remove() }
        let (results, signal) = try Self.provisionalResults(store)
        defer { results.close() }
        let distance = Self.fromTokyo
        func order(_ order: QuakeSortOrder) -> SectionedFetchRequest {
            var request = SectionedFetchRequest(timeZone: Self.utc)
            request.sortDescriptor = QuakeSortDescriptor(order, ascending: false)
            return request
        }
        let rounds: [[SectionedFetchRequest]] = [
            [distance], [order(.time), distance], [order(.magnitude), order(.region), distance],
            [order(.time), order(.magnitude), order(.region), distance],
        ]
        for (round, requests) in rounds.enumerated() {
            if round == 3 { try store.upsert([.fixture("new", time: 1_700_000_000_000)]) }
            for request in requests {
                try results.configure(request, around: "v3")
                try Self.settle(results, signal)
            }
            try Self.expectExact(results, store, anchor: "v3")
            #expect(results.tableBuilds == 1, "round \(round): the table was built again")
        }
    }

    /// The exact results lend the count the distance table they read (`:mag` on a distance
    /// sort): a failed count gives it back, and they stay exact, the table built once; a count
    /// that built over the lent table before failing leaves them to be counted again.
    @Test func aFailedCountGivesTheLentTableBack() throws {
        let store = try Self.makeStore()
        defer { store.remove() }
        let (results, signal) = try Self.provisionalResults(store)
        defer { results.close() }
        let distance = Self.fromTokyo
        var stronger = distance
        stronger.predicate.minimumMagnitude = 2.5
        var elsewhere = distance
        elsewhere.distanceReference = DistanceReference(origin: GeoPoint(latitude: -33.45, longitude: -70.66))
        let failure = SQLiteError(extendedCode: SQLiteError.interrupted, message: "a count that failed")
        /// The answers until the pending count's own, which is left untaken: a failure instead.
        func failPendingCount() throws {
            let pending = try #require(results.pendingCount)
            while let answer = signal.next(), answer.generation != pending || !answer.isCounted {}
            #expect(throws: SQLiteError.self) { try results.settle(.failed(generation: pending, failure)) }
        }
        try results.configure(distance, around: "v3")
        try Self.settle(results, signal)
        try results.configure(stronger, around: "v3")
        try failPendingCount()
        #expect(!results.isProvisional)
        try Self.expectExact(results, store, anchor: "v3")
        #expect(results.tableBuilds == 1)
        // Lent again, and a count for another home built over it before the failure came.
        try results.configure(stronger, around: "v3")
        try results.configure(elsewhere, around: "v3")
        try failPendingCount()
        #expect(results.request == distance.normalized && results.isProvisional, "counted again")
        try Self.settle(results, signal)
        try Self.expectExact(results, store, anchor: "v3")
        #expect(results.tableBuilds == 3, "the first home's, the second's, the first's again")
    }

    /// A window section the counts do not know (the window was read before a commit the
    /// counts saw) keeps its count pending rather than show the window's share as the whole.
    @Test func aWindowSectionTheCountsLackStaysPending() throws {
        let store = try Self.makeStore(count: 20)
        defer { store.remove() }
        let context = try store.container.newViewContext(queryOnly: false)
        defer { context.close() }
        var window = try context.read { db in
            try ProvisionalWindow(db, request: SectionedFetchRequest(timeZone: Self.utc), days: DayCalendar(timeZone: Self.utc),
                                  anchor: nil, above: 0, below: 10)
        }
        window.sections = [QuakeSection(id: "distance-3", title: "1,000–3,000 km", count: 4, key: .distance(lowerKm: 1_000, upperKm: 3_000)),
                           QuakeSection(id: "distance-4", title: "≥ 3,000 km", count: 9, key: .distance(lowerKm: 3_000, upperKm: .infinity))]
        let counted = [QuakeSection(id: "distance-4", title: "≥ 3,000 km", count: 412, key: .distance(lowerKm: 3_000, upperKm: .infinity))]
        let sections = window.sections(countedAs: counted)
        #expect(sections.map { $0.totalCount } == [nil, 412])
        #expect(sections.map { $0.isCountPending } == [true, false])
        #expect(sections.map { $0.count } == [4, 9])
    }

    /// Counts taken before another process's commit are never shown: the merge re-reads the
    /// window with its counts pending again, and the order settles exact, the commit included.
    @Test func aCommitWhileADistanceSortCountsLeavesItsCountsToTheSettle() throws {
        let store = try Self.makeStore()
        defer { store.remove() }
        let (results, signal) = try Self.provisionalResults(store)
        defer { results.close() }
        var rng = SeededGenerator(seed: 29)
        for round in 0..<6 {
            let code = "v\(round * 30)"
            try results.configure(Self.randomDistanceRequest(&rng), around: code)
            if round % 2 == 1 {
                // The counts may have arrived already: shown, then dropped by the merge.
                _ = try results.settle(try #require(signal.next()))
            }
            try store.upsert((0..<4).map {
                var record = QuakeRecord.fixture("c\(round)-\($0)", magnitude: Double($0), place: "\($0) km N of Hilo, Hawaii",
                                                 time: 1_700_000_000_000 + Int64($0))
                record.latitude = Double($0 * 20)
                return record
            })
            _ = try results.merge()
            while results.isProvisional {
                #expect(results.countedTotal == nil && results.sections.allSatisfy(\.isCountPending), "round \(round)")
                _ = try results.settle(try #require(signal.next()))
            }
            _ = try results.merge()
            try Self.expectExact(results, store, anchor: code)
        }
    }

    /// A search that matches almost nothing would walk the whole index for its window: the
    /// window's time limit stops the walk and keeps what it found (here nothing), and the
    /// count that follows still finds the one match.
    @Test func aWindowWalkStopsAtItsTimeLimit() throws {
        let store = try Self.makeStore(count: 3_000)
        defer { store.remove() }
        try store.upsert([.fixture("rare", place: "Zzyzx, California", time: 1_600_000_000_000)])
        let request = SectionedFetchRequest(predicate: QuakePredicate(searchText: "zzyzx"), timeZone: Self.utc)
        let reader = ProvisionalReader(request: request, days: DayCalendar(timeZone: Self.utc))
        let context = try store.container.newViewContext(queryOnly: false)
        defer { context.close() }
        let (cut, whole) = try context.read { db -> (Bool, [String]) in
            var partial = false
            let rows = try reader.rows(db, from: nil, forward: true, limit: 10, within: 0, partial: &partial)
            #expect(rows.isEmpty)
            var unlimited = false
            let all = try reader.rows(db, from: nil, forward: true, limit: 10, within: nil, partial: &unlimited)
            #expect(!unlimited)
            return (partial, all.map(\.row.code))
        }
        #expect(cut)
        #expect(whole == ["rare"])
    }

    /// A distance window around a quake more than 5,000 km from home walks straight to a read
    /// of every row, which sorts before it yields one: a deadline stops it with nothing found.
    /// Under a time limit (however long), over more rows than `scanAllRowLimit`, the reader
    /// does not start it: the window is the anchor alone, cut short (the count that follows
    /// brings the rest). Within the bound, without a limit, or with a filter whose index may
    /// narrow the read, it reads the exact rows as before. Seen as `s` → distance at 1,000,000
    /// quakes spending its whole 12 ms window limit for the lone anchor row (17.1 ms a key).
    @Test func aDistanceWindowDoesNotStartAReadOfEveryRowThatCannotFit() throws {
        let store = try Self.makeStore()
        defer { store.remove() }
        let home = GeoPoint(latitude: 35.68, longitude: 139.69)
        let context = try store.container.newViewContext(queryOnly: false)
        defer { context.close() }
        let hour: UInt64 = 3_600_000_000_000
        for (filters, bound, within, whole) in [([RowFilter](), 100, hour, false), ([], 500, hour, true), ([], 100, nil, true),
                                                ([.near(home, radiusKm: 20_100)], 100, hour, true)] as [([RowFilter], Int, UInt64?, Bool)] {
            var request = SectionedFetchRequest(predicate: QuakePredicate(searchText: "", rowFilters: filters),
                                                sortDescriptor: QuakeSortDescriptor(.distance), timeZone: Self.utc)
            request.distanceReference = DistanceReference(origin: home)
            let fresh = try FetchedResultsController(container: store.container, request: request)
            defer { fresh.close() }
            let all = try fresh.rows(in: 0..<fresh.count)
            #expect(all.count == 500)
            // The first quake past 6,000 km: both walks from it (outward, and inward from the
            // antipode, more than 5,000 km away too) read every row at once.
            let offset = try #require(all.firstIndex { home.distance(to: GeoPoint(latitude: $0.latitude, longitude: $0.longitude)) > 6_000 })
            var reader = ProvisionalReader(request: request, days: DayCalendar(timeZone: Self.utc))
            reader.scanAllRowLimit = bound
            let label = "filters \(filters) bound \(bound) limit \(String(describing: within))"
            try context.read { db in
                let statement = try db.prepare("SELECT \(RowKeys.columns) FROM quake WHERE code = ?")
                try statement.bind(all[offset].code, at: 1)
                #expect(try statement.step())
                let keys = RowKeys(statement)
                var partial = false
                let after = try reader.rows(db, from: keys, forward: true, limit: 60, within: within, partial: &partial)
                let before = try reader.rows(db, from: keys, forward: false, limit: 60, within: within, partial: &partial)
                if whole {
                    #expect(!partial, "\(label)")
                    #expect(after.map(\.row) == Array(all[offset..<offset + 60]), "\(label)")
                    #expect(before.map(\.row) == Array(all[offset - 60..<offset].reversed()), "\(label)")
                } else {
                    #expect(partial, "\(label)")
                    #expect(after.map(\.row.code) == [all[offset].code], "\(label)")
                    #expect(before.isEmpty, "\(label)")
                }
            }
        }
    }

    /// A window cut short by its time limit still holds the quake it was read around (when it
    /// matches), at its anchor offset: otherwise a restored selection would land on a
    /// neighbour and stay there. Seen as a relaunch selecting the last quake of "< 100 km"
    /// instead of the saved first quake of "100–300 km".
    @Test func aWindowCutShortStillHoldsItsAnchor() throws {
        let store = try Self.makeStore()
        defer { store.remove() }
        let (results, _) = try Self.provisionalResults(store)
        defer { results.close() }
        var rng = SeededGenerator(seed: 23)
        var checked = 0
        for _ in 0..<80 {
            let request = Self.randomRequest(&rng)
            let fresh = try FetchedResultsController(container: store.container, request: request)
            defer { fresh.close() }
            guard fresh.count > 0 else { continue }
            // A quake that matches: the first of a section half the time (a band's first row).
            let offset = Bool.random(using: &rng)
                ? fresh.offset(ofSection: Int.random(in: 0..<fresh.sections.count, using: &rng))
                : Int.random(in: 0..<fresh.count, using: &rng)
            let code = try #require(try fresh.rows(in: offset..<offset + 1).first?.code)
            for limit: Duration? in [.zero, nil] {
                results.windowLimit = limit
                let window = try results.provisionalWindow(for: request, around: code)
                let anchorOffset = try #require(window.anchorOffset, "\(request) \(code)")
                #expect(window.rows[anchorOffset].code == code, "\(request) \(code) limit \(String(describing: limit))")
                let section = window.sections[window.indexPath(forOffset: anchorOffset).section]
                #expect(section.id == fresh.sections[fresh.indexPath(forOffset: offset).section].id, "\(request) \(code)")
            }
            checked += 1
        }
        #expect(checked > 40)
        try results.configure(SectionedFetchRequest(timeZone: Self.utc), around: nil)
    }

    @Test func aQuickRequestIsExactAtOnce() throws {
        let store = try Self.makeStore(count: 50)
        defer { store.remove() }
        let results = try ResultsEngine(container: store.container, request: SectionedFetchRequest(timeZone: Self.utc),
                                              budget: nil)
        defer { results.close() }
        try results.configure(SectionedFetchRequest(predicate: QuakePredicate(searchText: "fiji"), timeZone: Self.utc), around: "v3")
        #expect(!results.isProvisional)
        try Self.expectExact(results, store, anchor: "v3")
    }

    /// Whether a distance sort builds its table is known before configuring: only when it is not
    /// the table the controller holds. A build bigger than a deadline fits is not tried under one
    /// (`rebuildsLargeDistanceTable`); a store of 50 quakes is not that.
    @Test func distanceRebuildIsKnownBeforeConfiguring() throws {
        let store = try Self.makeStore(count: 50)
        defer { store.remove() }
        let controller = try FetchedResultsController(container: store.container, request: SectionedFetchRequest(timeZone: Self.utc))
        defer { controller.close() }
        var request = SectionedFetchRequest(sortDescriptor: QuakeSortDescriptor(.distance), timeZone: Self.utc)
        request.distanceReference = DistanceReference(origin: GeoPoint(latitude: 35.68, longitude: 139.69))
        #expect(controller.rebuildsDistances(for: request))
        #expect(try !controller.rebuildsLargeDistanceTable(for: request))
        try controller.configure(request)
        #expect(!controller.rebuildsDistances(for: request))
        var reversed = request
        reversed.sortDescriptor = QuakeSortDescriptor(.distance, ascending: !request.sortDescriptor.ascending)
        #expect(!controller.rebuildsDistances(for: reversed))
        var elsewhere = request
        elsewhere.distanceReference = DistanceReference(origin: GeoPoint(latitude: 0, longitude: 0))
        #expect(controller.rebuildsDistances(for: elsewhere))
        var searched = request
        searched.predicate = QuakePredicate(searchText: "a")
        #expect(controller.rebuildsDistances(for: searched))
        #expect(!controller.rebuildsDistances(for: SectionedFetchRequest(timeZone: Self.utc)))
    }
}
