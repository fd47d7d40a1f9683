import Foundation
import QuakeModel
import QuakeStore
@testable import QuakeTUI
@testable import QuakeTUIRuntime
import QuakeTestSupport
import Testing

/// `BrowserModel` carrying out the update's reads against a source that misbehaves.
@Suite struct BrowserModelReadTests {
    /// The in-memory source, except that it gives no rows at all: as a source whose count said
    /// more than it could read.
    final class RowlessSource: ResultsSource {
        let inner: InMemoryResultsSource
        private(set) var rowReads = 0
        init(_ inner: InMemoryResultsSource) { self.inner = inner }
        var request: SectionedFetchRequest { inner.request }
        var sections: [QuakeSection] { inner.sections }
        var count: Int { inner.count }
        var rowsMaterialized: Int { 0 }
        func configure(_ request: SectionedFetchRequest) throws { try inner.configure(request) }
        func rows(in range: Range<Int>) throws -> [QuakeRow] {
            rowReads += 1
            return []
        }
        func indexPath(forOffset offset: Int) -> (section: Int, row: Int) { inner.indexPath(forOffset: offset) }
        func offset(ofSection section: Int) -> Int { inner.offset(ofSection: section) }
        func offset(ofCode code: String) throws -> Int? { try inner.offset(ofCode: code) }
        func anchor(code: String) throws -> Int? { try inner.anchor(code: code) }
        func quake(code: String) throws -> StoredQuake? { try inner.quake(code: code) }
        func eventTypes() throws -> [String] { try inner.eventTypes() }
        func merge() throws -> ResultChanges? { try inner.merge() }
        func close() {}
    }

    @Test func rowsASourceCannotGiveAreAskedForOnceAKeyNotForever() throws {
        let source = RowlessSource(BrowserUpdateTests.makeSource())
        let model = try BrowserModel(state: AppState(sceneID: "t", settings: AppSettings(timeZone: .utc), columns: 80, rows: 12),
                                     source: source)
        try model.restore(AppState.RestoredSelection())
        let before = source.rowReads
        try model.send(.moveDown)
        try model.send(.nextSortOrder)
        #expect(source.rowReads - before <= 2)  // once for the key, once for the sort's answer
        #expect(model.state.selectedCode == nil)  // no row, no quake to select
        _ = try model.screenModel(FrameContext(now: 0, isLive: false))  // a frame tries once more, and draws
        #expect(source.rowReads - before <= 3)
    }
}
