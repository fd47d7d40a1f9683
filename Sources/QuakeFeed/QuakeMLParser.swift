import QuakeModel
import QuakeStore

/// Streams the events of a QuakeML document — 1.2 BED (`format=xml` of any FDSN event
/// service, a USGS/ANSS product file, ObsPy's writer), 1.2 BED-RT (origins and magnitudes
/// beside the events, referenced by ID, as SeisComP can write) and 1.0 — one `<event>` at a
/// time, in bounded memory (BED-RT: plus the top-level origins and magnitudes, small values).
///
/// Elements are matched by local name, so any namespace prefix works (`q:quakeml`,
/// `quakeml`, a default BED namespace or none). For each event:
///
/// - the **preferred origin** (`preferredOriginID`, which may come before or after the
///   origins, and in BED-RT may be an `<origin>` beside the event) gives time, latitude,
///   longitude and depth (`depth/value` is in metres → km; QuakeML 1.0, recognised by its
///   namespace, writes kilometres and is read as such, with a note); without a preferred ID,
///   the first origin, else the first `originReference`. Times without a zone (`2001-01-07T01:02:18.4000`,
///   as IRIS writes them) are UTC.
/// - the **preferred magnitude** (`preferredMagnitudeID`; else ``MagnitudePreference``: the
///   moment magnitude family, then Ms, mB, mb, ML, Md, then the largest) gives `mag/value`
///   and `type`; magnitudes may come before origins.
/// - the place is the `description` of type `region name`, else `Flinn-Engdahl region`, else
///   the first description; `updated` is the event's `creationInfo/creationTime`, else the
///   origin's, else the origin time.
/// - the code is the ANSS `catalog:eventsource` + `catalog:eventid` (USGS codes as in the
///   feeds), else the id inside the `publicID` (``FeedAgency/eventID(fromPublicID:)``);
///   codes of other agencies than USGS are namespaced (`iris:958596`) by the caller's
///   agency, else the `publicID`'s authority, else `creationInfo/agencyID`, else
///   `catalog:datasource`, else ``FeedAgency/neutral``.
/// - two events of the file with one code but different origins fail the read
///   (``FeedError/Code/ambiguousCode``, naming the code and both lines): they would merge.
///   The reader remembers the last ``defaultRememberedCodes`` codes (more than any one FDSN
///   answer holds), so in a longer file two such events farther apart than that are not seen.
///
/// An event without a usable origin is skipped with a reason. Picks, arrivals, amplitudes and
/// everything else are scanned, never kept; an event keeps at most ``maximumCandidates``
/// origins and magnitudes while it waits for its preferred IDs.
final class QuakeMLParser: RecordParser {
    static let maximumCandidates = 256

    /// QuakeML has none of USGS GeoJSON's PAGER, DYFI and web fields.
    var absentFields: QuakeRecord.Fields { .summaryOnly }

    private enum Name: UInt8 {
        case other, quakeml, eventParameters, event, origin, magnitude, description, text, type
        case preferredOriginID, preferredMagnitudeID, time, latitude, longitude, depth, value, mag
        case creationInfo, creationTime, evaluationStatus, agencyID, originReference, magnitudeReference
        case seiscomp, modificationTime
    }

    /// `<html>` as a root element, in the spellings pages use.
    private static let htmlRoots: Set<UInt64> = Set(["html", "HTML", "Html"].map(xmlNameHash))

    private static let names: [UInt64: Name] = {
        let all: [(String, Name)] = [
            ("quakeml", .quakeml), ("eventParameters", .eventParameters), ("event", .event), ("origin", .origin),
            ("magnitude", .magnitude), ("description", .description), ("text", .text), ("type", .type),
            ("preferredOriginID", .preferredOriginID), ("preferredMagnitudeID", .preferredMagnitudeID),
            ("time", .time), ("latitude", .latitude), ("longitude", .longitude), ("depth", .depth),
            ("value", .value), ("mag", .mag), ("creationInfo", .creationInfo), ("creationTime", .creationTime),
            ("evaluationStatus", .evaluationStatus), ("agencyID", .agencyID), ("originReference", .originReference),
            ("magnitudeReference", .magnitudeReference),
            // SeisComP's SC3ML: the root, its capitalised `EventParameters`, and `creationInfo`'s
            // `modificationTime` (QuakeML has none).
            ("seiscomp", .seiscomp), ("EventParameters", .eventParameters), ("modificationTime", .modificationTime),
        ]
        return Dictionary(uniqueKeysWithValues: all.map { (xmlNameHash($0.0), $0.1) })
    }()

    struct Origin {
        var publicID = ""
        var time: Int64?
        var timeText: String?
        var latitude: Double?
        var longitude: Double?
        var depthMetres: Double?
        var creationTime: Int64?
        var status: String?
        var agencyID: String?
        /// SC3ML: the magnitudes computed for this origin, written inside it.
        var magnitudes: [Magnitude] = []
    }

    struct Magnitude {
        var publicID = ""
        var value: Double?
        var type: String?
    }

    struct Event {
        var publicID = ""
        var eventSource: String?
        var eventID: String?
        var dataSource: String?
        var dataID: String?
        var agencyID: String?
        var originReferences: [String] = []
        var magnitudeReferences: [String] = []
        var type: String?
        var preferredOriginID: String?
        var preferredMagnitudeID: String?
        var descriptions: [(type: String?, text: String)] = []
        var creationTime: Int64?
        var modificationTime: Int64?
        var origins: [Origin] = []
        var magnitudes: [Magnitude] = []
        var line = 0
    }

    let input: ByteInput
    let agencyOverride: String?
    // The state touched on every tag is exempt from runtime exclusivity checks: the parser is
    // used from one thread, and only its own methods (and the non-escaping attribute callbacks
    // of `open`, which touch no other of these) reach it. The checks were a fifth of the parse
    // (callgrind: ~590 M of 2.4 G instructions for 20,000 events); debug builds keep them.
    @exclusivity(unchecked) private var stack: [Name] = []
    @exclusivity(unchecked) private var hashes: [UInt64] = []
    @exclusivity(unchecked) private var pendingLeaf: Leaf?
    @exclusivity(unchecked) private var event: Event?
    @exclusivity(unchecked) private var origin: Origin?
    @exclusivity(unchecked) private var magnitude: Magnitude?
    @exclusivity(unchecked) private var description: (type: String?, text: String)?
    private var eventIndex = 0
    private var started = false
    private var finished = false
    /// QuakeML 1.0 (its namespace): depths are kilometres.
    var depthInKilometres = false
    /// SeisComP's SC3ML (root `<seiscomp>`), and its `version` attribute: depths are kilometres,
    /// magnitudes sit in their origins (`magnitude/magnitude/value`), and publicIDs are plain
    /// ids (`gfz2024abcd`) rather than URIs.
    var sc3mlVersion: String?
    var isSC3ML: Bool { sc3mlVersion != nil }
    /// The SC3ML versions this reader follows (the schemas of SeisComP 3 to 7, whose event
    /// parameters agree in everything read here).
    static let sc3mlVersions = 9...14
    /// BED-RT: origins and magnitudes beside the events, by publicID, and the events that
    /// referred to one not read yet (resolved at `</eventParameters>`).
    var looseOrigins: [String: Origin] = [:]
    var looseMagnitudes: [String: Magnitude] = [:]
    private var waiting: [(event: Event, index: Int)] = []
    /// Records ready to return (next last).
    @exclusivity(unchecked) private var ready: [QuakeRecord] = []
    /// The codes of the last ``rememberedCodes`` distinct codes returned, with the origin and
    /// line of each one's first event, to refuse two events that would merge; `seenOrder` holds
    /// them oldest first from `seenNext` (a ring), so the oldest is forgotten when a new one comes.
    var seen: [String: (time: Int64, latitude: Double, longitude: Double, line: Int)] = [:]
    private var seenOrder: [String] = []
    private var seenNext = 0
    /// How many codes ``seen`` holds at most (``defaultRememberedCodes`` outside tests).
    let rememberedCodes: Int
    /// More than one answer of an FDSN service holds (USGS: at most 20,000 events), so a
    /// downloaded document is checked whole; a longer file costs no more memory than that.
    static let defaultRememberedCodes = 32_768

    /// Events that named no agency (codes ``FeedAgency/neutral``'s).
    var unattributed = 0

    var notes: [String] {
        var notes: [String] = []
        if let version = sc3mlVersion {
            let minor = version.hasPrefix("0.") ? Int(version.dropFirst(2)) : nil
            if let minor, Self.sc3mlVersions.contains(minor) {
                notes.append("SeisComP SC3ML \(version): depths in kilometres, magnitudes read from their origins")
            } else {
                notes.append("SeisComP SC3ML version \(version.isEmpty ? "(none given)" : version) is outside 0.\(Self.sc3mlVersions.lowerBound)–0.\(Self.sc3mlVersions.upperBound), "
                             + "the versions quaketui follows: read as those are")
            }
        } else if depthInKilometres {
            notes.append("QuakeML 1.0: depths are in kilometres in that version and were read as such")
        }
        if unattributed > 0 {
            notes.append("\(CountFormat.count(unattributed, "event"))\(unattributed == 1 ? " names" : " name") no agency (no publicID host, agencyID or datasource): "
                         + "codes are \(FeedAgency.neutral):<id>; import --agency NAME names it")
        }
        return notes
    }

    init(input: ByteInput, agency: String?, rememberedCodes: Int = QuakeMLParser.defaultRememberedCodes) {
        self.input = input
        agencyOverride = agency
        self.rememberedCodes = max(1, rememberedCodes)
        stack.reserveCapacity(64)
    }

    func next(skips: inout SkipLog) throws(FeedError) -> QuakeRecord? {
        // `ready` is tested before it is popped, and `open`/`close` put records there rather
        // than return them: an optional record made (and zeroed) for every tag cost a tenth of
        // the parse.
        if !ready.isEmpty { return ready.removeLast() }
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
                    assign(leaf, input.scratchOverflowed ? "" : input.trimmedXMLScratchString())
                }
                try close(top, skips: &skips)
                if !ready.isEmpty { return ready.removeLast() }
                if stack.isEmpty {
                    try expectEndOfDocument()
                    finished = true
                    return nil
                }
            case .start(let hash):
                try open(Self.names[hash] ?? .other, hash: hash, skips: &skips)
                if !ready.isEmpty { return ready.removeLast() }
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
        let root = Self.names[hash]
        guard root == .quakeml || root == .seiscomp else {
            // A login page of a captive portal, or a server's error page, sent with status 200.
            if Self.htmlRoots.contains(hash) {
                throw input.error(.unknownFormat, "this is an HTML page (a Wi-Fi login page or a server's error page?), not a "
                                  + "catalogue; nothing was changed", at: start, hint: FeedReader.formatHint)
            }
            throw input.error(.unknownFormat, "the XML document's root element is neither <quakeml> nor SeisComP's <seiscomp>, so it is "
                              + "not QuakeML or SC3ML; nothing was changed", at: start, hint: FeedReader.formatHint)
        }
        if root == .seiscomp {
            sc3mlVersion = ""
            depthInKilometres = true
        }
        let version = XMLName("version", prefixed: false)
        if try input.finishXMLStartTag(keeping: { _ in true }, attributes: { name, value in
            if root == .seiscomp, name == version { self.sc3mlVersion = value }
            if root == .quakeml { self.noteNamespace(value) }
        }) {
            finished = true
            return
        }
        stack.append(root!)
        hashes.append(hash)
    }

    /// QuakeML 1.0's namespaces (`http://quakeml.org/xmlns/quakeml/1.0`, `…/bed/1.0`) mean depths in km.
    private func noteNamespace(_ value: String) {
        if value.contains("quakeml.org"), value.hasSuffix("/1.0") || value.hasSuffix("/1.0/") { depthInKilometres = true }
    }

    private func expectEndOfDocument() throws(FeedError) {
        if case .start = try input.nextXMLMarkup() {
            throw input.error(.syntax, "a second root element after </\(isSC3ML ? "seiscomp" : "quakeml")>")
        }
    }

    private func push(_ name: Name, _ hash: UInt64) throws(FeedError) {
        guard stack.count < FeedReader.maximumNestingDepth else {
            throw input.error(.nestingTooDeep, "XML elements are nested deeper than \(FeedReader.maximumNestingDepth) levels")
        }
        stack.append(name)
        hashes.append(hash)
    }

    /// Handles a start tag whose name was read (attributes still to read); a record it completes
    /// (a self-closing tag) goes to `ready`.
    private func open(_ name: Name, hash: UInt64, skips: inout SkipLog) throws(FeedError) {
        let parent = stack.last ?? .other
        let depth = stack.count
        var selfClosing: Bool
        if name == .event, parent == .eventParameters, depth == 2 {
            // <event> directly in <eventParameters>.
            var e = Event()
            e.line = input.line
            selfClosing = try input.finishXMLStartTag(keeping: Attribute.ofEvent.contains) { name, value in
                switch name {
                case Attribute.publicID: e.publicID = value
                case Attribute.eventSource: e.eventSource = value
                case Attribute.eventID: e.eventID = value
                case Attribute.dataSource: e.dataSource = value
                case Attribute.dataID: e.dataID = value
                default: break
                }
            }
            event = e
        } else if name == .origin || name == .magnitude,
                  (event != nil && parent == .event && depth == 3) || (event == nil && parent == .eventParameters && depth == 2) {
            // In the event (BED), or beside it (BED-RT).
            var id = ""
            selfClosing = try input.finishXMLStartTag(keeping: { $0 == Attribute.publicID }) { _, value in id = value }
            if name == .origin { origin = Origin(publicID: id) } else { magnitude = Magnitude(publicID: id) }
        } else if name == .magnitude, isSC3ML, parent == .origin, origin != nil, depth == 3 {
            // SC3ML: a magnitude of the origin it sits in.
            var id = ""
            selfClosing = try input.finishXMLStartTag(keeping: { $0 == Attribute.publicID }) { _, value in id = value }
            magnitude = Magnitude(publicID: id)
        } else if name == .eventParameters, depth == 1 {
            selfClosing = try input.finishXMLStartTag(keeping: { _ in true }) { _, value in
                if !self.isSC3ML { self.noteNamespace(value) }
            }
        } else {
            if event != nil, parent == .event, depth == 3, name == .description { description = (nil, "") }
            selfClosing = try input.finishXMLStartTag()
        }
        try push(name, hash)
        if selfClosing {
            _ = stack.popLast()
            _ = hashes.popLast()
            try close(name, skips: &skips)
            return
        }
        if event != nil || origin != nil || magnitude != nil { pendingLeaf = leafTarget(name) }
    }

    /// The attributes read: `publicID` (no prefix), and the ANSS catalog's (any prefix).
    private enum Attribute {
        static let publicID = XMLName("publicID", prefixed: false)
        static let eventSource = XMLName("eventsource", prefixed: true)
        static let eventID = XMLName("eventid", prefixed: true)
        static let dataSource = XMLName("datasource", prefixed: true)
        static let dataID = XMLName("dataid", prefixed: true)
        static let ofEvent = [publicID, eventSource, eventID, dataSource, dataID]
    }

    private enum Leaf {
        case eventType, preferredOrigin, preferredMagnitude, descriptionText, descriptionType, eventCreation, eventModification
        case originTime, originLatitude, originLongitude, originDepth, originCreation, originStatus
        case magnitudeValue, magnitudeType, eventAgency, originAgency, originReference, magnitudeReference
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
        case .originReference where parent == .event: return .originReference
        case .magnitudeReference where parent == .event: return .magnitudeReference
        case .agencyID where parent == .creationInfo && grand == .event && n == 5: return .eventAgency
        case .agencyID where parent == .creationInfo && grand == .origin && origin != nil: return .originAgency
        case .text where parent == .description && grand == .event: return .descriptionText
        case .type where parent == .description && grand == .event: return .descriptionType
        case .creationTime where parent == .creationInfo && grand == .event && n == 5: return .eventCreation
        case .modificationTime where parent == .creationInfo && grand == .event && n == 5: return .eventModification
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
        // SC3ML writes QuakeML's `mag` as a `magnitude` inside the magnitude.
        case .value where parent == .magnitude && grand == .magnitude && magnitude != nil && isSC3ML: return .magnitudeValue
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
        case .eventModification: event?.modificationTime = Self.time(text)
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
        case .eventAgency: event?.agencyID = text.isEmpty ? nil : text
        case .originAgency: origin?.agencyID = text.isEmpty ? nil : text
        case .originReference:
            if !text.isEmpty, let count = event?.originReferences.count, count < Self.maximumCandidates {
                event?.originReferences.append(text)
            }
        case .magnitudeReference:
            if !text.isEmpty, let count = event?.magnitudeReferences.count, count < Self.maximumCandidates {
                event?.magnitudeReferences.append(text)
            }
        }
    }

    /// Handles the end of `name`; an event that ends usable puts its record in `ready`.
    private func close(_ name: Name, skips: inout SkipLog) throws(FeedError) {
        switch name {
        case .magnitude where magnitude != nil && isSC3ML && stack.last == .origin:
            // SC3ML: kept with its origin, and by publicID for an event's preferredMagnitudeID.
            if let m = magnitude, origin != nil {
                Self.keep(m, id: m.publicID, preferred: nil, in: &origin!.magnitudes)
                if !m.publicID.isEmpty { looseMagnitudes[m.publicID] = m }
            }
            magnitude = nil
        case .origin where origin != nil && stack.count == 3:
            if let o = origin, event != nil {
                Self.keep(o, id: o.publicID, preferred: event!.preferredOriginID, in: &event!.origins)
            }
            origin = nil
        case .origin where origin != nil && stack.count == 2:
            if let o = origin, !o.publicID.isEmpty { looseOrigins[o.publicID] = o }
            origin = nil
        case .magnitude where magnitude != nil && stack.count == 3:
            if let m = magnitude, event != nil {
                Self.keep(m, id: m.publicID, preferred: event!.preferredMagnitudeID, in: &event!.magnitudes)
            }
            magnitude = nil
        case .magnitude where magnitude != nil && stack.count == 2:
            if let m = magnitude, !m.publicID.isEmpty { looseMagnitudes[m.publicID] = m }
            magnitude = nil
        case .description where description != nil && stack.count == 3:
            if let d = description, event != nil, event!.descriptions.count < 16 { event!.descriptions.append(d) }
            description = nil
        case .event where stack.count == 2:
            guard let e = event else { return }
            event = nil
            let index = eventIndex
            eventIndex += 1
            if refersAhead(e) {
                waiting.append((e, index))
                return
            }
            if let record = try finish(e, index: index, skips: &skips) { ready.append(record) }
            if isSC3ML { forgetOrigins(of: e) }
        case .eventParameters where stack.count == 1:
            // BED-RT events whose origin or magnitude came after them.
            var records: [QuakeRecord] = []
            for (e, index) in waiting {
                if let record = try finish(e, index: index, skips: &skips) { records.append(record) }
            }
            waiting = []
            looseOrigins = [:]
            looseMagnitudes = [:]
            ready = records.reversed() + ready
        default:
            break
        }
    }

    /// Forgets the origins an SC3ML event referred to, and their magnitudes, once it is read:
    /// SeisComP writes every origin before the events, so a long answer would otherwise keep
    /// all of them until its end (an origin belongs to one event).
    private func forgetOrigins(of e: Event) {
        for id in [e.preferredOriginID].compactMap({ $0 }) + e.originReferences {
            guard let o = looseOrigins.removeValue(forKey: id) else { continue }
            for m in o.magnitudes { looseMagnitudes[m.publicID] = nil }
        }
    }

    /// Whether a BED-RT event names an origin or magnitude beside it that was not read yet.
    private func refersAhead(_ e: Event) -> Bool {
        if e.origins.isEmpty {
            if let id = e.preferredOriginID, looseOrigins[id] == nil { return true }
            if e.preferredOriginID == nil, let id = e.originReferences.first, looseOrigins[id] == nil { return true }
        }
        if let id = e.preferredMagnitudeID, !e.magnitudes.contains(where: { $0.publicID == id }), looseMagnitudes[id] == nil {
            return true
        }
        return e.magnitudeReferences.contains { id in
            looseMagnitudes[id] == nil && !e.magnitudes.contains { $0.publicID == id }
        }
    }

    /// Keeps a candidate origin or magnitude: at most ``maximumCandidates``, the preferred one always.
    private static func keep<T>(_ item: T, id: String, preferred: String?, in list: inout [T]) {
        if list.count < maximumCandidates || id == preferred { list.append(item) }
    }

    /// Remembers the first origin of a new code, forgetting the oldest code once
    /// ``rememberedCodes`` are held, so the map stays the same size however long the file.
    func remember(_ code: String, _ origin: (time: Int64, latitude: Double, longitude: Double, line: Int)) {
        if seenOrder.count < rememberedCodes {
            seenOrder.append(code)
        } else {
            seen[seenOrder[seenNext]] = nil
            seenOrder[seenNext] = code
            seenNext = (seenNext + 1) % rememberedCodes
        }
        seen[code] = origin
    }

    /// The last publicID authority looked up and its agency (one service writes one authority).
    var cachedAgency: (authority: [UInt8], agency: String?)?

    private static func time(_ text: String) -> Int64? {
        var text = text
        return text.withUTF8 { parseISO8601Milliseconds($0.baseAddress!, $0.count) }
    }
}
