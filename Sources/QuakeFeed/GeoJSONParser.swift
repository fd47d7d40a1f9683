import QuakeModel
import QuakeStore
import QuakeTime

private let quote: UInt8 = 0x22
private let comma = UInt8(ascii: ","), colon = UInt8(ascii: ":")
private let openBrace = UInt8(ascii: "{"), closeBrace = UInt8(ascii: "}")
private let openBracket = UInt8(ascii: "["), closeBracket = UInt8(ascii: "]")

/// Streams the features of a GeoJSON FeatureCollection (optionally inside a JSONP callback):
/// the USGS feeds and FDSN `format=geojson` answers, and EMSC's seismicportal JSON.
///
/// - **Seconds or milliseconds** is decided once for the whole feed, never per feature: from
///   `metadata.generated` wherever the metadata is (a feed is generated "now", so below 10^11
///   it is seconds); without it, from the plausible range of every numeric `time`/`updated`
///   in the feed: one between 10^10 and 10^13 is plausible only as milliseconds (as seconds
///   it would be after the year 2286) and decides milliseconds at once; otherwise, at the
///   end, seconds when one is at least 10^7 (as the legacy 2012 feed, or a historical
///   catalogue whose first events are from 1970), else milliseconds. Values beyond 10^13
///   are implausible either way, decide nothing and are skipped. Features wait for the
///   decision (at most ``maximumUndecided``; then the ones seen decide). ``notes`` says so.
/// - **EMSC** features (`unid`, `flynn_region`, `source_catalog`, ISO-8601 `time` and
///   `lastupdate`, a positive `properties.depth` while `coordinates[2]` is negative) are read
///   as such: the code becomes `emsc:<id>`, the place the Flinn–Engdahl region.
///
/// Only the path `features[i].{id, properties.*, geometry.coordinates}` is decoded; every
/// other member (`metadata`, `bbox`, unknown properties, nested values) is skipped by the
/// tokenizer without building values. Members may come in any order, `features` included.
final class GeoJSONParser: RecordParser {
    private enum State {
        case start, firstFeature, nextFeature, finished
    }

    private let input: ByteInput
    private let isJSONP: Bool
    private var state = State.start
    private var featureIndex = 0

    private let keys = FeedKeyTable.geoJSON
    private let interner = StringInterner()
    private let agency: String?

    private enum TimeUnit { case undecided, milliseconds, seconds }
    /// How many usable features may wait for the seconds-or-milliseconds decision.
    static let maximumUndecided = 65_536
    private var timeUnit = TimeUnit.undecided
    private var decidedBy = ""
    /// `metadata.generated` as the feed writes it (seconds below 10^11, else milliseconds).
    private var generated: Double?
    /// Milliseconds in twenty years: a feature's time this far from `generated`, read in
    /// `generated`'s unit, makes the features' times decide instead ("decades" apart).
    static let decades = 20 * 365.25 * 86_400_000.0
    /// Usable features waiting for the decision, and records ready to return (next last).
    private var pending: [(fields: FeatureFields, index: Int, line: Int)] = []
    private var ready: [QuakeRecord] = []

    /// - Parameter isJSONP: the callback name was consumed; `(` comes next.
    init(input: ByteInput, isJSONP: Bool, agency: String? = nil) {
        self.input = input
        self.isJSONP = isJSONP
        self.agency = agency
    }

    var notes: [String] {
        (disagreement.map { [$0] } ?? [])
            + (timeUnit == .seconds ? ["times are in seconds (decided from \(decidedBy)); converted to milliseconds"] : [])
    }

    /// What the import says when `metadata.generated` was overruled by the features' times.
    private var disagreement: String?

    func next(skips: inout SkipLog) throws(FeedError) -> QuakeRecord? {
        while true {
            if let record = ready.popLast() { return record }
            switch state {
            case .finished:
                return nil
            case .start:
                try openCollection()
                state = .firstFeature
            case .firstFeature, .nextFeature:
                var c = try input.nextToken("in the \"features\" array")
                if c == closeBracket {
                    input.pos &+= 1
                    try closeCollection()
                    state = .finished
                    if !pending.isEmpty {
                        decide(skips: &skips, by: timeUnit == .undecided ? "its \(pending.count) features" : decidedBy)
                    }
                    continue
                }
                if state == .nextFeature {
                    guard c == comma else {
                        throw input.syntaxError(expected: "expected ',' or ']' after a feature", found: c)
                    }
                    input.pos &+= 1
                    c = try input.nextToken("in the \"features\" array")
                }
                state = .nextFeature
                let index = featureIndex
                featureIndex &+= 1
                let line = input.line
                if c == openBrace {
                    input.pos &+= 1
                    // A local, passed inout: a class property would pay dynamic exclusivity checks.
                    var fields = FeatureFields()
                    try parseFeature(&fields)
                    if let reason = fields.skipReason() {
                        skips.add(SkippedFeature(index: index, line: line, reason: reason))
                    } else if timeUnit == .undecided, let time = fields.timeNumber {
                        let onlyMilliseconds = Self.onlyMilliseconds(fields.timeNumber) || Self.onlyMilliseconds(fields.updatedNumber)
                        pending.append((fields, index, line))
                        if let generated, pending.count == 1, Self.agree(time, generated: generated) {
                            // The usual feed: `generated` decides at its first feature, which streams on.
                            decide(skips: &skips, by: "metadata.generated")
                        } else if onlyMilliseconds || pending.count >= Self.maximumUndecided {
                            decide(skips: &skips, by: "the first \(pending.count) features")
                        }
                    } else if let record = finish(fields, index: index, line: line, skips: &skips) {
                        return record
                    }
                } else {
                    try input.skipValue()
                    skips.add(SkippedFeature(index: index, line: line, reason: "the feature is not a JSON object"))
                }
            }
        }
    }

    // MARK: - Seconds or milliseconds, identity

    /// A time plausible only as milliseconds: as seconds it would be after the year 2286.
    private static func onlyMilliseconds(_ value: Double?) -> Bool {
        guard let value else { return false }
        return abs(value) > 1e10 && abs(value) <= 1e13
    }

    /// The unit `metadata.generated` is written in: a feed is generated "now", so below 10^11
    /// (the year 5138 in seconds, 1973 in milliseconds) it is seconds.
    private static func unit(ofGenerated generated: Double) -> TimeUnit { generated < 1e11 ? .seconds : .milliseconds }

    /// Whether a feature's `time`, read in `generated`'s unit, falls within decades of it. A feed
    /// whose `generated` is milliseconds while its times are seconds puts them in January 1970,
    /// fifty years before it: then the times decide (the same test a feed without `generated` gets).
    static func agree(_ time: Double, generated: Double) -> Bool {
        let scale = unit(ofGenerated: generated) == .seconds ? 1000.0 : 1
        return abs(time * scale - generated * scale) < decades
    }

    private func decide(skips: inout SkipLog, by: String) {
        if timeUnit == .undecided {
            let values = pending.flatMap { [$0.fields.timeNumber, $0.fields.updatedNumber].compactMap { $0.map(abs) } }
                .filter { $0 <= 1e13 }
            let seconds = !values.contains { $0 > 1e10 } && values.contains { $0 >= 1e7 }
            let byTimes: TimeUnit = seconds ? .seconds : .milliseconds
            // Times within 10^7 of the epoch are January–April 1970 in either unit: they cannot
            // overrule `generated`.
            let timesTell = values.contains { $0 > 1e10 || $0 >= 1e7 }
            if let generated, let first = pending.first?.fields.timeNumber,
               Self.agree(first, generated: generated) || !timesTell {
                timeUnit = Self.unit(ofGenerated: generated)
                decidedBy = "metadata.generated"
            } else {
                timeUnit = byTimes
                decidedBy = by
                if let generated, Self.unit(ofGenerated: generated) != byTimes {
                    let (written, date) = Self.unit(ofGenerated: generated) == .seconds
                        ? ("seconds", generated * 1000) : ("milliseconds", generated)
                    let day = CivilDate.isoDate(days: Int64((date / 86_400_000).rounded(.down)))
                    disagreement = "metadata.generated \(Int64(generated)) reads as \(written) (\(day)), "
                        + "decades away from the features' times read that way: the times decided"
                }
            }
        }
        let waiting = pending
        pending = []
        for (fields, index, line) in waiting.reversed() {
            if let record = finish(fields, index: index, line: line, skips: &skips) {
                ready.append(record)
            }
        }
    }

    /// The record of a usable feature, in the decided time unit, with its agency's code.
    private func finish(_ fields: consuming FeatureFields, index: Int, line: Int, skips: inout SkipLog) -> QuakeRecord? {
        if timeUnit == .seconds {
            if let t = fields.timeNumber {
                let ms = (t * 1000).rounded()
                guard abs(ms) < 9.2e18 else {
                    skips.add(SkippedFeature(index: index, line: line, reason: "\"time\" \(t) s is out of range"))
                    return nil
                }
                fields.time = Int64(ms)
            }
            if let u = fields.updatedNumber, abs(u * 1000) < 9.2e18 { fields.updated = Int64((u * 1000).rounded()) }
            // The years were checked on the numbers as milliseconds: again, as seconds.
            if let reason = fields.skipReason() {
                skips.add(SkippedFeature(index: index, line: line, reason: reason))
                return nil
            }
        }
        let source: String
        if let decided = agency ?? decidedAgency {
            source = decided
        } else {
            source = Self.agency(of: fields)
            decidedAgency = source
        }
        let id = fields.code ?? fields.unid ?? fields.publicID ?? ""
        fields.code = FeedAgency.code(id, agency: source)
        if fields.place == nil { fields.place = fields.region ?? fields.locality }
        if let depth = fields.propertyDepth { fields.depth = depth }
        if fields.status == nil, let quality = fields.quality { fields.status = Self.status(ofGeoNetQuality: quality) }
        if source == "usgs", let ids = fields.ids, let code = fields.code {
            for other in ComCatAliases.others(inIDs: ids, of: code) {
                aliases.append(ComCatAliases.Alias(alias: other, code: code))
            }
        }
        var record = fields.makeRecord()
        record.source = source
        return record
    }

    /// The other codes ComCat's features listed in their `ids`, with when the feed was generated.
    private var aliases: [ComCatAliases.Alias] = []

    var comCatAliases: ComCatAliases {
        // A `generated` out of the 64-bit range of milliseconds says nothing.
        let ms = generated.map { Self.unit(ofGenerated: $0) == .seconds ? $0 * 1000 : $0 }.flatMap { $0 < 9.2e18 ? Int64($0) : nil }
        return ComCatAliases(aliases: aliases, generated: ms)
    }

    /// The agency of the feed's features, decided from its first usable one.
    private var decidedAgency: String?

    /// The agency of a feed that names none (`import --agency`, `fetch`'s service), decided once
    /// from its first usable feature: one namespace for the whole feed, by the same rules as the
    /// FDSN text of the same service (``FeedAgency/fromFDSNText``), so that one event read from
    /// both formats gets one code:
    ///
    /// - EMSC's members (`unid`, `flynn_region`, `source_catalog`): `emsc`;
    /// - GeoNet's (`publicID`): `geonet`, as its FDSN text's Author (`WEL(GNS_Primary)`, `GNS`);
    /// - ComCat's: the id starting with its `net` (`us7000abcd`, net `us`; every feature of the
    ///   USGS feeds), no `net`, or ComCat's associated `ids` listed: `usgs`, the code the id itself;
    /// - else the agency `net` names (``FeedAgency/fromName(_:)``): an id `fx0006679` of net `us`
    ///   is `us:fx0006679`, as the text row `fx0006679|…|us|us|us|…` is.
    static func agency(of fields: borrowing FeatureFields) -> String {
        if fields.isEMSC || fields.unid != nil || fields.region != nil { return "emsc" }
        if fields.code == nil, fields.publicID != nil { return FeedAgency.geoNet }
        guard !fields.hasComCatIDs, let net = fields.net, !net.isEmpty, let id = fields.code,
              !id.lowercased().hasPrefix(net.lowercased()) else { return "usgs" }
        return FeedAgency.fromName(net) ?? "usgs"
    }

    /// GeoNet's `quality` in the words of the USGS `status`: `best` (reviewed by a seismologist)
    /// is `reviewed`, `preliminary` and `automatic` are `automatic`, `deleted` stays; another
    /// word is kept as it is.
    static func status(ofGeoNetQuality quality: String) -> String {
        switch quality.lowercased() {
        case "best": "reviewed"
        case "preliminary", "automatic": "automatic"
        case "deleted": "deleted"
        default: quality
        }
    }

    // MARK: - The collection

    private func openCollection() throws(FeedError) {
        if isJSONP {
            try input.expect(UInt8(ascii: "("), "expected '(' after the JSONP callback name")
        }
        let c = try input.nextToken("at the start of the document")
        guard c == openBrace else {
            throw input.error(.notFeatureCollection,
                              "expected '{' starting a GeoJSON FeatureCollection, found \(describeByte(c))")
        }
        input.pos &+= 1
        guard try collectionMembers(first: true, findFeatures: true) else {
            throw input.error(.notFeatureCollection,
                              "the document has no \"features\" array, so it is not a GeoJSON FeatureCollection",
                              at: input.offset - 1)
        }
    }

    /// Reads members of the top-level object. With `findFeatures`, stops after the `[` of
    /// `features` and returns true; otherwise skips them all and returns false at the `}`.
    private func collectionMembers(first: Bool, findFeatures: Bool) throws(FeedError) -> Bool {
        var first = first
        while true {
            var c = try input.nextToken("in the FeatureCollection object")
            if c == closeBrace {
                input.pos &+= 1
                return false
            }
            if !first {
                guard c == comma else {
                    throw input.syntaxError(expected: "expected ',' or '}' in the FeatureCollection object", found: c)
                }
                input.pos &+= 1
                c = try input.nextToken("in the FeatureCollection object")
            }
            first = false
            let key = try memberName(c)
            c = try input.nextToken("after a member name")
            if keys.lookup(key) == .metadata, c == openBrace {
                input.pos &+= 1
                try forEachMember("in \"metadata\"") { (key, c) throws(FeedError) in
                    if keys.lookup(key) == .generated, let n = try number(c) {
                        // Checked against the first feature's time before it decides (`decide`).
                        if n.double > 0, n.double.isFinite { generated = n.double }
                    } else {
                        try input.skipValue()
                    }
                }
                continue
            }
            if findFeatures, keys.lookup(key) == .features {
                guard c == openBracket else {
                    throw input.error(.notFeatureCollection,
                                      "\"features\" is not an array (found \(describeByte(c)))")
                }
                input.pos &+= 1
                return true
            }
            try input.skipValue()
        }
    }

    private func closeCollection() throws(FeedError) {
        _ = try collectionMembers(first: false, findFeatures: false)
        if isJSONP {
            try input.expect(UInt8(ascii: ")"), "expected ')' closing the JSONP callback")
            try closeCallback()
            return
        }
        if try input.skipWhitespace() {
            throw input.error(.syntax,
                              "unexpected \(describeByte(input.buffer[input.pos])) after the end of the FeatureCollection")
        }
    }

    /// After the callback's `)`: whitespace, one `;`, and a lone `0` line are all that may follow.
    /// That `0` is the last-chunk line of an HTTP chunked body saved along with it (the legacy
    /// 2012 feed ends `);\n0\n`). Anything else means two feeds joined or a damaged file, and
    /// is refused like any other syntax error, with its position.
    private func closeCallback() throws(FeedError) {
        var allowed: [UInt8] = [UInt8(ascii: ";"), UInt8(ascii: "0")]
        while try input.skipWhitespace() {
            let c = input.buffer[input.pos]
            guard let index = allowed.firstIndex(of: c) else {
                throw input.error(.syntax, "unexpected \(describeByte(c)) after the JSONP callback's closing ')' "
                                  + "(two feeds joined, or a damaged file)")
            }
            // `;` then `0`, each at most once and in that order; the `0` stands alone.
            allowed.removeFirst(index + 1)
            input.pos &+= 1
            if c == UInt8(ascii: "0"), try input.ensure(), input.buffer[input.pos] > 0x20 {
                let next = input.buffer[input.pos]
                throw input.error(.syntax, "unexpected \(describeByte(next)) after the JSONP callback's closing ')' "
                                  + "(two feeds joined, or a damaged file)")
            }
        }
    }

    /// Reads `"name":` with `c` (at pos) the opening quote.
    @inline(__always) private func memberName(_ c: UInt8) throws(FeedError) -> PackedKey {
        guard c == quote else {
            throw input.syntaxError(expected: "expected a member name in double quotes", found: c)
        }
        input.pos &+= 1
        let key = try input.readKey()
        if input.pos < input.end, input.buffer[input.pos] == colon {
            input.pos &+= 1
        } else {
            try input.expect(colon, "expected ':' after a member name")
        }
        return key
    }

    /// Iterates the members of an object whose `{` was consumed, calling `body` with each name
    /// and the first byte of its value (at pos); `body` must consume the value.
    @inline(__always)
    private func forEachMember(_ context: String,
                               _ body: (PackedKey, UInt8) throws(FeedError) -> Void) throws(FeedError) {
        var c = try input.nextToken(context)
        if c == closeBrace {
            input.pos &+= 1
            return
        }
        while true {
            let key = try memberName(c)
            let v = try input.nextToken(context)
            try body(key, v)
            c = try input.nextToken(context)
            if c == comma {
                input.pos &+= 1
                c = try input.nextToken(context)
                continue
            }
            if c == closeBrace {
                input.pos &+= 1
                return
            }
            throw input.syntaxError(expected: "expected ',' or '}' \(context)", found: c)
        }
    }

    // MARK: - A feature

    private func parseFeature(_ fields: inout FeatureFields) throws(FeedError) {
        try forEachMember("in a feature") { (key, c) throws(FeedError) in
            let known = keys.lookup(key)
            if known == .properties, c == openBrace {
                input.pos &+= 1
                try parseProperties(&fields)
            } else if known == .geometry, c == openBrace {
                input.pos &+= 1
                try parseGeometry(&fields)
            } else if known == .id {
                if c == quote {
                    input.pos &+= 1
                    fields.code = try input.readString()
                    fields.idProblem = fields.code == nil ? "\"id\" is longer than \(input.scratchCapacity) bytes" : nil
                } else {
                    fields.code = nil
                    fields.idProblem = c == UInt8(ascii: "n") ? "\"id\" is null" : "\"id\" is not a string"
                    try input.skipValue()
                }
            } else {
                try input.skipValue()
            }
        }
    }

    private func parseProperties(_ fields: inout FeatureFields) throws(FeedError) {
        try forEachMember("in \"properties\"") { (key, c) throws(FeedError) in
            switch keys.lookup(key) {
            case .mag:
                fields.magnitude = try numeric(c, &fields, "mag")?.double
            case .place:
                fields.place = try string(c, &fields, "place")
            case .time:
                fields.time = nil
                fields.timeNumber = nil
                if c == quote {
                    // EMSC: an ISO-8601 string.
                    let text = try string(c, &fields, "time") ?? ""
                    fields.time = isoMilliseconds(text)
                    fields.timeProblem = fields.time == nil ? "\"time\" \"\(text.prefix(40))\" is not an ISO-8601 date" : nil
                } else if let n = try number(c) {
                    fields.time = FeatureFields.milliseconds(n)
                    fields.timeNumber = n.double
                    fields.timeProblem = fields.time == nil ? "\"time\" \(n.double) is out of range" : nil
                } else {
                    fields.timeProblem = c == UInt8(ascii: "n") ? "\"time\" is null" : "\"time\" is not a number"
                }
            case .updated:
                fields.updatedNumber = nil
                if c == quote {
                    fields.updated = isoMilliseconds(try string(c, &fields, "updated") ?? "")
                } else if let n = try number(c) {
                    fields.updated = FeatureFields.milliseconds(n)
                    fields.updatedNumber = n.double
                    if fields.updated == nil { fields.fail("\"updated\" \(n.double) is out of range") }
                } else {
                    fields.updated = nil
                }
            case .lastupdate:
                if let text = try string(c, &fields, "lastupdate"), let ms = isoMilliseconds(text) {
                    fields.updated = ms
                    fields.updatedNumber = nil
                }
            case .flynnRegion: fields.region = try string(c, &fields, "flynn_region")
            case .unid: fields.unid = try string(c, &fields, "unid")
            case .magtype: if fields.magType == nil { fields.magType = try string(c, &fields, "magtype", intern: true) } else { try input.skipValue() }
            case .depth: fields.propertyDepth = try numeric(c, &fields, "depth").map(\.double).flatMap { $0.isFinite ? $0 : nil }
            case .sourceCatalog:
                fields.isEMSC = true
                try input.skipValue()
            case .publicID: fields.publicID = try string(c, &fields, "publicID")
            case .magnitude:
                // GeoNet's name for `mag` (a feed with both keeps `mag`).
                let value = try numeric(c, &fields, "magnitude")?.double
                if fields.magnitude == nil { fields.magnitude = value }
            case .locality: fields.locality = try string(c, &fields, "locality")
            case .quality: fields.quality = try string(c, &fields, "quality", intern: true)
            case .ids:
                fields.hasComCatIDs = c == quote
                if c == quote {
                    input.pos &+= 1
                    // One code (the feature's own) or over-long ids say nothing usable; the feature stays.
                    fields.ids = try input.readCommaListOfSeveral()
                } else {
                    try input.skipValueFast()
                }
            case .type: fields.type = try string(c, &fields, "type", intern: true)
            case .status: fields.status = try string(c, &fields, "status", intern: true)
            case .magType: fields.magType = try string(c, &fields, "magType", intern: true)
            case .net: fields.net = try string(c, &fields, "net", intern: true)
            case .url: fields.url = try string(c, &fields, "url")
            case .title: fields.title = try string(c, &fields, "title")
            case .alert: fields.alert = try string(c, &fields, "alert", intern: true)
            case .tsunami: fields.tsunami = try numeric(c, &fields, "tsunami").flatMap(FeatureFields.integer)
            case .felt: fields.felt = try numeric(c, &fields, "felt").flatMap(FeatureFields.integer)
            case .sig: fields.sig = try numeric(c, &fields, "sig").flatMap(FeatureFields.integer)
            default: try input.skipValueFast()
            }
        }
    }

    private func parseGeometry(_ fields: inout FeatureFields) throws(FeedError) {
        try forEachMember("in \"geometry\"") { (key, c) throws(FeedError) in
            guard keys.lookup(key) == .coordinates else {
                try input.skipValue()
                return
            }
            fields.longitude = nil
            fields.latitude = nil
            fields.depth = nil
            fields.coordinatesProblem = nil
            if c == openBracket {
                input.pos &+= 1
                try parseCoordinates(&fields)
            } else {
                if c != UInt8(ascii: "n") { fields.coordinatesProblem = "\"coordinates\" is not an array" }
                try input.skipValue()
            }
        }
    }

    /// `[longitude, latitude, depth?, …]` with `[` consumed; extra elements are ignored.
    private func parseCoordinates(_ fields: inout FeatureFields) throws(FeedError) {
        var c = try input.nextToken("in \"coordinates\"")
        var index = 0
        if c == closeBracket {
            input.pos &+= 1
            fields.coordinatesProblem = "\"coordinates\" is empty"
            return
        }
        while true {
            if index < 3 {
                let value = try number(c)?.double
                switch index {
                case 0: fields.longitude = value
                case 1: fields.latitude = value
                default: fields.depth = value
                }
                if value == nil, index < 2, fields.coordinatesProblem == nil {
                    fields.coordinatesProblem = "\"coordinates\"[\(index)] is not a number"
                }
            } else {
                try input.skipValue()
            }
            index &+= 1
            c = try input.nextToken("in \"coordinates\"")
            if c == comma {
                input.pos &+= 1
                c = try input.nextToken("in \"coordinates\"")
                continue
            }
            if c == closeBracket {
                input.pos &+= 1
                break
            }
            throw input.syntaxError(expected: "expected ',' or ']' in \"coordinates\"", found: c)
        }
        if index < 2, fields.coordinatesProblem == nil {
            fields.coordinatesProblem = "\"coordinates\" has fewer than two numbers"
        }
    }

    // MARK: - Values

    private func isoMilliseconds(_ text: String) -> Int64? {
        var text = text
        return text.withUTF8 { $0.isEmpty ? nil : parseISO8601Milliseconds($0.baseAddress!, $0.count) }
    }

    /// A number value at pos, or nil (consumed) for null or any other type.
    @inline(__always) private func number(_ c: UInt8) throws(FeedError) -> JSONNumber? {
        if (c &- 0x30) < 10 || c == UInt8(ascii: "-") { return try input.readNumber() }
        try input.skipValue()
        return nil
    }

    /// An optional property's number: a number, or a string that is one whole (the legacy 2012
    /// feed writes `"sig":"449"`); nil (consumed) for null, other text or any other type.
    private func numeric(_ c: UInt8, _ fields: inout FeatureFields, _ name: StaticString) throws(FeedError) -> JSONNumber? {
        guard c == quote else { return try number(c) }
        guard let text = try string(c, &fields, name) else { return nil }
        var bytes = Array(text.utf8)
        while let last = bytes.last, last == UInt8(ascii: " ") { bytes.removeLast() }
        let start = bytes.firstIndex { $0 != UInt8(ascii: " ") } ?? bytes.count
        return bytes[start...].withUnsafeBufferPointer { buffer -> JSONNumber? in
            guard let base = buffer.baseAddress, !buffer.isEmpty else { return nil }
            let (number, length) = scanJSONNumber(base, buffer.count)
            return length == buffer.count ? number : nil
        }
    }

    /// A string value at pos, or nil (consumed) for null or any other type. An over-long string
    /// marks the feature unusable.
    @inline(__always)
    private func string(_ c: UInt8, _ fields: inout FeatureFields, _ name: StaticString,
                        intern: Bool = false) throws(FeedError) -> String? {
        guard c == quote else {
            try input.skipValue()
            return nil
        }
        input.pos &+= 1
        guard let s = try intern ? input.readShortString(interner) : input.readString() else {
            fields.fail("\"\(name)\" is longer than \(input.scratchCapacity) bytes")
            return nil
        }
        return s
    }
}
