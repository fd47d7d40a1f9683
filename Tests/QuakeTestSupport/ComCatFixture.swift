/// ComCat GeoJSON downloads written from the USGS feed format
/// (https://earthquake.usgs.gov/earthquakes/feed/v1.0/geojson.php): a feature's `ids` lists every
/// code of its event, `metadata.generated` says when the download was made. The pair is the real
/// one of `../shared/data/usgs`: `nn00743624` and `us6000a6su`, which ComCat merged.
public enum ComCatFixture {
    /// A download generated at `generated` (ms; nil: no metadata) of `features`.
    public static func download(generated: Int64?, _ features: [String]) -> String {
        let metadata = generated.map { #""metadata":{"generated":\#($0),"title":"USGS Earthquakes","status":200,"count":\#(features.count)},"# } ?? ""
        return #"{"type":"FeatureCollection",\#(metadata)"features":[\#(features.joined(separator: ","))]}"#
    }

    /// A ComCat feature `code` listing `ids` (its own code among them), M `magnitude`, near 38.16°N 117.89°W.
    public static func feature(_ code: String, ids: [String], magnitude: Double = 2.6, time: Int64 = 1_591_385_507_778,
                               updated: Int64 = 1_591_409_778_453, longitude: Double = -117.896) -> String {
        let net = String(code.prefix(2))
        return #"{"type":"Feature","properties":{"mag":\#(magnitude),"place":"31 km SE of Mina, Nevada","time":\#(time),"#
            + #""updated":\#(updated),"status":"reviewed","net":"\#(net)","code":"\#(code.dropFirst(2))","#
            + #""ids":",\#(ids.joined(separator: ",")),","sources":",\#(net),","magType":"ml","type":"earthquake"},"#
            + #""geometry":{"type":"Point","coordinates":[\#(longitude),38.1576,5.1]},"id":"\#(code)"}"#
    }

    /// The download made first: two events apart.
    public static let apart = download(generated: 1_591_761_945_000, [
        feature("nn00743624", ids: ["nn00743624"]),
        feature("us6000a6su", ids: ["nn00743603", "us6000a6su"], magnitude: 2.5, time: 1_591_385_507_668, updated: 1_591_394_087_040,
                longitude: -117.8903),
    ])

    /// The download made later: `nn00743624` lists `us6000a6su`.
    public static let merged = download(generated: 1_591_762_834_000, [
        feature("nn00743624", ids: ["nn00743603", "us6000a6su", "nn00743624"]),
    ])
}
