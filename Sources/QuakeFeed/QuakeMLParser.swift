import QuakeStore

/// Streams the events of a QuakeML 1.2 document (`format=xml` of any FDSN event service, or a
/// USGS/ANSS product file), one `<event>` at a time, in bounded memory.
///
/// Elements are matched by local name, so any namespace prefix works (`q:quakeml`,
/// `quakeml`, a default BED namespace or none). For each event:
///
/// - the **preferred origin** (`preferredOriginID`, which may come before or after the
///   origins) gives time, latitude, longitude and depth (`depth/value` is in metres → km);
///   without a preferred ID, the first origin. Times without a zone (`2001-01-07T01:02:18.4000`,
///   as IRIS writes them) are UTC.
/// - the **preferred magnitude** (`preferredMagnitudeID`; else the first) gives `mag/value`
///   and `type`; magnitudes may come before origins.
/// - the place is the `description` of type `region name`, else `Flinn-Engdahl region`, else
///   the first description; `updated` is the event's `creationInfo/creationTime`, else the
///   origin's, else the origin time.
/// - the code is the ANSS `catalog:eventsource` + `catalog:eventid` (USGS codes as in the
///   feeds), else the `eventid=` of the `publicID`, else its last path part; codes of other
///   agencies than USGS are namespaced (`iris:958596`).
///
/// An event without a usable origin is skipped with a reason. Picks, arrivals, amplitudes and
/// everything else are scanned, never kept; an event keeps at most ``maximumCandidates``
/// origins and magnitudes while it waits for its preferred IDs.
final class QuakeMLParser: RecordParser {
    static let maximumCandidates = 256

    private enum Name: UInt8 {
        case other, quakeml, eventParameters, event, origin, magnitude, description, text, type
        case preferredOriginID, preferredMagnitudeID, time, latitude, longitude, depth, value, mag
        case creationInfo, creationTime, evaluationStatus
    }

    private static let names: [UInt64: Name] = {
        let all: [(String, Name)] = [
            ("quakeml", .quakeml), ("eventParameters", .eventParameters), ("event", .event), ("origin", .origin),
            ("magnitude", .magnitude), ("description", .description), ("text", .text), ("type", .type),
            ("preferredOriginID", .preferredOriginID), ("preferredMagnitudeID", .preferredMagnitudeID),
            ("time", .time), ("latitude", .latitude), ("longitude", .longitude), ("depth", .depth),
            ("value", .value), ("mag", .mag), ("creationInfo", .creationInfo), ("creationTime", .creationTime),
            ("evaluationStatus", .evaluationStatus),
        ]
        return Dictionary(uniqueKeysWithValues: all.map { (xmlNameHash($0.0), $0.1) })
    }()

    private struct Origin {
        var publicID = ""
        var time: Int64?
        var timeText: String?
        var latitude: Double?
        var longitude: Double?
        var depthMetres: Double?
        var creationTime: Int64?
        var status: String?
    }

    private struct Magnitude {
        var publicID = ""
        var value: Double?
        var type: String?
    }

    private struct Event {
        var publicID = ""
        var eventSource: String?
        var eventID: String?
        var type: String?
        var preferredOriginID: String?
        var preferredMagnitudeID: String?
        var descriptions: [(type: String?, text: String)] = []
        var creationTime: Int64?
        var origins: [Origin] = []
        var magnitudes: [Magnitude] = []
        var line = 0
    }

    private let input: ByteInput
    private let agencyOverride: String?
    private var stack: [Name] = []
    private var hashes: [UInt64] = []
    private var pendingLeaf: Leaf?
    private var event: Event?
    private var origin: Origin?
    private var magnitude: Magnitude?
    private var description: (type: String?, text: String)?
    private var eventIndex = 0
    private var started = false
    private var finished = false

    init(input: ByteInput, agency: String?) {
        self.input = input
        agencyOverride = agency
        stack.reserveCapacity(64)
    }

    func next(skips: inout SkipLog) throws(FeedError) -> QuakeRecord? {
        if finished { return nil }
        if !started {
            started = true
            try readRoot()
            if finished { return nil }
        }
        while true {
            let leaf = pendingLeaf
            pendingLeaf = nil
            switch try input.nextXMLMarkup(collect: leaf != nil) {
            case .endOfInput:
                let open = stack.last.map { "<\($0)>" } ?? "the document"
                throw input.error(.unexpectedEnd, "unexpected end of input inside \(open)",
                                  hint: "the file looks truncated — download it again")
            case .end(let hash):
                guard let top = stack.popLast(), let topHash = hashes.popLast() else {
                    throw input.error(.syntax, "an end tag after the end of the document")
                }
                guard topHash == hash else {
                    throw input.error(.syntax, "expected the end tag of <\(top == .other ? "an element" : "\(top)")>, found another end tag")
                }
                if let leaf {
                    assign(leaf, input.scratchOverflowed ? "" : input.scratchString().trimmingXMLSpace())
                }
                if let record = close(top, skips: &skips) { return record }
                if stack.isEmpty {
                    try expectEndOfDocument()
                    finished = true
                    return nil
                }
            case .start(let hash):
                if let record = try open(Self.names[hash] ?? .other, hash: hash, skips: &skips) { return record }
            }
        }
    }

    // MARK: - Structure

    private func readRoot() throws(FeedError) {
        let start = input.offset
        guard case .start(let hash) = try input.nextXMLMarkup() else {
            throw input.error(.unknownFormat, "the XML document has no root element",
                              at: start, hint: FeedReader.formatHint)
        }
        guard Self.names[hash] == .quakeml else {
            throw input.error(.unknownFormat, "the XML document's root element is not <quakeml>, so it is not QuakeML",
                              at: start, hint: FeedReader.formatHint)
        }
        if try input.finishXMLStartTag() {
            finished = true
            return
        }
        stack.append(.quakeml)
        hashes.append(hash)
    }

    private func expectEndOfDocument() throws(FeedError) {
        if case .start = try input.nextXMLMarkup() {
            throw input.error(.syntax, "a second root element after </quakeml>")
        }
    }

    private func push(_ name: Name, _ hash: UInt64) throws(FeedError) {
        guard stack.count < FeedReader.maximumNestingDepth else {
            throw input.error(.nestingTooDeep, "XML elements are nested deeper than \(FeedReader.maximumNestingDepth) levels")
        }
        stack.append(name)
        hashes.append(hash)
    }

    /// Handles a start tag whose name was read (attributes still to read).
    private func open(_ name: Name, hash: UInt64, skips: inout SkipLog) throws(FeedError) -> QuakeRecord? {
        let parent = stack.last ?? .other
        let depth = stack.count
        var selfClosing: Bool
        if name == .event, parent == .eventParameters, depth == 2 {
            // <event> directly in <eventParameters>.
            var e = Event()
            e.line = input.line
            selfClosing = try input.finishXMLStartTag { key, value in
                switch key {
                case "publicID": e.publicID = value
                case let k where k.hasSuffix(":eventsource"): e.eventSource = value
                case let k where k.hasSuffix(":eventid"): e.eventID = value
                default: break
                }
            }
            event = e
        } else if event != nil, parent == .event, depth == 3, name == .origin || name == .magnitude {
            var id = ""
            selfClosing = try input.finishXMLStartTag { key, value in if key == "publicID" { id = value } }
            if name == .origin { origin = Origin(publicID: id) } else { magnitude = Magnitude(publicID: id) }
        } else {
            if event != nil, parent == .event, depth == 3, name == .description { description = (nil, "") }
            selfClosing = try input.finishXMLStartTag()
        }
        try push(name, hash)
        if selfClosing {
            _ = stack.popLast()
            _ = hashes.popLast()
            return close(name, skips: &skips)
        }
        if event != nil { pendingLeaf = leafTarget(name) }
        return nil
    }

    private enum Leaf {
        case eventType, preferredOrigin, preferredMagnitude, descriptionText, descriptionType, eventCreation
        case originTime, originLatitude, originLongitude, originDepth, originCreation, originStatus
        case magnitudeValue, magnitudeType
    }

    /// Which kept value an element at the top of the stack holds, if any.
    private func leafTarget(_ name: Name) -> Leaf? {
        let n = stack.count  // the element itself is stack[n-1]
        func at(_ k: Int) -> Name { n - 1 - k >= 0 ? stack[n - 1 - k] : .other }
        let parent = at(1), grand = at(2)
        switch name {
        case .type where parent == .event && n == 4: return .eventType
        case .preferredOriginID where parent == .event: return .preferredOrigin
        case .preferredMagnitudeID where parent == .event: return .preferredMagnitude
        case .text where parent == .description && grand == .event: return .descriptionText
        case .type where parent == .description && grand == .event: return .descriptionType
        case .creationTime where parent == .creationInfo && grand == .event && n == 5: return .eventCreation
        case .creationTime where parent == .creationInfo && grand == .origin && origin != nil: return .originCreation
        case .evaluationStatus where parent == .origin && origin != nil: return .originStatus
        case .value where grand == .origin && origin != nil:
            switch parent {
            case .time: return .originTime
            case .latitude: return .originLatitude
            case .longitude: return .originLongitude
            case .depth: return .originDepth
            default: return nil
            }
        case .value where parent == .mag && grand == .magnitude && magnitude != nil: return .magnitudeValue
        case .type where parent == .magnitude && magnitude != nil: return .magnitudeType
        default: return nil
        }
    }

    private func assign(_ leaf: Leaf, _ text: String) {
        switch leaf {
        case .eventType: event?.type = text.isEmpty ? nil : text
        case .preferredOrigin: event?.preferredOriginID = text
        case .preferredMagnitude: event?.preferredMagnitudeID = text
        case .descriptionText: description?.text = text
        case .descriptionType: description?.type = text
        case .eventCreation: event?.creationTime = Self.time(text)
        case .originTime:
            origin?.timeText = text
            origin?.time = Self.time(text)
        case .originLatitude: origin?.latitude = Double(text)
        case .originLongitude: origin?.longitude = Double(text)
        case .originDepth: origin?.depthMetres = Double(text)
        case .originCreation: origin?.creationTime = Self.time(text)
        case .originStatus: origin?.status = text.isEmpty ? nil : text
        case .magnitudeValue: magnitude?.value = Double(text)
        case .magnitudeType: magnitude?.type = text.isEmpty ? nil : text
        }
    }

    /// Handles the end of `name`; returns a record when an event ends usable.
    private func close(_ name: Name, skips: inout SkipLog) -> QuakeRecord? {
        switch name {
        case .origin where origin != nil && stack.count == 3:
            if let o = origin, event != nil {
                Self.keep(o, id: o.publicID, preferred: event!.preferredOriginID, in: &event!.origins)
            }
            origin = nil
        case .magnitude where magnitude != nil && stack.count == 3:
            if let m = magnitude, event != nil {
                Self.keep(m, id: m.publicID, preferred: event!.preferredMagnitudeID, in: &event!.magnitudes)
            }
            magnitude = nil
        case .description where description != nil && stack.count == 3:
            if let d = description, event != nil, event!.descriptions.count < 16 { event!.descriptions.append(d) }
            description = nil
        case .event where stack.count == 2:
            guard let e = event else { return nil }
            event = nil
            let index = eventIndex
            eventIndex += 1
            switch makeRecord(e) {
            case .success(let record): return record
            case .failure(let reason): skips.add(SkippedFeature(index: index, line: e.line, reason: reason.reason))
            }
        default:
            break
        }
        return nil
    }

    /// Keeps a candidate origin or magnitude: at most ``maximumCandidates``, the preferred one always.
    private static func keep<T>(_ item: T, id: String, preferred: String?, in list: inout [T]) {
        if list.count < maximumCandidates || id == preferred { list.append(item) }
    }

    private struct Skip: Error { let reason: String }

    private func makeRecord(_ e: Event) -> Result<QuakeRecord, Skip> {
        let origin = e.origins.first { $0.publicID == e.preferredOriginID } ?? e.origins.first
        guard let origin else { return .failure(Skip(reason: "the event has no origin")) }
        guard let time = origin.time else {
            return .failure(Skip(reason: origin.timeText.map { "origin time \"\($0)\" is not an ISO-8601 date" } ?? "the origin has no time"))
        }
        guard let latitude = origin.latitude, let longitude = origin.longitude else {
            return .failure(Skip(reason: "the origin has no latitude and longitude"))
        }
        guard (-90...90).contains(latitude) else { return .failure(Skip(reason: "latitude \(latitude) is outside -90…90")) }
        guard (-180...180).contains(longitude) else { return .failure(Skip(reason: "longitude \(longitude) is outside -180…180")) }
        let magnitude = e.magnitudes.first { $0.publicID == e.preferredMagnitudeID } ?? e.magnitudes.first
        guard let (agency, id) = identity(e) else { return .failure(Skip(reason: "the event has no publicID")) }
        let code = agency == "usgs" ? id : "\(agency):\(id)"
        let place = e.descriptions.first { $0.type == "region name" }?.text
            ?? e.descriptions.first { $0.type == "Flinn-Engdahl region" }?.text
            ?? e.descriptions.first?.text ?? ""
        let depth = origin.depthMetres.flatMap { $0.isFinite ? $0 / 1000 : nil }
        var record = QuakeRecord(
            code: code, magnitude: magnitude?.value.flatMap { $0.isFinite ? $0 : nil }, magType: magnitude?.type,
            place: place, time: time, updated: e.creationTime ?? origin.creationTime ?? time,
            latitude: latitude, longitude: longitude, depth: depth, status: origin.status, type: e.type,
            net: e.eventSource)
        record.source = agency
        return .success(record)
    }

    /// The agency and the agency's own event id.
    private func identity(_ e: Event) -> (String, String)? {
        if let source = e.eventSource, let id = e.eventID, !source.isEmpty, !id.isEmpty {
            return (agencyOverride ?? "usgs", source + id)
        }
        let publicID = e.publicID
        guard !publicID.isEmpty else { return nil }
        // Byte searches: Foundation's range(of:) on every event was a tenth of the parse (perf).
        let bytes = Array(publicID.utf8)
        var id = bytes[...]
        let key = Array("eventid=".utf8)
        if let at = Self.find(key, in: bytes) {
            id = bytes[(at + key.count)...].prefix { $0 != UInt8(ascii: "&") }
        } else if let slash = bytes.lastIndex(of: UInt8(ascii: "/")) {
            id = bytes[(slash + 1)...]
        }
        // One service writes one authority (`smi:service.iris.edu/…`): look its agency up once.
        let authority = bytes.prefix { $0 != UInt8(ascii: "/") && $0 != UInt8(ascii: "?") }
        let agency: String
        if let override = agencyOverride {
            agency = override
        } else if let cached = cachedAgency, cached.authority.elementsEqual(authority) {
            agency = cached.agency
        } else {
            agency = FeedAgency.fromPublicID(publicID)
            cachedAgency = (Array(authority), agency)
        }
        return (agency, id.isEmpty ? publicID : String(decoding: id, as: UTF8.self))
    }

    private var cachedAgency: (authority: [UInt8], agency: String)?

    private static func find(_ needle: [UInt8], in haystack: [UInt8]) -> Int? {
        guard haystack.count >= needle.count else { return nil }
        for start in 0...(haystack.count - needle.count) where haystack[start] == needle[0] {
            if haystack[start..<(start + needle.count)].elementsEqual(needle) { return start }
        }
        return nil
    }

    private static func time(_ text: String) -> Int64? {
        var text = text
        return text.withUTF8 { parseISO8601Milliseconds($0.baseAddress!, $0.count) }
    }
}

extension String {
    /// Drops leading and trailing XML whitespace (space, tab, CR, LF).
    func trimmingXMLSpace() -> String {
        var s = Substring(self)
        while let f = s.first, f == " " || f == "\t" || f == "\n" || f == "\r" || f == "\r\n" { s.removeFirst() }
        while let l = s.last, l == " " || l == "\t" || l == "\n" || l == "\r" || l == "\r\n" { s.removeLast() }
        return String(s)
    }
}
