import QuakeModel
import Foundation

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
        let rows = Int(180 / cell) + 1, columns = Int(360 / cell) + 1
        var counts = [Int](repeating: 0, count: rows * columns)
        var maxima = [Double](repeating: -.infinity, count: rows * columns)
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
            let index = row * columns + column
            counts[index] += 1
            if let magnitude, magnitude > maxima[index] { maxima[index] = magnitude }
        }
        var cells = Self.cells(counts: counts, maxima: maxima, columns: columns)
        if !outside.isEmpty {
            cells = (cells + outside.values).sorted { ($0.row, $0.column) < ($1.row, $1.column) }
        }
        return DensityGrid(window: window, cells: cells)
    }

    /// The cells of a flat grid of `columns` columns that hold quakes, by row then column.
    private static func cells(counts: [Int], maxima: [Double], columns: Int) -> [DensityGrid.Cell] {
        var cells: [DensityGrid.Cell] = []
        for index in counts.indices where counts[index] > 0 {
            cells.append(DensityGrid.Cell(row: index / columns, column: index % columns, count: counts[index],
                                          maximumMagnitude: maxima[index] == -.infinity ? nil : maxima[index]))
        }
        return cells
    }

    /// `densityGrid(of:in:)` in one pass over the digest (`SearchDigest`): for a request it
    /// answers (`QueryPlan.digestAnswers`) in a snapshot where it is
    /// complete, and rows that all fall on the globe's grid; nil otherwise (the caller reads the rows).
    private func densityGridFromDigest(_ plan: QueryPlan, in window: GridWindow) throws(SQLiteError) -> DensityGrid? {
        guard let query = try SearchDigest.query(self, plan: plan, countingKind: nil) else { return nil }
        let cell = window.cellDegrees
        let rows = Int(180 / cell) + 1, columns = Int(360 / cell) + 1
        // The same window as the SQL's terms: none for the whole world.
        let bounded = window.minimumLatitude > -90 || window.maximumLatitude < 90
        let ranges = window.longitudeRanges
        var density = DigestDensity(minimumLatitude: bounded ? window.minimumLatitude : -.infinity,
                                    maximumLatitude: bounded ? window.maximumLatitude : .infinity,
                                    longitudeRanges: ranges == [-180...180] ? [] : ranges, cellDegrees: cell, rows: rows, columns: columns)
        let chunks = try SearchDigest.chunks(self, locations: true, details: query.needsDetails)
        while try chunks.step() {
            try stopIfDue()  // a newer job's cancellation, between chunks scanned in C
            // A coordinate off the globe (a damaged feed) has a cell of its own: the rows say which.
            guard density.add(chunks, query: query) == 0 else { return nil }
        }
        return DensityGrid(window: window, cells: Self.cells(counts: density.counts, maxima: density.maxima, columns: columns))
    }
}
