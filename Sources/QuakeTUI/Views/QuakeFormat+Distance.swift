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

    /// `1,234 km NNE of Aksaray`: distance and compass point from home (called `homeName`, else
    /// "home") to the epicentre.
    public static func fromHome(_ home: GeoPoint, latitude: Double, longitude: Double,
                                unit: DisplaySettings.DistanceUnit, homeName: String? = nil) -> String {
        let epicentre = GeoPoint(latitude: latitude, longitude: longitude)
        return fromHome(kilometres: home.distance(to: epicentre), bearing: home.bearing(to: epicentre), unit: unit,
                        homeName: homeName)
    }

    /// `1,234 km NNE of Aksaray` from a distance and a bearing already computed.
    public static func fromHome(kilometres: Double, bearing: Double, unit: DisplaySettings.DistanceUnit,
                                homeName: String?) -> String {
        "\(homeDistance(kilometres: kilometres, unit: unit)) \(GeoPoint.compassPoint(bearing)) of \(homeLabel(homeName))"
    }

    /// What home is called on screen: its name, sanitised and on one line, else `home`.
    public static func homeLabel(_ name: String?) -> String {
        let text = name.map { singleLine(SafeText.sanitize($0)).trimmingCharacters(in: .whitespaces) } ?? ""
        return text.isEmpty ? "home" : text
    }

    /// `V moderate (predicted 5.2 ± 0.9), S waves ~6 s after the origin`: the intensity predicted
    /// at home and, within 1,000 km, when its S waves arrive (an estimate at 3.5 km/s; `under a
    /// second` for a quake right under home).
    public static func feltAtHome(_ felt: FeltIntensity) -> String {
        var text = "\(felt.label) (predicted \(String(format: "%.1f", felt.oneDecimal)) ± \(String(format: "%.1f", felt.sigma)))"
        if let seconds = felt.sArrivalSeconds {
            // A quake right under home: its S waves arrive within half a second, not "~0 s" after.
            text += seconds < 0.5 ? ", S waves under a second after the origin"
                                  : ", S waves ~\(count(Int(seconds.rounded()))) s after the origin"
        }
        return text
    }
}
