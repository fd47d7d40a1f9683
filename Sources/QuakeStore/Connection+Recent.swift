import Foundation
import QuakeModel

extension RecentQuakeTerms {
    /// The terms OR-ed as SQL with their arguments; nil when there is none.
    var sql: (String, [SQLiteValue])? {
            var terms: [String] = [], arguments: [SQLiteValue] = []
            if let minimumMagnitude {
                terms.append("magnitude >= ?")
                arguments.append(.real(MagnitudeBin.lowestStored(shownAtLeast: minimumMagnitude)))
            }
            if let near {
                terms.append("\(near.center.distanceSQL()) <= ?")
                arguments.append(.real(near.radiusKm))
            }
            if let intensity {
                terms.append("\(intensity.home.intensitySQL()) * 10 >= ?")
                arguments.append(.real(FeltIntensity.scaledFloor(tenths: intensity.tenths)))
            }
            if let nearSince {
                terms.append("(time >= ? AND \(nearSince.center.distanceSQL()) <= ?)")
                arguments += [.integer(nearSince.since), .real(nearSince.radiusKm)]
            }
            return terms.isEmpty ? nil : ("(" + terms.joined(separator: " OR ") + ")", arguments)
    }
}

extension Connection {

    /// The quakes whose origin time is in `from ... through` (ms since the epoch) and that meet
    /// one of `terms`, read by a range of the `quake_time` index (`time` alone, not led by the
    /// row's block: one seek): as many index entries as quakes in the range, whatever the store's
    /// size, and a record only for those that meet a term. `quaketui status` reads the last 24
    /// hours so (2,880 quakes in quakebench's store, a few hundred in a real day).
    public func quakes(from: Int64, through: Int64, meeting terms: RecentQuakeTerms) throws(SQLiteError) -> [QuakeRecord] {
        guard let (term, arguments) = terms.sql else { return [] }
        let statement = try prepare("""
            SELECT \(StoredQuake.columns) FROM quake INDEXED BY quake_time WHERE time BETWEEN ? AND ? AND \(term)
            """)
        try statement.bind([.integer(from), .integer(through)] + arguments)
        var quakes: [QuakeRecord] = []
        while try statement.step() { quakes.append(StoredQuake(statement).record) }
        return quakes
    }
}
