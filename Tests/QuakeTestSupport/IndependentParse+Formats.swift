import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif

/// Independent parses of the formats beyond the USGS feeds — FDSN text (string splitting),
/// QuakeML (Foundation's XMLParser, a SAX parser over libxml2), EMSC JSON and seconds-times
/// GeoJSON (JSONSerialization), UTF-16 (Foundation's decoder) — written from the published
/// formats, sharing no code with QuakeFeed.
extension IndependentParse {
    /// The expected records of any supported file, the format chosen by its first character.
    public static func expectedAnyFormat(for url: URL) throws -> [CoreFields] {
        try expectedAnyFormat(Data(contentsOf: url), csv: url.pathExtension == "csv")
    }

    public static func expectedAnyFormat(_ data: Data, csv isCSV: Bool = false) throws -> [CoreFields] {
        var data = data
        if data.starts(with: [0xFF, 0xFE]) || data.starts(with: [0xFE, 0xFF]) {
            guard let text = String(data: data, encoding: .utf16) else { throw CocoaError(.fileReadInapplicableStringEncoding) }
            data = Data(text.utf8)
        }
        if data.starts(with: [0xEF, 0xBB, 0xBF]) { data = Data(data.dropFirst(3)) }
        let first = data.first { $0 > 0x20 }
        if isCSV || first == UInt8(ascii: "\"") { return try csv(data) }
        switch first {
        case UInt8(ascii: "#"): return fdsnText(data)
        case UInt8(ascii: "<"): return try quakeML(data)
        default: return try geoJSONAnyAgency(data)
        }
    }

    // MARK: - FDSN text

    public static func fdsnText(_ data: Data) -> [CoreFields] {
        // ("\r\n" is one Character in Swift, so split on scalars.)
        let lines = String(decoding: data, as: UTF8.self).unicodeScalars
            .split(separator: "\n", omittingEmptySubsequences: true).map { String(String.UnicodeScalarView($0)) }
            .map { $0.hasSuffix("\r") ? String($0.dropLast()) : String($0) }
        guard let header = lines.first, header.hasPrefix("#") else { return [] }
        let names = header.dropFirst().split(separator: "|", omittingEmptySubsequences: false)
            .map { $0.trimmingCharacters(in: .whitespaces).lowercased() }
        func index(_ name: String) -> Int? { names.firstIndex { $0 == name || $0.hasPrefix(name + "/") } }
        let iID = index("eventid")!, iTime = index("time")!, iLat = index("latitude")!, iLon = index("longitude")!
        let iDepth = index("depth"), iMag = index("magnitude"), iPlace = index("eventlocationname")
        let iCatalog = index("catalog"), iContributor = index("contributor"), iAuthor = index("author")
        var agency: String?
        return lines.dropFirst().filter { !$0.hasPrefix("#") }.compactMap { line -> CoreFields? in
            let cells = line.split(separator: "|", omittingEmptySubsequences: false).map { $0.trimmingCharacters(in: .whitespaces) }
            func cell(_ i: Int?) -> String { i.flatMap { $0 < cells.count ? cells[$0] : nil } ?? "" }
            guard !cell(iID).isEmpty, let time = isoMillisecondsAssumingUTC(cell(iTime)),
                  let lat = Double(cell(iLat)), let lon = Double(cell(iLon)) else { return nil }
            if agency == nil {
                let network = cell(iContributor).lowercased()
                let comcat = network.range(of: "^[a-z]{2}$", options: .regularExpression) != nil
                    && (cell(iAuthor).lowercased() == network || cell(iCatalog).lowercased() == network)
                    && cell(iID).lowercased().hasPrefix(network)
                let emscID = cell(iID).range(of: #"^[0-9]{8}_[0-9]{7}$"#, options: .regularExpression) != nil
                agency = comcat ? "usgs" : emscID ? "emsc"
                    : IndependentParse.agency(named: cell(iAuthor)) ?? IndependentParse.agency(named: cell(iContributor)) ?? IndependentParse.agency(named: cell(iCatalog)) ?? "local"
            }
            let code = agency == "usgs" ? cell(iID) : "\(agency!):\(cell(iID))"
            return CoreFields(code: code, magnitude: Double(cell(iMag)), place: cell(iPlace), time: time, updated: time,
                              latitude: lat, longitude: lon, depth: Double(cell(iDepth)))
        }
    }

    /// ISO-8601 with or without a zone (none means UTC) and any number of fraction digits.
    public static func isoMillisecondsAssumingUTC(_ text: String) -> Int64? {
        var text = text
        if !(text.hasSuffix("Z") || text.dropFirst(19).contains("+") || text.dropFirst(19).contains("-")) { text += "Z" }
        // Foundation wants exactly three fraction digits here: round the fraction ourselves.
        guard let dot = text.firstIndex(of: "."), let z = text.firstIndex(where: { $0 == "Z" || $0 == "+" }) ?? text.indices.last else {
            return isoMilliseconds(text)
        }
        let whole = String(text[..<dot]) + String(text[z...])
        guard let seconds = isoMilliseconds(whole) else { return nil }
        let digits = text[text.index(after: dot)..<z]
        let ms = Int((digits + "000").prefix(3)) ?? 0
        return seconds + Int64(ms)
    }

    /// The magnitude a seismologist shows when none is flagged (written from issue 30's rule,
    /// independently of `MagnitudePreference`): Mww, Mwc, Mwb, Mwr, Mw, other Mw…, Ms…, mB,
    /// mb, ML, Md, others; the largest of the best kind.
    public static func preferredMagnitude(_ magnitudes: [[String: String]]) -> Int? {
        func kind(_ type: String) -> Int {
            if type == "mB" || type == "mB_BB" { return 7 }
            let order = ["mww", "mwc", "mwb", "mwr", "mw"]
            let t = type.lowercased()
            if let i = order.firstIndex(of: t) { return i }
            if t.hasPrefix("mw") { return 5 }
            if t.hasPrefix("ms") || t == "m_s" { return 6 }
            if ["mb", "mb_bb", "mbb"].contains(t) { return 8 }
            if t.hasPrefix("ml") || ["mbl", "mblg", "mb_lg"].contains(t) { return 9 }
            if ["md", "mc", "mcd"].contains(t) { return 10 }
            return t.isEmpty ? 12 : 11
        }
        let usable = magnitudes.indices.compactMap { i -> (Int, Int, Double)? in
            guard let v = magnitudes[i]["mag/value"].flatMap(Double.init) else { return nil }
            return (i, kind(magnitudes[i]["type"] ?? ""), v)
        }
        return usable.min { a, b in a.1 != b.1 ? a.1 < b.1 : a.2 > b.2 }?.0
    }

    /// The agency a QuakeML publicID's authority names (nil for `smi:local`) and the event's id in it.
    public static func quakeMLIdentity(_ publicID: String) -> (String?, String) {
        let withoutScheme = publicID.replacingOccurrences(of: #"^[A-Za-z]+:"#, with: "", options: .regularExpression)
        let beforeFragment = withoutScheme.components(separatedBy: "#")[0]
        let parts = beforeFragment.components(separatedBy: "?")
        var segments = parts[0].components(separatedBy: "/").filter { !$0.isEmpty }
        let authority = segments.isEmpty ? "" : segments.removeFirst().lowercased()
        let known = [("iris.edu", "iris"), ("seismicportal", "emsc"), ("emsc", "emsc"), ("usgs.gov", "usgs"), ("anss.org", "usgs"),
                     ("ingv.it", "ingv"), ("gfz", "geofon"), ("isc.ac.uk", "isc")]
        let agency = authority.isEmpty || authority == "local" ? nil : known.first { authority.contains($0.0) }?.1 ?? authority
        let parameters = (parts.count > 1 ? parts[1].components(separatedBy: "&") : []) + segments.reversed()
        for parameter in parameters {
            let pair = parameter.components(separatedBy: "=")
            if pair.count == 2, ["eventid", "evid"].contains(pair[0].lowercased()), !pair[1].isEmpty { return (agency, pair[1]) }
        }
        let generic = ["event", "events", "query", "fdsnws", "origin"]
        let meaningful = segments.indices.filter { i in
            if generic.contains(segments[i].lowercased()) { return false }
            let isVersion = i > 0 && generic.contains(segments[i - 1].lowercased()) && segments[i].count <= 2 && Int(segments[i]) != nil
            let nextGeneric = i + 1 < segments.count && generic.contains(segments[i + 1].lowercased())
            return !(isVersion && (nextGeneric || segments[..<i].contains { !generic.contains($0.lowercased()) }))
        }
        return (agency, meaningful.last.map { segments[$0] } ?? publicID)
    }

    /// An agency as a record names it (`SURVEY-INGV`, `GFZ`), as the store's one word.
    public static func agency(named name: String) -> String? {
        let n = name.lowercased().filter { $0.isLetter || $0.isNumber || $0 == "-" || $0 == "." }
        if n.isEmpty { return nil }
        let aliases: [(String, String)] = [("ingv", "ingv"), ("survey-ingv", "ingv"), ("bulletin-ingv", "ingv"), ("gfz", "geofon"),
                                           ("geofon", "geofon"), ("emsc", "emsc"), ("emsc-rts", "emsc"), ("isc", "isc"), ("iris", "iris"),
                                           ("usgs", "neic")]
        return aliases.first { $0.0 == n }?.1 ?? n
    }

    // MARK: - GeoJSON of any agency, seconds or milliseconds

    /// GeoJSON as the USGS feeds, EMSC's seismicportal and seconds-times feeds write it: times
    /// are seconds when `metadata.generated` says so, else when every numeric time is below
    /// 10^11 and one is at least 10^7; EMSC features have ISO times and `emsc:` codes.
    public static func geoJSONAnyAgency(_ data: Data) throws -> [CoreFields] {
        let object = try JSONSerialization.jsonObject(with: stripJSONP(data))
        guard let root = object as? [String: Any], let features = root["features"] as? [[String: Any]] else {
            throw CocoaError(.coderReadCorrupt)
        }
        let numericTimes = features.flatMap { feature -> [Double] in
            let properties = feature["properties"] as? [String: Any] ?? [:]
            return [properties["time"], properties["updated"]].compactMap { ($0 as? NSNumber)?.doubleValue }.map(abs)
        }.filter { $0 <= 1e13 }
        var seconds = numericTimes.allSatisfy { $0 <= 1e10 } && numericTimes.contains { $0 >= 1e7 }
        if let generated = (root["metadata"] as? [String: Any])?["generated"] as? NSNumber {
            seconds = generated.doubleValue < 1e11
        }
        return features.compactMap { feature -> CoreFields? in
            guard let properties = feature["properties"] as? [String: Any],
                  let geometry = feature["geometry"] as? [String: Any],
                  let coordinates = geometry["coordinates"] as? [Any], coordinates.count >= 2,
                  let lon = (coordinates[0] as? NSNumber)?.doubleValue, let lat = (coordinates[1] as? NSNumber)?.doubleValue
            else { return nil }
            let emsc = properties["unid"] != nil || properties["flynn_region"] != nil
            func time(_ value: Any?) -> Int64? {
                if let text = value as? String { return isoMillisecondsAssumingUTC(text) }
                guard let n = value as? NSNumber else { return nil }
                return seconds ? Int64((n.doubleValue * 1000).rounded()) : n.int64Value
            }
            guard let id = (feature["id"] as? String) ?? (properties["unid"] as? String), let t = time(properties["time"]) else {
                return nil
            }
            let updated = time(properties["updated"]) ?? time(properties["lastupdate"]) ?? t
            let depth = (properties["depth"] as? NSNumber)?.doubleValue
                ?? (coordinates.count > 2 ? (coordinates[2] as? NSNumber)?.doubleValue : nil)
            return CoreFields(code: emsc ? "emsc:\(id)" : id, magnitude: (properties["mag"] as? NSNumber)?.doubleValue,
                              place: (properties["place"] as? String) ?? (properties["flynn_region"] as? String) ?? "",
                              time: t, updated: updated, latitude: lat, longitude: lon, depth: depth)
        }
    }

    // MARK: - QuakeML

    public static func quakeML(_ data: Data) throws -> [CoreFields] {
        #if canImport(FoundationXML)
        let collector = QuakeMLCollector()
        let parser = XMLParser(data: data)
        parser.delegate = collector
        guard parser.parse() else { throw parser.parserError ?? CocoaError(.coderReadCorrupt) }
        return collector.events.compactMap { $0.fields() }
        #else
        throw CocoaError(.featureUnsupported)
        #endif
    }
}

#if canImport(FoundationXML)
/// Collects every event's elements as `path → text` (paths relative to the event, with
/// origins and magnitudes keyed by publicID). Simple and slow; for test files only.
private final class QuakeMLCollector: NSObject, XMLParserDelegate {
    struct Event {
        var attributes: [String: String] = [:]
        var values: [String: String] = [:]
        var origins: [(id: String, values: [String: String])] = []
        var magnitudes: [(id: String, values: [String: String])] = []
        var descriptions: [(type: String, text: String)] = []

        func fields() -> CoreFields? {
            let origin = (origins.first { $0.id == values["preferredOriginID"] } ?? origins.first)?.values ?? [:]
            let magnitude = (magnitudes.first { $0.id == values["preferredMagnitudeID"] }
                ?? IndependentParse.preferredMagnitude(magnitudes.map(\.values)).map { magnitudes[$0] })?.values ?? [:]
            guard let timeText = origin["time/value"], let time = IndependentParse.isoMillisecondsAssumingUTC(timeText),
                  let lat = origin["latitude/value"].flatMap(Double.init), let lon = origin["longitude/value"].flatMap(Double.init)
            else { return nil }
            let publicID = attributes["publicID"] ?? ""
            let code: String
            if let source = attributes.first(where: { $0.key.hasSuffix(":eventsource") })?.value,
               let id = attributes.first(where: { $0.key.hasSuffix(":eventid") })?.value {
                code = source + id
            } else {
                let (agencyOfID, id) = IndependentParse.quakeMLIdentity(publicID)
                let agency = agencyOfID ?? values["creationInfo/agencyID"].flatMap(IndependentParse.agency(named:)) ?? "local"
                code = agency == "usgs" ? id : "\(agency):\(id)"
            }
            let regionName: String? = descriptions.first { $0.type == "region name" }?.text
            let flinnEngdahl: String? = descriptions.first { $0.type == "Flinn-Engdahl region" }?.text
            let place: String = regionName ?? flinnEngdahl ?? descriptions.first?.text ?? ""
            let updated = values["creationInfo/creationTime"].flatMap(IndependentParse.isoMillisecondsAssumingUTC)
                ?? origin["creationInfo/creationTime"].flatMap(IndependentParse.isoMillisecondsAssumingUTC) ?? time
            return CoreFields(code: code, magnitude: magnitude["mag/value"].flatMap(Double.init), place: place,
                              time: time, updated: updated, latitude: lat, longitude: lon,
                              depth: origin["depth/value"].flatMap(Double.init).map { $0 / 1000 })
        }
    }

    var events: [Event] = []
    private var current: Event?
    private var path: [String] = []  // local names below <event>
    private var text = ""
    private var currentDescription: (type: String, text: String)?
    private var child: (kind: String, id: String, values: [String: String])?

    private func local(_ name: String) -> String { name.split(separator: ":").last.map(String.init) ?? name }

    func parser(_ parser: XMLParser, didStartElement elementName: String, namespaceURI: String?,
                qualifiedName qName: String?, attributes: [String: String] = [:]) {
        let name = local(elementName)
        text = ""
        if current == nil {
            if name == "event" { current = Event(attributes: attributes); path = [] }
            return
        }
        path.append(name)
        if path.count == 1, name == "origin" || name == "magnitude" { child = (name, attributes["publicID"] ?? "", [:]) }
        if path.count == 1, name == "description" { currentDescription = ("", "") }
    }

    func parser(_ parser: XMLParser, foundCharacters string: String) { text += string }

    func parser(_ parser: XMLParser, foundCDATA CDATABlock: Data) { text += String(decoding: CDATABlock, as: UTF8.self) }

    func parser(_ parser: XMLParser, didEndElement elementName: String, namespaceURI: String?, qualifiedName qName: String?) {
        guard current != nil else { return }
        let value = text.trimmingCharacters(in: .whitespacesAndNewlines)
        text = ""
        if path.isEmpty {
            events.append(current!)
            current = nil
            return
        }
        if path.count >= 2, child != nil {
            child!.values[path.dropFirst().joined(separator: "/")] = child!.values[path.dropFirst().joined(separator: "/")] ?? value
        } else if path.count == 2, currentDescription != nil {
            if path[1] == "type" { currentDescription!.type = value } else if path[1] == "text" { currentDescription!.text = value }
        } else if path.count <= 2 {
            current!.values[path.joined(separator: "/")] = value
        }
        if path.count == 1, let c = child {
            if c.kind == "origin" { current!.origins.append((c.id, c.values)) } else { current!.magnitudes.append((c.id, c.values)) }
            child = nil
        }
        if path.count == 1, let d = currentDescription { current!.descriptions.append(d); currentDescription = nil }
        path.removeLast()
    }
}
#endif
