import Foundation
/// Which reports of several agencies are one earthquake, and which of them an event shows
/// (issue 53). Pure: the store runs it over the reports of a stretch of time
/// (`WriteTransaction.associate`), tests run it over fixtures.
///
/// **The rule.** A report of one agency joins the event of another agency's report when their
/// origin times are within ``window`` (16 s) and their epicentres within ``radius`` (100 km),
/// both limits inclusive, compared with the event's preferred solution; of several such events
/// it joins the one with the smallest `(Δt / 16 s)² + (Δd / 100 km)²`. An event never holds two
/// reports of one agency. The agency is the catalogue that published the report
/// (``agency(of:)``): ComCat is one agency whatever network contributed.
///
/// **Order-independent.** The store's events are a function of its reports, not of the order
/// they came in: ``events(of:preference:)`` takes the reports in the preference order
/// (``AgencyPreference/rank(of:)``: one agency after another, a local network's reports of its
/// own region at `local-network`'s place), then by agency, each agency's in time order, so
/// importing A then B gives what B then A gives, and deleting a report gives what a fresh import
/// of the rest gives.
public enum Association {
    /// The time window, ms (ComCat's association window: 16 s).
    public static let window: Int64 = 16_000
    /// The distance window, km (ComCat's: 100 km).
    public static let radius: Double = 100

    /// The agency of a record: the catalogue that published it (`QuakeRecord.source`; nil is USGS).
    public static func agency(of record: QuakeRecord) -> String { record.source ?? "usgs" }

    /// The distance `(Δt / window)² + (Δd / radius)²` between two solutions, nil when outside
    /// either window (the limits included).
    public static func distance(_ a: QuakeRecord, _ b: QuakeRecord) -> Double? {
        guard let dt = gap(a.time, b.time), dt <= window else { return nil }
        let dd = GeoPoint(latitude: a.latitude, longitude: a.longitude)
            .distance(to: GeoPoint(latitude: b.latitude, longitude: b.longitude))
        guard dd <= radius else { return nil }
        let t = Double(dt) / Double(window), d = dd / radius
        return t * t + d * d
    }

    /// `|a - b|` in ms, nil when it does not fit in 64 bits (times at the ends of the range).
    public static func gap(_ a: Int64, _ b: Int64) -> Int64? {
        let (d, overflow) = a.subtractingReportingOverflow(b)
        return overflow || d == .min ? nil : abs(d)
    }

    /// `time ± window`, held at the ends of the 64-bit range.
    public static func widened(_ time: Int64, by step: Int64) -> Int64 {
        let (t, overflow) = time.addingReportingOverflow(step)
        return overflow ? (step < 0 ? .min : .max) : t
    }

    /// One event: indexes into the reports given, `preferred` first.
    public struct Event: Equatable, Sendable {
        public var members: [Int]
        public var preferred: Int { members[0] }
    }

    /// The events of `reports` (several agencies' reports of a stretch of time), each with its
    /// members, the preferred one first and then the others in preference order.
    public static func events(of reports: [QuakeRecord], preference: AgencyPreference) -> [Event] {
        // Each report's agency, rank and preference key once: the sorts below compared them
        // again at every step (7% of another agency's month into 5M, callgrind).
        let agencies = reports.map(agency(of:))
        let ranks = reports.map(preference.rank(of:))
        let keys = reports.map(preference.key(of:))
        let order = reports.indices.sorted { i, j in
            let ri = ranks[i], rj = ranks[j]
            if ri != rj { return ri < rj }
            if agencies[i] != agencies[j] { return agencies[i] < agencies[j] }
            if reports[i].time != reports[j].time { return reports[i].time < reports[j].time }
            return reports[i].code < reports[j].code
        }
        var events: [Event] = []
        // Each event's agencies (a few: an array is faster than a set).
        var eventAgencies: [[String]] = []
        for i in order {
            var best: (event: Int, distance: Double)?
            for e in events.indices where !eventAgencies[e].contains(agencies[i]) {
                guard let d = distance(reports[i], reports[events[e].preferred]) else { continue }
                // Ties go to the earlier event, whose preferred report sorts first.
                if best == nil || d < best!.distance { best = (e, d) }
            }
            if let best {
                events[best.event].members.append(i)
                eventAgencies[best.event].append(agencies[i])
                events[best.event].members.sort { keys[$0] < keys[$1] }
            } else {
                events.append(Event(members: [i]))
                eventAgencies.append([agencies[i]])
            }
        }
        return events
    }
}

/// The order in which an event's reports are preferred (the `agencyPreference` setting): a
/// reviewed solution before an automatic one, then the report's place in ``agencies``
/// (its agency's; a report of the local network for its own region, ``LocalNetwork``, at
/// `local-network` if that comes first; an agency not listed after every listed one), then a
/// moment magnitude (`Mw`, `Mww`, `Mwr`, …) before others, then the agency's name.
public struct AgencyPreference: Hashable, Sendable {
    public var agencies: [String]

    public init(_ agencies: [String]) { self.agencies = agencies }

    /// The documented default: the local network for its own region first (its stations are
    /// near the epicentre), then ComCat (USGS reviews a global catalogue and publishes moment
    /// tensors), then EMSC, the ISC, GEOFON, INGV, GeoNet, IRIS.
    public static let standard = AgencyPreference([LocalNetwork.word, "usgs", "emsc", "isc", "geofon", "ingv", "geonet", "iris"])

    /// The agency's place (0 first); an agency not listed comes after all listed.
    public func rank(_ agency: String) -> Int { agencies.firstIndex(of: agency) ?? agencies.count }

    /// A report's place: its agency's, or `local-network`'s when that comes first and the report
    /// is the local network's for its own region (``LocalNetwork/isLocal(_:)``).
    public func rank(of report: QuakeRecord) -> Int {
        let own = rank(Association.agency(of: report))
        guard let local = agencies.firstIndex(of: LocalNetwork.word), local < own, LocalNetwork.isLocal(report) else { return own }
        return local
    }

    /// Whether `a` is preferred to `b`.
    public func precedes(_ a: QuakeRecord, _ b: QuakeRecord) -> Bool { key(of: a) < key(of: b) }

    /// What the preference compares, in order: a reviewed solution first, then the report's
    /// place (``rank(of:)``), then a moment magnitude first, then the agency's name, then the code.
    public struct Key: Comparable, Sendable {
        let unreviewed: Bool, rank: Int, notMoment: Bool, agency: String, code: String

        public static func < (a: Key, b: Key) -> Bool {
            if a.unreviewed != b.unreviewed { return !a.unreviewed }
            if a.rank != b.rank { return a.rank < b.rank }
            if a.notMoment != b.notMoment { return !a.notMoment }
            if a.agency != b.agency { return a.agency < b.agency }
            return a.code < b.code
        }
    }

    /// A report's place in the preference: the earlier key is preferred.
    public func key(of report: QuakeRecord) -> Key {
        Key(unreviewed: !Self.isReviewed(report.status), rank: rank(of: report), notMoment: !Self.isMoment(report.magType),
            agency: Association.agency(of: report), code: report.code)
    }

    /// A status that says a person reviewed the solution: `reviewed` (USGS), `manual`
    /// (QuakeML's evaluation mode), `confirmed` or `final`.
    public static func isReviewed(_ status: String?) -> Bool {
        guard let status = status?.lowercased() else { return false }
        return status == "reviewed" || status == "manual" || status == "confirmed" || status == "final"
    }

    /// A magnitude of the moment family: `Mw` and its kinds (`Mww`, `Mwc`, `Mwb`, `Mwr`, `Mi`'s `Mwp`).
    public static func isMoment(_ magType: String?) -> Bool {
        guard let type = magType?.lowercased() else { return false }
        return type.hasPrefix("mw")
    }

    /// The setting's text: agencies separated by commas.
    public var text: String { agencies.joined(separator: ",") }

    /// Parses the setting (`usgs,emsc,isc`): nil unless one or more agency words, none twice.
    public init?(parsing text: String) {
        let words = text.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces).lowercased() }
        guard !words.isEmpty, Set(words).count == words.count,
              words.allSatisfy({ !$0.isEmpty && $0.allSatisfy { $0.isLetter || $0.isNumber || $0 == "." || $0 == "-" } })
        else { return nil }
        agencies = words
    }
}

extension Association {
    /// How `report` differs from the event's `preferred` solution, as the Reports tab says it:
    /// the origin time (`+1.2 s`), the epicentre from the preferred one's (`8 km NNE`), the
    /// magnitude when it differs (`mb 5.1 vs Mww 5.4`) and the depth as shown, from half a km apart
    /// (`depth 12.0 vs 10.0 km`).
    /// Empty for the preferred solution itself.
    public static func differences(of report: QuakeRecord, from preferred: QuakeRecord) -> [String] {
        guard report.code != preferred.code else { return [] }
        var parts: [String] = []
        let seconds = Double(report.time - preferred.time) / 1000
        parts.append(String(format: "%@%.1f s", seconds < 0 ? "-" : "+", abs(seconds)))
        let from = GeoPoint(latitude: preferred.latitude, longitude: preferred.longitude)
        let to = GeoPoint(latitude: report.latitude, longitude: report.longitude)
        let km = from.distance(to: to)
        parts.append(km < 0.5 ? "same epicentre" : "\(Int(km.rounded())) km \(GeoPoint.compassPoint(from.bearing(to: to)))")
        func magnitude(_ r: QuakeRecord) -> String {
            [r.magType, r.magnitude.map(MagnitudeBin.text)].compactMap { $0 }.joined(separator: " ")
        }
        if magnitude(report) != magnitude(preferred) {
            parts.append("\(magnitude(report).isEmpty ? "no magnitude" : magnitude(report)) vs \(magnitude(preferred).isEmpty ? "none" : magnitude(preferred))")
        }
        // Depths as shown (`Tenths`), said from half a km apart.
        if let a = report.depth, let b = preferred.depth, let ta = Tenths.tenth(of: a), let tb = Tenths.tenth(of: b),
           abs(ta.subtractingReportingOverflow(tb).partialValue) >= 5 {
            parts.append("depth \(Tenths.text(a)) vs \(Tenths.text(b)) km")
        }
        return parts
    }
}
