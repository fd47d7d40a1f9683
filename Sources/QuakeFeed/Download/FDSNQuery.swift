import Foundation
import QuakeTime

/// One `quaketui fetch`: an FDSN event service (`/fdsnws/event/1/query`) and the filters of
/// the FDSN web service specification 1.2 — time range, magnitude, depth, a box or a circle.
///
/// ```swift
/// var query = try FDSNQuery(service: "usgs")
/// query.start = try FDSNQuery.time("2011-03-01", now: now)
/// query.url(from: query.start, to: query.end, limit: 20_000)
/// ```
public struct FDSNQuery: Sendable, Equatable {
    /// A service quaketui knows by name.
    public struct Service: Sendable, Equatable {
        public let name: String
        public let baseURL: String
        /// The most events one answer may hold (USGS: 20,000).
        public let limit: Int
    }

    public static let services: [Service] = [
        Service(name: "usgs", baseURL: "https://earthquake.usgs.gov/fdsnws/event/1/query", limit: 20_000),
        Service(name: "emsc", baseURL: "https://www.seismicportal.eu/fdsnws/event/1/query", limit: 10_000),
        Service(name: "iris", baseURL: "https://service.iris.edu/fdsnws/event/1/query", limit: 10_000),
        Service(name: "ingv", baseURL: "https://webservices.ingv.it/fdsnws/event/1/query", limit: 10_000),
        Service(name: "geofon", baseURL: "https://geofon.gfz.de/fdsnws/event/1/query", limit: 10_000),
    ]

    /// The service's query URL.
    public var baseURL: String
    /// The agency the events belong to (`usgs`, `emsc`, …; a host for other URLs).
    public var agency: String
    /// Events per request the service allows.
    public var limit: Int
    /// The time range, ms since the epoch, both ends included (as FDSN `starttime`/`endtime`).
    public var start: Int64 = 0
    public var end: Int64 = 0
    public var minMagnitude: Double?
    public var maxMagnitude: Double?
    public var minDepth: Double?
    public var maxDepth: Double?
    /// West, south, east, north in degrees.
    public var box: [Double]?
    /// Latitude, longitude and radius in km.
    public var circle: [Double]?

    /// A named service or a URL (`https://host/fdsnws/event/1/query`, or the part before `query`).
    /// `QUAKETUI_FDSN_BASE_URL` replaces a named service's URL (for mirrors and tests) and
    /// `QUAKETUI_FDSN_LIMIT` its limit; the agency stays the named one.
    public init(service: String, environment: [String: String] = ProcessInfo.processInfo.environment) throws(FDSNQueryError) {
        if let known = Self.services.first(where: { $0.name == service.lowercased() }) {
            baseURL = environment["QUAKETUI_FDSN_BASE_URL"].flatMap { $0.isEmpty ? nil : $0 } ?? known.baseURL
            agency = known.name
            limit = environment["QUAKETUI_FDSN_LIMIT"].flatMap { Int($0) }.flatMap { $0 > 0 ? $0 : nil } ?? known.limit
            return
        }
        guard let url = URL(string: service), let scheme = url.scheme?.lowercased(), scheme == "http" || scheme == "https",
              let host = url.host, !host.isEmpty else {
            throw FDSNQueryError("'\(service)' is not a service quaketui knows (usgs, emsc, iris, ingv, geofon) nor an http(s) URL")
        }
        var base = service
        if let question = base.firstIndex(of: "?") { base = String(base[..<question]) }
        if !base.hasSuffix("/query") { base += base.hasSuffix("/") ? "query" : "/query" }
        baseURL = base
        agency = FeedAgency.fromHost(host)
        limit = environment["QUAKETUI_FDSN_LIMIT"].flatMap { Int($0) } ?? 10_000
    }

    /// The query URL of one window, both ends included, answering FDSN text.
    public func url(from start: Int64, to end: Int64, limit: Int) -> URL {
        var items = [
            URLQueryItem(name: "starttime", value: Self.format(start)),
            URLQueryItem(name: "endtime", value: Self.format(end)),
        ]
        func add(_ name: String, _ value: Double?) {
            if let value { items.append(URLQueryItem(name: name, value: Self.number(value))) }
        }
        add("minmagnitude", minMagnitude)
        add("maxmagnitude", maxMagnitude)
        add("mindepth", minDepth)
        add("maxdepth", maxDepth)
        if let box {
            add("minlongitude", box[0]); add("minlatitude", box[1]); add("maxlongitude", box[2]); add("maxlatitude", box[3])
        }
        if let circle {
            // maxradius is in degrees in the specification (one degree: 111.19 km on the mean sphere).
            add("latitude", circle[0]); add("longitude", circle[1]); add("maxradius", circle[2] / 111.19492664)
        }
        items += [
            URLQueryItem(name: "orderby", value: "time-asc"),
            URLQueryItem(name: "limit", value: String(limit)),
            URLQueryItem(name: "format", value: "text"),
            URLQueryItem(name: "nodata", value: "204"),
        ]
        var components = URLComponents(string: baseURL)!
        components.queryItems = (components.queryItems ?? []) + items
        return components.url!
    }

    /// The parts of the query that make it the same fetch, for resuming: the service, the
    /// filters and the range as the user wrote it (`30d` stays `30d`).
    public func identity(startText: String, endText: String) -> String {
        let filters: [String] = [
            baseURL, agency, "start=\(startText)", "end=\(endText)",
            "minmag=\(minMagnitude.map(Self.number) ?? "")", "maxmag=\(maxMagnitude.map(Self.number) ?? "")",
            "mindepth=\(minDepth.map(Self.number) ?? "")", "maxdepth=\(maxDepth.map(Self.number) ?? "")",
            "box=\(box?.map(Self.number).joined(separator: ",") ?? "")", "circle=\(circle?.map(Self.number).joined(separator: ",") ?? "")",
        ]
        return filters.joined(separator: "|")
    }

    // MARK: - Values

    /// `2024-01-01T00:00:00.000` (UTC, as FDSN services read it).
    public static func format(_ ms: Int64) -> String {
        let seconds = ms >= 0 ? ms / 1000 : (ms - 999) / 1000
        let fraction = ms - seconds * 1000
        return "\(CivilDate.isoDateTime(seconds: seconds)).\(CivilDate.digits(fraction, 3))"
    }

    private static func number(_ value: Double) -> String {
        value == value.rounded() && abs(value) < 1e15 ? String(Int64(value)) : String(value)
    }

    /// A time argument: a date (`2024-01-01`), a date and time (`2024-01-01T12:00:00`, UTC
    /// unless it has a zone), `now`, or a span before now: `30d`, `12h`, `2w`, `10y`.
    public static func time(_ text: String, now: Int64) throws(FDSNQueryError) -> Int64 {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        if trimmed == "now" { return now }
        if let unit = trimmed.last, let count = Double(trimmed.dropLast()), count >= 0 {
            let day = 86_400_000.0
            let span: Double? = switch unit {
            case "h": count * 3_600_000
            case "d": count * day
            case "w": count * 7 * day
            case "y": count * 365.2425 * day
            default: nil
            }
            if let span { return now - Int64(span) }
        }
        var value = trimmed.count == 10 ? trimmed + "T00:00:00" : trimmed
        if let ms = value.withUTF8({ $0.isEmpty ? nil : parseISO8601Milliseconds($0.baseAddress!, $0.count) }) { return ms }
        throw FDSNQueryError("'\(text)' is not a date (2024-01-01, 2024-01-01T12:00:00Z) or a span before now (30d, 12h, 2w, 10y)")
    }
}

/// A fetch argument that does not make sense, as one sentence.
public struct FDSNQueryError: Error, CustomStringConvertible, Sendable {
    public let description: String
    public init(_ description: String) { self.description = description }
}
