import QuakeStore

/// The Map tab: GSHHG coastlines in braille, equirectangular, with the epicentre marked and
/// latitude/longitude labels.
enum MapView {
    /// The marker drawn at the epicentre.
    static let marker = "◉"

    /// Where the map goes inside the tab: the drawing area keeps a 2:1 world (square dots)
    /// when there is room, leaving a 4-column gutter for latitude labels and a row for longitudes.
    static func mapRect(in content: Rect) -> Rect {
        let available = Rect(x: content.x + 5, y: content.y + 1, width: content.width - 6, height: content.height - 2)
        guard !available.isEmpty else { return available }
        let rows = min(available.height, max(1, available.width / 4))
        let columns = min(available.width, rows * 4)
        return Rect(x: available.x + (available.width - columns) / 2, y: available.y, width: columns, height: rows)
    }

    /// The cell of a coordinate in a map rectangle, and the dot inside the canvas.
    static func dot(latitude: Double, longitude: Double, canvas: BrailleCanvas) -> (x: Int, y: Int) {
        let x = (longitude + 180) / 360 * Double(canvas.pixelWidth - 1)
        let y = (90 - latitude) / 180 * Double(canvas.pixelHeight - 1)
        return (Int(x.rounded()), Int(y.rounded()))
    }

    static func render(_ record: QuakeRecord, in content: Rect, into buffer: inout CellBuffer) {
        let map = mapRect(in: content)
        let coordinates = QuakeFormat.coordinates(latitude: record.latitude, longitude: record.longitude)
        var x = content.x + 1
        x += buffer.put(marker + " ", at: Point(x: x, y: content.y), style: .role(.epicentre, [.bold]))
        x += buffer.put(coordinates, at: Point(x: x, y: content.y), style: .role(.accent, [.bold]),
                        maxWidth: content.maxX - x)
        if !record.place.isEmpty, x + 4 < content.maxX {
            buffer.put("  " + record.place, at: Point(x: x, y: content.y), style: .role(.dim), maxWidth: content.maxX - x)
        }
        guard map.width >= 8, map.height >= 2 else { return }
        var canvas = BrailleCanvas(columns: map.width, rows: map.height)
        for polyline in Coastlines.polylines {
            var previous: (x: Int, y: Int)?
            var previousLongitude: Int16 = 0
            for vertex in polyline {
                let point = dot(latitude: Double(vertex.latitude) / 10, longitude: Double(vertex.longitude) / 10,
                                canvas: canvas)
                // A jump across the date line is not a shoreline: do not draw it across the map.
                if let from = previous, abs(Int(vertex.longitude) - Int(previousLongitude)) < 1800 {
                    canvas.line(from: from, to: point)
                }
                previous = point
                previousLongitude = vertex.longitude
            }
        }
        for row in 0..<map.height {
            for column in 0..<map.width {
                if let character = canvas.character(column: column, row: row) {
                    buffer.set(Cell(String(character), style: .role(.land)), x: map.x + column, y: map.y + row)
                }
            }
        }
        drawLabels(map: map, canvas: canvas, into: &buffer)
        let epicentre = dot(latitude: record.latitude, longitude: record.longitude, canvas: canvas)
        buffer.put(marker, at: Point(x: map.x + epicentre.x / 2, y: map.y + epicentre.y / 4),
                   style: .role(.epicentre, [.bold]))
    }

    /// Latitude labels in the left gutter and longitude labels under the map, skipping any
    /// that would overlap.
    static func drawLabels(map: Rect, canvas: BrailleCanvas, into buffer: inout CellBuffer) {
        let label = Style.role(.dim)
        var lastRow = -1
        for latitude in stride(from: 60, through: -60, by: -30) {
            let row = dot(latitude: Double(latitude), longitude: 0, canvas: canvas).y / 4
            guard row > lastRow else { continue }
            let text = latitude == 0 ? "0°" : "\(abs(latitude))°\(latitude > 0 ? "N" : "S")"
            buffer.put(TextWidth.pad(text, to: 4, alignRight: true), at: Point(x: map.x - 5, y: map.y + row), style: label)
            lastRow = row
        }
        let y = map.maxY
        var nextFree = map.x - 2
        for longitude in stride(from: -180, through: 180, by: 60) {
            let text = longitude == 0 ? "0°" : "\(abs(longitude))°\(longitude > 0 ? "E" : "W")"
            let column = dot(latitude: 0, longitude: Double(longitude), canvas: canvas).x / 2
            let width = TextWidth.of(text)
            let start = min(max(map.x + column - width / 2, map.x - 2), map.maxX + 2 - width)
            guard start >= nextFree else { continue }
            buffer.put(text, at: Point(x: start, y: y), style: label)
            nextFree = start + width + 1
        }
    }
}
