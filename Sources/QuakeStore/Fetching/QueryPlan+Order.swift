import QuakeModel
/// The order half of a `QueryPlan`: the SQL and the Swift comparisons of the request's sort,
/// as its `SortStrategy` answers them.
extension QueryPlan {
    /// The `FROM` of every row query: the quake table, or for a distance sort the distance table
    /// joined to it (see `DistanceTable`).
    var from: String { strategy.from }

    /// `ORDER BY` of the rows; a total order (ties broken by id), served by an index.
    var orderBy: String { strategy.orderBy }

    /// `orderBy` backwards: reads a section from its end (the rows before a row, nearest first).
    var reversedOrderBy: String {
        orderBy.replacingOccurrences(of: "DESC", with: "\u{1}").replacingOccurrences(of: "ASC", with: "DESC")
            .replacingOccurrences(of: "\u{1}", with: "ASC")
    }

    /// Rows of the same section that sort before a row with `keys` (and, for a distance sort,
    /// its distance `km`).
    func beforeInSection(_ keys: RowKeys, km: Double? = nil) -> (String, [SQLiteValue]) {
        strategy.inSection(keys, km: km, before: true)
    }

    /// Rows of the same section that sort at or after a row with `keys` (the complement of
    /// `beforeInSection` within the section), as a range the sort index serves.
    func atOrAfterInSection(_ keys: RowKeys, km: Double? = nil) -> (String, [SQLiteValue]) {
        strategy.inSection(keys, km: km, before: false)
    }

    /// The rows of section `key` at or after a row with `keys` (`onward`), or before it, as one
    /// term the sort index seeks to: the row's keys bound the near side, so of the section's
    /// range only the far edge is kept (`SectionKey.rangeSQL(open:)`).
    func inSection(_ key: SectionKey, from keys: RowKeys, onward: Bool) -> (String, [SQLiteValue]) {
        let (bound, boundArguments) = onward ? atOrAfterInSection(keys) : beforeInSection(keys)
        // Onward in an ascending order (or back in a descending one) the keys are the lower bound.
        let (range, rangeArguments) = key.rangeSQL(open: onward == strategy.ascending ? .lower : .upper)
        return ("\(range) AND \(bound)", rangeArguments + boundArguments)
    }

    /// Swift's twin of `beforeInSection` for two rows of the same section.
    func precedesInSection(_ a: RowKeys, _ b: RowKeys) -> Bool { strategy.precedesInSection(a, b) }

    /// Whether section `a` comes before section `b` (same family of keys).
    func sectionPrecedes(_ a: SectionKey, _ b: SectionKey) -> Bool { strategy.sectionPrecedes(a, b) }
}
