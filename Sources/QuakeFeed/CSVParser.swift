import QuakeModel
import QuakeStore

/// Streams the rows of a USGS CSV feed (`time,latitude,longitude,depth,mag,magType,…,id,updated,place,type,…`).
///
/// Columns are found by header name, so the legacy 15-column header and the 22-column one
/// both work and extra columns are ignored. Only the columns a `QuakeRecord` uses are
/// copied out of the buffer. Empty cells are missing values (`mag` → nil, `place` → `""`);
/// `time` and `updated` are ISO-8601 (`2019-07-19T02:52:13.590Z`). A blank line is ignored.
/// Skipped rows are reported with their 1-based line as the index.
final class CSVParser: RecordParser {
    private enum Role: UInt8 {
        case ignore, time, latitude, longitude, depth, mag, magType, id, updated, place, type, status, net
    }

    private static let roleByName: [String: Role] = [
        "time": .time, "latitude": .latitude, "longitude": .longitude, "depth": .depth, "mag": .mag,
        "magType": .magType, "id": .id, "updated": .updated, "place": .place, "type": .type,
        "status": .status, "net": .net,
    ]

    private let input: ByteInput
    private var roles: [Role] = []
    private var finished = false
    /// The input ended inside a row (`next`): said again by every later call.
    private var truncation: FeedError?
    private var fields = FeatureFields()
    /// The agency the caller named (`import --agency`); nil is USGS, whose format this is.
    private let agency: String?

    /// Reads the header. `firstName` is the first header name when the sniffer already consumed
    /// it (then `pos` is at the comma after it).
    init(input: ByteInput, firstName: [UInt8]?, agency: String? = nil) throws(FeedError) {
        self.input = input
        self.agency = agency == "usgs" ? nil : agency
        var names: [String] = []
        let headerLine = input.line
        var terminator = CSVTerminator.comma
        if let firstName {
            names.append(String(decoding: firstName, as: UTF8.self))
            terminator = try input.readCSVField(collect: false)  // the empty rest of the first field
        }
        while terminator == .comma {
            terminator = try input.readCSVField(collect: true)
            names.append(input.scratchString())
        }
        if terminator == .endOfInput { finished = true }
        roles = names.map { Self.roleByName[$0.trimmingSpaces()] ?? .ignore }
        let missing = ["time", "latitude", "longitude", "id"].filter { name in
            !roles.contains(Self.roleByName[name]!)
        }
        if !missing.isEmpty {
            throw FeedError(
                code: .missingColumns, name: input.name, line: headerLine, column: 1,
                message: "the CSV header has no \(missing.map { "\"\($0)\"" }.joined(separator: ", ")) column\(missing.count > 1 ? "s" : "")",
                hint: "expected the USGS CSV format (time,latitude,longitude,depth,mag,magType,…,id,updated,place,type,…)")
        }
    }

    /// USGS's CSV has none of GeoJSON's PAGER, DYFI and web fields; the legacy header has no
    /// `status`, and a file may leave out other columns.
    var absentFields: QuakeRecord.Fields {
        var absent = QuakeRecord.Fields.summaryOnly
        for (role, field) in [(Role.status, QuakeRecord.Fields.status), (.type, .type), (.net, .net),
                              (.magType, .magType), (.depth, .depth)] where !roles.contains(role) {
            absent.insert(field)
        }
        return absent
    }

    func next(skips: inout SkipLog) throws(FeedError) -> QuakeRecord? {
        if let truncation { throw truncation }
        while !finished {
            let line = input.line
            fields.reset()
            var column = 0
            var terminator = CSVTerminator.comma
            var blank = false
            while terminator == .comma {
                let role = column < roles.count ? roles[column] : .ignore
                terminator = try input.readCSVField(collect: role != .ignore)
                if column == 0, terminator != .comma, input.lastFieldLength == 0 { blank = true }
                if role != .ignore { assign(role) }
                column &+= 1
            }
            if terminator == .endOfInput {
                finished = true
                // A last row without its newline and short of the header's columns was cut off
                // (a download that stopped): its cells may be cut too, so nothing of it is read.
                if !blank, column < roles.count {
                    truncation = input.unexpectedEnd("after \(column) of the header's \(roles.count) columns")
                    throw truncation!
                }
            }
            if blank { continue }
            if let reason = fields.skipReason() {
                skips.add(SkippedFeature(line: line, reason: reason))
            } else if let agency {
                fields.code = FeedAgency.code(fields.code!, agency: agency)
                var record = fields.makeRecord()
                record.source = agency
                return record
            } else {
                var record = fields.makeRecord()
                record.source = "usgs"
                return record
            }
        }
        return nil
    }

    /// Stores the field in the scratch as `role`.
    private func assign(_ role: Role) {
        if input.scratchOverflowed {
            fields.fail("the \(role) field is longer than \(input.scratchCapacity) bytes")
            return
        }
        let p = UnsafePointer(input.scratch), n = input.scratchCount
        switch role {
        case .ignore:
            break
        case .time:
            guard n > 0 else { return }
            fields.time = parseISO8601Milliseconds(p, n)
            if fields.time == nil { fields.timeProblem = "time \"\(input.scratchString())\" is not an ISO-8601 date" }
        case .updated:
            fields.updated = n > 0 ? parseISO8601Milliseconds(p, n) : nil
        case .latitude:
            fields.latitude = number(p, n)
            if n > 0, fields.latitude == nil {
                fields.coordinatesProblem = "latitude \"\(input.scratchString())\" is not a number"
            }
        case .longitude:
            fields.longitude = number(p, n)
            if n > 0, fields.longitude == nil {
                fields.coordinatesProblem = "longitude \"\(input.scratchString())\" is not a number"
            }
        case .depth:
            fields.depth = number(p, n)
        case .mag:
            fields.magnitude = number(p, n)
        case .id:
            fields.code = n > 0 ? input.scratchString() : nil
        case .place:
            fields.place = input.scratchString()
        case .magType:
            fields.magType = n > 0 ? input.scratchString() : nil
        case .type:
            fields.type = n > 0 ? input.scratchString() : nil
        case .status:
            fields.status = n > 0 ? input.scratchString() : nil
        case .net:
            fields.net = n > 0 ? input.scratchString() : nil
        }
    }

    /// A decimal cell: the JSON number grammar, else the standard library's lenient parse (`+1`, `.5`).
    private func number(_ p: UnsafePointer<UInt8>, _ n: Int) -> Double? {
        guard n > 0 else { return nil }
        if let number = parseJSONNumber(p, n) { return number.double }
        guard n <= ByteInput.maximumNumberLength else { return nil }
        return Double(String(decoding: UnsafeBufferPointer(start: p, count: n), as: UTF8.self).trimmingSpaces())
    }
}

extension String {
    /// Drops leading and trailing ASCII spaces and tabs.
    func trimmingSpaces() -> String {
        var s = Substring(self)
        while let f = s.first, f == " " || f == "\t" { s.removeFirst() }
        while let l = s.last, l == " " || l == "\t" { s.removeLast() }
        return String(s)
    }
}
