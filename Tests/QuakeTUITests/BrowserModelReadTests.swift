import Foundation
import QuakeModel
@testable import QuakeStore
@testable import QuakeTUI
@testable import QuakeTUIRuntime
import QuakeTestSupport
import Testing

/// `BrowserModel` carrying out the update's reads when the store gives fewer rows than the
/// results' count says.
@Suite struct BrowserModelReadTests {
    /// Another process deletes every quake and the merge has not come yet: the results still
    /// count them, but reading rows the screen has not read gives none. The rows are asked for
    /// once a key, not forever (the key returns), and a frame draws; the merge then empties the list.
    @Test func rowsTheStoreCannotGiveAreAskedForOnceAKeyNotForever() throws {
        let source = ModelStore([])
        defer { source.close() }
        try source.store.generate(count: 3_000)
        let model = try BrowserModel(state: AppState(sceneID: "t", settings: AppSettings(timeZone: .utc), columns: 80, rows: 12),
                                     source: source)
        try model.restore(AppState.RestoredSelection())
        let counted = model.results.count
        #expect(counted == 3_000)
        let writer = try source.store.container.newBackgroundContext(author: "other")
        defer { writer.close() }
        try writer.performAndWait { tx in _ = try tx.deleteQuakes(codePrefix: "g") }
        try model.send(.last)  // the rows at the end were never read: none come
        try model.send(.nextSortOrder)
        _ = try model.screenModel(FrameContext(now: 0, isLive: false))  // a frame tries once more, and draws
        try model.send(.storeChanged)
        #expect(model.results.count == 0 && model.state.selectedCode == nil)
    }

    /// Rows on screen that can no longer be read (`BrowserModel.recover`), on a real store: the
    /// key's read throws, and the state is exactly as it was before the key (whole values
    /// compared), the engine on the state's request; once the store can be read again the same
    /// key lands where it does on a model that never failed.
    @Test func rowsThatCanNoLongerBeReadPutTheStateBackAsItWasBeforeTheKey() throws {
        let source = ModelStore([])
        defer { source.close() }
        try source.store.generate(count: 3_000)
        let state = AppState(sceneID: "t", settings: AppSettings(timeZone: .utc), columns: 80, rows: 12)
        let model = try BrowserModel(state: state, source: source)
        try model.restore(AppState.RestoredSelection())
        try model.send(.moveDown)
        let before = model.state
        // The rows at the end were never read; from now on no row can be read.
        let writer = try source.store.container.newBackgroundContext(author: "other")
        defer { writer.close() }
        try writer.performAndWait { tx in try tx.connection.execute("ALTER TABLE quake RENAME TO quake_away") }
        #expect(throws: (any Error).self) { try model.send(.last) }
        #expect(model.state == before)
        #expect(model.results.request == before.request)

        try writer.performAndWait { tx in try tx.connection.execute("ALTER TABLE quake_away RENAME TO quake") }
        try model.send(.last)
        let exact = try BrowserModel(state: state, source: source)
        try exact.restore(AppState.RestoredSelection())
        for action in [Action.moveDown, .last] { try exact.send(action) }
        #expect(model.state == exact.state)
        #expect(try RestoreWalkTests.screen(model) == RestoreWalkTests.screen(exact))
    }
}
