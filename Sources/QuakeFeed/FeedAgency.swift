/// The agency an event comes from, and how its code is namespaced in the store.
///
/// USGS codes stay exactly as the USGS feeds write them (`us7000abcd`), so a `fetch` from
/// USGS merges with `refresh`. Every other agency's event ids are prefixed with the agency
/// (`emsc:20240101_0000123`, `iris:958596`): numeric ids of two agencies would otherwise
/// collide. The agency is a short lowercase word: `usgs`, `emsc`, `iris`, `ingv`, `geofon`,
/// `isc`, or a host name for other services.
public enum FeedAgency {
    /// The code the store uses for `id` from `agency`.
    public static func code(_ id: String, agency: String) -> String {
        agency == "usgs" ? id : "\(agency):\(id)"
    }

    /// The agency of a QuakeML `publicID` such as `smi:service.iris.edu/fdsnws/event/1/query?eventid=1`
    /// or `quakeml:us.anss.org/event/c000nwtr`.
    public static func fromPublicID(_ publicID: String) -> String {
        var rest = Substring(publicID)
        if let colon = rest.firstIndex(of: ":") { rest = rest[rest.index(after: colon)...] }
        while rest.hasPrefix("/") { rest = rest.dropFirst() }
        let host = String(rest.prefix { $0 != "/" && $0 != "?" }).lowercased()
        return fromHost(host)
    }

    /// The agency of a service host (`earthquake.usgs.gov` → `usgs`); unknown hosts are their own agency.
    public static func fromHost(_ host: String) -> String {
        let host = host.lowercased()
        let known: [(String, String)] = [
            ("usgs.gov", "usgs"), ("anss.org", "usgs"), ("seismicportal.eu", "emsc"), ("emsc", "emsc"),
            ("iris.edu", "iris"), ("earthscope.org", "iris"), ("ingv.it", "ingv"), ("gfz-potsdam.de", "geofon"),
            ("gfz.de", "geofon"), ("geofon", "geofon"), ("isc.ac.uk", "isc"),
        ]
        for (suffix, agency) in known where host.contains(suffix) { return agency }
        let cleaned = host.filter { $0.isLetter || $0.isNumber || $0 == "." || $0 == "-" }
        return cleaned.isEmpty ? "unknown" : cleaned
    }

    /// The agency of an FDSN text row, decided once per file from its first row: USGS ComCat
    /// rows (`us6000m0yg|…|us|us|us|us6000m0yg|…`: the id starts with the contributor's
    /// network code), EMSC ids (`20240101_0000123`), else the catalog or author, lowercased.
    static func fromFDSNText(eventID: String, author: String, catalog: String, contributor: String) -> String {
        let network = contributor.lowercased()
        if !network.isEmpty, network.count <= 3, eventID.lowercased().hasPrefix(network),
           eventID.count > network.count {
            return "usgs"
        }
        let bytes = Array(eventID.utf8)
        if bytes.count == 16, bytes[8] == UInt8(ascii: "_"),
           bytes.enumerated().allSatisfy({ $0.offset == 8 || ($0.element &- 0x30) < 10 }) {
            return "emsc"
        }
        let label = [catalog, author, contributor].first { !$0.isEmpty } ?? "fdsn"
        let cleaned = label.lowercased().filter { $0.isLetter || $0.isNumber || $0 == "-" || $0 == "." }
        return cleaned.isEmpty ? "fdsn" : cleaned
    }
}
