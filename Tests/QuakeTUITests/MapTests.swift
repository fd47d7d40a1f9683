import QuakeModel
import QuakeStore
import Testing
@testable import QuakeTUI
@testable import QuakeTUIRuntime

@Suite struct MapTests {
    @Test func regionalWindowsWrapAcrossTheDateLine() {
        let fiji = MapProjection.region(latitude: -17.8, longitude: 178, latitudeSpan: 20, pixelWidth: 81, pixelHeight: 41)
        #expect(fiji.offset(longitude: -178) == 4)
        #expect(fiji.offset(longitude: 170) == -8)
        #expect(fiji.dot(latitude: -17.8, longitude: 178) == (40, 20))
        let world = MapProjection.world(pixelWidth: 361, pixelHeight: 181)
        #expect(world.dot(latitude: 90, longitude: -180) == (0, 0))
        #expect(world.dot(latitude: -90, longitude: 180) == (360, 180))
        // A window near the pole stays inside ±90°.
        let pole = MapProjection.region(latitude: 88, longitude: 0, latitudeSpan: 20, pixelWidth: 10, pixelHeight: 10)
        #expect(pole.maximumLatitude == 90 && pole.minimumLatitude == 70)
    }

    @Test func dateLineQuakeWithRegionalCloseUp() {
        var record = Fixtures.record
        record.latitude = -17.8
        record.longitude = -178.4
        record.place = "Fiji region"
        let model = Fixtures.model(columns: 160, rows: 40, detail: DetailModel(tab: .map, record: record))
        let buffer = Screen.render(model)
        assertSnapshot(buffer, named: "map-fiji-160x40")
        let markers = buffer.cells.filter { $0.grapheme == MapView.marker }
        #expect(markers.count == 3)  // caption, world, close-up
        #expect(buffer.text.contains("Region"))
    }

    /// A quake off the globe (only a store edited by hand holds one: every reader refuses it)
    /// still draws its Map tab: the close-up's labels and the marker stay within what an Int holds.
    @Test(arguments: [(1e308, 1e308), (-1e308, -1e308), (91, -181), (45, 1e18)])
    func aQuakeOffTheGlobeDrawsItsMap(latitude: Double, longitude: Double) {
        var record = Fixtures.record
        (record.latitude, record.longitude) = (latitude, longitude)
        let model = Fixtures.model(columns: 120, rows: 35, detail: DetailModel(tab: .map, record: record))
        #expect(Screen.render(model).text.contains("Region"))
    }

    @Test(arguments: [(80, 24), (100, 30), (250, 80), (40, 10), (120, 12)])
    func mapFitsEverySize(columns: Int, rows: Int) {
        let model = Fixtures.model(columns: columns, rows: rows, detail: DetailModel(tab: .map, record: Fixtures.record))
        let buffer = Screen.render(model)
        #expect(buffer.lines.allSatisfy { TextWidth.of($0) == columns })
        let layout = ScreenLayout(model)
        if layout.detailContent!.height >= 4 {
            #expect(buffer.cells.contains { $0.grapheme == MapView.marker })
        }
    }
}
