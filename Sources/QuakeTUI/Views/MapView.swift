import QuakeStore

/// The Map tab: GSHHG coastlines in braille, equirectangular, with the epicentre marked and
/// latitude/longitude labels; a regional close-up below when the pane is tall enough.
enum MapView {
    /// The marker drawn at the epicentre.
    static let marker = "◉"
    /// Rows a close-up needs (caption and longitude labels included) before it is drawn.
    static let minimumRegionRows = 8

    /// Where a map goes inside `available`: the drawing keeps a 2:1 window (square dots) when
    /// there is room, leaving a 5-column gutter for latitude labels and a row for longitudes.
    static func mapRect(in available: Rect, maximumRows: Int? = nil) -> Rect {
        let area = Rect(x: available.x + 5, y: available.y, width: available.width - 6, height: available.height - 1)
        guard !area.isEmpty else { return area }
        let rows = min(area.height, maximumRows ?? area.height, max(1, area.width / 4))
        let columns = min(area.width, rows * 4)
        return Rect(x: area.x + (area.width - columns) / 2, y: area.y, width: columns, height: rows)
    }

    static func render(_ record: QuakeRecord, in content: Rect, into buffer: inout CellBuffer) {
        var x = content.x + 1
        x += buffer.put(marker + " ", at: Point(x: x, y: content.y), style: .role(.epicentre, [.bold]))
        x += buffer.put(QuakeFormat.coordinates(latitude: record.latitude, longitude: record.longitude),
                        at: Point(x: x, y: content.y), style: .role(.accent, [.bold]), maxWidth: content.maxX - x)
        if !record.place.isEmpty, x + 4 < content.maxX {
            buffer.put("  " + record.place, at: Point(x: x, y: content.y), style: .role(.dim), maxWidth: content.maxX - x)
        }
        let body = content.splitTop(1).1
        let world = mapRect(in: body)
        guard world.width >= 8, world.height >= 2 else { return }
        var canvas = BrailleCanvas(columns: world.width, rows: world.height)
        let projection = MapProjection.world(pixelWidth: canvas.pixelWidth, pixelHeight: canvas.pixelHeight)
        draw(projection, canvas: &canvas, record: record, in: world, latitudeStep: 30, longitudeStep: 60,
             into: &buffer)

        // A close-up of the epicentre's region in the rows the world map left free.
        let below = body.splitTop(world.height + 2).1
        guard below.height >= minimumRegionRows else { return }
        buffer.put("Region (40° × 20°)", at: Point(x: content.x + 1, y: below.y), style: .role(.header, [.bold]),
                   maxWidth: content.width - 1)
        let region = mapRect(in: below.splitTop(1).1, maximumRows: world.height)
        guard region.width >= 8, region.height >= 4 else { return }
        var regionCanvas = BrailleCanvas(columns: region.width, rows: region.height)
        let regional = MapProjection.region(latitude: record.latitude, longitude: record.longitude, latitudeSpan: 20,
                                            pixelWidth: regionCanvas.pixelWidth, pixelHeight: regionCanvas.pixelHeight)
        draw(regional, canvas: &regionCanvas, record: record, in: region, latitudeStep: 5, longitudeStep: 10,
             into: &buffer)
    }

    /// Draws coastlines, labels and the epicentre marker for one projection.
    static func draw(_ projection: MapProjection, canvas: inout BrailleCanvas, record: QuakeRecord, in map: Rect,
                     latitudeStep: Int, longitudeStep: Int, into buffer: inout CellBuffer) {
        projection.drawCoastlines(on: &canvas)
        for row in 0..<map.height {
            for column in 0..<map.width {
                if let character = canvas.character(column: column, row: row) {
                    buffer.set(Cell(String(character), style: .role(.land)), x: map.x + column, y: map.y + row)
                }
            }
        }
        drawLabels(projection, map: map, latitudeStep: latitudeStep, longitudeStep: longitudeStep, into: &buffer)
        let epicentre = projection.dot(latitude: record.latitude, longitude: record.longitude)
        buffer.put(marker, at: Point(x: map.x + epicentre.x / 2, y: map.y + epicentre.y / 4),
                   style: .role(.epicentre, [.bold]))
    }

    /// Latitude labels in the left gutter and longitude labels under the map at multiples of
    /// the steps, skipping any that would overlap.
    static func drawLabels(_ projection: MapProjection, map: Rect, latitudeStep: Int, longitudeStep: Int,
                           into buffer: inout CellBuffer) {
        let label = Style.role(.dim)
        var lastRow = -1
        let top = Int(projection.maximumLatitude.rounded(.down))
        for latitude in stride(from: top - top.positiveModulo(latitudeStep), through: Int(projection.minimumLatitude),
                               by: -latitudeStep) where abs(latitude) < 90 {
            let row = projection.dot(latitude: Double(latitude), longitude: projection.centerLongitude).y / 4
            guard row > lastRow, row < map.height else { continue }
            let text = latitude == 0 ? "0°" : "\(abs(latitude))°\(latitude > 0 ? "N" : "S")"
            buffer.put(TextWidth.pad(text, to: 4, alignRight: true), at: Point(x: map.x - 5, y: map.y + row), style: label)
            lastRow = row
        }
        var nextFree = map.x - 2
        let half = projection.longitudeSpan / 2
        let first = Int((projection.centerLongitude - half).rounded(.up))
        let start = first + (longitudeStep - first.positiveModulo(longitudeStep)) % longitudeStep
        for longitude in stride(from: start, through: Int(projection.centerLongitude + half), by: longitudeStep) {
            let wrapped = ((longitude + 180).positiveModulo(360)) - 180
            let name = longitude == 180 ? 180 : wrapped
            let text = name == 0 ? "0°" : (abs(name) == 180 ? "180°" : "\(abs(name))°\(name > 0 ? "E" : "W")")
            let column = projection.dot(latitude: projection.maximumLatitude, longitude: Double(longitude)).x / 2
            let width = TextWidth.of(text)
            let x = min(max(map.x + column - width / 2, map.x - 2), map.maxX + 2 - width)
            guard x >= nextFree else { continue }
            buffer.put(text, at: Point(x: x, y: map.maxY), style: label)
            nextFree = x + width + 1
        }
    }
}

extension Int {
    /// The remainder in `0 ..< modulus`, also for negative numbers.
    func positiveModulo(_ modulus: Int) -> Int { ((self % modulus) + modulus) % modulus }
}
