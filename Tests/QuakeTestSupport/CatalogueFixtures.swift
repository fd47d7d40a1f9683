import Foundation

/// Small fixtures written from the published formats: the FDSN web service specification 1.2
/// (`format=text`), QuakeML 1.2 BED, EMSC seismicportal's `format=json`, and a USGS-shaped
/// feed whose times are seconds (as the legacy 2012 GeoJSONP feed and hand-edited feeds write them).
public enum CatalogueFixtures {
    /// FDSN text with the optional 14th column (EventType), spaces around names, CRLF, a comment.
    public static let fdsnText14 = """
        #EventID | Time | Latitude | Longitude | Depth/km | Author | Catalog | Contributor | ContributorID | MagType | Magnitude | MagAuthor | EventLocationName | EventType\r
        20240101_0000123|2024-01-01T00:10:31.5|45.70|26.60|130.0|NIEP|EMSC-RTS|EMSC|1573035|ml|3.1|NIEP|ROMANIA|earthquake\r
        # a comment line\r
        20240101_0000124|2024-01-01T00:20:00.25Z|38.10|20.40|10.0|NOA|EMSC-RTS|EMSC|1573036|ml|2.4|NOA|GREECE|earthquake\r

        """

    /// FDSN text, 12 columns (no EventLocationName), INGV style: numeric ids, no time zone.
    public static let fdsnText12 = """
        #EventID|Time|Latitude|Longitude|Depth/Km|Author|Catalog|Contributor|ContributorID|MagType|Magnitude|MagAuthor
        37893831|2024-03-01T10:12:13.450000|42.8|13.1|9.5|SURVEY-INGV||||ML|2.1|--
        37893832|2024-03-01T11:00:00.000000|not a number|13.1|9.5|SURVEY-INGV||||ML|2.1|--

        """

    /// QuakeML with another prefix for the root, a default BED namespace declared on
    /// eventParameters, magnitude before origin, two origins (the preferred second), a time
    /// without Z, a comment, CDATA and entities.
    public static let quakeML = """
        <?xml version="1.0" encoding="UTF-8"?>
        <!-- written from the QuakeML 1.2 BED -->
        <qml:quakeml xmlns:qml="http://quakeml.org/xmlns/quakeml/1.2">
          <eventParameters xmlns="http://quakeml.org/xmlns/bed/1.2" publicID="smi:www.seismicportal.eu/fdsnws/event/1/query">
            <event publicID="smi:www.seismicportal.eu/fdsnws/event/1/query?eventid=20240101_0000123">
              <description><type>region name</type><text>ROMANIA &amp; BULGARIA</text></description>
              <magnitude publicID="smi:m/2"><mag><value>3.4</value></mag><type>mb</type></magnitude>
              <magnitude publicID="smi:m/1"><mag><value>3.1</value></mag><type>ml</type></magnitude>
              <origin publicID="smi:o/1"><time><value>2024-01-01T00:00:00Z</value></time>
                <latitude><value>1</value></latitude><longitude><value>2</value></longitude></origin>
              <origin publicID="smi:o/2">
                <time><value>2024-01-01T00:10:31.5</value></time>
                <latitude><value>45.7</value></latitude>
                <longitude><value><![CDATA[26.6]]></value></longitude>
                <depth><value>130000</value></depth>
                <arrival><pickID>smi:p/1</pickID></arrival>
              </origin>
              <preferredOriginID>smi:o/2</preferredOriginID>
              <preferredMagnitudeID>smi:m/1</preferredMagnitudeID>
              <type>earthquake</type>
              <creationInfo><creationTime>2024-01-01T00:25:12.000Z</creationTime></creationInfo>
            </event>
            <event publicID="smi:www.seismicportal.eu/fdsnws/event/1/query?eventid=20240101_0000999">
              <type>not existing</type>
            </event>
          </eventParameters>
        </qml:quakeml>

        """

    /// EMSC seismicportal `format=json` (ISO-8601 strings, lastupdate, flynn_region, unid,
    /// coordinates[2] negative while properties.depth is positive).
    public static let emscJSON = """
        {"type":"FeatureCollection","metadata":{"count":2},"features":[
        {"geometry":{"type":"Point","coordinates":[26.6,45.7,-130.0]},"type":"Feature","id":"20240101_0000123",
         "properties":{"source_id":"1573035","source_catalog":"EMSC-RTS","lastupdate":"2024-01-01T00:25:12.123456Z",
         "time":"2024-01-01T00:10:31.5Z","flynn_region":"ROMANIA","lat":45.7,"lon":26.6,"depth":130.0,"evtype":"ke",
         "auth":"NIEP","mag":3.1,"magtype":"ml","unid":"20240101_0000123"}},
        {"geometry":{"type":"Point","coordinates":[20.4,38.1,-10.0]},"type":"Feature","id":"20240101_0000124",
         "properties":{"source_id":"1573036","source_catalog":"EMSC-RTS","lastupdate":"2024-01-01T00:30:00Z",
         "time":"2024-01-01T00:20:00.25Z","flynn_region":"GREECE","lat":38.1,"lon":20.4,"depth":10.0,"evtype":"ke",
         "auth":"NOA","mag":2.4,"magtype":"ml","unid":"20240101_0000124"}}
        ]}
        """

    /// A USGS-shaped feed whose metadata and times are in seconds.
    public static let secondsWithMetadata = """
        {"type":"FeatureCollection","metadata":{"generated":1700000500,"title":"hand-edited"},"features":[
        {"type":"Feature","properties":{"mag":4.5,"place":"10 km N of Somewhere","time":1700000000,"updated":1700000100.5},
         "geometry":{"type":"Point","coordinates":[-120.5,35.25,8.1]},"id":"us1"}]}
        """

    /// A USGS-shaped feed without metadata whose times are seconds (decided from the records).
    public static let secondsWithoutMetadata = """
        {"type":"FeatureCollection","features":[
        {"type":"Feature","properties":{"mag":4.5,"place":"A","time":1348176066},"geometry":{"type":"Point","coordinates":[1,2,3]},"id":"us1"},
        {"type":"Feature","properties":{"mag":4.6,"place":"B","time":1348175020},"geometry":{"type":"Point","coordinates":[1,2,3]},"id":"us2"}]}
        """

    /// Well-formed, but every feature lacks a time.
    public static let everyFeatureSkipped = """
        {"type":"FeatureCollection","features":[
        {"type":"Feature","properties":{"mag":4.5},"geometry":{"type":"Point","coordinates":[1,2,3]},"id":"us1"},
        {"type":"Feature","properties":{"mag":4.6},"geometry":{"type":"Point","coordinates":[1,2,3]},"id":"us2"}]}
        """

    /// `text` as UTF-16 with a byte order mark and CRLF line ends.
    public static func utf16(_ text: String, bigEndian: Bool) -> [UInt8] {
        let crlf = text.replacingOccurrences(of: "\r\n", with: "\n").replacingOccurrences(of: "\n", with: "\r\n")
        var bytes: [UInt8] = bigEndian ? [0xFE, 0xFF] : [0xFF, 0xFE]
        for unit in crlf.utf16 {
            let hi = UInt8(unit >> 8), lo = UInt8(unit & 0xFF)
            bytes += bigEndian ? [hi, lo] : [lo, hi]
        }
        return bytes
    }
}
