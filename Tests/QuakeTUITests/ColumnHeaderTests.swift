import Foundation
import QuakeModel
import QuakeStore
@testable import QuakeTUI
@testable import QuakeTUIRuntime
import QuakeTestSupport
import Testing

/// Issue 31: the row naming the list's columns, the sort column kept beside the detail, and
/// where `]`, `[` and `open CODE` put what they jump to.
@Suite struct ColumnHeaderTests {
    static let tokyo = GeoPoint(latitude: 35.68, longitude: 139.69)

    /// The fixture's quakes in distance bands from Tokyo, nearest first.
    static func distanceModel(columns: Int, rows: Int = 24, detail: DetailModel? = nil) -> ScreenModel {
        let q = Fixtures.quakes
        let lines: [ListLine] = [
            .section(SectionLine(id: "1000", title: "1,000–3,000 km", count: 1)), .quake(q[0]),
            .section(SectionLine(id: "3000", title: "≥ 3,000 km", count: 3)), .quake(q[1]), .quake(q[2]), .quake(q[3]),
        ]
        var model = Fixtures.model(columns: columns, rows: rows, lines: lines, sort: .distance, detail: detail)
        model.header.ascending = true
        model.display.home = tokyo
        return model
    }

    /// Hualien's distance from Tokyo as the list shows it.
    static var hualien: String {
        QuakeFormat.homeDistance(kilometres: tokyo.distance(to: GeoPoint(latitude: 23.58, longitude: 121.77)), unit: .km)
    }

    @Test func theHeaderRowNamesTheColumnsShownAndMarksTheDistanceSort() {
        let buffer = Screen.render(Self.distanceModel(columns: 100))
        assertSnapshot(buffer, named: "list-headers-distance-100x24")
        #expect(buffer.line(1) == "   mag        place                                to home ↑  UTC                   depth      time ")
    }

    /// Beside the detail (120 columns: a 54-column list) the distance sort keeps its distances;
    /// the time of day and the depth give way.
    @Test func besideTheDetailTheSortColumnStays() {
        let buffer = Screen.render(Self.distanceModel(columns: 120, detail: DetailModel(tab: .detail, record: Fixtures.record)))
        assertSnapshot(buffer, named: "list-headers-distance-120x24-detail")
        #expect(buffer.line(1).hasPrefix("   mag   place                    to home ↑      time │"), "\(buffer.line(1))")
        #expect(buffer.line(3).contains(Self.hualien), "\(buffer.line(3))")
        // Unsorted by distance, the same pane keeps the depth instead (the place keeps its room first).
        var byTime = Self.distanceModel(columns: 120, detail: DetailModel(tab: .detail, record: Fixtures.record))
        byTime.header.sortOrder = .time
        #expect(!Screen.render(byTime).line(3).contains(Self.hualien))
    }

    @Test func wideAndLocalTheHeaderNamesEveryColumn() {
        var model = Fixtures.model(columns: 200, rows: 20, sort: .region)
        model.header.ascending = true
        model.display.timeZone = .local
        let buffer = Screen.render(model)
        assertSnapshot(buffer, named: "list-headers-region-local-200x20")
        let header = buffer.line(1)
        for name in ["mag", "place ↑", "local", "depth", "epicentre", "code", "time"] {
            #expect(header.contains(name), "\(name) in \(header)")
        }
    }

    @Test func belowTwentyRowsThereIsNoHeaderRowUntilCTurnsItOn() throws {
        #expect(!AppState(sceneID: "t", rows: 19).showsColumnHeaders)
        #expect(AppState(sceneID: "t", rows: 20).showsColumnHeaders)
        let model = try BrowserModelTests.makeModel(BrowserModelTests.makeSource(), rows: 12)
        try model.restore(selectedCode: nil, topCode: nil)
        #expect(model.listHeight == 10)
        var expected = model.state
        let effects = try model.send(.toggleColumnHeaders)
        expected.columnHeaders = true
        expected.restoredPlacement = nil  // the first key leaves the restored screen
        #expect(model.state == expected && effects.contains(.saveScene))
        #expect(model.listHeight == 9)
        let frame = Screen.render(try model.screenModel(RestoreWalkTests.context))
        #expect(frame.line(1).hasPrefix("   mag        place"), "\(frame.text)")  // the magnitude's type under `mag`
        #expect(frame.line(2).hasPrefix("▾ "), "\(frame.text)")
        try model.send(.toggleColumnHeaders)
        #expect(model.state.columnHeaders == false && model.listHeight == 10)
        #expect(Screen.render(try model.screenModel(RestoreWalkTests.context)).line(1).hasPrefix("▾ "))
    }
}

/// Where a jump puts its target (issue 31): `]` and `[` the section's header on the list's first
/// line, `open CODE` (and handoff, `n`) a quake from off screen on the upper third.
@Suite struct JumpPlacementTests {
    /// BrowserModelTests' quakes: lines 0 H, 1–5, 6 H, 7–11, 12 H, 13–17; 12 rows show 10 lines.
    static func model() throws -> BrowserModel {
        try NavigationTests.model(BrowserModelTests.makeSource(), rows: 12)
    }

    @Test func sectionJumpsPutTheHeaderOnTheFirstLine() throws {
        let model = try Self.model()
        try model.send(.nextSection)
        #expect(model.state.topLine == 6 && model.state.cursorLine == 7)
        // The last section: as near the top as the list's end allows (18 lines, 10 shown).
        try model.send(.nextSection)
        #expect(model.state.topLine == 8 && model.state.cursorLine == 13)
        try model.send(.previousSection)
        #expect(model.state.topLine == 6 && model.state.cursorLine == 7)
    }

    @Test func anOpenedQuakeFromOffScreenLandsOnTheUpperThird() throws {
        let model = try Self.model()
        #expect(model.state.topLine == 0)
        // q11 is line 10, just below the 10 lines shown.
        try model.send(.continueActivity(code: "q11"))
        #expect(model.state.cursorLine == 10 && model.state.selectionLine == model.listHeight / 3)
        // One already on screen: the list does not move.
        try model.send(.continueActivity(code: "q13"))
        #expect(model.state.cursorLine == 8 && model.state.topLine == 10 - model.listHeight / 3)
    }
}

/// The one formatter of counts (issue 31), shared by the browser and the command line.
@Suite struct CountFormatTests {
    @Test func digitsAreGroupedAndOneIsSingular() {
        #expect(CountFormat.grouped(0) == "0" && CountFormat.grouped(999) == "999" && CountFormat.grouped(1000) == "1,000")
        #expect(CountFormat.grouped(12_569) == "12,569" && CountFormat.grouped(-1234) == "-1,234")
        #expect(CountFormat.grouped(Int.min) == "-9,223,372,036,854,775,808")  // no abs() to trap on
        #expect(CountFormat.grouped(Int64(1_234_567)) == "1,234,567")
        #expect(CountFormat.quakes(1) == "1 quake" && CountFormat.quakes(0) == "0 quakes" && CountFormat.quakes(12_569) == "12,569 quakes")
        #expect(CountFormat.count(1, "window") == "1 window" && CountFormat.count(2, "window") == "2 windows")
        #expect(CountFormat.count(3, "analysis", plural: "analyses") == "3 analyses")
        #expect(QuakeFormat.count(-1) == CountFormat.grouped(-1))
    }
}
