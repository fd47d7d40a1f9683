import QuakeModel

extension QuakeFormat {
    /// A distance from home in whole units with thousands separators (`1,234 km`, `767 mi`),
    /// one decimal under 10 (`8.3 km`).
    public static func homeDistance(kilometres: Double, unit: DisplaySettings.DistanceUnit) -> String {
        let value = unit == .mi ? kilometres / 1.609344 : kilometres
        // Past any distance on Earth (a store edited by hand) the number is shown as it is.
        let number = value < 9.95 || !(value < 1e15) ? String(format: "%.1f", value) : count(Int(value.rounded()))
        return "\(number) \(unit.rawValue)"
    }

    /// `1,234 km NNE of home`: distance and compass point from home to the epicentre.
    public static func fromHome(_ home: GeoPoint, latitude: Double, longitude: Double,
                                unit: DisplaySettings.DistanceUnit) -> String {
        let epicentre = GeoPoint(latitude: latitude, longitude: longitude)
        let distance = homeDistance(kilometres: home.distance(to: epicentre), unit: unit)
        return "\(distance) \(GeoPoint.compassPoint(home.bearing(to: epicentre))) of home"
    }
}
