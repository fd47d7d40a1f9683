import Foundation
import QuakeModel
import QuakeStore
@testable import QuakeTUI
@testable import QuakeTUIRuntime
import Testing

/// With a home: the list's distance column (joining by width, in the display unit) and the
/// detail's distance and bearing; without one, neither.
@Suite struct DistanceDisplayTests {
    static let tokyo = GeoPoint(latitude: 35.68, longitude: 139.69)

    static func model(columns: Int, unit: DisplaySettings.DistanceUnit = .km, home: GeoPoint? = tokyo,
                      detail: DetailModel? = nil) -> ScreenModel {
        var model = Fixtures.model(columns: columns, rows: 12, detail: detail)
        model.display.home = home
        model.display.distanceUnit = unit
        return model
    }

    @Test func theDistanceColumnJoinsFirstAndFollowsTheUnit() {
        // Hualien (23.58 N, 121.77 E) is 2,135 km from Tokyo by the haversine.
        let km = Self.tokyo.distance(to: GeoPoint(latitude: 23.58, longitude: 121.77))
        let expectedKm = QuakeFormat.count(Int(km.rounded())) + " km"
        let wide = Screen.render(Self.model(columns: 100)).text
        #expect(wide.contains(expectedKm), "\(wide)")
        let miles = QuakeFormat.count(Int((km / 1.609344).rounded())) + " mi"
        #expect(Screen.render(Self.model(columns: 100, unit: .mi)).text.contains(miles))
        // Without a home no column; on a narrow pane the place keeps its room first.
        #expect(!Screen.render(Self.model(columns: 100, home: nil)).text.contains(expectedKm))
        #expect(!Screen.render(Self.model(columns: 50)).text.contains(expectedKm))
        let columns = ListView.Columns(width: 100, showsDistance: true)
        #expect(columns.distance == 9)
        #expect(ListView.Columns(width: 100).distance == 0)
    }

    @Test func detailShowsDistanceAndBearingFromHome() {
        let rows = DetailView.fields(Fixtures.record, hasNotes: false,
                                     display: Self.model(columns: 160).display)
        let fromHome = rows.first { $0.0 == "From home" }?.1
        let point = GeoPoint(latitude: Fixtures.record.latitude, longitude: Fixtures.record.longitude)
        let km = QuakeFormat.count(Int(Self.tokyo.distance(to: point).rounded()))
        #expect(fromHome == "\(km) km WSW of home")
        #expect(DetailView.fields(Fixtures.record, hasNotes: false, display: Fixtures.display).allSatisfy { $0.0 != "From home" })
    }

    @Test func homeDistanceFormat() {
        #expect(QuakeFormat.homeDistance(kilometres: 0, unit: .km) == "0.0 km")
        #expect(QuakeFormat.homeDistance(kilometres: 8.34, unit: .km) == "8.3 km")
        #expect(QuakeFormat.homeDistance(kilometres: 1234.4, unit: .km) == "1,234 km")
        #expect(QuakeFormat.homeDistance(kilometres: 20_015, unit: .mi) == "12,437 mi")
    }
}
