/// Where a `distance` sort measures from (home), and the unit its band sections are titled in.
///
/// ```swift
/// var request = SectionedFetchRequest(sortDescriptor: .init(.distance))
/// request.distanceReference = DistanceReference(origin: GeoPoint(latitude: 35.68, longitude: 139.69), unit: .km)
/// ```
public struct DistanceReference: Hashable, Sendable {
    /// The unit of the band titles (and of their bounds: `< 100 mi` is 100 miles).
    public enum Unit: String, Hashable, Sendable {
        case km, mi

        /// Kilometres in one unit (the international mile is exactly 1.609344 km).
        public var kilometres: Double { self == .km ? 1 : 1.609344 }
    }

    public var origin: GeoPoint
    public var unit: Unit

    public init(origin: GeoPoint, unit: Unit = .km) {
        self.origin = origin
        self.unit = unit
    }

    /// The band bounds in the display unit: `< 100`, `100–300`, `300–1,000`, `1,000–3,000`, `≥ 3,000`.
    public static let bandBounds: [Double] = [100, 300, 1_000, 3_000]

    /// The sections of a distance sort, nearest first: key (bounds in km), stable id, title.
    package var bands: [(key: SectionKey, id: String, title: String)] {
        let edges = [0] + Self.bandBounds + [.infinity]
        return (0..<(edges.count - 1)).map { index in
            let lower = edges[index], upper = edges[index + 1]
            let title: String
            if index == 0 {
                title = "< \(Self.format(upper)) \(unit.rawValue)"
            } else if upper.isInfinite {
                title = "≥ \(Self.format(lower)) \(unit.rawValue)"
            } else {
                title = "\(Self.format(lower))–\(Self.format(upper)) \(unit.rawValue)"
            }
            return (.distance(lowerKm: lower * unit.kilometres, upperKm: upper * unit.kilometres), "distance-\(index)", title)
        }
    }

    /// A whole number with thousands separators (`1,000`), independent of the locale.
    private static func format(_ value: Double) -> String {
        let digits = String(Int(value))
        var result = ""
        for (index, character) in digits.enumerated() {
            if index > 0, (digits.count - index) % 3 == 0 { result.append(",") }
            result.append(character)
        }
        return result
    }
}
