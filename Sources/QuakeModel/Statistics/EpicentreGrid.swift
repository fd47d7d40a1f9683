import Foundation

/// The quakes of a `CatalogueEvents` filed by 1° × 1° cell of latitude and longitude, each cell
/// in time order: declustering asks it for the quakes near a point within a time span without
/// looking at the others. A cell is searched by time with a binary search; the caller decides the
/// exact distance (the cells only narrow the search, as the store's bounding box does).
struct EpicentreGrid {
    private var cells: [Int: [Int]] = [:]
    private let times: [Int64]

    /// The quakes of `events` at `indices` (in time order).
    init(_ events: CatalogueEvents, indices: [Int]) {
        times = events.times
        for index in indices {
            cells[Self.key(row: Self.row(events.latitudes[index]), column: Self.column(events.longitudes[index])), default: []].append(index)
        }
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
        let angle = radiusKm / GeoPoint.earthRadius
        let dLatitude = angle * 180 / .pi
        let low = center.latitude - dLatitude, high = center.latitude + dLatitude
        var columns: [Int]
        let φ = center.latitude * .pi / 180
        if low <= -90 || high >= 90 || sin(angle) >= cos(φ) {
            columns = Array(-180 ..< 180)
        } else {
            let dLongitude = asin(sin(angle) / cos(φ)) * 180 / .pi
            if dLongitude >= 179 {
                columns = Array(-180 ..< 180)
            } else {
                let first = Int((center.longitude - dLongitude).rounded(.down)), last = Int((center.longitude + dLongitude).rounded(.down))
                columns = (first ... last).map { Self.column(Double($0)) }
            }
        }
        for row in Self.row(low) ... Self.row(high) {
            for column in columns {
                guard let cell = cells[Self.key(row: row, column: column)] else { continue }
                var lower = 0, upper = cell.count
                while lower < upper {
                    let middle = (lower + upper) / 2
                    if times[cell[middle]] < span.lowerBound { lower = middle + 1 } else { upper = middle }
                }
                var position = lower
                while position < cell.count, times[cell[position]] <= span.upperBound {
                    body(cell[position])
                    position += 1
                }
            }
        }
    }
}
