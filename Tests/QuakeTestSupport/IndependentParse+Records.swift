import Foundation
import QuakeModel
import QuakeStore

extension IndependentParse {
    /// The distinct usable quakes of `url` (an id, a time and coordinates), a later `updated`
    /// winning as in the store, in file order: what an import must leave in an empty store.
    public static func distinctRecords(_ url: URL) throws -> [QuakeRecord] {
        var byCode: [String: CoreFields] = [:]
        var order: [String] = []
        for fields in try expected(for: url) {
            if let known = byCode[fields.code] {
                if fields.updated >= known.updated { byCode[fields.code] = fields }
            } else {
                byCode[fields.code] = fields
                order.append(fields.code)
            }
        }
        return order.map { code in
            let f = byCode[code]!
            return QuakeRecord(code: f.code, magnitude: f.magnitude, place: f.place, time: f.time, updated: f.updated,
                               latitude: f.latitude, longitude: f.longitude, depth: f.depth)
        }
    }
}
