import Foundation

/// The quakes of a `CatalogueEvents` filed by 0.25° × 0.25° cell of latitude and longitude, each cell
/// in time order: declustering asks it for the quakes near a point within a time span without
/// looking at the others. A cell is searched by time with a binary search; the caller decides the
/// exact distance (the cells only narrow the search, as the store's bounding box does).
///
/// The cells are one flat array (cell by cell, each in time order) with each cell's range in a
/// table of 720 × 1440. A quake can be taken out (`remove`): `forEachRemaining` then skips it
/// without looking at it again (each position points at the next one that may remain, its
/// chains shortened as they are walked), which is what keeps Gardner–Knopoff from visiting the
/// quakes earlier windows already took, again and again, at a million quakes.
struct EpicentreGrid {
    private var starts: [Int32]
    private var members: [Int32]
    /// The position in `members` of each quake filed (−1: not filed).
    private var positions: [Int32]
    /// `next[p] == p`: position p remains; otherwise a later position, and none in between remains.
    private var next: [Int32]
    private let times: [Int64]

    /// Cells per degree of latitude and of longitude: 0.25° cells (about 28 km), so that a
    /// window's bounding box holds few quakes outside its circle, which every later window over
    /// the same cells would look at again (with 1° cells, Gardner–Knopoff took 26 s at 1,000,000 quakes).
    static let cellsPerDegree = 4
    private static let rows = 180 * cellsPerDegree, columns = 360 * cellsPerDegree
    private static let cellCount = rows * columns

    /// The quakes of `events` at `indices` (in time order).
    init(_ events: CatalogueEvents, indices: [Int]) {
        times = events.times
        let keys = indices.map { Self.key(row: Self.row(events.latitudes[$0]), column: Self.column(events.longitudes[$0])) }
        var starts = [Int32](repeating: 0, count: Self.cellCount + 1)
        for key in keys { starts[key + 1] += 1 }
        for cell in 0 ..< Self.cellCount { starts[cell + 1] += starts[cell] }
        var fill = starts
        var members = [Int32](repeating: 0, count: indices.count)
        var positions = [Int32](repeating: -1, count: events.count)
        for (index, key) in zip(indices, keys) {
            let position = Int(fill[key])
            members[position] = Int32(index)
            positions[index] = Int32(position)
            fill[key] += 1
        }
        self.starts = starts
        self.members = members
        self.positions = positions
        next = (0 ... indices.count).map { Int32($0) }
    }

    /// The row of a latitude, 0 ..< rows (the poles' in the first and last).
    private static func row(_ latitude: Double) -> Int {
        let scaled = (latitude + 90) * Double(cellsPerDegree)
        guard scaled.isFinite else { return 0 }
        return min(rows - 1, max(0, Int(max(-1, min(Double(rows), scaled.rounded(.down))))))
    }
    /// The column of a longitude, 0 ..< columns, wrapping around the globe.
    private static func column(_ longitude: Double) -> Int {
        let scaled = ((longitude + 180) * Double(cellsPerDegree)).rounded(.down)
        guard scaled.isFinite, abs(scaled) < 1e15 else { return 0 }
        let column = Int(scaled) % columns
        return column < 0 ? column + columns : column
    }
    private static func key(row: Int, column: Int) -> Int { row * columns + column }

    /// Calls `body` with every quake filed within `radiusKm` of `center` (and some a little
    /// farther: the cells the circle's bounding box touches) whose time is in `times`, cell by
    /// cell, each cell in time order. The box is the exact one of a circle on the sphere
    /// (`Δλ = asin(sin(d/R) / cos φ)`), all longitudes where the circle reaches a pole.
    func forEach(near center: GeoPoint, radiusKm: Double, in span: ClosedRange<Int64>, _ body: (Int) -> Void) {
        forEachCell(near: center, radiusKm: radiusKm) { cell in
            var position = first(in: cell, from: span.lowerBound)
            let end = Int(starts[cell + 1])
            while position < end, times[Int(members[position])] <= span.upperBound {
                body(Int(members[position]))
                position += 1
            }
        }
    }

    /// As `forEach`, with only the quakes not `remove`d; `body` returns true to remove the quake.
    mutating func forEachRemaining(near center: GeoPoint, radiusKm: Double, in span: ClosedRange<Int64>, _ body: (Int) -> Bool) {
        // The cells first, then the walk: a closure of `forEachCell` (which borrows `self`) that
        // changed `next` made Swift copy the whole array each window (87% of Gardner–Knopoff's
        // time at 1,000,000 quakes, all of it `memmove`).
        var cells: [Int] = []
        forEachCell(near: center, radiusKm: radiusKm) { cells.append($0) }
        for cell in cells {
            let end = Int(starts[cell + 1])
            var position = remaining(from: first(in: cell, from: span.lowerBound))
            while position < end, times[Int(members[position])] <= span.upperBound {
                if body(Int(members[position])) { next[position] = Int32(position + 1) }
                position = remaining(from: position + 1)
            }
        }
    }

    /// Takes quake `index` out of `forEachRemaining`.
    mutating func remove(_ index: Int) {
        let position = Int(positions[index])
        if position >= 0 { next[position] = Int32(position + 1) }
    }

    /// The first remaining position from `position` on (`members.count` past the last).
    private mutating func remaining(from position: Int) -> Int {
        var root = position
        while Int(next[root]) != root { root = Int(next[root]) }
        var walk = position
        while walk != root {
            let following = Int(next[walk])
            next[walk] = Int32(root)
            walk = following
        }
        return root
    }

    /// The first position of `cell` whose time is `time` or later.
    private func first(in cell: Int, from time: Int64) -> Int {
        var lower = Int(starts[cell]), upper = Int(starts[cell + 1])
        while lower < upper {
            let middle = (lower + upper) / 2
            if times[Int(members[middle])] < time { lower = middle + 1 } else { upper = middle }
        }
        return lower
    }

    /// Calls `body` with every non-empty cell the circle's bounding box touches.
    private func forEachCell(near center: GeoPoint, radiusKm: Double, _ body: (Int) -> Void) {
        let angle = radiusKm / GeoPoint.earthRadius
        let dLatitude = angle * 180 / .pi
        let low = center.latitude - dLatitude, high = center.latitude + dLatitude
        let φ = center.latitude * .pi / 180
        var columns: ClosedRange<Int>? = nil  // nil: every column
        if !(low <= -90 || high >= 90 || sin(angle) >= cos(φ)) {
            let dLongitude = asin(sin(angle) / cos(φ)) * 180 / .pi
            if dLongitude < 179 {
                // In cells from the antimeridian, unwrapped: `column` wraps each one.
                let scale = Double(Self.cellsPerDegree)
                let west = Int(((center.longitude - dLongitude + 180) * scale).rounded(.down))
                let east = Int(((center.longitude + dLongitude + 180) * scale).rounded(.down))
                columns = west ... max(west, min(east, west + Self.columns - 1))
            }
        }
        for row in Self.row(low) ... Self.row(high) {
            if let columns {
                for unwrapped in columns {
                    var column = unwrapped % Self.columns
                    if column < 0 { column += Self.columns }
                    let cell = Self.key(row: row, column: column)
                    if starts[cell] < starts[cell + 1] { body(cell) }
                }
            } else {
                for column in 0 ..< Self.columns {
                    let cell = Self.key(row: row, column: column)
                    if starts[cell] < starts[cell + 1] { body(cell) }
                }
            }
        }
    }
}
