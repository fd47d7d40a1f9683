import Foundation
import QuakeModel
@testable import QuakeStore
import QuakeTestSupport
import Testing

/// The Map tab's density (issue 32): the list counted per cell of a window by one GROUP BY,
/// checked against the same count made from the rows in Swift, the date line and poles included.
@Suite struct DensityGridTests {
    /// 600 quakes scattered over the globe (the same every run), more around Fiji, some on the
    /// date line and at the poles, some without a magnitude.
    static func records() -> [QuakeRecord] {
        var random = SeededGenerator(seed: 32)
        return (0..<600).map { index in
            var record = QuakeRecord.fixture("d\(index)", magnitude: index % 17 == 0 ? nil : Double.random(in: 0...7.5, using: &random))
            switch index % 4 {
            case 0:
                record.latitude = -17 + Double.random(in: -4...4, using: &random)
                record.longitude = Double.random(in: 174...186, using: &random).wrappedLongitude
            case 1 where index % 8 == 1:
                record.latitude = [90, -90, 89.99][index % 3]
                record.longitude = [180, -180, 0][index % 3]
            default:
                record.latitude = Double.random(in: -90...90, using: &random)
                record.longitude = Double.random(in: -180...180, using: &random)
            }
            return record
        }
    }

    /// The grid made from the rows: the same cells, counts and largest magnitudes.
    static func expected(_ records: [QuakeRecord], minimumMagnitude: Double?, window: GridWindow) -> Set<DensityGrid.Cell> {
        var cells: [String: DensityGrid.Cell] = [:]
        for record in records {
            if let minimum = minimumMagnitude, !ExpectedResults.isShown(record.magnitude, atLeast: minimum) { continue }
            guard record.latitude >= window.minimumLatitude, record.latitude <= window.maximumLatitude,
                  window.longitudeRanges.contains(where: { $0.contains(record.longitude) }) else { continue }
            let index = DensityGrid.cellIndex(latitude: record.latitude, longitude: record.longitude, cellDegrees: window.cellDegrees)
            var cell = cells["\(index.row) \(index.column)"] ?? DensityGrid.Cell(row: index.row, column: index.column, count: 0, maximumMagnitude: nil)
            cell.count += 1
            if let magnitude = record.magnitude { cell.maximumMagnitude = max(cell.maximumMagnitude ?? magnitude, magnitude) }
            cells["\(index.row) \(index.column)"] = cell
        }
        return Set(cells.values)
    }

    static let windows: [GridWindow] = [
        .world(cellDegrees: 1),
        .around(latitude: -17, longitude: 179, latitudeSpan: 20, cellDegrees: 0.2),   // across the date line
        .around(latitude: -17, longitude: -179.5, latitudeSpan: 2, cellDegrees: 0.02),
        .around(latitude: 89, longitude: 0, latitudeSpan: 20, cellDegrees: 0.2),      // kept inside 90°N
    ]

    @Test(arguments: windows, [nil, 4.5])
    func theGridCountsWhatTheRowsHold(window: GridWindow, minimumMagnitude: Double?) throws {
        let store = try TestStore()
        defer { store.remove() }
        let records = Self.records()
        try store.upsert(records)
        let request = SectionedFetchRequest(predicate: QuakePredicate(minimumMagnitude: minimumMagnitude), timeZone: .gmt)
        let grid = try store.read { try $0.densityGrid(of: request, in: window) }
        let expected = Self.expected(records, minimumMagnitude: minimumMagnitude, window: window)
        #expect(!expected.isEmpty)
        #expect(Set(grid.cells) == expected)
        #expect(grid.cells.count == Set(grid.cells.map { "\($0.row) \($0.column)" }).count)
        #expect(grid.cells == grid.cells.sorted { ($0.row, $0.column) < ($1.row, $1.column) }, "by row, then column")
    }

    /// Issue 56.1: a window is counted in an array of its own cells, not the globe's: at `local`
    /// scale (0.02°) the globe has 162 million cells, and two arrays of them (2.6 GB) kept a
    /// relaunched Map tab at `local` without its dots for as long as they took.
    @Test func aWindowIsCountedInItsOwnCells() {
        let local = GridLayout(.around(latitude: -17, longitude: -179.5, latitudeSpan: 2, cellDegrees: 0.02))
        #expect(local.count <= 102 * 202, "\(local)")
        #expect(GridLayout(.around(latitude: 19.4, longitude: -155.3, latitudeSpan: 20, cellDegrees: 0.2)).count <= 1_002 * 2_002)
        let world = GridLayout(.world(cellDegrees: 1))
        #expect((world.rows, world.columns) == (181, 361))
        // Across the date line: the western columns first, then the eastern ones from column 0.
        #expect(local.index(row: local.rowOrigin, column: local.columnOrigin) == 0)
        let east = DensityGrid.cellIndex(latitude: -17, longitude: -178, cellDegrees: 0.02)
        let index = local.index(row: east.row, column: east.column)
        #expect(index != nil)
        #expect(index.map(local.cell(at:)).map { [$0.row, $0.column] } == [east.row, east.column])
        #expect(local.index(row: local.rowOrigin - 1, column: local.columnOrigin) == nil)
    }

    @Test func aWindowAcrossTheDateLineIsTwoRanges() {
        #expect(GridWindow.around(latitude: 0, longitude: 179, latitudeSpan: 20, cellDegrees: 1).longitudeRanges == [159...180, -180...(-161)])
        #expect(GridWindow.around(latitude: 0, longitude: -170, latitudeSpan: 20, cellDegrees: 1).longitudeRanges == [170...180, -180...(-150)])
        #expect(GridWindow.around(latitude: 0, longitude: 10, latitudeSpan: 20, cellDegrees: 1).longitudeRanges == [-10...30])
    }
}

extension Double {
    /// A longitude past 180 brought back into -180…180.
    var wrappedLongitude: Double { self > 180 ? self - 360 : self }
}
