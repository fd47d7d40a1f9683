/// The `distance` order: nearest first by default from the request's `reference` (home),
/// sections by distance band, by distance inside a band. Its rows are read, ranked and counted
/// through the distance table (`DistanceTable`), or walked off `quake_location` before the
/// table is built (`DistanceTable.walk`).
struct DistanceSort: SortStrategy {
    let ascending: Bool
    /// Where distances are measured from (nil: no home; the controller then sorts by time).
    let reference: DistanceReference?

    var from: String { DistanceTable.from }

    // Served by temp.fetch_distance_km (km; its entries end in the rowid, qid).
    var orderBy: String { ascending ? "km ASC, qid ASC" : "km DESC, qid DESC" }

    func inSection(_ keys: RowKeys, km: Double?, before: Bool) -> (String, [SQLiteValue]) {
        let op = keysetOperator(descending: !ascending, before: before)
        return ("(km, qid) \(op) (?, ?)", [.real(km ?? 0), .integer(keys.id)])
    }

    func precedesInSection(_ a: RowKeys, _ b: RowKeys) -> Bool {
        preconditionFailure("a distance sort's merges reload; rows are never compared in Swift")
    }

    func sectionPrecedes(_ a: SectionKey, _ b: SectionKey) -> Bool {
        guard case .distance(let x, _) = a, case .distance(let y, _) = b else { preconditionFailure("sections of different kinds compared") }
        return ascending ? x < y : x > y
    }
}
