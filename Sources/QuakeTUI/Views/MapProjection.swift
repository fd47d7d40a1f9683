/// An equirectangular window on the world mapped onto a braille canvas's dots.
///
/// Longitudes are measured from `centerLongitude` and wrapped into ±180°, so a window around
/// Fiji or the Aleutians crosses the date line without tearing.
struct MapProjection: Equatable {
    var centerLongitude: Double
    /// Degrees of longitude across the window (360 for the whole world).
    var longitudeSpan: Double
    var minimumLatitude: Double
    var maximumLatitude: Double
    /// Canvas size in dots.
    var pixelWidth: Int
    var pixelHeight: Int

    /// The whole world, centred on Greenwich.
    static func world(pixelWidth: Int, pixelHeight: Int) -> MapProjection {
        MapProjection(centerLongitude: 0, longitudeSpan: 360, minimumLatitude: -90, maximumLatitude: 90,
                      pixelWidth: pixelWidth, pixelHeight: pixelHeight)
    }

    /// A window of `latitudeSpan` degrees (twice as wide in longitude) around a point,
    /// kept inside ±90° latitude, its longitude taken into ±360° (a point off the globe, from a
    /// store edited by hand, gets a window on it rather than one past what the labels count).
    static func region(latitude: Double, longitude: Double, latitudeSpan: Double, pixelWidth: Int,
                       pixelHeight: Int) -> MapProjection {
        let half = latitudeSpan / 2
        let center = min(max(latitude, -90 + half), 90 - half)
        let longitude = longitude.isFinite ? longitude.truncatingRemainder(dividingBy: 360) : 0
        return MapProjection(centerLongitude: longitude, longitudeSpan: latitudeSpan * 2,
                             minimumLatitude: center - half, maximumLatitude: center + half,
                             pixelWidth: pixelWidth, pixelHeight: pixelHeight)
    }

    /// Longitude relative to the centre, wrapped into -180 ..< 180 for a regional window
    /// (the world map keeps -180 on the left edge and +180 on the right).
    func offset(longitude: Double) -> Double {
        if longitudeSpan >= 360 { return longitude - centerLongitude }
        var delta = (longitude - centerLongitude).truncatingRemainder(dividingBy: 360)
        if delta < -180 { delta += 360 }
        if delta >= 180 { delta -= 360 }
        return delta
    }

    /// The dot of a coordinate (may lie outside the canvas; one far off the globe, from a store
    /// edited by hand, lies a billion dots off rather than past what an Int holds).
    func dot(latitude: Double, longitude: Double) -> (x: Int, y: Int) {
        let delta = offset(longitude: longitude)
        let x = (delta + longitudeSpan / 2) / longitudeSpan * Double(pixelWidth - 1)
        let y = (maximumLatitude - latitude) / (maximumLatitude - minimumLatitude) * Double(pixelHeight - 1)
        func pixel(_ value: Double) -> Int { value.isNaN ? -1_000_000_000 : Int(max(-1e9, min(1e9, value.rounded()))) }
        return (pixel(x), pixel(y))
    }

    /// Draws the coastlines onto a canvas; a segment that jumps across the window's back
    /// meridian is skipped, not drawn across the map.
    func drawCoastlines(on canvas: inout BrailleCanvas) {
        for polyline in Coastlines.polylines {
            var previous: (dot: (x: Int, y: Int), offset: Double)?
            for vertex in polyline {
                let latitude = Double(vertex.latitude) / 10
                let longitude = Double(vertex.longitude) / 10
                let point = (dot: dot(latitude: latitude, longitude: longitude), offset: offset(longitude: longitude))
                if let from = previous, abs(point.offset - from.offset) < 90 {
                    canvas.line(from: from.dot, to: point.dot)
                }
                previous = point
            }
        }
    }
}
