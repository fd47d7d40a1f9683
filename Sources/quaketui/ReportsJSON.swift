import Foundation
import QuakeModel

/// `agencies` and `reports` as `list --json` and `watch --json` write them (issue 53): how many
/// agencies reported the event, and each one's solution, the preferred one (whose code the event
/// keeps) first: `[{"agency","code","time","latitude","longitude","depth","magnitude","magType",
/// "status","updated"}]`.
struct ReportsJSON {
    let reports: [QuakeRecord]

    init(_ reports: [QuakeRecord]) { self.reports = reports }

    struct Report: Encodable {
        let record: QuakeRecord
        enum CodingKeys: String, CodingKey {
            case agency, code, time, latitude, longitude, depth, magnitude, magType, status, updated
        }
        func encode(to encoder: Encoder) throws {
            var c = encoder.container(keyedBy: CodingKeys.self)
            try c.encode(Association.agency(of: record), forKey: .agency)
            try c.encode(record.code, forKey: .code)
            try c.encode(ISO8601Format.string(milliseconds: record.time), forKey: .time)
            try c.encode(record.latitude, forKey: .latitude)
            try c.encode(record.longitude, forKey: .longitude)
            try c.encode(record.depth, forKey: .depth)  // null, not omitted
            try c.encode(record.magnitude, forKey: .magnitude)
            try c.encode(record.magType, forKey: .magType)
            try c.encode(record.status, forKey: .status)
            try c.encode(ISO8601Format.string(milliseconds: record.updated), forKey: .updated)
        }
    }

    func encode<Key: CodingKey>(to c: inout KeyedEncodingContainer<Key>, agencies: Key, reports key: Key) throws {
        try c.encode(Set(reports.map(Association.agency(of:))).count, forKey: agencies)
        try c.encode(reports.map(Report.init(record:)), forKey: key)
    }
}
