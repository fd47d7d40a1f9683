import QuakeModel
/// The ids of the rows matching the search text and the row filters, in the results
/// controller's `MatchSet` (a bitmap that SQL tests with `quaketui_matched(id)`): built once per
/// request, then kept exact row by row as merges bring changes. What matches is the plan's to
/// say (`QueryPlan`): its statement fills the set, its Swift test moves a changed row in or out.
///
/// Membership before a change is authoritative ("was this row in the results?"): the row's old
/// depth, distance or type is not in history, so no predicate could be re-evaluated on it.
struct ResultMatches {
    let plan: QueryPlan
    let set: MatchSet

    /// Refills the set: from the digest when it answers the plan in this snapshot
    /// (`SearchDigest.fill`), else with the plan's statement
    /// (`QueryPlan.matchSetFill`). Counts the rows per bucket of `countingKind` (`quake_count`'s
    /// kinds; only the rows passing the minimum magnitude) into the set's `bucketCounts` when
    /// the fill is a scan. Returns whether it counted.
    @discardableResult
    func rebuild(_ db: Connection, countingKind kind: Int?, usingDigest: Bool = true) throws -> Bool {
        set.removeAll()
        if usingDigest, plan.usesMatchSet, try SearchDigest.fill(db, plan: plan, countingKind: kind, into: set) {
            return kind != nil
        }
        let bucket = kind.map { plan.countingBucket(SectionCounts.bucketSQL(kind: $0)) }
        guard let fill = plan.matchSetFill(countingBy: bucket) else { return false }
        try db.execute(fill.sql, fill.arguments)
        return fill.counts
    }

    /// Whether row `id` is in the set (before a merge updates it: whether it was in the results).
    func contains(id: Int64) -> Bool { set.contains(id) }

    /// Moves one changed row's membership to its new version: out under its old id, in under
    /// its new one if the new row is a candidate (`QueryPlan.isCandidate`, on its stored columns).
    func update(_ db: Connection, oldID: Int64?, new: RowKeys?) throws {
        if let oldID { set.remove(oldID) }
        guard let new else { return }
        let statement = try db.cachedStatement("SELECT \(QueryPlan.Fields.columns(for: plan)) FROM quake WHERE id = ?")
        try statement.bind([.integer(new.id)])
        defer { statement.reset() }
        guard try statement.step(), plan.isCandidate(QueryPlan.Fields(statement)) else { return }
        try set.insert(new.id)
    }
}
