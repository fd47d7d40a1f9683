import Foundation
import Testing
import QuakeFeed
import QuakeModel
import QuakeStore
import QuakeTestSupport

/// Issue 30, one test per point, each on a small fixture written from the format's
/// specification: codes that keep events apart, the right agency, the right magnitude,
/// QuakeML 1.0 depths, BED-RT, seconds feeds without `updated`.
@Suite struct AttributionTests {
    private static func quakeML(_ events: String, namespace: String = "1.2", root: String = "") -> String {
        """
        <?xml version="1.0" encoding="UTF-8"?>
        <q:quakeml xmlns:q="http://quakeml.org/xmlns/quakeml/\(namespace)" xmlns="http://quakeml.org/xmlns/bed/\(namespace)"\(root)>
          <eventParameters publicID="smi:local/catalog">
        \(events)
          </eventParameters>
        </q:quakeml>

        """
    }

    /// One BED event: `origin` is (time, latitude, longitude, depth in the file's unit).
    private static func event(_ publicID: String, origin: (String, Double, Double, Double) = ("2013-03-01T03:29:00Z", 10, 20, 10_000),
                              magnitudes: [(Double, String)] = [(5.0, "Mw")], preferredMagnitude: Int? = nil,
                              agencyID: String? = nil, attributes: String = "") -> String {
        let base = publicID.replacingOccurrences(of: "/event", with: "")
        var text = "    <event publicID=\"\(publicID)\"\(attributes)>\n"
        text += "      <origin publicID=\"\(base)/origin#cmtorigin\"><time><value>\(origin.0)</value></time>"
            + "<latitude><value>\(origin.1)</value></latitude><longitude><value>\(origin.2)</value></longitude>"
            + "<depth><value>\(origin.3)</value></depth></origin>\n"
        for (i, m) in magnitudes.enumerated() {
            text += "      <magnitude publicID=\"\(base)/magnitude#\(i)\"><mag><value>\(m.0)</value></mag><type>\(m.1)</type></magnitude>\n"
        }
        if let preferredMagnitude { text += "      <preferredMagnitudeID>\(base)/magnitude#\(preferredMagnitude)</preferredMagnitudeID>\n" }
        if let agencyID { text += "      <creationInfo><agencyID>\(agencyID)</agencyID></creationInfo>\n" }
        return text + "    </event>"
    }

    // MARK: 1. Distinct events never collapse into one code

    @Test func obspyAndOtherPublicIDPatternsKeepEventsApart() throws {
        let ids = ["smi:local/ndk/C201303010329A/event", "smi:local/ndk/C201303010412B/event",
                   "smi:example.org/2016p858000/event/1", "smi:example.org/2016p858001/event/1",
                   "smi:example.org/events/ev42?format=xml", "smi:example.org/events/ev43?format=xml",
                   "smi:local/event/1", "smi:local/event/2"]
        let text = Self.quakeML(ids.enumerated().map { i, id in
            Self.event(id, origin: ("2013-03-01T03:\(10 + i):00Z", Double(i), Double(i), 10_000))
        }.joined(separator: "\n"))
        let records = try Feed.read(text, name: "obspy.xml")
        #expect(records.map(\.code) == ["local:C201303010329A", "local:C201303010412B", "example.org:2016p858000",
                                        "example.org:2016p858001", "example.org:ev42", "example.org:ev43", "local:1", "local:2"])
        let store = try TestStore()
        defer { store.remove() }
        let summary = try FeedImporter(container: store.container)
            .run(try FeedReader(source: .bytes(Array(text.utf8)), name: "obspy.xml"))
        #expect(summary.inserted == ids.count && summary.updated == 0)
    }

    @Test func twoEventsWithOneCodeAndDifferentOriginsRefuseTheFile() throws {
        let text = Self.quakeML([
            Self.event("smi:example.org/fdsnws/event/1/query?format=xml", origin: ("2020-01-01T00:00:00Z", 1, 2, 5000)),
            Self.event("smi:example.org/fdsnws/event/1/query?format=xml", origin: ("2021-01-01T00:00:00Z", 3, 4, 5000)),
        ].joined(separator: "\n"))
        let error = Feed.error(text, name: "same.xml")
        #expect(error?.code == .ambiguousCode)
        #expect(error?.line == 8)
        #expect(error?.description == "same.xml:8:1: the events at lines 4 and 8 both get the code "
                    + "example.org:smi:example.org/fdsnws/event/1/query?format=xml but have different origins "
                    + "(publicID smi:example.org/fdsnws/event/1/query?format=xml), so importing would merge two earthquakes into one; "
                    + "nothing was imported; the file's event IDs do not tell its events apart — import the events separately or fix their publicIDs.",
                "\(error?.description ?? "")")
        let store = try TestStore()
        defer { store.remove() }
        #expect(throws: FeedError.self) {
            _ = try FeedImporter(container: store.container).run(try FeedReader(source: .bytes(Array(text.utf8)), name: "same.xml"))
        }
        #expect(try store.read { try $0.quakeCount() } == 0)
    }

    @Test func theSameEventListedTwiceIsNotAConflict() throws {
        let one = Self.event("smi:example.org/events/ev1")
        let records = try Feed.read(Self.quakeML(one + "\n" + one), name: "twice.xml")
        #expect(records.map(\.code) == ["example.org:ev1", "example.org:ev1"])
    }

    // MARK: 2. The right agency

    /// FDSN text of a SeisComP service (GEOFON): Author empty, Contributor names the agency,
    /// ids that start with the contributor's letters (not a ComCat id).
    static let geofonText = """
        #EventID|Time|Latitude|Longitude|Depth/km|Author|Catalog|Contributor|ContributorID|MagType|Magnitude|MagAuthor|EventLocationName|EventType
        gfz2024abcd|2024-01-01T10:00:00.00|37.5|137.2|10.0|||GFZ|gfz2024abcd|M|5.1||Near West Coast of Honshu, Japan|earthquake
        gfz2024abce|2024-01-01T11:00:00.00|37.6|137.3|12.0|||GFZ|gfz2024abce|M|4.6||Near West Coast of Honshu, Japan|earthquake

        """

    static let geofonQuakeML = quakeML("""
        \(event("smi:org.gfz-potsdam.de/geofon/gfz2024abcd", origin: ("2024-01-01T10:00:00Z", 37.5, 137.2, 10_000), magnitudes: [(5.1, "M")]))
        \(event("smi:org.gfz-potsdam.de/geofon/gfz2024abce", origin: ("2024-01-01T11:00:00Z", 37.6, 137.3, 12_000), magnitudes: [(4.6, "M")]))
        """)

    static let ingvText = """
        #EventID|Time|Latitude|Longitude|Depth/Km|Author|Catalog|Contributor|ContributorID|MagType|Magnitude|MagAuthor|EventLocationName|EventType
        37893831|2024-03-01T10:12:13.450000|42.8|13.1|9.5|SURVEY-INGV||||ML|2.1|--|Central Italy|earthquake

        """

    static let ingvQuakeML = quakeML(event("smi:webservices.ingv.it/fdsnws/event/1/query?eventId=37893831",
                                           origin: ("2024-03-01T10:12:13.450000", 42.8, 13.1, 9500), magnitudes: [(2.1, "ML")]))

    @Test func seisCompTextIsAttributedToItsContributorNotUSGS() throws {
        let records = try Feed.read(Self.geofonText, name: "gfz.txt")
        #expect(records.map(\.code) == ["geofon:gfz2024abcd", "geofon:gfz2024abce"])
        #expect(records.allSatisfy { $0.source == "geofon" })
    }

    @Test(arguments: [(geofonText, geofonQuakeML, ["geofon:gfz2024abcd", "geofon:gfz2024abce"]),
                      (ingvText, ingvQuakeML, ["ingv:37893831"])])
    func oneAgencysEventsInTwoFormatsAreOneQuakeEach(_ text: String, _ xml: String, _ codes: [String]) throws {
        #expect(try Feed.read(xml, name: "q.xml").map(\.code) == codes)
        let store = try TestStore()
        defer { store.remove() }
        for document in [xml, text] {
            _ = try FeedImporter(container: store.container).run(try FeedReader(source: .bytes(Array(document.utf8)), name: "f"))
        }
        #expect(try store.read { try $0.quakeCount() } == codes.count)
        for code in codes { #expect(try store.read { try $0.quake(code: code) } != nil) }
    }

    @Test func theCallersAgencyNamesEveryFormat() throws {
        // IRIS text names the origin's author (ISC), not IRIS: `fetch --service iris` and
        // `import --agency iris` say whose ids these are, so text and QuakeML agree.
        let text = """
            #EventID|Time|Latitude|Longitude|Depth/km|Author|Catalog|Contributor|ContributorID|MagType|Magnitude|MagAuthor|EventLocationName
            3337497|2011-03-11T05:46:23|38.2963|142.498|19.7|ISC|ISC|ISC|16461282|MW|9.1|GCMT|NEAR EAST COAST OF HONSHU, JAPAN

            """
        let xml = Self.quakeML(Self.event("smi:service.iris.edu/fdsnws/event/1/query?eventid=3337497",
                                          origin: ("2011-03-11T05:46:23", 38.2963, 142.498, 19_700)))
        #expect(try Feed.read(xml).map(\.code) == ["iris:3337497"])
        #expect(try Feed.read(text).map(\.code) == ["isc:3337497"])
        for document in [text, xml] {
            let records = try FeedReader(source: .bytes(Array(document.utf8)), name: "f", agency: "iris").readAll()
            #expect(records.map(\.code) == ["iris:3337497"] && records.allSatisfy { $0.source == "iris" })
        }
        let csv = "time,latitude,longitude,depth,mag,magType,id\n2011-03-11T05:46:23Z,38.3,142.5,19.7,9.1,mww,3337497\n"
        let records = try FeedReader(source: .bytes(Array(csv.utf8)), name: "c.csv", agency: "iris").readAll()
        #expect(records.map(\.code) == ["iris:3337497"] && records.first?.source == "iris")
    }

    @Test func recordsWithoutAnAgencyGetTheNeutralPrefixNeverUSGS() throws {
        let text = """
            #EventID|Time|Latitude|Longitude|Depth/km|Author|Catalog|Contributor|ContributorID|MagType|Magnitude|MagAuthor|EventLocationName
            12345|2024-01-01T00:00:00|1|2|3|||||ML|2.0||Somewhere

            """
        let reader = try FeedReader(source: .bytes(Array(text.utf8)), name: "t")
        let records = try reader.readAll()
        #expect(records.map(\.code) == ["local:12345"] && records.first?.source == "local")
        #expect(reader.notes == ["the file names no agency (Author, Contributor and Catalog are empty): codes are local:<EventID>; import --agency NAME names it"])
        // ObsPy's `smi:local` has no authority; the event's agencyID names the agency.
        let xml = Self.quakeML(Self.event("smi:local/ndk/C201303010329A/event", agencyID: "GFZ") + "\n"
                               + Self.event("smi:local/ndk/C201303010412B/event", origin: ("2013-03-01T04:12:00Z", 1, 1, 1000)))
        let xmlReader = try FeedReader(source: .bytes(Array(xml.utf8)), name: "x")
        let quakes = try xmlReader.readAll()
        #expect(xmlReader.notes == ["1 event names no agency (no publicID host, agencyID or datasource): codes are local:<id>; import --agency NAME names it"])
        #expect(quakes.map(\.code) == ["geofon:C201303010329A", "local:C201303010412B"])
        #expect(quakes.map(\.source) == ["geofon", "local"])
    }

    @Test func comCatCodesStayAsTheyWere() throws {
        let text = "#EventID|Time|Latitude|Longitude|Depth/km|Author|Catalog|Contributor|ContributorID|MagType|Magnitude|MagAuthor|EventLocationName\n"
            + "ak0241abcd|2024-01-01T00:00:00|61|-150|30|ak|ak|ak|ak0241abcd|ml|1.2|ak|Alaska\n"
        #expect(try Feed.read(text).map(\.code) == ["ak0241abcd"])
        let xml = Self.quakeML(Self.event("quakeml:earthquake.usgs.gov/fdsnws/event/1/query?eventid=usb000ief4&amp;format=quakeml",
                                          attributes: #" xmlns:catalog="http://anss.org/xmlns/catalog/0.1" catalog:datasource="us" catalog:eventsource="us" catalog:eventid="b000ief4""#))
        let quake = try #require(try Feed.read(xml).first)
        #expect(quake.code == "usb000ief4" && quake.source == "usgs")
    }

    /// Attributes are matched by local name: the ANSS catalog's under any prefix, never without
    /// one; `publicID` only without a prefix (a `q:publicID` is another attribute).
    @Test func catalogAttributesTakeAnyPrefixAndPublicIDNone() throws {
        let anyPrefix = Self.quakeML(Self.event("quakeml:earthquake.usgs.gov/fdsnws/event/1/query?eventid=nc73001&amp;format=quakeml",
                                                attributes: #" xmlns:anss="http://anss.org/xmlns/catalog/0.1" anss:eventsource="nc" anss:eventid="73001""#))
        #expect(try Feed.read(anyPrefix).map(\.code) == ["nc73001"])
        let unprefixed = Self.quakeML(Self.event("smi:local/ndk/C201303010329A/event", attributes: #" eventsource="nc" eventid="73001""#))
        #expect(try Feed.read(unprefixed).map(\.code) == ["local:C201303010329A"])
        let prefixedPublicID = Self.quakeML(Self.event("smi:local/ndk/C201303010329A/event", attributes: #" q:publicID="smi:local/ndk/X1/event""#))
        #expect(try Feed.read(prefixedPublicID).map(\.code) == ["local:C201303010329A"])
    }

    // MARK: 3. The magnitude a seismologist would choose

    @Test func withoutAPreferredMagnitudeTheMomentMagnitudeWins() throws {
        // ISC lists mb before MS before Mw; Tohoku is a 9.1, not a 7.1.
        let xml = Self.quakeML([
            Self.event("smi:ISC/evid=16461282", magnitudes: [(7.1, "mb"), (8.0, "MS"), (9.1, "Mw")]),
            Self.event("smi:ISC/evid=16461283", origin: ("2013-03-01T04:00:00Z", 1, 1, 1000),
                       magnitudes: [(6.1, "Mw"), (5.9, "Mww"), (6.4, "mb")]),
            Self.event("smi:ISC/evid=16461284", origin: ("2013-03-01T05:00:00Z", 1, 1, 1000),
                       magnitudes: [(4.1, "mb"), (4.6, "mb"), (3.9, "ML")]),
            Self.event("smi:ISC/evid=16461285", origin: ("2013-03-01T06:00:00Z", 1, 1, 1000),
                       magnitudes: [(7.1, "mb"), (9.1, "Mw")], preferredMagnitude: 0),
        ].joined(separator: "\n"))
        let records = try Feed.read(xml)
        #expect(records.map(\.code) == ["isc:16461282", "isc:16461283", "isc:16461284", "isc:16461285"])
        #expect(records.map(\.magnitude) == [9.1, 5.9, 4.6, 7.1])
        #expect(records.map(\.magType) == ["Mw", "Mww", "mb", "mb"])
    }

    @Test func theRankFollowsTheDocumentedOrder() {
        let order = ["Mww", "Mwc", "Mwb", "Mwr", "Mw", "Mwp", "Ms_BB", "mB", "mb", "ML", "Md", "M", nil]
        let ranks = order.map(MagnitudePreference.rank)
        #expect(ranks == ranks.sorted())
        #expect(Set(ranks).count == order.count)
    }

    // MARK: 4. QuakeML 1.0 depths are kilometres

    @Test func quakeML10DepthsAreKilometres() throws {
        let xml = Self.quakeML(Self.event("smi:example.org/events/ev1", origin: ("2006-01-01T00:00:00Z", 10, 20, 33.5)),
                               namespace: "1.0")
        let reader = try FeedReader(source: .bytes(Array(xml.utf8)), name: "q10.xml")
        let records = try reader.readAll()
        #expect(records.first?.depth == 33.5)
        #expect(reader.notes == ["QuakeML 1.0: depths are in kilometres in that version and were read as such"])
        let twelve = try FeedReader(source: .bytes(Array(Self.quakeML(Self.event("smi:example.org/events/ev1",
            origin: ("2006-01-01T00:00:00Z", 10, 20, 33_500))).utf8)), name: "q12.xml")
        #expect(try twelve.readAll().first?.depth == 33.5)
        #expect(twelve.notes.isEmpty)
    }

    // MARK: 5. BED-RT

    /// QuakeML 1.2 BED-RT: origins and magnitudes are children of eventParameters, beside the
    /// events, which reference them by ID (one origin before its event, one after).
    static let bedRT = """
        <?xml version="1.0" encoding="UTF-8"?>
        <q:quakeml xmlns:q="http://quakeml.org/xmlns/quakeml-rt/1.2" xmlns="http://quakeml.org/xmlns/bed-rt/1.2">
          <eventParameters publicID="smi:org.gfz-potsdam.de/geofon/EventParameters">
            <origin publicID="smi:org.gfz-potsdam.de/geofon/Origin/A">
              <time><value>2024-01-01T07:10:09.5Z</value></time><latitude><value>37.1</value></latitude>
              <longitude><value>136.9</value></longitude><depth><value>10000</value></depth>
              <creationInfo><agencyID>GFZ</agencyID></creationInfo>
            </origin>
            <magnitude publicID="smi:org.gfz-potsdam.de/geofon/Magnitude/A1"><mag><value>7.4</value></mag><type>Mw</type>
              <originID>smi:org.gfz-potsdam.de/geofon/Origin/A</originID></magnitude>
            <magnitude publicID="smi:org.gfz-potsdam.de/geofon/Magnitude/A2"><mag><value>6.9</value></mag><type>mb</type></magnitude>
            <event publicID="smi:org.gfz-potsdam.de/geofon/gfz2024aaaa">
              <preferredOriginID>smi:org.gfz-potsdam.de/geofon/Origin/A</preferredOriginID>
              <preferredMagnitudeID>smi:org.gfz-potsdam.de/geofon/Magnitude/A1</preferredMagnitudeID>
              <type>earthquake</type>
              <description><type>region name</type><text>Near West Coast of Honshu, Japan</text></description>
              <originReference>smi:org.gfz-potsdam.de/geofon/Origin/A</originReference>
              <magnitudeReference>smi:org.gfz-potsdam.de/geofon/Magnitude/A1</magnitudeReference>
              <magnitudeReference>smi:org.gfz-potsdam.de/geofon/Magnitude/A2</magnitudeReference>
            </event>
            <event publicID="smi:org.gfz-potsdam.de/geofon/gfz2024bbbb">
              <originReference>smi:org.gfz-potsdam.de/geofon/Origin/B</originReference>
              <magnitudeReference>smi:org.gfz-potsdam.de/geofon/Magnitude/B1</magnitudeReference>
              <magnitudeReference>smi:org.gfz-potsdam.de/geofon/Magnitude/B2</magnitudeReference>
            </event>
            <origin publicID="smi:org.gfz-potsdam.de/geofon/Origin/B">
              <time><value>2024-01-02T00:00:00Z</value></time><latitude><value>-5.5</value></latitude>
              <longitude><value>150.25</value></longitude><depth><value>55000</value></depth>
            </origin>
            <magnitude publicID="smi:org.gfz-potsdam.de/geofon/Magnitude/B1"><mag><value>5.2</value></mag><type>mb</type></magnitude>
            <magnitude publicID="smi:org.gfz-potsdam.de/geofon/Magnitude/B2"><mag><value>5.0</value></mag><type>Mwr</type></magnitude>
          </eventParameters>
        </q:quakeml>

        """

    @Test func bedRTOriginsAndMagnitudesBesideTheEventsAreRead() throws {
        for chunkSize in [7, 64, FeedReader.defaultChunkSize] {
            let reader = try FeedReader(source: .bytes(Array(Self.bedRT.utf8)), name: "rt.xml", chunkSize: chunkSize)
            let records = try reader.readAll().sorted { $0.time < $1.time }
            #expect(reader.skippedCount == 0, "\(reader.skipped)")
            #expect(records.map(\.code) == ["geofon:gfz2024aaaa", "geofon:gfz2024bbbb"])
            #expect(records.map(\.time) == [1_704_093_009_500, 1_704_153_600_000])
            #expect(records.map(\.latitude) == [37.1, -5.5] && records.map(\.longitude) == [136.9, 150.25])
            #expect(records.map(\.depth) == [10, 55])
            #expect(records.map(\.magnitude) == [7.4, 5.0] && records.map(\.magType) == ["Mw", "Mwr"])
            #expect(records.first?.place == "Near West Coast of Honshu, Japan")
        }
    }

    // MARK: 6. Seconds feeds without `updated`

    @Test func aSecondsFeedWithoutUpdatedIsDecidedFromEveryTime() throws {
        // No metadata; 20 features, times in seconds without `updated`, the first ones from
        // early 1970 (below 10^7 s) as a historical catalogue starts.
        let times: [Int64] = (0..<20).map { (i: Int) -> Int64 in i < 17 ? 86_400 * Int64(i + 1) : 1_300_000_000 + Int64(i) }
        let features = times.enumerated().map { i, t in
            Feed.feature(id: "\"h\(i)\"", properties: #""mag":5.0,"place":"p","time":\#(t)"#)
        }
        let reader = try FeedReader(source: .bytes(Array(Feed.collection(features).utf8)), name: "s")
        let records = try reader.readAll()
        #expect(records.map(\.time) == times.map { $0 * 1000 })
        #expect(reader.notes.count == 1 && reader.notes.first?.hasPrefix("times are in seconds") == true, "\(reader.notes)")
    }

    @Test func generatedAfterTheFeaturesStillDecides() throws {
        let features = (0..<3).map { i in Feed.feature(id: "\"g\(i)\"", properties: #""mag":5.0,"place":"p","time":\#(1_000 + i)"#) }
        let text = #"{"type":"FeatureCollection","features":["# + features.joined(separator: ",")
            + #"],"metadata":{"generated":1700000000}}"#
        let reader = try FeedReader(source: .bytes(Array(text.utf8)), name: "s")
        #expect(try reader.readAll().map(\.time) == [1_000_000, 1_001_000, 1_002_000])
        #expect(reader.notes == ["times are in seconds (decided from metadata.generated); converted to milliseconds"])
    }
}
