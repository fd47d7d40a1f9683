import Foundation
import QuakeTestSupport
import Testing

/// Issue 30 through the binary: `import --agency`, the agency a file names, and `open` of
/// every code `list --json` prints.
@Suite(.waitsOnProcesses) struct AgencyCodeTests {
    /// ObsPy-style QuakeML (no authority, one event with an agencyID), an IRIS event, and FDSN
    /// text whose ids are IRIS's while its Author is the ISC (imported with --agency iris).
    static let obspy = """
        <?xml version="1.0" encoding="UTF-8"?>
        <q:quakeml xmlns:q="http://quakeml.org/xmlns/quakeml/1.2" xmlns="http://quakeml.org/xmlns/bed/1.2">
          <eventParameters publicID="smi:local/catalog">
            <event publicID="smi:local/ndk/C201303010329A/event">
              <origin publicID="smi:local/ndk/C201303010329A/origin#cmtorigin"><time><value>2013-03-01T03:29:00Z</value></time>
                <latitude><value>10</value></latitude><longitude><value>20</value></longitude><depth><value>10000</value></depth></origin>
              <magnitude publicID="smi:local/ndk/C201303010329A/magnitude#mb"><mag><value>5.9</value></mag><type>mb</type></magnitude>
              <magnitude publicID="smi:local/ndk/C201303010329A/magnitude#mw"><mag><value>6.3</value></mag><type>Mwc</type></magnitude>
            </event>
            <event publicID="smi:local/ndk/C201303010412B/event">
              <origin publicID="smi:local/ndk/C201303010412B/origin#cmtorigin"><time><value>2013-03-01T04:12:00Z</value></time>
                <latitude><value>11</value></latitude><longitude><value>21</value></longitude><depth><value>20000</value></depth></origin>
              <creationInfo><agencyID>GFZ</agencyID></creationInfo>
            </event>
            <event publicID="smi:service.iris.edu/fdsnws/event/1/query?eventid=958596">
              <origin publicID="smi:service.iris.edu/fdsnws/event/1/query?originid=1"><time><value>2001-01-07T01:04:31.5</value></time>
                <latitude><value>35.1</value></latitude><longitude><value>135.2</value></longitude><depth><value>10000</value></depth></origin>
            </event>
          </eventParameters>
        </q:quakeml>

        """

    static let irisText = """
        #EventID|Time|Latitude|Longitude|Depth/km|Author|Catalog|Contributor|ContributorID|MagType|Magnitude|MagAuthor|EventLocationName
        3337497|2011-03-11T05:46:23|38.2963|142.498|19.7|ISC|ISC|ISC|16461282|MW|9.1|GCMT|NEAR EAST COAST OF HONSHU, JAPAN

        """

    @Test func everyCodeListPrintsOpens() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let xml = dir.appending("obspy.xml"), text = dir.appending("iris.txt")
        try Self.obspy.write(to: xml, atomically: true, encoding: .utf8)
        try Self.irisText.write(to: text, atomically: true, encoding: .utf8)
        let first = try QuaketuiBinary.run(["import", xml.path, "--json"], stateDirectory: dir.url)
        #expect(first.status == 0, "\(first.stderr)")
        #expect(try first.json()["inserted"] as? Int == 3)
        let second = try QuaketuiBinary.run(["import", text.path, "--agency", "IRIS"], stateDirectory: dir.url)
        #expect(second.status == 0, "\(second.stderr)")

        let list = try QuaketuiBinary.run(["list", "--json"], stateDirectory: dir.url)
        let quakes = (try list.json()["sections"] as? [[String: Any]] ?? []).flatMap { $0["quakes"] as? [[String: Any]] ?? [] }
        let codes = quakes.compactMap { $0["code"] as? String }
        #expect(Set(codes) == ["local:C201303010329A", "geofon:C201303010412B", "iris:958596", "iris:3337497"])
        #expect(Set(quakes.compactMap { $0["source"] as? String }) == ["local", "geofon", "iris"])
        #expect(quakes.first { $0["code"] as? String == "local:C201303010329A" }?["magnitude"] as? Double == 6.3)
        for code in codes {
            let open = try QuaketuiBinary.run(["open", code, "--json"], stateDirectory: dir.url,
                                              environment: ["QUAKETUI_SCENE": "", "TMUX": ""])
            #expect(open.status == 0, "\(code): \(open.stderr)")
            let json = try open.json()
            #expect(json["code"] as? String == code && json["inStore"] as? Bool == true, "\(json)")
        }
    }

    /// A CSV's own ids are stored bare (the format is USGS's) whatever they look like; they open.
    @Test func aStoredCodeNotShapedLikeUSGSOpens() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let csv = dir.appending("own.csv")
        try "time,latitude,longitude,depth,mag,id\n2024-01-01T00:00:00Z,1,2,3,4.5,12345\n".write(to: csv, atomically: true, encoding: .utf8)
        #expect(try QuaketuiBinary.run(["import", csv.path], stateDirectory: dir.url).status == 0)
        let environment = ["QUAKETUI_SCENE": "", "TMUX": ""]
        let open = try QuaketuiBinary.run(["open", "12345", "--json"], stateDirectory: dir.url, environment: environment)
        #expect(open.status == 0, "\(open.stderr)")
        #expect(try open.json()["inStore"] as? Bool == true)
        let missing = try QuaketuiBinary.run(["open", "12346"], stateDirectory: dir.url, environment: environment)
        #expect(missing.status == 64, "\(missing.stderr)")
        #expect(missing.errorLines.first == #"Error: "12346" is neither a quake code (like us7000abcd or iris:958596) nor a USGS "#
                + "event page URL (like https://earthquake.usgs.gov/earthquakes/eventpage/us7000abcd).", "\(missing.stderr)")
    }

    @Test func aBadAgencyIsAUsageErrorAndChangesNothing() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let text = dir.appending("iris.txt")
        try Self.irisText.write(to: text, atomically: true, encoding: .utf8)
        let result = try QuaketuiBinary.run(["import", text.path, "--agency", "no such/agency"], stateDirectory: dir.url)
        #expect(result.status == 64)
        #expect(result.errorLines.first?.hasPrefix("Error: --agency wants a short name") == true, "\(result.stderr)")
        #expect(!FileManager.default.fileExists(atPath: dir.appending("quakes.sqlite").path))
    }

    @Test func twoEventsThatWouldMergeRefuseTheImportByCodeAndLine() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let file = dir.appending("same.xml")
        let event = { (t: String) in
            "<event publicID=\"smi:example.org/fdsnws/event/1/query?format=xml\"><origin publicID=\"smi:o\"><time><value>\(t)</value></time>"
                + "<latitude><value>1</value></latitude><longitude><value>2</value></longitude></origin></event>"
        }
        try """
            <q:quakeml xmlns:q="http://quakeml.org/xmlns/quakeml/1.2"><eventParameters>
            \(event("2020-01-01T00:00:00Z"))
            \(event("2021-01-01T00:00:00Z"))
            </eventParameters></q:quakeml>
            """.write(to: file, atomically: true, encoding: .utf8)
        let result = try QuaketuiBinary.run(["import", file.path], stateDirectory: dir.url)
        #expect(result.status != 0)
        #expect(result.errorLines == ["Error: \(file.path):3:1: the events at lines 2 and 3 both get the code "
                                      + "example.org:smi:example.org/fdsnws/event/1/query?format=xml but have different origins "
                                      + "(publicID smi:example.org/fdsnws/event/1/query?format=xml), so importing would merge two "
                                      + "earthquakes into one; nothing was imported; the file's event IDs do not tell its events apart "
                                      + "— import the events separately or fix their publicIDs."], "\(result.stderr)")
        let list = try QuaketuiBinary.run(["list", "--json"], stateDirectory: dir.url)
        #expect(try list.json()["total"] as? Int ?? 0 == 0)
    }
}
