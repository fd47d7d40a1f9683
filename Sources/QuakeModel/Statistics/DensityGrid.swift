import Foundation

/// A window of the map counted in cells of `cellDegrees` (issue 32): the whole world, or a box
/// around a quake that may cross the date line.
///
/// ```swift
/// let window = GridWindow.around(latitude: -18, longitude: 179, latitudeSpan: 20, cellDegrees: 0.2)
/// let grid = try db.densityGrid(of: request, in: window)
/// ```
public struct GridWindow: Hashable, Sendable {
    public var minimumLatitude: Double
    public var maximumLatitude: Double
    public var centerLongitude: Double
    /// Degrees of longitude across the window (360: every longitude).
    public var longitudeSpan: Double
    /// A cell's side in degrees; cells are aligned on the globe (row 0 starts at 90°S, column 0 at 180°W).
    public var cellDegrees: Double

    /// Every quake, in cells of `cellDegrees`.
    public static func world(cellDegrees: Double) -> GridWindow {
        GridWindow(minimumLatitude: -90, maximumLatitude: 90, centerLongitude: 0, longitudeSpan: 360, cellDegrees: cellDegrees)
    }

    /// `latitudeSpan` degrees of latitude (twice as many of longitude) around a point, kept
    /// inside ±90°: the window `MapProjection.region` draws.
    public static func around(latitude: Double, longitude: Double, latitudeSpan: Double, cellDegrees: Double) -> GridWindow {
        let half = latitudeSpan / 2
        let center = min(max(latitude, -90 + half), 90 - half)
        return GridWindow(minimumLatitude: center - half, maximumLatitude: center + half, centerLongitude: longitude,
                          longitudeSpan: latitudeSpan * 2, cellDegrees: cellDegrees)
    }

    /// The window's longitudes as ranges inside -180…180: two when it crosses the date line.
    public var longitudeRanges: [ClosedRange<Double>] {
        guard longitudeSpan < 360 else { return [-180...180] }
        var west = centerLongitude - longitudeSpan / 2
        west = west - 360 * ((west + 180) / 360).rounded(.down)  // into -180 ..< 180
        let east = west + longitudeSpan
        return east <= 180 ? [west...east] : [west...180, -180...(east - 360)]
    }
}

/// The quakes of a list counted per cell of a `GridWindow`: what the Map tab draws as density,
/// never a million rows (counted in one pass by `Connection.densityGrid`).
public struct DensityGrid: Hashable, Sendable {
    /// One cell that holds quakes.
    public struct Cell: Hashable, Sendable {
        /// Cell indices on the globe: latitude `-90 + row × cellDegrees`, longitude `-180 + column × cellDegrees`.
        public var row: Int
        public var column: Int
        public var count: Int
        /// The largest magnitude in the cell; nil when none of its quakes has one.
        public var maximumMagnitude: Double?

        public init(row: Int, column: Int, count: Int, maximumMagnitude: Double?) {
            (self.row, self.column, self.count, self.maximumMagnitude) = (row, column, count, maximumMagnitude)
        }
    }

    public var window: GridWindow
    /// The cells that hold quakes, by row then column.
    public var cells: [Cell]

    public init(window: GridWindow, cells: [Cell]) {
        self.window = window
        self.cells = cells
    }

    /// The centre of a cell, in degrees.
    public func center(of cell: Cell) -> (latitude: Double, longitude: Double) {
        (-90 + (Double(cell.row) + 0.5) * window.cellDegrees, -180 + (Double(cell.column) + 0.5) * window.cellDegrees)
    }

    /// The cell of a point (the same arithmetic as the SQL). A coordinate far off the globe (a
    /// store edited by hand) gets a cell as far off as an Int holds.
    public static func cellIndex(latitude: Double, longitude: Double, cellDegrees: Double) -> (row: Int, column: Int) {
        func index(_ cells: Double) -> Int { cells.isNaN ? Int.min / 2 : Int(max(-1e15, min(1e15, cells))) }
        return (index((latitude + 90) / cellDegrees), index((longitude + 180) / cellDegrees))
    }
}
