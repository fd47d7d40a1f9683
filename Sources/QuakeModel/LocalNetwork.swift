/// The local network for its own region (issue 53): the agency whose network is authoritative
/// where an earthquake happened, as the report itself says. `AgencyPreference` puts such a
/// report where its list names ``word`` (`local-network`, first by default), ahead of the
/// global catalogues, since the network on the spot has the stations near the epicentre.
///
/// What a report carries decides, nothing else:
///
/// | agency | its own region | the report says so by |
/// |---|---|---|
/// | `usgs` (ComCat) | an ANSS regional network's: `ak` `av` `ci` `hv` `ld` `mb` `nc` `nm` `nn` `ok` `pr` `se` `tx` `uu` `uw` | its `net`, one of these (ComCat names a regional network only in its own authoritative region; `us` is the NEIC's global solution) |
/// | `geonet` | New Zealand and the Kermadec Islands: 50°S–29°S, 160°E–175°W | its epicentre |
/// | `ingv` | Italy: 35.5°N–47.5°N, 6°E–19°E | its epicentre |
///
/// ```swift
/// LocalNetwork.isLocal(ingvReportNearNorcia)  // true: INGV, in Italy
/// LocalNetwork.isLocal(ingvReportOfChile)     // false
/// ```
public enum LocalNetwork {
    /// The word of `agencyPreference` that stands for this rule.
    public static let word = "local-network"

    /// ComCat's regional networks (the ANSS networks with an authoritative region).
    public static let comCatRegionalNetworks: Set<String> = [
        "ak", "av", "ci", "hv", "ld", "mb", "nc", "nm", "nn", "ok", "pr", "se", "tx", "uu", "uw",
    ]

    /// An agency's own region: latitudes, and longitudes east of Greenwich (−180…180), in one or
    /// two spans (a region across the antimeridian).
    public struct Region: Sendable, Equatable {
        public let name: String
        public let latitudes: ClosedRange<Double>
        public let longitudes: [ClosedRange<Double>]

        public func contains(latitude: Double, longitude: Double) -> Bool {
            latitudes.contains(latitude) && longitudes.contains { $0.contains(longitude) }
        }
    }

    /// The national networks quaketui knows, by agency.
    public static let regions: [String: Region] = [
        "geonet": Region(name: "New Zealand", latitudes: -50 ... -29, longitudes: [160...180, -180 ... -175]),
        "ingv": Region(name: "Italy", latitudes: 35.5...47.5, longitudes: [6...19]),
    ]

    /// Whether `record` is its agency's report of an earthquake in the agency's own region.
    public static func isLocal(_ record: QuakeRecord) -> Bool {
        let agency = Association.agency(of: record)
        if agency == "usgs" {
            return record.net.map { comCatRegionalNetworks.contains($0.lowercased()) } ?? false
        }
        return regions[agency]?.contains(latitude: record.latitude, longitude: record.longitude) ?? false
    }
}
