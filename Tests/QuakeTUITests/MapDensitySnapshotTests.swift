import Foundation
import QuakeModel
import QuakeStore
@testable import QuakeTUI
@testable import QuakeTUIRuntime
import Testing

/// The Map tab drawing the whole list as density (issue 32), from a counted grid.
@Suite struct MapDensitySnapshotTests {
    /// Cells along a band around the Pacific and through Taiwan, fuller near Taiwan, some with a
    /// major quake, some without any magnitude.
    static func grid(_ window: GridWindow) -> DensityGrid {
        var counts: [String: DensityGrid.Cell] = [:]
        for index in 0..<1_500 {
            let t = Double(index) / 1_500
            let latitude = index % 3 == 0 ? 23.6 + sin(t * 40) * 3 : 60 * sin(t * .pi * 2) + 5 * sin(t * 37)
            let longitude = index % 3 == 0 ? 121.7 + cos(t * 40) * 6 : -180 + 360 * t
            guard latitude >= window.minimumLatitude, latitude <= window.maximumLatitude,
                  window.longitudeRanges.contains(where: { $0.contains(longitude) }) else { continue }
            let cell = DensityGrid.cellIndex(latitude: latitude, longitude: longitude, cellDegrees: window.cellDegrees)
            let magnitude: Double? = index % 50 == 0 ? nil : 2 + Double(index % 47) / 10
            var entry = counts["\(cell)"] ?? DensityGrid.Cell(row: cell.row, column: cell.column, count: 0, maximumMagnitude: nil)
            entry.count += 1 + (index % 3 == 0 ? 20 : 0)
            if let magnitude { entry.maximumMagnitude = max(entry.maximumMagnitude ?? magnitude, magnitude) }
            counts["\(cell)"] = entry
        }
        return DensityGrid(window: window, cells: counts.values.sorted { ($0.row, $0.column) < ($1.row, $1.column) })
    }

    @Test(arguments: [MapZoom.world, .region, .local])
    func theListAsDensity(zoom: MapZoom) {
        var detail = DetailModel(tab: .map, record: Fixtures.record)
        let record = Fixtures.record
        detail.map = MapDensityModel(zoom: zoom, grid: Self.grid(zoom.window(latitude: record.latitude, longitude: record.longitude)))
        let buffer = Screen.render(Fixtures.model(columns: 120, rows: 35, detail: detail))
        assertSnapshot(buffer, named: "map-density-\(zoom.rawValue)-120x35")
        #expect(buffer.lines[2].hasSuffix("± \(zoom.rawValue) "))
        // The selected quake is marked over the density, and the list's quakes are drawn.
        #expect(buffer.text.contains(MapView.marker))
        #expect(buffer.cells.contains { if case .magnitude? = $0.style.foreground { true } else { false } })
    }
}
