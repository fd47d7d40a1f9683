import Foundation
import QuakeModel
import QuakeStore
@testable import QuakeTUI
@testable import QuakeTUIRuntime
import QuakeTestSupport
import Testing

/// The statistics view's update (issue 32): `=` asks for the list's statistics with a new
/// generation, every new list or store change asks again, and only the newest answer is kept,
/// however late or out of order the answers come. Whole states compared.
@Suite struct StatisticsUpdateTests {
    static func model() throws -> BrowserModel { try BrowserUpdateTests.makeModel(BrowserUpdateTests.makeSource()) }

    /// Statistics that tell one answer from another: `count` quakes in Alaska.
    static func statistics(_ count: Int) -> CatalogueStatistics {
        var stats = CatalogueStatistics(timeZone: TimeZone(identifier: "UTC")!)
        for index in 0..<count { stats.add(magnitude: 2 + Double(index) / 10, depth: 10, time: BrowserUpdateTests.start, region: "Alaska") }
        return stats
    }

    @Test func openingTheViewAsksForTheStatisticsOfTheList() throws {
        let model = try Self.model()
        var expected = model.state
        let effects = try model.send(.toggleStatistics)
        let request = Fixtures.listRequest(model)
        #expect(effects == [.saveScene, .computeStatistics(request, generation: 1)])
        expected.statistics.isPresented = true
        expected.statistics.generation = 1
        expected.statistics.request = request
        expected.statistics.isPending = true
        expected.restoredPlacement = nil  // the first key leaves the restored screen
        #expect(model.state == expected)

        expected = model.state
        try model.send(.statisticsComputed(generation: 1, Self.statistics(12)))
        expected.statistics.result = Self.statistics(12)
        expected.statistics.isPending = false
        #expect(model.state == expected)
        #expect(try BrowserUpdateTests.text(model)[1].contains("Statistics of the list  12 quakes"))
    }

    /// `:decluster gk` asks for the statistics of the background with a new generation (the old
    /// numbers, of the whole list, are dropped); `:decluster off` asks for the whole list again;
    /// the counts that come first are shown, still pending, until the full answer.
    @Test func declusteringAsksForTheBackground() throws {
        let model = try Self.model()
        try model.send(.toggleStatistics)
        try model.send(.statisticsComputed(generation: 1, Self.statistics(12)))
        let request = Fixtures.listRequest(model)
        try model.send(.beginCommand)
        for character in "decluster gk" { try model.send(.commandInput(String(character))) }
        var expected = model.state
        let effects = try model.send(.runCommand)
        #expect(effects.contains(.computeStatistics(request, declustering: .gk, generation: 2)), "\(effects)")
        expected.statistics.declustering = .gk
        expected.statistics.resultDeclustering = .gk
        expected.statistics.generation = 2
        expected.statistics.isPending = true
        expected.statistics.result = nil
        #expect(model.state.statistics == expected.statistics)
        #expect(model.state.status.message == "The list and its statistics (=) of the background: declustered by Gardner–Knopoff 1974")

        try model.send(.statisticsPartial(generation: 2, Self.statistics(5)))
        #expect(model.state.statistics.result == Self.statistics(5) && model.state.statistics.isPending)
        try model.send(.statisticsComputed(generation: 2, Self.statistics(4)))
        #expect(model.state.statistics.result == Self.statistics(4) && !model.state.statistics.isPending)

        try model.send(.beginCommand)
        for character in "decluster off" { try model.send(.commandInput(String(character))) }
        #expect(try model.send(.runCommand).contains(.computeStatistics(request, generation: 3)))
        #expect(model.state.statistics.declustering == nil)
    }

    /// The statistics of the background, `count` quakes kept and `removed` taken out by Gardner–Knopoff.
    static func background(_ count: Int, removed: Int) -> CatalogueStatistics {
        statistics(count).including(CatalogueEvents(), declustered: DeclusterSummary(method: .gk, removed: removed))
    }

    /// Declustering says how far it is (`Action.statisticsProgress`, from the runtime), in the
    /// view's title, until its answer; a store change keeps the numbers the view has, marked
    /// provisional (`…`) beside the new computation's progress, never shown as exact; progress
    /// of another generation, or after the answer, changes nothing.
    @Test func declusteringProgressShowsWhileTheNumbersAreProvisional() throws {
        let model = try Self.model()
        try model.send(.toggleStatistics)
        try model.send(.beginCommand)
        for character in "decluster gk" { try model.send(.commandInput(String(character))) }
        try model.send(.runCommand)
        let request = Fixtures.listRequest(model)
        var expected = model.state
        #expect(expected.statistics.generation == 2 && expected.statistics.isPending && expected.statistics.progress == nil)

        #expect(try model.send(.statisticsProgress(generation: 2, fraction: 0.437)) == [])
        expected.statistics.progress = 0.437
        #expect(model.state == expected)
        var title = try BrowserUpdateTests.text(model)[1]
        #expect(title.contains("Statistics of the background  …  declustering 43 %"), "\(title)")
        // The list's older computation (generation 1) reporting late changes nothing.
        try model.send(.statisticsProgress(generation: 1, fraction: 0.9))
        #expect(model.state == expected)

        try model.send(.statisticsComputed(generation: 2, Self.background(4, removed: 3)))
        expected.statistics.result = Self.background(4, removed: 3)
        expected.statistics.isPending = false
        expected.statistics.progress = nil
        #expect(model.state == expected)
        title = try BrowserUpdateTests.text(model)[1]
        #expect(title.contains("Statistics of the background  4 quakes  (Gardner–Knopoff"), "\(title)")
        #expect(!title.contains("quakes …") && !title.contains("declustering"), "\(title)")
        try model.send(.statisticsProgress(generation: 2, fraction: 1))
        #expect(model.state == expected)

        // A commit: computed again, the numbers kept but provisional, with the new progress (and
        // the list, declustered too, declustered again: `DeclusteredListUpdateTests`).
        #expect(try model.send(.storeChanged) == [.declusterList(request, method: .gk, generation: 2),
                                                  .computeStatistics(request, declustering: .gk, generation: 3)])
        expected.statistics.generation = 3
        expected.statistics.isPending = true
        expected.decluster.generation = 2
        #expect(model.state == expected)
        #expect(try BrowserUpdateTests.text(model)[1].contains("4 quakes …"))
        try model.send(.statisticsProgress(generation: 3, fraction: 0.5))
        expected.statistics.progress = 0.5
        #expect(model.state == expected)
        title = try BrowserUpdateTests.text(model)[1]
        #expect(title.contains("Statistics of the background  4 quakes …  declustering 50 %"), "\(title)")

        try model.send(.statisticsComputed(generation: 3, Self.background(5, removed: 3)))
        expected.statistics.result = Self.background(5, removed: 3)
        expected.statistics.isPending = false
        expected.statistics.progress = nil
        #expect(model.state == expected)
    }

    /// The same list and method again (`:decluster off`, then `gk`) asks with a new generation
    /// for the same request: the runtime answers it from what it kept (`StatisticsCache`), at
    /// once, and the update takes that answer as any other.
    @Test func theSameListAgainAsksTheSameRequest() throws {
        let model = try Self.model()
        try model.send(.toggleStatistics)
        func run(_ command: String) throws -> [Effect] {
            try model.send(.beginCommand)
            for character in command { try model.send(.commandInput(String(character))) }
            return try model.send(.runCommand)
        }
        let request = Fixtures.listRequest(model)
        #expect(try run("decluster gk").contains(.computeStatistics(request, declustering: .gk, generation: 2)))
        try model.send(.statisticsComputed(generation: 2, Self.background(4, removed: 3)))
        #expect(try run("decluster off").contains(.computeStatistics(request, generation: 3)))
        #expect(try run("decluster gk").contains(.computeStatistics(request, declustering: .gk, generation: 4)))
        var expected = model.state
        #expect(expected.statistics.result == nil && expected.statistics.isPending)
        try model.send(.statisticsComputed(generation: 4, Self.background(4, removed: 3)))
        expected.statistics.result = Self.background(4, removed: 3)
        expected.statistics.isPending = false
        #expect(model.state == expected)
    }

    /// A search keystroke while the first answer is on its way: the first answer, for the old
    /// list, arrives after the new request and is dropped; the newest is kept.
    @Test func aSupersededAnswerIsDropped() throws {
        let model = try Self.model()
        try model.send(.toggleStatistics)
        try model.send(.beginSearch)
        let effects = try model.send(.searchInput("chi"))
        let chile = Fixtures.listRequest(model)
        #expect(effects == [.saveScene, .computeStatistics(chile, generation: 2)])
        let waiting = model.state
        #expect(waiting.statistics.generation == 2 && waiting.statistics.isPending && waiting.statistics.result == nil)

        #expect(try model.send(.statisticsComputed(generation: 1, Self.statistics(12))) == [])
        #expect(model.state == waiting)

        try model.send(.statisticsComputed(generation: 2, Self.statistics(6)))
        var expected = waiting
        expected.statistics.result = Self.statistics(6)
        expected.statistics.isPending = false
        #expect(model.state == expected)
    }

    /// Answers out of order: the newest arrives first and an older one after it changes nothing,
    /// not even a failure of the older one.
    @Test func anOlderAnswerAfterTheNewestChangesNothing() throws {
        let model = try Self.model()
        try model.send(.toggleStatistics)              // 1
        try model.send(.cycleMinimumMagnitude)         // 2: m ≥ 2.5
        try model.send(.cycleMinimumMagnitude)         // 3: m ≥ 4.5
        try model.send(.statisticsComputed(generation: 3, Self.statistics(3)))
        let settled = model.state
        #expect(settled.statistics.result == Self.statistics(3) && !settled.statistics.isPending)
        try model.send(.statisticsComputed(generation: 2, Self.statistics(9)))
        try model.send(.statisticsFailed(generation: 1, message: "interrupted"))
        #expect(model.state == settled)
    }

    /// An import anywhere: the open view asks again and keeps showing the numbers it has (marked
    /// pending) until the new ones come; a closed view asks nothing.
    @Test func aStoreChangeWhileOpenAsksAgainKeepingTheNumbers() throws {
        let model = try Self.model()
        #expect(!(try model.send(.storeChanged)).contains { if case .computeStatistics = $0 { true } else { false } })
        try model.send(.toggleStatistics)
        try model.send(.statisticsComputed(generation: 1, Self.statistics(12)))
        var expected = model.state
        #expect(try model.send(.storeChanged) == [.computeStatistics(Fixtures.listRequest(model), generation: 2)])
        expected.statistics.generation = 2
        expected.statistics.isPending = true
        #expect(model.state == expected)
        #expect(try BrowserUpdateTests.text(model)[1].contains("12 quakes …"))
        try model.send(.statisticsComputed(generation: 2, Self.statistics(13)))
        expected.statistics.isPending = false
        expected.statistics.result = Self.statistics(13)
        #expect(model.state == expected)
    }

    /// A sort changes the order, not the quakes: nothing to compute again.
    @Test func sortingAsksNothing() throws {
        let model = try Self.model()
        try model.send(.toggleStatistics)
        try model.send(.statisticsComputed(generation: 1, Self.statistics(12)))
        let effects = try model.send(.nextSortOrder) + model.send(.reverseSortDirection)
        #expect(!effects.contains { if case .computeStatistics = $0 { true } else { false } })
        #expect(model.state.statistics.generation == 1 && model.state.statistics.result == Self.statistics(12))
    }

    @Test func aFailureIsShownUntilTheNextAnswer() throws {
        let model = try Self.model()
        try model.send(.toggleStatistics)
        try model.send(.statisticsFailed(generation: 1, message: "Could not read the store: disk I/O error."))
        #expect(model.state.statistics.failure == "Could not read the store: disk I/O error." && !model.state.statistics.isPending)
        try model.send(.storeChanged)
        #expect(model.state.statistics.failure == nil && model.state.statistics.isPending)
    }

    /// `=` and `Esc` close it (`Esc` while searching still cancels the search first); the detail
    /// view and the statistics share a pane, so opening one closes the other.
    @Test func keysOpenAndCloseTheView() throws {
        let model = try Self.model()
        #expect(KeyMap.action(for: .character("="), in: model.state) == .toggleStatistics)
        try model.send(.toggleStatistics)
        #expect(KeyMap.action(for: .character("="), in: model.state) == .toggleStatistics)
        #expect(KeyMap.action(for: .escape, in: model.state) == .toggleStatistics)
        #expect(KeyMap.action(for: .character("j"), in: model.state) == .moveDown)
        try model.send(.toggleStatistics)
        #expect(!model.state.statistics.isPresented)

        try model.send(.toggleStatistics)
        try model.send(.openDetail)
        #expect(model.state.detailPresented && !model.state.statistics.isPresented)
        try model.send(.toggleStatistics)
        #expect(!model.state.detailPresented && model.state.statistics.isPresented)
        try model.send(.beginSearch)
        #expect(KeyMap.action(for: .escape, in: model.state) == .cancelSearch)
    }

    /// Closing the view while its numbers are computed stops the computation (nobody would see
    /// them); opening it again asks again, and the stopped one's late answer is dropped. A view
    /// closed on an answer stops nothing.
    @Test func closingTheViewStopsItsComputation() throws {
        let model = try Self.model()
        try model.send(.toggleStatistics)
        var expected = model.state
        #expect(try model.send(.toggleStatistics) == [.saveScene, .cancelStatistics])
        expected.statistics.isPresented = false
        expected.statistics.isPending = false
        expected.statistics.request = nil
        #expect(model.state == expected)
        #expect(try model.send(.toggleStatistics) == [.saveScene, .computeStatistics(Fixtures.listRequest(model), generation: 2)])
        try model.send(.statisticsComputed(generation: 1, Self.statistics(12)))
        #expect(model.state.statistics.result == nil && model.state.statistics.isPending)
        try model.send(.statisticsComputed(generation: 2, Self.statistics(13)))
        #expect(try model.send(.toggleStatistics) == [.saveScene])
        #expect(model.state.statistics.result == Self.statistics(13))
    }

    /// A scene restored with the view open asks for its statistics once.
    @Test func aRestoredOpenViewAsksAgain() throws {
        var state = AppState(sceneID: "t", settings: AppSettings(timeZone: .utc), columns: 80, rows: 12)
        state.statistics.isPresented = true
        let model = try BrowserModel(state: state, source: BrowserUpdateTests.makeSource())
        try model.restore(AppState.RestoredSelection())
        #expect(model.resumeStatistics() == [.computeStatistics(Fixtures.listRequest(model), generation: 1)])
        #expect(model.resumeStatistics() == [])
    }
}
