import Foundation

/// Fixtures in the formats observatories serve, written by hand from their specifications:
///
/// - SeisComP SC3ML as `fdsnws/event/1/query?format=sc3ml` answers, from the SeisComP schemas
///   (`libs/xml/0.N/` of SeisComP/common: `scs2xsd_0.N.xsl`, and the SC3ML → QuakeML stylesheets,
///   which list how the two differ: root `<seiscomp version="0.N">`, `EventParameters`, origins
///   beside the events with their magnitudes inside them, `magnitude/magnitude/value` for QuakeML's
///   `mag/value`, depths in kilometres, plain publicIDs);
/// - GeoNet's quake API (`api.geonet.org.nz/quake`, GeoJSON version 2: `publicID`, ISO `time`,
///   `depth` in km, `magnitude`, `locality`, `quality`);
/// - FDSN text (FDSN web service specification 1.2, `format=text`) of the same events.
enum ObservatoryFixtures {
    /// The namespace SeisComP writes for SC3ML version `minor` (0.`minor`): `seiscomp3-schema` at
    /// gfz-potsdam.de up to 0.13, `seiscomp-schema` at gfz.de from 0.14.
    static func sc3mlNamespace(_ minor: Int) -> String {
        minor >= 14 ? "http://geofon.gfz.de/ns/seiscomp-schema/0.\(minor)"
            : "http://geofon.gfz-potsdam.de/ns/seiscomp3-schema/0.\(minor)"
    }

    /// Two GEOFON events as SeisComP's fdsnws writes them in SC3ML 0.`minor`: picks and the
    /// origins (each with its magnitudes) first, then the events. The first flags its preferred
    /// origin and magnitude (`M`, beside an `mb`); the second flags no magnitude, so the moment
    /// magnitude family decides (`Mw(mB)` over `mb`); a third event names an origin that is
    /// not in the answer (skipped).
    static func sc3ml(minor: Int) -> String {
        """
        <?xml version="1.0" encoding="UTF-8"?>
        <seiscomp xmlns="\(sc3mlNamespace(minor))" version="0.\(minor)">
          <EventParameters>
            <pick publicID="Pick/20240101074212.3456.1">
              <time><value>2024-01-01T07:42:12.3456Z</value></time>
              <waveformID networkCode="GE" stationCode="MAJO" channelCode="BHZ"/>
              <evaluationMode>automatic</evaluationMode>
            </pick>
            <origin publicID="Origin/20240101074305.123456.7">
              <time><value>2024-01-01T07:42:09.812345Z</value><uncertainty>0.3</uncertainty></time>
              <latitude><value>37.2861</value><uncertainty>4.1</uncertainty></latitude>
              <longitude><value>136.7719</value><uncertainty>5.0</uncertainty></longitude>
              <depth><value>10</value></depth>
              <depthType>operator assigned</depthType>
              <methodID>LOCSAT</methodID>
              <earthModelID>iasp91</earthModelID>
              <quality><associatedPhaseCount>88</associatedPhaseCount><usedPhaseCount>61</usedPhaseCount></quality>
              <evaluationMode>manual</evaluationMode>
              <evaluationStatus>confirmed</evaluationStatus>
              <creationInfo><agencyID>GFZ</agencyID><author>scolv@geofon-proc</author><creationTime>2024-01-01T07:51:02.1Z</creationTime></creationInfo>
              <arrival><pickID>Pick/20240101074212.3456.1</pickID><phase>P</phase><distance>83.1</distance><weight>1</weight></arrival>
              <stationMagnitude publicID="Origin/20240101074305.123456.7/staMag/mb/GE.MAJO">
                <magnitude><value>5.9</value></magnitude><type>mb</type>
              </stationMagnitude>
              <magnitude publicID="Origin/20240101074305.123456.7/netMag/mb">
                <magnitude><value>5.64</value><uncertainty>0.3</uncertainty></magnitude>
                <type>mb</type>
                <methodID>trimmed mean</methodID>
                <stationCount>40</stationCount>
                <creationInfo><agencyID>GFZ</agencyID></creationInfo>
              </magnitude>
              <magnitude publicID="Origin/20240101074305.123456.7/netMag/M">
                <magnitude><value>7.49</value></magnitude>
                <type>M</type>
                <methodID>weighted average</methodID>
              </magnitude>
            </origin>
            <origin publicID="Origin/20240101101802.1.2">
              <time><value>2024-01-01T10:18:02.5Z</value></time>
              <latitude><value>37.5</value></latitude>
              <longitude><value>137.2</value></longitude>
              <depth><value>12.5</value></depth>
              <evaluationMode>automatic</evaluationMode>
              <creationInfo><agencyID>GFZ</agencyID><creationTime>2024-01-01T10:24:00Z</creationTime></creationInfo>
              <magnitude publicID="Origin/20240101101802.1.2/netMag/mb">
                <magnitude><value>5.1</value></magnitude><type>mb</type>
              </magnitude>
              <magnitude publicID="Origin/20240101101802.1.2/netMag/Mw(mB)">
                <magnitude><value>5.3</value></magnitude><type>Mw(mB)</type>
              </magnitude>
            </origin>
            <event publicID="gfz2024abcd">
              <preferredOriginID>Origin/20240101074305.123456.7</preferredOriginID>
              <preferredMagnitudeID>Origin/20240101074305.123456.7/netMag/M</preferredMagnitudeID>
              <type>earthquake</type>
              <typeCertainty>known</typeCertainty>
              <description><text>Near West Coast of Honshu, Japan</text><type>region name</type></description>
              <creationInfo><agencyID>GFZ</agencyID><creationTime>2024-01-01T07:43:05Z</creationTime><modificationTime>2024-01-02T09:00:00Z</modificationTime></creationInfo>
              <originReference>Origin/20240101074305.123456.7</originReference>
            </event>
            <event publicID="gfz2024abce">
              <preferredOriginID>Origin/20240101101802.1.2</preferredOriginID>
              <type>earthquake</type>
              <description><text>Eastern Sea of Japan</text><type>region name</type></description>
              <creationInfo><agencyID>GFZ</agencyID></creationInfo>
              <originReference>Origin/20240101101802.1.2</originReference>
            </event>
            <event publicID="gfz2024abcf">
              <preferredOriginID>Origin/not-in-this-answer</preferredOriginID>
              <creationInfo><agencyID>GFZ</agencyID></creationInfo>
            </event>
          </EventParameters>
        </seiscomp>

        """
    }

    /// The same two GEOFON events as the service's FDSN text.
    static let geofonText = """
        #EventID|Time|Latitude|Longitude|Depth/km|Author|Catalog|Contributor|ContributorID|MagType|Magnitude|MagAuthor|EventLocationName|EventType
        gfz2024abcd|2024-01-01T07:42:09.812|37.2861|136.7719|10.0|GFZ||GFZ|gfz2024abcd|M|7.49|GFZ|Near West Coast of Honshu, Japan|earthquake
        gfz2024abce|2024-01-01T10:18:02.50|37.5|137.2|12.5|GFZ||GFZ|gfz2024abce|Mw(mB)|5.3|GFZ|Eastern Sea of Japan|earthquake

        """

    /// Two GeoNet quakes from its quake API (GeoJSON version 2): `publicID`, no `id`.
    static let geoNetGeoJSON = """
        {"type":"FeatureCollection","features":[
         {"type":"Feature","geometry":{"type":"Point","coordinates":[173.0197,-42.6925]},
          "properties":{"publicID":"2016p858000","time":"2016-11-13T11:02:56.346Z","depth":15.11,"magnitude":7.82,
                        "mmi":8,"locality":"20 km south-east of Hanmer Springs","quality":"best"}},
         {"type":"Feature","geometry":{"type":"Point","coordinates":[174.7762,-41.2865]},
          "properties":{"publicID":"2024p123456","time":"2024-02-15T03:04:05.678Z","depth":23.4,"magnitude":3.1,
                        "mmi":3,"locality":"Within 5 km of Wellington","quality":"preliminary"}}
        ]}

        """

    /// The same GeoNet quakes from its FDSN service (SeisComP: Author `WEL(GNS_Primary)`).
    static let geoNetText = """
        #EventID|Time|Latitude|Longitude|Depth/km|Author|Catalog|Contributor|ContributorID|MagType|Magnitude|MagAuthor|EventLocationName|EventType
        2016p858000|2016-11-13T11:02:56.346|-42.6925|173.0197|15.11|WEL(GNS_Primary)|GeoNet||2016p858000|Mw|7.82|WEL(GNS_Primary)|20 km south-east of Hanmer Springs|earthquake
        2024p123456|2024-02-15T03:04:05.678|-41.2865|174.7762|23.4|WEL(GNS_Primary)|GeoNet||2024p123456|MLv|3.1|WEL(GNS_Primary)|Within 5 km of Wellington|earthquake

        """

    /// Two events of one FDSN service in its USGS-shaped GeoJSON, whose ids do not start with
    /// their `net` (`fx0006679`, net `us`): not ComCat's shape, so the agency is the net's.
    static let serviceGeoJSON = """
        {"type":"FeatureCollection","metadata":{"generated":1704110000000,"count":2},"features":[
         {"type":"Feature","properties":{"mag":4.7,"place":"Sea of Japan","time":1704103000000,"updated":1704103000000,
          "net":"us","magType":"mb","type":"earthquake"},"geometry":{"type":"Point","coordinates":[135.1,38.2,35]},"id":"fx0006679"},
         {"type":"Feature","properties":{"mag":5.1,"place":"73 km WSW of Sado, Japan","time":1704102326217,"updated":1704102326217,
          "net":"us","magType":"mb","type":"earthquake"},"geometry":{"type":"Point","coordinates":[137.5664,37.8107,10]},"id":"fx0006680"}
        ]}

        """

    /// The same two events as that service's FDSN text.
    static let serviceText = """
        #EventID|Time|Latitude|Longitude|Depth/km|Author|Catalog|Contributor|ContributorID|MagType|Magnitude|MagAuthor|EventLocationName|EventType
        fx0006679|2024-01-01T09:56:40.000|38.2|135.1|35|us|us|us|fx0006679|mb|4.7|us|Sea of Japan|earthquake
        fx0006680|2024-01-01T09:45:26.217|37.8107|137.5664|10|us|us|us|fx0006680|mb|5.1|us|73 km WSW of Sado, Japan|earthquake

        """

    /// The five USGS events of the real FDSN text file (`fdsn_text-usgs-honshu-2024-01-01.txt` in
    /// ../shared/data/other), written as that service's GeoJSON.
    static let honshuGeoJSON: String = {
        let rows: [(String, Int64, Double, Double, Double, String)] = [
            ("us6000m0yg", 1_704_102_326_217, 37.8107, 137.5664, 5.1, "73 km WSW of Sado, Japan"),
            ("us6000m0yf", 1_704_101_999_811, 37.1479, 136.6562, 5, "23 km WSW of Anamizu, Japan"),
            ("us6000m0ye", 1_704_101_421_401, 37.4998, 137.3585, 5.2, "50 km NE of Anamizu, Japan"),
            ("us6000m0ya", 1_704_100_097_603, 37.5146, 137.4029, 5.6, "54 km NE of Anamizu, Japan"),
            ("us6000m0y9", 1_704_099_828_859, 37.5339, 137.4185, 5.5, "56 km NE of Anamizu, Japan"),
        ]
        let features = rows.map { id, time, latitude, longitude, magnitude, place in
            #"{"type":"Feature","properties":{"mag":\#(magnitude),"place":"\#(place)","time":\#(time),"updated":\#(time),"#
                + #""net":"us","code":"\#(id.dropFirst(2))","magType":"mb","type":"earthquake"},"#
                + #""geometry":{"type":"Point","coordinates":[\#(longitude),\#(latitude),10]},"id":"\#(id)"}"#
        }
        return #"{"type":"FeatureCollection","metadata":{"generated":1704110000000},"features":["# + features.joined(separator: ",") + "]}"
    }()

    /// A GeoJSON feed whose `metadata.generated` is `generated` while its features' `time` and
    /// `updated` are `times` (as written: seconds or milliseconds).
    static func feed(generated: Double, times: [Double]) -> String {
        let features = times.enumerated().map { index, time in
            #"{"type":"Feature","properties":{"mag":4.2,"place":"Somewhere","time":\#(time),"updated":\#(time)},"#
                + #""geometry":{"type":"Point","coordinates":[10,20,5]},"id":"us\#(index + 1)"}"#
        }
        let written = generated == generated.rounded() ? "\(Int64(generated))" : "\(generated)"
        return #"{"type":"FeatureCollection","metadata":{"generated":\#(written)},"features":["# + features.joined(separator: ",") + "]}"
    }
}
