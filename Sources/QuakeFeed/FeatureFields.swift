import QuakeModel
import QuakeStore

/// The fields of one feature (or CSV row) as they are read, before they become a `QuakeRecord`.
///
/// The mapping rules, shared by the GeoJSON and CSV readers:
///
/// - **Usable** means: a non-empty string `id`, a numeric `time`, and numeric longitude and
///   latitude (`geometry.coordinates[0]` and `[1]`). A feature without one of these, or with
///   one of the wrong type (an `id` that is a number, `coordinates` that is a string), is
///   skipped with a reason; the rest of the file is still read.
/// - **An optional number written as a string is that number** (`"sig": "449"` in the legacy
///   2012 feed, `"mag": "5.0"`); **other optional fields of the wrong type become nil** (a
///   `mag` of `"strong"`): the quake is still worth showing, and the store keeps what it can.
///   An `updated` that is missing or not a number falls back to `time`; a `place` that is
///   null, missing or not a string becomes `""`.
/// - **Out-of-range values skip the feature**: a latitude outside −90…90, a longitude outside
///   −180…180, a `mag` outside −5…10, a `depth` outside −10…800 km
///   (`QuakeRecord.supportedMagnitudes`, `supportedDepths`), or a non-finite `mag`, `depth`,
///   `time` or `updated` (a literal such as `1e400` overflows to infinity) would corrupt sorting,
///   the statistics and the map, so the feature is skipped with a reason instead of being stored. A `time` or `updated` with a fraction is truncated to
///   whole milliseconds. A `time` or `updated` outside the years 0001…9999
///   (`QuakeRecord.supportedTimes`) skips the feature with that reason.
/// - `tsunami`, `felt` and `sig` must be integers (`5` or `5.0`); otherwise they are nil.
/// - A kept string longer than ``FeedReader/maximumStringLength`` bytes skips the feature
///   (`place`, `title`, … are short in every real feed; a 10 MB value is garbage). Strings we
///   do not keep may be any length: they are scanned, never stored.
/// - Times are milliseconds, as every current feed writes them, unless the feed as a whole
///   says seconds (`GeoJSONParser`: its `metadata.generated`, else its first features); EMSC
///   writes ISO-8601 strings (`time`, `lastupdate`), which are read as such.
struct FeatureFields {
    var code: String?
    var magnitude: Double?
    var magType: String?
    var place: String?
    var time: Int64?
    var updated: Int64?
    var longitude: Double?
    var latitude: Double?
    var depth: Double?
    var status: String?
    var type: String?
    var tsunami: Int?
    var felt: Int?
    var alert: String?
    var sig: Int?
    var net: String?
    var url: String?
    var title: String?
    /// The numbers behind `time` and `updated` when they were numbers (not ISO strings), for
    /// a feed whose times turn out to be seconds.
    var timeNumber: Double?
    var updatedNumber: Double?
    /// EMSC members: `flynn_region` (the place), `unid` (the id), `depth` in properties.
    var region: String?
    var unid: String?
    var propertyDepth: Double?
    var isEMSC = false
    /// GeoNet members: `publicID` (the id), `locality` (the place), `quality` (the status).
    var publicID: String?
    var locality: String?
    var quality: String?
    /// Whether the feature lists ComCat's associated `ids` (a ComCat event, whatever its id looks like).
    var hasComCatIDs = false
    /// ComCat's `ids` value (`,nn00743603,us6000a6su,nn00743624,`): the codes that name this event.
    var ids: String?

    /// Why a required field is unusable, when it is present but wrong.
    var idProblem: String?
    var timeProblem: String?
    var coordinatesProblem: String?
    /// Anything else that makes the feature unusable (an over-long string, a non-finite number).
    var problem: String?

    mutating func reset() { self = FeatureFields() }

    /// Records `problem` unless an earlier one is already recorded.
    mutating func fail(_ reason: String) {
        if problem == nil { problem = reason }
    }

    /// Why the feature cannot become a record, or nil when it can.
    func skipReason() -> String? {
        guard let code = code ?? unid ?? publicID, !code.isEmpty else { return idProblem ?? (code == nil ? "no \"id\"" : "\"id\" is empty") }
        guard let time else { return timeProblem ?? "no \"time\"" }
        if let problem = QuakeRecord.timeProblem(time) { return problem }
        if let updated, let problem = QuakeRecord.timeProblem(updated, field: "updated") { return problem }
        if let coordinatesProblem { return coordinatesProblem }
        guard let longitude, let latitude else { return "no coordinates" }
        if let problem { return problem }
        guard latitude >= -90, latitude <= 90 else { return "latitude \(latitude) is outside -90…90" }
        guard longitude >= -180, longitude <= 180 else { return "longitude \(longitude) is outside -180…180" }
        // The depth stored: EMSC's `properties.depth` (positive down) over its coordinate (negative).
        if let problem = QuakeRecord.depthProblem(propertyDepth ?? depth) { return problem }
        if let problem = QuakeRecord.magnitudeProblem(magnitude) { return problem }
        return nil
    }

    /// The record; call only when ``skipReason()`` is nil. Consuming, so the strings move
    /// into the record without retain/release traffic.
    @inline(__always) consuming func makeRecord() -> QuakeRecord {
        let time = time!
        return QuakeRecord(
            code: code!, magnitude: magnitude, magType: magType, place: place ?? "",
            time: time, updated: updated ?? time, latitude: latitude!, longitude: longitude!,
            depth: depth, status: status, type: type, tsunami: tsunami, felt: felt, alert: alert,
            sig: sig, net: net, url: url, title: title)
    }

    /// Milliseconds from a JSON number: exact for integers, truncated for decimals.
    static func milliseconds(_ number: JSONNumber) -> Int64? {
        if let integer = number.integer { return integer }
        let d = number.double
        guard d.isFinite, d > -9.2e18, d < 9.2e18 else { return nil }
        return Int64(d)
    }

    /// An integer field value: an integer literal, or a decimal with no fraction, within `Int`.
    static func integer(_ number: JSONNumber) -> Int? {
        if let integer = number.integer { return Int(exactly: integer) }
        let d = number.double
        guard d.isFinite, d == d.rounded(), abs(d) < 9.2e18 else { return nil }
        return Int(d)
    }
}

/// The first skipped features of a read, with the total count.
struct SkipLog {
    var list: [SkippedFeature] = []
    var count = 0
    let limit: Int

    mutating func add(_ skipped: SkippedFeature) {
        count += 1
        if list.count < limit { list.append(skipped) }
    }
}

/// A format-specific parser that yields records one at a time.
protocol RecordParser: AnyObject {
    func next(skips: inout SkipLog) throws(FeedError) -> QuakeRecord?
    /// Decisions about the feed as a whole the user should hear about (see ``FeedReader/notes``).
    var notes: [String] { get }
    /// The other codes ComCat's features listed (see ``FeedReader/comCatAliases``).
    var comCatAliases: ComCatAliases { get }
    /// The optional fields the format has no place for (see ``FeedReader/absentFields``).
    var absentFields: QuakeRecord.Fields { get }
}

extension RecordParser {
    var notes: [String] { [] }
    var comCatAliases: ComCatAliases { ComCatAliases() }
    var absentFields: QuakeRecord.Fields { [] }
}
