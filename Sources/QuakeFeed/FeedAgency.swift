/// The agency an event comes from, and how its code is namespaced in the store.
///
/// USGS codes stay exactly as the USGS feeds write them (`us7000abcd`), so a `fetch` from
/// USGS merges with `refresh`. Every other agency's event ids are prefixed with the agency
/// (`emsc:20240101_0000123`, `iris:958596`): numeric ids of two agencies would otherwise
/// collide. The agency is a short lowercase word: `usgs`, `emsc`, `iris`, `ingv`, `geofon`,
/// `isc`, or a host name for other services; a record that names no agency at all gets the
/// neutral ``neutral`` (`local:…`), never `usgs`.
///
/// Who decides, first that applies: `import --agency NAME` or the service `fetch` asked;
/// then what the record says (ComCat's `catalog:` attributes, a QuakeML `publicID`'s
/// authority, `creationInfo/agencyID`, `catalog:datasource`; FDSN text's Author, else
/// Contributor, else Catalog). Names an agency writes several ways (`SURVEY-INGV`, `GFZ`,
/// `EMSC-RTS`, GeoNet's `WEL(GNS_Primary)`) become its one agency, so one event read from two
/// formats gets one code.
public enum FeedAgency {
    /// The prefix of events whose record names no agency (ObsPy's `smi:local/…`, an FDSN text
    /// row with empty Author, Contributor and Catalog).
    public static let neutral = "local"

    /// New Zealand's GeoNet (GNS Science): its quake API's GeoJSON (`publicID`) and its FDSN
    /// service's text (Author `WEL(GNS_Primary)` or `GNS`) name the same events.
    public static let geoNet = "geonet"

    /// The code the store uses for `id` from `agency`.
    public static func code(_ id: String, agency: String) -> String {
        agency == "usgs" ? id : "\(agency):\(id)"
    }

    /// `NAME` as `import --agency` takes it: lowercased; nil unless 1–32 letters, digits, `.`
    /// or `-`, starting with a letter or digit.
    public static func validated(_ name: String) -> String? {
        let name = name.lowercased()
        guard (1...32).contains(name.count), let first = name.unicodeScalars.first, isWordScalar(first),
              name.unicodeScalars.allSatisfy({ isWordScalar($0) || $0 == "." || $0 == "-" }) else { return nil }
        return name
    }

    private static func isWordScalar(_ s: Unicode.Scalar) -> Bool {
        ("a"..."z").contains(s) || ("0"..."9").contains(s)
    }

    /// The agency of a QuakeML `publicID` such as `smi:service.iris.edu/fdsnws/event/1/query?eventid=1`
    /// or `quakeml:us.anss.org/event/c000nwtr`: its authority, nil for `smi:local/…` or none.
    public static func fromPublicID(_ publicID: String) -> String? {
        var rest = Substring(publicID)
        if let colon = rest.firstIndex(of: ":"), !rest[..<colon].contains("/") { rest = rest[rest.index(after: colon)...] }
        while rest.hasPrefix("/") { rest = rest.dropFirst() }
        let authority = String(rest.prefix { $0 != "/" && $0 != "?" }).lowercased()
        guard !authority.isEmpty, authority != "local" else { return nil }
        return fromHost(authority)
    }

    /// The agency of a service host (`earthquake.usgs.gov` → `usgs`); unknown hosts are their own agency.
    public static func fromHost(_ host: String) -> String {
        let host = host.lowercased()
        let known: [(String, String)] = [
            ("usgs.gov", "usgs"), ("anss.org", "usgs"), ("seismicportal.eu", "emsc"), ("emsc", "emsc"),
            ("iris.edu", "iris"), ("earthscope.org", "iris"), ("ingv.it", "ingv"), ("gfz-potsdam.de", "geofon"),
            ("gfz.de", "geofon"), ("geofon", "geofon"), ("isc.ac.uk", "isc"), ("geonet.org.nz", geoNet),
        ]
        for (suffix, agency) in known where host.contains(suffix) { return agency }
        let cleaned = host.filter { $0.isLetter || $0.isNumber || $0 == "." || $0 == "-" }
        return cleaned.isEmpty ? neutral : cleaned
    }

    /// An agency named inside a record (FDSN text Author/Contributor/Catalog, QuakeML
    /// `agencyID`, `catalog:datasource`), as the one word the store uses: the spellings of
    /// the agencies quaketui knows (`SURVEY-INGV` → `ingv`, `GFZ` → `geofon`, `EMSC-RTS` →
    /// `emsc`), else the name lowercased; nil when empty. Never `usgs`: a USGS network code in
    /// a record (`us`, `NEIC`) does not make its id a ComCat code.
    public static func fromName(_ name: String) -> String? {
        let cleaned = name.lowercased().filter { $0.isLetter || $0.isNumber || $0 == "-" || $0 == "." }
        guard !cleaned.isEmpty else { return nil }
        if cleaned == "ingv" || cleaned.hasSuffix("-ingv") || cleaned.hasPrefix("ingv-") { return "ingv" }
        if cleaned == "gfz" || cleaned == "geofon" || cleaned.hasPrefix("gfz-") || cleaned.hasPrefix("geofon-") { return "geofon" }
        if cleaned == "emsc" || cleaned.hasPrefix("emsc-") { return "emsc" }
        if cleaned == "isc" || cleaned.hasPrefix("isc-") { return "isc" }
        if cleaned == "iris" || cleaned.hasPrefix("iris-") || cleaned == "irisdmc" { return "iris" }
        if cleaned == "usgs" { return "neic" }
        // GeoNet's SeisComP writes its agency `WEL(GNS_Primary)` (`welgnsprimary` once cleaned).
        if cleaned == "geonet" || cleaned == "gns" || (cleaned.hasPrefix("wel") && cleaned.contains("gns")) { return geoNet }
        return cleaned
    }

    /// The agency of an FDSN text file, decided once from its first row: the EventID column
    /// is the id of the service that wrote the file, one namespace for the whole file. USGS
    /// ComCat rows (`us6000m0yg|…|us|us|us|us6000m0yg|…`: the id starts with the two-letter
    /// network that is the Contributor and the Author or Catalog), EMSC ids (`20240101_0000123`), else the Author, else the
    /// Contributor, else the Catalog (``fromName(_:)``), else ``neutral``.
    static func fromFDSNText(eventID: String, author: String, catalog: String, contributor: String) -> String {
        // ComCat: a two-letter ANSS network as Contributor and as Author or Catalog, and the
        // id starts with it. (GEOFON's `gfz2024abcd` with Contributor `GFZ` is not ComCat.)
        let network = contributor.lowercased()
        if network.count == 2, network.unicodeScalars.allSatisfy({ ("a"..."z").contains($0) }),
           author.lowercased() == network || catalog.lowercased() == network,
           eventID.lowercased().hasPrefix(network), eventID.count > network.count {
            return "usgs"
        }
        let bytes = Array(eventID.utf8)
        if bytes.count == 16, bytes[8] == UInt8(ascii: "_"),
           bytes.enumerated().allSatisfy({ $0.offset == 8 || ($0.element &- 0x30) < 10 }) {
            return "emsc"
        }
        return fromName(author) ?? fromName(contributor) ?? fromName(catalog) ?? neutral
    }

    /// The event's own id inside a QuakeML `publicID` (without the agency):
    ///
    /// - an `eventid=` (or `evid=`) parameter, in any case, in the query or as a path segment
    ///   (`…/query?eventId=37893831`, `smi:ISC/evid=600516598`);
    /// - else the last path segment that is not a generic word of the path (`event`, `events`,
    ///   `query`, `fdsnws`, `origin`), nor a short version number right after one: ObsPy's
    ///   `smi:local/ndk/C201303010329A/event` → `C201303010329A`, `smi:host/2016p858000/event/1`
    ///   → `2016p858000`, GEOFON's `smi:org.gfz-potsdam.de/geofon/gfz2024abcd` → `gfz2024abcd`.
    ///   Other query parameters (`format=xml`) and a `#fragment` are not part of it;
    /// - else the whole `publicID`.
    public static func eventID(fromPublicID publicID: String) -> String {
        var rest = Substring(publicID)
        if let colon = rest.firstIndex(of: ":"), !rest[..<colon].contains("/") { rest = rest[rest.index(after: colon)...] }
        if let hash = rest.firstIndex(of: "#") { rest = rest[..<hash] }
        var query: Substring = ""
        if let question = rest.firstIndex(of: "?") {
            query = rest[rest.index(after: question)...]
            rest = rest[..<question]
        }
        let segments = rest.split(separator: "/", omittingEmptySubsequences: true).dropFirst()  // the authority
        for parameter in query.split(separator: "&") + segments.reversed() {
            guard let equals = parameter.firstIndex(of: "=") else { continue }
            let name = parameter[..<equals].lowercased()
            let value = parameter[parameter.index(after: equals)...]
            if (name == "eventid" || name == "evid"), !value.isEmpty { return String(value) }
        }
        let words = Array(segments)
        var kept: Substring?
        for (i, segment) in words.enumerated() {
            if generic.contains(segment.lowercased()) { continue }
            // `1` in `fdsnws/event/1/query` and in `<id>/event/1` is a version, not an id.
            let version = i > 0 && generic.contains(words[i - 1].lowercased()) && segment.count <= 2
                && segment.allSatisfy(\.isNumber)
            if version, kept != nil || (i + 1 < words.count && generic.contains(words[i + 1].lowercased())) { continue }
            kept = segment
        }
        if let kept { return String(kept) }
        return publicID
    }

    /// Path words that name a kind of resource, not an event (`…/fdsnws/event/1/query`, `…/<id>/event`).
    private static let generic: Set<String> = ["event", "events", "query", "fdsnws", "origin"]
}
