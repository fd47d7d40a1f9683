import QuakeModel
import QuakeStore

/// Streams the rows of an FDSN event service's `format=text` answer:
///
/// ```
/// #EventID|Time|Latitude|Longitude|Depth/km|Author|Catalog|Contributor|ContributorID|MagType|Magnitude|MagAuthor|EventLocationName|EventType
/// us6000m0yg|2024-01-01T09:45:26.217|37.8107|137.5664|10|us|us|us|us6000m0yg|mb|5.1|us|73 km WSW of Sado, Japan
/// ```
///
/// Columns are found by header name (case, spaces and a `/km` unit are ignored), so 12, 13
/// and 14 columns and services that reorder or rename a few all work; a file without a
/// header line is read in the standard order. Times are ISO-8601, UTC when they carry no
/// zone. Further lines starting with `#` are comments; blank lines are ignored. A row that
/// is not usable (no id, a time that is not a date, coordinates that are not numbers) is
/// skipped with its 1-based line as the index. The agency (and so the code's namespace) is
/// decided from the first row (``FeedAgency``) unless the caller names it.
final class FDSNTextParser: RecordParser {
    private enum Role: UInt8 {
        case ignore, id, time, latitude, longitude, depth, author, catalog, contributor, contributorID
        case magType, magnitude, place, type
    }

    private static let standardOrder: [Role] = [
        .id, .time, .latitude, .longitude, .depth, .author, .catalog, .contributor, .contributorID,
        .magType, .magnitude, .ignore, .place, .type,
    ]

    private static func role(_ header: String) -> Role {
        var name = header.lowercased().filter { $0 != " " && $0 != "\t" }
        if let slash = name.firstIndex(of: "/") { name = String(name[..<slash]) }
        if let paren = name.firstIndex(of: "(") { name = String(name[..<paren]) }
        switch name {
        case "eventid", "id", "event": return .id
        case "time", "origintime": return .time
        case "latitude", "lat": return .latitude
        case "longitude", "lon", "long": return .longitude
        case "depth": return .depth
        case "author": return .author
        case "catalog": return .catalog
        case "contributor": return .contributor
        case "contributorid": return .contributorID
        case "magtype", "magnitudetype": return .magType
        case "magnitude", "mag": return .magnitude
        case "eventlocationname", "eventlocation", "location", "region", "place": return .place
        case "eventtype", "type": return .type
        default: return .ignore
        }
    }

    private let input: ByteInput
    private var roles: [Role] = standardOrder
    private var agency: String?
    private var finished = false
    private var started = false
    private var cells: [String] = []

    /// Bytes of the first line the sniffer already consumed (a file without a header).
    private var firstCell: [UInt8]?

    init(input: ByteInput, agency: String?, firstCell: [UInt8]? = nil) {
        self.input = input
        self.agency = agency
        self.firstCell = firstCell
        absentFields = QuakeRecord.Fields.summaryOnly.union(agency == "usgs" ? .status : [.status, .net])
    }

    /// FDSN text has no review status and none of GeoJSON's PAGER, DYFI and web fields; only
    /// USGS's names a network (its contributor). Fixed at `init`: a reader running ahead on
    /// another thread decides the file's agency from its first row.
    let absentFields: QuakeRecord.Fields

    /// Whether the file named no agency, so its codes are ``FeedAgency/neutral``'s.
    private var unattributed = false

    var notes: [String] {
        unattributed ? ["the file names no agency (Author, Contributor and Catalog are empty): codes are \(FeedAgency.neutral):<EventID>; import --agency NAME names it"] : []
    }

    func next(skips: inout SkipLog) throws(FeedError) -> QuakeRecord? {
        while !finished {
            let line = input.line
            guard try input.readTextLine() else {
                finished = true
                return nil
            }
            if let prefix = firstCell {
                firstCell = nil
                let rest = Array(UnsafeBufferPointer(start: input.scratch, count: input.scratchCount))
                input.resetScratch()
                for b in prefix + rest { input.appendScratch(b) }
            }
            if input.scratchOverflowed {
                skips.add(SkippedFeature(line: line, reason: "the line is longer than \(input.scratchCapacity) bytes"))
                continue
            }
            let n = input.scratchCount
            if n == 0 || (0..<n).allSatisfy({ input.scratch[$0] == 0x20 || input.scratch[$0] == 0x09 }) { continue }
            if input.scratch[0] == UInt8(ascii: "#") {
                if !started { try readHeader(line: line) }
                started = true
                continue
            }
            started = true
            splitCells()
            if let record = makeRecord(line: line, skips: &skips) { return record }
        }
        return nil
    }

    private func readHeader(line: Int) throws(FeedError) {
        let text = String(decoding: UnsafeBufferPointer(start: input.scratch + 1, count: input.scratchCount - 1), as: UTF8.self)
        // A first line with no column at all (a Markdown heading, a shell comment) is no FDSN
        // text: say that nothing read it, rather than which columns a header lacks.
        guard text.contains("|") else {
            let start = ("#" + text).trimmingCharacters(in: .whitespaces).prefix(40)
            throw FeedError(code: .unknownFormat, name: input.name, line: line, column: 1,
                            message: "the input starts with '\(start)', a line without the '|' columns of FDSN text, and is none of the formats quaketui reads",
                            hint: FeedReader.formatHint)
        }
        roles = text.split(separator: "|", omittingEmptySubsequences: false).map { Self.role(String($0)) }
        let missing = [(Role.id, "EventID"), (.time, "Time"), (.latitude, "Latitude"), (.longitude, "Longitude")]
            .filter { !roles.contains($0.0) }.map(\.1)
        if !missing.isEmpty {
            throw FeedError(
                code: .missingColumns, name: input.name, line: line, column: 1,
                message: "the FDSN text header has no \(missing.joined(separator: ", ")) column\(missing.count > 1 ? "s" : "")",
                hint: "expected #EventID|Time|Latitude|Longitude|Depth/km|Author|Catalog|Contributor|ContributorID|MagType|Magnitude|MagAuthor|EventLocationName")
        }
    }

    private func splitCells() {
        cells.removeAll(keepingCapacity: true)
        let p = input.scratch, n = input.scratchCount
        var start = 0
        for i in 0...n where i == n || p[i] == UInt8(ascii: "|") {
            var a = start, b = i
            while a < b, p[a] == 0x20 || p[a] == 0x09 { a += 1 }
            while b > a, p[b - 1] == 0x20 || p[b - 1] == 0x09 { b -= 1 }
            cells.append(String(decoding: UnsafeBufferPointer(start: p + a, count: b - a), as: UTF8.self))
            start = i + 1
        }
    }

    private func cell(_ role: Role) -> String {
        guard let index = roles.firstIndex(of: role), index < cells.count else { return "" }
        return cells[index]
    }

    private func makeRecord(line: Int, skips: inout SkipLog) -> QuakeRecord? {
        func skip(_ reason: String) -> QuakeRecord? {
            skips.add(SkippedFeature(line: line, reason: reason))
            return nil
        }
        let id = cell(.id)
        guard !id.isEmpty else { return skip("no EventID") }
        var timeText = cell(.time)
        guard !timeText.isEmpty else { return skip("no Time") }
        guard let time = timeText.withUTF8({ parseISO8601Milliseconds($0.baseAddress!, $0.count) }) else {
            return skip("Time \"\(timeText)\" is not an ISO-8601 date")
        }
        if let problem = QuakeRecord.timeProblem(time, field: "Time") { return skip(problem) }
        guard let latitude = Double(cell(.latitude)) else { return skip("Latitude \"\(cell(.latitude))\" is not a number") }
        guard let longitude = Double(cell(.longitude)) else { return skip("Longitude \"\(cell(.longitude))\" is not a number") }
        guard latitude.isFinite, (-90...90).contains(latitude) else { return skip("latitude \(latitude) is outside -90…90") }
        guard longitude.isFinite, (-180...180).contains(longitude) else { return skip("longitude \(longitude) is outside -180…180") }
        // An empty cell, or `NaN` (how some writers say "unknown"), is none; anything else must
        // be a number the store accepts (`1e400` or `abc` were read as none, silently).
        func number(_ role: Role, _ name: String) -> (value: Double?, problem: String?) {
            let text = cell(role).trimmingCharacters(in: .whitespaces)
            if text.isEmpty || text.caseInsensitiveCompare("nan") == .orderedSame { return (nil, nil) }
            guard let value = Double(text) else { return (nil, "\(name) \"\(text)\" is not a number") }
            return (value, nil)
        }
        let (magnitude, magnitudeText) = number(.magnitude, "Magnitude")
        let (depth, depthText) = number(.depth, "Depth")
        if let problem = magnitudeText ?? depthText ?? QuakeRecord.magnitudeProblem(magnitude) ?? QuakeRecord.depthProblem(depth) {
            return skip(problem)
        }
        let agency: String
        if let decided = self.agency {
            agency = decided
        } else {
            agency = FeedAgency.fromFDSNText(eventID: id, author: cell(.author), catalog: cell(.catalog), contributor: cell(.contributor))
            self.agency = agency
            unattributed = agency == FeedAgency.neutral
        }
        func optional(_ role: Role) -> String? {
            let value = cell(role)
            return value.isEmpty ? nil : value
        }
        var record = QuakeRecord(
            code: FeedAgency.code(id, agency: agency), magnitude: magnitude, magType: optional(.magType),
            place: cell(.place), time: time, updated: time, latitude: latitude, longitude: longitude, depth: depth,
            type: optional(.type), net: agency == "usgs" ? optional(.contributor)?.lowercased() : nil)
        record.source = agency
        return record
    }
}

extension ByteInput {
    /// Reads one line (without its LF or CRLF) into the scratch. False at the end of input
    /// when nothing was read.
    func readTextLine() throws(FeedError) -> Bool {
        resetScratch()
        var any = false
        while true {
            let p = buffer, e = end
            var i = pos
            while i < e, p[i] != 0x0A { i &+= 1 }
            if i > pos { any = true }
            appendScratch(p + pos, i &- pos)
            pos = i
            if i < e {
                pos &+= 1
                line &+= 1
                lineStart = offset
                if !scratchOverflowed, scratchCount > 0, scratch[scratchCount - 1] == 0x0D { scratchCount -= 1 }
                return true
            }
            guard try refill() else {
                if !scratchOverflowed, scratchCount > 0, scratch[scratchCount - 1] == 0x0D { scratchCount -= 1 }
                return any
            }
        }
    }
}
