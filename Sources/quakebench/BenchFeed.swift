import Foundation
import QuakeFeed
import QuakeModel
import QuakeStore

/// Generates benchmark feeds of N quakes by replicating the real USGS features in
/// `../shared/data/usgs` with new codes, shifted times and jittered magnitudes, so the
/// distributions (places, depths, field sizes) stay real.
struct BenchFeed {
    struct Template {
        let magnitude: Double?
        let place: String
        let depth: Double
        let latitude: Double
        let longitude: Double
        /// The other properties, serialized once: `"key":value,…` (no braces).
        let rest: String
        /// The feed fields the store keeps, as `quaketui import` reads them (for the CSV peer).
        let record: QuakeRecord
        /// Derived columns, computed once per template: region, regionKey, placeKey.
        let region: String, regionKey: String, placeKey: String
    }

    let templates: [Template]

    init(dataDirectory: URL) throws {
        var templates: [Template] = []
        let names = try FileManager.default.contentsOfDirectory(atPath: dataDirectory.path)
            .filter { $0.hasSuffix(".geojson") && !$0.contains("TRUNCATED") }.sorted()
        let changed: Set<String> = ["mag", "place", "time", "updated", "code", "ids", "url", "detail", "title"]
        for name in names {
            let data = try Data(contentsOf: dataDirectory.appendingPathComponent(name))
            guard let root = try JSONSerialization.jsonObject(with: data) as? [String: Any],
                  let features = root["features"] as? [[String: Any]] else { continue }
            for feature in features {
                guard let properties = feature["properties"] as? [String: Any],
                      let geometry = feature["geometry"] as? [String: Any],
                      let coordinates = geometry["coordinates"] as? [Double], coordinates.count >= 3,
                      let place = properties["place"] as? String else { continue }
                let rest = properties.filter { !changed.contains($0.key) && !($0.value is NSNull) }
                let restJSON = String(decoding: try JSONSerialization.data(withJSONObject: rest, options: [.sortedKeys, .withoutEscapingSlashes]), as: UTF8.self)
                let magnitude = properties["mag"] as? Double
                func int(_ key: String) -> Int? { (rest[key] as? NSNumber)?.intValue }
                let record = QuakeRecord(
                    code: "", magnitude: magnitude, magType: rest["magType"] as? String, place: place, time: 0, updated: 0,
                    latitude: coordinates[1], longitude: coordinates[0], depth: coordinates[2],
                    status: rest["status"] as? String, type: rest["type"] as? String, tsunami: int("tsunami"),
                    felt: int("felt"), alert: rest["alert"] as? String, sig: int("sig"), net: rest["net"] as? String)
                templates.append(Template(
                    magnitude: magnitude, place: place, depth: coordinates[2], latitude: coordinates[1], longitude: coordinates[0],
                    rest: String(restJSON.dropFirst().dropLast()), record: record,
                    region: record.region, regionKey: TextFolding.fold(record.region), placeKey: TextFolding.fold(place)))
            }
        }
        guard !templates.isEmpty else { throw BenchError("no GeoJSON features found in \(dataDirectory.path)") }
        self.templates = templates
    }

    /// Templates from the bundled sample catalogue (synthetic but in the USGS format), for
    /// machines without the USGS snapshots, such as CI outside this workspace.
    init(bundledSampleIn scratch: URL) throws {
        let container = try PersistentContainer(directory: scratch)
        defer { container.close() }
        try SampleCatalogue.importIntoNewStore(container)
        let records = try container.viewContext.read { db -> [QuakeRecord] in
            let statement = try db.prepare("SELECT code FROM quake ORDER BY id")
            var codes: [String] = []
            while try statement.step() { codes.append(statement.text(at: 0)) }
            return try codes.compactMap { try db.quake(code: $0)?.record }
        }
        templates = records.compactMap { r in
            guard let depth = r.depth else { return nil }
            var rest: [String] = []
            func add(_ key: String, _ value: String?) { if let value { rest.append("\"\(key)\":\(value)") } }
            func quoted(_ s: String?) -> String? {
                s.map { String(decoding: try! JSONSerialization.data(withJSONObject: $0, options: [.fragmentsAllowed]), as: UTF8.self) }
            }
            add("alert", quoted(r.alert)); add("felt", r.felt.map(String.init)); add("magType", quoted(r.magType))
            add("net", quoted(r.net)); add("sig", r.sig.map(String.init)); add("status", quoted(r.status))
            add("tsunami", r.tsunami.map(String.init)); add("type", quoted(r.type))
            var record = r
            record.url = nil
            record.title = nil
            return Template(magnitude: r.magnitude, place: r.place, depth: depth, latitude: r.latitude, longitude: r.longitude,
                            rest: rest.joined(separator: ","), record: record, region: r.region,
                            regionKey: TextFolding.fold(r.region), placeKey: TextFolding.fold(r.place))
        }
        guard !templates.isEmpty else { throw BenchError("the bundled sample catalogue is empty") }
    }

    /// A generated quake: its template, and what differs from it.
    typealias Quake = (template: Template, code: String, magnitude: Double?, time: Int64, place: String, placeKey: String)

    /// The i-th generated quake: template i mod T, code `bench%08d`, times 30 s apart backwards
    /// from 2026-01-01, magnitude jittered by ±0.3, and a place "N km … of …" at another distance
    /// in each copy of its template (up to 300), so that distinct places grow with the catalogue
    /// as in a real one (121,527 real USGS quakes hold 59,998 distinct places; 200,000 generated
    /// ones 37,691, 1,000,000 129,200, 5,000,000 520,009).
    func quake(_ i: Int) -> Quake {
        let template = templates[i % templates.count]
        let jitter = Double((i &* 2_654_435_761) % 61 - 30) / 100
        let magnitude = template.magnitude.map { (($0 + jitter) * 100).rounded() / 100 }
        let shift = (i / templates.count) % 300
        return (template, String(format: "bench%08d", i), magnitude, 1_767_225_600_000 - Int64(i) * 30_000,
                Self.place(template.place, shiftedBy: shift), Self.place(template.placeKey, shiftedBy: shift))
    }

    /// `place` with its leading distance ("12 km NNE of …") moved by `shift` km within 1…300.
    static func place(_ place: String, shiftedBy shift: Int) -> String {
        guard shift > 0, let space = place.firstIndex(of: " "), let km = Int(place[..<space]),
              place[space...].hasPrefix(" km ") else { return place }
        return String(1 + (km - 1 + shift) % 300) + place[space...]
    }

    /// Writes a USGS-style GeoJSON FeatureCollection of `count` quakes.
    func writeGeoJSON(count: Int, to url: URL) throws {
        let out = try Writer(url)
        out.write(#"{"type":"FeatureCollection","metadata":{"generated":1767225600000,"url":"quakebench","title":"quakebench generated feed","status":200,"api":"1.14.1","count":\#(count)},"features":["#)
        for i in 0..<count {
            let q = quake(i)
            let mag = q.magnitude.map { String($0) } ?? "null"
            let place = jsonString(q.place)
            let title = jsonString(self.title(q))
            out.write(i == 0 ? "\n" : ",\n")
            out.write(#"{"type":"Feature","properties":{"mag":\#(mag),"place":\#(place),"time":\#(q.time),"updated":\#(q.time + 60_000),"url":"https://earthquake.usgs.gov/earthquakes/eventpage/\#(q.code)","detail":"https://earthquake.usgs.gov/earthquakes/feed/v1.0/detail/\#(q.code).geojson","code":"\#(q.code.dropFirst(5))","ids":",\#(q.code),","title":\#(title)\#(q.template.rest.isEmpty ? "" : ",")\#(q.template.rest)},"geometry":{"type":"Point","coordinates":[\#(q.template.longitude),\#(q.template.latitude),\#(q.template.depth)]},"id":"\#(q.code)"}"#)
        }
        out.write("\n]}\n")
        try out.close()
    }

    /// Writes the same quakes as a QuakeML 1.2 document in the shape of the USGS FDSN event
    /// service's `format=xml` (ANSS `catalog:` attributes giving the code, the place as an
    /// `earthquake name` description, the origin's depth in metres, one magnitude, preferred IDs,
    /// `creationInfo`): ~1.3 KB an event against ~0.7 KB of GeoJSON.
    func writeQuakeML(count: Int, to url: URL) throws {
        let out = try Writer(url)
        out.write("""
            <?xml version="1.0" encoding="UTF-8"?>
            <q:quakeml xmlns:q="http://quakeml.org/xmlns/quakeml/1.2" xmlns="http://quakeml.org/xmlns/bed/1.2" \
            xmlns:catalog="http://anss.org/xmlns/catalog/0.1" xmlns:anss="http://anss.org/xmlns/event/0.1"><eventParameters \
            publicID="quakeml:earthquake.usgs.gov/fdsnws/event/1/query">
            """)
        for i in 0..<count {
            let q = quake(i)
            let id = q.code.dropFirst(5)
            let product = "quakeml:earthquake.usgs.gov/product/origin/\(q.code)/bench/\(q.time + 60_000)/product.xml"
            let catalog = #"catalog:datasource="bench" catalog:dataid="\#(q.code)" catalog:eventsource="bench" catalog:eventid="\#(id)""#
            let creation = "<creationInfo><agencyID>BENCH</agencyID><creationTime>\(iso(q.time + 60_000))</creationTime></creationInfo>"
            let magnitude = q.magnitude.map {
                #"<magnitude \#(catalog) publicID="\#(product)#magnitude"><mag><value>\#($0)</value></mag>"#
                    + "<type>\(xml(q.template.record.magType ?? "ml"))</type>\(creation)</magnitude>"
            } ?? ""
            out.write(#"""
                <event \#(catalog) publicID="quakeml:earthquake.usgs.gov/fdsnws/event/1/query?eventid=\#(q.code)&amp;format=quakeml">\#
                <description><type>earthquake name</type><text>\#(xml(q.place))</text></description>\#
                <origin \#(catalog) publicID="\#(product)"><time><value>\#(iso(q.time))</value></time>\#
                <longitude><value>\#(q.template.longitude)</value></longitude><latitude><value>\#(q.template.latitude)</value></latitude>\#
                <depth><value>\#((q.template.depth * 1000).rounded())</value></depth>\#(creation)</origin>\#
                \#(magnitude)<preferredOriginID>\#(product)</preferredOriginID>\#
                \#(magnitude.isEmpty ? "" : "<preferredMagnitudeID>\(product)#magnitude</preferredMagnitudeID>")\#
                <type>\#(xml(q.template.record.type ?? "earthquake"))</type>\#(creation)</event>

                """#)
        }
        out.write("</eventParameters></q:quakeml>\n")
        try out.close()
    }

    /// Writes the same quakes as FDSN text (`format=text`, the columns of the USGS service).
    func writeFDSNText(count: Int, to url: URL) throws {
        let out = try Writer(url)
        out.write("#EventID|Time|Latitude|Longitude|Depth/km|Author|Catalog|Contributor|ContributorID|MagType|Magnitude|MagAuthor|EventLocationName\n")
        for i in 0..<count {
            let q = quake(i)
            let place = q.place.replacingOccurrences(of: "|", with: " ")
            out.write("\(q.code)|\(String(iso(q.time).dropLast()))|\(q.template.latitude)|\(q.template.longitude)|\(q.template.depth)|us|us|us|"
                      + "\(q.code)|\(q.template.record.magType ?? "")|\(q.magnitude.map { String($0) } ?? "")|us|\(place)\n")
        }
        try out.close()
    }

    /// `2026-01-01T00:00:00.000Z` for milliseconds since the epoch.
    private func iso(_ ms: Int64) -> String {
        var seconds = time_t(ms / 1000)
        var parts = tm()
        gmtime_r(&seconds, &parts)
        return String(format: "%04d-%02d-%02dT%02d:%02d:%02d.%03dZ", parts.tm_year + 1900, parts.tm_mon + 1, parts.tm_mday,
                      parts.tm_hour, parts.tm_min, parts.tm_sec, Int32(ms % 1000))
    }

    private func xml(_ s: String) -> String {
        guard s.contains(where: { $0 == "&" || $0 == "<" || $0 == ">" || $0 == "\"" }) else { return s }
        return s.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
            .replacingOccurrences(of: ">", with: "&gt;").replacingOccurrences(of: "\"", with: "&quot;")
    }

    /// The generated title of a quake (the GeoJSON and the CSV carry the same).
    func title(_ q: Quake) -> String {
        "M \(q.magnitude.map { String(format: "%.1f", $0) } ?? "?") - \(q.place)"
    }

    /// Writes the same quakes as CSV in the exact column order of our `quake` table, for the
    /// `sqlite3` shell's `.import` (the storage floor: no parsing work but CSV's). Every column
    /// the import stores is there, derived columns included (and `source`); only `notes` is empty. (`.import`
    /// stores an empty cell as '' where we store NULL: the same bytes to within a few per row.)
    func writeTableCSV(count: Int, to url: URL) throws {
        let out = try Writer(url)
        for i in 0..<count {
            let q = quake(i)
            let r = q.template.record
            let cells: [String] = [
                String(i + 1), q.code, q.magnitude.map { String($0) } ?? "", r.magType ?? "", q.place,
                String(q.time), String(q.time + 60_000), String(r.latitude), String(r.longitude),
                r.depth.map { String($0) } ?? "", q.template.region, q.template.regionKey, q.placeKey,
                r.status ?? "", r.type ?? "", r.tsunami.map(String.init) ?? "", r.felt.map(String.init) ?? "",
                r.alert ?? "", r.sig.map(String.init) ?? "", r.net ?? "",
                "https://earthquake.usgs.gov/earthquakes/eventpage/\(q.code)", title(q), "",
                "usgs",  // source (schema 2): what our import stores for a USGS feed
                "1",  // agencies (schema 14): one agency reported each event
            ]
            out.write(cells.map(csvField).joined(separator: ","))
            out.write("\n")
        }
        try out.close()
    }

    private func jsonString(_ s: String) -> String {
        String(decoding: try! JSONSerialization.data(withJSONObject: s, options: [.fragmentsAllowed, .withoutEscapingSlashes]), as: UTF8.self)
    }

    private func csvField(_ s: String) -> String {
        guard s.contains(where: { $0 == "," || $0 == "\"" || $0 == "\n" || $0 == "\r" }) else { return s }
        return "\"" + s.replacingOccurrences(of: "\"", with: "\"\"") + "\""
    }
}

/// A file written through a 1 MiB buffer.
final class Writer {
    private let handle: FileHandle
    private var buffer = Data()
    init(_ url: URL) throws {
        guard FileManager.default.createFile(atPath: url.path, contents: nil) else {
            throw BenchError("cannot create \(url.path)")
        }
        handle = try FileHandle(forWritingTo: url)
    }
    func write(_ text: String) {
        buffer.append(contentsOf: text.utf8)
        if buffer.count >= 1 << 20 { flush() }
    }
    private func flush() {
        handle.write(buffer)
        buffer.removeAll(keepingCapacity: true)
    }
    func close() throws {
        flush()
        try handle.close()
    }
}
