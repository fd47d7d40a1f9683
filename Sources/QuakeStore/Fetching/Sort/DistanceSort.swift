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


    // MARK: Sections

    /// The band holding `km` (a row without one, as at home); a distance no band holds (NaN)
    /// gets a key no section has.
    func sectionKey(of keys: RowKeys, km: Double?, days: DayCalendar) -> SectionKey {
        reference?.bands.first { band in
            guard case .distance(let lower, let upper) = band.key else { return false }
            return lower <= (km ?? 0) && (km ?? 0) < upper
        }?.key ?? .distance(lowerKm: 0, upperKm: .infinity)
    }

    /// Never asked: a window's rows come with their distance, and take its band (`band(of:in:)`).
    func section(of keys: RowKeys, days: DayCalendar, regionTitle: String) -> SectionLabel {
        (.region(keys.regionKey), keys.regionKey, regionTitle)
    }

    func newSection(_ db: Connection, _ key: SectionKey, days: DayCalendar) throws -> QuakeSection {
        preconditionFailure("a distance sort merges through applyDistanceChanges")
    }

    /// The band holding a quake `km` from `reference` (the farthest for a distance no band holds).
    static func band(of km: Double, in reference: DistanceReference) -> SectionLabel {
        let bands = reference.bands
        let band = bands.first { band in
            guard case .distance(let lower, let upper) = band.key else { return false }
            return lower <= km && km < upper
        } ?? bands[bands.count - 1]
        return (band.key, band.id, band.title)
    }
}
