import Foundation
import QuakeTestSupport

/// Seeded random catalogues and small writers for every format the importer reads, written
/// from the formats' specifications (USGS GeoJSON and CSV, FDSN text, QuakeML 1.2 BED and
/// BED-RT, EMSC JSON), sharing no code with QuakeFeed. Each event carries the truth the
/// store must hold after an import: code, source, time, position, depth, magnitude and type.
struct TruthEvent {
    var code: String
    var source: String
    var time: Int64
    var latitude: Double
    var longitude: Double
    /// Kilometres.
    var depth: Double
    /// Several for QuakeML; the first `preferred` (if any) is flagged.
    var magnitudes: [(value: Double, type: String)]
    var preferred: Int?
    /// QuakeML: the event's publicID and extra attributes/agencyID that make `code` and `source`.
    var publicID = ""
    var attributes = ""
    var agencyID: String?
    var originAgencyID: String?
    /// FDSN text / GeoJSON / CSV: the id column, and the text file's Author, Catalog, Contributor.
    var id = ""

    /// The magnitude the store must show: the flagged one, else the moment magnitude family
    /// (Mww, Mwc, Mwb, Mwr, Mw), then Ms, mB, mb, ML, Md, then the largest of the kind.
    var expectedMagnitude: (value: Double, type: String) {
        if let preferred { return magnitudes[preferred] }
        let order = ["Mww", "Mwc", "Mwb", "Mwr", "Mw", "Ms", "mB", "mb", "ML", "Md"]
        for type in order {
            let same = magnitudes.filter { $0.type == type }
            if let best = same.max(by: { $0.value < $1.value }) {
                return same.first { $0.value == best.value }!
            }
        }
        return magnitudes.max { $0.value < $1.value }!
    }
}

enum CatalogueWriters {
    static let magnitudeTypes = ["Mww", "Mwc", "Mwb", "Mwr", "Mw", "Ms", "mB", "mb", "ML", "Md"]

    /// Events with random times (whole milliseconds, 1990–2025), positions, depths (0.1 km) and
    /// 1–4 magnitudes, their identity left to the caller.
    static func events(count: Int, rng: inout SeededGenerator) -> [TruthEvent] {
        (0..<count).map { _ in
            let magnitudes = (0..<Int.random(in: 1...4, using: &rng)).map { _ in
                (value: Double(Int.random(in: 10...95, using: &rng)) / 10, type: magnitudeTypes.randomElement(using: &rng)!)
            }
            return TruthEvent(
                code: "", source: "",
                time: Int64.random(in: 631_152_000_000...1_735_689_600_000, using: &rng),
                latitude: Double(Int.random(in: -900_000...900_000, using: &rng)) / 10_000,
                longitude: Double(Int.random(in: -1_800_000...1_800_000, using: &rng)) / 10_000,
                depth: Double(Int.random(in: 0...7000, using: &rng)) / 10,
                magnitudes: magnitudes, preferred: Bool.random(using: &rng) ? Int.random(in: 0..<magnitudes.count, using: &rng) : nil)
        }
    }

    // MARK: - QuakeML identities: every publicID pattern of issue 30

    /// Gives event `index` a random QuakeML identity and the code and agency it must get.
    static func quakeMLIdentity(_ e: inout TruthEvent, index: Int, rng: inout SeededGenerator) {
        let n = 100_000 + index
        let hosts = [("service.iris.edu", "iris"), ("webservices.ingv.it", "ingv"), ("www.seismicportal.eu", "emsc"),
                     ("quake.example.net", "quake.example.net")]
        let (host, hostAgency) = hosts.randomElement(using: &rng)!
        switch Int.random(in: 0..<7, using: &rng) {
        case 0:  // ComCat: catalog:eventsource + catalog:eventid
            let id = "b\(n)x"
            e.publicID = "quakeml:earthquake.usgs.gov/fdsnws/event/1/query?eventid=us\(id)&amp;format=quakeml"
            e.attributes = #" catalog:datasource="us" catalog:eventsource="us" catalog:eventid="\#(id)""#
            (e.code, e.source) = ("us\(id)", "usgs")
        case 1:  // an FDSN service: eventid= in any case
            let key = ["eventid", "eventId", "EVENTID"].randomElement(using: &rng)!
            e.publicID = "smi:\(host)/fdsnws/event/1/query?\(key)=\(n)"
            (e.code, e.source) = ("\(hostAgency):\(n)", hostAgency)
        case 2:  // ObsPy: smi:local/ndk/<id>/event, the agency from creationInfo/agencyID if any
            let id = "C\(n)\(Int.random(in: 1_000_000...9_999_999, using: &rng))A"
            e.publicID = "smi:local/ndk/\(id)/event"
            // The event's creationInfo/agencyID, else its origin's, else none.
            let agencies: [(String?, String?, String)] = [("GFZ", "NOA", "geofon"), ("NOA", nil, "noa"), (nil, "SURVEY-INGV", "ingv"),
                                                           (nil, nil, "local")]
            let (agencyID, originAgencyID, agency) = agencies.randomElement(using: &rng)!
            e.agencyID = agencyID
            e.originAgencyID = originAgencyID
            (e.code, e.source) = ("\(agency):\(id)", agency)
        case 3:  // <id>/event/1
            let id = "2016p\(n)"
            e.publicID = "smi:\(host)/\(id)/event/1"
            (e.code, e.source) = ("\(hostAgency):\(id)", hostAgency)
        case 4:  // …/events/<id>?format=xml
            let id = "ev\(n)"
            e.publicID = "smi:\(host)/events/\(id)?format=xml"
            (e.code, e.source) = ("\(hostAgency):\(id)", hostAgency)
        case 5:  // GEOFON
            let id = "gfz2024\(n)"
            e.publicID = "smi:org.gfz-potsdam.de/geofon/\(id)"
            (e.code, e.source) = ("geofon:\(id)", "geofon")
        default:  // ISC
            e.publicID = "smi:ISC/evid=\(n)"
            (e.code, e.source) = ("isc:\(n)", "isc")
        }
    }

    // MARK: - Writers

    static func iso(_ ms: Int64, zone: Bool = true) -> String {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        formatter.timeZone = TimeZone(identifier: "UTC")
        let text = formatter.string(from: Date(timeIntervalSince1970: Double(ms) / 1000))
        return zone ? text : String(text.dropLast())
    }

    private static func originXML(_ e: TruthEvent, id: String) -> String {
        "<origin publicID=\"\(id)\"><time><value>\(iso(e.time))</value></time>"
            + "<latitude><value>\(e.latitude)</value></latitude><longitude><value>\(e.longitude)</value></longitude>"
            + "<depth><value>\(Int((e.depth * 1000).rounded()))</value></depth>"
            + (e.originAgencyID.map { "<creationInfo><agencyID>\($0)</agencyID></creationInfo>" } ?? "") + "</origin>"
    }

    private static func magnitudeXML(_ m: (value: Double, type: String), id: String) -> String {
        "<magnitude publicID=\"\(id)\"><mag><value>\(m.value)</value></mag><type>\(m.type)</type></magnitude>"
    }

    private static func document(_ body: String, rt: Bool) -> String {
        let ns = rt ? "bed-rt" : "bed"
        return """
            <?xml version="1.0" encoding="UTF-8"?>
            <q:quakeml xmlns:q="http://quakeml.org/xmlns/quakeml/1.2" xmlns="http://quakeml.org/xmlns/\(ns)/1.2" xmlns:catalog="http://anss.org/xmlns/catalog/0.1">
            <eventParameters publicID="smi:local/writer">
            \(body)
            </eventParameters>
            </q:quakeml>

            """
    }

    /// QuakeML 1.2 BED: origins and magnitudes inside each event (magnitudes first half the time).
    static func quakeML(_ events: [TruthEvent], rng: inout SeededGenerator) -> String {
        document(events.enumerated().map { i, e in
            let origin = originXML(e, id: "smi:local/writer/origin/\(i)")
            let magnitudes = e.magnitudes.enumerated().map { j, m in magnitudeXML(m, id: "smi:local/writer/magnitude/\(i)/\(j)") }
                .joined(separator: "\n")
            var body = Bool.random(using: &rng) ? origin + "\n" + magnitudes : magnitudes + "\n" + origin
            if let p = e.preferred { body += "\n<preferredMagnitudeID>smi:local/writer/magnitude/\(i)/\(p)</preferredMagnitudeID>" }
            if let agencyID = e.agencyID { body += "\n<creationInfo><agencyID>\(agencyID)</agencyID></creationInfo>" }
            return "<event publicID=\"\(e.publicID)\"\(e.attributes)>\n\(body)\n</event>"
        }.joined(separator: "\n"), rt: false)
    }

    /// QuakeML 1.2 BED-RT: origins and magnitudes beside the events, before or after them,
    /// referenced by originReference/magnitudeReference (and preferred IDs half the time).
    static func quakeMLRT(_ events: [TruthEvent], rng: inout SeededGenerator) -> String {
        var before: [String] = [], after: [String] = []
        let eventsXML = events.enumerated().map { i, e in
            let originID = "smi:local/writer/Origin/\(i)"
            var loose = [originXML(e, id: originID)]
            var body = "<originReference>\(originID)</originReference>"
            if Bool.random(using: &rng) { body = "<preferredOriginID>\(originID)</preferredOriginID>\n" + body }
            for (j, m) in e.magnitudes.enumerated() {
                let id = "smi:local/writer/Magnitude/\(i)/\(j)"
                loose.append(magnitudeXML(m, id: id))
                body += "\n<magnitudeReference>\(id)</magnitudeReference>"
            }
            if let p = e.preferred { body += "\n<preferredMagnitudeID>smi:local/writer/Magnitude/\(i)/\(p)</preferredMagnitudeID>" }
            if let agencyID = e.agencyID { body += "\n<creationInfo><agencyID>\(agencyID)</agencyID></creationInfo>" }
            if Bool.random(using: &rng) { before += loose } else { after += loose }
            return "<event publicID=\"\(e.publicID)\"\(e.attributes)>\n\(body)\n</event>"
        }
        return document((before + eventsXML + after).joined(separator: "\n"), rt: true)
    }

    /// FDSN text (web service specification 1.2, `format=text`) with the chosen magnitude.
    /// `agency` is the file's Author, Catalog, Contributor triple.
    static func fdsnText(_ events: [TruthEvent], author: String, catalog: String, contributor: String) -> String {
        "#EventID|Time|Latitude|Longitude|Depth/km|Author|Catalog|Contributor|ContributorID|MagType|Magnitude|MagAuthor|EventLocationName|EventType\n"
            + events.map { e in
                let m = e.expectedMagnitude
                return "\(e.id)|\(iso(e.time, zone: false))|\(e.latitude)|\(e.longitude)|\(e.depth)|\(author)|\(catalog)|\(contributor)|"
                    + "\(e.id)|\(m.type)|\(m.value)|\(author)|Somewhere|earthquake\n"
            }.joined()
    }

    /// A USGS GeoJSON summary feed (milliseconds, metadata first half the time).
    static func geoJSON(_ events: [TruthEvent], metadataFirst: Bool) -> String {
        let features = events.map { e in
            let m = e.expectedMagnitude
            return #"{"type":"Feature","properties":{"mag":\#(m.value),"place":"Somewhere","time":\#(e.time),"#
                + #""updated":\#(e.time + 60_000),"magType":"\#(m.type)","net":"us","type":"earthquake"},"#
                + #""geometry":{"type":"Point","coordinates":[\#(e.longitude),\#(e.latitude),\#(e.depth)]},"id":"\#(e.id)"}"#
        }.joined(separator: ",\n")
        let metadata = #""metadata":{"generated":1735689600000,"count":\#(events.count)}"#
        return metadataFirst
            ? #"{"type":"FeatureCollection",\#(metadata),"features":[\#(features)]}"#
            : #"{"type":"FeatureCollection","features":[\#(features)],\#(metadata)}"#
    }

    /// A USGS CSV feed.
    static func csv(_ events: [TruthEvent]) -> String {
        "time,latitude,longitude,depth,mag,magType,id,updated,place,type\n" + events.map { e in
            let m = e.expectedMagnitude
            return "\(iso(e.time)),\(e.latitude),\(e.longitude),\(e.depth),\(m.value),\(m.type),\(e.id),\(iso(e.time + 1000)),\"Somewhere, Far\",earthquake\n"
        }.joined()
    }

    /// EMSC seismicportal `format=json`: ISO times, `unid`, `flynn_region`, positive `depth`.
    static func emscJSON(_ events: [TruthEvent]) -> String {
        let features = events.map { e in
            let m = e.expectedMagnitude
            return #"{"type":"Feature","id":"\#(e.id)","geometry":{"type":"Point","coordinates":[\#(e.longitude),\#(e.latitude),-\#(e.depth)]},"#
                + #""properties":{"source_id":"1","source_catalog":"EMSC-RTS","lastupdate":"\#(iso(e.time + 5000))","time":"\#(iso(e.time))","#
                + #""flynn_region":"SOMEWHERE","lat":\#(e.latitude),"lon":\#(e.longitude),"depth":\#(e.depth),"evtype":"ke","auth":"X","#
                + #""mag":\#(m.value),"magtype":"\#(m.type)","unid":"\#(e.id)"}}"#
        }.joined(separator: ",\n")
        return #"{"type":"FeatureCollection","metadata":{"count":\#(events.count)},"features":[\#(features)]}"#
    }
}
