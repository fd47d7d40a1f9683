import Foundation
import QuakeModel

/// The list drawn as density on a map (issue 32): each terminal cell that holds quakes shows
/// braille dots where they are, and more dots the more quakes it holds (on a log scale up to the
/// fullest cell, all eight); coloured by its largest magnitude, and a cell holding a quake of
/// magnitude 6 or more is a larger mark, `●`.
extension MapView {
    /// The mark of a cell holding a major quake.
    static let majorMark = "●"
    /// The order dots are added to a cell as it fills: the middle first.
    static let fillOrder: [(x: Int, y: Int)] = [(0, 1), (1, 2), (1, 1), (0, 2), (0, 0), (1, 3), (1, 0), (0, 3)]

    struct DensityCell {
        var count = 0
        var largest: Double?
        var bits: UInt8 = 0
    }

    /// The terminal cells of `map` (by index `row × width + column`) the grid's quakes fall in.
    static func densityCells(_ grid: DensityGrid, _ projection: MapProjection, in map: Rect) -> [Int: DensityCell] {
        var cells: [Int: DensityCell] = [:]
        let halfSpan = projection.longitudeSpan / 2
        for cell in grid.cells {
            let (latitude, longitude) = grid.center(of: cell)
            guard latitude >= projection.minimumLatitude, latitude <= projection.maximumLatitude,
                  abs(projection.offset(longitude: longitude)) <= halfSpan else { continue }
            let dot = projection.dot(latitude: latitude, longitude: longitude)
            guard dot.x >= 0, dot.y >= 0, dot.x < map.width * 2, dot.y < map.height * 4 else { continue }
            var entry = cells[(dot.y / 4) * map.width + dot.x / 2, default: DensityCell()]
            entry.count += cell.count
            if let magnitude = cell.maximumMagnitude { entry.largest = max(entry.largest ?? magnitude, magnitude) }
            entry.bits |= BrailleCanvas.dotBits[dot.x % 2][dot.y % 4]
            cells[(dot.y / 4) * map.width + dot.x / 2] = entry
        }
        return cells
    }

    static func drawDensity(_ grid: DensityGrid, _ projection: MapProjection, in map: Rect, into buffer: inout CellBuffer) {
        let cells = densityCells(grid, projection, in: map)
        let fullest = Double(cells.values.map(\.count).max() ?? 1)
        for (index, cell) in cells {
            let point = Point(x: map.x + index % map.width, y: map.y + index / map.width)
            let band = MagnitudeBand(magnitude: cell.largest)
            if band == .major {
                buffer.put(majorMark, at: point, style: .role(.magnitude(.major), [.bold]))
                continue
            }
            let dots = fullest > 1 ? 1 + Int((7 * log(Double(cell.count)) / log(fullest)).rounded()) : 1
            var bits = cell.bits
            for spot in fillOrder where bits.nonzeroBitCount < dots {
                bits |= BrailleCanvas.dotBits[spot.x][spot.y]
            }
            let character = Character(Unicode.Scalar(0x2800 + UInt32(bits))!)
            buffer.set(Cell(String(character), style: .role(.magnitude(band), band >= .strong ? [.bold] : [])),
                       x: point.x, y: point.y)
        }
    }
}
