import Foundation
import QuakeModel
import QuakeStore
@testable import QuakeTUI
@testable import QuakeTUIRuntime
import QuakeTestSupport
import Testing

/// `@`, `~` and the sort cycle with and without a home, on the model over a real store in a temp dir
/// (the store's distance sort and near-home filter are checked in QuakeStoreTests'
/// `DistanceFetchTests` and `DistanceBandCountTests`).
@Suite struct BrowserDistanceTests {
    static let utc = AppSettings(timeZone: .utc)

    /// Five quakes east of Tokyo along the parallel, 0, 1, 2, 4 and 8 degrees of longitude away
    /// (about 0, 90, 181, 362 and 723 km); the newest is the farthest.
    static func makeSource() -> ModelStore {
        let offsets = [0.0, 1, 2, 4, 8]
        return ModelStore(offsets.enumerated().map { index, offset in
            QuakeRecord(code: "d\(index)", magnitude: 4, place: "\(Int(offset)) degrees east, Japan",
                        time: 1_700_006_400_000 + Int64(index) * 60_000, updated: 1,
                        latitude: 35.68, longitude: 139.69 + offset, depth: 10)
        })
    }

    static func makeModel(_ source: ModelStore, settings: AppSettings = utc,
                          sort: QuakeSortDescriptor = .init(.time)) throws -> BrowserModel {
        try BrowserModel(state: AppState(sceneID: "t", sort: sort, settings: settings, columns: 100, rows: 14), source: source)
    }

    @Test func atSetsHomeToTheSelectedQuakeAndReplacesIt() throws {
        let source = Self.makeSource()
        defer { source.close() }
        let model = try Self.makeModel(source)
        defer { model.close() }
        try model.restore(selectedCode: "d2", topCode: nil)
        var expected = model.state
        // The quake is read by an effect; its epicentre comes back as an action.
        #expect(try model.send(.setHomeToSelection) == [.readQuake(code: "d2", for: .setHome)])
        let effects = try model.performReads([.readQuake(code: "d2", for: .setHome)])
        expected.settings.home = GeoPoint(latitude: 35.68, longitude: 141.69)
        expected.status.message = model.state.status.message
        expected.messageLog = model.state.messageLog  // the message is logged too (L)
        expected.restoredPlacement = nil  // the first key ends the restored screen
        expected.results.request = expected.request  // the same rows, now with their distances
        #expect(model.state.messageLog.entries.map(\.text) == [model.state.status.message])
        #expect(model.state == expected)
        #expect(effects == [.saveHome(GeoPoint(latitude: 35.68, longitude: 141.69))])
        #expect(model.state.status.message?.hasPrefix("Home set to 35.68°N 141.69°E (the epicentre of d2)") == true)
        try model.restore(selectedCode: "d0", topCode: nil)
        #expect(try model.performReads(model.send(.setHomeToSelection)) == [.saveHome(GeoPoint(latitude: 35.68, longitude: 139.69))])
        #expect(model.state.settings.home == GeoPoint(latitude: 35.68, longitude: 139.69))
        let frame = try model.screenModel(FrameContext(now: 1_700_006_400_000, isLive: true))
        #expect(frame.display.home == GeoPoint(latitude: 35.68, longitude: 139.69))
    }

    /// A home named with `config home NAME …` is not lost to one key: `@` asks, `n` keeps it (name
    /// and place), `y` replaces it and drops the name.
    @Test func atAsksBeforeReplacingANamedHome() throws {
        let source = Self.makeSource()
        defer { source.close() }
        var settings = Self.utc
        (settings.home, settings.homeName) = (GeoPoint(latitude: 38.37, longitude: 34.03), "Aksaray")
        let model = try Self.makeModel(source, settings: settings)
        defer { model.close() }
        try model.restore(selectedCode: "d2", topCode: nil)
        #expect(try model.performReads(model.send(.setHomeToSelection)) == [])
        var asked = model.state
        #expect(asked.confirmation == .replaceNamedHome(name: "Aksaray", code: "d2", home: GeoPoint(latitude: 35.68, longitude: 141.69)))
        #expect(asked.status.message == "Replace home Aksaray by the epicentre of d2, and drop its name? y replaces it, n or Esc keeps it")
        #expect(asked.settings == settings)
        // n keeps it all.
        #expect(try model.send(.answer(.no)) == [])
        asked.confirmation = nil
        asked.status = model.state.status
        asked.messageLog = model.state.messageLog
        #expect(model.state == asked && model.state.status.message == "Home is still Aksaray")
        // y replaces it: the epicentre, no name, saved.
        _ = try model.performReads(model.send(.setHomeToSelection))
        #expect(try model.send(.answer(.yes)) == [.saveHome(GeoPoint(latitude: 35.68, longitude: 141.69))])
        #expect(model.state.confirmation == nil && model.state.settings.homeName == nil
                && model.state.settings.home == GeoPoint(latitude: 35.68, longitude: 141.69))
        #expect(model.state.status.message?.hasPrefix("Home set to 35.68°N 141.69°E (the epicentre of d2)") == true)
    }

    @Test func tildeWithoutHomeSaysHowToSetOne() throws {
        let source = Self.makeSource()
        defer { source.close() }
        let model = try Self.makeModel(source)
        defer { model.close() }
        try model.restore(selectedCode: "d2", topCode: nil)
        var expected = model.state
        #expect(try model.send(.toggleNearHome) == [])
        expected.status.message = "No home set: press @ on a quake, or run 'quaketui config home LAT,LON'"
        expected.status.isError = true
        expected.messageLog = model.state.messageLog  // the message is logged too (L)
        expected.restoredPlacement = nil  // the first key ends the restored screen
        #expect(model.state.messageLog.entries.map(\.text) == [expected.status.message])
        #expect(model.state == expected)
    }

    @Test func tildeKeepsOnlyQuakesWithinNearRadiusAndIsSavedPerScene() throws {
        let source = Self.makeSource()
        defer { source.close() }
        var settings = Self.utc
        settings.home = GeoPoint(latitude: 35.68, longitude: 139.69)
        settings.nearRadius = 200
        settings.homeName = "Shinjuku"
        let model = try Self.makeModel(source, settings: settings)
        defer { model.close() }
        try model.restore(selectedCode: "d1", topCode: nil)
        let effects = try model.send(.toggleNearHome)
        #expect(effects == [.saveScene])
        #expect(model.state.nearHome)
        #expect(model.results.count == 3)  // d0, d1, d2 (181 km); not d3 (362 km)
        #expect(model.state.selectedCode == "d1")
        // Home by its name (issue 55).
        #expect(model.state.status.message == "Showing quakes within 200 km of Shinjuku")
        let frame = try model.screenModel(FrameContext(now: 1_700_006_400_000, isLive: true))
        #expect(frame.header.nearHome == "near Shinjuku ≤ 200 km")
        try model.send(.toggleNearHome)
        #expect(!model.state.nearHome)
        #expect(model.results.count == 5)
    }

    @Test func theSortCycleTakesDistanceOnlyWithAHome() throws {
        let source = Self.makeSource()
        defer { source.close() }
        let model = try Self.makeModel(source)
        defer { model.close() }
        var orders: [QuakeSortOrder] = []
        for _ in 0..<4 {
            try model.send(.nextSortOrder)
            orders.append(model.state.sort.order)
        }
        #expect(orders == [.magnitude, .region, .depth, .time])
        var settings = Self.utc
        settings.home = GeoPoint(latitude: 35.68, longitude: 139.69)
        try model.send(.settingsChanged(settings))
        orders = []
        for _ in 0..<6 {
            try model.send(.nextSortOrder)
            orders.append(model.state.sort.order)
        }
        #expect(orders == [.magnitude, .region, .depth, .distance, .intensity, .time])
        for _ in 0..<4 { try model.send(.nextSortOrder) }
        #expect(model.state.sort == QuakeSortDescriptor(.distance, ascending: true))
        #expect(model.results.sections.map(\.title) == ["< 100 km", "100–300 km", "300–1,000 km"])
        #expect(try model.results.rows(in: 0..<5).map(\.code) == ["d0", "d1", "d2", "d3", "d4"])
        // Home removed in another pane: back to time, saying so.
        try model.send(.settingsChanged(Self.utc))
        #expect(model.state.sort == QuakeSortDescriptor(.time))
        #expect(model.state.status.message?.hasPrefix("Sorted by time: the distance sort needs a home") == true)
    }

    @Test func sReachesTheDepthSortShallowestFirstAndSReversesIt() throws {
        let source = ModelStore([(0, 35.0), (1, 8.0), (2, nil), (3, 150.0), (4, 12.5)].map { index, depth in
            QuakeRecord(code: "q\(index)", magnitude: 4, place: "Somewhere, Japan", time: 1_700_006_400_000 + Int64(index) * 60_000,
                        updated: 1, latitude: 35.68, longitude: 139.69, depth: depth)
        })
        let model = try Self.makeModel(source, sort: QuakeSortDescriptor(.region))
        defer { model.close() }
        try model.restore(selectedCode: "q4", topCode: nil)
        var expected = model.state
        try model.send(.nextSortOrder)
        expected.sort = QuakeSortDescriptor(.depth, ascending: true)
        #expect(model.state.sort == expected.sort)
        #expect(model.state.selectedCode == "q4")
        #expect(model.results.sections.map(\.title) == ["depth unknown", "0–10 km deep", "10–20 km deep", "30–40 km deep", "100–200 km deep"])
        #expect(try model.results.rows(in: 0..<5).map(\.code) == ["q2", "q1", "q4", "q0", "q3"])
        try model.send(.reverseSortDirection)
        #expect(model.state.sort == QuakeSortDescriptor(.depth, ascending: false))
        #expect(model.results.sections.map(\.title) == ["100–200 km deep", "30–40 km deep", "10–20 km deep", "0–10 km deep", "depth unknown"])
        #expect(model.state.selectedCode == "q4")
        let frame = try model.screenModel(FrameContext(now: 1_700_006_400_000, isLive: true))
        #expect(frame.header.sortOrder == .depth)
    }

    @Test func aRestoredDistanceSortWithoutHomeFallsBackToTime() throws {
        let source = Self.makeSource()
        defer { source.close() }
        let model = try Self.makeModel(source, sort: QuakeSortDescriptor(.distance))
        defer { model.close() }
        #expect(model.state.sort == QuakeSortDescriptor(.time))
        #expect(model.results.request.sortDescriptor.order == .time)
        #expect(model.state.status.message?.hasPrefix("Sorted by time") == true)
    }
}
