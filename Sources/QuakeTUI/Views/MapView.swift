import QuakeModel

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

    static func render(_ record: QuakeRecord, map: MapDensityModel = MapDensityModel(), in content: Rect,
                       into buffer: inout CellBuffer) {
        // The scale, at the caption's right end: what + and - change; ` …` while the density
        // drawn is not the list's yet (being counted), as the statistics views say it.
        let scale = "± \(map.zoom.rawValue)" + (map.isPending ? " …" : "")
        let scaleX = content.maxX - 1 - TextWidth.of(scale)
        var x = content.x + 1
        x += buffer.put(marker + " ", at: Point(x: x, y: content.y), style: .role(.epicentre, [.bold]))
        x += buffer.put(QuakeFormat.coordinates(latitude: record.latitude, longitude: record.longitude),
                        at: Point(x: x, y: content.y), style: .role(.accent, [.bold]), maxWidth: content.maxX - x)
        if !record.place.isEmpty, x + 4 < scaleX {
            buffer.put("  " + PlaceName.displayed(record.place), at: Point(x: x, y: content.y), style: .role(.dim), maxWidth: scaleX - 1 - x)
        }
        if scaleX > x + 1 { buffer.put(scale, at: Point(x: scaleX, y: content.y), style: .role(.dim)) }
        let body = content.splitTop(1).1
        let main = mapRect(in: body)
        guard main.width >= 8, main.height >= 2 else { return }
        var canvas = BrailleCanvas(columns: main.width, rows: main.height)
        let projection = Self.projection(map.zoom, around: record, pixelWidth: canvas.pixelWidth, pixelHeight: canvas.pixelHeight)
        let steps = labelSteps(map.zoom)
        draw(projection, canvas: &canvas, record: record, density: map.grid, in: main, latitudeStep: steps.latitude,
             longitudeStep: steps.longitude, into: &buffer)

        // A close-up one scale in, in the rows the map left free (its density from the same grid).
        let closer = map.zoom.stepped(1)
        guard closer != map.zoom, let span = closer.latitudeSpan else { return }
        let below = body.splitTop(main.height + 2).1
        guard below.height >= minimumRegionRows else { return }
        buffer.put(closer == .region ? "Region (40° × 20°)" : "Local (4° × 2°)", at: Point(x: content.x + 1, y: below.y),
                   style: .role(.header, [.bold]), maxWidth: content.width - 1)
        let region = mapRect(in: below.splitTop(1).1, maximumRows: main.height)
        guard region.width >= 8, region.height >= 4 else { return }
        var regionCanvas = BrailleCanvas(columns: region.width, rows: region.height)
        let regional = MapProjection.region(latitude: record.latitude, longitude: record.longitude, latitudeSpan: span,
                                            pixelWidth: regionCanvas.pixelWidth, pixelHeight: regionCanvas.pixelHeight)
        let closeSteps = labelSteps(closer)
        draw(regional, canvas: &regionCanvas, record: record, density: map.grid, in: region,
             latitudeStep: closeSteps.latitude, longitudeStep: closeSteps.longitude, into: &buffer)
    }

    /// The projection of a map of `zoom` around a quake (the world is centred on Greenwich).
    static func projection(_ zoom: MapZoom, around record: QuakeRecord, pixelWidth: Int, pixelHeight: Int) -> MapProjection {
        guard let span = zoom.latitudeSpan else { return .world(pixelWidth: pixelWidth, pixelHeight: pixelHeight) }
        return .region(latitude: record.latitude, longitude: record.longitude, latitudeSpan: span,
                       pixelWidth: pixelWidth, pixelHeight: pixelHeight)
    }

    /// Degrees between latitude and longitude labels at a scale.
    static func labelSteps(_ zoom: MapZoom) -> (latitude: Int, longitude: Int) {
        switch zoom {
        case .world: (30, 60)
        case .region: (5, 10)
        case .local: (1, 1)
        }
    }

    /// Draws coastlines, labels, the list's density and the epicentre marker for one projection.
    static func draw(_ projection: MapProjection, canvas: inout BrailleCanvas, record: QuakeRecord, density: DensityGrid? = nil,
                     in map: Rect, latitudeStep: Int, longitudeStep: Int, into buffer: inout CellBuffer) {
        projection.drawCoastlines(on: &canvas)
        for row in 0..<map.height {
            for column in 0..<map.width {
                if let character = canvas.character(column: column, row: row) {
                    buffer.set(Cell(String(character), style: .role(.land)), x: map.x + column, y: map.y + row)
                }
            }
        }
        drawLabels(projection, map: map, latitudeStep: latitudeStep, longitudeStep: longitudeStep, into: &buffer)
        if let density { drawDensity(density, projection, in: map, into: &buffer) }
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
