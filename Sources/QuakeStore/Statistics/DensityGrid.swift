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
/// never a million rows (one `GROUP BY` in SQLite).
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

    /// The cell of a point (the same arithmetic as the SQL).
    public static func cellIndex(latitude: Double, longitude: Double, cellDegrees: Double) -> (row: Int, column: Int) {
        (Int((latitude + 90) / cellDegrees), Int((longitude + 180) / cellDegrees))
    }
}

extension Connection {
    /// The quakes `request` matches inside `window`, counted per cell with their largest
    /// magnitude: one `GROUP BY` over the cell indices (`quake_location` narrows a window's
    /// latitudes), so a million quakes come back as at most a few tens of thousands of cells.
    public func densityGrid(of request: SectionedFetchRequest, in window: GridWindow) throws(SQLiteError) -> DensityGrid {
        let (condition, arguments) = QueryPlan(request).rowWhere
        var terms = ["(\(condition))"], values = arguments
        if window.minimumLatitude > -90 || window.maximumLatitude < 90 {
            terms.append("latitude BETWEEN ? AND ?")
            values += [.real(window.minimumLatitude), .real(window.maximumLatitude)]
        }
        let ranges = window.longitudeRanges
        if ranges != [-180...180] {
            terms.append("(" + ranges.map { _ in "longitude BETWEEN ? AND ?" }.joined(separator: " OR ") + ")")
            values += ranges.flatMap { [SQLiteValue.real($0.lowerBound), .real($0.upperBound)] }
        }
        // Latitude + 90 and longitude + 180 are never negative: CAST truncates, which is floor there.
        let cell = window.cellDegrees
        let statement = try prepare("""
            SELECT CAST((latitude + 90) / ? AS INTEGER) AS r, CAST((longitude + 180) / ? AS INTEGER) AS c,
                   count(*), max(magnitude)
            FROM quake WHERE \(terms.joined(separator: " AND ")) GROUP BY r, c ORDER BY r, c
            """)
        try statement.bind([.real(cell), .real(cell)] + values)
        var cells: [DensityGrid.Cell] = []
        while try statement.step() {
            cells.append(DensityGrid.Cell(row: Int(statement.int64(at: 0)), column: Int(statement.int64(at: 1)),
                                          count: Int(statement.int64(at: 2)), maximumMagnitude: statement.optionalDouble(at: 3)))
        }
        return DensityGrid(window: window, cells: cells)
    }
}
