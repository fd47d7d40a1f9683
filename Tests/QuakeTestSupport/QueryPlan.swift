import QuakeModel
import QuakeStore

extension Connection {
    /// SQLite's query plan for `sql` (`EXPLAIN QUERY PLAN`'s detail column), one step a line.
    public func queryPlan(_ sql: String) throws -> String {
        let statement = try prepare("EXPLAIN QUERY PLAN \(sql)")
        var details: [String] = []
        while try statement.step() { details.append(statement.text(at: 3)) }
        return details.joined(separator: "\n")
    }
}
