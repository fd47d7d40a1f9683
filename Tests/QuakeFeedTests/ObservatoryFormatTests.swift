import Foundation
import QuakeFeed
import QuakeModel
import QuakeStore
import QuakeTestSupport
import Testing

/// Issue 53, point 6: what observatories serve is read with QuakeML's code and agency rules
/// (SeisComP's SC3ML 0.9–0.14, GeoNet's GeoJSON), one service's events read from two of its
/// formats are the same reports, and a feed whose `metadata.generated` is in another unit than
/// its times is read by its times.
@Suite struct ObservatoryFormatTests {
    /// Every record of `text`, and the reader's notes.
    static func read(_ text: String, name: String, chunkSize: Int = FeedReader.defaultChunkSize) throws -> ([QuakeRecord], [String]) {
        let reader = try FeedReader(source: .bytes(Array(text.utf8)), name: name, chunkSize: chunkSize)
        let records = try reader.readAll()
        return (records, reader.notes)
    }

    static let sc3mlVersions = Array(9...14)

    // MARK: SC3ML

    /// Each version SeisComP's fdsnws writes: the preferred origin and magnitude (the magnitudes
    /// sit in the origin, `magnitude/magnitude/value`), depth in kilometres, the code `geofon:<id>`
    /// from the GFZ agencyID (the publicID is a plain id, no URI authority), `updated` from the
    /// event's `modificationTime`, and the moment magnitude when none is flagged.
    @Test(arguments: sc3mlVersions)
    func sc3mlIsReadAsQuakeMLIs(minor: Int) throws {
        let (records, notes) = try Self.read(ObservatoryFixtures.sc3ml(minor: minor), name: "geofon.xml")
        #expect(records.count == 2)
        let first = try #require(records.first { $0.code == "geofon:gfz2024abcd" }, "\(records.map(\.code))")
        #expect(first.time == 1_704_094_929_812)  // 2024-01-01T07:42:09.812345Z
        #expect(first.latitude == 37.2861 && first.longitude == 136.7719)
        #expect(first.depth == 10)
        #expect(first.magnitude == 7.49 && first.magType == "M")
        #expect(first.place == "Near West Coast of Honshu, Japan")
        #expect(first.updated == 1_704_186_000_000)  // modificationTime 2024-01-02T09:00:00Z
        #expect(first.status == "confirmed" && first.type == "earthquake" && first.source == "geofon")
        let second = try #require(records.first { $0.code == "geofon:gfz2024abce" })
        #expect(second.magnitude == 5.3 && second.magType == "Mw(mB)")
        #expect(second.depth == 12.5)
        #expect(second.updated == 1_704_104_640_000)  // no times in the event's creationInfo: the origin's creationTime
        #expect(notes.contains("SeisComP SC3ML 0.\(minor): depths in kilometres, magnitudes read from their origins"), "\(notes)")
    }

    /// Streaming: the records are the same at any chunk size, the tags split anywhere.
    @Test func sc3mlReadsTheSameAtAnyChunkSize() throws {
        let text = ObservatoryFixtures.sc3ml(minor: 13)
        let (whole, _) = try Self.read(text, name: "geofon.xml")
        for chunkSize in [1, 7, 64, 1000] {
            let (records, _) = try Self.read(text, name: "geofon.xml", chunkSize: chunkSize)
            #expect(records == whole, "chunk size \(chunkSize)")
        }
    }

    /// The third event names an origin the answer does not hold: skipped with its reason.
    @Test func anSC3MLEventWithoutItsOriginIsSkipped() throws {
        let reader = try FeedReader(source: .bytes(Array(ObservatoryFixtures.sc3ml(minor: 12).utf8)), name: "geofon.xml")
        _ = try reader.readAll()
        #expect(reader.skippedCount == 1)
        #expect(reader.skipped.first?.reason == "the event has no origin")
    }

    /// A version outside 0.9–0.14 is read the same way, and the import says so.
    @Test func anSC3MLVersionOutsideTheKnownOnesIsReadAndNoted() throws {
        let text = ObservatoryFixtures.sc3ml(minor: 13).replacingOccurrences(of: "version=\"0.13\"", with: "version=\"0.15\"")
        let (records, notes) = try Self.read(text, name: "geofon.xml")
        #expect(records.count == 2)
        #expect(notes.contains { $0.hasPrefix("SeisComP SC3ML version 0.15 is outside 0.9–0.14") }, "\(notes)")
    }

    /// An SC3ML publicID written as a URI names its authority, as in QuakeML; `import --agency` wins.
    @Test func anSC3MLPublicIDWrittenAsAURINamesItsAuthority() throws {
        let text = ObservatoryFixtures.sc3ml(minor: 10).replacingOccurrences(
            of: "<event publicID=\"gfz2024abcd\">", with: "<event publicID=\"smi:ca.seismo/event/evid/19521225.0428002\">")
        let (records, _) = try Self.read(text, name: "ca.xml")
        #expect(Set(records.map(\.code)) == ["ca.seismo:19521225.0428002", "geofon:gfz2024abce"])
        let named = try FeedReader(source: .bytes(Array(ObservatoryFixtures.sc3ml(minor: 14).utf8)), name: "x.xml", agency: "gfz-test")
        #expect(Set(try named.readAll().map(\.code)) == ["gfz-test:gfz2024abcd", "gfz-test:gfz2024abce"])
    }

    // MARK: One service, two formats

    /// GEOFON's SC3ML and FDSN text, GeoNet's GeoJSON and FDSN text, and a USGS-shaped service's
    /// GeoJSON and text (ids that do not start with their net): each pair reads as the same
    /// codes, origins and magnitudes. (ComCat's own: `aRealUSGSTextFileAndItsGeoJSONAreTheSameReports`.)
    @Test(arguments: [
        ("geofon", ObservatoryFixtures.sc3ml(minor: 13), ObservatoryFixtures.geofonText, ["geofon:gfz2024abcd", "geofon:gfz2024abce"]),
        ("geonet", ObservatoryFixtures.geoNetGeoJSON, ObservatoryFixtures.geoNetText, ["geonet:2016p858000", "geonet:2024p123456"]),
        ("service", ObservatoryFixtures.serviceGeoJSON, ObservatoryFixtures.serviceText, ["us:fx0006679", "us:fx0006680"]),
    ])
    func oneServicesFormatsAreTheSameReports(service: String, first: String, text: String, codes: [String]) throws {
        let (a, _) = try Self.read(first, name: "\(service).first")
        let (b, _) = try Self.read(text, name: "\(service).txt")
        #expect(a.map(\.code).sorted() == codes.sorted())
        #expect(b.map(\.code).sorted() == codes.sorted())
        for code in codes {
            let x = try #require(a.first { $0.code == code }), y = try #require(b.first { $0.code == code })
            #expect(x.time == y.time && x.latitude == y.latitude && x.longitude == y.longitude, "\(code)")
            #expect(x.depth == y.depth && x.magnitude == y.magnitude && x.place == y.place && x.source == y.source, "\(code)")
        }
    }

    /// GeoNet's GeoJSON: `publicID` for the id, `locality` for the place, `depth` and
    /// `magnitude` in the properties, an ISO `time`, and `quality` in the words of `status`.
    @Test func geoNetsGeoJSONIsRead() throws {
        let (records, _) = try Self.read(ObservatoryFixtures.geoNetGeoJSON, name: "geonet.json")
        let kaikoura = try #require(records.first)
        #expect(kaikoura.code == "geonet:2016p858000" && kaikoura.source == "geonet")
        #expect(kaikoura.time == 1_479_034_976_346)  // 2016-11-13T11:02:56.346Z
        #expect(kaikoura.latitude == -42.6925 && kaikoura.longitude == 173.0197 && kaikoura.depth == 15.11)
        #expect(kaikoura.magnitude == 7.82 && kaikoura.place == "20 km south-east of Hanmer Springs")
        #expect(records.map(\.status) == ["reviewed", "automatic"])
    }

    /// A real USGS FDSN text file and the same events as the service's GeoJSON: five codes, not ten.
    @Test(.enabled(if: SharedData.isAvailable, "needs ../shared/data"))
    func aRealUSGSTextFileAndItsGeoJSONAreTheSameReports() throws {
        let url = SharedData.otherDirectory.appendingPathComponent("fdsn_text-usgs-honshu-2024-01-01.txt")
        let text = try String(contentsOf: url, encoding: .utf8)
        let (fromText, _) = try Self.read(text, name: "honshu.txt")
        let (fromGeoJSON, _) = try Self.read(ObservatoryFixtures.honshuGeoJSON, name: "honshu.geojson")
        #expect(fromText.count == 5)
        #expect(Set(fromText.map(\.code)) == Set(fromGeoJSON.map(\.code)))
        #expect(Set(fromText.map(\.code)) == ["us6000m0yg", "us6000m0yf", "us6000m0ye", "us6000m0ya", "us6000m0y9"])
        for record in fromText {
            let other = try #require(fromGeoJSON.first { $0.code == record.code })
            #expect(other.time == record.time && other.magnitude == record.magnitude, "\(record.code)")
        }
    }

    // MARK: metadata.generated against the times

    /// `generated` in milliseconds, the times in seconds: as `generated` says they would be in
    /// January 1970, decades before it; the times decide (seconds), and the import says so.
    @Test func millisecondsGeneratedAndTimesInSecondsAreReadAsSeconds() throws {
        let (records, notes) = try Self.read(ObservatoryFixtures.feed(generated: 1_704_110_000_000, times: [1_704_100_000, 1_704_000_000]), name: "s.geojson")
        #expect(records.map(\.time) == [1_704_100_000_000, 1_704_000_000_000])
        #expect(notes.contains("metadata.generated 1704110000000 reads as milliseconds (2024-01-01), "
                               + "decades away from the features' times read that way: the times decided"), "\(notes)")
        #expect(notes.contains { $0.hasPrefix("times are in seconds") }, "\(notes)")
    }

    /// The other way round: `generated` in seconds, the times in milliseconds.
    @Test func secondsGeneratedAndTimesInMillisecondsAreReadAsMilliseconds() throws {
        let (records, notes) = try Self.read(ObservatoryFixtures.feed(generated: 1_704_110_000, times: [1_704_100_000_000]), name: "ms.geojson")
        #expect(records.map(\.time) == [1_704_100_000_000])
        #expect(notes.contains { $0.hasPrefix("metadata.generated 1704110000 reads as seconds (2024-01-01)") }, "\(notes)")
        #expect(!notes.contains { $0.hasPrefix("times are in seconds") })
    }

    /// When they agree, `generated` decides as before, in either unit, and nothing is said.
    @Test(arguments: [(1_704_110_000_000.0, 1_704_100_000_000.0, Int64(1_704_100_000_000)), (1_704_110_000, 1_704_100_000, 1_704_100_000_000)])
    func agreeingGeneratedDecides(generated: Double, time: Double, stored: Int64) throws {
        let (records, notes) = try Self.read(ObservatoryFixtures.feed(generated: generated, times: [time]), name: "ok.geojson")
        #expect(records.map(\.time) == [stored])
        #expect(!notes.contains { $0.hasPrefix("metadata.generated") }, "\(notes)")
    }

    /// A historical catalogue (first quake 1921, generated 2021, both in milliseconds) is a
    /// century from `generated` but only milliseconds make sense of its times: nothing changes.
    @Test func aHistoricalCatalogueInMillisecondsStaysInMilliseconds() throws {
        let (records, notes) = try Self.read(ObservatoryFixtures.feed(generated: 1_619_662_637_665, times: [-1_535_065_200_000, 1_600_000_000_000]),
                                             name: "history.geojson")
        #expect(records.map(\.time) == [-1_535_065_200_000, 1_600_000_000_000])
        #expect(notes.isEmpty, "\(notes)")
    }
}
