import Foundation

extension Connection {
    /// The quakes whose origin time is in `from ... through` (ms since the epoch), read by a
    /// range of the `quake_time` index (`time` alone, not led by the row's block): as many row
    /// reads as quakes in the range, whatever the store's size. `quaketui status` reads the
    /// last 24 hours so (a few thousand rows at most in a real catalogue).
    public func quakes(from: Int64, through: Int64) throws(SQLiteError) -> [QuakeRecord] {
        let statement = try prepare("SELECT \(StoredQuake.columns) FROM quake INDEXED BY quake_time WHERE time BETWEEN ? AND ?")
        try statement.bind([.integer(from), .integer(through)])
        var quakes: [QuakeRecord] = []
        while try statement.step() { quakes.append(StoredQuake(statement).record) }
        return quakes
    }
}
