import Foundation

/// The user's home, stored under the app-storage key `home` as the dictionary
/// `{latitude: Double, longitude: Double, name: String (optional)}`.
///
/// ```sh
/// quaketui config home 35.68,139.69 --name Tokyo
/// ```
public struct HomeLocation: PropertyListStorable, Hashable, Sendable, Codable {
    public var latitude: Double
    public var longitude: Double
    public var name: String?

    public init(latitude: Double, longitude: Double, name: String? = nil) {
        self.latitude = latitude
        self.longitude = longitude
        self.name = name
    }

    /// Finite coordinates on the globe.
    public var isValid: Bool {
        latitude.isFinite && longitude.isFinite && abs(latitude) <= 90 && abs(longitude) <= 180
    }

    public init?(propertyListItem: PropertyListItem) {
        guard case .dictionary(let d) = propertyListItem,
              let latitude = d["latitude"].flatMap(Double.init(propertyListItem:)),
              let longitude = d["longitude"].flatMap(Double.init(propertyListItem:))
        else { return nil }
        var name: String?
        if let item = d["name"] {
            guard case .string(let text) = item else { return nil }
            name = text
        }
        self.init(latitude: latitude, longitude: longitude, name: name)
    }

    public var propertyListItem: PropertyListItem? {
        var d: [String: PropertyListItem] = ["latitude": .double(latitude), "longitude": .double(longitude)]
        if let name { d["name"] = .string(name) }
        return .dictionary(d)
    }
}
