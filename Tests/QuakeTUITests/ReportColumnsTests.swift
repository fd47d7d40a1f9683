import QuakeModel
@testable import QuakeTUI
import Testing

/// Issue 53, point 2: the magnitude's type beside the magnitude (`6.4 mww`) and how many agencies
/// reported the event (`3 ag`), joining as the pane grows and giving way before the place does.
@Suite struct ReportColumnsTests {
    /// The widths README documents (time sort, no home): each column joins at exactly this width.
    @Test func theColumnsJoinAtTheDocumentedWidths() {
        func columns(_ width: Int) -> ListView.Columns { ListView.Columns(width: width, timeOfDayOnly: true) }
        let joins: [(String, KeyPath<ListView.Columns, Int>, Int)] = [
            ("depth", \.depth, 60), ("time of day", \.absolute, 67), ("type", \.magnitudeType, 72),
            ("code", \.code, 94), ("agencies", \.agencies, 101), ("epicentre", \.location, 119),
        ]
        for (name, column, width) in joins {
            #expect(columns(width - 1)[keyPath: column] == 0 && columns(width)[keyPath: column] > 0, "\(name) joins at \(width)")
        }
        #expect(columns(72).magnitudeType == ListView.Columns.typeWidth)
        #expect(columns(40).magnitude == 5 && columns(40).place > 0)
        // Sorted by magnitude, the type joins first, keeping less room for the place.
        #expect(ListView.Columns(width: 50, sortedBy: .magnitude).magnitudeType == ListView.Columns.typeWidth)
        #expect(ListView.Columns(width: 50).magnitudeType == 0)
        // Where the depth does not fit, the type does not take its place (54: room for it alone).
        #expect((49...71).allSatisfy { columns($0).magnitudeType == 0 })
    }

    /// From 200 columns down to 40 the rows lose columns in order, never the magnitude, the
    /// place or the time ago.
    @Test(arguments: [40, 60, 72, 94, 101, 200])
    func theListAtWidth(_ columns: Int) {
        let buffer = Screen.render(Fixtures.model(columns: columns, rows: 10))
        assertSnapshot(buffer, named: "list-reports-\(columns)")
        let hualien = buffer.line(2)
        #expect(hualien.contains("6.4") && hualien.contains("2h ago"), "\(hualien)")
        #expect(hualien.contains("6.4 mww") == (columns >= 72), "\(hualien)")
        #expect(hualien.contains("3 ag") == (columns >= 101), "\(hualien)")
        // One agency's event shows no count; a type longer than its cells is cut.
        #expect(!buffer.line(3).contains(" ag "), "\(buffer.line(3))")
        #expect(buffer.text.contains("4.6 mb_…") == (columns >= 72), "\(buffer.text)")
    }

    @Test func cellsOfTheReportColumns() {
        var line = QuakeLine(code: "x", magnitude: 5.4, place: "", time: 0)
        line.magType = "Mww"
        line.agencies = 12
        #expect(ListView.reports(.magnitudeType, of: line).0 == "Mww")
        #expect(ListView.reports(.agencies, of: line).0 == "12 ag")
        line.agencies = 1
        #expect(ListView.reports(.agencies, of: line).0 == "")
        line.magnitude = nil  // no magnitude, no type: `—` alone
        #expect(ListView.reports(.magnitudeType, of: line).0 == "")
        #expect(QuakeFormat.magnitudeType("Mw(mB)") == "Mw(…")
    }
}
