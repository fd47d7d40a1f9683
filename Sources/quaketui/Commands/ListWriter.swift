import Foundation
import QuakeModel
import QuakeStore
import QuakeTUI

/// Prints `list`'s rows, as lines or as JSON, reading each chunk of rows' records (for the
/// magnitude type, and every field of `QuakeJSON`) in one read of the store.
struct ListWriter {
    let container: PersistentContainer
    /// Print at most this many quakes (sections keep their full counts).
    let limit: Int
    let timeZone: TimeZone
    /// The point of `distanceKm` and `bearing` (`--near`, else home), nil for none.
    let origin: GeoPoint?
    /// Home, the app setting: the point of `intensityAtHome` and `sArrivalSeconds` (issue 55:
    /// `null` without a home), whatever `--near` measures distances from.
    let home: GeoPoint?
    /// Depths are shown in the app setting `distanceUnit`, as the browser shows them.
    let unit: DisplaySettings.DistanceUnit
    let output: BufferedOutput

    /// How many rows are read, and their records, at a time.
    static let chunk = 1000

    /// Calls `body` for every printed row with its section, the row (its `agencies`) and its
    /// record, reading them in chunks.
    /// With `reports`, each event's reports too (issue 53), the preferred first; else `[]`.
    private func forEachQuake(_ rows: some ListedRows, reports: Bool = false,
                              _ body: (Int, QuakeSection, QuakeRow, QuakeRecord, [QuakeRecord]) throws -> Void) throws {
        var pending: [(Int, QuakeSection, QuakeRow)] = []
        func flush() throws {
            let records = try container.viewContext.read { db in
                try pending.map { _, _, row in
                    (try db.quake(code: row.code)?.record ?? QuakeRecord(row: row), reports ? try db.reports(ofEvent: row.code) : [])
                }
            }
            for ((index, section, row), (record, reports)) in zip(pending, records) { try body(index, section, row, record, reports) }
            pending.removeAll(keepingCapacity: true)
        }
        try forEachRow(rows) { index, section, row in
            pending.append((index, section, row))
            if pending.count == Self.chunk { try flush() }
        }
        try flush()
    }

    /// Calls `body` for every printed row with its section, reading the rows in chunks.
    private func forEachRow(_ rows: some ListedRows, _ body: (Int, QuakeSection, QuakeRow) throws -> Void) throws {
        let controller = rows as! FetchedResultsController
        let total = min(limit, controller.count)
        var offset = 0
        while offset < total {
            let rows = try controller.rows(in: offset..<min(total, offset + Self.chunk))
            for (i, row) in rows.enumerated() {
                let section = controller.indexPath(forOffset: offset + i).section
                try body(section, controller.sections[section], row)
            }
            offset += rows.count
            if rows.isEmpty { break }
        }
    }

    /// Sections with their counts, then a line per quake (`QuakeTextLine`, as `watch` prints it):
    /// `M  4.5 mww   2024-01-01 07:10:09   10.0 km  PLACE  [CODE]  2 ag`.
    func writeText(_ rows: some ListedRows) throws {
        let line = QuakeTextLine(timeZone: timeZone, unit: unit)
        var lastSection = -1
        try forEachQuake(rows) { index, section, row, quake, _ in
            if index != lastSection {
                if lastSection >= 0 { output.write("\n") }
                output.write("\(SafeText.sanitize(section.title)) (\(CountFormat.grouped(rows.count(ofSection: index, section))))\n")
                lastSection = index
            }
            output.write("  " + line.text(quake, agencies: row.agencies) + "\n")
        }
        if limit < rows.total {
            // After the quakes, a blank line; with none (`--limit 0`), the count alone.
            output.write((lastSection >= 0 ? "\n" : "")
                         + "… \(CountFormat.grouped(rows.total - limit)) more (of \(CountFormat.grouped(rows.total))); raise --limit to see them.\n")
        }
    }

    /// Streams `{"total","sections":[{"id","title","count","quakes":[…]}]}` without building it in memory.
    func writeJSON(_ rows: some ListedRows, isSample: Bool, declustered: (Declustering, Int)? = nil) throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        func json<T: Encodable>(_ value: T) throws -> String { String(decoding: try encoder.encode(value), as: UTF8.self) }
        output.writeJSON("{\"sections\":[")
        var lastSection = -1
        try forEachQuake(rows, reports: true) { index, section, _, quake, reports in
            if index != lastSection {
                if lastSection >= 0 { output.writeJSON("]},") }
                output.writeJSON("{\"count\":\(rows.count(ofSection: index, section)),\"id\":\(try json(section.id)),\"title\":\(try json(section.title)),\"quakes\":[")
                lastSection = index
            } else {
                output.writeJSON(",")
            }
            let epicentre = GeoPoint(latitude: quake.latitude, longitude: quake.longitude)
            output.writeJSON(try json(QuakeJSON(record: quake, distanceKm: origin?.distance(to: epicentre),
                                                bearing: origin?.bearing(to: epicentre), home: home, reports: reports)))
        }
        if lastSection >= 0 { output.writeJSON("]}") }
        output.writeJSON("]")
        if let (method, removed) = declustered {
            output.writeJSON(",\"declustered\":{\"method\":\"\(method.rawValue)\",\"removed\":\(removed)}")
        }
        output.writeJSON(",\"sample\":\(isSample),\"total\":\(rows.total)}\n")
    }
}
