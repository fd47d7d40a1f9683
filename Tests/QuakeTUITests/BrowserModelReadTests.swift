import Foundation
import QuakeModel
import QuakeStore
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
}
