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

/// Where a window's cells are counted (issue 56.1): a flat array of the window's own cells, not
/// the globe's. The globe at `local` scale has 9,001 × 18,001 cells of 0.02°, 162 million: two
/// arrays of those (2.6 GB) for the 20,000 cells a local map draws kept a relaunched Map tab at
/// `local` without its dots for as long as they took.
struct GridLayout: Equatable, Sendable {
    let cellDegrees: Double
    /// The globe's rows and columns of cells (`DensityGrid.cellIndex` of 90°N, 180°E, plus one).
    let globeRows: Int, globeColumns: Int
    /// The globe's cell in the window's first row and column; columns wrap at the date line.
    let rowOrigin: Int, columnOrigin: Int
    /// The window's rows and columns of cells.
    let rows: Int, columns: Int

    var count: Int { rows * columns }

    init(_ window: GridWindow) {
        let cell = window.cellDegrees
        cellDegrees = cell
        (globeRows, globeColumns) = (Int(180 / cell) + 1, Int(360 / cell) + 1)
        let bounded = window.minimumLatitude > -90 || window.maximumLatitude < 90
        let first = bounded ? DensityGrid.cellIndex(latitude: window.minimumLatitude, longitude: -180, cellDegrees: cell).row : 0
        let last = bounded ? DensityGrid.cellIndex(latitude: window.maximumLatitude, longitude: -180, cellDegrees: cell).row : globeRows - 1
        rowOrigin = max(0, first)
        rows = max(0, min(globeRows - 1, last) - rowOrigin + 1)
        let ranges = window.longitudeRanges
        if ranges == [-180...180] {
            (columnOrigin, columns) = (0, globeColumns)
        } else {
            let west = DensityGrid.cellIndex(latitude: 0, longitude: ranges[0].lowerBound, cellDegrees: cell).column
            let east = DensityGrid.cellIndex(latitude: 0, longitude: ranges[ranges.count - 1].upperBound, cellDegrees: cell).column
            columnOrigin = max(0, min(globeColumns - 1, west))
            columns = min(globeColumns, ((min(globeColumns - 1, east) - columnOrigin) % globeColumns + globeColumns) % globeColumns + 1)
        }
    }

    /// The globe's cell (`DensityGrid.cellIndex`) in the window's array, or nil outside the window.
    func index(row: Int, column: Int) -> Int? {
        let localRow = row - rowOrigin
        let localColumn = ((column - columnOrigin) % globeColumns + globeColumns) % globeColumns
        guard (0..<rows).contains(localRow), localColumn < columns else { return nil }
        return localRow * columns + localColumn
    }

    /// The globe's cell of an index of the window's array.
    func cell(at index: Int) -> (row: Int, column: Int) {
        (rowOrigin + index / columns, (columnOrigin + index % columns) % globeColumns)
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

extension Connection {
    /// The quakes `request` matches inside `window`, counted per cell with their largest
    /// magnitude: one pass over the matching rows into a flat array of cells (`quake_location`
    /// narrows a window's latitudes), so a million quakes come back as at most a few tens of
    /// thousands of cells.
    public func densityGrid(of request: SectionedFetchRequest, in window: GridWindow) throws(SQLiteError) -> DensityGrid {
        let plan = QueryPlan(request)
        if let grid = try densityGridFromDigest(plan, in: window) { return grid }
        let (condition, arguments) = try everyRowWhere(plan)
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
        // Counted here rather than by `GROUP BY`: one pass over the rows into a flat array of the
        // world's cells costs a third of SQLite's sort of a million cell keys (quakebench's
        // density row). Latitude + 90 and longitude + 180 are never negative, so truncating is
        // flooring, as `cellIndex` does.
        let cell = window.cellDegrees
        let statement = try prepare("SELECT latitude, longitude, magnitude FROM quake WHERE \(terms.joined(separator: " AND "))")
        try statement.bind(values)
        let layout = GridLayout(window)
        let (rows, columns) = (layout.globeRows, layout.globeColumns)
        var counts = [Int](repeating: 0, count: layout.count)
        var maxima = [Double](repeating: -.infinity, count: layout.count)
        var outside: [Int: DensityGrid.Cell] = [:]  // a coordinate off the globe (a damaged feed) keeps its own cell
        while try statement.step() {
            let (row, column) = DensityGrid.cellIndex(latitude: statement.double(at: 0), longitude: statement.double(at: 1), cellDegrees: cell)
            let magnitude = statement.optionalDouble(at: 2)
            guard (0..<rows).contains(row), (0..<columns).contains(column) else {
                var other = outside[row &* 1_000_003 &+ column] ?? DensityGrid.Cell(row: row, column: column, count: 0, maximumMagnitude: nil)
                other.count += 1
                if let magnitude { other.maximumMagnitude = max(other.maximumMagnitude ?? magnitude, magnitude) }
                outside[row &* 1_000_003 &+ column] = other
                continue
            }
            guard let index = layout.index(row: row, column: column) else { continue }
            counts[index] += 1
            if let magnitude, magnitude > maxima[index] { maxima[index] = magnitude }
        }
        var cells = Self.cells(counts: counts, maxima: maxima, layout: layout)
        if !outside.isEmpty {
            cells = (cells + outside.values).sorted { ($0.row, $0.column) < ($1.row, $1.column) }
        }
        return DensityGrid(window: window, cells: cells)
    }

    /// The cells of a window's flat grid (`layout`) that hold quakes, by row then column.
    private static func cells(counts: [Int], maxima: [Double], layout: GridLayout) -> [DensityGrid.Cell] {
        var cells: [DensityGrid.Cell] = []
        for index in counts.indices where counts[index] > 0 {
            let (row, column) = layout.cell(at: index)
            cells.append(DensityGrid.Cell(row: row, column: column, count: counts[index],
                                          maximumMagnitude: maxima[index] == -.infinity ? nil : maxima[index]))
        }
        // A window across the date line holds its eastern columns first.
        if layout.columnOrigin + layout.columns > layout.globeColumns {
            cells.sort { ($0.row, $0.column) < ($1.row, $1.column) }
        }
        return cells
    }

    /// `densityGrid(of:in:)` in one pass over the digest (`SearchDigest`): for a request it
    /// answers (`QueryPlan.digestAnswers`) in a snapshot where it is
    /// complete, and rows that all fall on the globe's grid; nil otherwise (the caller reads the rows).
    private func densityGridFromDigest(_ plan: QueryPlan, in window: GridWindow) throws(SQLiteError) -> DensityGrid? {
        guard let query = try SearchDigest.query(self, plan: plan, countingKind: nil) else { return nil }
        let layout = GridLayout(window)
        // The same window as the SQL's terms: none for the whole world.
        let bounded = window.minimumLatitude > -90 || window.maximumLatitude < 90
        let ranges = window.longitudeRanges
        var density = DigestDensity(minimumLatitude: bounded ? window.minimumLatitude : -.infinity,
                                    maximumLatitude: bounded ? window.maximumLatitude : .infinity,
                                    longitudeRanges: ranges == [-180...180] ? [] : ranges, layout: layout)
        let chunks = try SearchDigest.chunks(self, locations: true, details: query.needsDetails)
        while try chunks.step() {
            try stopIfDue()  // a newer job's cancellation, between chunks scanned in C
            // A coordinate off the globe (a damaged feed) has a cell of its own: the rows say which.
            guard density.add(chunks, query: query) == 0 else { return nil }
        }
        return DensityGrid(window: window, cells: Self.cells(counts: density.counts, maxima: density.maxima, layout: layout))
    }
}
