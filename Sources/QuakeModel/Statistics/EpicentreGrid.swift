import Foundation

/// The quakes of a `CatalogueEvents` filed by 1° × 1° cell of latitude and longitude, each cell
/// in time order: declustering asks it for the quakes near a point within a time span without
/// looking at the others. A cell is searched by time with a binary search; the caller decides the
/// exact distance (the cells only narrow the search, as the store's bounding box does).
///
/// The cells are one flat array (cell by cell, each in time order) with each cell's range in a
/// table of 180 × 360. A quake can be taken out (`remove`): `forEachRemaining` then skips it
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

    private static let cellCount = 180 * 360

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

    private static func row(_ latitude: Double) -> Int { min(89, max(-90, Int(latitude.rounded(.down)))) }
    private static func column(_ longitude: Double) -> Int {
        var column = Int(longitude.rounded(.down)) % 360
        if column < -180 { column += 360 }
        if column >= 180 { column -= 360 }
        return column
    }
    private static func key(row: Int, column: Int) -> Int { (row + 90) * 360 + (column + 180) }

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
        forEachCell(near: center, radiusKm: radiusKm) { cell in
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
                columns = Int((center.longitude - dLongitude).rounded(.down)) ... Int((center.longitude + dLongitude).rounded(.down))
            }
        }
        for row in Self.row(low) ... Self.row(high) {
            if let columns {
                for column in columns {
                    let cell = Self.key(row: row, column: Self.column(Double(column)))
                    if starts[cell] < starts[cell + 1] { body(cell) }
                }
            } else {
                for column in -180 ..< 180 {
                    let cell = Self.key(row: row, column: column)
                    if starts[cell] < starts[cell + 1] { body(cell) }
                }
            }
        }
    }
}
