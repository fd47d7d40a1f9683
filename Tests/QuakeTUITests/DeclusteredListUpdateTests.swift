import Foundation
import QuakeModel
import QuakeStore
@testable import QuakeTUI
@testable import QuakeTUIRuntime
import QuakeTestSupport
import Testing

/// The list declustered (`:decluster gk`, issue 54): the update asks for the list's background
/// with a new generation, shows every quake labelled `declustering…` until it comes, then puts
/// the kept ids in its request (`RowFilter.declustered`), so the list, its count and its header
/// say the same; a stale answer is dropped, a new list asks again, `:decluster off` shows all.
@Suite struct DeclusteredListUpdateTests {
    static func run(_ model: BrowserModel, _ line: String) throws -> [Effect] {
        try model.send(.beginCommand)
        for character in line { try model.send(.commandInput(String(character))) }
        return try model.send(.runCommand)
    }

    /// A declustering that fails says why, what the list shows instead and what to do, and the
    /// header does not claim a background.
    @Test func aFailedDeclusteringSaysWhyAndTheListStaysWhole() throws {
        let model = try BrowserUpdateTests.makeModel(BrowserUpdateTests.makeSource())
        _ = try Self.run(model, "decluster gk")
        try model.send(.listDeclusteringFailed(generation: 1, message: "disk I/O error (quakes.sqlite)"))
        #expect(model.state.status.message == "Could not decluster the list by Gardner–Knopoff: disk I/O error (quakes.sqlite). "
            + "The list shows every quake; :decluster off to stop asking, or the same :decluster to try again")
        #expect(model.state.status.isError)
        #expect(model.state.request == model.state.listRequest)
        let header = try BrowserUpdateTests.text(model)[0]
        #expect(header.contains("12 quakes") && header.contains("not declustered (Gardner–Knopoff failed)"), "\(header)")
    }

    @Test func theListIsTheBackgroundOnceItsDeclusteringComes() throws {
        let source = BrowserUpdateTests.makeSource()
        let model = try BrowserUpdateTests.makeModel(source)
        let list = Fixtures.listRequest(model)
        let effects = try Self.run(model, "decluster gk")
        #expect(effects.contains(.declusterList(list, method: .gk, generation: 1)), "\(effects)")
        #expect(effects.contains(.saveScene))
        var expected = DeclusterState()
        expected.method = .gk
        expected.generation = 1
        expected.request = list
        expected.requestMethod = .gk
        expected.isPending = true
        #expect(model.state.decluster == expected)
        // Not declustered yet: every quake, and the header says so.
        #expect(model.state.request == model.state.listRequest)
        var header = try BrowserUpdateTests.text(model)[0]
        #expect(header.contains("12 quakes") && header.contains("declustering…"), "\(header)")

        try model.send(.listDeclusteringProgress(generation: 1, fraction: 0.43))
        #expect(try BrowserUpdateTests.text(model)[0].contains("declustering 43 %"))

        // The answer, as the runtime computes it on the store: the M 5 of the first day alone
        // (the other eleven, at the same epicentre within two days, are in its window).
        let kept = try source.store.read { db in try db.declusteredSet(of: list, method: .gk) }
        #expect(kept.keptCount == 1 && kept.declusteredCount == 12)
        // A stale answer changes nothing.
        let before = model.state
        try model.send(.listDeclustered(generation: 0, kept))
        #expect(model.state == before)
        try model.act(.listDeclustered(generation: 1, kept))
        expected.isPending = false
        expected.result = kept
        expected.resultRequest = list
        #expect(model.state.decluster == expected)
        #expect(model.state.request.predicate.rowFilters == [.declustered(kept)])
        #expect(model.results.count == 1 && model.state.selectedCode == "f03")
        header = try BrowserUpdateTests.text(model)[0]
        #expect(header.contains("1 quake │") && header.contains("declustered (Gardner–Knopoff): 1 of 12"), "\(header)")

        // A store change keeps the background applied, marked as being redone.
        let changed = try model.send(.storeChanged)
        #expect(changed.contains(.declusterList(list, method: .gk, generation: 2)), "\(changed)")
        #expect(model.state.request.predicate.rowFilters == [.declustered(kept)])
        #expect(try BrowserUpdateTests.text(model)[0].contains("1 of 12 …"))
        try model.act(.listDeclustered(generation: 2, kept))

        // Another list (a minimum magnitude) is not declustered until its own answer comes.
        let minimum = try model.send(.cycleMinimumMagnitude)
        let strong = Fixtures.listRequest(model)
        #expect(minimum.contains(.declusterList(strong, method: .gk, generation: 3)), "\(minimum)")
        #expect(model.state.request == model.state.listRequest)

        // Off: every quake, whatever was pending.
        let off = try Self.run(model, "decluster off")
        #expect(off.contains(.cancelListDeclustering), "\(off)")
        #expect(model.state.decluster.method == nil && model.state.statistics.declustering == nil)
        #expect(!(try BrowserUpdateTests.text(model)[0].contains("declust")))
    }
}
