import Foundation
import QuakeModel
import QuakeStore
@testable import QuakeTUI
@testable import QuakeTUIRuntime
import QuakeTestSupport
import Testing

/// The Map tab's density update (issue 32): the tab asks for the list counted per cell of the
/// window it shows once the selected quake is read; `+`/`-`, a new list, a new selection (off the
/// world scale) or a store change ask again; only the newest answer is kept. Whole states compared.
@Suite struct MapDensityUpdateTests {
    /// Every fixture quake is at 33.4°S 70.6°W (`QuakeRecord.fixture`).
    static let (latitude, longitude) = (-33.4, -70.6)

    static func grid(_ window: GridWindow, count: Int) -> DensityGrid {
        DensityGrid(window: window, cells: [DensityGrid.Cell(row: 56, column: 109, count: count, maximumMagnitude: 5)])
    }

    /// The Map tab open on a read quake, as the runtime leaves it (its reads performed).
    static func mapShown() throws -> (BrowserModel, [Effect]) {
        let model = try BrowserUpdateTests.makeModel(BrowserUpdateTests.makeSource())
        let effects = try model.performReads(model.send(.selectTab(.map)))
        return (model, effects)
    }

    @Test func theMapTabAsksForTheDensityOfTheList() throws {
        let (model, effects) = try Self.mapShown()
        let world = GridWindow.world(cellDegrees: 1)
        #expect(effects.contains(.computeDensity(Fixtures.listRequest(model), window: world, generation: 1)))
        // Until the count answers, the scale says it is being counted, as the statistics do.
        let context = FrameContext(now: BrowserUpdateTests.start, isLive: true, localTimeZone: .gmt)
        let counting = try model.screenModel(context)
        #expect(counting.detail?.map == MapDensityModel(zoom: .world, grid: nil, isPending: true))
        #expect(Screen.render(counting).lines.contains { $0.contains("◉ ") && $0.trimmingCharacters(in: .whitespaces).hasSuffix("± world …") },
                "\(Screen.render(counting).text)")
        var expected = model.state
        try model.send(.densityComputed(generation: 1, Self.grid(world, count: 12)))
        expected.map.grid = Self.grid(world, count: 12)
        expected.map.isPending = false
        #expect(model.state == expected)
        let frame = try model.screenModel(FrameContext(now: BrowserUpdateTests.start, isLive: true, localTimeZone: .gmt))
        #expect(frame.detail?.map == MapDensityModel(zoom: .world, grid: Self.grid(world, count: 12)))
        #expect(Screen.render(frame).lines.contains { $0.contains("◉ ") && $0.trimmingCharacters(in: .whitespaces).hasSuffix("± world") },
                "\(Screen.render(frame).text)")
    }

    /// Leaving the Map tab while its count runs stops it; showing the tab again asks again. A
    /// new selection on the tab (its row still being read) stops nothing.
    @Test func leavingTheMapTabStopsItsCount() throws {
        let (model, _) = try Self.mapShown()
        let world = GridWindow.world(cellDegrees: 1)
        let moved = try model.send(.moveDown)
        #expect(!moved.contains(.cancelDensity), "\(moved)")
        #expect(model.state.map.isPending && model.state.map.generation == 1)
        #expect(try model.send(.selectTab(.detail)).contains(.cancelDensity))
        #expect(!model.state.map.isPending && model.state.map.request == nil && model.state.map.window == nil)
        let effects = try model.performReads(model.send(.selectTab(.map)))
        #expect(effects.contains(.computeDensity(Fixtures.listRequest(model), window: world, generation: 2)))
        try model.send(.densityComputed(generation: 1, Self.grid(world, count: 12)))
        #expect(model.state.map.isPending && model.state.map.grid == nil, "the stopped count's late answer is dropped")
        try model.send(.densityComputed(generation: 2, Self.grid(world, count: 13)))
        #expect(try model.send(.closeDetail) == [.saveScene], "a count answered stops nothing")
    }

    /// `+` twice: region, then local, each a window around the selected quake; a stale answer
    /// for the world arriving after them is dropped; `+` at local stays there.
    @Test func zoomingAsksForTheNewWindowAndDropsStaleAnswers() throws {
        let (model, _) = try Self.mapShown()
        let request = Fixtures.listRequest(model)
        #expect(KeyMap.action(for: .character("+"), in: model.state) == .zoomMap(1))
        #expect(KeyMap.action(for: .character("-"), in: model.state) == .zoomMap(-1))
        let region = GridWindow.around(latitude: Self.latitude, longitude: Self.longitude, latitudeSpan: 20, cellDegrees: 0.2)
        #expect(try model.send(.zoomMap(1)) == [.saveScene, .computeDensity(request, window: region, generation: 2)])
        let local = GridWindow.around(latitude: Self.latitude, longitude: Self.longitude, latitudeSpan: 2, cellDegrees: 0.02)
        #expect(try model.send(.zoomMap(1)) == [.saveScene, .computeDensity(request, window: local, generation: 3)])
        let waiting = model.state
        #expect(waiting.map.zoom == .local && waiting.map.grid == nil && waiting.map.isPending)
        try model.send(.densityComputed(generation: 1, Self.grid(.world(cellDegrees: 1), count: 12)))
        try model.send(.densityComputed(generation: 2, Self.grid(region, count: 12)))
        #expect(model.state == waiting)
        #expect(try model.send(.zoomMap(1)) == [])
        #expect(model.state == waiting)
    }

    /// At the region scale each quake has its own window: moving to a quake elsewhere asks for its
    /// window, and the map keeps drawing the density it has (the dots of the old window that fall
    /// in the new one) until the new count replaces it, instead of a map without dots meanwhile;
    /// zooming in and a new list keep it the same way.
    @Test func theDensityShownStaysUntilTheNewCountArrives() throws {
        let records = (0..<4).map { i in
            var record = QuakeRecord.fixture("m\(i)", magnitude: 3, time: BrowserUpdateTests.start - Int64(i) * 60_000)
            record.latitude = Self.latitude + Double(i)
            return record
        }
        let model = try BrowserUpdateTests.makeModel(ModelStore(records))
        _ = try model.performReads(model.send(.selectTab(.map)))
        func frameGrid() throws -> DensityGrid? {
            try model.screenModel(FrameContext(now: BrowserUpdateTests.start, isLive: true, localTimeZone: .gmt)).detail?.map.grid
        }
        func densityAsked(_ effects: [Effect]) -> GridWindow? {
            effects.lazy.compactMap { if case .computeDensity(_, let window, _) = $0 { window } else { nil } }.first
        }
        let region = try #require(densityAsked(model.performReads(model.send(.zoomMap(1)))))
        let counted = Self.grid(region, count: 4)
        try model.send(.densityComputed(generation: model.state.map.generation, counted))
        #expect(try frameGrid() == counted)

        let next = try #require(densityAsked(model.performReads(model.send(.moveDown))))
        #expect(next != region && model.state.map.isPending)
        #expect(model.state.map.grid == counted)
        #expect(try frameGrid() == counted)
        let recounted = Self.grid(next, count: 3)
        try model.send(.densityComputed(generation: model.state.map.generation, recounted))
        #expect(try frameGrid() == recounted)

        #expect(densityAsked(try model.performReads(model.send(.zoomMap(1)))) != nil)
        #expect(try frameGrid() == recounted)
        #expect(densityAsked(try model.performReads(model.send(.cycleMinimumMagnitude))) != nil)
        #expect(model.state.map.isPending && model.state.map.grid == recounted)
        #expect(try frameGrid() == recounted)
    }

    /// A new list asks again and keeps the grid until the new count replaces it; so does a store
    /// change; a closed Map tab asks nothing.
    @Test func aNewListOrAStoreChangeAsksAgain() throws {
        let (model, _) = try Self.mapShown()
        let world = GridWindow.world(cellDegrees: 1)
        try model.send(.densityComputed(generation: 1, Self.grid(world, count: 12)))
        var expected = model.state
        #expect(try model.send(.storeChanged).contains(.computeDensity(Fixtures.listRequest(model), window: world, generation: 2)))
        expected.map.generation = 2
        expected.map.isPending = true
        #expect(model.state.map == expected.map)
        try model.send(.cycleMinimumMagnitude)
        #expect(model.state.map.generation == 3 && model.state.map.grid == Self.grid(world, count: 12) && model.state.map.isPending)
        try model.send(.closeDetail)
        let closed = model.state.map
        #expect(!(try model.send(.storeChanged)).contains { if case .computeDensity = $0 { true } else { false } })
        #expect(model.state.map == closed)
    }
}
