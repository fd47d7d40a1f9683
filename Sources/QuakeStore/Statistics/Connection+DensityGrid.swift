import QuakeModel
import Foundation

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
