import Foundation
import Testing
@testable import QuakeTUI
@testable import QuakeTUIRuntime

@Suite struct LayoutTests {
    @Test func narrowShowsOnePaneWideShowsBoth() {
        let narrow = ScreenLayout(size: Size(columns: 80, rows: 24), detailPresented: true)
        #expect(narrow.list == nil)
        #expect(narrow.detail == Rect(x: 0, y: 1, width: 80, height: 22))
        let wide = ScreenLayout(size: Size(columns: 160, rows: 40), detailPresented: true)
        #expect(wide.list == Rect(x: 0, y: 1, width: 72, height: 38))
        #expect(wide.detail == Rect(x: 73, y: 1, width: 87, height: 38))
        let closed = ScreenLayout(size: Size(columns: 160, rows: 40), detailPresented: false)
        #expect(closed.list == Rect(x: 0, y: 1, width: 160, height: 38))
        #expect(closed.listRows == 38)
    }

    @Test func tooSmallBelowTheMinimum() {
        #expect(!ScreenLayout(size: Size(columns: 40, rows: 10), detailPresented: false).isTooSmall)
        #expect(ScreenLayout(size: Size(columns: 39, rows: 10), detailPresented: false).isTooSmall)
        #expect(ScreenLayout(size: Size(columns: 40, rows: 9), detailPresented: false).isTooSmall)
        // Degenerate sizes draw without trapping.
        for (columns, rows) in [(0, 0), (1, 1), (5, 2), (39, 30), (300, 3)] {
            _ = Screen.render(Fixtures.model(columns: columns, rows: rows))
        }
    }

    @Test func hitTestingFindsListLinesAndTabs() {
        let list = Fixtures.model()
        #expect(Screen.hitTest(list, x: 10, y: 1) == .nothing)  // the column headers
        #expect(Screen.hitTest(list, x: 10, y: 2) == .listLine(0))
        #expect(Screen.hitTest(list, x: 10, y: 4) == .listLine(2))
        #expect(Screen.hitTest(list, x: 10, y: 20) == .nothing)  // below the last line
        #expect(Screen.hitTest(list, x: 10, y: 0) == .header)
        #expect(Screen.hitTest(list, x: 10, y: 23) == .status)

        let wide = Fixtures.model(columns: 160, rows: 40, detail: DetailModel(record: Fixtures.record))
        let layout = ScreenLayout(wide)
        for (tab, columns) in layout.tabRanges {
            #expect(Screen.hitTest(wide, x: columns.lowerBound, y: layout.tabBar!.y) == .tab(tab))
            #expect(Screen.hitTest(wide, x: columns.upperBound - 1, y: layout.tabBar!.y) == .tab(tab))
        }
        #expect(Screen.hitTest(wide, x: 5, y: 3) == .listLine(1))
        #expect(Screen.hitTest(wide, x: 100, y: 10) == .detail)
        // The tab labels are drawn where hit-testing says they are.
        let buffer = Screen.render(wide)
        let bar = buffer.line(layout.tabBar!.y)
        for (index, (tab, columns)) in layout.tabRanges.enumerated() {
            let label = String(Array(bar)[columns])
            #expect(label == " \(index + 1) \(tab.title) ")
        }
    }

    @Test func notesWrapAtSpacesAndKeepNewlines() {
        let lines = NotesView.wrap(Array("one two three\nfour"), width: 8)
        #expect(lines.map(\.range) == [0..<8, 8..<14, 14..<18])
        let long = NotesView.wrap(Array("abcdefghij"), width: 4)
        #expect(long.map(\.range) == [0..<4, 4..<8, 8..<10])
        #expect(NotesView.line(containing: 18, in: lines) == 2)
    }

    @Test func coastlinesDecode() {
        let polylines = Coastlines.polylines
        #expect(polylines.count > 500)
        let points = polylines.flatMap { $0 }
        #expect(points.count > 5000)
        #expect(points.allSatisfy { abs(Int($0.longitude)) <= 1800 && abs(Int($0.latitude)) <= 900 })
    }

    @Test func formats() {
        #expect(QuakeFormat.count(1_234_567) == "1,234,567")
        #expect(QuakeFormat.count(12) == "12")
        #expect(QuakeFormat.relative(Fixtures.now - 90_000, now: Fixtures.now) == "1m ago")
        #expect(QuakeFormat.relative(Fixtures.now + 3 * Fixtures.hour, now: Fixtures.now) == "in 3h")
        #expect(QuakeFormat.depth(kilometres: 10, unit: .mi) == "6.2 mi")
        #expect(QuakeFormat.coordinates(latitude: -33.5, longitude: -70.25) == "33.50°S 70.25°W")
        let tokyo = Fixtures.display.localTimeZone
        #expect(QuakeFormat.absolute(Fixtures.now, in: tokyo) == "2024-05-06 21:00:00 GMT+9")
    }
}

/// Issue 17, finding 2: `relative` near Int64.min overflowed (SIGILL) before the first frame.
@Suite struct ExtremeTimeFormatTests {
    @Test func relativeAndAbsoluteSurviveEveryInt64() {
        for time: Int64 in [.min, .min + 1, -1_000_000_000_000_000, 0, 20_000_000_000_000_000, .max] {
            for now: Int64 in [.min, 1_700_000_000_000, .max] {
                #expect(!QuakeFormat.relative(time, now: now).isEmpty)
            }
            #expect(!QuakeFormat.absolute(time, in: TimeZone(identifier: "UTC")!).isEmpty)
        }
        #expect(QuakeFormat.relative(.min, now: 1_700_000_000_000).hasSuffix("y ago"))
        #expect(QuakeFormat.relative(.max, now: .min).hasPrefix("in "))
    }
}
