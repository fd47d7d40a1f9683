import QuakeModel
import Foundation

extension Connection {
    /// b-positive of every quake `request` matches, in one pass over its rows in time order.
    /// Unlike the other statistics it needs the order, which the digest's tally does not keep:
    /// a second pass over the digest collects every row's time and magnitude and sorts them
    /// (`bPositiveFromDigest`); where the digest cannot answer, the rows are read by the time
    /// index (2.6–4.2 s of SQL at 1,000,000 quakes). `quaketui stats` runs it, the browser's
    /// view does not.
    public func bPositive(of request: SectionedFetchRequest) throws(SQLiteError) -> BPositive {
        let plan = QueryPlan(request)
        if let estimate = try bPositiveFromDigest(plan) { return estimate }
        // `+magnitude`: the planner walks the time index, not the magnitude one.
        let (condition, arguments) = plan.rowWhere(magnitude: .never)
        let statement = try prepare("SELECT magnitude FROM quake WHERE \(condition) ORDER BY time, id")
        try statement.bind(arguments)
        var estimate = BPositive()
        while try statement.step() {
            estimate.add(statement.isNull(at: 0) ? nil : statement.double(at: 0))
        }
        return estimate
    }
}
