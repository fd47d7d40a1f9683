import Foundation
import QuakeModel

/// One quake as one JSON object: the one shape of a quake that every command prints (`list
/// --json`'s quakes, `watch --json`'s lines, the alert command's stdin), so a script reads the
/// same keys whichever command it reads (issue 56.11).
///
/// ```swift
/// let line = try QuakeJSON(record: quake.record, distanceKm: 12.3, bearing: 45, home: home).line()
/// // {"alert":null,"bearing":45,"code":"us7000abcd","depth":10,…,"source":"usgs",…}
/// ```
///
/// Every key is always written, `null` where the quake has no value, except `distanceKm` and
/// `bearing`, which only a command measuring from a point writes. The values are written as
/// given: a caller decides their precision (`list` exact, `watch` to 0.1 km and whole degrees).
/// To add a field, add its key to `Key` and one line to `encode(to:)`, and name it in the
/// README's table of JSON fields.
struct QuakeJSON: Encodable {
    let record: QuakeRecord
    /// From the point the command measures from, when it has one.
    var distanceKm: Double?
    var bearing: Double?
    /// Home (app storage), for `intensityAtHome` and `sArrivalSeconds` (null without one, issue 55),
    /// never `--near`'s point: the field says where it was predicted.
    var home: GeoPoint?
    /// The event's reports, the preferred first (issue 53): `agencies` and `reports` (`ReportsJSON`);
    /// nil: not written (the alert command's stdin).
    var reports: [QuakeRecord]?
    /// What the event showed before its agencies changed, on a line `watch` prints again:
    /// `"was": {"code","agencies"}`; nil: not written.
    var was: EarlierEvent?

    enum Key: String, CodingKey, CaseIterable {
        case code, magnitude, magType, place, time, updated, depth, latitude, longitude, type, status, alert
        case tsunami, felt, sig, net, url, title, source, distanceKm, bearing, intensityAtHome, sArrivalSeconds
        case agencies, reports, was
    }

    /// The keys every quake object of `list` and `watch` has (all but `distanceKm`, `bearing`
    /// and `was`), for tests and the README.
    static let alwaysWritten = Key.allCases.filter { ![.distanceKm, .bearing, .was].contains($0) }.map(\.rawValue)

    func encode(to encoder: Encoder) throws {
        var c = encoder.container(keyedBy: Key.self)
        try c.encode(record.code, forKey: .code)
        try c.encode(record.magnitude, forKey: .magnitude)  // null when unknown, not omitted
        try c.encode(record.magType, forKey: .magType)
        try c.encode(record.place, forKey: .place)
        try c.encode(ISO8601Format.string(milliseconds: record.time), forKey: .time)
        try c.encode(ISO8601Format.string(milliseconds: record.updated), forKey: .updated)
        try c.encode(record.depth, forKey: .depth)
        try c.encode(record.latitude, forKey: .latitude)
        try c.encode(record.longitude, forKey: .longitude)
        try c.encode(record.type, forKey: .type)
        try c.encode(record.status, forKey: .status)
        try c.encode(record.alert, forKey: .alert)
        try c.encode(record.tsunami, forKey: .tsunami)
        try c.encode(record.felt, forKey: .felt)
        try c.encode(record.sig, forKey: .sig)
        try c.encode(record.net, forKey: .net)
        try c.encode(record.url, forKey: .url)
        try c.encode(record.title, forKey: .title)
        try c.encode(record.source ?? "usgs", forKey: .source)  // as the list's row reads it
        try c.encodeIfPresent(distanceKm, forKey: .distanceKm)
        try c.encodeIfPresent(bearing, forKey: .bearing)
        let felt = home.flatMap {
            FeltIntensity(home: $0, latitude: record.latitude, longitude: record.longitude, depth: record.depth, magnitude: record.magnitude)
        }
        try FeltJSON(felt).encode(to: &c, intensity: .intensityAtHome, arrival: .sArrivalSeconds)
        if let reports { try ReportsJSON(reports).encode(to: &c, agencies: .agencies, reports: .reports) }
        if let was { try c.encode(WasJSON(code: was.code, agencies: was.agencies), forKey: .was) }
    }

    /// `"was"`'s object.
    private struct WasJSON: Encodable {
        let code: String
        let agencies: Int
    }

    /// A quake as `watch --json` and the alert command write it: the distance to 0.1 km, the
    /// bearing in whole degrees.
    static func arrival(_ record: QuakeRecord, distanceKm: Double?, bearing: Double?, home: GeoPoint? = nil,
                        reports: [QuakeRecord]? = nil, was: EarlierEvent? = nil) -> QuakeJSON {
        QuakeJSON(record: record, distanceKm: distanceKm.map { ($0 * 10).rounded() / 10 }, bearing: bearing.map { $0.rounded() },
                  home: home, reports: reports, was: was)
    }

    /// The object on one line, keys sorted.
    func line() throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return String(decoding: try encoder.encode(self), as: UTF8.self)
    }
}

extension QuakeRecord {
    /// What a list row holds of a quake, for a row whose record could not be read (another
    /// process deleted it between the row's read and the record's): the fields a row lacks are
    /// nil, and `updated` is the origin time, the earliest it can be.
    init(row: QuakeRow) {
        self.init(code: row.code, magnitude: row.magnitude, place: row.place, time: row.time, updated: row.time,
                  latitude: row.latitude, longitude: row.longitude, depth: row.depth, type: row.type,
                  tsunami: row.tsunami ? 1 : 0, alert: row.alert, source: row.source)
    }
}
