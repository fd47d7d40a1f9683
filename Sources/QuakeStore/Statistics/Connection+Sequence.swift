import Foundation
import QuakeModel

extension Connection {
    /// The most rows after the mainshock's time that the time index is walked for: fewer (a
    /// recent mainshock) and every one of them is read and tested; more, and the sequence is
    /// read through the location index's bounding box instead, each block's latitude band
    /// (`GeoPoint.boundingBoxSQL`), testing the time on the rows inside it.
    static let sequenceTimeWalkLimit = 20_000

    /// The sequence after the quake `code` (``AftershockSequence``) as of `now` (ms since the
    /// epoch): every quake but it whose time is at or after its time and whose epicentre is
    /// within ``SequenceRadius`` of its own (the exact haversine, after an indexed time range or
    /// bounding box), up to the store's newest quake or the first gap in its coverage
    /// (`coverageGap(from:)`); `AftershockSequence` ends it at a larger quake, and starts the
    /// forecast at `now` only when the store covers time up to it (its count and span go in). The
    /// quakes within the radius in the year before the mainshock, and where the store's coverage
    /// before it starts (`coverageStart(before:notBefore:)`), give the background. `.failure` when the
    /// store has no such quake or it has no magnitude.
    public func aftershockSequence(of code: String, now: Int64) throws(SQLiteError) -> Result<AftershockSequence, SequenceUnavailable> {
        try aftershockSequence(of: code, now: now, timeWalkLimit: Self.sequenceTimeWalkLimit)
    }

    /// `aftershockSequence(of:now:)` walking the time index for at most `timeWalkLimit` rows (tests read both ways).
    func aftershockSequence(of code: String, now: Int64, timeWalkLimit: Int) throws(SQLiteError) -> Result<AftershockSequence, SequenceUnavailable> {
        guard let quake = try quake(code: code) else {
            return .failure(SequenceUnavailable("No quake \(code) in the store."))
        }
        let record = quake.record
        guard let magnitude = record.magnitude, MagnitudeBin.tenth(of: magnitude).map(MagnitudeFrequency.usableTenths.contains) == true else {
            return .failure(SequenceUnavailable("Quake \(code) has no usable magnitude: a sequence's radius comes from its mainshock's magnitude."))
        }
        let mainshock = AftershockSequence.Mainshock(code: record.code, time: record.time, magnitude: magnitude,
                                                     latitude: record.latitude, longitude: record.longitude, place: record.place)
        let centre = GeoPoint(latitude: record.latitude, longitude: record.longitude)
        let radius = SequenceRadius.kilometres(magnitude: magnitude)
        var aftershocks: [AftershockSequence.Aftershock] = []
        try eachQuake(within: radius, of: centre, from: record.time, excluding: quake.id, timeWalkLimit: timeWalkLimit,
                      columns: "time, magnitude, magType, code") { row in
            aftershocks.append(.init(time: row.int64(at: 0), magnitude: row.optionalDouble(at: 1),
                                     magType: row.isNull(at: 2) ? nil : row.text(at: 2), code: row.text(at: 3)))
        }
        // Apart: SQLite answers `min` or `max` alone from the index's end, both together by a scan.
        let end = try scalar("SELECT max(time) FROM quake").int64 ?? record.time
        let oldest = try scalar("SELECT min(time) FROM quake").int64 ?? record.time
        let gap = try coverageGap(from: record.time)
        // The count `coverageGap` judges by (the kept counts), so the forecast's rule is its rule.
        let count = try keptQuakeCount()
        // The background's year: read only when the store covers all of it.
        let yearStart = record.time - Int64((SequenceBackground.spanDays * AftershockSequence.msPerDay).rounded())
        let covered = try coverageStart(before: record.time, notBefore: yearStart)
        var before: [SequenceBackground.Quake] = []
        if covered.time <= yearStart {
            try eachQuake(within: radius, of: centre, from: yearStart, through: record.time - 1, excluding: quake.id,
                          timeWalkLimit: timeWalkLimit, columns: "time, magnitude, latitude, longitude") { row in
                before.append(.init(time: row.int64(at: 0), magnitude: row.optionalDouble(at: 1),
                                    latitude: row.double(at: 2), longitude: row.double(at: 3)))
            }
        }
        return .success(AftershockSequence(mainshock: mainshock, aftershocks: aftershocks, end: end, coverageGap: gap,
                                           storeCount: count, storeOldest: oldest, before: before, coveredFrom: covered.time,
                                           coveredAfterGap: covered.afterGap, now: now))
    }

    /// `columns` of every quake but `id` from `start` through `end` (ms since the epoch) whose
    /// epicentre is within `radius` km of `centre`, each row handed to `row`: by the time index
    /// when at most `timeWalkLimit` quakes are in that time (a recent mainshock), else by the
    /// location index's bounding box, whichever narrows more.
    func eachQuake(within radius: Double, of centre: GeoPoint, from start: Int64, through end: Int64 = .max, excluding id: Int64,
                   timeWalkLimit: Int, columns: String, _ row: (Statement) -> Void) throws(SQLiteError) {
        let inTime = try prepare("SELECT count(*) FROM (SELECT 1 FROM quake INDEXED BY quake_time WHERE time >= ? AND time <= ? LIMIT \(timeWalkLimit + 1))")
        try inTime.bind([.integer(start), .integer(end)])
        _ = try inTime.step()
        let distance = "\(centre.distanceSQL()) <= \(radius.sqlLiteral)"
        let sql = inTime.int64(at: 0) <= timeWalkLimit
            ? "SELECT \(columns) FROM quake INDEXED BY quake_time WHERE time >= ? AND time <= ? AND id != ? AND \(distance)"
            : "SELECT \(columns) FROM quake INDEXED BY quake_location WHERE \(centre.boundingBoxSQL(radiusKm: radius)) AND +time >= ? AND +time <= ? AND id != ? AND \(distance)"
        let statement = try prepare(sql)
        try statement.bind([.integer(start), .integer(end), .integer(id)])
        while try statement.step() { row(statement) }
    }

}
